# SIGTERM tears everything down: serve exits 0, no LIO objects left behind.
. /vm/guest/lib.sh
kill -TERM "$(cat /tmp/serve.pid)"
wait_for 60 test -f /tmp/serve.rc || fail serve_stops "still running 60 s after SIGTERM"
cat /tmp/serve.err; cat /tmp/serve.out
[ "$(cat /tmp/serve.rc 2>/dev/null)" = 0 ] && pass serve_exit_0 || fail serve_exit_0 "exit $(cat /tmp/serve.rc 2>/dev/null)"
left=$(ls /sys/kernel/config/target/loopback 2>/dev/null; ls /sys/kernel/config/target/core | grep user_)
[ -z "$left" ] && pass configfs_clean || fail configfs_clean "left behind: $left"
[ -z "$(lsscsi | grep PX02SMF080)" ] && pass disks_gone || fail disks_gone "$(lsscsi)"
