# Removes one HBA while the guest runs (QEMU monitor device_del through the host) and checks the
# remaining path. Runs last in the group: it changes the topology.
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
lsscsi -g
