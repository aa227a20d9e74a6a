# A full disk when writing records, over real SG_IO on the dual-port disk: a job
# whose audit log sits on a full filesystem (a 64 KiB tmpfs, filled) must not start — exit 6,
# the message names the log and says nothing was sent, the drive is untouched; a job whose
# certificate would land on the full filesystem is refused before it starts (exit 6, the
# certificate named, no audit record, the drive untouched; docs/security.md).
. /vm/guest/lib.sh
set -- $(lsscsi -g | awk '/SGCTLVM/{print $NF}')
sg=$1
mkdir -p /mnt/full
if ! mount -t tmpfs -o size=64k tmpfs /mnt/full; then fail tmpfs "cannot mount a tmpfs"; exit 0; fi
dd if=/dev/zero of=/mnt/full/fill bs=4k 2>/dev/null
df -k /mnt/full | tail -n 1

out=$(sgctl format "$sg" --block-size 512 --confirm DP0001 --audit-log /mnt/full/audit.jsonl 2>&1); rc=$?
if [ $rc -eq 6 ] && echo "$out" | grep -q "cannot write the audit record (audit log /mnt/full/audit.jsonl: No space left on device" \
   && echo "$out" | grep -q "nothing was sent"; then
  pass audit_log_full_job_not_started
else
  fail audit_log_full_job_not_started "exit $rc: $(echo "$out" | tail -n 3 | tr '\n' ' ')"
fi
# The drive still answers and was not formatted: READ CAPACITY shows the same 512-byte blocks.
check drive_untouched_readcap sgctl readcap "$sg"

out=$(sgctl format "$sg" --block-size 512 --confirm DP0001 --poll-interval 0.2 \
  --audit-log /tmp/full-ok-audit.jsonl --certificate /mnt/full/cert.json 2>&1); rc=$?
if [ $rc -eq 6 ] && echo "$out" | grep -q "/mnt/full/cert.json: the file system is full"; then
  pass certificate_full_refused_up_front
else
  fail certificate_full_refused_up_front "exit $rc: $(echo "$out" | tail -n 3 | tr '\n' ' ')"
fi
# Refused before the job started: no audit record, the drive untouched.
! grep -q '"event":"start"' /tmp/full-ok-audit.jsonl 2>/dev/null && pass certificate_full_no_start \
  || fail certificate_full_no_start "$(tail -n 2 /tmp/full-ok-audit.jsonl 2>&1)"
check drive_untouched_after_cert_refusal sgctl readcap "$sg"
umount /mnt/full
