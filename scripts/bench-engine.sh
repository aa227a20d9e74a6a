#!/usr/bin/env bash
# sgctl's uring engine side by side with fio on the same target, in one run.
#
# Target: a loop device with direct I/O over a tmpfs file (this machine's kernel has io_uring
# and loop, no SCSI), or TARGET=/dev/X given by the caller (it is overwritten by the write
# cells: pass CONFIRM=<what sgctl bench run --confirm wants>).
# Cells: 4K randread and randwrite x QD 1/32/128 x jobs 1/2 (override with RWS, QDS, JOBS).
# Tools per cell: sgctl (engine uring), fio io_uring, fio io_uring fixedbufs+registerfiles,
# fio libaio. Repetitions are interleaved (rep 1 of every tool in a cell, then rep 2, ...; the
# tools' order rotates from one repetition to the next), each tool's figures are the medians
# over REPS. A "Paired" table also compares sgctl with each fio variant within each repetition
# (the median of the per-repetition ratios, with its confidence interval): this machine's
# speed drifts as a whole by up to ~30 % for seconds at a time, and runs a few seconds apart
# share the drift that two medians over different repetitions do not. CPU per I/O is
# measured the same way for both tools: user+sys of the process (bash `time`) over the I/Os
# it completed (ramp included for both). Ratios are sgctl / fio; the goal is IOPS >= 1.0 and CPU/IO <= 1.0.
# Loop and tmpfs do part of the work in kernel workers: relative numbers only.
#
# Latency: sgctl's completion latency runs from just before the I/O is queued to its reap,
# which is fio's `lat` (fio's `clat` starts after the submitting io_uring_enter returns, so it
# leaves out the submission syscall). The second table sets sgctl's p50/p99/p99.9/mean beside
# fio's lat (and clat) with the spread over the repetitions [min-max], and says whether
# sgctl's range overlaps fio's (fixedbufs+registerfiles, the variant set up like sgctl).
#
# Scheduling: fio runs each job in a process that calls setsid(), so with autogroup scheduling
# (/proc/sys/kernel/sched_autogroup_enabled = 1, Debian's default) each fio job gets a CPU
# share of its own, while sgctl's job threads (one process, one session) share one: at jobs=2
# fio had two shares to sgctl's one. By default (AUTOGROUP=off) the script therefore turns
# autogroup off for the measurement (root only; restored at exit, also on Ctrl-C, and said in
# the output), so every I/O thread of either tool is one task of the same scheduling group.
# AUTOGROUP=keep leaves it as it is (docs/bench-engine.md, "Scheduling"). sgctl is also started
# with `setsid -w`, as fio's jobs are (with autogroup on, that keeps it out of the caller's
# session and its builds).
#
# Idle CPUs: on a virtual machine whose idle vCPUs halt (cpuidle `haltpoll` with
# guest_halt_poll_ns=0, as on this workplace's machines), waking a halted vCPU took about
# 1.4 ms: at QD1 3-6 % of the I/Os waited that long for the CPU that was to run the loop
# worker or the reaping thread, and those stalls, not the tools, set the IOPS (10-19k for
# either tool; with the CPUs kept awake, 89-111k). By default (CPU_LATENCY=0) the script holds
# a CPU latency limit of 0 (/dev/cpu_dma_latency, the PM QoS request tuned's
# latency-performance profile makes) for the measurement, so idle CPUs poll instead of halting,
# for both tools alike; the request ends when the script exits. CPU_LATENCY=keep leaves idle as
# it is. Idle polling is not charged to either tool's CPU time.
#
# Completions: the loop device completes its requests in its worker (a kworker, process
# context); with the kernel's default queue/rq_affinity of 1 the block layer then raises the
# completion softirq on the worker's CPU, which wakes ksoftirqd there, and at QD1 the
# scheduler runs that chain in one of two placements whose speeds swap with the machine's state
# (docs/benchmarks/qd1-modes.md): a QD1 run's figure is then mostly which
# placement it fell into, for either tool. By default (RQ_AFFINITY=2) the script sets the
# target's queue/rq_affinity to 2 for the measurement ("complete on the CPU that submitted":
# the completion goes to the job's CPU by IPI; no ksoftirqd, one wake-up and one context
# switch fewer per I/O, almost no migrations, for both tools alike), says so, and restores
# the old value at exit. RQ_AFFINITY=keep leaves it; RQ_AFFINITY=1 (or 0) sets that instead.
# It costs both tools about half their IOPS at QD32/128 (every completion an IPI): for a
# device's top speed at high queue depths, RQ_AFFINITY=1.
#
# Conditions: every run records the 1-minute load average when it starts and the share of its
# wall time during which some task on the machine was waiting for a CPU
# (/proc/pressure/cpu "some"); the medians per tool are printed under the tables.
#
# Output: the per-tool tables, then "Paste-ready" tables for the note (per cell: sgctl and
# the best/cheapest fio variant with [min-max], the IOPS and CPU-per-I/O ratios, latency
# p50/p99/p99.9/mean against fio's lat), the conditions (load, CPU pressure, autogroup).
#
# Intervals: both tools also log IOPS per 100 ms (sgctl --log-interval, fio write_iops_log),
# and a third table gives, per cell, the median and the 90th percentile of those interval
# IOPS pooled over the repetitions. At QD1 with rq_affinity 1 a run is in one of two modes for
# long stretches (see Completions above, and docs/benchmarks/qd1-modes.md), so a median
# over a few runs says which mode the runs happened to land in; the interval p90 compares the
# tools within the fast mode.
#
# Before/after: SGCTL_BASE=binary adds a fifth tool, `sgctl_base` (an earlier build), run
# interleaved like the others and shown beside sgctl in the per-tool tables.
#
# Usage: scripts/bench-engine.sh [--quick]
#   env: REPS=5 RUNTIME=5 RAMP=0 OUT=dir AUTOGROUP=off|keep CPU_LATENCY=0|keep RQ_AFFINITY=2|1|0|keep SGCTL=binary SGCTL_BASE=binary TARGET=/dev/X
#        SUMMARY=dir (only print the tables of an earlier run's raw results again)
#        RWS="randread randwrite" QDS="1 32 128" JOBS="1 2"
#        TOOLS="sgctl fio_uring fio_uring_fixed fio_libaio" (a subset, e.g. "sgctl fio_uring_fixed",
#          for many repetitions of one comparison; sgctl and one fio variant at least)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/bench-loop.sh
. scripts/bench-loop.sh

REPS=${REPS:-5}
RUNTIME=${RUNTIME:-5}
RAMP=${RAMP:-0}
RWS=${RWS:-"randread randwrite"}
QDS=${QDS:-"1 32 128"}
JOBS=${JOBS:-"1 2"}
if [[ "${1:-}" == "--quick" ]]; then
  REPS=${REPS_QUICK:-3}; RUNTIME=${RUNTIME_QUICK:-2}
fi
TOOLS=${TOOLS:-"sgctl fio_uring fio_uring_fixed fio_libaio"}
if [[ -n "${SGCTL_BASE:-}" && " $TOOLS " != *" sgctl_base "* ]]; then TOOLS="$TOOLS sgctl_base"; fi
if [[ " $TOOLS " != *" sgctl "* || " $TOOLS " != *" fio"* ]]; then
  echo "bench-engine: TOOLS must name sgctl and at least one fio variant (got: $TOOLS)" >&2; exit 2
fi
if [[ -n "${SUMMARY:-}" ]]; then
  # SUMMARY=dir: print the tables again from an earlier run's raw results (same REPS, RWS,
  # QDS, JOBS as that run), without measuring anything.
  OUT=$SUMMARY
  AG_STATE=$(cat "$OUT/autogroup" 2>/dev/null || echo "not recorded")
  LAT_STATE=$(cat "$OUT/cpu_latency" 2>/dev/null || echo "not recorded")
  RQA_STATE=$(cat "$OUT/rq_affinity" 2>/dev/null || echo "not recorded")
  export AG_STATE LAT_STATE RQA_STATE
else
OUT=${OUT:-$(mktemp -d /tmp/bench-engine.XXXXXX)}
mkdir -p "$OUT"

if ! command -v fio >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq fio >/dev/null
fi
SGCTL=${SGCTL:-}
if [[ -z "$SGCTL" ]]; then
  cargo build --release -q --bin sgctl
  SGCTL=target/release/sgctl
fi

AG=/proc/sys/kernel/sched_autogroup_enabled
AUTOGROUP=${AUTOGROUP:-off}
cleanup() {
  if [[ -n "${AG_SAVED:-}" ]]; then
    echo "$AG_SAVED" >"$AG" && echo "bench-engine: sched_autogroup_enabled restored to $AG_SAVED" >&2
  fi
  rq_affinity_restore || true
  if [[ -n "${LOOP:-}" ]]; then losetup -d "$LOOP" || true; fi
  if [[ -n "${IMG:-}" ]]; then rm -f "$IMG"; fi
}
trap cleanup EXIT

if [[ -z "${TARGET:-}" ]]; then
  bench_loop sgctl-bench-engine "${SIZE:-1G}"
  TARGET=$LOOP
  CONFIRM=${CONFIRM:-$(basename "$LOOP")}
fi
echo "bench-engine: target $TARGET ($(cat /sys/block/"$(basename "$TARGET")"/loop/dio 2>/dev/null | sed 's/1/direct I\/O/;s/0/buffered/'), queue/nr_requests $(cat /sys/block/"$(basename "$TARGET")"/queue/nr_requests 2>/dev/null || echo '?')), fio $(fio --version), kernel $(uname -r), $(nproc) CPUs"
# Scheduling: with autogroup on, every session is its own scheduling group: fio's job
# processes (each calls setsid()) get one CPU share per job, sgctl's job threads (one process,
# one session) share one. AUTOGROUP=off (the default) turns autogroup off machine-wide for the
# measurement, so every I/O thread of both tools is one task of the same group, and restores
# it at exit; AUTOGROUP=keep leaves it as it is (the A/B of the note).
AG_STATE=$(cat "$AG" 2>/dev/null || echo absent)
if [[ "$AUTOGROUP" == off && "$AG_STATE" == 1 ]]; then
  if echo 0 >"$AG" 2>/dev/null; then
    AG_SAVED=1; AG_STATE="0 (turned off for the measurement, restored at exit)"
  else
    AG_STATE="1 (could not turn it off: not root?)"
  fi
fi
echo "bench-engine: sched_autogroup_enabled $AG_STATE"
echo "$AG_STATE" >"$OUT/autogroup"
export AG_STATE
# Idle CPUs (see the header): a PM QoS CPU latency limit of 0, held on fd 9 until exit.
IDLE="cpuidle $(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo none)/$(cat /sys/devices/system/cpu/cpuidle/current_governor 2>/dev/null || echo none)"
CPU_LATENCY=${CPU_LATENCY:-0}
if [[ "$CPU_LATENCY" == keep ]]; then
  LAT_STATE="not limited ($IDLE; CPU_LATENCY=keep)"
elif { exec 9>/dev/cpu_dma_latency; } 2>/dev/null && printf '\x00\x00\x00\x00' >&9; then
  LAT_STATE="limited to 0 us for the measurement ($IDLE: idle CPUs poll, they do not halt)"
else
  LAT_STATE="not limited (/dev/cpu_dma_latency not writable: not root?; $IDLE)"
fi
echo "bench-engine: CPU latency $LAT_STATE"
echo "$LAT_STATE" >"$OUT/cpu_latency"
export LAT_STATE
# Completions (see the header): the target's queue/rq_affinity, restored at exit.
rq_affinity_set "$TARGET" "${RQ_AFFINITY:-2}"
echo "bench-engine: queue/rq_affinity $RQA_STATE"
echo "$RQA_STATE" >"$OUT/rq_affinity"
export RQA_STATE
echo "bench-engine: $REPS interleaved repetitions, runtime ${RUNTIME}s, ramp ${RAMP}s; raw results in $OUT"
export SGCTL_AUDIT_LOG="$OUT/audit.jsonl"

TIMEFORMAT='%U %S'
run_one() { # tool rw qd jobs rep
  local tool=$1 rw=$2 qd=$3 jobs=$4 rep=$5
  local base="$OUT/$rw-qd$qd-j$jobs-$tool-$rep"
  # fio's times in ms (to_ms, scripts/bench-loop.sh: fio reads "0.5" as 0 seconds).
  local fio_common=(--name=cell --filename="$TARGET" --rw="$rw" --bs=4k --direct=1
    --iodepth="$qd" --numjobs="$jobs" --group_reporting --time_based --runtime="$(to_ms "$RUNTIME")ms"
    --ramp_time="$(to_ms "$RAMP")ms" --norandommap --randrepeat=0 --lat_percentiles=1 --output-format=json
    --write_iops_log="$base" --log_avg_msec=100)
  cut -d' ' -f1 /proc/loadavg >"$base.load"
  local psi0 t0
  psi0=$(psi_some); t0=$(date +%s%N)
  case $tool in
    sgctl|sgctl_base)
      local bin=$SGCTL; [[ $tool == sgctl_base ]] && bin=$SGCTL_BASE
      { time setsid -w "$bin" --json bench run "$TARGET" --engine uring --rw "$rw" --bs 4k --qd "$qd" \
          --jobs "$jobs" --runtime "$RUNTIME" --ramp "$RAMP" --log-interval 100ms \
          --confirm "${CONFIRM:-none}" >"$base.json" 2>"$base.err" ; } 2>"$base.time" ;;
    fio_uring)
      { time fio "${fio_common[@]}" --ioengine=io_uring >"$base.json" 2>"$base.err" ; } 2>"$base.time" ;;
    fio_uring_fixed)
      { time fio "${fio_common[@]}" --ioengine=io_uring --fixedbufs --registerfiles \
          >"$base.json" 2>"$base.err" ; } 2>"$base.time" ;;
    fio_libaio)
      { time fio "${fio_common[@]}" --ioengine=libaio >"$base.json" 2>"$base.err" ; } 2>"$base.time" ;;
  esac
  echo "$(( $(psi_some) - psi0 )) $(( ($(date +%s%N) - t0) / 1000 ))" >"$base.psi"
}
rotate() { # rep tool... : the tools starting at position (rep-1) mod count, wrapping around
  local k=$(( ($1 - 1) % ($# - 1) )); shift
  local a=("$@"); echo "${a[@]:k}" "${a[@]:0:k}"
}
psi_some() { # microseconds some task waited for a CPU, machine-wide (0 without PSI)
  sed -n 's/^some .*total=\([0-9]*\).*/\1/p' /proc/pressure/cpu 2>/dev/null || echo 0
}

for rw in $RWS; do
  for qd in $QDS; do
    for jobs in $JOBS; do
      for rep in $(seq 1 "$REPS"); do
        # The order rotates with the repetition (rep 1: sgctl first, rep 2: the second tool
        # first, ...), so no tool always runs in the same place of a repetition — right
        # after the same other tool, or first after a cell change.
        for tool in $(rotate "$rep" $TOOLS); do
          run_one "$tool" "$rw" "$qd" "$jobs" "$rep"
        done
      done
      echo "bench-engine: $rw QD$qd jobs$jobs done" >&2
    done
  done
done
fi

python3 - "$OUT" "$REPS" "$RWS" "$QDS" "$JOBS" "$TOOLS" <<'EOF'
import json, sys, statistics, os, glob
out, reps = sys.argv[1], int(sys.argv[2])
rws, qds, jobs, tools = (a.split() for a in sys.argv[3:7])

def load(tool, rw, qd, j, rep):
    base = f"{out}/{rw}-qd{qd}-j{j}-{tool}-{rep}"
    u, s = (float(x) for x in open(base + ".time").read().split()[-2:])
    d = json.load(open(base + ".json"))
    cond = dict(load=float(open(base + ".load").read().split()[0]))
    try:
        w, wall = (int(x) for x in open(base + ".psi").read().split())
        cond["psi"] = 100.0 * w / max(wall, 1)
    except (OSError, ValueError):
        cond["psi"] = float("nan")
    if tool.startswith("sgctl"):
        r = d["data"]
        ios = r["ios"] + r["ramp_ios"]
        pct = dict((round(p, 3), us) for p, us in r["latency"]["percentiles"])
        # Interval IOPS (the last interval may be short: left out).
        iv = [i["iops"] for i in r["intervals"]][:-1]
        return dict(iops=r["iops"], cpu_us=(u + s) / max(ios, 1) * 1e6,
                    p50=pct[50.0], p99=pct[99.0], p999=pct[99.9], mean=r["latency"]["mean_us"],
                    cp50=float("nan"), cmean=float("nan"), iv=iv, **cond)
    jb = d["jobs"][0]
    side = jb["read"] if rw.endswith("read") else jb["write"]
    # fio's io counts exclude the ramp; its CPU time includes it: count both ramp and run I/Os
    # the way sgctl does (total_ios covers the measured part; add the ramp at the same rate).
    ramp = float(os.environ.get("RAMP", "0"))
    runtime_s = side["runtime"] / 1000.0 if side["runtime"] else 1
    ios = side["total_ios"] * (1 + ramp / runtime_s)
    pl, pc = side["lat_ns"]["percentile"], side["clat_ns"]["percentile"]
    # fio's IOPS log: one file per job, one line per 100 ms (I/Os completed in it, scaled
    # to per second); the jobs' logs are summed per interval, the last one left out.
    per_t = {}
    for f in sorted(glob.glob(base + "_iops.*.log")):
        for line in open(f):
            p = line.split(",")
            if len(p) > 1:
                k = round(int(p[0]) / 100)
                per_t[k] = per_t.get(k, 0) + int(p[1])
    iv = [per_t[k] for k in sorted(per_t)][:-1]
    return dict(iops=side["iops"], cpu_us=(u + s) / max(ios, 1) * 1e6,
                p50=pl["50.000000"] / 1e3, p99=pl["99.000000"] / 1e3, p999=pl["99.900000"] / 1e3,
                mean=side["lat_ns"]["mean"] / 1e3, cp50=pc["50.000000"] / 1e3,
                cmean=side["clat_ns"]["mean"] / 1e3, iv=iv, **cond)

summary = []
med = statistics.median
cells = []
for rw in rws:
    for qd in qds:
        for j in jobs:
            m, runs_of = {}, {}
            for t in tools:
                runs = [load(t, rw, qd, j, r) for r in range(1, reps + 1)]
                runs_of[t] = runs
                m[t] = {k: med([x[k] for x in runs]) for k in runs[0] if k != "iv"}
                m[t]["iops_runs"] = [round(x["iops"]) for x in runs]
            cells.append((f"{rw} QD{qd} j{j}", m, runs_of))
            summary.append(dict(cell=f"{rw} QD{qd} j{j}", medians=m,
                                runs={t: runs_of[t] for t in tools}))

print()
print("| cell | tool | IOPS (median) | IOPS per rep | CPU us/IO | IOPS ratio | CPU ratio |")
print("|---|---|---:|---|---:|---:|---:|")
for cell, m, _ in cells:
    for t in tools:
        x = m[t]
        ri = m["sgctl"]["iops"] / x["iops"] if t != "sgctl" else None
        rc = m["sgctl"]["cpu_us"] / x["cpu_us"] if t != "sgctl" else None
        print(f"| {cell} | {t} | {x['iops']:.0f} | {' '.join(map(str, x['iops_runs']))} | "
              f"{x['cpu_us']:.2f} | {'' if ri is None else f'{ri:.2f}'} | "
              f"{'' if rc is None else f'{rc:.2f}'} |")

def rng(runs, k):
    v = [x[k] for x in runs]
    return min(v), med(v), max(v)

def fmt(runs, k):
    lo, mid, hi = rng(runs, k)
    return f"{mid:.1f} [{lo:.1f}-{hi:.1f}]"

ref = "fio_uring_fixed" if "fio_uring_fixed" in tools else [t for t in tools if t.startswith("fio")][0]
print()
print(f"Latency in us, median [min-max over {reps} reps]: sgctl (queue to reap) vs fio lat "
      f"(fio clat p50/mean for reference); 'overlap' = sgctl's range meets {ref}'s "
      f"(the ratio is sgctl's median over {ref}'s)")
print()
print("| cell | tool | p50 | p99 | p99.9 | mean | fio clat p50 | fio clat mean |")
print("|---|---|---:|---:|---:|---:|---:|---:|")
agree = {k: 0 for k in ("p50", "p99", "p999", "mean")}
for cell, m, runs_of in cells:
    for t in tools:
        r = runs_of[t]
        cl = "" if t.startswith("sgctl") else fmt(r, "cp50")
        cm = "" if t.startswith("sgctl") else fmt(r, "cmean")
        print(f"| {cell} | {t} | {fmt(r, 'p50')} | {fmt(r, 'p99')} | {fmt(r, 'p999')} | "
              f"{fmt(r, 'mean')} | {cl} | {cm} |")
    ov = []
    for k in agree:
        a, b = rng(runs_of["sgctl"], k), rng(runs_of[ref], k)
        hit = a[0] <= b[2] and b[0] <= a[2]
        agree[k] += hit
        ratio = a[1] / b[1] if b[1] else float("nan")
        ov.append(f"{k} {'yes' if hit else 'no'} ({ratio:.2f}x)")
    print(f"| {cell} | overlap | {' / '.join(ov)} | | | | | |")

# The note's tables, ready to paste: per cell sgctl against the best fio variant (IOPS: the
# highest fio median; CPU per I/O: the lowest), medians with [min-max] over the repetitions;
# latency against the reference fio variant's `lat`.
fios = [t for t in tools if t.startswith("fio")]
def mm(runs, k, f="{:.0f}"):
    lo, mid, hi = rng(runs, k)
    return f"{f.format(mid)} [{f.format(lo)}-{f.format(hi)}]"
print()
print(f"Paste-ready (medians [min-max] of {reps} interleaved reps; ratio = sgctl / best fio variant):")
print()
print("| cell | sgctl IOPS | best fio IOPS (variant) | IOPS ratio | sgctl CPU us/IO | cheapest fio CPU us/IO (variant) | CPU ratio |")
print("|---|---:|---:|---:|---:|---:|---:|")
for cell, m, runs_of in cells:
    bi = max(fios, key=lambda t: m[t]["iops"])
    bc = min(fios, key=lambda t: m[t]["cpu_us"])
    print(f"| {cell} | {mm(runs_of['sgctl'], 'iops')} | {mm(runs_of[bi], 'iops')} ({bi}) | "
          f"{m['sgctl']['iops'] / m[bi]['iops']:.2f} | {mm(runs_of['sgctl'], 'cpu_us', '{:.2f}')} | "
          f"{mm(runs_of[bc], 'cpu_us', '{:.2f}')} ({bc}) | {m['sgctl']['cpu_us'] / m[bc]['cpu_us']:.2f} |")
print()
print(f"| cell | p50 sgctl / {ref} lat | p99 | p99.9 | mean |")
print("|---|---:|---:|---:|---:|")
for cell, m, runs_of in cells:
    cols = [f"{mm(runs_of['sgctl'], k, '{:.1f}')} / {mm(runs_of[ref], k, '{:.1f}')}"
            for k in ("p50", "p99", "p999", "mean")]
    print(f"| {cell} | " + " | ".join(cols) + " |")

# Paired: the ratio of sgctl's IOPS to a fio variant's in the same repetition, a few seconds
# apart. This machine's speed drifts as a whole — at QD1 one and the same run went from ~97k
# to ~70k IOPS in mid-run with the same scheduling events per I/O in the guest
# (docs/bench-engine.md, "Side by side with fio") — and a repetition's runs share the
# state it is in (unless the state changes between them), so the ratio within a repetition
# mostly cancels the drift that a ratio of two medians taken over different repetitions
# keeps. Per cell: the median of the per-repetition ratios against each fio variant, its distribution-free confidence interval (order
# statistics of the ratios; coverage printed), and how many repetitions sgctl was ahead in.
# The cell's paired ratio is the lowest of those medians: sgctl against the variant it does
# worst against.
from math import comb
def median_ci(v):
    v, n = sorted(v), len(v)
    k = 0  # largest k with P(Binomial(n, 1/2) < k) <= 2.5 %, at least 1
    while k + 1 <= n // 2 and sum(comb(n, i) for i in range(k + 1)) / 2 ** n <= 0.025:
        k += 1
    k = max(k, 1)
    cover = 1 - 2 * sum(comb(n, i) for i in range(k)) / 2 ** n
    return v[k - 1], v[n - k], cover
def paired(runs_of, key, fio_t):
    return [a[key] / b[key] for a, b in zip(runs_of["sgctl"], runs_of[fio_t]) if b[key]]
print()
print(f"Paired (per repetition, sgctl / the fio variant in the same repetition): median ratio "
      f"[confidence interval of the median], repetitions with sgctl ahead; the cell's ratio is "
      f"the lowest median over the fio variants")
print()
print("| cell | " + " | ".join(f"IOPS vs {t}" for t in fios) + " | paired IOPS ratio | paired CPU ratio |")
print("|---|" + "---:|" * (len(fios) + 2))
paired_i, paired_c, cover = {}, {}, 1.0
for cell, m, runs_of in cells:
    cols, mi, mc = [], [], []
    for t in fios:
        r = paired(runs_of, "iops", t)
        lo, hi, cover = median_ci(r)
        ahead = sum(x >= 1 for x in r)
        cols.append(f"{med(r):.3f} [{lo:.2f}-{hi:.2f}] {ahead}/{len(r)}")
        mi.append((med(r), t))
        mc.append((med(paired(runs_of, "cpu_us", t)), t))
    paired_i[cell], paired_c[cell] = min(mi), max(mc)
    print(f"| {cell} | " + " | ".join(cols) + f" | {paired_i[cell][0]:.3f} ({paired_i[cell][1]}) | "
          f"{paired_c[cell][0]:.3f} ({paired_c[cell][1]}) |")
print(f"\n(confidence intervals: order statistics of {reps} ratios, coverage {100 * cover:.1f} %)")

def q(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(p * len(v)))] if v else float("nan")
print()
print(f"Interval IOPS (100 ms intervals pooled over {reps} reps): median / p90; "
      f"ratio = sgctl / the best fio variant by the same statistic")
print()
hdr = " | ".join(f"{t} med / p90" for t in tools)
print(f"| cell | {hdr} | ratio med | ratio p90 |")
print("|---|" + "---:|" * (len(tools) + 2))
for cell, m, runs_of in cells:
    pooled = {t: [x for r in runs_of[t] for x in r["iv"]] for t in tools}
    st = {t: (q(pooled[t], .5), q(pooled[t], .9)) for t in tools}
    bm = max(st[t][0] for t in fios); b9 = max(st[t][1] for t in fios)
    cols = " | ".join(f"{st[t][0]:.0f} / {st[t][1]:.0f}" for t in tools)
    print(f"| {cell} | {cols} | {st['sgctl'][0] / bm:.2f} | {st['sgctl'][1] / b9:.2f} |")
for r in summary:
    for t in r["runs"]:
        for x in r["runs"][t]:
            x.pop("iv", None)
json.dump(summary, open(f"{out}/summary.json", "w"), indent=1)
worst_i = min(m["sgctl"]["iops"] / max(m[t]["iops"] for t in tools if t.startswith("fio")) for _, m, _ in cells)
worst_c = max(m["sgctl"]["cpu_us"] / min(m[t]["cpu_us"] for t in tools if t.startswith("fio")) for _, m, _ in cells)
ok_i = sum(m["sgctl"]["iops"] >= max(m[t]["iops"] for t in tools if t.startswith("fio")) for _, m, _ in cells)
ok_c = sum(m["sgctl"]["cpu_us"] <= min(m[t]["cpu_us"] for t in tools if t.startswith("fio")) for _, m, _ in cells)
n = len(cells)
print(f"\ncells with IOPS >= the best fio variant: {ok_i}/{n} (worst ratio {worst_i:.2f}); "
      f"CPU/IO <= the cheapest fio variant: {ok_c}/{n} (worst ratio {worst_c:.2f})")
pi = [v[0] for v in paired_i.values()]; pc = [v[0] for v in paired_c.values()]
print(f"paired (same repetition): cells with IOPS >= every fio variant: {sum(x >= 1 for x in pi)}/{n} "
      f"(worst {min(pi):.3f}); CPU/IO <= every fio variant: {sum(x <= 1 for x in pc)}/{n} "
      f"(worst {max(pc):.3f})")
print("latency ranges overlapping " + ref + ": " +
      ", ".join(f"{k} {v}/{n}" for k, v in agree.items()))
for t in tools:
    allr = [x for _, _, ro in cells for x in ro[t]]
    print(f"conditions during {t} runs: load average median {med([x['load'] for x in allr]):.2f}, "
          f"CPU pressure (some) median {med([x['psi'] for x in allr]):.0f} % of wall time")
print(f"scheduling: sched_autogroup_enabled {os.environ.get('AG_STATE', '?')}; sgctl started with setsid -w")
print(f"idle CPUs: CPU latency {os.environ.get('LAT_STATE', '?')}")
print(f"completions: target's queue/rq_affinity {os.environ.get('RQA_STATE', '?')}")
print(f"medians of {reps} interleaved runs; {out}/summary.json")
EOF
