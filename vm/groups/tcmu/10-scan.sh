# sgctl scan on the TCMU-served dual-port drive: one drive, two paths (relative ports 1 and 2,
# different target ports), agreeing with lsscsi and sg_vpd.
. /vm/guest/lib.sh
sgctl scan
sgctl --json scan > /tmp/scan.json; rc=$?
[ $rc = 0 ] && pass scan_exit_0 || fail scan_exit_0 "exit $rc"
D='.data.drives[] | select(.model == "PX02SMF080")'
got=$(jq -r "[$D] | length" /tmp/scan.json)
[ "$got" = 1 ] && pass one_drive || fail one_drive "$got drives"
got=$(jq -r "[$D | .paths[].relative_port] | sort | map(tostring) | join(\",\")" /tmp/scan.json)
[ "$got" = "1,2" ] && pass relative_ports_1_2 || fail relative_ports_1_2 "$got"
got=$(jq -r "[$D | .paths[].target_port] | unique | length" /tmp/scan.json)
[ "$got" = 2 ] && pass target_ports_differ || fail target_ports_differ "$(jq -c "[$D | .paths[].target_port]" /tmp/scan.json)"
got=$(jq -r "$D | [.serial, .logical_block_size, .capacity_bytes, .rotation_rate] | map(tostring) | join(\"|\")" /tmp/scan.json)
[ "$got" = "TCMU0001|512|1073741824|1" ] && pass identity || fail identity "$got"
. /vm/guest/agree.sh /tmp/scan.json
