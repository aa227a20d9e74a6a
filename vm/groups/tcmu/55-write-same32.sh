# WRITE SAME(32) (SBC-4 5.52) on a PI type 2 format through TCMU, with sg_write_same --32
# (sg3_utils builds the CDB: flags in byte 10, EXPECTED INITIAL LOGICAL BLOCK REFERENCE TAG and
# the application tag fields left 0) and READ(32) by sg_raw from the SBC-4 table.
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
sg=$(tcmu_sg)
sg_turs "$sg" >/dev/null 2>&1; sg_turs "$sg" >/dev/null 2>&1
out=$(sg_format --format --fmtpinfo=3 --pfu=0 --ffmt=1 --quick "$sg" 2>&1); rc=$?
if [ $rc != 0 ] || ! sg_readcap -l "$sg" | grep -qi "p_type=1"; then
  fail ws32_format_type2 "exit $rc $(echo "$out" | tail -n 3)"; exit 0
fi
# One block of 3Ch + PI: guard CRC-16/T10-DIF of 512 x 3Ch = 97E0h (the algorithm gives D0DBh
# for "123456789", the catalogue's check value), application tag 1234h, reference tag 0 (the
# CDB's expected initial one: sg_write_same leaves it 0).
head -c 512 /dev/zero | tr '\0' '\074' > /tmp/b3c
pi() { cat /tmp/b3c; printf "\227\340\022\064\000\000\000\\$(printf %03o "$1")"; }
pi 0 > /tmp/ws32
out=$(sg_write_same --32 --wrprotect=1 --in=/tmp/ws32 --xferlen=520 --lba=200 --num=3 "$sg" 2>&1); rc=$?
# READ(32) RDPROTECT=001b, LBA 200, EILBRT 0, application tag 1234h (mask FFFFh), 3 blocks:
# type 2 reference tags 0, 1, 2 follow from the block sent.
r32="7f 00 00 00 00 00 00 18 00 09 20 00 00 00 00 00 00 00 00 c8 00 00 00 00 12 34 ff ff 00 00 00 03"
r=$(sg_raw -r 1560 -o /tmp/rd "$sg" $r32 2>&1); rcr=$?
{ pi 0; pi 1; pi 2; } > /tmp/want
[ $rc = 0 ] && [ $rcr = 0 ] && cmp -s /tmp/rd /tmp/want && pass write_same32_pi_tags \
  || fail write_same32_pi_tags "write exit $rc $out; read exit $rcr $r"
# A block whose reference tag is not the expected initial one: ABORTED COMMAND, 10/03 (-v: the
# sense decoded; without it sg_write_same names only the category, "protection error").
pi 5 > /tmp/ws32bad
out=$(sg_write_same -v --32 --wrprotect=1 --in=/tmp/ws32bad --xferlen=520 --lba=200 --num=1 "$sg" 2>&1)
echo "$out" | grep -qi "reference tag check failed" && pass write_same32_ref_tag_10_03 \
  || fail write_same32_ref_tag_10_03 "$out"
# UNMAP=1 (zeros, no PI): LBA 201 deallocated.
out=$(sg_write_same --32 --unmap --lba=201 --num=1 "$sg" 2>&1); rc=$?
gl=$(sg_get_lba_status --lba=201 --maxlen=64 "$sg" 2>&1)
[ $rc = 0 ] && echo "$gl" | grep -i "c9" | grep -qi "deallocated" && pass write_same32_unmap \
  || fail write_same32_unmap "exit $rc $out $(echo "$gl" | tr '\n' '|')"
out=$(sg_format --format --fmtpinfo=0 --ffmt=1 --quick "$sg" 2>&1); rc=$?
[ $rc = 0 ] && sg_readcap -l "$sg" | grep -qi "prot_en=0" && pass ws32_format_back || fail ws32_format_back "exit $rc $out"
for s in $(lsscsi | awk '/PX02SMF080/ {print $NF}'); do echo 1 > "/sys/block/$(basename "$s")/device/rescan"; done
