. /vm/guest/lib.sh
n=$(lsscsi | grep -c 'Linux    scsi_debug')
[ "$n" = 8 ] && pass eight_luns || fail eight_luns "lsscsi shows $n scsi_debug LUNs, want 8"
