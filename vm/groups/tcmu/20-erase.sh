# Format and sanitize through sgctl over real SG_IO, the kernel, LIO and TCMU to the virtual
# drive: the gate passes with the right --confirm, the jobs poll to a clean end, the
# format is verified by READ CAPACITY(16), the sanitize by sampled read-back.
. /vm/guest/lib.sh
export SGCTL_AUDIT_LOG=/tmp/erase-tcmu-audit.jsonl
sg=$(lsscsi -g | awk '/PX02SMF080/ {print $NF; exit}')
sd=$(lsscsi | awk '/PX02SMF080/ {print $NF; exit}')
out=$(sgctl sanitize "$sg" --crypto --confirm WRONG 2>&1); rc=$?
[ $rc -eq 6 ] && pass wrong_confirm_refused || fail wrong_confirm_refused "exit $rc: $out"
out=$(sgctl --json format "$sg" --block-size 4096 --fast --confirm TCMU0001 --poll-interval 0.5 2>/tmp/fmt.err); rc=$?
if [ $rc -eq 0 ] && [ "$(echo "$out" | jq -r '.data.drives[0].after.after.block_len')" = 4096 ]; then
  pass format_4096_fast
else
  fail format_4096_fast "exit $rc: $(echo "$out" | jq -c '.data.drives[0] | {outcome,message,advice}' 2>/dev/null) $(tail -n 3 /tmp/fmt.err)"
fi
# The kernel rescanned: sd now reports 4096-byte blocks.
wait_for 20 sh -c "[ \"\$(cat /sys/block/${sd#/dev/}/queue/logical_block_size)\" = 4096 ]" \
  && pass kernel_rescanned_4096 || fail kernel_rescanned_4096 "sd says $(cat /sys/block/${sd#/dev/}/queue/logical_block_size)"
# Put known data on the first block, then purge it and verify.
dd if=/dev/urandom of="$sd" bs=4096 count=1 conv=fsync 2>/dev/null || true
out=$(sgctl --json sanitize "$sg" --crypto --verify 4 --confirm TCMU0001 --poll-interval 0.5 2>/tmp/san.err); rc=$?
v=$(echo "$out" | jq -c '.data.drives[0].verification | {passed,survived,conclusive}' 2>/dev/null)
if [ $rc -eq 0 ] && echo "$v" | grep -q '"passed":true'; then pass sanitize_crypto_verified
else fail sanitize_crypto_verified "exit $rc: $(echo "$out" | jq -c '.data.drives[0] | {outcome,message,advice}' 2>/dev/null) $v $(tail -n 3 /tmp/san.err)"; fi
echo "$v" | grep -q '"conclusive":[1-9]' && pass sanitize_sample_changed || fail sanitize_sample_changed "$v"
# Validation by default (no --verify): the quick plan, its seed and coverage on the record, and
# the technique's completion apart from it.
dd if=/dev/urandom of="$sd" bs=4096 count=8 conv=fsync 2>/dev/null || true
out=$(sgctl --json sanitize "$sg" --crypto --confirm TCMU0001 --poll-interval 0.5 2>/tmp/san2.err); rc=$?
q=$(echo "$out" | jq -c '.data.drives[0] | {p: .validation.plan, r: .validation.result, seed: (.validation.seed | length), n: .validation.blocks_sampled, t: .technique_verification.result, w: .scope.whole_drive}' 2>/dev/null)
if [ $rc -eq 0 ] && echo "$q" | grep -q '"p":"quick","r":"passed","seed":16' && echo "$q" | grep -q '"t":"completed","w":true'; then
  pass sanitize_default_validation
else fail sanitize_default_validation "exit $rc $q $(tail -n 3 /tmp/san2.err)"; fi
n=$(grep -c '"event":"end"' "$SGCTL_AUDIT_LOG" 2>/dev/null)
[ "$n" = 3 ] && pass audit_three_jobs || fail audit_three_jobs "end records: $n"
# Back to 512 so later scripts see the drive as they expect.
check format_back_512 sgctl format "$sg" --block-size 512 --fast --confirm TCMU0001 --poll-interval 0.5
