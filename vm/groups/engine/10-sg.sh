# The benchmark engine on scsi_debug, reads only: the sg engine against fio's
# ioengine=sg on the same /dev/sgN, the uring engine against fio's io_uring on the same
# /dev/sdX; 4K random read at QD 1 and 16, 2 s each. Reported as BENCH lines (IOPS ratios and
# clat percentiles of both tools); the checks only judge that each ran cleanly and that
# sgctl's percentiles are ordered (TCG emulation: absolute numbers mean nothing).
# This script: the sg engine (11-uring.sh: the uring engine).
. /vm/guest/lib.sh
secs=2
sg=$(lsscsi -g | awk '/scsi_debug/ {print $NF; exit}')
sd=$(lsscsi | awk '/scsi_debug/ {print $NF; exit}')
pcts() { jq -r '[.data.latency.percentiles[] | select(.[0]==50 or .[0]==99) | .[1]] | map(tostring) | join("/")'; }
# fio's sg engine on /dev/sgN is asynchronous (write() to queue, poll()+read() to reap, as
# sgctl's) only with direct=0 and sync=0: direct=1 switches it to one write()+read() at a time
# (engines/sg.c, "sync mode"). The sg driver never goes through a page cache either way.
fio_run() { # engine target qd [extra fio options]
  e=$1 t=$2 q=$3; shift 3
  fio --name=b --filename="$t" --ioengine="$e" --rw=randread --bs=4k --iodepth="$q" \
      --runtime=$secs --time_based --size=64M --norandommap --output-format=json \
      --output=/tmp/fio.json "$@" >/dev/null 2>/tmp/fio.err
  cat /tmp/fio.json
}
fio_iops() { jq -r '.jobs[0].read.iops | floor'; }
fio_pcts() { jq -r '.jobs[0].read.clat_ns.percentile | [.["50.000000"], .["99.000000"]] | map(. / 1000) | map(tostring) | join("/")'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
# A write workload through sg without --confirm is refused by the safety gate (exit 6).
sgctl bench run "$sg" --engine sg --rw randwrite --runtime 1 </dev/null >/dev/null 2>&1; rc=$?
[ $rc = 6 ] && pass sg_write_needs_confirm || fail sg_write_needs_confirm "exit $rc"
# --submit-batch is io_uring's: N > 1 is refused on sg (exit 7, saying why); 1 is what sg does.
sgctl bench run "$sg" --engine sg --rw randread --runtime 1 --submit-batch 8 >/dev/null 2>/tmp/b.err; rc=$?
[ $rc = 7 ] && grep -q "io_uring options" /tmp/b.err && pass sg_refuses_submit_batch \
  || fail sg_refuses_submit_batch "exit $rc: $(head -c 300 /tmp/b.err)"
out=$(sgctl --json bench run "$sg" --engine sg --rw randread --runtime 1 --submit-batch 1 --range 64m 2>/tmp/b.err); rc=$?
[ $rc = 0 ] && [ "$(echo "$out" | jq -r .data.workload.submit_batch)" = 1 ] && pass sg_submit_batch_1 \
  || fail sg_submit_batch_1 "exit $rc: $(head -c 300 /tmp/b.err)"
for qd in 1 16; do
  out=$(sgctl --json bench run "$sg" --engine sg --rw randread --bs 4k --qd $qd --runtime $secs --range 64m 2>/tmp/b.err); rc=$?
  ours=$(echo "$out" | jq -r '.data.iops | floor')
  errs=$(echo "$out" | jq -r '.data.errors')
  ordered=$(echo "$out" | jq -r '[.data.latency.percentiles[][1]] as $p | ($p == ($p | sort))')
  [ $rc = 0 ] && [ "${ours:-0}" -gt 0 ] && [ "$errs" = 0 ] && [ "$ordered" = true ] \
    && pass "sg_engine_qd$qd" || fail "sg_engine_qd$qd" "exit $rc iops $ours errors $errs: $(tail -n 2 /tmp/b.err)"
  f=$(fio_run sg "$sg" $qd)
  theirs=$(echo "$f" | fio_iops)
  line="sg_engine_vs_fio_sg qd=$qd sgctl_iops=$ours fio_iops=$theirs ratio=$(ratio "$ours" "$theirs") p50/p99_us sgctl=$(echo "$out" | pcts) fio=$(echo "$f" | fio_pcts)"
  echo "BENCH $line"; vm_result "BENCH $line"
  [ "${theirs:-0}" -gt 0 ] && pass "fio_sg_completes_ios_qd$qd" \
    || fail "fio_sg_completes_ios_qd$qd" "fio ioengine=sg: $(tr '\n' '|' </tmp/fio.err | head -c 300)"
done
# fio's sg engine with direct=1 fails at open (O_DIRECT on sg): 0 I/Os, recorded, not judged.
f=$(fio_run sg "$sg" 1 --direct=1)
line="fio_sg_direct1 ios=$(echo "$f" | jq -r '.jobs[0].read.total_ios // 0' 2>/dev/null) job_error=$(echo "$f" | jq -r '.jobs[0].error // "none"' 2>/dev/null) stderr='$(grep -v '^note:' /tmp/fio.err | head -n 3 | tr '\n' '|' | tr -s ' ')'"
echo "BENCH $line"; vm_result "BENCH $line"
