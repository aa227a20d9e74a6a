# Fault injection: Ctrl-C (SIGINT) at each phase of a format and a sanitize on the TCMU
# drive (62-tcg-signals.sh covers SIGINT during a TCG erase's commands). For each: what sgctl
# prints, its exit status, the audit record, the drive's state and the documented way out.
#   - while watching the running operation     -> "stopped watching; the drive continues",
#     exit 1, audit end record "interrupted" with the `sgctl wait` advice; the drive goes on and
#     `sgctl wait` sees it complete
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
export SGCTL_AUDIT_LOG=/tmp/audit64.jsonl
: > "$SGCTL_AUDIT_LOG"
# The sanitize (30 s of drive time) at speed 2: 15 s; the format (90 s) at speed 5: 18 s. Each
# is seen in progress, interrupted a second later and must still be running when sgctl has
# exited; `sgctl wait` then sees it complete.
stop_serve || true
start_serve speed=2 || fail serve_start "$(tail -n 5 /tmp/serve.err)"
sg=$(tcmu_sg)

audit_end() { grep '"event":"end"' "$SGCTL_AUDIT_LOG" | grep "\"job\":\"$1\"" | tail -n 1; }

# int_while_watching NAME ARGS...: starts the job, sends one SIGINT once the drive reports the
# operation in progress (sgctl's handler is installed by then), checks exit 1, the message, the
# audit record and that the operation goes on and completes under `sgctl wait`.
int_while_watching() {
  name=$1; shift
  sgctl "$@" --confirm TCMU0001 --poll-interval 0.5 "$sg" > /tmp/i64.$name.out 2> /tmp/i64.$name.err &
  job=$!
  wait_for 30 sh -c "sg_requests --progress $sg 2>&1 | grep -q '%'" \
    || fail ${name}_in_progress "$(sg_requests --progress "$sg" 2>&1 | tail -n 2)"
  sleep 1
  kill -INT $job
  i=0
  while kill -0 $job 2>/dev/null && [ $i -lt 20 ]; do sleep 0.5; i=$((i + 1)); done
  kill -0 $job 2>/dev/null && { kill $job; fail ${name}_int_stops "still running 10 s after SIGINT"; }
  wait $job; rc=$?
  echo "--- sgctl $* + SIGINT while watching (exit $rc)"; tail -n 6 /tmp/i64.$name.out; tail -n 3 /tmp/i64.$name.err
  [ $rc = 1 ] && pass ${name}_int_exit_1 || fail ${name}_int_exit_1 "exit $rc"
  grep -q "sgctl wait" /tmp/i64.$name.out /tmp/i64.$name.err \
    && pass ${name}_int_says_wait || fail ${name}_int_says_wait "$(tail -n 3 /tmp/i64.$name.out)"
  rec=$(audit_end "$name")
  echo "audit: $rec"
  [ "$(echo "$rec" | jq -r .outcome)" = interrupted ] \
    && pass ${name}_int_audit_interrupted || fail ${name}_int_audit_interrupted "$rec"
  p=$(sg_requests --progress "$sg" 2>&1)
  echo "$p" | grep -q '%' && pass ${name}_int_drive_goes_on || fail ${name}_int_drive_goes_on "$p"
  out=$(sgctl wait "$sg" --poll-interval 1 2>&1); rc=$?
  [ $rc = 0 ] && pass ${name}_int_wait_completes || fail ${name}_int_wait_completes "exit $rc: $(echo "$out" | tail -n 2)"
}

int_while_watching sanitize sanitize --block

# The format at the group's usual speed 5, which the next scripts expect.
stop_serve || true
start_serve speed=5 || fail serve_restore "$(tail -n 5 /tmp/serve.err)"
sg=$(tcmu_sg)
int_while_watching format format --block-size 512
