//! What the suites need from an engine, in their own terms: run one [`Stimulus`] and measure
//! it, idle the drive, report capacity. [`super::engine_driver`] implements it over the
//! benchmark engine (any of uring, sg, sim); tests use a fake.

use super::defs::Stimulus;
use crate::error::Result;
use serde::{Deserialize, Serialize};

/// Shortest stimulus run, drive seconds: on a drive scaled far down (capacity_gib=0.06) a
/// 5-second HIR burst would otherwise last a fraction of a millisecond — a few dozen I/Os.
pub(crate) const MIN_CELL_S: f64 = 0.01;

/// Drive seconds a stimulus of `full_scale_s` runs at `time_scale` (never below
/// [`MIN_CELL_S`], unless the stimulus itself is shorter).
pub(crate) fn scaled_seconds(full_scale_s: f64, time_scale: f64) -> f64 {
    (full_scale_s * time_scale).max(MIN_CELL_S.min(full_scale_s))
}

/// The byte range the stimuli address (PTS ActiveRange, resolved).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActiveRange {
    /// First byte.
    pub offset_bytes: u64,
    /// Length in bytes.
    pub len_bytes: u64,
}

/// How a stimulus is run (the run's settings).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RunSettings {
    /// The ActiveRange.
    pub range: ActiveRange,
    /// Threads when the stimulus leaves TC to the operator.
    pub tc: u32,
    /// Queue depth per thread when the stimulus leaves QD to the operator.
    pub qd: u32,
    /// Drive seconds per full-scale second.
    pub time_scale: f64,
    /// Interval of the per-interval series, drive seconds (already scaled).
    pub log_interval_s: f64,
}

/// One stimulus measured: the figures the suites compute with, plus the engine's whole
/// result (intervals, histogram, errors) for the report.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Measurement {
    /// Commands completed.
    pub ios: u64,
    /// Bytes moved.
    pub bytes: u64,
    /// Drive seconds measured.
    pub elapsed_s: f64,
    /// I/O per second.
    pub iops: f64,
    /// MB/s (10^6 bytes).
    pub mbps: f64,
    /// Read I/O per second.
    pub read_iops: f64,
    /// Write I/O per second.
    pub write_iops: f64,
    /// Read MB/s.
    pub read_mbps: f64,
    /// Write MB/s.
    pub write_mbps: f64,
    /// Bytes written.
    pub write_bytes: u64,
    /// Mean response time, µs (ART).
    pub mean_lat_us: f64,
    /// Largest response time, µs (MRT).
    pub max_lat_us: f64,
    /// 99th percentile, µs.
    pub p99_lat_us: f64,
    /// 99.99th percentile, µs.
    pub p9999_lat_us: f64,
    /// 99.999th percentile ("5 9s"), µs.
    pub p99999_lat_us: f64,
    /// Read ART / write ART, µs (0 when none).
    pub read_mean_lat_us: f64,
    /// Write ART.
    pub write_mean_lat_us: f64,
    /// Failed commands.
    pub errors: u64,
    /// The engine's full result (intervals, histogram, decoded errors), as JSON.
    #[serde(default, skip_serializing_if = "serde_json::Value::is_null")]
    pub run: serde_json::Value,
}

/// The suites' view of an engine on one drive.
pub trait Driver {
    /// Engine name (`sim`, `uring`, `sg`).
    fn engine(&self) -> String;
    /// Capacity in bytes.
    fn capacity_bytes(&self) -> u64;
    /// Logical block length.
    fn block_len(&self) -> u32;
    /// Runs one stimulus.
    fn run(&mut self, s: &Stimulus, settings: &RunSettings) -> Result<Measurement>;
    /// Leaves the drive idle for `drive_seconds` (HIR wait states): a real drive sleeps, a
    /// virtual one advances its clock.
    fn idle(&mut self, drive_seconds: f64) -> Result<()>;
}
