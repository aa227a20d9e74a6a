. /vm/guest/lib.sh
modprobe sg
modprobe sd_mod
modprobe scsi_debug num_tgts=1 max_luns=256 dev_size_mb=4
wait_for 300 sh -c '[ "$(ls /sys/class/scsi_generic | wc -l)" -ge 256 ]'
# let sd finish attaching (partition scans etc.) before timing anything
wait_for 300 sh -c '[ "$(ls /sys/class/scsi_disk | wc -l)" -ge 256 ]'
sleep 2
