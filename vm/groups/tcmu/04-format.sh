# Low-level format to 520-byte blocks and back with sg_format, then the same with sgctl, all over
# real SG_IO on /dev/sgN (sd refuses 520-byte disks, the sg node keeps working).
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
# The drive clock at 30x wall time: a FORMAT UNIT (90 s on this profile) takes 3 s instead of 18 s
# at the group's speed 5 (restored at the end).
stop_serve || true
start_serve speed=30 || fail serve_speed_30 "$(tail -n 5 /tmp/serve.err)"
t0=$(date +%s)
sg=$(tcmu_sg)
sd=$(tcmu_sd)
blen() { sg_readcap -l "$1" 2>/dev/null | sed -n 's/.*Logical block length=\([0-9]*\) bytes.*/\1/p'; }
# sg_format polls every 60 s by default; --early returns once the format has started (IMMED) and
# the script polls with TEST UNIT READY; the way back uses --wait (IMMED clear: the command
# completes when the format does), so both ways of the FORMAT UNIT parameter header are exercised.
out=$(sg_format --format --size=520 --quick --early "$sg" 2>&1); rc=$?
echo "$out" | tail -n 8
wait_for 60 sg_turs "$sg" || fail sg_format_520_ready "$(sg_turs -v "$sg" 2>&1 | tail -n 2)"
[ $rc = 0 ] && [ "$(blen "$sg")" = 520 ] && pass sg_format_520 || fail sg_format_520 "exit $rc, block length $(blen "$sg"): $(echo "$out" | tail -n 3)"
out=$(sg_format --format --size=512 --quick --wait "$sg" 2>&1); rc=$?
[ $rc = 0 ] && [ "$(blen "$sg")" = 512 ] && pass sg_format_back_512 || fail sg_format_back_512 "exit $rc, block length $(blen "$sg"): $(echo "$out" | tail -n 3)"
export SGCTL_AUDIT_LOG=/tmp/audit.jsonl
out=$(sgctl format --block-size 520 --confirm TCMU0001 --poll-interval 1 --progress-json "$sg" 2>&1); rc=$?
echo "$out" | tail -n 6
[ $rc = 0 ] && [ "$(blen "$sg")" = 520 ] && pass sgctl_format_520 || fail sgctl_format_520 "exit $rc, block length $(blen "$sg"): $(echo "$out" | tail -n 3)"
out=$(sgctl format --block-size 512 --confirm TCMU0001 --poll-interval 1 --progress-json "$sg" 2>&1); rc=$?
[ $rc = 0 ] && [ "$(blen "$sg")" = 512 ] && pass sgctl_format_back_512 || fail sgctl_format_back_512 "exit $rc, block length $(blen "$sg"): $(echo "$out" | tail -n 3)"
# sd sees the 512-byte disk again after a rescan.
echo 1 > "/sys/block/$(basename "$sd")/device/rescan"
for s in $(lsscsi | awk '/PX02SMF080/ {print $NF}'); do echo 1 > "/sys/block/$(basename "$s")/device/rescan"; done
wait_for 20 sh -c "[ \"\$(cat /sys/block/$(basename "$sd")/size)\" = 2097152 ]" \
  && pass sd_rescanned_512 || fail sd_rescanned_512 "size $(cat /sys/block/$(basename "$sd")/size)"
echo "04-format: checks took $(( $(date +%s) - t0 )) s"
stop_serve || true
start_serve speed=5 || fail serve_restore "$(tail -n 5 /tmp/serve.err)"
