# What the third-party tools see (the reference later checks compare sgctl against).
. /vm/guest/lib.sh
n=$(lsscsi | grep -c 'SGCTLVM')
[ "$n" = 2 ] && pass lsscsi_two_paths || fail lsscsi_two_paths "lsscsi shows $n SGCTLVM devices, want 2"
ports=""
for sg in $(lsscsi -g | awk '/SGCTLVM/{print $NF}'); do
  p=$(sg_vpd -p di "$sg" | sed -n 's/.*Relative target port: 0x\([0-9a-f]*\).*/\1/p')
  ports="$ports $p"
done
case "$(echo $ports | tr ' ' '\n' | sort | tr '\n' ' ')" in
  "0x1 0x2 "|"1 2 ") pass relative_ports_1_2 ;;
  *) fail relative_ports_1_2 "sg_vpd relative ports: '$ports'" ;;
esac
check sgctl_runs sgctl --version
