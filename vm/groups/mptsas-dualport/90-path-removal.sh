# Removes one HBA while the guest runs (QEMU monitor device_del through the host): the drive keeps
# one path and nothing hangs. Runs last in the group: it changes the topology.
. /vm/guest/lib.sh
if ! host_cmd device_del sas1; then
  fail device_del "the host could not remove sas1"
  exit 0
fi
if wait_for 60 sh -c '[ "$(ls /sys/class/scsi_generic | wc -l)" -eq 1 ]'; then
  pass path_gone
else
  fail path_gone "still $(ls /sys/class/scsi_generic | wc -l) sg nodes 60 s after device_del"
fi
t0=$(date +%s)
timeout 30 sgctl --json scan --timeout-ms 5000 > /tmp/scan1.json; rc=$?
t1=$(date +%s)
[ $rc = 0 ] && pass scan_after_removal "(in $((t1 - t0)) s)" || fail scan_after_removal "exit $rc after $((t1 - t0)) s (124 = hung)"
got=$(jq -r '[.data.drives[] | select(.lu_name == "naa.5000c500000000cc") | .paths | length, .[0].relative_port] | map(tostring) | join(",")' /tmp/scan1.json)
[ "$got" = "1,1" ] && pass one_path_left || fail one_path_left "drives/paths/relport: $got"
. /vm/guest/agree.sh /tmp/scan1.json
