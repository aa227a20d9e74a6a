# Fault injection: a command timeout mid-benchmark. `sgctl bench run` (sg engine, reads)
# runs on a scsi_debug LU; a few seconds in, scsi_debug stops answering every command
# (SDEBUG_OPT_TIMEOUT, every_nth=1). The sg engine's 30 s command timeout fires: the run must
# stop with exit 4, say the device failed mid-run, and report the I/Os done so far as partial
# results with the timeout as the reason; afterwards the LU answers again.
. /vm/guest/lib.sh
P=/sys/bus/pseudo/drivers/scsi_debug
sg=/dev/$(ls /sys/class/scsi_generic | head -n1)
t0=$(date +%s)
sgctl --json bench run "$sg" --engine sg --rw randread --bs 4k --qd 4 --runtime 120 \
  > /tmp/b86.json 2> /tmp/b86.err &
job=$!
sleep 5
echo 1 > $P/every_nth
echo 4 > $P/opts
i=0
while kill -0 $job 2>/dev/null && [ $i -lt 100 ]; do sleep 1; i=$((i + 1)); done
echo 0 > $P/opts; echo 0 > $P/every_nth
kill -0 $job 2>/dev/null && { kill $job; fail bench_stops "still running 100 s after the injection"; }
wait $job; rc=$?
t1=$(date +%s)
jq -c '.data | {ios, errors, partial, stop_reason, first_errors: [.first_errors[0:1][] | {kind, error}]}' /tmp/b86.json
tail -n 3 /tmp/b86.err
[ $rc = 4 ] && pass bench_timeout_exit_4 || fail bench_timeout_exit_4 "exit $rc after $((t1 - t0)) s"
[ "$(jq -r .data.partial /tmp/b86.json)" = true ] && [ "$(jq -r .data.ios /tmp/b86.json)" -gt 0 ] \
  && pass bench_timeout_partial_results || fail bench_timeout_partial_results "$(jq -c '.data | {ios, partial}' /tmp/b86.json)"
jq -r '.data.stop_reason, .data.first_errors[0].kind' /tmp/b86.json | grep -qi "time" \
  && pass bench_timeout_reason || fail bench_timeout_reason "$(jq -c '.data | {stop_reason, first_errors}' /tmp/b86.json | cut -c1-300)"
jq -r '.sgctl.messages[]?.string // empty' /tmp/b86.json | grep -q "failed mid-run" \
  && pass bench_timeout_message || fail bench_timeout_message "$(jq -c .sgctl.messages /tmp/b86.json)"
[ $((t1 - t0)) -lt 100 ] && pass "bench_timeout_bounded ($((t1 - t0)) s)" || fail bench_timeout_bounded "took $((t1 - t0)) s"
wait_for 90 sgctl tur "$sg" && pass bench_timeout_lu_recovers || fail bench_timeout_lu_recovers "$(sgctl tur "$sg" 2>&1)"
