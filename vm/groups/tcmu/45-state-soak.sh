# fio random writes at QD32 on the TCMU-served drive while it lives in its state file (state=):
# the periodic save (every 5 s: a snapshot taken under the drive lock, serialised and written off
# it) must never stall the rings, so no SCSI command times out or is aborted (dmesg), fio sees
# no error, and the state file is rewritten during the run. Then the data survives a restart.
# CI runs 30 s; scripts/soak-tcmu.sh boots with tcmu_soak=1 for the 10-minute run. The writes stay
# in 32 MiB so the state file (and the final save at stop) stays small enough for TCG.
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
soak_secs=30
grep -q "tcmu_soak=1" /proc/cmdline && soak_secs=600
sd=$(tcmu_sd)
lines0=$(dmesg | wc -l)
m0=$(stat -c %Y "$TCMU_STATE" 2>/dev/null || echo 0)
out=$(fio --name=soak --filename="$sd" --ioengine=libaio --direct=1 --rw=randwrite --bs=4k \
          --size=32M --iodepth=32 --runtime="$soak_secs" --time_based --group_reporting 2>&1)
rc=$?
echo "$out" | tail -n 12
m1=$(stat -c %Y "$TCMU_STATE" 2>/dev/null || echo 0)
iops=$(echo "$out" | sed -n 's/.*IOPS=\([^,]*\),.*/\1/p' | head -n 1)
vm_result "SOAK secs=$soak_secs write_iops=$iops state_saved_at=$m1 (4K randwrite QD32, state=)"
new=$(dmesg | tail -n +"$((lines0 + 1))")
bad=$(echo "$new" | grep -iE "timing out command|timed out|abort|tcmu.*(fail|expired)" | head -n 5)
[ $rc = 0 ] && echo "$out" | grep -q "err= 0" && pass soak_fio_no_errors \
  || fail soak_fio_no_errors "exit $rc: $(echo "$out" | grep -i 'err' | head -n 3)"
[ -z "$bad" ] && pass soak_no_command_timeouts || fail soak_no_command_timeouts "$bad"
[ "$m1" -gt "$m0" ] && pass soak_state_saved_during_run || fail soak_state_saved_during_run "mtime $m0 -> $m1"
# The data is the drive's, not the process's: a known block survives stop and start.
dd if=/dev/urandom of=/tmp/blk bs=4k count=1 2>/dev/null
dd if=/tmp/blk of="$sd" bs=4k seek=1000 count=1 oflag=direct 2>/dev/null
want=$(md5sum < /tmp/blk)
stop_serve; rc=$?
[ $rc = 0 ] && pass soak_stop || fail soak_stop "serve exited $rc"
start_serve speed=5 || fail soak_restart "$(tail -n 5 /tmp/serve.err)"
sd=$(tcmu_sd)
got=$(dd if="$sd" bs=4k skip=1000 count=1 iflag=direct 2>/dev/null | md5sum)
[ "$got" = "$want" ] && pass soak_data_survives_restart || fail soak_data_survives_restart "$got vs $want"
