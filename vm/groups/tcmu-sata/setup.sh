# Serve the virtual HK4E (SATA behind a SATL) through TCMU + tcm_loop (see ../tcmu/setup.sh).
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
modprobe sg
modprobe sd_mod
modprobe bsg 2>/dev/null || true
modprobe target_core_user
modprobe tcm_loop
grep -q " /sys/kernel/config configfs" /proc/mounts || mount -t configfs none /sys/kernel/config
TCMU_SPEC_BASE="hk4e?capacity_gib=1&serial=SATA0001"
rm -f /tmp/tcmu.ready /tmp/serve.rc
sh -c "sgctl sim serve --tcmu '$TCMU_SPEC_BASE&speed=5' --ready-file /tmp/tcmu.ready \
         > /tmp/serve.out 2> /tmp/serve.err & echo \$! > /tmp/serve.pid; wait \$!; echo \$? > /tmp/serve.rc" &
wait_for 90 sh -c 'test -f /tmp/tcmu.ready || test -f /tmp/serve.rc'
test -f /tmp/tcmu.ready || { cat /tmp/serve.err; exit 1; }
wait_for 30 sh -c 'lsscsi -g | grep -q THNSN880' || { lsscsi -g; exit 1; }
lsscsi -g
