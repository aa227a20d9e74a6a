//! [`Driver`] over the benchmark engine ([`crate::bench::Engine`]): a [`Stimulus`] becomes a
//! [`Workload`], the engine's [`RunResult`] becomes a [`Measurement`] (with the whole result
//! kept for the report). Idle time is the caller's: a real drive sleeps, a virtual drive's
//! clock is advanced.

use super::defs::{Access, Amount, Stimulus};
use super::driver::{Driver, Measurement, RunSettings};
use crate::bench::stats::RunResult;
use crate::bench::workload::{BlockSplit, DataPattern, Distribution, Limit, Range, Rw, Workload};
use crate::bench::{BenchError, Engine};
use crate::error::{Error, Result};
use std::time::Duration;

/// The engine as the suites see it.
pub struct EngineDriver {
    engine: Box<dyn Engine>,
    idle: Box<dyn FnMut(f64) + Send>,
    seed: u64,
    /// Set when the device failed mid-run (the CLI exits 4).
    pub device_failed: Option<String>,
}

impl EngineDriver {
    /// Wraps an engine; `idle(seconds)` leaves the drive alone for that long.
    pub fn new(engine: Box<dyn Engine>, idle: Box<dyn FnMut(f64) + Send>) -> EngineDriver {
        EngineDriver {
            engine,
            idle,
            seed: 0x5eed_2026,
            device_failed: None,
        }
    }
}

/// The engine workload for a stimulus under the run's settings.
pub fn workload(s: &Stimulus, r: &RunSettings, seed: u64) -> Result<Workload> {
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

/// The suites' figures of an engine result.
pub fn measurement(r: &RunResult) -> Measurement {
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
        BenchError::Open(e) => e,
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
            Ok(res) => Ok(measurement(&res)),
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
