#!/usr/bin/env bash
# Benchmark (not a test): sgctl's engines against fio in the VM, where the kernel has a SCSI
# subsystem. One boot of the `engine-matrix` group (vm/groups/engine-matrix/10-matrix.sh) with a
# release sgctl: 4K randread and randwrite x QD 1/32/128 x jobs 1/2 on
#   sg    scsi_debug through /dev/sgN: sgctl --engine sg against fio ioengine=sg
#   sd    scsi_debug through /dev/sdX: sgctl --engine uring against fio io_uring (plain, and
#         fixedbufs registerfiles)
#   tcmu  the TCMU-served virtual drive through /dev/sgN: sgctl --engine sg against fio ioengine=sg
# REPS interleaved repetitions of SECS each; prints per cell the medians, the IOPS and CPU-per-I/O
# ratios (sgctl / the best, resp. cheapest, fio variant) and the latency of both.
# Under TCG emulation absolute numbers mean little; the ratios compare two tools in the same
# guest, interleaved.
#
# Usage: scripts/bench-engine-vm.sh
#   env: REPS=3 SECS=2 QDS=1,32,128 JOBS=1,2 RWS=randread,randwrite TARGETS=sg,sd,tcmu
#        SDEBUG=ndelay=100000 (scsi_debug options, comma-separated; the default answers 100 us
#          after the command from a high-resolution timer on the submitting CPU, an interrupt as
#          from an HBA. SDEBUG= gives scsi_debug's own default, delay=1: one jiffy, 4 ms at
#          HZ=250, so the QD1 cells run at the timer's pace for both tools, ~QD / 4 ms;
#          SDEBUG=delay=0 answers inside the submission. docs/bench-engine.md, "Completions on
#          the submitting CPU")
#        SD_BATCH=4,16 (the sd rows also run sgctl with --submit-batch N, reported against fio
#          and against sgctl's default)
#        SUMMARY=file (print the tables of an earlier run's matrix.tsv again)
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -z "${SUMMARY:-}" ]]; then
  cargo build --quiet --release --bin sgctl
  T="${CARGO_TARGET_DIR:-$PWD/target}/release"
  EM_REPS=${REPS:-3} EM_SECS=${SECS:-2} EM_QDS=${QDS:-1,32,128} EM_JOBS=${JOBS:-1,2} \
  EM_RWS=${RWS:-randread,randwrite} EM_TARGETS=${TARGETS:-sg,sd,tcmu} EM_SDEBUG=${SDEBUG-ndelay=100000} EM_SD_BATCH=${SD_BATCH:-} \
  VM_KEEP=1 VM_PROFILE=release VM_SGCTL="$T/sgctl" vm/run.sh engine-matrix
  SUMMARY=vm/out/engine-matrix/export/matrix.tsv
fi
python3 - "$SUMMARY" <<'EOF'
import os, sys, statistics
med = statistics.median
rows, head, notes, sgnotes = [], [], [], []
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    if line.startswith("engine-matrix:"):
        head.append(line); continue
    if line.startswith("# note: "):
        sgnotes.append(line[len("# note: "):]); continue
    if line.startswith("#"):
        notes.append(line); continue
    f = line.split()
    if len(f) < 15:
        continue
    tg, tool, rw, qd, jobs, rep, rc = f[:7]
    iops, ios, cpu, p50, p99, p999, mean = (float(x) for x in f[7:14])
    rows.append(dict(tg=tg, tool=tool, rw=rw, qd=int(qd), jobs=int(jobs), rep=int(rep),
                     ok=(rc == "0" and f[14] == "0" and ios > 0), iops=iops, err=f[14],
                     cpu_us=cpu / ios * 1e6 if ios > 0 else float("nan"),
                     p50=p50, p99=p99, p999=p999, mean=mean))
print("\n".join(head))
cells = []
for r in rows:
    k = (r["tg"], r["rw"], r["qd"], r["jobs"])
    if k not in cells:
        cells.append(k)
def mm(v, f="{:.0f}"):
    v = [x for x in v if x == x]
    if not v:
        return "n/a"
    return f"{f.format(med(v))} [{f.format(min(v))}-{f.format(max(v))}]"
print()
print("| target | cell | sgctl IOPS | best fio IOPS (variant) | IOPS ratio | sgctl CPU us/IO | cheapest fio CPU us/IO (variant) | CPU ratio | p50 us sgctl / fio | p99 us sgctl / fio |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
ok_i = ok_c = n = 0
ref16 = []
variants = []
paired_rows, p_n, p_ok = [], 0, 0
for k in cells:
    rs = [r for r in rows if (r["tg"], r["rw"], r["qd"], r["jobs"]) == k]
    tools = []
    for r in rs:
        if r["tool"] not in tools:
            tools.append(r["tool"])
    by = {t: [r for r in rs if r["tool"] == t] for t in tools}
    ours = [t for t in tools if t.startswith("sgctl")][0]
    alts = [t for t in tools if t.startswith("sgctl") and t != ours]
    fios = [t for t in tools if t.startswith("fio") and t != "fio_sg16"]
    good = {t: [r for r in by[t] if r["ok"]] for t in tools}
    m = {t: dict(iops=med([r["iops"] for r in good[t]]) if good[t] else 0.0,
                 cpu=med([r["cpu_us"] for r in good[t]]) if good[t] else float("inf")) for t in tools}
    bi = max(fios, key=lambda t: m[t]["iops"])
    bc = min(fios, key=lambda t: m[t]["cpu"])
    failed = {t: len(by[t]) - len(good[t]) for t in tools if len(by[t]) != len(good[t])}
    ri = m[ours]["iops"] / m[bi]["iops"] if m[bi]["iops"] > 0 else float("nan")
    rc = m[ours]["cpu"] / m[bc]["cpu"] if m[bc]["cpu"] not in (0, float("inf")) else float("nan")
    if "fio_sg16" in tools:
        g16 = good["fio_sg16"]
        i16 = med([r["iops"] for r in g16]) if g16 else 0.0
        ref16.append(f"| {k[0]} | {k[1]} QD{k[2]} j{k[3]} | {mm([r['iops'] for r in good[ours]])} | "
                     f"{mm([r['iops'] for r in g16])} | "
                     f"{m[ours]['iops'] / i16 if i16 else float('nan'):.2f} |")
    for t in alts:
        r_f = m[t]["iops"] / m[bi]["iops"] if m[bi]["iops"] > 0 else float("nan")
        r_o = m[t]["iops"] / m[ours]["iops"] if m[ours]["iops"] > 0 else float("nan")
        c_f = m[t]["cpu"] / m[bc]["cpu"] if m[bc]["cpu"] not in (0, float("inf")) else float("nan")
        c_o = m[t]["cpu"] / m[ours]["cpu"] if m[ours]["cpu"] not in (0, float("inf")) else float("nan")
        variants.append(f"| {k[0]} | {k[1]} QD{k[2]} j{k[3]} | {t} | {mm([r['iops'] for r in good[t]])} | "
                        f"{r_f:.2f} | {r_o:.2f} | {mm([r['cpu_us'] for r in good[t]], '{:.1f}')} | "
                        f"{c_f:.2f} | {c_o:.2f} |")
    # Paired: sgctl / each fio variant in the same repetition (both runs clean), the median
    # over the repetitions; the cell's figure is the lowest over the variants (see
    # scripts/bench-engine.sh: the machine's speed drifts, a repetition's runs share it).
    pr = []
    for t in fios:
        x = {r["rep"]: r["iops"] for r in good[t]}
        v = [r["iops"] / x[r["rep"]] for r in good[ours] if x.get(r["rep"])]
        if v:
            pr.append((med(v), t, sum(y >= 1 for y in v), len(v)))
    if pr:
        pm = min(pr)
        paired_rows.append(f"| {k[0]} | {k[1]} QD{k[2]} j{k[3]} | " +
                           "; ".join(f"{b} {a:.3f} ({c}/{d} ahead)" for a, b, c, d in pr) +
                           f" | {pm[0]:.3f} ({pm[1]}) |")
        p_n += 1
        p_ok += pm[0] >= 1.0
    if good[bi]:
        n += 1
        ok_i += ri >= 1.0
        ok_c += rc <= 1.0
    cell = f"{k[1]} QD{k[2]} j{k[3]}"
    def why(t):
        errs = sorted({r["err"] for r in by[t] if not r["ok"]})
        return "/".join(f"error {e} ({os.strerror(int(e))})" if e.isdigit() and t.startswith("fio")
                        else f"errors {e}" for e in errs)
    fail_note = "" if not failed else " (failed runs: " + ", ".join(
        f"{t} {c} of {len(by[t])}, {why(t)}" for t, c in failed.items()) + ")"
    print(f"| {k[0]} | {cell}{fail_note} | {mm([r['iops'] for r in good[ours]])} | "
          f"{mm([r['iops'] for r in good[bi]])} ({bi}) | {ri:.2f} | "
          f"{mm([r['cpu_us'] for r in good[ours]], '{:.1f}')} | {mm([r['cpu_us'] for r in good[bc]], '{:.1f}')} ({bc}) | {rc:.2f} | "
          f"{mm([r['p50'] for r in good[ours]], '{:.0f}')} / {mm([r['p50'] for r in good[bi]], '{:.0f}')} | "
          f"{mm([r['p99'] for r in good[ours]], '{:.0f}')} / {mm([r['p99'] for r in good[bi]], '{:.0f}')} |")
print()
print(f"cells where fio ran: {n}; sgctl IOPS >= the best fio variant in {ok_i}/{n}, "
      f"CPU per I/O <= the cheapest fio variant in {ok_c}/{n}")
if paired_rows:
    print(f"paired (sgctl / the fio variant in the same repetition, median over repetitions; the "
          f"lowest over the variants): IOPS >= every fio variant in {p_ok}/{p_n}")
    print()
    print("| target | cell | sgctl / each fio variant (median, repetitions ahead) | paired IOPS ratio |")
    print("|---|---|---|---:|")
    print("\n".join(paired_rows))
if variants:
    print("\nsgctl with other options (SD_BATCH) in the same cells, against the best fio variant and")
    print("against sgctl's default run above:")
    print()
    print("| target | cell | sgctl variant | IOPS | IOPS / best fio | IOPS / sgctl default | CPU us/IO | CPU / cheapest fio | CPU / sgctl default |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|")
    print("\n".join(variants))
if ref16:
    print("\nAbove QD16 on sg fio's job fails (the sg driver queues 16 commands per open file); for")
    print("reference, fio at iodepth 16, the most its sg engine keeps queued per job (not the same settings):")
    print()
    print("| target | cell | sgctl IOPS | fio iodepth=16 IOPS | ratio |")
    print("|---|---|---:|---:|---:|")
    print("\n".join(ref16))
if sgnotes:
    print("\nsgctl's notes on the device queue:")
    print("\n".join(sgnotes))
if notes:
    # "# engine-matrix: TARGET TOOL RW qdN jN repN: exit RC errors E: STDERR" -> one line per
    # (target, tool, exit, errors) with the cells it happened in
    groups = {}
    for line in notes:
        f = line.split()
        if len(f) < 12:
            continue
        key = (f[2], f[3], f[9], f[11].rstrip(":"))
        groups.setdefault(key, []).append(f"{f[4]} {f[5]} {f[6]}")
    print("\nruns that failed:")
    for (tg, tool, rc, err), where in groups.items():
        cells = sorted(set(where), key=where.index)
        print(f"- {tg} {tool}: exit {rc}, errors {err}, {len(where)} runs in {len(cells)} cells ({', '.join(cells)})")
EOF
