# SIGTERM tears everything down: serve exits 0, no LIO objects left behind.
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
stop_serve; rc=$?
cat /tmp/serve.err; cat /tmp/serve.out
[ $rc = 0 ] && pass serve_exit_0 || fail serve_exit_0 "exit $rc"
# (the loopback fabric directory itself may stay: the benchmark's own target created it)
left=$(ls /sys/kernel/config/target/loopback 2>/dev/null | grep naa.; ls /sys/kernel/config/target/core | grep user_)
[ -z "$left" ] && pass configfs_clean || fail configfs_clean "left behind: $left"
[ -z "$(lsscsi | grep PX02SMF080)" ] && pass disks_gone || fail disks_gone "$(lsscsi)"
