# REASSIGN BLOCKS (SBC-4, opcode 07h) through TCMU with third-party clients only: sg_reassign
# builds the parameter list (short header + 4-byte LBAs, or --eight=1 --longlist=1: LONGLBA and
# LONGLIST), sg_reassign --grown counts the GLIST with READ DEFECT DATA(10) and smartctl -x with
# READ DEFECT DATA(12); sg_readcap and sg_dd show capacity and data unchanged.
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
sg=$(tcmu_sg)
sg_turs "$sg" >/dev/null 2>&1; sg_turs "$sg" >/dev/null 2>&1
grown() { sg_reassign --grown "$sg" 2>&1 | sed -n 's/.*Elements in grown defect list: *\([0-9]*\).*/\1/p'; }
before=$(grown); cap0=$(sg_readcap "$sg" 2>&1 | grep -i "last LBA\|last logical block")
# Data at LBA 3000..3001 first, so it can be read back after the move.
head -c 1024 /dev/zero | tr '\0' '\132' > /tmp/rz
sg_dd if=/tmp/rz of="$sg" bs=512 seek=3000 count=2 >/dev/null 2>&1
out=$(sg_reassign --address=3000,3001 "$sg" 2>&1); rc=$?
out8=$(sg_reassign --eight=1 --longlist=1 --address=0x1000 "$sg" 2>&1); rc8=$?
after=$(grown)
[ $rc = 0 ] && [ $rc8 = 0 ] && [ -n "$before" ] && [ "$after" = $((before + 3)) ] \
  && pass reassign_grown_count || fail reassign_grown_count "exit $rc/$rc8 $out $out8; grown $before -> $after"
echo "grown defect list: $before -> $after; $(echo "$out" | tail -n 1)"
s=$(smartctl -x "$sg" 2>&1 | sed -n 's/.*Elements in grown defect list: *\([0-9]*\).*/\1/p')
echo "smartctl -x: Elements in grown defect list: $s"
[ "$s" = "$after" ] && pass smartctl_grown_agrees || fail smartctl_grown_agrees "smartctl '$s', sg_reassign '$after'"
cap1=$(sg_readcap "$sg" 2>&1 | grep -i "last LBA\|last logical block")
[ -n "$cap0" ] && [ "$cap0" = "$cap1" ] && pass readcap_unchanged || fail readcap_unchanged "'$cap0' -> '$cap1'"
sg_dd if="$sg" of=/tmp/rz2 bs=512 skip=3000 count=2 >/dev/null 2>&1
cmp -s /tmp/rz /tmp/rz2 && pass reassigned_data_reads || fail reassigned_data_reads "data at LBA 3000 changed"
# The last LBA + 1: ILLEGAL REQUEST, LOGICAL BLOCK ADDRESS OUT OF RANGE; nothing added.
n=$(sg_readcap -b "$sg" 2>/dev/null | awk '{print $1}')
out=$(sg_reassign -v --address="$n" "$sg" 2>&1); rc=$?
[ $rc != 0 ] && echo "$out" | grep -qi "out of range" && [ "$(grown)" = "$after" ] \
  && pass reassign_out_of_range || fail reassign_out_of_range "exit $rc $(echo "$out" | tr '\n' '|')"
