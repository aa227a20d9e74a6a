# Guest side: LIO with the user backstore and the loopback fabric, then start serving the
# dual-port virtual drive (two backstores, two tcm_loop targets) and wait for both paths.
. /vm/guest/lib.sh
modprobe sg
modprobe sd_mod
modprobe bsg 2>/dev/null || true
modprobe target_core_user
modprobe tcm_loop
grep -q " /sys/kernel/config configfs" /proc/mounts || mount -t configfs none /sys/kernel/config
sh -c 'sgctl sim serve --tcmu "px02smf080?capacity_gib=1&serial=TCMU0001" --ready-file /tmp/tcmu.ready \
         > /tmp/serve.out 2> /tmp/serve.err & echo $! > /tmp/serve.pid; wait $!; echo $? > /tmp/serve.rc' &
wait_for 90 test -f /tmp/tcmu.ready || { cat /tmp/serve.err; exit 1; }
cat /tmp/serve.err
lsscsi -g
