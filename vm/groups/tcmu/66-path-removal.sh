# Fault injection: one path of the dual-path TCMU drive is removed mid-FORMAT. QEMU's
# scsi-hd completes FORMAT UNIT at once, so the mptsas topology has no "mid"; the TCMU drive
# formats as slowly as its speed says (90 s of drive time; the server runs at speed 5 here, as
# 63/64 leave it: 18 s). `sgctl format` watches the drive through the first path; the kernel
# deletes that path (echo 1 > .../device/delete) while the drive formats. The job must go on
# through the other path of the same LU (the gate knows both) and end `success`, exit 0, with
# the switch in its output and its audit end record (src/ops/jobs/failover.rs). The deleted
# path is scanned back in at the end.
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
export SGCTL_AUDIT_LOG=/tmp/audit66.jsonl
: > "$SGCTL_AUDIT_LOG"
paths=$(lsscsi -g | grep PX02SMF080)
echo "$paths"
if [ "$(echo "$paths" | grep -c .)" != 2 ]; then
  stop_serve || true
  start_serve speed=5 || fail serve_start "$(tail -n 5 /tmp/serve.err)"
  paths=$(lsscsi -g | grep PX02SMF080)
fi
hctl=$(echo "$paths" | awk 'NR == 1 {gsub(/[][]/, "", $1); print $1}')
sg=$(echo "$paths" | awk 'NR == 1 {print $NF}')
other=$(echo "$paths" | awk 'NR == 2 {print $NF}')
echo "polled path $sg ($hctl), other path $other"

sgctl format --block-size 512 --confirm TCMU0001 --poll-interval 0.5 "$sg" > /tmp/p66.out 2> /tmp/p66.err &
job=$!
wait_for 30 sh -c "sg_requests --progress $other 2>&1 | grep -q '%'" && pass format_in_progress \
  || fail format_in_progress "$(sg_requests --progress "$other" 2>&1 | tail -n 2)"
sleep 1
echo 1 > "/sys/class/scsi_device/$hctl/device/delete"
wait_for 10 sh -c "! test -e /sys/class/scsi_device/$hctl" && pass path_deleted \
  || fail path_deleted "$hctl still there"
p=$(sg_requests --progress "$other" 2>&1)
echo "$p" | grep -q '%' && pass format_goes_on_after_removal || fail format_goes_on_after_removal "$p"
i=0
while kill -0 $job 2>/dev/null && [ $i -lt 60 ]; do sleep 1; i=$((i + 1)); done
kill -0 $job 2>/dev/null && { kill $job; fail format_job_ends "still running 60 s after the path went"; }
wait $job; rc=$?
echo "--- sgctl format (exit $rc)"; tail -n 12 /tmp/p66.out; tail -n 4 /tmp/p66.err
[ $rc = 0 ] && pass format_exit_0 || fail format_exit_0 "exit $rc"
grep -q "path switch: .*$sg -> $other" /tmp/p66.out && pass format_names_the_switch \
  || fail format_names_the_switch "$(tail -n 5 /tmp/p66.out)"
rec=$(grep '"event":"end"' "$SGCTL_AUDIT_LOG" | tail -n 1)
echo "audit: $rec"
[ "$(echo "$rec" | jq -r .outcome)" = success ] \
  && [ "$(echo "$rec" | jq -r '.details.path_switches[0].from')" = "$sg" ] \
  && [ "$(echo "$rec" | jq -r '.details.path_switches[0].to')" = "$other" ] \
  && pass audit_end_names_the_switch || fail audit_end_names_the_switch "$rec"
out=$(sg_readcap --long "$other" 2>&1)
echo "$out" | grep -q "Logical block length=512" && pass readcap_on_other_path \
  || fail readcap_on_other_path "$out"

# Scan the deleted path back in (the tcm_loop host of the removed LU).
echo "- - -" > "/sys/class/scsi_host/host${hctl%%:*}/scan"
wait_for 20 sh -c '[ "$(lsscsi -g | grep -c PX02SMF080)" = 2 ]' && pass path_scanned_back \
  || fail path_scanned_back "$(lsscsi -g)"
