# The engine matrix in one boot: 4K randread and randwrite x QD 1/32/128 x jobs 1/2 on
#   sg:   scsi_debug's /dev/sgN  -- sgctl --engine sg    vs fio ioengine=sg
#   sd:   scsi_debug's /dev/sdX  -- sgctl --engine uring vs fio io_uring (plain; fixedbufs registerfiles)
#   tcmu: the TCMU-served drive's /dev/sgN -- sgctl --engine sg vs fio ioengine=sg
# EM_REPS interleaved repetitions of EM_SECS each (rep 1 of every tool of a cell, then rep 2...;
# the tools' order rotates from one repetition to the next).
# One line per run goes to matrix.tsv (exported to the host, which prints medians and ratios):
#   target tool rw qd jobs rep rc iops ios cpu_s p50 p99 p99.9 mean (latency in us, queue to reap:
#   sgctl's completion latency, fio's `lat`). CPU seconds are the run's user + sys as the shell's
#   `times` counts its children, the same way for both tools.
# fio's sg engine keeps the default direct=0 (asynchronous write()/poll()/read(); 10-sg.sh in
# the engine group says why). It queues on one open file, and the sg driver takes at most 16
# commands per file (SG_MAX_QUEUE; the 17th write() fails with EDOM): above QD16 fio's job fails
# with error 33, so those cells also run `fio_sg16`, fio at iodepth 16 -- the most its sg engine
# can keep queued per job -- for reference (not a same-settings comparison). Benchmark only: a check fails only when sgctl did not run cleanly.
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
export SGCTL_AUDIT_LOG=/tmp/audit-matrix.jsonl
reps=${EM_REPS:-3} secs=${EM_SECS:-2}
qds=$(echo "${EM_QDS:-1,32,128}" | tr , ' ')
jobss=$(echo "${EM_JOBS:-1,2}" | tr , ' ')
rws=$(echo "${EM_RWS:-randread,randwrite}" | tr , ' ')
targets=$(echo "${EM_TARGETS:-sg,sd,tcmu}" | tr , ' ')
T=/tmp/matrix.tsv
rm -f /tmp/em-notes.txt
: > $T
sdbg_sg=$(lsscsi -g | awk '/scsi_debug/ {print $NF; exit}')
sdbg_sd=$(lsscsi | awk '/scsi_debug/ {print $NF; exit}')
sgctl --json scan > /tmp/em-scan.json
serial=$(jq -r --arg b "$sdbg_sd" '.data.drives[] | select(any(.paths[]; .block == $b)) | .serial' /tmp/em-scan.json)
tcmu=$(tcmu_sg)
q=/sys/block/${sdbg_sd#/dev/}
echo "engine-matrix: $(nproc) vCPUs, kernel $(uname -r), $(fio --version), sgctl $(sgctl --version)," \
  "scsi_debug $sdbg_sg/$sdbg_sd (serial $serial, options '${EM_SDEBUG:-defaults}'), TCMU $tcmu, $reps reps of ${secs}s" | tee /tmp/em-head.txt
# The sd queue's requests and hardware queues: the uring engine keeps jobs x qd with the kernel
# only while that fits in nr_requests on a single-queue device (its note says when it did not).
echo "engine-matrix: $sdbg_sd queue/nr_requests $(cat $q/queue/nr_requests 2>/dev/null || echo '?')," \
  "$(ls $q/mq 2>/dev/null | wc -l) hardware queue(s), scheduler '$(cat $q/queue/scheduler 2>/dev/null)'" | tee -a /tmp/em-head.txt

# cpu_s: the children's user + sys seconds so far (second line of `times`: "0m1.230s 0m0.450s").
# `times` runs in this shell (a command substitution's subshell has no children of its own).
cpu_s() { times > /tmp/em.times; sed -n 2p /tmp/em.times | awk '{ n = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); sub("s", "", a[2]); n += a[1] * 60 + a[2] } printf "%.3f", n }'; }

run() { # target tool rw qd jobs rep
  tg=$1 tool=$2 rw=$3 qd=$4 jobs=$5 rep=$6
  case $tg in sg) dev=$sdbg_sg conf=$serial ;; sd) dev=$sdbg_sd conf=$serial ;; tcmu) dev=$tcmu conf=TCMU0001 ;; esac
  rm -f /tmp/em.json
  cpu_s > /tmp/em.c0
  case $tool in
    sgctl_sg|sgctl_uring|sgctl_uring_b*)
      eng=${tool#sgctl_} batch=1
      case $eng in uring_b*) batch=${eng#uring_b} eng=uring ;; esac
      sgctl --json bench run "$dev" --engine "$eng" --rw "$rw" --bs 4k --qd "$qd" \
        --jobs "$jobs" --runtime "$secs" --range 64m --confirm "$conf" --submit-batch "$batch" \
        </dev/null >/tmp/em.json 2>/tmp/em.err; rc=$? ;;
    fio_*)
      depth=$qd
      case $tool in
        fio_sg) e="--ioengine=sg" ;;
        fio_sg16) e="--ioengine=sg" depth=16 ;;
        fio_uring) e="--ioengine=io_uring --direct=1" ;;
        fio_uring_fixed) e="--ioengine=io_uring --direct=1 --fixedbufs --registerfiles" ;;
      esac
      # fio reads a time without a unit as whole seconds ("1.5" is 1): given in ms.
      # shellcheck disable=SC2086
      fio --name=cell --filename="$dev" $e --rw="$rw" --bs=4k --iodepth="$depth" --numjobs="$jobs" \
        --group_reporting --time_based --runtime="$(awk -v s="$secs" 'BEGIN { printf "%d", s * 1000 + 0.5 }')ms" --size=64M --norandommap --randrepeat=0 \
        --lat_percentiles=1 --output-format=json --output=/tmp/em.json \
        >/dev/null 2>/tmp/em.err; rc=$? ;;
  esac
  cpu_s > /tmp/em.c1
  cpu=$(awk -v a="$(cat /tmp/em.c0)" -v b="$(cat /tmp/em.c1)" 'BEGIN { printf "%.3f", b - a }')
  case $tool in
    sgctl_*) v=$(jq -r '.data as $d | ($d.latency.percentiles | map({key: (.[0] | tostring), value: .[1]}) | from_entries) as $p
                 | [$d.iops, ($d.ios + $d.ramp_ios), $p["50"], $p["99"], $p["99.9"], $d.latency.mean_us, $d.errors] | map(tostring) | join(" ")' /tmp/em.json 2>/dev/null) ;;
    *) side=read; [ "$rw" = randwrite ] && side=write
       v=$(jq -r --arg s $side '.jobs[0][$s] as $x | $x.lat_ns.percentile as $p
                 | [$x.iops, $x.total_ios, $p["50.000000"] / 1000, $p["99.000000"] / 1000, $p["99.900000"] / 1000, $x.lat_ns.mean / 1000, .jobs[0].error]
                 | map(tostring) | join(" ")' /tmp/em.json 2>/dev/null) ;;
  esac
  [ -n "$v" ] || v="0 0 0 0 0 0 noresult"
  # sgctl's notes about the device queue (the cap), once per cell
  case $tool in
    sgctl_*) jq -r '.data.notes[]? | select(test("nr_requests"))' /tmp/em.json 2>/dev/null \
      | sed "s|^|$tg $rw qd$qd j$jobs: |" >> /tmp/em-notes.txt ;;
  esac
  set -- $v
  echo "$tg $tool $rw $qd $jobs $rep $rc $1 $2 $cpu $3 $4 $5 $6 $7" >> $T
  # the first failure of a tool in a target is shown (stderr tail), not judged for fio
  if [ "$rc" != 0 ] || [ "$7" != 0 ]; then
    echo "engine-matrix: $tg $tool $rw qd$qd j$jobs rep$rep: exit $rc errors $7: $(tail -n 3 /tmp/em.err | tr '\n' '|')" >> /tmp/em-problems.txt
  fi
}

# The order of the tools rotates with the repetition (rep 2 starts with the second tool ...),
# so none always runs in the same place of a repetition (scripts/bench-engine.sh does the same).
rotate() { # rep tool...
  k=$(( ($1 - 1) % ($# - 1) )); shift
  i=0 head="" tail=""
  for t in "$@"; do
    if [ "$i" -lt "$k" ]; then tail="$tail $t"; else head="$head $t"; fi
    i=$((i + 1))
  done
  echo $head $tail
}

for tg in $targets; do
  for rw in $rws; do
    for qd in $qds; do
      case $tg in
        sg|tcmu) tools="sgctl_sg fio_sg"; [ "$qd" -gt 16 ] && tools="$tools fio_sg16" ;;
        sd) tools="sgctl_uring fio_uring fio_uring_fixed"
            # EM_SD_BATCH=4,16: sgctl again with --submit-batch N (tool sgctl_uring_bN)
            for b in $(echo "${EM_SD_BATCH:-}" | tr , ' '); do tools="$tools sgctl_uring_b$b"; done ;;
      esac
      for jobs in $jobss; do
        for rep in $(seq 1 "$reps"); do
          for tool in $(rotate "$rep" $tools); do run "$tg" "$tool" "$rw" "$qd" "$jobs" "$rep"; done
        done
        echo "engine-matrix: $tg $rw QD$qd jobs$jobs done"
      done
    done
  done
done
[ -f /tmp/em-problems.txt ] && cat /tmp/em-problems.txt
cat /tmp/em-head.txt $T > /tmp/em-export.tsv
[ -f /tmp/em-problems.txt ] && sed 's/^/# /' /tmp/em-problems.txt >> /tmp/em-export.tsv
[ -s /tmp/em-notes.txt ] && sort -u /tmp/em-notes.txt | sed 's/^/# note: /' >> /tmp/em-export.tsv
[ -s /tmp/em-notes.txt ] || echo "# note: no sgctl run was capped by the device queue (nr_requests)" >> /tmp/em-export.tsv
vm_export matrix.tsv /tmp/em-export.tsv
for tg in $targets; do
  bad=$(awk -v t="$tg" '$1 == t && $2 ~ /^sgctl/ && ($7 != 0 || $8 <= 0 || $15 != 0)' $T | wc -l)
  n=$(awk -v t="$tg" '$1 == t && $2 ~ /^sgctl/' $T | wc -l)
  [ "$n" -gt 0 ] && [ "$bad" = 0 ] && pass "sgctl_runs_clean_$tg" "$n runs" \
    || fail "sgctl_runs_clean_$tg" "$bad of $n sgctl runs failed: $(grep " $tg sgctl" /tmp/em-problems.txt 2>/dev/null | head -n 2)"
done
