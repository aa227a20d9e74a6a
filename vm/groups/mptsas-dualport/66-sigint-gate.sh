# Ctrl-C before a destructive job has started, over real
# SG_IO on the dual-port disk:
#  1. At the confirmation prompt. sgctl runs on a pseudo-terminal (util-linux `script`), so it
#     asks for the serial; ^C typed on that terminal is turned into SIGINT by the kernel's tty
#     line discipline, as from a keyboard. The prompt must end at once (it used to swallow the
#     Ctrl-C: the job runner's SIGINT handler restarts a blocked read), exit 6, "nothing was
#     sent to the drive", an audit record `interrupted` (phase confirmation), no start record.
#     For `format` (sg node, port A) and `bench run --rw write` (block node, port B): a
#     marker block written before is still there (the benchmark would have overwritten it).
#  2. After the gate, while the start record waits for the audit log's lock (held by `flock`,
#     as in 55-one-job-per-drive.sh): SIGINT, then the lock is freed. The job must not start:
#     exit 6, the end record says refused, the verbose trace shows no MODE SELECT/FORMAT UNIT.
#  The way out is to run the command again: a format afterwards runs to the end.
. /vm/guest/lib.sh
set -- $(lsscsi -g | awk '/SGCTLVM/{print $(NF-1), $NF}')
sd1=$1 sg1=$2 sd2=$3 sg2=$4
if [ -z "$sg2" ]; then fail paths "need two SGCTLVM paths, lsscsi: $(lsscsi -g | tr '\n' ' ')"; exit 0; fi
W=/tmp/sig66
rm -rf "$W"; mkdir -p "$W"
MARK=SGCTL-VM-66-MARKER
put_marker() { printf '%-512s' "$MARK" | dd of="$sd1" bs=512 count=1 oflag=direct 2>/dev/null; }
marker_ok() { dd if="$sd1" bs=512 count=1 iflag=direct 2>/dev/null | grep -q "$MARK"; }

# at_prompt NAME CMD...: CMD on a terminal; ^C once the prompt shows; checks the outcome.
at_prompt() {
  o=$1; shift
  log="$W/$o.jsonl"; : > "$log"
  put_marker
  rm -f "$W/$o.in"; mkfifo "$W/$o.in"
  # The fifo stays open for writing (fd 7) so `script` does not see end of input.
  SGCTL_AUDIT_LOG=$log script -qefc "$*" /dev/null < "$W/$o.in" > "$W/$o.out" 2>&1 &
  spid=$!
  exec 7> "$W/$o.in"
  if wait_for 60 grep -q "Type its serial" "$W/$o.out"; then
    pass "${o}_prompts"
  else
    fail "${o}_prompts" "$(tail -n 3 "$W/$o.out" | tr '\n' ' ')"; kill $spid; exec 7>&-; return
  fi
  sleep 0.5
  printf '\003' >&7
  i=0
  while kill -0 $spid 2>/dev/null && [ $i -lt 20 ]; do sleep 0.5; i=$((i + 1)); done
  if kill -0 $spid 2>/dev/null; then
    fail "${o}_ctrl_c_ends_prompt" "still waiting 10 s after ^C: $(tail -n 2 "$W/$o.out" | tr '\n' ' ')"
    kill -9 $spid; exec 7>&-; return
  fi
  wait $spid; rc=$?
  exec 7>&-
  echo "--- $* + ^C at the prompt (exit $rc)"; tail -n 4 "$W/$o.out"
  [ $rc = 6 ] && pass "${o}_exit_6" || fail "${o}_exit_6" "exit $rc"
  grep -q "interrupted (Ctrl-C) before it started; nothing was sent to the drive" "$W/$o.out" \
    && pass "${o}_says_nothing_sent" || fail "${o}_says_nothing_sent" "$(tail -n 3 "$W/$o.out" | tr '\n' ' ')"
  rec=$(grep '"event":"interrupted"' "$log" | tail -n 1)
  echo "audit: $rec"
  [ "$(echo "$rec" | jq -r .phase)" = confirmation ] && [ "$(echo "$rec" | jq -r .sent)" = false ] \
    && pass "${o}_audit_interrupted" || fail "${o}_audit_interrupted" "$(cat "$log")"
  grep -q '"event":"start"' "$log" && fail "${o}_no_start_record" "$(cat "$log")" \
    || pass "${o}_no_start_record"
  marker_ok && pass "${o}_marker_intact" || fail "${o}_marker_intact" "LBA 0 changed"
}

at_prompt format_prompt sgctl format --block-size 512 "$sg1"
at_prompt bench_prompt sgctl bench run --rw write --runtime 5 "$sd2"

# After the gate: the start record waits for the audit log's lock.
o=after_gate
log="$W/$o.jsonl"; : > "$log"
flock -o "$log" sh -c "touch $W/$o.held; exec sleep 600" &
fpid=$!
wait_for 10 test -e "$W/$o.held" || fail "${o}_audit_log_locked" "flock did not start"
sgctl -vv format "$sg2" --block-size 512 --confirm DP0001 --audit-log "$log" \
  > "$W/$o.out" 2> "$W/$o.err" &
hpid=$!
if wait_for 60 sh -c "kill -0 $hpid && grep -qs '\"pid\":$hpid,' /run/lock/sgctl/*.lock"; then
  pass "${o}_passed_gate"
else
  fail "${o}_passed_gate" "$(tail -n 3 "$W/$o.err" | tr '\n' ' ')"
fi
# The drive's lock is taken inside the gate, a moment before the gate ends: a SIGINT there is
# recorded as `interrupted` in phase gate (also nothing sent, also right, but not this step;
# it happened once in CI under the fuzz campaign's load). Send it once sgctl is blocked on
# the audit log's lock (a `->` waiter of its pid on the log's inode in /proc/locks): that is
# the start record waiting.
ino=$(ls -i "$log" | awk '{print $1}')
if wait_for 60 grep -qE -e "-> FLOCK +ADVISORY +WRITE +$hpid +[0-9a-f]+:[0-9a-f]+:$ino " /proc/locks; then
  pass "${o}_start_record_waits"
else
  fail "${o}_start_record_waits" "$(tr '\n' ' ' < /proc/locks)"
fi
kill -INT $hpid
sleep 1
kill $fpid; wait $fpid 2>/dev/null
i=0
while kill -0 $hpid 2>/dev/null && [ $i -lt 40 ]; do sleep 0.5; i=$((i + 1)); done
kill -0 $hpid 2>/dev/null && { kill -9 $hpid; fail "${o}_ends" "still running 20 s after SIGINT"; }
wait $hpid; rc=$?
echo "--- format + SIGINT after the gate (exit $rc)"; tail -n 4 "$W/$o.out"
[ $rc = 6 ] && pass "${o}_exit_6" || fail "${o}_exit_6" "exit $rc: $(tail -n 3 "$W/$o.out" | tr '\n' ' ')"
end=$(grep '"event":"end"' "$log" | tail -n 1)
echo "audit: $end"
[ "$(echo "$end" | jq -r .outcome)" = refused ] \
  && echo "$end" | jq -r .details.message | grep -q "nothing was sent" \
  && pass "${o}_audit_end_refused" || fail "${o}_audit_end_refused" "$(cat "$log")"
# The trace (-vv) shows every CDB sent: the reads of the gate, no MODE SELECT or FORMAT UNIT.
if grep -qE 'cdb: (04|55|15) ' "$W/$o.err"; then
  fail "${o}_nothing_sent" "$(grep -E 'cdb: (04|55|15) ' "$W/$o.err" | head -n 2 | tr '\n' ' ')"
elif grep -q 'cdb: 12 ' "$W/$o.err"; then
  pass "${o}_nothing_sent"
else
  fail "${o}_nothing_sent" "no trace in stderr: $(head -n 3 "$W/$o.err" | tr '\n' ' ')"
fi

# The way out: the same command again runs.
out=$(sgctl format "$sg2" --block-size 512 --confirm DP0001 --poll-interval 0.2 \
  --audit-log "$W/again.jsonl" 2>&1); rc=$?
[ $rc = 0 ] && [ "$(grep -c '"event":"end"' "$W/again.jsonl")" = 1 ] && pass rerun_formats \
  || fail rerun_formats "exit $rc: $(echo "$out" | tail -n 3 | tr '\n' ' ')"
