# scsi_debug with 2 targets x 8 LUNs (16 LUs) ($SDEBUG_DEFAULT in lib.sh). Scripts that reload it
# with other parameters (sdebug_reload) restore this with sdebug_default before they end.
. /vm/guest/lib.sh
modprobe sg
modprobe sd_mod
modprobe scsi_debug $SDEBUG_DEFAULT
wait_for 60 sh -c '[ "$(ls /sys/class/scsi_generic | wc -l)" -ge 16 ]'
