# The device fails in the middle of `sgctl bench run`: the run stops at the first
# failed I/O, the error is decoded (sense key/ASC and INFORMATION through sg, the errno through
# the block layer), the partial results are in the --json envelope and the exit status is 4.
# 1. scsi_debug's medium error injection (opts bit 2: reads touching LBAs medium_error_start
#    .. +medium_error_count fail with MEDIUM ERROR / UNRECOVERED READ ERROR, 03/11/00), through
#    the sg engine and the uring engine.
# 2. The LU is deleted (echo 1 > .../device/delete) while a run is going; it is scanned back
#    in afterwards.
. /vm/guest/lib.sh
P=/sys/bus/pseudo/drivers/scsi_debug
M=/sys/module/scsi_debug/parameters
sg=$(lsscsi -g | awk '/scsi_debug/ {print $NF; exit}')
sd=$(lsscsi | awk '/scsi_debug/ {print $NF; exit}')
start=$(cat $M/medium_error_start 2>/dev/null || echo 4660)
count=$(cat $M/medium_error_count 2>/dev/null || echo 10)
# A 1 MiB range holding the bad LBAs: random 4 KiB reads hit them within a few hundred I/Os.
roff=$(( start * 512 / 1048576 * 1048576 ))
echo 2 > $P/opts
out=$(sgctl --json bench run "$sg" --engine sg --rw randread --bs 4k --qd 4 \
      --range "$roff:1m" --runtime 60 2>/tmp/f.err); rc=$?
echo 0 > $P/opts
key=$(echo "$out" | jq -r '.data.first_errors[0].sense.key')
asc=$(echo "$out" | jq -r '.data.first_errors[0].sense.asc')
info=$(echo "$out" | jq -r '.data.first_errors[0].info')
part=$(echo "$out" | jq -r '.data.partial')
el=$(echo "$out" | jq -r '.data.elapsed_s | floor')
env_exit=$(echo "$out" | jq -r '.sgctl.exit_status')
said=$(echo "$out" | jq -r '[.sgctl.messages[].string] | join(" ")')
if [ $rc = 4 ] && [ "$key" = 3 ] && [ "$asc" = 17 ] && [ "$part" = true ] \
   && [ "$info" -ge "$start" ] && [ "$info" -lt $(( start + count )) ] && [ "$el" -lt 60 ] \
   && [ "$env_exit" = 4 ] && case "$said" in *"failed mid-run"*) true ;; *) false ;; esac; then
  pass sg_medium_error_stops_exit4
else
  fail sg_medium_error_stops_exit4 "exit $rc key=$key asc=$asc info=$info partial=$part elapsed=$el envelope exit=$env_exit messages: $said"
fi
vm_result "INFO sg medium error: $said"
echo 2 > $P/opts
out=$(sgctl --json bench run "$sd" --engine uring --rw randread --bs 4k --qd 4 \
      --range "$roff:1m" --runtime 60 2>/tmp/f.err); rc=$?
echo 0 > $P/opts
kind=$(echo "$out" | jq -r '.data.error_counts | keys[0]')
part=$(echo "$out" | jq -r '.data.partial')
# The block layer hides the sense data: MEDIUM ERROR comes back as an errno (ENODATA for
# BLK_STS_MEDIUM, EIO on older kernels).
case "$kind" in "errno "*) errno_ok=1 ;; *) errno_ok=0 ;; esac
[ $rc = 4 ] && [ "$part" = true ] && [ $errno_ok = 1 ] \
  && pass uring_medium_error_stops_exit4 \
  || fail uring_medium_error_stops_exit4 "exit $rc kind=$kind partial=$part: $(tail -n 2 /tmp/f.err)"
vm_result "INFO uring medium error counted as: $kind"
# 2. Removal mid-run (sg engine on the LU's sg node).
host=host$(basename "$(readlink -f /sys/class/scsi_generic/$(basename "$sg")/device)" | cut -d: -f1)
sgctl --json bench run "$sg" --engine sg --rw randread --bs 4k --qd 8 --runtime 60 \
  --progress-json >/tmp/rm.json 2>/tmp/rm.err &
pid=$!
# Remove it once the run is under way (its first one-second interval is out).
wait_for 60 grep -q iops /tmp/rm.err
echo 1 > /sys/class/scsi_generic/$(basename "$sg")/device/delete
wait $pid; rc=$?
part=$(jq -r '.data.partial' /tmp/rm.json 2>/dev/null)
ios=$(jq -r '.data.ios' /tmp/rm.json 2>/dev/null)
why=$(jq -r '.data.stop_reason' /tmp/rm.json 2>/dev/null)
[ $rc = 4 ] && [ "$part" = true ] && [ "${ios:-0}" -gt 0 ] \
  && pass sg_device_removed_stops_exit4 \
  || fail sg_device_removed_stops_exit4 "exit $rc partial=$part ios=$ios: $(tail -n 2 /tmp/rm.err)"
vm_result "INFO removal: exit $rc, $ios I/Os before, stop_reason: $why"
echo "- - -" > /sys/class/scsi_host/$host/scan
wait_for 30 sh -c 'lsscsi -g | grep -q scsi_debug' \
  && pass lu_scanned_back || fail lu_scanned_back "no scsi_debug LU after rescan of $host"
