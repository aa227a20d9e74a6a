# The kernel attached the virtual drive on two paths: same LU, relative target ports 1 and 2.
. /vm/guest/lib.sh
sgs=$(lsscsi -g | awk '/PX02SMF080/ {print $NF}')
n=$(echo $sgs | wc -w)
[ "$n" = 2 ] && pass two_sg_paths || fail two_sg_paths "lsscsi shows $n PX02SMF080 sg nodes: $(lsscsi -g)"
sds=$(lsscsi | awk '/PX02SMF080/ {print $NF}')
[ "$(echo $sds | wc -w)" = 2 ] && pass two_sd_paths || fail two_sd_paths "$(lsscsi)"
ports=""; lus=""
for sg in $sgs; do
  di=$(sg_vpd -p di "$sg" 2>&1)
  ports="$ports $(echo "$di" | sed -n 's/.*Relative target port: 0x\([0-9a-f]*\).*/\1/p')"
  lus="$lus $(echo "$di" | sed -n '/Addressed logical unit/,/Target port/p' | sed -n 's/^ *\(0x[0-9a-f]*\)$/\1/p' | head -n1)"
done
case "$(echo $ports | tr ' ' '\n' | sort | tr '\n' ' ')" in
  "1 2 "|"0x1 0x2 ") pass relative_ports_1_2 ;;
  *) fail relative_ports_1_2 "sg_vpd -p di relative ports: '$ports'" ;;
esac
set -- $lus
[ -n "$1" ] && [ "$1" = "$2" ] && pass same_lu_name || fail same_lu_name "LU names: '$lus'"
if sgctl scan --help >/dev/null 2>&1; then
  out=$(sgctl --json scan 2>&1)
  c=$(echo "$out" | grep -c PX02SMF080 || true)
  echo "$out" | head -n 40
  echo "$out" | grep -q "$(echo $sgs | cut -d' ' -f1)" && echo "$out" | grep -q "$(echo $sgs | cut -d' ' -f2)" \
    && pass scan_both_paths || fail scan_both_paths "sgctl scan does not list both $sgs"
else
  skip scan_both_paths "sgctl scan is not in this build yet"
fi
