# The benchmark engine on the TCMU-served virtual drive (issue 12): the sg engine at 512, then
# formatted to 520-byte sectors (sd cannot attach it; fio refuses it) and to 512 + PI type 1,
# with --verify write/read runs; fio's ioengine=sg on the same node for comparison.
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
export SGCTL_AUDIT_LOG=/tmp/audit-bench.jsonl
secs=2
# 80-bench left the drive on a virtual clock; formats need the drive clock to move.
stop_serve
start_serve speed=5 >/dev/null || { fail restart "$(tail -n 5 /tmp/serve.err)"; exit 0; }
sg=$(tcmu_sg)
blen() { sg_readcap -l "$1" 2>/dev/null | sed -n 's/.*Logical block length=\([0-9]*\) bytes.*/\1/p'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

out=$(sgctl --json bench run "$sg" --rw randread --bs 4k --qd 16 --runtime $secs 2>/tmp/b.err); rc=$?
ours=$(echo "$out" | jq -r '.data.iops | floor')
[ $rc = 0 ] && [ "$(echo "$out" | jq -r .data.engine)" = sg ] && [ "${ours:-0}" -gt 0 ] \
  && pass sg_auto_512 || fail sg_auto_512 "exit $rc: $(tail -n 3 /tmp/b.err)"
theirs=$(fio --name=b --filename="$sg" --ioengine=sg --rw=randread --bs=4k --iodepth=16 \
  --runtime=$secs --time_based --size=256M --output-format=json 2>/dev/null | jq -r '.jobs[0].read.iops | floor')
line="tcmu_sg_engine_vs_fio_sg qd=16 sgctl_iops=$ours fio_iops=$theirs ratio=$(ratio "$ours" "$theirs")"
echo "BENCH $line"; vm_result "BENCH $line"

fmt() { sgctl format --block-size "$1" --pi "$2" --fast --confirm TCMU0001 --poll-interval 1 "$sg" >/tmp/fmt.out 2>&1; }
verify_run() { # name bs
  out=$(sgctl --json bench run "$sg" --rw randrw --mix 50 --bs "$2" --qd 8 --range "0:$(( $2 * 64 ))" \
        --runtime $secs --verify --confirm TCMU0001 2>/tmp/b.err); rc=$?
  r=$(echo "$out" | jq -r '"\(.data.block_len) \(.data.verify.failures) \(.data.verify.blocks_checked > 0) \(.data.errors)"')
}

if fmt 520 0 && [ "$(blen "$sg")" = 520 ]; then
  pass format_520
  verify_run v520 4160
  [ "$rc" = 0 ] && [ "$r" = "520 0 true 0" ] && pass sg_520_verify "$r" || fail sg_520_verify "exit $rc, $r: $(tail -n 3 /tmp/b.err)"
  out=$(sgctl --json bench run "$sg" --rw randread --bs 520 --qd 16 --runtime $secs 2>/tmp/b.err); rc=$?
  ours=$(echo "$out" | jq -r '.data.iops | floor')
  [ $rc = 0 ] && [ "${ours:-0}" -gt 0 ] && pass sg_520_randread "iops $ours" || fail sg_520_randread "exit $rc: $(tail -n 3 /tmp/b.err)"
  for bs in 520 4160; do
    fout=$(fio --name=b --filename="$sg" --ioengine=sg --rw=randread --bs=$bs --iodepth=4 \
           --runtime=1 --time_based --size=16M 2>&1); frc=$?
    fio_ios=$(echo "$fout" | sed -n 's/.*read: IOPS=\([0-9.k]*\).*/\1/p' | head -n1)
    msg=$(echo "$fout" | grep -i -m1 -E "error|align|invalid|not" | tr -s ' ')
    line="fio_sg_on_520 bs=$bs exit=$frc iops=${fio_ios:-none} message='$msg'"
    echo "BENCH $line"; vm_result "BENCH $line"
    if [ $bs = 520 ]; then
      { [ $frc != 0 ] || [ -z "$fio_ios" ]; } && pass fio_refuses_520 "$msg" || fail fio_refuses_520 "fio ran: $fout"
    fi
  done
else
  fail format_520 "$(tail -n 3 /tmp/fmt.out)"
fi

if fmt 512 1 && sg_readcap -l "$sg" | grep -q "prot_en=1, p_type=0"; then
  pass format_pi1
  verify_run vpi1 4096
  [ "$rc" = 0 ] && [ "$r" = "512 0 true 0" ] && pass sg_pi1_verify "$r" || fail sg_pi1_verify "exit $rc, $r: $(tail -n 3 /tmp/b.err)"
else
  fail format_pi1 "$(tail -n 3 /tmp/fmt.out)"
fi
fmt 512 0 && [ "$(blen "$sg")" = 512 ] && pass format_back_512 || fail format_back_512 "$(tail -n 3 /tmp/fmt.out)"
