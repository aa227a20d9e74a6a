# Fault injection: the TCMU server is killed with SIGKILL mid-SANITIZE (63-server-stop.sh
# covers SIGTERM). A killed server cannot remove its LUNs: LIO keeps them, the kernel keeps
# /dev/sgN and /dev/sdX, and the ring lives on in kernel memory with the job's REQUEST SENSE in
# it. The restarted server (same state file, power_cycle=1: the drive was off) takes the LUNs
# over (sim/src/tcmu/adopt.rs): it resets each ring (the kernel completes what was in it with BUSY)
# and serves the same uio devices. The job watching the sanitize sees a failed poll or two, then
# the drive again: the sanitize resumed after the power cycle, and the job ends `success`,
# exit 0, with the data gone; `sgctl wait` finds nothing pending. SIGTERM then tears the
# taken-over objects down like its own.
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
export SGCTL_AUDIT_LOG=/tmp/audit67.jsonl
: > "$SGCTL_AUDIT_LOG"
# Speed 2: the block erase takes 15 s; the kill comes 7 s in, after the drive's periodic state
# save (every 5 s of use) has recorded the sanitize.
stop_serve || true
start_serve speed=2 || fail serve_start "$(tail -n 5 /tmp/serve.err)"
sg=$(tcmu_sg); sd=$(tcmu_sd)
nodes_before=$(lsscsi -g | grep PX02SMF080)
dd if=/dev/urandom of="$sd" bs=4k count=4 oflag=direct 2>/dev/null
before=$(dd if="$sd" bs=4k count=4 iflag=direct 2>/dev/null | md5sum)

sgctl sanitize --block --confirm TCMU0001 --poll-interval 0.5 "$sg" > /tmp/k67.out 2> /tmp/k67.err &
job=$!
wait_for 30 sh -c "sg_requests --progress $sg 2>&1 | grep -q '%'" && pass sanitize_in_progress \
  || fail sanitize_in_progress "$(sg_requests --progress "$sg" 2>&1 | tail -n 2)"
sleep 7
kill -9 "$(cat /tmp/serve.pid)"
wait_for 10 test -f /tmp/serve.rc
[ "$(cat /tmp/serve.rc 2>/dev/null)" = 137 ] && pass server_killed || fail server_killed "rc $(cat /tmp/serve.rc 2>/dev/null)"
[ "$(lsscsi -g | grep -c PX02SMF080)" = 2 ] && pass luns_survive_the_kill || fail luns_survive_the_kill "$(lsscsi -g)"
# The server stays down for 6 s (longer than the job's 5-s stall mark, well inside sd's 30-s
# command timeout): the job's next poll waits in the dead ring meanwhile.
sleep 6
start_serve "speed=2&power_cycle=1" || fail serve_again "$(tail -n 5 /tmp/serve.err)"
grep -q "taking over the LUNs" /tmp/serve.err && pass server_takes_over \
  || fail server_takes_over "$(tail -n 5 /tmp/serve.err)"
[ "$(lsscsi -g | grep PX02SMF080)" = "$nodes_before" ] && pass same_device_nodes \
  || fail same_device_nodes "before: $nodes_before | after: $(lsscsi -g | grep PX02SMF080)"
i=0
while kill -0 $job 2>/dev/null && [ $i -lt 60 ]; do sleep 1; i=$((i + 1)); done
kill -0 $job 2>/dev/null && { kill $job; fail sanitize_job_ends "still running 60 s after the restart"; }
wait $job; rc=$?
echo "--- sgctl sanitize (exit $rc)"; tail -n 10 /tmp/k67.out; tail -n 4 /tmp/k67.err
[ $rc = 0 ] && pass sanitize_job_completes || fail sanitize_job_completes "exit $rc"
rec=$(grep '"event":"end"' "$SGCTL_AUDIT_LOG" | tail -n 1)
echo "audit: $rec"
[ "$(echo "$rec" | jq -r .outcome)" = success ] && pass audit_end_success || fail audit_end_success "$rec"
# The interruption is in the record: the poll the dead ring held was completed BUSY by the ring
# reset and retried by the midlayer, answered only after the restart (a stall in the trail).
echo "$rec" | jq -r '.details.sense_trail[].sense_key' | grep -qx "(stalled)" \
  && pass audit_records_the_interruption || fail audit_records_the_interruption "$(echo "$rec" | jq -c .details.sense_trail)"
out=$(sgctl wait "$sg" --poll-interval 1 2>&1); rc=$?
[ $rc = 0 ] && pass wait_nothing_pending || fail wait_nothing_pending "exit $rc: $(echo "$out" | tail -n 2)"
for s in $(lsscsi | awk '/PX02SMF080/ {print $NF}'); do echo 1 > "/sys/block/$(basename "$s")/device/rescan"; done
dd if="$sd" bs=4k count=4 iflag=direct of=/tmp/k67.after 2>/dev/null
after=$(md5sum < /tmp/k67.after)
[ "$(wc -c < /tmp/k67.after)" = 16384 ] && [ "$before" != "$after" ] && pass sanitize_erased \
  || fail sanitize_erased "$(wc -c < /tmp/k67.after) bytes read; data unchanged: $([ "$before" = "$after" ] && echo yes || echo no)"

# SIGTERM removes the taken-over LUNs and backstores like its own; the next scripts get a
# fresh server at speed 5.
stop_serve; rc=$?
[ $rc = 0 ] && [ "$(lsscsi -g | grep -c PX02SMF080)" = 0 ] \
  && [ -z "$(ls /sys/kernel/config/target/core | grep '^user_')" ] \
  && pass takeover_torn_down || fail takeover_torn_down "serve exit $rc; $(lsscsi -g | grep PX02SMF080); $(ls /sys/kernel/config/target/core)"
start_serve speed=5 || fail serve_restore "$(tail -n 5 /tmp/serve.err)"
