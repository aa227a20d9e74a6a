//! Statistics of a run: per-I/O completion latency (submit to reap) in an HDR histogram
//! (log-linear, 3 significant digits: ≤ 0.1 % relative error from 1 ns to an hour, so well
//! inside the ≤ 1 % from 100 ns to 60 s the issue asks for), percentiles, mean and standard
//! deviation, a time series per interval and CPU time per I/O; and the fits over a series the
//! steady-state check and the report's charts share (`least_squares`, [`moving_average`]).
//!
//! Each job records into its own [`Recorder`] on its own clock in nanoseconds since the start
//! of the run (wall time for real engines, virtual time for the simulator); the recorders are
//! merged at the end and per interval.

use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

/// Highest latency recorded exactly (larger values are clamped and counted): one hour.
pub(crate) const MAX_LAT_NS: u64 = 3_600_000_000_000;
/// Significant digits of the histogram.
pub(crate) const SIGFIG: u8 = 3;

/// Percentiles reported (fio's default list plus 99.999, the "5 9s" of PTS 2.0).
pub(crate) const PERCENTILES: &[f64] = &[
    1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.95,
    99.99, 99.999,
];

/// A new latency histogram (ns).
pub(crate) fn new_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, MAX_LAT_NS, SIGFIG).expect("valid histogram bounds")
}

/// One point of the time series.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// End of the interval, seconds since measurement began (after the ramp). The last
    /// interval of a run that stopped between two interval ends ends where the run did.
    pub t_s: f64,
    /// I/Os per second over the time the interval covered (the whole interval, or the part of
    /// the last one the run reached; a last part under half an interval is not a point).
    pub iops: f64,
    /// MB/s (10^6 bytes per second).
    pub mbps: f64,
    /// Mean completion latency, µs.
    pub mean_lat_us: f64,
    /// 99th percentile, µs.
    pub p99_lat_us: f64,
    /// Largest, µs.
    pub max_lat_us: f64,
    /// Read I/Os per second.
    pub read_iops: f64,
    /// Write I/Os per second.
    pub write_iops: f64,
    /// Errors in the interval.
    pub errors: u64,
}

/// Latency figures.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LatencySummary {
    /// Mean, µs.
    pub mean_us: f64,
    /// Standard deviation, µs.
    pub stdev_us: f64,
    /// Smallest, µs.
    pub min_us: f64,
    /// Largest, µs.
    pub max_us: f64,
    /// `(percent, µs)` for each of `PERCENTILES`.
    pub percentiles: Vec<(f64, f64)>,
}

impl LatencySummary {
    /// Summary of a histogram (ns values).
    pub fn of(h: &Histogram<u64>) -> LatencySummary {
        if h.is_empty() {
            return LatencySummary::default();
        }
        LatencySummary {
            mean_us: h.mean() / 1e3,
            stdev_us: h.stdev() / 1e3,
            min_us: h.min() as f64 / 1e3,
            max_us: h.max() as f64 / 1e3,
            percentiles: PERCENTILES
                .iter()
                .map(|&p| (p, h.value_at_quantile(p / 100.0) as f64 / 1e3))
                .collect(),
        }
    }

    /// The value at percentile `p` if it was reported.
    pub fn percentile(&self, p: f64) -> Option<f64> {
        self.percentiles
            .iter()
            .find(|x| (x.0 - p).abs() < 1e-9)
            .map(|x| x.1)
    }
}

/// Figures of one direction.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DirStats {
    /// I/Os completed.
    pub ios: u64,
    /// Bytes transferred.
    pub bytes: u64,
    /// I/Os per second.
    pub iops: f64,
    /// MB/s.
    pub mbps: f64,
    /// Completion latency.
    pub latency: LatencySummary,
}

/// One failed I/O, decoded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IoErrorRecord {
    /// Seconds since the start of the measurement (negative: during the ramp).
    pub t_s: f64,
    /// `read` or `write`.
    pub op: String,
    /// Byte offset.
    pub offset: u64,
    /// LBA (in the device's logical blocks).
    pub lba: u64,
    /// Length in bytes.
    pub len: u32,
    /// One line: errno, host status or decoded sense.
    pub error: String,
    /// Sense key, ASC and ASCQ when the device returned sense data.
    pub sense: Option<SenseCode>,
    /// INFORMATION field of the sense (the failing LBA) when present.
    pub info: Option<u64>,
}

/// Sense key / ASC / ASCQ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SenseCode {
    /// Sense key.
    pub key: u8,
    /// Additional sense code.
    pub asc: u8,
    /// Qualifier.
    pub ascq: u8,
}

/// Error counts by kind (key `sense 03/11/00`, `errno EIO`, `host DID_NO_CONNECT`, ...).
pub type ErrorCounts = std::collections::BTreeMap<String, u64>;

/// One block that failed `--verify`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerifyFailure {
    /// LBA of the block.
    pub lba: u64,
    /// What was wrong (bad checksum, wrong LBA in the header, stale sequence number...).
    pub reason: String,
}

/// `--verify` results.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerifyStats {
    /// Blocks whose header and checksum were checked.
    pub blocks_checked: u64,
    /// Blocks read that this run had not written and that carried no header (not checked).
    pub blocks_unwritten: u64,
    /// Blocks that failed.
    pub failures: u64,
    /// The first failures.
    pub first_failures: Vec<VerifyFailure>,
}

/// Everything a run measured.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    /// Engine that ran (`uring`, `sg`, `sim`).
    pub engine: String,
    /// Device address.
    pub device: String,
    /// Logical block length of the device.
    pub block_len: u32,
    /// I/Os completed in the measurement window.
    pub ios: u64,
    /// Bytes transferred in the window.
    pub bytes: u64,
    /// Length of the window, s (virtual seconds for the simulator).
    pub elapsed_s: f64,
    /// I/Os per second.
    pub iops: f64,
    /// MB/s (10^6 bytes per second).
    pub mbps: f64,
    /// Reads.
    pub read: Option<DirStats>,
    /// Writes.
    pub write: Option<DirStats>,
    /// Completion latency of all I/Os.
    pub latency: LatencySummary,
    /// The time series.
    pub intervals: Vec<Interval>,
    /// Histogram buckets: `(upper bound µs, count)` of every non-empty bucket.
    pub histogram: Vec<(f64 /*upper us*/, u64)>,
    /// CPU seconds (user + system, all threads of the process) per I/O; None for the
    /// simulator (its time is virtual).
    pub cpu_s_per_io: Option<f64>,
    /// User CPU seconds over the window.
    pub cpu_user_s: Option<f64>,
    /// System CPU seconds over the window.
    pub cpu_sys_s: Option<f64>,
    /// Failed I/Os.
    pub errors: u64,
    /// Failed I/Os by kind.
    pub error_counts: ErrorCounts,
    /// The first failed I/Os, decoded.
    pub first_errors: Vec<IoErrorRecord>,
    /// `--verify` results.
    pub verify: Option<VerifyStats>,
    /// The run stopped early (device failure): these are partial results.
    pub partial: bool,
    /// Why the run stopped early.
    pub stop_reason: Option<String>,
    /// Notes (IOPOLL/SQPOLL not supported, queue depth capped...).
    pub notes: Vec<String>,
    /// I/Os completed during the ramp (not counted above).
    pub ramp_ios: u64,
}

/// How many decoded errors a run keeps.
pub(crate) const FIRST_ERRORS: usize = 16;

/// Per-job statistics on the job's clock (ns since the run started).
pub struct Recorder {
    /// Start of the measurement window (end of the ramp), ns.
    pub measure_from: u64,
    /// Length of an interval, ns.
    pub interval_ns: u64,
    /// All completions in the window.
    pub all: Histogram<u64>,
    /// Reads.
    pub read: Histogram<u64>,
    /// Writes.
    pub write: Histogram<u64>,
    read_bytes: u64,
    write_bytes: u64,
    /// The interval in progress: index, histogram, reads, writes, bytes, errors.
    cur_idx: u64,
    cur: Histogram<u64>,
    cur_reads: u64,
    cur_writes: u64,
    cur_bytes: u64,
    cur_errors: u64,
    /// Finished intervals not yet collected.
    pub done: Vec<IntervalPart>,
    /// Errors.
    pub errors: u64,
    /// By kind.
    pub error_counts: ErrorCounts,
    /// First decoded.
    pub first_errors: Vec<IoErrorRecord>,
    /// Completions during the ramp.
    pub ramp_ios: u64,
    /// Last completion, ns.
    pub last_ns: u64,
    /// Last interval index (completions after it count in it: the drain after the runtime).
    pub max_idx: Option<u64>,
}

/// One job's share of an interval.
pub struct IntervalPart {
    /// Interval index (0 = the first after the ramp).
    pub idx: u64,
    /// Latencies.
    pub hist: Histogram<u64>,
    /// Reads completed.
    pub reads: u64,
    /// Writes completed.
    pub writes: u64,
    /// Bytes.
    pub bytes: u64,
    /// Errors.
    pub errors: u64,
    /// `Some(ns)` when the job's measurement ended `ns` into this interval (its last one);
    /// `None` for an interval it measured whole.
    pub short_ns: Option<u64>,
}

impl Recorder {
    /// A recorder measuring from `measure_from` ns with intervals of `interval_ns`.
    pub fn new(measure_from: u64, interval_ns: u64) -> Recorder {
        Recorder {
            measure_from,
            interval_ns: interval_ns.max(1),
            all: new_histogram(),
            read: new_histogram(),
            write: new_histogram(),
            read_bytes: 0,
            write_bytes: 0,
            cur_idx: 0,
            cur: new_histogram(),
            cur_reads: 0,
            cur_writes: 0,
            cur_bytes: 0,
            cur_errors: 0,
            done: Vec::new(),
            errors: 0,
            error_counts: ErrorCounts::new(),
            first_errors: Vec::new(),
            ramp_ios: 0,
            last_ns: 0,
            max_idx: None,
        }
    }

    /// Closes intervals that end at or before `now` (call before recording at `now`, and at
    /// the end of the run).
    #[inline]
    pub(crate) fn roll(&mut self, now: u64) {
        if now < self.measure_from {
            return;
        }
        let mut idx = (now - self.measure_from) / self.interval_ns;
        if let Some(m) = self.max_idx {
            idx = idx.min(m);
        }
        while self.cur_idx < idx {
            self.close(None);
        }
    }

    /// Hands the interval in progress to [`Recorder::done`] and starts the next.
    fn close(&mut self, short_ns: Option<u64>) {
        let hist = std::mem::replace(&mut self.cur, new_histogram());
        self.done.push(IntervalPart {
            idx: self.cur_idx,
            hist,
            reads: std::mem::take(&mut self.cur_reads),
            writes: std::mem::take(&mut self.cur_writes),
            bytes: std::mem::take(&mut self.cur_bytes),
            errors: std::mem::take(&mut self.cur_errors),
            short_ns,
        });
        self.cur_idx += 1;
    }

    /// Closes the interval in progress at the end of the run. It is marked short with the
    /// time it covered when the run stopped before its end (the drain after a runtime that
    /// ends on an interval end counts in that interval, which stays whole).
    pub fn finish(&mut self, now: u64) {
        self.roll(now);
        if now > self.measure_from
            && (self.cur_reads + self.cur_writes + self.cur_errors > 0
                || !(now - self.measure_from).is_multiple_of(self.interval_ns))
        {
            let start = self.measure_from + self.cur_idx * self.interval_ns;
            let covered = now.saturating_sub(start);
            self.max_idx = None;
            self.close((covered < self.interval_ns).then_some(covered.max(1)));
        }
    }

    /// Records a completion at `now` that took `lat_ns`.
    #[inline]
    pub fn record(&mut self, now: u64, write: bool, bytes: u32, lat_ns: u64) {
        self.last_ns = self.last_ns.max(now);
        if now < self.measure_from {
            self.ramp_ios += 1;
            return;
        }
        self.roll(now);
        let v = lat_ns.clamp(1, MAX_LAT_NS);
        // Bounds are checked above: recording cannot fail.
        let _ = self.all.record(v);
        let _ = self.cur.record(v);
        if write {
            let _ = self.write.record(v);
            self.write_bytes += u64::from(bytes);
            self.cur_writes += 1;
        } else {
            let _ = self.read.record(v);
            self.read_bytes += u64::from(bytes);
            self.cur_reads += 1;
        }
        self.cur_bytes += u64::from(bytes);
    }

    /// Records a failed I/O.
    pub(crate) fn record_error(&mut self, now: u64, kind: String, rec: IoErrorRecord) {
        self.roll(now);
        self.errors += 1;
        self.cur_errors += 1;
        *self.error_counts.entry(kind).or_insert(0) += 1;
        if self.first_errors.len() < FIRST_ERRORS {
            self.first_errors.push(rec);
        }
    }

    /// Seconds of `now` relative to the measurement start (negative during the ramp).
    pub fn t_s(&self, now: u64) -> f64 {
        (now as f64 - self.measure_from as f64) / 1e9
    }
}

/// Merges interval parts of several jobs into the time series.
#[derive(Default)]
pub(crate) struct IntervalMerger {
    pending: std::collections::BTreeMap<u64, (IntervalPart, u32)>,
    interval_s: f64,
    jobs: u32,
}

impl IntervalMerger {
    /// Merges parts of `jobs` jobs with intervals of `interval_s`.
    pub(crate) fn new(jobs: u32, interval_s: f64) -> IntervalMerger {
        IntervalMerger {
            pending: Default::default(),
            interval_s,
            jobs,
        }
    }

    /// Adds one job's part; returns the intervals every job has now reported.
    pub(crate) fn add(&mut self, p: IntervalPart) -> Vec<Interval> {
        match self.pending.get_mut(&p.idx) {
            Some((acc, n)) => {
                let _ = acc.hist.add(&p.hist);
                acc.reads += p.reads;
                acc.writes += p.writes;
                acc.bytes += p.bytes;
                acc.errors += p.errors;
                // The jobs share one clock: the interval reaches as far as the longest.
                acc.short_ns = match (acc.short_ns, p.short_ns) {
                    (Some(a), Some(b)) => Some(a.max(b)),
                    _ => None,
                };
                *n += 1;
            }
            None => {
                self.pending.insert(p.idx, (p, 1));
            }
        }
        let mut out = Vec::new();
        while let Some(e) = self.pending.first_entry() {
            if e.get().1 < self.jobs {
                break;
            }
            let (p, _) = e.remove();
            out.extend(self.point(&p));
        }
        out
    }

    /// Whatever is left at the end (jobs that stopped early report fewer intervals).
    pub(crate) fn flush(&mut self) -> Vec<Interval> {
        let parts: Vec<IntervalPart> = std::mem::take(&mut self.pending)
            .into_values()
            .map(|x| x.0)
            .collect();
        parts.iter().filter_map(|p| self.point(p)).collect()
    }

    /// The point of an interval: its rates over the time it covered. A run's last interval
    /// that the run reached only part of is scaled to that part and ends where the run
    /// ended; under half an interval it is no point at all (a rate over a few I/Os is
    /// noise), unless it is the run's only interval.
    fn point(&self, p: &IntervalPart) -> Option<Interval> {
        let full = self.interval_s;
        let (s, t_s) = match p.short_ns {
            Some(ns) => {
                let s = (ns as f64 / 1e9).min(full);
                (s, p.idx as f64 * full + s)
            }
            None => (full, (p.idx + 1) as f64 * full),
        };
        if s <= 0.0 || (s < 0.5 * full && p.idx > 0) {
            return None;
        }
        let n = p.reads + p.writes;
        let h = &p.hist;
        Some(Interval {
            t_s,
            iops: n as f64 / s,
            mbps: p.bytes as f64 / s / 1e6,
            mean_lat_us: if n > 0 { h.mean() / 1e3 } else { 0.0 },
            p99_lat_us: if n > 0 {
                h.value_at_quantile(0.99) as f64 / 1e3
            } else {
                0.0
            },
            max_lat_us: if n > 0 { h.max() as f64 / 1e3 } else { 0.0 },
            read_iops: p.reads as f64 / s,
            write_iops: p.writes as f64 / s,
            errors: p.errors,
        })
    }
}

/// Builds the result from the merged recorders of all jobs. `elapsed_s` is the measurement
/// window (from the end of the ramp to the last completion or the runtime).
pub(crate) fn summarize(recs: &[Recorder], elapsed_s: f64) -> RunResult {
    let mut all = new_histogram();
    let mut read = new_histogram();
    let mut write = new_histogram();
    let mut r = RunResult::default();
    let (mut rb, mut wb) = (0, 0);
    for x in recs {
        let _ = all.add(&x.all);
        let _ = read.add(&x.read);
        let _ = write.add(&x.write);
        rb += x.read_bytes;
        wb += x.write_bytes;
        r.errors += x.errors;
        r.ramp_ios += x.ramp_ios;
        for (k, v) in &x.error_counts {
            *r.error_counts.entry(k.clone()).or_insert(0) += v;
        }
        for e in &x.first_errors {
            if r.first_errors.len() < FIRST_ERRORS {
                r.first_errors.push(e.clone());
            }
        }
    }
    r.first_errors.sort_by(|a, b| {
        a.t_s
            .partial_cmp(&b.t_s)
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let el = elapsed_s.max(1e-9);
    let dir = |h: &Histogram<u64>, bytes: u64| -> Option<DirStats> {
        (!h.is_empty()).then(|| DirStats {
            ios: h.len(),
            bytes,
            iops: h.len() as f64 / el,
            mbps: bytes as f64 / el / 1e6,
            latency: LatencySummary::of(h),
        })
    };
    r.read = dir(&read, rb);
    r.write = dir(&write, wb);
    r.ios = all.len();
    r.bytes = rb + wb;
    r.elapsed_s = elapsed_s;
    r.iops = r.ios as f64 / el;
    r.mbps = r.bytes as f64 / el / 1e6;
    r.latency = LatencySummary::of(&all);
    r.histogram = buckets(&all);
    r
}

/// `(upper bound µs, count)` of every non-empty bucket of an HDR histogram (ns).
pub(crate) fn buckets(h: &Histogram<u64>) -> Vec<(f64, u64)> {
    h.iter_recorded()
        .map(|v| {
            (
                h.highest_equivalent(v.value_iterated_to()) as f64 / 1e3,
                v.count_at_value(),
            )
        })
        .collect()
}

/// User and system CPU seconds of the whole process so far (all threads).
pub(crate) fn cpu_times() -> Option<(f64, f64)> {
    let ru = nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_SELF).ok()?;
    let tv = |t: nix::sys::time::TimeVal| t.tv_sec() as f64 + t.tv_usec() as f64 / 1e6;
    Some((tv(ru.user_time()), tv(ru.system_time())))
}

/// Nanoseconds the calling thread has spent runnable but waiting for a CPU (the run-queue
/// delay, second field of `/proc/thread-self/schedstat`); `None` without schedstats.
pub(crate) fn run_queue_wait_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().nth(1)?.parse().ok()
}

/// Least-squares line through points: (slope, intercept). None for fewer than 2 distinct x.
pub(crate) fn least_squares(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    let n = points.len() as f64;
    if points.len() < 2 {
        return None;
    }
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    if sxx == 0.0 {
        return None;
    }
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let slope = sxy / sxx;
    Some((slope, my - slope * mx))
}

/// Trailing moving average over `window` points.
pub fn moving_average(points: &[(f64, f64)], window: usize) -> Vec<(f64, f64)> {
    let w = window.max(1);
    let mut out = Vec::with_capacity(points.len());
    let mut sum = 0.0;
    for (i, p) in points.iter().enumerate() {
        sum += p.1;
        if i >= w {
            sum -= points[i - w].1;
        }
        let k = (i + 1).min(w) as f64;
        out.push((p.0, sum / k));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_and_moving_average() {
        let (m, b) = least_squares(&[(1.0, 3.0), (2.0, 5.0), (3.0, 7.0)]).unwrap();
        assert!((m - 2.0).abs() < 1e-12 && (b - 1.0).abs() < 1e-12);
        assert!(least_squares(&[(1.0, 1.0), (1.0, 2.0)]).is_none());
        let ma = moving_average(&[(0.0, 2.0), (1.0, 4.0), (2.0, 6.0)], 2);
        assert_eq!(ma, vec![(0.0, 2.0), (1.0, 3.0), (2.0, 5.0)]);
    }
    use crate::bench::workload::Rng;

    /// Every value from 100 ns to 60 s comes back from the histogram within 1 % (in fact
    /// within 0.1 %: 3 significant digits).
    #[test]
    fn histogram_error_bound_100ns_to_60s() {
        let mut v = 100u64;
        let mut worst: f64 = 0.0;
        while v <= 60_000_000_000 {
            let mut h = new_histogram();
            h.record(v).unwrap();
            for q in [0.0, 0.5, 1.0] {
                let got = h.value_at_quantile(q) as f64;
                let err = (got - v as f64).abs() / v as f64;
                worst = worst.max(err);
            }
            let mid = h.median_equivalent(v) as f64;
            worst = worst.max((mid - v as f64).abs() / v as f64);
            v = v + v / 97 + 1; // ~1 % steps: every bucket size class is hit
        }
        assert!(worst <= 0.01, "worst relative error {worst}");
        assert!(worst <= 0.001, "3 significant digits: {worst}");
    }

    #[test]
    fn percentiles_of_uniform_distribution() {
        // Uniform 1..=1_000_000 ns: the p-th percentile is p % of 1 ms.
        let mut h = new_histogram();
        for v in 1..=1_000_000u64 {
            h.record(v).unwrap();
        }
        let s = LatencySummary::of(&h);
        for &(p, us) in &s.percentiles {
            let want = p / 100.0 * 1000.0;
            assert!(
                (us - want).abs() <= want * 0.002 + 0.002,
                "p{p}: {us} vs {want}"
            );
        }
        assert!((s.mean_us - 500.0).abs() < 1.0, "{}", s.mean_us);
        // σ of a uniform distribution on [0, 1000 µs] is 1000/√12 ≈ 288.7 µs.
        assert!((s.stdev_us - 288.675).abs() < 1.0, "{}", s.stdev_us);
        assert!((s.max_us - 1000.0).abs() < 1.0);
    }

    #[test]
    fn percentiles_of_exponential_distribution() {
        // Exponential with mean 100 µs: p-th percentile = −ln(1 − p) · 100 µs.
        let mut h = new_histogram();
        let mut rng = Rng::new(7);
        let n = 2_000_000;
        for _ in 0..n {
            let u = rng.unit();
            let v = (-(1.0 - u).ln() * 100_000.0) as u64;
            h.record(v.max(1)).unwrap();
        }
        let s = LatencySummary::of(&h);
        for p in [50.0, 90.0, 99.0, 99.9] {
            let want = -(1.0 - p / 100.0f64).ln() * 100.0;
            let got = s.percentile(p).unwrap();
            // Sampling error of the p-quantile of n draws plus the histogram's 0.1 %.
            let tol = if p >= 99.9 { 0.05 } else { 0.01 };
            assert!((got - want).abs() <= want * tol, "p{p}: {got} vs {want}");
        }
        assert!((s.mean_us - 100.0).abs() < 0.5, "{}", s.mean_us);
        assert!((s.stdev_us - 100.0).abs() < 1.0, "{}", s.stdev_us);
    }

    #[test]
    fn recorder_intervals_and_ramp() {
        let ms = 1_000_000u64;
        let mut r = Recorder::new(100 * ms, 1000 * ms);
        r.record(50 * ms, false, 4096, 10_000); // ramp
        for i in 0..2500u64 {
            r.record(100 * ms + i * ms, i % 4 == 0, 4096, 20_000);
        }
        r.finish(2600 * ms);
        assert_eq!(r.ramp_ios, 1);
        assert_eq!(r.done.len(), 3);
        assert_eq!(r.done[0].reads + r.done[0].writes, 1000);
        assert_eq!(r.done[2].reads + r.done[2].writes, 500);
        let mut m = IntervalMerger::new(1, 1.0);
        let pts: Vec<Interval> = r.done.drain(..).flat_map(|p| m.add(p)).collect();
        assert_eq!(pts.len(), 3);
        assert!((pts[0].iops - 1000.0).abs() < 1e-9);
        assert!((pts[0].write_iops - 250.0).abs() < 1e-9);
        assert!((pts[0].mean_lat_us - 20.0).abs() < 0.05);
        // The last interval (0.5 s of I/O at the same pace) is at the same rate, at 2.5 s.
        assert_eq!(pts[2].t_s, 2.5);
        assert!((pts[2].iops - 1000.0).abs() < 1e-9, "{pts:?}");
        let res = summarize(&[r], 2.5);
        assert_eq!(res.ios, 2500);
        assert!((res.iops - 1000.0).abs() < 1e-6);
        assert_eq!(res.write.as_ref().unwrap().ios, 625);
        assert_eq!(res.histogram.iter().map(|b| b.1).sum::<u64>(), 2500);
    }

    /// A run at 1000 IOPS that stops 0.5 s into its third 1-s interval: the third point is
    /// at 1000 IOPS ending at 2.5 s (the old series divided 500 I/Os by the whole second and
    /// dipped to 500 at 3.0 s). One stopping 0.3 s in has no third point; a run shorter than
    /// half an interval keeps its only one, scaled.
    #[test]
    fn a_part_filled_last_interval_is_scaled_or_dropped() {
        let ms = 1_000_000u64;
        let series = |jobs: &[u64]| {
            let mut m = IntervalMerger::new(jobs.len() as u32, 1.0);
            let mut pts = Vec::new();
            for &end_ms in jobs {
                let mut r = Recorder::new(0, 1000 * ms);
                for i in 0..end_ms {
                    r.record(i * ms + ms / 2, i % 2 == 0, 4096, 20_000);
                }
                r.finish(end_ms * ms);
                pts.extend(r.done.drain(..).flat_map(|p| m.add(p)));
            }
            pts.extend(m.flush());
            pts
        };
        let pts = series(&[2500]);
        assert_eq!(pts.len(), 3, "{pts:?}");
        assert_eq!(pts[1].t_s, 2.0);
        assert_eq!(pts[2].t_s, 2.5);
        for p in &pts {
            assert!((p.iops - 1000.0).abs() < 1e-6, "{pts:?}");
            assert!((p.read_iops - 500.0).abs() < 1e-6, "{pts:?}");
            assert!((p.mbps - 4.096).abs() < 1e-9, "{pts:?}");
        }
        let pts = series(&[2300]);
        assert_eq!(pts.len(), 2, "{pts:?}");
        assert_eq!(pts[1].t_s, 2.0);
        // Two jobs: the interval reaches as far as the job that ran longest.
        let pts = series(&[2600, 2200]);
        assert_eq!(pts.len(), 3, "{pts:?}");
        assert!((pts[2].t_s - 2.6).abs() < 1e-9, "{pts:?}");
        assert!(
            (pts[2].iops - (600.0 + 200.0) / 0.6).abs() < 1e-6,
            "{pts:?}"
        );
        let pts = series(&[300]);
        assert_eq!(pts.len(), 1, "{pts:?}");
        assert!((pts[0].t_s - 0.3).abs() < 1e-9 && (pts[0].iops - 1000.0).abs() < 1e-6);
        // A run ending on an interval end: every interval whole.
        let pts = series(&[3000]);
        assert_eq!(
            pts.iter().map(|p| p.t_s).collect::<Vec<_>>(),
            [1.0, 2.0, 3.0]
        );
    }

    #[test]
    fn merger_waits_for_all_jobs() {
        let part = |idx| IntervalPart {
            idx,
            hist: {
                let mut h = new_histogram();
                h.record(1000).unwrap();
                h
            },
            reads: 1,
            writes: 0,
            bytes: 512,
            errors: 0,
            short_ns: None,
        };
        let mut m = IntervalMerger::new(2, 1.0);
        assert!(m.add(part(0)).is_empty());
        assert!(m.add(part(1)).is_empty());
        let out = m.add(part(0));
        assert_eq!(out.len(), 1);
        assert!((out[0].iops - 2.0).abs() < 1e-9);
        assert_eq!(m.flush().len(), 1);
    }
}
