# sgctl's identification/query commands on a real kernel (SG_IO on /dev/sgN to scsi_debug)
# compared with sg3_utils on the same device: each decoded VPD page must print the same as
# sg_vpd (trailing blanks aside), and INQUIRY, READ CAPACITY and REPORT LUNS the same values as
# sg_inq, sg_readcap and sg_luns.
. /vm/guest/lib.sh
sg=$(lsscsi -g | awk '/scsi_debug/ {print $NF; exit}')
strip() { sed 's/[[:space:]]*$//' "$1" | grep -v '^$'; }
same() { # name file-ours file-theirs
  strip "$2" > /tmp/c.ours; strip "$3" > /tmp/c.theirs
  if diff /tmp/c.theirs /tmp/c.ours > /tmp/c.diff; then pass "$1"
  else fail "$1" "differs from sg3_utils: $(head -n 6 /tmp/c.diff | tr '\n' '|')"; fi
}
for p in sv sn di sii mna ei mpp sp ai bl bdc lbpv; do
  if sgctl vpd "$sg" --page "$p" > /tmp/o.$p 2>/tmp/e.$p; then
    sg_vpd -p "$p" "$sg" > /tmp/t.$p 2>&1
    same "vpd_$p" /tmp/o.$p /tmp/t.$p
  else
    fail "vpd_$p" "sgctl exit $?: $(cat /tmp/e.$p)"
  fi
done
# Standard INQUIRY: vendor, product, revision lines.
sgctl inquiry "$sg" | grep -E '^ (Vendor identification|Product)' > /tmp/o.inq
sg_inq "$sg" | grep -E '^ (Vendor identification|Product)' > /tmp/t.inq
same inquiry_ids /tmp/o.inq /tmp/t.inq
# READ CAPACITY(16): the LBA/length/protection lines sg_readcap prints the same way.
sgctl readcap "$sg" --16 | grep -E 'Last LBA=|Logical block length=|prot_en=' > /tmp/o.rc
sg_readcap -16 "$sg" | grep -E 'Last LBA=|Logical block length=|prot_en=' > /tmp/t.rc
[ -s /tmp/t.rc ] && same readcap16 /tmp/o.rc /tmp/t.rc || fail readcap16 "no sg_readcap output"
# REPORT LUNS: the 16-hex-digit LUN list.
sgctl luns "$sg" | grep -E '^    [0-9a-f]{16}$' > /tmp/o.luns
sg_luns "$sg" | grep -E '^    [0-9a-f]{16}$' > /tmp/t.luns
[ -s /tmp/t.luns ] && same luns /tmp/o.luns /tmp/t.luns || fail luns "no sg_luns output"
# REPORT SUPPORTED OPERATION CODES: same number of commands as sg_opcodes lists.
n_ours=$(sgctl --json opcodes "$sg" | jq '.data.commands | length')
n_theirs=$(sg_opcodes "$sg" 2>/dev/null | grep -cE '^ [0-9a-f]{2} ')
[ "$n_ours" -gt 10 ] && [ "$n_ours" = "$n_theirs" ] && pass opcodes_count \
  || fail opcodes_count "sgctl $n_ours commands, sg_opcodes $n_theirs"
# MODE SENSE: every page sdparm-style tools see, decoded without error; REQUEST SENSE, TUR.
check modes sgctl modes "$sg"
check modes_llbaa sgctl modes "$sg" --llbaa
check modes_six sgctl modes "$sg" --six
check sense sgctl sense "$sg"
check tur sgctl tur "$sg"
# SEND DIAGNOSTIC: scsi_debug accepts a background short self-test (and keeps no self-test log
# page); sgctl selftest --short must end as sg_senddiag --selftest=1 does, and the status read
# must not fail for want of the page.
sg_senddiag --selftest=1 "$sg" >/dev/null 2>&1; theirs=$?
sgctl selftest "$sg" --short >/tmp/o.st 2>/tmp/e.st; ours=$?
[ "$ours" = "$theirs" ] && pass selftest_short_as_sg_senddiag \
  || fail selftest_short_as_sg_senddiag "sgctl exit $ours, sg_senddiag exit $theirs: $(cat /tmp/e.st)"
check selftest_status sgctl selftest "$sg"
# Mode pages: what sgctl modes --set writes, sdparm --get reads, and the other way round.
sdwce() { sdparm --get=WCE "$sg" 2>/dev/null | awk '$1 == "WCE" {print $2; exit}'; }
w0=$(sdwce); w1=$((1 - ${w0:-0}))
sgctl modes "$sg" --set ca.WCE=$w1 >/tmp/o.ms 2>&1; rc=$?
[ $rc = 0 ] && [ "$(sdwce)" = "$w1" ] && pass modes_set_wce_read_by_sdparm \
  || fail modes_set_wce_read_by_sdparm "exit $rc, sdparm WCE $(sdwce), wanted $w1: $(tr '\n' '|' </tmp/o.ms)"
sdparm --quiet --set=WCE="$w0" "$sg" >/dev/null 2>&1
got=$(sgctl --json modes "$sg" --get ca.WCE | jq '.data[0].current')
[ "$got" = "$w0" ] && pass modes_get_wce_after_sdparm_set \
  || fail modes_get_wce_after_sdparm_set "sgctl reads $got after sdparm --set=WCE=$w0"
# A field the changeable mask does not cover (DISC: scsi_debug's caching mask has WCE only):
# sgctl --get says not changeable as sdparm's [cha: n] does, and --set exits 7 sending nothing.
# (scsi_debug itself does not enforce its mask on MODE SELECT, so sdparm's --set is not asked.)
cha=$(sdparm --get=DISC "$sg" 2>/dev/null | sed -n 's/.*cha: *\([yn]\).*/\1/p' | head -n 1)
ours=$(sgctl --json modes "$sg" --get ca.DISC | jq -r '.data[0].changeable')
sgctl -v modes "$sg" --set ca.DISC=0 >/dev/null 2>/tmp/e.disc; rc=$?
sgctl -v modes "$sg" --set ca.DISC=1 >/dev/null 2>>/tmp/e.disc; rc1=$?
[ "$cha" = n ] && [ "$ours" = false ] && [ $rc = 7 ] && [ $rc1 = 7 ] && ! grep -q 'Mode select' /tmp/e.disc \
  && pass modes_set_not_changeable_refused \
  || fail modes_set_not_changeable_refused "sdparm cha '$cha', sgctl changeable $ours, exits $rc/$rc1: $(tail -n 1 /tmp/e.disc)"
# READ DEFECT DATA: sgctl defects and sg_reassign --grown agree, whether scsi_debug answers
# (same GLIST count) or refuses (both fail; sgctl with an exit code, not a crash).
g=$(sg_reassign --grown "$sg" 2>&1); grc=$?
n_theirs=$(echo "$g" | sed -n 's/.*Elements in grown defect list: *\([0-9]*\).*/\1/p')
n_ours=$(sgctl --json defects "$sg" --count 2>/dev/null | jq -r ".data.list.count")
sgctl defects "$sg" --count >/dev/null 2>/tmp/e.df; orc=$?
if [ $grc = 0 ]; then
  [ $orc = 0 ] && [ "$n_ours" = "$n_theirs" ] && pass defects_count_as_sg_reassign \
    || fail defects_count_as_sg_reassign "sgctl exit $orc count $n_ours, sg_reassign $n_theirs"
else
  [ $orc != 0 ] && [ $orc -lt 64 ] && pass defects_refused_as_sg_reassign \
    || fail defects_refused_as_sg_reassign "sg_reassign exit $grc ($(echo "$g" | tail -n 1)), sgctl exit $orc: $(tail -n 1 /tmp/e.df)"
fi
# REASSIGN BLOCKS: sgctl reassign ends as sg_reassign does on the same LBA (both succeed, or
# both fail — sgctl with an exit code below 64 and the drive's answer, not a crash).
sn=$(sg_vpd -p sn "$sg" 2>/dev/null | sed -n 's/.*Unit serial number: *//p' | tr -d ' ')
sg_reassign --address=100 "$sg" >/tmp/t.ra 2>&1; trc=$?
sgctl reassign "$sg" 101 --confirm "$sn" </dev/null >/tmp/o.ra 2>&1; orc=$?
if [ $trc = 0 ]; then
  [ $orc = 0 ] && pass reassign_as_sg_reassign || fail reassign_as_sg_reassign "sg_reassign exit 0, sgctl exit $orc: $(tail -n 1 /tmp/o.ra)"
else
  [ $orc != 0 ] && [ $orc -lt 64 ] && pass reassign_refused_as_sg_reassign \
    || fail reassign_refused_as_sg_reassign "sg_reassign exit $trc ($(tail -n 1 /tmp/t.ra)), sgctl exit $orc: $(tail -n 1 /tmp/o.ra)"
fi
echo "sg_reassign: exit $trc $(tail -n 1 /tmp/t.ra); sgctl reassign: exit $orc $(tail -n 1 /tmp/o.ra)"
# START STOP UNIT: sgctl power --stop, and sg_turs sees NOT READY; sg_start --start, and sgctl
# sees it ready; sg_start --stop, sgctl power --start, and sg_turs sees it ready again.
# REQUEST SENSE's power condition read by sgctl as sg_requests reads it.
serial=$(sg_vpd -p sn "$sg" 2>/dev/null | sed -n 's/.*Unit serial number: *//p' | tr -d ' ')
sgctl power "$sg" --stop </dev/null >/dev/null 2>&1; rc0=$?
sgctl power "$sg" --stop --confirm "$serial" </dev/null >/tmp/o.pw 2>&1; rc=$?
sg_turs "$sg" >/dev/null 2>&1; t=$?
[ $rc0 != 0 ] && [ $rc = 0 ] && [ $t != 0 ] && pass power_stop_seen_by_sg_turs \
  || fail power_stop_seen_by_sg_turs "unconfirmed exit $rc0, exit $rc, sg_turs exit $t: $(tr '\n' '|' </tmp/o.pw)"
req=$(sg_requests "$sg" 2>&1); pc=$(sgctl --json power "$sg" | jq -r '.data.power_condition')
if echo "$req" | grep -qi "initializing command required"; then
  [ "${pc#stopped}" != "$pc" ] && pass power_state_stopped_as_sg_requests \
    || fail power_state_stopped_as_sg_requests "sgctl '$pc', sg_requests $(echo "$req" | tr '\n' '|')"
else
  skip power_state_stopped_as_sg_requests "scsi_debug's REQUEST SENSE does not report the stop: $(echo "$req" | tr '\n' '|')"
fi
sg_start --start "$sg" >/dev/null 2>&1
sgctl tur "$sg" >/dev/null 2>&1; rc=$?
[ $rc = 0 ] && pass power_sg_start_seen_by_sgctl || fail power_sg_start_seen_by_sgctl "sgctl tur exit $rc"
sg_start --stop "$sg" >/dev/null 2>&1
sgctl power "$sg" --start >/tmp/o.pw 2>&1; rc=$?
sg_turs "$sg" >/dev/null 2>&1; t=$?
[ $rc = 0 ] && [ $t = 0 ] && pass power_start_seen_by_sg_turs \
  || fail power_start_seen_by_sg_turs "exit $rc, sg_turs exit $t: $(tr '\n' '|' </tmp/o.pw)"
sg_start --start "$sg" >/dev/null 2>&1
