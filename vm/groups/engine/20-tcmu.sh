# The benchmark engine on the TCMU-served virtual drive: the sg engine at 512, then
# formatted to 520-byte sectors (sd cannot attach it; fio refuses it) and to 512 + PI type 1,
# with --verify write/read runs; fio's ioengine=sg on the same node for comparison.
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
export SGCTL_AUDIT_LOG=/tmp/audit-bench.jsonl
secs=2
sg=$(tcmu_sg)
blen() { sg_readcap -l "$1" 2>/dev/null | sed -n 's/.*Logical block length=\([0-9]*\) bytes.*/\1/p'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

out=$(sgctl --json bench run "$sg" --rw randread --bs 4k --qd 16 --runtime $secs 2>/tmp/b.err); rc=$?
ours=$(echo "$out" | jq -r '.data.iops | floor')
[ $rc = 0 ] && [ "$(echo "$out" | jq -r .data.engine)" = sg ] && [ "${ours:-0}" -gt 0 ] \
  && pass sg_auto_512 || fail sg_auto_512 "exit $rc: $(tail -n 3 /tmp/b.err)"
fio --name=b --filename="$sg" --ioengine=sg --rw=randread --bs=4k --iodepth=16 \
  --runtime=$secs --time_based --size=256M --output-format=json --output=/tmp/fio.json >/dev/null 2>&1
theirs=$(jq -r '.jobs[0].read.iops | floor' /tmp/fio.json)
line="tcmu_sg_engine_vs_fio_sg qd=16 sgctl_iops=$ours fio_iops=$theirs ratio=$(ratio "$ours" "$theirs")"
echo "BENCH $line"; vm_result "BENCH $line"

fmt() { sgctl format --block-size "$1" --pi "$2" --fast --confirm TCMU0001 --poll-interval 1 "$sg" >/tmp/fmt.out 2>&1; }
verify_run() { # name bs: a verified sequential write of 64 I/Os, then a verified read of them
  n=$(( $2 * 64 )); r=""
  sgctl --json bench run "$sg" --rw write --bs "$2" --qd 8 --range "0:$n" --bytes "$n" \
        --verify --confirm TCMU0001 </dev/null >/tmp/vw.json 2>/tmp/b.err; rc=$?
  [ $rc = 0 ] || return
  sgctl --json bench run "$sg" --rw read --bs "$2" --qd 8 --range "0:$n" --bytes "$n" \
        --verify </dev/null >/tmp/vr.json 2>/tmp/b.err; rc=$?
  r=$(jq -r '"\(.data.block_len) \(.data.verify.failures) \(.data.verify.blocks_checked) \(.data.errors)"' /tmp/vr.json)
}

if fmt 520 0 && [ "$(blen "$sg")" = 520 ]; then
  pass format_520
  verify_run v520 4160
  [ "$rc" = 0 ] && [ "$r" = "520 0 512 0" ] && pass sg_520_verify "$r" || fail sg_520_verify "exit $rc, $r: $(tail -n 3 /tmp/b.err)"
  out=$(sgctl --json bench run "$sg" --rw randread --bs 520 --qd 16 --runtime $secs </dev/null 2>/tmp/b.err); rc=$?
  ours=$(echo "$out" | jq -r '.data.iops | floor')
  [ $rc = 0 ] && [ "${ours:-0}" -gt 0 ] && pass sg_520_randread "iops $ours" || fail sg_520_randread "exit $rc: $(tail -n 3 /tmp/b.err)"
  for bs in 520 4160; do
    rm -f /tmp/fio.json
    fio --name=b --filename="$sg" --ioengine=sg --rw=randread --bs=$bs --iodepth=4 \
        --runtime=1 --time_based --size=16M --output-format=json --output=/tmp/fio.json \
        >/dev/null 2>/tmp/fio.err; frc=$?
    fio_ios=$(jq -r '.jobs[0].read.total_ios // 0' /tmp/fio.json 2>/dev/null || echo 0)
    fio_err=$(jq -r '.jobs[0].error // "none"' /tmp/fio.json 2>/dev/null || echo none)
    msg=$(grep -v "^note:" /tmp/fio.err | head -n 2 | tr '\n' '|' | tr -s ' ')
    line="fio_sg_on_520 bs=$bs exit=$frc ios=${fio_ios:-0} job_error=$fio_err stderr='$msg'"
    echo "BENCH $line"; vm_result "BENCH $line"
    if [ $bs = 520 ]; then
      { [ $frc != 0 ] || [ "${fio_ios:-0}" = 0 ]; } && pass fio_refuses_520 "exit $frc ios ${fio_ios:-0}: $msg" \
        || fail fio_refuses_520 "fio completed ${fio_ios} I/Os at bs=520 on the 520-byte disk"
    fi
  done
else
  fail format_520 "$(tail -n 3 /tmp/fmt.out)"
fi

if fmt 512 1 && sg_readcap -l "$sg" | grep -q "prot_en=1, p_type=0"; then
  pass format_pi1
  verify_run vpi1 4096
  [ "$rc" = 0 ] && [ "$r" = "512 0 512 0" ] && pass sg_pi1_verify "$r" || fail sg_pi1_verify "exit $rc, $r: $(tail -n 3 /tmp/b.err)"
else
  fail format_pi1 "$(tail -n 3 /tmp/fmt.out)"
fi
fmt 512 0 && [ "$(blen "$sg")" = 512 ] && pass format_back_512 || fail format_back_512 "$(tail -n 3 /tmp/fmt.out)"
