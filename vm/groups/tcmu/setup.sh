# Guest side: LIO with the user backstore and the loopback fabric, then serve the dual-port virtual
# drive (two backstores, two tcm_loop targets) and wait for both paths. The drive clock runs 5x
# wall time so a full FORMAT UNIT (90 s on this profile) takes 18 s.
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
modprobe sg
modprobe sd_mod
modprobe bsg 2>/dev/null || true
modprobe target_core_user
modprobe tcm_loop
grep -q " /sys/kernel/config configfs" /proc/mounts || mount -t configfs none /sys/kernel/config
rm -f "$TCMU_STATE" "${TCMU_STATE%.*}.lock"
start_serve speed=5
lsscsi -g
