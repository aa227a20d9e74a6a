# scsi_debug with 2 targets x 8 LUNs (16 LUs). Later scripts reload it with other parameters.
. /vm/guest/lib.sh
modprobe sg
modprobe sd_mod
modprobe scsi_debug num_tgts=2 max_luns=8 dev_size_mb=8
wait_for 60 sh -c '[ "$(ls /sys/class/scsi_generic | wc -l)" -ge 16 ]'
