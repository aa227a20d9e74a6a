# Fault injection: the TCMU server goes away mid-SANITIZE and mid-FORMAT (SIGTERM: it
# saves the drive's state and removes its LUNs, as a drive that loses power leaves the bus), then
# serves the same state file again with power_cycle=1 (the drive was off in between: no clock
# catch-up, a power cycle). The job that was watching must end with the documented exit status
# (4, the command failed), say what happened, leave an audit end record naming the way out, and
# that way out must work: `sgctl wait` sees the sanitize resume and complete; the lost format
# reports 31/00 and `sgctl format --recover` brings the drive back.
# (SIGKILL: 67-server-kill.sh — the restarted server takes over the LUNs and rings left behind.)
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
export SGCTL_AUDIT_LOG=/tmp/audit63.jsonl
: > "$SGCTL_AUDIT_LOG"
stop_serve || true
start_serve speed=1 || fail serve_start "$(tail -n 5 /tmp/serve.err)"

# stop_mid NAME AFTER ARGS...: runs `sgctl ARGS --confirm TCMU0001 SG` in the background, stops
# the server once the drive reports the operation in progress, waits for the job (its exit status
# in $job_rc, output in /tmp/k63.NAME.{out,err}) and serves the state again with power_cycle=1 at
# speed AFTER (the drive was off in between, so the speed it comes back with changes nothing
# of what the power cycle did; it sets how long what follows takes).
stop_mid() {
  name=$1; after=$2; shift 2
  sg=$(tcmu_sg)
  sgctl "$@" --confirm TCMU0001 --poll-interval 0.5 "$sg" > /tmp/k63.$name.out 2> /tmp/k63.$name.err &
  job=$!
  if wait_for 30 sh -c "sg_requests --progress $sg 2>&1 | grep -q '%'"; then
    pass ${name}_in_progress
  else
    fail ${name}_in_progress "$(sg_requests --progress "$sg" 2>&1 | tail -n 2)"
  fi
  sleep 1
  stop_serve; rc=$?
  [ $rc = 0 ] && pass ${name}_server_stopped || fail ${name}_server_stopped "serve exited $rc"
  # The watching job gives up (10 failed polls) on its own.
  i=0
  while kill -0 $job 2>/dev/null && [ $i -lt 60 ]; do sleep 1; i=$((i + 1)); done
  kill -0 $job 2>/dev/null && { kill $job; fail ${name}_job_ends "still running 60 s after the server stopped"; }
  wait $job; job_rc=$?
  echo "--- sgctl $* (exit $job_rc)"; tail -n 8 /tmp/k63.$name.out; tail -n 5 /tmp/k63.$name.err
  start_serve "speed=$after&power_cycle=1" || fail ${name}_serve_again "$(tail -n 5 /tmp/serve.err)"
}

# audit_end JOB: the last end record of JOB, compact JSON.
audit_end() { grep '"event":"end"' "$SGCTL_AUDIT_LOG" | grep "\"job\":\"$1\"" | tail -n 1; }

# --- SANITIZE BLOCK ERASE (30 s of drive time at speed 1, stopped a few seconds in; the check
# after the power cycle needs it still running: back at speed 2, what is left takes 10-14 s)
dd if=/dev/urandom of="$(tcmu_sd)" bs=4k count=4 oflag=direct 2>/dev/null
before=$(dd if="$(tcmu_sd)" bs=4k count=4 iflag=direct 2>/dev/null | md5sum)
stop_mid sanitize 2 sanitize --block
# The drive was switched off mid-sanitize: after the power cycle the sanitize is still there
# (asked at once; what the job left behind is checked after).
sg=$(tcmu_sg)
p=$(sg_requests --progress "$sg" 2>&1; sg_requests --progress "$sg" 2>&1)
[ $job_rc = 4 ] && pass sanitize_exit_4 || fail sanitize_exit_4 "exit $job_rc"
grep -qi "sgctl wait" /tmp/k63.sanitize.out /tmp/k63.sanitize.err \
  && pass sanitize_says_way_out || fail sanitize_says_way_out "$(tail -n 3 /tmp/k63.sanitize.out)"
rec=$(audit_end sanitize)
echo "audit: $rec"
[ "$(echo "$rec" | jq -r .outcome)" = failed ] && echo "$rec" | jq -r .details.advice | grep -q "sgctl wait" \
  && pass sanitize_audit_record || fail sanitize_audit_record "$rec"
echo "$p" | grep -q '%' && pass sanitize_resumed_after_power_cycle || fail sanitize_resumed_after_power_cycle "$p"
out=$(sgctl wait "$sg" --poll-interval 1 2>&1); rc=$?
echo "$out" | tail -n 3
[ $rc = 0 ] && pass sanitize_resumes_and_completes || fail sanitize_resumes_and_completes "wait exit $rc: $(echo "$out" | tail -n 2)"
for s in $(lsscsi | awk '/PX02SMF080/ {print $NF}'); do echo 1 > "/sys/block/$(basename "$s")/device/rescan"; done
dd if="$(tcmu_sd)" bs=4k count=4 iflag=direct of=/tmp/k63.after 2>/dev/null
after=$(md5sum < /tmp/k63.after)
[ "$(wc -c < /tmp/k63.after)" = 16384 ] && [ "$before" != "$after" ] && pass sanitize_erased \
  || fail sanitize_erased "$(wc -c < /tmp/k63.after) bytes read; data unchanged: $([ "$before" = "$after" ] && echo yes || echo no)"

# --- FORMAT UNIT (90 s of drive time) on the drive as the sanitize's power cycle left it, at
# speed 2 (45 s; stopped a few seconds in). The power cycle loses it whatever the speed; back at
# speed 30, the recovering format takes 3 s.
stop_mid format 30 format --block-size 512
[ $job_rc = 4 ] && pass format_exit_4 || fail format_exit_4 "exit $job_rc"
grep -qi "format.*--recover" /tmp/k63.format.out /tmp/k63.format.err \
  && pass format_says_way_out || fail format_says_way_out "$(tail -n 3 /tmp/k63.format.out)"
rec=$(audit_end format)
echo "audit: $rec"
[ "$(echo "$rec" | jq -r .outcome)" = failed ] && echo "$rec" | jq -r .details.advice | grep -q -- "--recover" \
  && pass format_audit_record || fail format_audit_record "$rec"
sg=$(tcmu_sg)
out=$(sgctl wait "$sg" --poll-interval 1 2>&1); rc=$?
echo "$out" | tail -n 3
[ $rc = 4 ] && echo "$out" | grep -q -- "--recover" \
  && pass format_lost_31_00 || fail format_lost_31_00 "wait exit $rc: $(echo "$out" | tail -n 2)"
out=$(sgctl format --recover --confirm TCMU0001 --poll-interval 1 "$sg" 2>&1); rc=$?
echo "$out" | tail -n 3
[ $rc = 0 ] && pass format_recover || fail format_recover "exit $rc: $(echo "$out" | tail -n 3)"
check tur_after_recover sg_turs "$sg"

# Leave the drive served as the next scripts expect (speed 5, powered on).
stop_serve || true
start_serve speed=5 || fail serve_restore "$(tail -n 5 /tmp/serve.err)"
