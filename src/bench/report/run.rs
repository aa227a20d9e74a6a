//! `sgctl bench run --report DIR`: the run as `report.json` (the suites' envelope: format
//! `sgctl-bench-report`, version 1, `suite` = `run`; docs/bench-report.md,
//! docs/report.schema.json) and `report.html` beside it.

use super::suite::{Header, FILE, FORMAT, VERSION};
use crate::bench::stats::RunResult;
use crate::bench::suite::cache::WriteCache;
use crate::bench::workload::{DataPattern, Limit, Workload};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// A `bench run` report.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunReport {
    /// [`FORMAT`].
    pub format: String,
    /// [`VERSION`].
    pub version: u32,
    /// Always `run`.
    pub suite: String,
    /// RFC 3339.
    pub created: String,
    /// RFC 3339, when written.
    pub updated: String,
    /// The run measured its whole window (not stopped by a device failure).
    pub complete: bool,
    /// `complete`, `interrupted` (Ctrl-C: partial results) or `failed: <error>`.
    pub state: String,
    /// Drive identity, host and engine (the suites' header).
    pub header: Header,
    /// The headline settings (the whole workload is in `workload`).
    pub settings: RunSettings,
    /// The Caching mode page as found (`bench run` does not change it).
    pub write_cache: WriteCache,
    /// The workload as run.
    pub workload: Workload,
    /// The engine's result: figures, per-interval series, latency histogram, errors.
    pub result: RunResult,
    /// Audit job id of a writing run.
    pub job_id: Option<String>,
    /// Anything the reader must know.
    pub notes: Vec<String>,
}

/// What a reader of a run report looks for first.
#[derive(Debug, Clone, Serialize, Deserialize, Default, PartialEq)]
pub struct RunSettings {
    /// `--engine` as given (auto, uring, sg, sim).
    pub engine_requested: String,
    /// read, write, randread, randwrite, randrw.
    pub rw: String,
    /// Read percent (randrw).
    pub read_pct: u8,
    /// `[[bytes, weight], ...]`.
    pub bs: Vec<(u32, u32)>,
    /// Queue depth per job.
    pub qd: u32,
    /// Job threads (TC).
    pub jobs: u32,
    /// Total outstanding I/O (jobs × QD).
    pub toio: u32,
    /// Measured seconds asked for (None: a byte limit).
    pub runtime_s: Option<f64>,
    /// Bytes asked for (None: a time limit).
    pub limit_bytes: Option<u64>,
    /// Ramp seconds (not counted).
    pub ramp_s: f64,
    /// Time-series interval, seconds.
    pub log_interval_s: f64,
    /// ActiveRange as a percent of capacity.
    pub active_range_pct: f64,
    /// ActiveRange in bytes.
    pub active_range: Option<crate::bench::workload::Range>,
    /// Offset distribution (uniform, zoned, zipf) as `--distribution` spells it.
    pub distribution: serde_json::Value,
    /// Data written: `random (incompressible)`, `zeros` or `hex:...`.
    pub data_pattern: String,
    /// `--verify`.
    pub verify: bool,
    /// Random seed.
    pub seed: u64,
}

fn pattern_name(p: &DataPattern) -> String {
    match p {
        DataPattern::Random => "random (incompressible, unique per write)".into(),
        DataPattern::Zeros => "zeros".into(),
        DataPattern::Bytes(b) => {
            let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
            format!("hex:{hex}")
        }
    }
}

impl RunSettings {
    /// From the workload as run.
    pub fn of(w: &Workload, requested: &str, capacity: u64) -> RunSettings {
        let (runtime_s, limit_bytes) = match w.limit {
            Limit::Runtime(d) => (Some(d.as_secs_f64()), None),
            Limit::Bytes(b) => (None, Some(b)),
        };
        let len = w.range.map_or(capacity, |r| r.len_bytes);
        RunSettings {
            engine_requested: requested.into(),
            rw: w.rw.name().into(),
            read_pct: w.read_pct,
            bs: w.bs.0.clone(),
            qd: w.qd,
            jobs: w.jobs,
            toio: w.qd.saturating_mul(w.jobs),
            runtime_s,
            limit_bytes,
            ramp_s: w.ramp.as_secs_f64(),
            log_interval_s: w.log_interval.as_secs_f64(),
            active_range_pct: if capacity > 0 {
                (1e4 * len as f64 / capacity as f64).round() / 100.0
            } else {
                100.0
            },
            active_range: w.range,
            distribution: serde_json::to_value(&w.distribution).unwrap_or_default(),
            data_pattern: pattern_name(&w.pattern),
            verify: w.verify,
            seed: w.seed,
        }
    }
}

impl RunReport {
    /// Writes `dir/report.json` and `dir/report.html` (each through a temp file + rename).
    pub fn save(&mut self, dir: &Path) -> Result<()> {
        self.updated = crate::clock::rfc3339(std::time::SystemTime::now());
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::io(format!("creating {}", dir.display()), e))?;
        let v = serde_json::to_value(&*self)
            .map_err(|e| Error::io("encoding report.json", std::io::Error::other(e)))?;
        let json = serde_json::to_vec(&v)
            .map_err(|e| Error::io("encoding report.json", std::io::Error::other(e)))?;
        write_atomic(&dir.join(FILE), &json)?;
        write_atomic(&dir.join("report.html"), super::page::render(&v).as_bytes())
    }

    /// A new report (times now).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        header: Header,
        settings: RunSettings,
        write_cache: WriteCache,
        workload: Workload,
        result: RunResult,
        failed: Option<String>,
        job_id: Option<String>,
        notes: Vec<String>,
    ) -> RunReport {
        let now = crate::clock::rfc3339(std::time::SystemTime::now());
        RunReport {
            format: FORMAT.into(),
            version: VERSION,
            suite: "run".into(),
            created: now.clone(),
            updated: now,
            complete: failed.is_none(),
            state: failed.map_or_else(|| "complete".into(), |e| format!("failed: {e}")),
            header,
            settings,
            write_cache,
            workload,
            result,
            job_id,
            notes,
        }
    }
}

/// Checks, before a run starts, that `dir/report.json` and `dir/report.html` can be written
/// (`dir` is created when missing): the directory is safe and writable, its file system not
/// full, the names are not the run's audit log ([`crate::files::preflight_output`]; a refusal
/// is exit 6). Reports already there are the directory's own and are replaced.
pub fn preflight(dir: &Path, audit: &Path) -> Result<()> {
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::io(format!("creating {}", dir.display()), e))?;
    for name in [FILE, "report.html"] {
        crate::files::preflight_output(
            &dir.join(name),
            &crate::files::Preflight {
                replace: true,
                others: vec![("audit log", audit)],
            },
        )?;
    }
    Ok(())
}

/// Writes `p` through [`crate::files::write_atomic`]: a temporary file with an unpredictable
/// name in `p`'s directory, `fsync`, an atomic rename over `p` (never through a symlink at
/// `p`), mode 0644. A report is the tool's own output and is replaced on every save.
pub fn write_atomic(p: &Path, bytes: &[u8]) -> Result<()> {
    crate::files::write_atomic(
        p,
        bytes,
        crate::files::MODE_PUBLIC,
        crate::files::Replace::Always,
    )
}
