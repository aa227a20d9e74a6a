#!/usr/bin/env bash
# The scheduler's two ways of running a QD1 loop on this machine, per tool
# (docs/benchmarks/qd1-modes.md).
#
# At queue depth 1 on the loop device the I/O goes job thread -> loop worker (kworker) ->
# softirq -> job thread. The scheduler runs that chain in one of two ways for hundreds of ms
# to seconds at a time: "still" (the job thread stays on one CPU, the worker and the softirq
# on the other; almost no task migrations) or "migrating" (the job thread follows the
# completions from one CPU to the other: thousands of migrations per 100 ms, the job thread
# often preempted by the worker it woke). The two run at different rates, and which one is
# faster depends on the machine's state. This script runs sgctl and fio (io_uring fixedbufs +
# registerfiles) alternately under `perf stat -a -I 100` counting block_rq_complete and
# sched_migrate_task, labels every 100 ms interval by its migrations, and prints per tool:
# the share of intervals in each mode and the median IOPS of each mode, and the context
# switches and wake-ups per I/O (with rq_affinity 1: five and three; the completion's softirq
# wakes ksoftirqd on the loop worker's CPU).
#
# usage: scripts/bench-qd1-modes.sh            (root; perf from Debian's linux-perf)
#   env: PAIRS=8 SECS=3 RW=randread SGCTL=target/release/sgctl TARGET=/dev/loopN
#        MIGRATING=500 (migrations per 100 ms above which an interval counts as migrating)
#        RQ_AFFINITY=keep|0|1|2 (the target's queue/rq_affinity for the runs, restored at exit;
#          2 completes on the submitting CPU: docs/bench-engine.md, "Completions on the
#          submitting CPU")
# Without TARGET a 1 GiB loop device over /dev/shm with direct I/O is set up and removed.
# Apart from RQ_AFFINITY it does not change autogroup or CPU idle settings: run it inside the
# conditions you want to look at (scripts/bench-engine.sh sets both for its own runs).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/bench-loop.sh
. scripts/bench-loop.sh
PAIRS=${PAIRS:-8}
SECS=${SECS:-3}
RW=${RW:-randread}
MIGRATING=${MIGRATING:-500}
SGCTL=${SGCTL:-target/release/sgctl}
[[ -x "$SGCTL" ]] || { echo "bench-qd1-modes: no sgctl at $SGCTL (cargo build --release)" >&2; exit 2; }
command -v perf >/dev/null || { echo "bench-qd1-modes: needs perf (apt-get install linux-perf)" >&2; exit 2; }
command -v fio >/dev/null || { echo "bench-qd1-modes: needs fio (apt-get install fio)" >&2; exit 2; }
OUT=$(mktemp -d)
cleanup() {
  rq_affinity_restore || true
  if [[ -n "${LOOP:-}" ]]; then losetup -d "$LOOP" || true; fi
  if [[ -n "${IMG:-}" ]]; then rm -f "$IMG"; fi
  rm -rf "$OUT"
}
trap cleanup EXIT
if [[ -z "${TARGET:-}" ]]; then
  bench_loop sgctl-qd1-modes 1G
  TARGET=$LOOP
fi
rq_affinity_set "$TARGET" "${RQ_AFFINITY:-keep}"
ms=$(to_ms "$SECS")
EV=block:block_rq_complete,sched:sched_migrate_task,sched:sched_switch,sched:sched_wakeup
echo "bench-qd1-modes: $RW QD1 j1 on $TARGET (queue/rq_affinity $RQA_STATE), $PAIRS pairs of ${SECS}s, order alternating; kernel $(uname -r), $(fio --version)"
for i in $(seq 1 "$PAIRS"); do
  if (( i % 2 )); then order="sgctl fio"; else order="fio sgctl"; fi
  for tool in $order; do
    if [[ $tool == sgctl ]]; then
      cmd=(setsid -w "$SGCTL" --json bench run "$TARGET" --engine uring --rw "$RW" --bs 4k --qd 1
           --runtime "$SECS" --confirm "$(basename "$TARGET")")
    else
      cmd=(fio --name=c --filename="$TARGET" --rw="$RW" --bs=4k --direct=1 --iodepth=1
           --ioengine=io_uring --fixedbufs --registerfiles --time_based --runtime="${ms}ms"
           --norandommap --randrepeat=0 --output-format=json)
    fi
    perf stat -a -I 100 -x, -e "$EV" -o "$OUT/$tool-$i.csv" -- "${cmd[@]}" >/dev/null 2>"$OUT/$tool-$i.err" \
      || { echo "bench-qd1-modes: $tool run $i failed:" >&2; tail -3 "$OUT/$tool-$i.err" >&2; exit 1; }
  done
done
python3 - "$OUT" "$PAIRS" "$MIGRATING" <<'EOF'
import collections, statistics as st, sys
out, pairs, lim = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

def intervals(path):
    """(IOPS, migrations) per 100 ms interval; the first and last (partial) left out."""
    rows = collections.defaultdict(dict)
    for line in open(path):
        p = line.strip().split(",")
        if len(p) < 4 or line.startswith("#"):
            continue
        try:
            rows[p[0]][p[3].split(":")[-1]] = int(p[1])
        except ValueError:
            pass
    ts = sorted(rows, key=float)[1:-1]
    return [(rows[t].get("block_rq_complete", 0) * 10, rows[t].get("sched_migrate_task", 0),
             rows[t].get("sched_switch", 0), rows[t].get("sched_wakeup", 0)) for t in ts
            if rows[t].get("block_rq_complete", 0) >= 1000]

def med(v):
    return f"{st.median(v) / 1e3:6.1f}k" if v else "     - "

allv = {"sgctl": ([], []), "fio": ([], [])}
per_io = {"sgctl": [0, 0, 0], "fio": [0, 0, 0]}  # completions, switches, wake-ups
print(f"{'pair':>4} {'tool':5} {'migrating':>9} {'IOPS':>7} {'still':>5} {'IOPS':>7} {'run':>7}")
for i in range(1, pairs + 1):
    for tool in ("sgctl", "fio"):
        iv = intervals(f"{out}/{tool}-{i}.csv")
        mig = [x for x, m, _, _ in iv if m > lim]
        still = [x for x, m, _, _ in iv if m <= lim]
        for x, _, sw, wk in iv:
            c = per_io[tool]
            c[0] += x / 10; c[1] += sw; c[2] += wk
        allv[tool][0].extend(mig)
        allv[tool][1].extend(still)
        print(f"{i:>4} {tool:5} {len(mig):>9} {med(mig)} {len(still):>5} {med(still)} {med(mig + still)}")
print()
print(f"migrating = more than {lim} task migrations in the 100 ms interval")
for tool, (mig, still) in allv.items():
    n = max(1, len(mig) + len(still))
    print(f"{tool:5}: migrating {100 * len(mig) / n:4.0f} % of intervals (median {med(mig).strip()}), "
          f"still {100 * len(still) / n:4.0f} % (median {med(still).strip()}), all {med(mig + still).strip()}; "
          f"per I/O {per_io[tool][1] / max(1, per_io[tool][0]):.2f} context switches, "
          f"{per_io[tool][2] / max(1, per_io[tool][0]):.2f} wake-ups")
EOF
