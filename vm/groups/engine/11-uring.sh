# The benchmark engine on scsi_debug, reads only: the sg engine against fio's
# ioengine=sg on the same /dev/sgN, the uring engine against fio's io_uring on the same
# /dev/sdX; 4K random read at QD 1 and 16, 2 s each. Reported as BENCH lines (IOPS ratios and
# clat percentiles of both tools); the checks only judge that each ran cleanly and that
# sgctl's percentiles are ordered (TCG emulation: absolute numbers mean nothing).
# This script: the uring engine (10-sg.sh: the sg engine).
. /vm/guest/lib.sh
secs=2
sg=$(lsscsi -g | awk '/scsi_debug/ {print $NF; exit}')
sd=$(lsscsi | awk '/scsi_debug/ {print $NF; exit}')
pcts() { jq -r '[.data.latency.percentiles[] | select(.[0]==50 or .[0]==99) | .[1]] | map(tostring) | join("/")'; }
fio_run() { # engine target qd
  fio --name=b --filename="$2" --ioengine="$1" --rw=randread --bs=4k --iodepth="$3" --direct=1 \
      --runtime=$secs --time_based --size=64M --norandommap --output-format=json \
      --output=/tmp/fio.json >/dev/null 2>/tmp/fio.err
  cat /tmp/fio.json
}
fio_iops() { jq -r '.jobs[0].read.iops | floor'; }
fio_pcts() { jq -r '.jobs[0].read.clat_ns.percentile | [.["50.000000"], .["99.000000"]] | map(. / 1000) | map(tostring) | join("/")'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
for qd in 1 16; do
  out=$(sgctl --json bench run "$sd" --engine uring --rw randread --bs 4k --qd $qd --runtime $secs --range 64m 2>/tmp/b.err); rc=$?
  ours=$(echo "$out" | jq -r '.data.iops | floor')
  [ $rc = 0 ] && [ "${ours:-0}" -gt 0 ] && pass "uring_engine_qd$qd" || fail "uring_engine_qd$qd" "exit $rc: $(tail -n 2 /tmp/b.err)"
  f=$(fio_run io_uring "$sd" $qd)
  theirs=$(echo "$f" | fio_iops)
  line="uring_engine_vs_fio_io_uring qd=$qd sgctl_iops=$ours fio_iops=$theirs ratio=$(ratio "$ours" "$theirs") p50/p99_us sgctl=$(echo "$out" | pcts) fio=$(echo "$f" | fio_pcts)"
  echo "BENCH $line"; vm_result "BENCH $line"
done
