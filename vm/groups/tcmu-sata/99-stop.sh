# SIGTERM tears the SATA drive's TCMU serving down: serve exits 0, the disk is gone.
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
stop_serve; rc=$?
[ $rc = 0 ] && pass serve_exit_0 || fail serve_exit_0 "exit $rc: $(tail -n 5 /tmp/serve.err)"
[ -z "$(lsscsi | grep THNSN880)" ] && pass disks_gone || fail disks_gone "$(lsscsi)"
