# Guest side: one scsi_debug LU (64 MiB) and the TCMU-served virtual drive (speed=5 drive clock,
# so formats finish), as in the tcmu group.
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
modprobe sg
modprobe sd_mod
modprobe bsg 2>/dev/null || true
modprobe scsi_debug num_tgts=1 max_luns=1 dev_size_mb=64
wait_for 60 sh -c 'lsscsi -g | grep -q scsi_debug'
modprobe target_core_user
modprobe tcm_loop
grep -q " /sys/kernel/config configfs" /proc/mounts || mount -t configfs none /sys/kernel/config
start_serve speed=5
lsscsi -g
