#!/usr/bin/env python3
"""Where a QD1 run's time goes on a loop device: scheduler events per 100 ms.

Usage (root, linux-perf installed):
  scripts/bench-qd1-trace.py NAME -- COMMAND...
e.g.
  scripts/bench-qd1-trace.py sgctl -- sgctl --json bench run /dev/loop0 --engine uring \\
      --rw randread --bs 4k --qd 1 --runtime 2 --confirm loop0
  scripts/bench-qd1-trace.py fio -- fio --name=c --filename=/dev/loop0 --rw=randread \\
      --bs=4k --direct=1 --iodepth=1 --time_based --runtime=2 --ioengine=io_uring

It records sched_switch, sched_wakeup and sched_migrate_task on every CPU while COMMAND runs
(`perf record -a`), takes the I/O thread to be the task whose name starts with NAME that was
switched out most often, and the loop device's worker to be the kworker it woke most often.
Per 100 ms it prints: how many times the I/O thread was woken; the share of the worker's
wakeups placed on the I/O thread's CPU; the share of the I/O thread's wakeups placed on the
waker's CPU; the mean delay from the I/O thread's wakeup to its running; how often it was
preempted (switched out runnable) and migrated. docs/benchmarks/qd1-modes.md describes
the two modes a run can be in.
"""
import collections, os, re, subprocess, sys, tempfile

def main():
    if "--" not in sys.argv or sys.argv.index("--") != 2:
        sys.exit(__doc__)
    name, cmd = sys.argv[1], sys.argv[3:]
    with tempfile.TemporaryDirectory() as d:
        data = os.path.join(d, "perf.data")
        subprocess.run(["perf", "record", "-q", "-a", "-e", "sched:sched_switch", "-e",
                        "sched:sched_wakeup", "-e", "sched:sched_migrate_task", "-o", data,
                        "--"] + cmd, stdout=subprocess.DEVNULL, check=False)
        text = subprocess.run(["perf", "script", "-i", data, "-F",
                               "comm,tid,cpu,time,event,trace"], capture_output=True,
                              text=True).stdout
    rx = re.compile(r"^\s*(.+?)\s+(\d+) \[(\d+)\]\s+([\d.]+):\s+sched:(\w+): (.*)$")
    ev = []
    for line in text.splitlines():
        m = rx.match(line)
        if m:
            comm, tid, cpu, t, e, rest = m.groups()
            ev.append((float(t), int(cpu), comm.strip(), int(tid), e, rest))
    outs = collections.Counter(tid for _, _, comm, tid, e, _ in ev
                               if e == "sched_switch" and comm.startswith(name))
    if not outs:
        sys.exit(f"no task named {name}* was switched out")
    io = outs.most_common(1)[0][0]
    woken = collections.Counter()
    for _, _, _, tid, e, rest in ev:
        if e == "sched_wakeup" and tid == io:
            m = re.search(r"comm=(\S+) pid=(\d+)", rest)
            woken[(m.group(1), int(m.group(2)))] += 1
    workers = [p for (c, p), _ in woken.most_common() if c.startswith("kworker")]
    if not workers:
        sys.exit("the I/O thread woke no kworker (not a loop device?)")
    kw = workers[0]
    print(f"I/O thread {io}; loop worker {kw}; it woke: {woken.most_common(3)}")
    t0, win = ev[0][0], 0.1
    w_ = collections.defaultdict(collections.Counter)
    pending = {}
    for t, cpu, _, tid, e, rest in ev:
        c = w_[int((t - t0) / win)]
        if e == "sched_wakeup":
            m = re.search(r"pid=(\d+) prio=\d+ target_cpu=(\d+)", rest)
            pid, target = int(m.group(1)), int(m.group(2))
            if pid == kw and tid == io:
                c["kw_wake"] += 1
                c["kw_local"] += target == cpu
            if pid == io:
                c["io_wake"] += 1
                c["io_on_waker"] += target == cpu
                pending[io] = t
        elif e == "sched_switch":
            nxt = int(re.search(r"next_pid=(\d+)", rest).group(1))
            if nxt == io and io in pending:
                c["delay_us"] += (t - pending.pop(io)) * 1e6
                c["runs"] += 1
            m = re.search(r"prev_pid=(\d+) prev_prio=\d+ prev_state=(\S+)", rest)
            if int(m.group(1)) == io and m.group(2).startswith("R"):
                c["preempted"] += 1
        elif e == "sched_migrate_task" and f"pid={io} " in rest:
            c["migrated"] += 1
    for k in sorted(w_):
        c = w_[k]
        print(f"{k * win:4.1f}s  I/O thread woken {c['io_wake']:5d}  worker on its CPU "
              f"{c['kw_local'] / max(c['kw_wake'], 1):4.2f}  it on the waker's CPU "
              f"{c['io_on_waker'] / max(c['io_wake'], 1):4.2f}  wake->run "
              f"{c['delay_us'] / max(c['runs'], 1):7.1f} us  preempted {c['preempted']:4d}  "
              f"migrated {c['migrated']}")

main()
