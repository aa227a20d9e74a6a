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
for p in sv sn di ei sp ai bl bdc lbpv; do
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
