# CRYPTOGRAPHIC ERASE with sg_sanitize, progress seen by sg_requests --progress, then the same
# with sgctl. Restart serving (a fresh drive) at real clock speed, where the erase takes 2 s,
# to watch the progress.
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
stop_serve; rc=$?
[ $rc = 0 ] && pass restart_stop || fail restart_stop "serve exited $rc"
start_serve speed=1 && pass restart_start || fail restart_start "$(tail -n 5 /tmp/serve.err)"
sg=$(tcmu_sg)
sd=$(tcmu_sd)
dd if=/dev/urandom of="$sd" bs=4k count=4 oflag=direct 2>/dev/null
before=$(dd if="$sd" bs=4k count=4 iflag=direct 2>/dev/null | md5sum)
out=$(sg_sanitize --crypto --quick --early "$sg" 2>&1); rc=$?
echo "$out"
[ $rc = 0 ] && pass sg_sanitize_crypto_started || fail sg_sanitize_crypto_started "exit $rc: $out"
seen=""
i=0
while [ $i -lt 100 ]; do
  p=$(sg_requests --progress "$sg" 2>&1)
  case "$p" in *"%"*) seen="$p"; break ;; esac
  echo "$p" | grep -qi "no progress\|not in progress" && [ $i -gt 0 ] && break
  i=$((i + 1))
done
echo "sg_requests: $seen"
[ -n "$seen" ] && pass sg_requests_progress || fail sg_requests_progress "no progress indication seen: $p"
wait_for 60 sg_turs "$sg" && pass sanitize_completes || fail sanitize_completes "$(sg_turs -v "$sg" 2>&1)"
for s in $(lsscsi | awk '/PX02SMF080/ {print $NF}'); do echo 1 > "/sys/block/$(basename "$s")/device/rescan"; done
after=$(dd if="$sd" bs=4k count=4 iflag=direct 2>/dev/null | md5sum)
[ "$before" != "$after" ] && pass data_gone_after_crypto || fail data_gone_after_crypto "data unchanged"
export SGCTL_AUDIT_LOG=/tmp/audit.jsonl
out=$(sgctl sanitize --crypto --confirm TCMU0001 --poll-interval 1 --progress-json "$sg" 2>&1); rc=$?
echo "$out" | tail -n 8
[ $rc = 0 ] && pass sgctl_sanitize_crypto || fail sgctl_sanitize_crypto "exit $rc: $(echo "$out" | tail -n 3)"
# The records over real SG_IO: a batch of two drives (the TCMU-served SED through the kernel and
# an in-process virtual drive) sanitized with a signing key, its certificate countersigned by a
# second person, then the certificate (both signatures), the batch manifest and the audit chain
# (with the manifest anchored in it) verified.
dd if=/dev/urandom of="$sd" bs=4k count=16 oflag=direct 2>/dev/null
rm -f /tmp/rec-op.pem* /tmp/rec-val.pem* /tmp/batch.json* /tmp/rec-audit.jsonl /tmp/rec-sim.*
export SGCTL_AUDIT_LOG=/tmp/rec-audit.jsonl
check rec_keygen_operator sgctl certificate keygen /tmp/rec-op.pem
check rec_keygen_validator sgctl certificate keygen /tmp/rec-val.pem
simdrv="sim:px02smf080?clock=virtual&capacity_blocks=65536&serial=VMREC002&state=/tmp/rec-sim.json"
out=$(sgctl --json sanitize --crypto "$sg" "$simdrv" --confirm TCMU0001 --confirm VMREC002 \
  --poll-interval 1 --signing-key /tmp/rec-op.pem --certificate /tmp/batch.json 2>/tmp/rec.err); rc=$?
[ $rc = 0 ] && pass rec_batch_sanitize || fail rec_batch_sanitize "exit $rc: $(echo "$out" | jq -c '[.data.drives[]? | {device,outcome,message}]' 2>/dev/null) $(tail -n 3 /tmp/rec.err)"
v=$(echo "$out" | jq -r '.data.drives[0] | "\(.drive.serial) \(.scope.whole_drive) \(.validation.plan) \(.validation.result)"' 2>/dev/null)
[ "$v" = "TCMU0001 true quick passed" ] && pass rec_sgio_drive_validated || fail rec_sgio_drive_validated "got: $v"
out=$(sgctl certificate countersign /tmp/batch.json --key /tmp/rec-val.pem --name "V. Alidator" \
  --title "Security officer" --organisation "sgctl VM suite" 2>&1); rc=$?
[ $rc = 0 ] && pass rec_countersign || fail rec_countersign "exit $rc: $out"
out=$(sgctl --json certificate verify /tmp/batch.json --pubkey /tmp/rec-op.pem.pub \
  --countersigner-pubkey /tmp/rec-val.pem.pub 2>&1); rc=$?
echo "$out" | jq -c .data 2>/dev/null | cut -c1-400
[ $rc = 0 ] && [ "$(echo "$out" | jq -r .data.valid)" = true ] && pass rec_certificate_verify || fail rec_certificate_verify "exit $rc: $(echo "$out" | tail -n 3)"
out=$(sgctl certificate verify /tmp/batch.json --pubkey /tmp/rec-val.pem.pub 2>&1); rc=$?
[ $rc = 5 ] && pass rec_certificate_wrong_key_refused || fail rec_certificate_wrong_key_refused "exit $rc: $out"
n=$(jq '.drives | length' /tmp/batch.json.manifest.json 2>/dev/null)
[ "$n" = 2 ] && pass rec_manifest_two_drives || fail rec_manifest_two_drives "drives: $n"
out=$(sgctl --json certificate verify /tmp/batch.json.manifest.json --pubkey /tmp/rec-op.pem.pub 2>&1); rc=$?
[ $rc = 0 ] && [ "$(echo "$out" | jq -r .data.manifest)" = true ] && pass rec_manifest_verify || fail rec_manifest_verify "exit $rc: $(echo "$out" | tail -n 3)"
grep -q '"event":"manifest"' /tmp/rec-audit.jsonl && pass rec_manifest_anchored || fail rec_manifest_anchored "no manifest record in the audit log"
out=$(sgctl audit verify /tmp/rec-audit.jsonl 2>&1); rc=$?
echo "$out"
[ $rc = 0 ] && echo "$out" | grep -q intact && pass rec_audit_verify || fail rec_audit_verify "exit $rc: $out"
