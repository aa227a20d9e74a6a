# Guest side: load the HBA driver and wait for both paths.
. /vm/guest/lib.sh
modprobe sg
modprobe sd_mod
modprobe mptsas
wait_for 60 sh -c '[ "$(ls /sys/class/scsi_generic | wc -l)" -ge 2 ]'
wait_for 30 sh -c '[ "$(ls -d /sys/class/sas_end_device/* | wc -l)" -ge 2 ]'
lsscsi -g
