# A signal during an SG_IO must never make the kernel re-send the command. The sg driver
# restarts an interrupted SG_IO (-ERESTARTSYS) when the handler has SA_RESTART (signal-hook's
# handlers do) or when the signal only stopped the process (SIGTSTP/SIGCONT); the restarted ioctl
# submits the CDB again. sgctl blocks signals around every SG_IO. The simulated TPer refuses a
# second IF-SEND while a response is pending (COMMAND SEQUENCE ERROR), so a re-sent SECURITY
# PROTOCOL OUT would fail the command: sgctl is signalled continuously while its commands are in
# flight and every command must still succeed, with no stale reply left on the ComID.
. /vm/guest/lib.sh
. /vm/groups/tcmu/tcg-raw.inc
sg=$(lsscsi -g | awk '/PX02SMF080/ {print $NF; exit}')
log=/tmp/tcg62.log; : > $log
msid=""
for i in $(seq 1 40); do msid=$(read_msid "$sg"); [ -n "$msid" ] && break; sleep 1; done
printf "$(echo $msid | sed 's/\([0-9A-F][0-9A-F]\) */\\x\1/g')\n" > /tmp/tcg62.msid; chmod 600 /tmp/tcg62.msid
[ "$(wc -c < /tmp/tcg62.msid)" = 33 ] || fail msid_file "$(wc -c < /tmp/tcg62.msid) bytes"

# spam PID SIGNALS...: send the signals to PID until it exits.
spam() {
  pid=$1; shift
  while kill -0 "$pid" 2>/dev/null; do
    for s in "$@"; do kill -"$s" "$pid" 2>/dev/null; done
    usleep 2000 2>/dev/null || sleep 0.002
  done
}

# Stop/continue (no handler: the kernel restarts SG_IO on /dev/sg unless signals are blocked).
bad=0; n=0
for i in 1 2 3 4 5 6; do
  for op in lock unlock; do
    sgctl tcg $op "$sg" --band 0 --pin-file /tmp/tcg62.msid >> $log 2>&1 &
    p=$!
    spam $p TSTP CONT WINCH &
    s=$!
    wait $p; rc=$?
    kill $s 2>/dev/null; wait $s 2>/dev/null
    n=$((n + 1))
    [ $rc = 0 ] || { bad=$((bad + 1)); echo "op $op rc $rc" >> $log; }
  done
done
# Nothing left queued on the ComID (no reply to a duplicate command).
[ -z "$(if_recv "$sg")" ] && pass no_stale_reply || fail no_stale_reply "a reply was still queued"
[ $bad = 0 ] && pass tstp_cont_during_tcg || fail tstp_cont_during_tcg "$bad of $n failed: $(grep -i 'sequence\|error' $log | tail -n 3)"

# SIGINT with signal-hook's SA_RESTART handler installed (the job runner of `sgctl tcg erase`):
# the erase must complete exactly once or stop cleanly, never fail on a re-sent IF-SEND. (Less
# sharp than the TSTP check: the runner's SG_IO runs on a worker thread and the kernel mostly
# hands a process-directed SIGINT to the main thread; with signal blocking removed this check
# still passed 6/6 in the VM, while the TSTP/CONT one failed 12/12.)
: > /tmp/tcg62.erase
for i in 1 2 3 4 5 6; do
  sgctl tcg erase "$sg" --band 0 --pin-file /tmp/tcg62.msid --confirm TCMU0001 --audit-log /tmp/tcg62.audit >> /tmp/tcg62.erase 2>&1 &
  p=$!
  # From the start: a background job of a non-interactive shell ignores SIGINT until
  # signal-hook installs its (SA_RESTART) handler, so only the handled SIGINTs matter.
  spam $p INT &
  s=$!
  wait $p; rc=$?; echo "rc=$rc" >> /tmp/tcg62.erase
  kill $s 2>/dev/null; wait $s 2>/dev/null
  # A run that stopped part-way may leave its session open: reset the ComID for the next one.
  [ $rc = 0 ] || stack_reset "$sg"
done
cat /tmp/tcg62.erase >> $log
if grep -qi "sequence error\|bad ComPacket\|stale" /tmp/tcg62.erase; then
  fail sigint_during_erase "$(grep -i 'sequence\|stale' /tmp/tcg62.erase | head -n 2)"
else
  pass sigint_during_erase
fi
# The drive still answers a fresh exchange.
[ "$(read_msid "$sg" | wc -w)" = 32 ] && pass tper_still_answers || fail tper_still_answers ""
