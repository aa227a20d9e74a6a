# A real format through SG_IO on the (now free) dual-port disk: the gate passes with the right
# --confirm, MODE SELECT + FORMAT UNIT go out, polling ends clean, READ CAPACITY(16) verifies,
# the kernel is asked to rescan both paths, and the audit log gets a start and an end record.
. /vm/guest/lib.sh
export SGCTL_AUDIT_LOG=/tmp/erase-format-audit.jsonl
set -- $(lsscsi -g | awk '/SGCTLVM/{print $NF}')
sg=$1
out=$(sgctl --json format "$sg" --block-size 512 --confirm DP0001 --poll-interval 0.2 2>&1); rc=$?

if [ $rc -eq 0 ]; then pass format_512; else fail format_512 "exit $rc: $(echo "$out" | jq -c '.data.drives[0] | {outcome,message,sense_trail}' 2>/dev/null || echo "$out" | tail -n 3)"; fi
n_start=$(grep -c '"event":"start"' "$SGCTL_AUDIT_LOG" 2>/dev/null)
n_end=$(grep -c '"event":"end"' "$SGCTL_AUDIT_LOG" 2>/dev/null)
[ "$n_start" = 1 ] && [ "$n_end" = 1 ] && pass audit_start_end || fail audit_start_end "start=$n_start end=$n_end"
out=$(sgctl sanitize "$sg" --crypto --confirm DP0001 2>&1); rc=$?
# QEMU's scsi-hd has no SANITIZE: the answer must be "unsupported" (7), never success.
[ $rc -eq 7 ] && pass sanitize_unsupported || fail sanitize_unsupported "exit $rc: $(echo "$out" | tail -n 3 | tr '\n' ' ')"
# --all-matching selects by what `sgctl scan` found: the dual-port disk is ONE drive (two paths).
out=$(sgctl --json format --all-matching "sgctlvm dp0001" --block-size 512 --dry-run 2>&1); rc=$?
n=$(echo "$out" | jq '.data.drives | length' 2>/dev/null)
[ $rc -eq 0 ] && [ "$n" = 1 ] && pass all_matching_one_drive || fail all_matching_one_drive "exit $rc, $n drives: $(echo "$out" | tail -n 3)"
