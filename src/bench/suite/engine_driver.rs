//! [`Driver`] over the benchmark engine ([`crate::bench::Engine`]): a [`Stimulus`] becomes a
//! [`Workload`], the engine's [`RunResult`] becomes a [`Measurement`] (with the whole result
//! kept for the report). Idle time is the caller's: a real drive sleeps, a virtual drive's
//! clock is advanced.

use super::defs::{Access, Amount, Stimulus};
use super::driver::{Driver, Measurement, RunSettings};
use crate::bench::stats::{Interval, RunResult};
use crate::bench::workload::{BlockSplit, DataPattern, Distribution, Limit, Range, Rw, Workload};
use crate::bench::{BenchError, Engine};
use crate::error::{Error, Result};
use std::time::Duration;

/// The engine as the suites see it.
pub(crate) struct EngineDriver {
    engine: Box<dyn Engine>,
    idle: Box<dyn FnMut(f64) + Send>,
    seed: u64,
    /// Set when the device failed mid-run (the CLI exits 4).
    pub device_failed: Option<String>,
}

impl EngineDriver {
    /// Wraps an engine; `idle(seconds)` leaves the drive alone for that long.
    pub(crate) fn new(engine: Box<dyn Engine>, idle: Box<dyn FnMut(f64) + Send>) -> EngineDriver {
        EngineDriver {
            engine,
            idle,
            seed: 0x5eed_2026,
            device_failed: None,
        }
    }
}

/// The engine workload for a stimulus under the run's settings.
pub(crate) fn workload(s: &Stimulus, r: &RunSettings, seed: u64) -> Result<Workload> {
    let rw = match (s.access, s.read_pct) {
        (Access::Sequential, 100) => Rw::Read,
        (Access::Sequential, 0) => Rw::Write,
        (Access::Sequential, p) => {
            return Err(crate::error::Invalid::SequentialMix {
                label: s.label.to_string(),
                read_pct: p,
            }
            .into())
        }
        (Access::Random, 100) => Rw::RandRead,
        (Access::Random, 0) => Rw::RandWrite,
        (Access::Random, _) => Rw::RandRw,
    };
    let limit = match s.amount {
        Amount::Seconds(x) => {
            let d = super::driver::scaled_seconds(x, r.time_scale);
            Limit::Runtime(Duration::from_secs_f64(d))
        }
        Amount::Capacities(c) => Limit::Bytes((c * r.range.len_bytes as f64) as u64),
    };
    let distribution = if s.zones.is_empty() {
        Distribution::Uniform
    } else {
        Distribution::Zoned(s.zones.clone())
    };
    Ok(Workload {
        rw,
        read_pct: s.read_pct,
        bs: BlockSplit(s.bs.clone()),
        qd: s.qd.unwrap_or(r.qd).max(1),
        jobs: s.tc.unwrap_or(r.tc).max(1),
        limit,
        ramp: Duration::ZERO,
        range: Some(Range {
            offset_bytes: r.range.offset_bytes,
            len_bytes: r.range.len_bytes,
        }),
        distribution,
        align: None,
        verify: false,
        log_interval: Duration::from_secs_f64(r.log_interval_s.max(1e-6)),
        pattern: DataPattern::Random,
        seed,
        ..Workload::default()
    })
}

fn pct(r: &RunResult, p: f64) -> f64 {
    r.latency.percentile(p).unwrap_or(f64::NAN)
}

/// Most time-series points a suite keeps of one engine run. A run's log interval is one
/// (scaled) second, at least the engine's 10 ms: a WIPC on a full-size drive at a small time
/// scale (2 × 800 GB at ~400 MB/s is ~4,000 drive seconds, 400,000 intervals of 10 ms) made a
/// report of hundreds of MB and several GB of memory as JSON values. Longer runs keep their
/// points merged in groups ([`coarsen`]); a chart of a cell has no use for more.
pub(crate) const MAX_INTERVALS: usize = 2000;

/// `v` with consecutive points merged in groups so that at most `max` remain: a merged point
/// ends where its last one ends; its rates (IOPS, MB/s) are the means of the group's (the
/// intervals are of equal length), its mean latency is weighted by the I/Os of each point, its
/// 99th percentile and maximum are the largest of the group's (an upper bound: the group's own
/// percentile is not known from the points), its errors the sum.
pub(crate) fn coarsen(v: Vec<Interval>, max: usize) -> Vec<Interval> {
    let max = max.max(1);
    if v.len() <= max {
        return v;
    }
    let k = v.len().div_ceil(max);
    v.chunks(k)
        .map(|g| {
            let n = g.len() as f64;
            let ios: f64 = g.iter().map(|i| i.iops).sum();
            let big = |f: fn(&Interval) -> f64| g.iter().map(f).fold(0.0, f64::max);
            Interval {
                t_s: g.last().map_or(0.0, |i| i.t_s),
                iops: ios / n,
                mbps: g.iter().map(|i| i.mbps).sum::<f64>() / n,
                mean_lat_us: if ios > 0.0 {
                    g.iter().map(|i| i.mean_lat_us * i.iops).sum::<f64>() / ios
                } else {
                    0.0
                },
                p99_lat_us: big(|i| i.p99_lat_us),
                max_lat_us: big(|i| i.max_lat_us),
                read_iops: g.iter().map(|i| i.read_iops).sum::<f64>() / n,
                write_iops: g.iter().map(|i| i.write_iops).sum::<f64>() / n,
                errors: g.iter().map(|i| i.errors).sum(),
            }
        })
        .collect()
}

/// The suites' figures of an engine result (its time series at most [`MAX_INTERVALS`] points).
pub(crate) fn measurement(mut r: RunResult) -> Measurement {
    r.intervals = coarsen(std::mem::take(&mut r.intervals), MAX_INTERVALS);
    let r = &r;
    let (ri, rm, rl) = r
        .read
        .as_ref()
        .map(|d| (d.iops, d.mbps, d.latency.mean_us))
        .unwrap_or((0.0, 0.0, 0.0));
    let (wi, wm, wl, wb) = r
        .write
        .as_ref()
        .map(|d| (d.iops, d.mbps, d.latency.mean_us, d.bytes))
        .unwrap_or((0.0, 0.0, 0.0, 0));
    Measurement {
        ios: r.ios,
        bytes: r.bytes,
        elapsed_s: r.elapsed_s,
        iops: r.iops,
        mbps: r.mbps,
        read_iops: ri,
        write_iops: wi,
        read_mbps: rm,
        write_mbps: wm,
        write_bytes: wb,
        mean_lat_us: r.latency.mean_us,
        max_lat_us: r.latency.max_us,
        p99_lat_us: pct(r, 99.0),
        p9999_lat_us: pct(r, 99.99),
        p99999_lat_us: pct(r, 99.999),
        read_mean_lat_us: rl,
        write_mean_lat_us: wl,
        errors: r.errors,
        run: serde_json::to_value(r).unwrap_or(serde_json::Value::Null),
    }
}

fn bench_error(e: BenchError) -> Error {
    match e {
        BenchError::InvalidArgument(m) => Error::InvalidArgument(m),
        BenchError::Open(e) | BenchError::Session(e) => e,
        BenchError::Unsupported(m) => Error::Unsupported(m),
        BenchError::Refused(m) => Error::Refused(crate::error::Refusal::Benchmark { reason: m }),
        BenchError::Os(m) => Error::io(m, std::io::Error::other("benchmark engine")),
        BenchError::DeviceFailed { error, .. } => {
            Error::CheckFailed(format!("the device failed mid-run: {error}"))
        }
    }
}

impl Driver for EngineDriver {
    fn engine(&self) -> String {
        self.engine.name().into()
    }
    fn capacity_bytes(&self) -> u64 {
        self.engine.capacity_bytes()
    }
    fn block_len(&self) -> u32 {
        self.engine.block_len()
    }
    fn run(&mut self, s: &Stimulus, r: &RunSettings) -> Result<Measurement> {
        self.seed = self.seed.wrapping_mul(6364136223846793005).wrapping_add(1);
        let w = workload(s, r, self.seed)?;
        match self.engine.run(&w, &mut |_| {}) {
            Ok(res) => Ok(measurement(res)),
            Err(e) => {
                if let BenchError::DeviceFailed { error, .. } = &e {
                    self.device_failed = Some(error.clone());
                }
                Err(bench_error(e))
            }
        }
    }
    fn idle(&mut self, s: f64) -> Result<()> {
        (self.idle)(s);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run of 400,000 log intervals (a full-size drive's WIPC at 10 ms) keeps at most
    /// [`MAX_INTERVALS`] points in the measurement, whatever the time scale made the interval;
    /// the merged series keeps the run's mean rate, its end time and its worst latency.
    #[test]
    fn a_measurement_keeps_a_bounded_time_series() {
        let n = 400_000usize;
        let r = RunResult {
            intervals: (0..n)
                .map(|i| Interval {
                    t_s: (i + 1) as f64 * 0.01,
                    iops: if i % 2 == 0 { 1000.0 } else { 3000.0 },
                    mbps: 4.0,
                    mean_lat_us: if i % 2 == 0 { 100.0 } else { 300.0 },
                    p99_lat_us: 500.0,
                    max_lat_us: if i == 12_345 { 9e3 } else { 600.0 },
                    read_iops: 0.0,
                    write_iops: if i % 2 == 0 { 1000.0 } else { 3000.0 },
                    errors: u64::from(i == 7),
                })
                .collect(),
            ..RunResult::default()
        };
        let m = measurement(r);
        let iv: Vec<Interval> = serde_json::from_value(m.run["intervals"].clone()).unwrap();
        assert!(
            iv.len() <= MAX_INTERVALS && iv.len() >= MAX_INTERVALS / 2,
            "{}",
            iv.len()
        );
        let mean = iv.iter().map(|i| i.iops).sum::<f64>() / iv.len() as f64;
        assert!((mean - 2000.0).abs() < 1e-6, "{mean}");
        assert!(
            (iv[0].mean_lat_us - 250.0).abs() < 1e-6,
            "{}",
            iv[0].mean_lat_us
        );
        assert!((iv.last().unwrap().t_s - n as f64 * 0.01).abs() < 1e-6);
        assert_eq!(iv.iter().map(|i| i.max_lat_us).fold(0.0, f64::max), 9e3);
        assert_eq!(iv.iter().map(|i| i.errors).sum::<u64>(), 1);
        // A short run is kept as it was.
        let short = RunResult {
            intervals: vec![Interval::default(); 10],
            ..RunResult::default()
        };
        assert_eq!(
            measurement(short).run["intervals"]
                .as_array()
                .unwrap()
                .len(),
            10
        );
    }
}
