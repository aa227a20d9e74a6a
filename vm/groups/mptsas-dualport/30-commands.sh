# sgctl vpd on both paths of the dual-port QEMU disk (two mptsas1068 HBAs, one LU): the same LU
# name, target port NAA ...c1/...c2 and relative target ports 1/2, each page printed as sg_vpd
# prints it.
. /vm/guest/lib.sh
strip() { sed 's/[[:space:]]*$//' "$1" | grep -v '^$'; }
lus=""; tps=""; rels=""
for sg in $(lsscsi -g | awk '/SGCTLVM/{print $NF}'); do
  d=$(basename "$sg")
  out=$(sgctl --json vpd "$sg" --page di) || { fail "di_$d" "sgctl exit $?"; continue; }
  lus="$lus $(echo "$out" | jq -r '.data.designators[] | select(.association=="logical_unit" and .designator.kind=="naa") | .designator.value')"
  tps="$tps $(echo "$out" | jq -r '.data.designators[] | select(.association=="target_port" and .designator.kind=="naa") | .designator.value')"
  rels="$rels $(echo "$out" | jq -r '.data.designators[] | select(.designator.kind=="relative_target_port") | .designator.relative_port')"
  for p in sv sn di bl bdc lbpv; do
    sgctl vpd "$sg" --page $p > /tmp/o 2>&1; sg_vpd -p $p "$sg" > /tmp/t 2>&1
    strip /tmp/o > /tmp/o2; strip /tmp/t > /tmp/t2
    diff /tmp/t2 /tmp/o2 > /tmp/d && pass "vpd_${p}_$d" || fail "vpd_${p}_$d" "$(head -n 4 /tmp/d | tr '\n' '|')"
  done
done
[ "$(echo $lus)" = "0x5000c500000000cc 0x5000c500000000cc" ] && pass same_lu_name || fail same_lu_name "LU NAAs: $lus"
case "$(echo $tps | tr ' ' '\n' | sort | tr '\n' ' ')" in
  "0x5000c500000000c1 0x5000c500000000c2 ") pass two_target_ports ;;
  *) fail two_target_ports "target port NAAs: $tps" ;;
esac
case "$(echo $rels | tr ' ' '\n' | sort | tr '\n' ' ')" in
  "1 2 ") pass relative_ports ;;
  *) fail relative_ports "relative ports: $rels" ;;
esac
