# Low-level format to 520-byte blocks and back with sg_format, then the same with sgctl, all over
# real SG_IO on /dev/sgN (sd refuses 520-byte disks, the sg node keeps working).
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
sg=$(tcmu_sg)
sd=$(tcmu_sd)
blen() { sg_readcap -l "$1" 2>/dev/null | sed -n 's/.*Logical block length=\([0-9]*\) bytes.*/\1/p'; }
out=$(sg_format --format --size=520 --quick "$sg" 2>&1); rc=$?
echo "$out" | tail -n 8
[ $rc = 0 ] && [ "$(blen "$sg")" = 520 ] && pass sg_format_520 || fail sg_format_520 "exit $rc, block length $(blen "$sg"): $(echo "$out" | tail -n 3)"
out=$(sg_format --format --size=512 --quick "$sg" 2>&1); rc=$?
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
