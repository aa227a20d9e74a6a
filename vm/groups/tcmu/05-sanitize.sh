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
# The records over real SG_IO: a batch of three kernel drives — the TCMU-served SED and two
# more single-port SEDs served beside it (their own `sgctl sim serve`, serials TCMU0002 and
# TCMU0003, a 5x drive clock, no state file) — crypto-erased with the default validation and a
# signing key, the certificate countersigned by a second person, then the certificate (every
# drive's record and both signatures), the batch manifest (JSON + PDF) and the audit chain (with
# the manifest anchored in it) verified. The extra drives are stopped at the end, so the later
# scripts see the one drive they expect.
EXTRA="2 3"
extra_start() { # N: serve TCMU000N on one port; its /dev/sgN and /dev/sdX in /tmp/extraN.sg, .sd
  rm -f "/tmp/extra$1.ready" "/tmp/extra$1.rc"
  sh -c "sgctl sim serve --tcmu 'px02smf080?capacity_blocks=262144&serial=TCMU000$1&speed=5' \
           --ports 1 --name vmextra$1 --ready-file /tmp/extra$1.ready > /tmp/extra$1.out 2> /tmp/extra$1.err \
           & echo \$! > /tmp/extra$1.pid; wait \$!; echo \$? > /tmp/extra$1.rc" &
}
extra_ready() { # N: waits for the server's ready file; its /dev/sgN from what it printed, then
  # the disk sd attaches to that LU (after the ready file: sd probes on its own)
  wait_for 90 sh -c "test -f /tmp/extra$1.ready || test -f /tmp/extra$1.rc" || return 1
  test -f "/tmp/extra$1.ready" || return 1
  grep -o '/dev/sg[0-9]*' "/tmp/extra$1.err" | head -n 1 > "/tmp/extra$1.sg"
  test -s "/tmp/extra$1.sg" || return 1
  blk="/sys/class/scsi_generic/$(basename "$(cat "/tmp/extra$1.sg")")/device/block"
  wait_for 30 sh -c "ls $blk 2>/dev/null | grep -q ." || return 1
  echo "/dev/$(ls "$blk" | head -n 1)" > "/tmp/extra$1.sd"
}
for n in $EXTRA; do extra_start "$n"; done
sgs="$sg"
confirm="--confirm TCMU0001"
ok=1
for n in $EXTRA; do
  if extra_ready "$n"; then
    sgs="$sgs $(cat "/tmp/extra$n.sg")"
    confirm="$confirm --confirm TCMU000$n"
    dd if=/dev/urandom of="$(cat "/tmp/extra$n.sd")" bs=4k count=16 oflag=direct 2>/dev/null
  else
    ok=0
    echo "extra drive $n: $(cat "/tmp/extra$n.err" 2>/dev/null | tail -n 5)"
  fi
done
/usr/bin/lsscsi -g
[ $ok = 1 ] && [ "$(echo $sgs | wc -w)" = 3 ] && pass rec_three_kernel_drives \
  || fail rec_three_kernel_drives "serving the extra drives failed: $sgs"
dd if=/dev/urandom of="$sd" bs=4k count=16 oflag=direct 2>/dev/null
rm -f /tmp/rec-op.pem* /tmp/rec-val.pem* /tmp/batch.json* /tmp/rec-audit.jsonl
export SGCTL_AUDIT_LOG=/tmp/rec-audit.jsonl
check rec_keygen_operator sgctl certificate keygen /tmp/rec-op.pem
check rec_keygen_validator sgctl certificate keygen /tmp/rec-val.pem
# shellcheck disable=SC2086 # $sgs and $confirm are word lists
out=$(sgctl --json sanitize --crypto $sgs $confirm \
  --poll-interval 1 --signing-key /tmp/rec-op.pem --certificate /tmp/batch.json 2>/tmp/rec.err); rc=$?
[ $rc = 0 ] && pass rec_batch_sanitize || fail rec_batch_sanitize "exit $rc: $(echo "$out" | jq -c '[.data.drives[]? | {device,outcome,message}]' 2>/dev/null) $(tail -n 3 /tmp/rec.err)"
# Every drive: its own serial, reached through its own /dev/sgN, whole drive, validated by
# the default quick plan.
v=$(echo "$out" | jq -r '[.data.drives[] | "\(.drive.serial) \(.device) \(.scope.whole_drive) \(.validation.plan) \(.validation.result)"] | sort | join(",")' 2>/dev/null)
want=$(i=1; for d in $sgs; do echo "TCMU000$i $d true quick passed"; i=$((i + 1)); done | sort | tr '\n' , | sed 's/,$//')
[ "$v" = "$want" ] && pass rec_sgio_drives_validated || fail rec_sgio_drives_validated "got: $v; want: $want"
out=$(sgctl certificate countersign /tmp/batch.json --key /tmp/rec-val.pem --name "V. Alidator" \
  --title "Security officer" --organisation "sgctl VM suite" 2>&1); rc=$?
[ $rc = 0 ] && pass rec_countersign || fail rec_countersign "exit $rc: $out"
out=$(sgctl --json certificate verify /tmp/batch.json --pubkey /tmp/rec-op.pem.pub \
  --countersigner-pubkey /tmp/rec-val.pem.pub 2>&1); rc=$?
echo "$out" | jq -c .data 2>/dev/null | cut -c1-400
[ $rc = 0 ] && [ "$(echo "$out" | jq -r .data.valid)" = true ] && pass rec_certificate_verify || fail rec_certificate_verify "exit $rc: $(echo "$out" | tail -n 3)"
# The signature lists one record hash per drive and every record hashes as listed.
v=$(echo "$out" | jq -r '"\(.data.records) \(.data.serials | sort | join(","))"' 2>/dev/null)
[ "$v" = "3 TCMU0001,TCMU0002,TCMU0003" ] && pass rec_certificate_every_drive || fail rec_certificate_every_drive "got: $v"
out=$(sgctl certificate verify /tmp/batch.json --pubkey /tmp/rec-val.pem.pub 2>&1); rc=$?
[ $rc = 5 ] && pass rec_certificate_wrong_key_refused || fail rec_certificate_wrong_key_refused "exit $rc: $out"
v=$(jq -r '[.drives[] | "\(.serial) \(.outcome) \(.validation)"] | sort | join(",")' /tmp/batch.json.manifest.json 2>/dev/null)
[ "$v" = "TCMU0001 success passed,TCMU0002 success passed,TCMU0003 success passed" ] \
  && pass rec_manifest_three_drives || fail rec_manifest_three_drives "drives: $v"
[ "$(head -c 8 /tmp/batch.json.manifest.json.pdf 2>/dev/null | cut -c1-5)" = "%PDF-" ] \
  && pass rec_manifest_pdf || fail rec_manifest_pdf "no PDF beside the manifest: $(ls -l /tmp/batch.json* 2>&1)"
out=$(sgctl --json certificate verify /tmp/batch.json.manifest.json --pubkey /tmp/rec-op.pem.pub 2>&1); rc=$?
[ $rc = 0 ] && [ "$(echo "$out" | jq -r .data.manifest)" = true ] && pass rec_manifest_verify || fail rec_manifest_verify "exit $rc: $(echo "$out" | tail -n 3)"
grep -q '"event":"manifest"' /tmp/rec-audit.jsonl && pass rec_manifest_anchored || fail rec_manifest_anchored "no manifest record in the audit log"
out=$(sgctl audit verify /tmp/rec-audit.jsonl 2>&1); rc=$?
echo "$out"
[ $rc = 0 ] && echo "$out" | grep -q intact && pass rec_audit_verify || fail rec_audit_verify "exit $rc: $out"
# Stop the extra drives: their LUNs go, the group's drive is alone again.
for n in $EXTRA; do test -f "/tmp/extra$n.pid" && kill -TERM "$(cat "/tmp/extra$n.pid")"; done
rcs=""
for n in $EXTRA; do wait_for 60 test -f "/tmp/extra$n.rc"; rcs="$rcs $(cat "/tmp/extra$n.rc" 2>/dev/null || echo running)"; done
[ "$rcs" = " 0 0" ] && [ "$(/usr/bin/lsscsi | grep -c PX02SMF080)" = 2 ] && pass rec_extra_drives_stopped \
  || fail rec_extra_drives_stopped "exit statuses:$rcs; $(/usr/bin/lsscsi)"
