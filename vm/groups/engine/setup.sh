# Guest side: one scsi_debug LU (64 MiB) and the TCMU-served virtual drive (speed=5 drive clock,
# so formats finish), as in the tcmu group.
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
modprobe sg
modprobe sd_mod
modprobe bsg 2>/dev/null || true
# scsi_debug answers after `delay` jiffies (default 1: 4 ms at Debian's HZ=250, so IOPS are about
# QD / 4 ms until a tool runs out of CPU). EM_SDEBUG (the engine-matrix benchmark, which runs
# this setup: scripts/bench-engine-vm.sh SDEBUG=...) passes other options, comma-separated:
# by default "ndelay=100000" (answered 100 us later from a high-resolution timer), or e.g.
# "delay=0" (answered at once: the tools' own costs decide); the suite passes none.
# shellcheck disable=SC2086
modprobe scsi_debug num_tgts=1 max_luns=1 dev_size_mb=64 $(echo "${EM_SDEBUG:-}" | tr , ' ')
wait_for 60 sh -c 'lsscsi -g | grep -q scsi_debug'
modprobe target_core_user
modprobe tcm_loop
grep -q " /sys/kernel/config configfs" /proc/mounts || mount -t configfs none /sys/kernel/config
start_serve speed=5
lsscsi -g
