# sgctl firmware on scsi_debug (SG_IO, WRITE BUFFER) compared with sg_write_buffer. scsi_debug
# (drivers/scsi/scsi_debug.c, resp_write_buffer) keeps no microcode: it answers every WRITE
# BUFFER with GOOD, raises UA 3F/16 MICROCODE HAS BEEN CHANGED WITHOUT RESET for modes 05h (on
# the LU) and 07h (on every LU of the target), nothing for 0Dh-0Fh, and its revision stays. So
# both tools must succeed the same way, send the same CDBs, and sgctl must read back the same
# revision and report the unit attention.
. /vm/guest/lib.sh
sg=$(lsscsi -g | awk '/scsi_debug/ {print $NF; exit}')
serial=$(sg_vpd -p sn "$sg" 2>/dev/null | sed -n 's/.*Unit serial number: *//p' | tr -d ' ')
rev=$(sg_inq "$sg" 2>/dev/null | sed -n 's/.*Product revision level: *//p' | tr -d ' ')
head -c 4096 /dev/urandom > /tmp/fw.bin
# The WRITE BUFFER CDBs of a -v trace (sg_write_buffer prints them in brackets), repeats of
# the same CDB in a row counted once.
cdbs() { sed -n 's/.*[Ww]rite buffer cdb: *\[*//p' "$1" | tr -d '[]' | awk '{print $1,$2,$3,$4,$5,$6,$7,$8,$9,$10}' | uniq; }
# Mode 05h, the whole image in one command, as sg_write_buffer --mode=dmc_save sends it.
sg_write_buffer -v --mode=dmc_save --in=/tmp/fw.bin "$sg" >/tmp/t.wb 2>&1; theirs=$?
sg_turs "$sg" >/dev/null 2>&1
sgctl -v --json firmware "$sg" --image /tmp/fw.bin --mode 5 --confirm "$serial" >/tmp/o.fw 2>/tmp/e.fw; ours=$?
[ $ours = 0 ] && [ $theirs = 0 ] && [ "$(cdbs /tmp/e.fw)" = "$(cdbs /tmp/t.wb)" ] \
  && pass firmware_mode5_as_sg_write_buffer \
  || fail firmware_mode5_as_sg_write_buffer "sgctl exit $ours [$(cdbs /tmp/e.fw)], sg_write_buffer exit $theirs [$(cdbs /tmp/t.wb)]"
got=$(jq -r '.data.drives[0] | "\(.outcome) \(.after.revision_after) \(.after.microcode_status | join(","))"' /tmp/o.fw)
case "$got" in
  "success $rev 3F/16"*) pass firmware_revision_and_ua_read_back ;;
  *) fail firmware_revision_and_ua_read_back "want 'success $rev 3F/16 ...', got '$got'" ;;
esac
# Mode 07h in 1 KiB segments, as sg_write_buffer --mode=dmc_offs_save --bpw=1024 sends them.
# scsi_debug raises 3F/16 on the LU after every 07h segment, so the next segment meets that
# unit attention: sg_write_buffer stops there (exit 6, SG_LIB_CAT_UNIT_ATTENTION); sgctl sends
# the segment again (SAM-5: a command answered with a unit attention was not processed) and
# completes. The CDBs agree as far as sg_write_buffer goes.
sg_write_buffer -v --mode=dmc_offs_save --bpw=1024 --in=/tmp/fw.bin "$sg" >/tmp/t.wb 2>&1; theirs=$?
sg_turs "$sg" >/dev/null 2>&1; sg_turs "$sg" >/dev/null 2>&1
sgctl -v --json firmware "$sg" --image /tmp/fw.bin --mode 7 --chunk 1k --confirm "$serial" >/tmp/o.fw 2>/tmp/e.fw; ours=$?
n_theirs=$(cdbs /tmp/t.wb | wc -l)
[ $ours = 0 ] && [ "$(cdbs /tmp/e.fw | wc -l)" = 4 ] && [ "$n_theirs" -ge 1 ] \
  && [ "$(cdbs /tmp/e.fw | head -n "$n_theirs")" = "$(cdbs /tmp/t.wb)" ] \
  && { [ $theirs = 0 ] || [ $theirs = 6 ]; } \
  && pass firmware_mode7_segments_as_sg_write_buffer \
  || fail firmware_mode7_segments_as_sg_write_buffer "sgctl exit $ours [$(cdbs /tmp/e.fw | tr '\n' '|')], sg_write_buffer exit $theirs [$(cdbs /tmp/t.wb | tr '\n' '|')]"
# A revision the drive does not report afterwards: the check fails (exit 5).
sgctl firmware "$sg" --image /tmp/fw.bin --mode 5 --expect-revision XXXX --confirm "$serial" >/tmp/o.fw 2>&1; rc=$?
[ $rc = 5 ] && pass firmware_expected_revision_checked \
  || fail firmware_expected_revision_checked "exit $rc: $(tr '\n' '|' </tmp/o.fw | head -c 300)"
# Mode 07h raised 3F/16 on every LU of the target: consume the unit attentions so later
# scripts' first commands do not meet them.
for d in $(lsscsi -g | awk '/scsi_debug/ {print $NF}'); do sg_turs "$d" >/dev/null 2>&1; sg_turs "$d" >/dev/null 2>&1; done
