# sgctl scan over real SG_IO: the dual-ported LU is one drive with two paths.
. /vm/guest/lib.sh
sgctl scan; sgctl --json scan > /tmp/scan.json; rc=$?
[ $rc = 0 ] && pass scan_exit_0 || fail scan_exit_0 "sgctl scan exited $rc"
q() { jq -r "$1" /tmp/scan.json; }
D='.data.drives[] | select(.lu_name == "naa.5000c500000000cc")'
n=$(q "[$D] | length")
[ "$n" = 1 ] && pass one_drive || fail one_drive "$n drives with LU naa.5000c500000000cc"
n=$(q "$D | .paths | length")
[ "$n" = 2 ] && pass two_paths || fail two_paths "$n paths"
rel=$(q "[$D | .paths[].relative_port] | sort | map(tostring) | join(\",\")")
[ "$rel" = "1,2" ] && pass relative_ports_1_2 || fail relative_ports_1_2 "relative ports $rel"
tps=$(q "[$D | .paths[].target_port] | sort | join(\",\")")
[ "$tps" = "0x5000c500000000c1,0x5000c500000000c2" ] && pass target_ports_differ || fail target_ports_differ "target ports $tps"
ident=$(q "$D | [.vendor, .model, .serial, .capacity_bytes, .logical_block_size, .rotation_rate, .protection_type, (.in_use|length)] | map(tostring) | join(\"|\")")
[ "$ident" = "SGCTLVM|DUALPORT|DP0001|67108864|512|7200|0|0" ] && pass identity || fail identity "got $ident"
# SAS topology from sysfs: each path leaves through phy 0 of its own HBA at 3.0 Gbit.
sas=$(q "[$D | .paths[] | \"\(.host):\(.hba_phy):\(.link_rate):\(.end_device)\"] | join(\",\")")
h0=$(q "[$D | .paths[].host] | .[0]"); h1=$(q "[$D | .paths[].host] | .[1]")
[ "$sas" = "$h0:phy-$h0:0:3.0 Gbit:end_device-$h0:0,$h1:phy-$h1:0:3.0 Gbit:end_device-$h1:0" ] \
  && pass sas_phys || fail sas_phys "got $sas"
nodes=$(q "[$D | .paths[] | (.sg != null and .block != null and .bsg != null)] | all")
[ "$nodes" = true ] && pass nodes_sg_sd_bsg || fail nodes_sg_sd_bsg "$(q "$D | .paths")"
. /vm/guest/agree.sh /tmp/scan.json
# sgctl paths from either node finds both paths.
for dev in /dev/sda /dev/sg1 "$(q "$D | .paths[1].bsg")"; do
  n=$(sgctl --json paths "$dev" | jq '.data.paths | length')
  [ "$n" = 2 ] && pass "paths_$(basename "$dev")" || fail "paths_$(basename "$dev")" "sgctl paths $dev: $n paths"
done
sgctl paths /dev/nonexistent >/dev/null 2>&1; rc=$?
[ $rc = 3 ] && pass paths_unknown_exit_3 || fail paths_unknown_exit_3 "exit $rc, want 3 (open)"
