# The sg engine on protection type 2: the TCMU-served virtual drive formatted to
# 512 + PI type 2, where the sg engine issues READ(32)/WRITE(32) (RDPROTECT/WRPROTECT 000b,
# EXPECTED INITIAL LOGICAL BLOCK REFERENCE TAG = the LBA). A verified random write, then a
# verified random read of the same range: 0 errors, 0 bad blocks. Then the drive's own PI
# check on the engine's READ(32): one block written with sg_raw WRITE(32) WRPROTECT=011b (the
# drive checks nothing on the way in) carrying a reference tag that is not its LBA; the
# engine's read of it must stop with ABORTED COMMAND, LOGICAL BLOCK REFERENCE TAG CHECK
# FAILED (0B/10/03) and that LBA in INFORMATION, exit 4 (SBC-4 READ(32), RDPROTECT 000b row:
# the device server checks without transferring the PI). Formatted back to 512 without PI.
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
export SGCTL_AUDIT_LOG=/tmp/audit-bench.jsonl
sg=$(tcmu_sg)
fmt() { sgctl format --block-size 512 --pi "$1" --fast --confirm TCMU0001 --poll-interval 1 "$sg" >/tmp/fmt.out 2>&1; }
if fmt 2 && sg_readcap -l "$sg" | grep -q "prot_en=1, p_type=1"; then
  pass format_pi2
  common="--engine sg --bs 4k --qd 8 --range 0:1m --bytes 256k --verify"
  sgctl --json bench run "$sg" $common --rw randwrite --confirm TCMU0001 </dev/null >/tmp/w.json 2>/tmp/b.err; rcw=$?
  sgctl --json bench run "$sg" $common --rw randread </dev/null >/tmp/r.json 2>/tmp/b2.err; rcr=$?
  w=$(jq -r '"\(.data.errors) \(.data.ios) \([.data.notes[] | select(test("READ/WRITE\\(32\\)"))] | length)"' /tmp/w.json)
  r=$(jq -r '"\(.data.errors) \(.data.verify.failures) \(.data.verify.blocks_checked)"' /tmp/r.json)
  set -- $r
  [ $rcw = 0 ] && [ "${w%% *}" = 0 ] && [ "${w##* }" = 1 ] && pass sg_pi2_randwrite_verify "errors/ios/notes32 $w" \
    || fail sg_pi2_randwrite_verify "exit $rcw ($w): $(tail -n 3 /tmp/b.err)"
  [ $rcr = 0 ] && [ "$1" = 0 ] && [ "$2" = 0 ] && [ "${3:-0}" -gt 0 ] && pass sg_pi2_randread_verify "errors/bad/checked $r" \
    || fail sg_pi2_randread_verify "exit $rcr ($r): $(tail -n 3 /tmp/b2.err)"
  line="tcmu_pi2_sg_engine randwrite_iops=$(jq -r '.data.iops | floor' /tmp/w.json) randread_iops=$(jq -r '.data.iops | floor' /tmp/r.json)"
  echo "BENCH $line"; vm_result "BENCH $line"
  # LBA 1000 (3E8h): 512 x A5h, guard 9EC6h (CRC-16/T10-DIF), application tag 0, reference tag
  # 3E9h. WRITE(32): 7F, ADDITIONAL CDB LENGTH 18h, SA 000Bh, WRPROTECT=011b, LBA, EILBRT,
  # expected application tag and mask, 1 block.
  head -c 512 /dev/zero | tr '\0' '\245' > /tmp/a5
  { cat /tmp/a5; printf '\236\306\000\000\000\000\003\351'; } > /tmp/badref
  out=$(sg_raw -s 520 -i /tmp/badref "$sg" 7f 00 00 00 00 00 00 18 00 0b 60 00 \
        00 00 00 00 00 00 03 e8 00 00 03 e9 00 00 00 00 00 00 00 01 2>&1); rc=$?
  [ $rc = 0 ] || fail sg_raw_write32_wrprotect3 "exit $rc: $out"
  out=$(sgctl --json bench run "$sg" --engine sg --rw read --bs 4k --qd 1 --range 512000:4k \
        --bytes 4k </dev/null 2>/tmp/b3.err); rc=$?
  k=$(echo "$out" | jq -r '.data.first_errors[0] | "\(.sense.key)/\(.sense.asc)/\(.sense.ascq) \(.info)"')
  [ $rc = 4 ] && [ "$k" = "11/16/3 1000" ] && pass sg_pi2_drive_checks_ref_tag "$k" \
    || fail sg_pi2_drive_checks_ref_tag "exit $rc first error '$k': $(tail -n 2 /tmp/b3.err)"
else
  fail format_pi2 "$(tail -n 3 /tmp/fmt.out) $(sg_readcap -l "$sg" 2>&1 | grep -i prot)"
fi
fmt 0 && sg_readcap -l "$sg" | grep -q "prot_en=0" && pass format_back_no_pi || fail format_back_no_pi "$(tail -n 3 /tmp/fmt.out)"
