# sgctl firmware through the real kernel (SG_IO on /dev/sgN, LIO, TCMU) to the virtual drive,
# compared with sg_write_buffer on the same drive. The drive takes microcode in its own image
# format (SGCTLFW1: proto/src/scsi/write_buffer.rs, sim_image) and changes its INQUIRY revision:
# sg_write_buffer's download is read back by sgctl and sgctl's by sg_inq; both send the same
# CDBs for the same segment size; a deferred download waits for the other tool's activation.
# Then a download cut short (fault fail_microcode=2: the drive never gets the 2nd segment, the
# kernel hands sgctl a failed command) leaves the old revision running and the drive usable,
# and sgctl's record and audit end record say so. Ends with the drive's own revision back.
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
t0=$(date +%s)
tick() { echo "58-firmware: +$(( $(date +%s) - t0 )) s $*"; }
sg=$(tcmu_sg)
sg2=""; for s in $(lsscsi -g | awk '/PX02SMF080/ {print $NF}'); do [ "$s" != "$sg" ] && sg2=$s; done
for x in "$sg" "$sg2"; do sg_turs "$x" >/dev/null 2>&1; sg_turs "$x" >/dev/null 2>&1; done
rev() { sg_inq "$1" 2>/dev/null | sed -n 's/.*Product revision level: *//p' | tr -d ' '; }
# be32 N: four bytes, big-endian. mkimg REV PAYLOAD OUT: an SGCTLFW1 image for PX02SMF080
# (magic, model and revision space padded, payload length and CRC-32 big-endian, 28 zero bytes,
# the payload). The CRC-32 is gzip's (RFC 1952 trailer: CRC32 little-endian, then ISIZE).
be32() { for s in 24 16 8 0; do printf "\\$(printf %03o $(( ($1 >> s) & 255 )))"; done; }
mkimg() {
  [ "$2" = "$mk_pay" ] || { mk_pay=$2; n=$(wc -c < "$2"); c=$(gzip -c < "$2" | tail -c 8 | od -An -tu4 -N4 | tr -d ' '); }
  { printf 'SGCTLFW1%-16s%-4s' PX02SMF080 "$1"; be32 "$n"; be32 "$c"; head -c 28 /dev/zero; cat "$2"; } > "$3"
}
# The WRITE BUFFER CDBs of a -v trace (sg_write_buffer prints them in brackets).
cdbs() { sed -n 's/.*[Ww]rite buffer cdb: *\[*//p' "$1" | tr -d '[]' | awk '{print $1,$2,$3,$4,$5,$6,$7,$8,$9,$10}'; }
r0=$(rev "$sg")
head -c 12000 /dev/urandom > /tmp/fw.pay
for r in 0301 0302 0303 0304 0305 "$r0"; do mkimg "$r" /tmp/fw.pay "/tmp/fw.$r"; done
tick images
# --- sg_write_buffer mode 07h in 4 KiB segments: sgctl and sg_inq read the new revision; the
# other port's next command meets 3F/01 MICROCODE HAS BEEN CHANGED (SPC-6 5.4) ---------------
sg_write_buffer -v --mode=dmc_offs_save --bpw=4096 --in=/tmp/fw.0301 "$sg" >/tmp/t.wb 2>&1; rc=$?
ours=$(sgctl --json inquiry "$sg" | jq -r '.data.product_revision_level' | tr -d ' ')
[ $rc = 0 ] && [ "$(rev "$sg")" = 0301 ] && [ "$ours" = 0301 ] && pass sg_write_buffer_mode7_read_by_sgctl \
  || fail sg_write_buffer_mode7_read_by_sgctl "exit $rc, sg_inq '$(rev "$sg")', sgctl '$ours' (was $r0): $(tail -n 2 /tmp/t.wb | tr '\n' '|')"
o=$(sg_turs -v "$sg2" 2>&1)
echo "$o" | grep -qi "microcode has been changed" && pass other_port_unit_attention_3f01 \
  || fail other_port_unit_attention_3f01 "$sg2: $(echo "$o" | tr '\n' '|')"
sg_turs "$sg2" >/dev/null 2>&1
tick
# --- sgctl mode 07h, --chunk 4k: the CDBs sg_write_buffer sent, the revision verified -------
sgctl -v --json firmware "$sg" --image /tmp/fw.0302 --mode 7 --chunk 4k --confirm TCMU0001 </dev/null >/tmp/o.fw 2>/tmp/e.fw; rc=$?
got=$(jq -r '.data.drives[0] | "\(.outcome) \(.after.revision_before) \(.after.revision_after) \(.after.activated)"' /tmp/o.fw)
[ $rc = 0 ] && [ "$got" = "success 0301 0302 true" ] && [ "$(rev "$sg")" = 0302 ] \
  && pass sgctl_mode7_verified_and_read_by_sg_inq \
  || fail sgctl_mode7_verified_and_read_by_sg_inq "exit $rc, '$got', sg_inq '$(rev "$sg")': $(tail -n 2 /tmp/e.fw | tr '\n' '|')"
[ "$(cdbs /tmp/e.fw | wc -l)" = 3 ] && [ "$(cdbs /tmp/e.fw)" = "$(cdbs /tmp/t.wb)" ] \
  && pass sgctl_mode7_cdbs_as_sg_write_buffer \
  || fail sgctl_mode7_cdbs_as_sg_write_buffer "sgctl [$(cdbs /tmp/e.fw | tr '\n' '|')], sg_write_buffer [$(cdbs /tmp/t.wb | tr '\n' '|')]"
sg_turs "$sg2" >/dev/null 2>&1
tick
# --- deferred: sg_write_buffer mode 0Eh saves, nothing changes until sgctl --activate (0Fh);
# sgctl mode 0Eh saves, sg_write_buffer --mode=activate_mc activates ---------------------------
sg_write_buffer --mode=dmc_offs_defer --bpw=4096 --in=/tmp/fw.0303 "$sg" >/tmp/t.wb 2>&1; rc=$?
mid=$(rev "$sg")
sgctl --json firmware "$sg" --activate --confirm TCMU0001 </dev/null >/tmp/o.fw 2>/tmp/e.fw; rc2=$?
[ $rc = 0 ] && [ "$mid" = 0302 ] && [ $rc2 = 0 ] && [ "$(rev "$sg")" = 0303 ] && pass deferred_by_sg_write_buffer_activated_by_sgctl \
  || fail deferred_by_sg_write_buffer_activated_by_sgctl "exits $rc/$rc2, revision after 0Eh '$mid', after 0Fh '$(rev "$sg")': $(tail -n 2 /tmp/e.fw | tr '\n' '|')"
tick
sgctl --json firmware "$sg" --image /tmp/fw.0304 --mode 0xe --chunk 4k --confirm TCMU0001 </dev/null >/tmp/o.fw 2>/tmp/e.fw; rc=$?
pend=$(jq -r '.data.drives[0].after.pending_activation' /tmp/o.fw); mid=$(rev "$sg")
sg_write_buffer --mode=activate_mc "$sg" >/tmp/t.wb 2>&1; rc2=$?
[ $rc = 0 ] && [ "$pend" = true ] && [ "$mid" = 0303 ] && [ $rc2 = 0 ] && [ "$(rev "$sg")" = 0304 ] \
  && pass deferred_by_sgctl_activated_by_sg_write_buffer \
  || fail deferred_by_sgctl_activated_by_sg_write_buffer "exits $rc/$rc2, pending '$pend', revision after 0Eh '$mid', after activate_mc '$(rev "$sg")'"
sg_turs "$sg2" >/dev/null 2>&1; sg_turs "$sg2" >/dev/null 2>&1
tick
t1=$(date +%s)
# --- a download cut short: the drive restarted with fail_microcode=2 (its state file keeps
# revision 0304); the 2nd of 3 segments never reaches it -----------------------------------
stop_serve || true
start_serve "speed=5&fail_microcode=2" || fail serve_fail_microcode "$(tail -n 5 /tmp/serve.err)"
sg=$(tcmu_sg)
for x in $(lsscsi -g | awk '/PX02SMF080/ {print $NF}'); do sg_turs "$x" >/dev/null 2>&1; sg_turs "$x" >/dev/null 2>&1; done
t2=$(date +%s)
rm -f /tmp/fw.audit
SGCTL_AUDIT_LOG=/tmp/fw.audit sgctl -v --json firmware "$sg" --image /tmp/fw.0305 --mode 7 --chunk 4k \
  --confirm TCMU0001 </dev/null >/tmp/o.fw 2>/tmp/e.fw; rc=$?
jq -c '.data.drives[0] | {outcome, message, after: (.after | {revision_after, interrupted, activated, ready_after, segments_sent})}' /tmp/o.fw
got=$(jq -r '.data.drives[0] | "\(.outcome) \(.after.revision_after) \(.after.interrupted) \(.after.activated) \(.after.ready_after)"' /tmp/o.fw)
msg=$(jq -r '.data.drives[0].message' /tmp/o.fw)
[ $rc = 4 ] && [ "$got" = "failed 0304 true false true" ] && echo "$msg" | grep -q "still runs revision 0304" \
  && pass interrupted_record_says_old_revision_runs \
  || fail interrupted_record_says_old_revision_runs "exit $rc, '$got', message '$msg': $(tail -n 3 /tmp/e.fw | tr '\n' '|')"
end=$(grep '"event":"end"' /tmp/fw.audit | tail -n 1)
echo "$end" | jq -e '.outcome == "failed" and (.details.message | contains("0304"))' >/dev/null \
  && pass interrupted_audit_end_record || fail interrupted_audit_end_record "$end"
# The drive runs 0304 for every tool, answers, reads and writes; a new download then works.
sg_turs "$sg" >/dev/null 2>&1; t=$?
sg_dd if="$sg" of=/tmp/fw.rd bs=512 count=8 >/dev/null 2>&1; d=$?
[ "$(rev "$sg")" = 0304 ] && [ $t = 0 ] && [ $d = 0 ] && pass interrupted_old_revision_runs_drive_usable \
  || fail interrupted_old_revision_runs_drive_usable "sg_inq '$(rev "$sg")', sg_turs exit $t, sg_dd exit $d"
tick
sgctl --json firmware "$sg" --image "/tmp/fw.$r0" --mode 7 --chunk 4k --confirm TCMU0001 </dev/null >/tmp/o.fw 2>/tmp/e.fw; rc=$?
[ $rc = 0 ] && [ "$(rev "$sg")" = "$r0" ] && pass download_after_interruption_restores_revision \
  || fail download_after_interruption_restores_revision "exit $rc, sg_inq '$(rev "$sg")' (want $r0): $(tail -n 2 /tmp/e.fw | tr '\n' '|')"
for x in $(lsscsi -g | awk '/PX02SMF080/ {print $NF}'); do sg_turs "$x" >/dev/null 2>&1; sg_turs "$x" >/dev/null 2>&1; done
echo "58-firmware: $(( $(date +%s) - t0 )) s (restart $(( t2 - t1 )) s)"
