//! `report.json`: everything a run measured, in a documented, versioned shape
//! (docs/bench-report.md) that the HTML renderer reads. Written after every
//! completed round (atomically: temp file + rename), so Ctrl-C or a crash loses at most the
//! round in progress, and `--resume DIR` continues from it.

use crate::bench::suite::cache::WriteCache;
use crate::bench::suite::defs::Stimulus;
use crate::bench::suite::driver::{ActiveRange, Measurement};
use crate::bench::suite::purge::PurgeRecord;
use crate::bench::suite::steady::Window;
use crate::error::{Error, Invalid, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// `format` field of every report.
pub const FORMAT: &str = "sgctl-bench-report";
/// Version of the shape; readers refuse a newer major version.
pub const VERSION: u32 = 1;
/// File name inside the report directory.
pub const FILE: &str = "report.json";

/// The whole report.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Report {
    /// Always [`FORMAT`].
    pub format: String,
    /// [`VERSION`].
    pub version: u32,
    /// `pts` or `review`.
    pub suite: String,
    /// RFC 3339 times.
    pub created: String,
    /// Last save.
    pub updated: String,
    /// True when every test ran to its end.
    pub complete: bool,
    /// `running`, `complete`, `interrupted`, `failed: ...`.
    pub state: String,
    /// Drive identity, host and engine.
    pub header: Header,
    /// Settings of the run (what PTS requires the report to state).
    pub settings: Settings,
    /// The write cache before/during/after.
    pub write_cache: WriteCache,
    /// One entry per test, in run order.
    pub tests: Vec<TestReport>,
    /// Anything the reader must know (scaled rounds, dropped block sizes, ...).
    pub notes: Vec<String>,
}

/// Who and what was measured.
#[derive(Debug, Clone, Serialize, Deserialize, Default, PartialEq)]
pub struct Header {
    /// The address given.
    pub address: String,
    /// T10 vendor.
    pub vendor: String,
    /// Model.
    pub model: String,
    /// Serial number (VPD 80h).
    pub serial: String,
    /// Firmware revision.
    pub firmware: String,
    /// LU name (NAA) from VPD 83h.
    pub wwn: Option<String>,
    /// Capacity at the start, bytes.
    pub capacity_bytes: u64,
    /// Logical block length.
    pub block_len: u32,
    /// Protection type (0 = none).
    pub protection_type: u8,
    /// Interface (`SAS/SCSI`, or `virtual (sgctl sim)`).
    pub interface: String,
    /// Engine that issued the I/O.
    pub engine: String,
    /// Host name.
    pub host: String,
    /// Kernel (uname -r).
    pub kernel: String,
    /// sgctl version and git revision.
    pub tool: String,
}

/// Run settings.
#[derive(Debug, Clone, Serialize, Deserialize, Default, PartialEq)]
pub struct Settings {
    /// Tests asked for.
    pub tests: Vec<String>,
    /// Threads (TC).
    pub tc: u32,
    /// Queue depth per thread (QD).
    pub qd: u32,
    /// Total outstanding I/O (TOIO = TC × QD).
    pub toio: u32,
    /// ActiveRange, percent of capacity (100 for PTS-E).
    pub active_range_pct: f64,
    /// ActiveRange resolved.
    pub active_range: Option<ActiveRange>,
    /// Most WDPC rounds.
    pub max_rounds: u32,
    /// `--purge`.
    pub purge: String,
    /// Data pattern written.
    pub data_pattern: String,
    /// Drive seconds per full-scale second (1 = PTS durations).
    pub time_scale: f64,
    /// Why the durations are scaled (capacity-scaled virtual drive, `--time-scale`).
    pub time_scale_reason: Option<String>,
    /// Review: extra over-provisioning, percent of capacity.
    pub op_extra_pct: Option<f64>,
}

/// One test.
#[derive(Debug, Clone, Serialize, Deserialize, Default)]
pub struct TestReport {
    /// `iops`, `tp`, ... or a review part (`write_cliff`, `qd_sweep`, ...).
    pub test: String,
    /// `pending`, `running`, `done`, `interrupted`, `failed: ...`.
    pub state: String,
    /// Stages in order (purge, wipc, wdpc, captures ...).
    pub stages: Vec<Stage>,
    /// The test's results table(s), shaped per test (docs/bench-report.md).
    pub results: serde_json::Value,
    /// Notes.
    pub notes: Vec<String>,
}

/// One stage of a test.
#[derive(Debug, Clone, Serialize, Deserialize, Default)]
pub struct Stage {
    /// `purge`, `wipc`, `wdpc`, `wsat`, `wait-5s`, `capture-max` ...
    pub name: String,
    /// Completed.
    pub done: bool,
    /// The purge, for a purge stage.
    pub purge: Option<PurgeRecord>,
    /// Rounds completed (one for single runs).
    pub rounds: Vec<Round>,
    /// Steady state of a tracked stage: the window (reached or the last one).
    pub steady_state: Option<SteadyState>,
}

/// The steady-state outcome of a stage (cloudharmony's saved fields, with ours).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SteadyState {
    /// Tracking variable: cell label and metric (`0/100-4k iops`).
    pub tracking: String,
    /// Reached within `max_rounds`.
    pub reached: bool,
    /// Rounds run.
    pub rounds: u32,
    /// Cap.
    pub max_rounds: u32,
    /// The window.
    pub window: Option<Window>,
}

/// One round: the cells run and the tracking value.
#[derive(Debug, Clone, Serialize, Deserialize, Default)]
pub struct Round {
    /// 1-based.
    pub round: u32,
    /// Cells in run order.
    pub cells: Vec<Cell>,
    /// Value of the tracking variable, if the stage tracks one.
    pub tracking: Option<f64>,
    /// Wall seconds the round took.
    pub wall_s: f64,
    /// Drive seconds measured.
    pub drive_s: f64,
    /// Bytes written by this round.
    pub write_bytes: u64,
}

/// One stimulus and its measurement.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Cell {
    /// What ran (TC/QD filled in).
    pub stimulus: Stimulus,
    /// What it measured.
    pub m: Measurement,
}

impl Report {
    /// Path of the file in `dir`.
    pub fn path(dir: &Path) -> PathBuf {
        dir.join(FILE)
    }

    /// Writes `dir/report.json` atomically.
    pub fn save(&mut self, dir: &Path) -> Result<()> {
        self.updated = crate::clock::rfc3339(std::time::SystemTime::now());
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::io(format!("creating {}", dir.display()), e))?;
        let p = Self::path(dir);
        let json = serde_json::to_vec(self)
            .map_err(|e| Error::io("encoding report.json", std::io::Error::other(e)))?;
        super::run::write_atomic(&p, &json)?;
        // The encoded text is not kept while the HTML is built (the value tree is built from
        // the report itself rather than parsed back from the text: one copy at a time).
        drop(json);
        // report.html beside it: a view of the same JSON (super::page).
        let html = dir.join("report.html");
        let v = serde_json::to_value(&*self)
            .map_err(|e| Error::io("encoding report.json", std::io::Error::other(e)))?;
        super::run::write_atomic(&html, super::page::render(&v).as_bytes())
    }

    /// Reads `dir/report.json`, checking format and version.
    pub fn load(dir: &Path) -> Result<Report> {
        let p = Self::path(dir);
        // The directory is what the command line named (`--resume DIR`): one that holds no
        // readable report is a bad argument (exit 2), as `bench compare` says for its reports.
        let len = std::fs::metadata(&p)
            .map_err(|e| {
                Error::InvalidArgument(format!("{}: no report to read: {e}", p.display()))
            })?
            .len();
        let max = super::load::MAX_BYTES;
        if len > max {
            return Err(Error::InvalidArgument(format!(
                "{}: {len} bytes is larger than any report ({max} at most)",
                p.display()
            )));
        }
        let b = std::fs::read(&p).map_err(|e| Error::io(format!("reading {}", p.display()), e))?;
        let v: serde_json::Value =
            serde_json::from_slice(&b).map_err(|e| Invalid::NotJsonReport {
                path: p.display().to_string(),
                reason: e.to_string(),
            })?;
        if v.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
            return Err(Invalid::NotBenchReport {
                path: p.display().to_string(),
            }
            .into());
        }
        let ver = v.get("version").and_then(|f| f.as_u64()).unwrap_or(0);
        if ver != u64::from(VERSION) {
            return Err(Invalid::ReportVersion {
                path: p.display().to_string(),
                version: ver,
                supported: u64::from(VERSION),
            }
            .into());
        }
        serde_json::from_value(v).map_err(|e| {
            Invalid::BadReport {
                path: p.display().to_string(),
                reason: e.to_string(),
            }
            .into()
        })
    }

    /// Refuses to resume on another drive: serial, WWN and model must match.
    pub(crate) fn check_same_drive(&self, h: &Header) -> Result<()> {
        let a = &self.header;
        let same = a.serial == h.serial && a.wwn == h.wwn && a.model == h.model;
        if same {
            Ok(())
        } else {
            let name = |x: &Header| {
                format!(
                    "{} {} serial {}{}",
                    x.vendor,
                    x.model,
                    x.serial,
                    x.wwn
                        .as_deref()
                        .map(|w| format!(" wwn {w}"))
                        .unwrap_or_default()
                )
            };
            Err(crate::error::Refusal::ReportOfAnotherDrive {
                report: name(a),
                drive: name(h),
            }
            .into())
        }
    }

    /// The test entry named `name`, created if missing.
    pub(crate) fn test_mut(&mut self, name: &str) -> &mut TestReport {
        if let Some(i) = self.tests.iter().position(|t| t.test == name) {
            return &mut self.tests[i];
        }
        self.tests.push(TestReport {
            test: name.into(),
            state: "pending".into(),
            ..TestReport::default()
        });
        self.tests.last_mut().expect("just pushed")
    }
}

impl TestReport {
    /// The stage named `name`, created if missing.
    pub(crate) fn stage_mut(&mut self, name: &str) -> &mut Stage {
        if let Some(i) = self.stages.iter().position(|s| s.name == name) {
            return &mut self.stages[i];
        }
        self.stages.push(Stage {
            name: name.into(),
            ..Stage::default()
        });
        self.stages.last_mut().expect("just pushed")
    }

    /// The stage named `name`, if any.
    pub fn stage(&self, name: &str) -> Option<&Stage> {
        self.stages.iter().find(|s| s.name == name)
    }
}

impl Round {
    /// The cell labelled `label`.
    pub fn cell(&self, label: &str) -> Option<&Cell> {
        self.cells.iter().find(|c| c.stimulus.label == label)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(serial: &str) -> Header {
        Header {
            model: "PX02SMF080".into(),
            serial: serial.into(),
            wwn: Some("5000039".into()),
            ..Header::default()
        }
    }

    #[test]
    fn save_load_round_trip_and_refusals() {
        let d = tempfile::tempdir().unwrap();
        let mut r = Report {
            format: FORMAT.into(),
            version: VERSION,
            suite: "pts".into(),
            created: "t".into(),
            updated: "t".into(),
            complete: false,
            state: "running".into(),
            header: header("A1"),
            settings: Settings::default(),
            write_cache: WriteCache::default(),
            tests: vec![],
            notes: vec![],
        };
        r.test_mut("iops").stage_mut("wdpc").rounds.push(Round {
            round: 1,
            tracking: Some(5.0),
            ..Round::default()
        });
        r.save(d.path()).unwrap();
        let back = Report::load(d.path()).unwrap();
        assert_eq!(back.tests[0].stages[0].rounds[0].tracking, Some(5.0));
        back.check_same_drive(&header("A1")).unwrap();
        let e = back.check_same_drive(&header("B2")).unwrap_err();
        assert!(matches!(e, Error::Refused(_)), "{e}");
        assert!(e.to_string().contains("another drive"));
        // Not a report / wrong version.
        std::fs::write(Report::path(d.path()), b"{\"format\":\"x\"}").unwrap();
        assert!(Report::load(d.path()).is_err());
        std::fs::write(
            Report::path(d.path()),
            format!("{{\"format\":\"{FORMAT}\",\"version\":99}}"),
        )
        .unwrap();
        assert!(Report::load(d.path())
            .unwrap_err()
            .to_string()
            .contains("version 99"));
    }
}
