//! `sgctl bench pts DEVICE --test ...` and `sgctl bench review DEVICE`: the SNIA
//! PTS tests and the reviewers' tests, with purge, write-cache handling, steady state,
//! progress, Ctrl-C safety and `--resume`. The suites live in [`crate::bench::suite`]; this
//! file opens the drive, runs the gate and renders the summary.

use super::{Ctx, Report};
use crate::bench::report::suite::{self as rep, Header, Report as BenchReport, Settings};
use crate::bench::suite::cache::{self, WriteCache};
use crate::bench::suite::defs::TestId;
use crate::bench::suite::driver::{ActiveRange, Driver, RunSettings};
use crate::bench::suite::engine_driver::EngineDriver;
use crate::bench::suite::purge::{self, PurgeMethod, PurgeRecord};
use crate::bench::suite::runner::{is_interrupted, Control, Progress, Suite};
use crate::bench::suite::{pts, review, steady};
use crate::bench::{Authorization, EngineKind};
use crate::error::{Error, Result};
use crate::ops::poll::PollConfig;
use crate::ops::safety::{self, AuditLog, Cleared, Confirmation, DiscoverHost, DriveName};
use crate::transport::Transport;
use std::fmt::Write as _;
use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

/// Options both suites take.
#[derive(Debug, Clone, clap::Args)]
pub struct SuiteArgs {
    /// The drive (destroyed: every test writes the whole ActiveRange).
    #[arg(value_name = "DEVICE")]
    pub device: String,
    /// Purge method before each test, named as `sanitize --method`: auto (block > crypto >
    /// overwrite > format: a block erase returns the flash to its fresh-out-of-box state),
    /// crypto, block, overwrite, format, or none (the report then says NOT PURGED).
    #[arg(long, value_enum, default_value = "auto")]
    pub purge: PurgeMethod,
    /// Serial number or WWN naming the drive.
    #[arg(long = "confirm", value_name = "SERIAL|WWN")]
    pub confirm: Vec<String>,
    /// Threads (TC, what `bench run` calls --jobs); TOIO = TC × QD.
    #[arg(long, visible_alias = "jobs", default_value_t = 1)]
    pub tc: u32,
    /// Queue depth per thread (QD).
    #[arg(long, default_value_t = 32)]
    pub qd: u32,
    /// ActiveRange in percent of the capacity (PTS-E: 100; a smaller one is reported).
    #[arg(long, value_name = "PCT", default_value_t = 100.0, value_parser = super::num::percent_positive)]
    pub active_range: f64,
    /// Most WDPC rounds before "steady state not reached".
    #[arg(long, default_value_t = steady::DEFAULT_MAX_ROUNDS)]
    pub max_rounds: u32,
    /// Report directory (report.json, purge certificates) [default: ./sgctl-bench-SERIAL-TIME].
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
    /// Continue the run saved in DIR from its last completed round (same drive only; a sim:
    /// drive needs the run's state=FILE).
    #[arg(long, value_name = "DIR", conflicts_with = "report")]
    pub resume: Option<PathBuf>,
    /// Engine: auto, uring, sg, sim.
    #[arg(long, default_value = "auto")]
    pub engine: String,
    /// Drive seconds per PTS second (0 < F ≤ 1): short rounds for a trial run. On a
    /// capacity-scaled sim: drive the default is its capacity over the profile's.
    #[arg(long, value_name = "F", value_parser = super::num::fraction_positive)]
    pub time_scale: Option<f64>,
    /// Write cache during the run: disabled (PTS-E), enabled (PTS-C) or unchanged.
    #[arg(long, value_parser = ["disabled", "enabled", "unchanged"], default_value = "disabled")]
    pub write_cache: String,
    /// Audit log [default: $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl].
    #[arg(long, value_name = "FILE")]
    pub audit_log: Option<PathBuf>,
    /// Progress as JSON Lines on stderr.
    #[arg(long)]
    pub progress_json: bool,
    /// Hold the CPUs' idle wake-up latency at most US microseconds for the whole run (a PM
    /// QoS request on /dev/cpu_dma_latency, root only; 0: idle CPUs poll), as `bench run
    /// --cpu-latency` does; the report's notes name the limit. Not on a sim: drive.
    #[arg(long, value_name = "US")]
    pub cpu_latency: Option<u32>,
}

/// `sgctl bench pts`.
#[derive(Debug, clap::Args)]
#[command(after_help = PTS_HELP)]
pub struct PtsArgs {
    /// Tests (comma-separated or repeated): iops, tp, lat, wsat, hir, xsr, ecw, dirth, all.
    #[arg(
        long = "test",
        value_delimiter = ',',
        required_unless_present = "resume"
    )]
    pub tests: Vec<String>,
    /// Common options.
    #[command(flatten)]
    pub common: SuiteArgs,
}

/// `sgctl bench review`.
#[derive(Debug, clap::Args)]
#[command(after_help = REVIEW_HELP)]
pub struct ReviewArgs {
    /// Parts to run (default all): write_cliff, qd_sweep, basics, profiles, op.
    #[arg(long = "part", value_delimiter = ',')]
    pub parts: Vec<String>,
    /// Over-provisioning experiment: capacity left unused, percent.
    #[arg(long, default_value_t = 20.0, value_parser = super::num::percent)]
    pub op_extra: f64,
    /// Common options.
    #[command(flatten)]
    pub common: SuiteArgs,
}

const PTS_HELP: &str = "\
SNIA PTS-E 1.1 / PTS 2.0 tests. Each test: PURGE (the same job as `sgctl sanitize`/`format`,
certificate in the report directory) -> WIPC (2 x capacity of 128 KiB sequential writes; TP
with its own block size) -> WDPC rounds until steady state (5-round window: data excursion
<= 20 % and slope excursion <= 10 % of the average, at most --max-rounds) -> the tables.
  iops   7 R/W mixes x 8 block sizes (56 cells of 1 min), tracking 4K random write
  tp     128 KiB and 1024 KiB sequential read/write
  lat    TC1/QD1, 0.5/4/8 KiB x 100/0, 65/35, 0/100: ART, MRT, 5 9s
  wsat   4K random write from FOB until 4 x capacity or 24 h
  hir    host idle recovery: 5-s bursts with 5..50 s idle, 1800 s baselines
  xsr    8 h SEQ 1024K W -> 6 h RND 8K W -> 8 h SEQ 1024K W (TC1/QD32)
  ecw    JEDEC JESD219 mix, TC x QD sweep, Max/Mid/Min IOPS histograms
  dirth  4K random write TC x QD sweep, Max/Mid/Min IOPS histograms
The write cache is disabled (WCE=0 in the Caching mode page, read back) and restored at the
end, also after an error or Ctrl-C. Ctrl-C keeps the completed rounds in DIR/report.json;
`--resume DIR` continues the saved tests with the saved settings (refused on another drive,
and refused with exit 2 when --test names another set, or on a sim: drive without
state=FILE, which would be a fresh drive). On a sim: drive scaled down with
capacity_gib the durations scale with the capacity, so each round writes the drive as often.
EXAMPLES:
  sgctl bench pts 'sim:px02smf080?capacity_gib=1' --test iops --confirm <SERIAL>
  sgctl bench pts /dev/sdb --test iops,tp,lat --purge crypto --confirm <SERIAL> --report r1
  sgctl bench pts /dev/sdb --resume r1
EXIT STATUS: 0 done; 1 interrupted (resume with --resume DIR); 2 bad option; 4 the device
failed; 6 refused (in use, --confirm, --resume of another drive); 7 purge method not
supported (the message lists the methods the drive has).";

const REVIEW_HELP: &str = "\
What enterprise SSD reviews show: write_cliff (purge, FOB 4K random write at QD32, then
rounds of 1/4 capacity with 1-second samples until steady state), qd_sweep (4K random read
and write, QD 1..256, 5 min each, average and 99.99 % latency, the knee), basics (4K/8K
random, 128K sequential at QD32), profiles (database 8K 67/33, email 32K 68/32, file server,
web server; QD 1..256), op (FORMAT UNIT to 100 - --op-extra % of the capacity, FOB -> steady
state again, the gain, then FORMAT UNIT back to the full capacity — also after Ctrl-C).";

/// Runs `sgctl bench pts`.
pub fn run_pts(ctx: &mut Ctx, a: PtsArgs) -> anyhow::Result<Report> {
    let mut tests = Vec::new();
    for t in &a.tests {
        if t == "all" {
            tests.extend(TestId::ALL);
        } else {
            tests.push(TestId::parse(t).ok_or_else(|| {
                Error::InvalidArgument(format!(
                    "--test {t}: expected iops, tp, lat, wsat, hir, xsr, ecw, dirth or all"
                ))
            })?);
        }
    }
    tests.dedup();
    let names: Vec<String> = tests.iter().map(|t| t.name().to_string()).collect();
    let given = !names.is_empty();
    run_suite(ctx, &a.common, "pts", names, given, 0.0)
}

/// Runs `sgctl bench review`.
pub fn run_review(ctx: &mut Ctx, a: ReviewArgs) -> anyhow::Result<Report> {
    let parts: Vec<String> = if a.parts.is_empty() {
        review::PARTS.iter().map(|p| p.to_string()).collect()
    } else {
        for p in &a.parts {
            if !review::PARTS.contains(&p.as_str()) {
                return Err(Error::InvalidArgument(format!(
                    "--part {p}: expected one of {}",
                    review::PARTS.join(", ")
                ))
                .into());
            }
        }
        a.parts.clone()
    };
    if !(0.0..90.0).contains(&a.op_extra) {
        return Err(Error::InvalidArgument("--op-extra must be in [0, 90)".into()).into());
    }
    run_suite(
        ctx,
        &a.common,
        "review",
        parts,
        !a.parts.is_empty(),
        a.op_extra,
    )
}

/// The drive's control path (purge, FORMAT UNIT) under the bench's gate clearance.
struct DriveControl<'a> {
    t: Box<dyn Transport>,
    cleared: &'a Cleared,
    poll: PollConfig,
    /// Polls that must finish even after Ctrl-C (returning the drive to full capacity).
    poll_always: PollConfig,
    dir: PathBuf,
    n: u32,
}

impl Control for DriveControl<'_> {
    fn purge(&mut self, m: PurgeMethod) -> Result<PurgeRecord> {
        self.n += 1;
        let cert = self.dir.join(format!("purge-{}.json", self.n));
        let mut last = -1.0;
        purge::run(
            &mut *self.t,
            m,
            self.cleared,
            &self.poll,
            Some(&cert),
            &mut |p| {
                if let Some(p) = p {
                    if p - last >= 10.0 {
                        last = p;
                        super::output::err_line(&format!("sgctl: bench: purge {p:.0} %"));
                    }
                }
            },
        )
    }

    fn format_capacity(&mut self, pct: Option<u8>) -> Result<(u64, PurgeRecord)> {
        self.n += 1;
        let poll = if pct.is_none() {
            &self.poll_always
        } else {
            &self.poll
        };
        let rec = purge::format_capacity(&mut *self.t, pct, self.cleared, poll, &mut |_| {})?;
        let cert = self.dir.join(format!("format-{}.json", self.n));
        crate::ops::record::write_certificate(&cert, std::slice::from_ref(&rec))?;
        let ok = rec.outcome == crate::ops::record::Outcome::Success;
        let cap = crate::ops::query::read_capacity16(&mut *self.t)?;
        let pr = PurgeRecord {
            requested: "format".into(),
            method: rec.method.map(|m| m.name().to_string()),
            purged: ok,
            status: format!(
                "FORMAT UNIT to {}: {} ({} bytes)",
                pct.map(|p| format!("{p} %"))
                    .unwrap_or_else(|| "full capacity".into()),
                rec.outcome,
                cap.bytes()
            ),
            started: rec.started.clone(),
            duration_s: rec.duration_s,
            job: serde_json::to_value(&rec).ok(),
            certificate: cert.file_name().map(|n| n.to_string_lossy().into_owned()),
            audit_log: Some(self.cleared.audit_path().display().to_string()),
        };
        if !ok {
            return Err(Error::CheckFailed(format!(
                "FORMAT UNIT {}: {}",
                rec.outcome,
                rec.message.unwrap_or_default()
            )));
        }
        Ok((cap.bytes(), pr))
    }
}

fn uname_r() -> String {
    std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .map(|s| s.trim().to_string())
        .unwrap_or_default()
}

/// Time scale of a `sim:` drive scaled down with capacity_gib/capacity_blocks: its capacity
/// over the profile's.
#[cfg(feature = "sim")]
fn sim_time_scale(addr: &str, capacity: u64) -> Option<f64> {
    let spec = crate::device::classify(addr).virtual_spec()?;
    let (p, o) = crate::sim::parse_spec(spec.as_str()).ok()?;
    o.capacity_bytes?;
    let full = p.capacity_bytes.max(1) as f64;
    let f = capacity as f64 / full;
    (f < 1.0).then_some(f)
}

/// Built without the virtual drive: no `sim:` drive, no time scale.
#[cfg(not(feature = "sim"))]
fn sim_time_scale(_addr: &str, _capacity: u64) -> Option<f64> {
    None
}

/// Opens the engine and the control transport on the same drive, after the gate.
fn open_drive(
    addr: &str,
    kind: EngineKind,
    auth: &Authorization,
    verbose: u8,
    interrupted: &Arc<AtomicBool>,
) -> Result<(EngineDriver, Box<dyn Transport>, PollConfig, PollConfig)> {
    let interval = Duration::from_secs(5);
    // Without the `sim` feature a `sim:` address goes on to `bench::open`, which refuses it.
    #[cfg(feature = "sim")]
    if crate::device::is_virtual_address(addr) {
        if !matches!(kind, EngineKind::Auto | EngineKind::Sim) {
            return Err(Error::InvalidArgument(format!(
                "{addr}: a virtual drive runs only with --engine sim (or auto)"
            )));
        }
        // The engine and the control path must share one drive: the control handle is a
        // second handle of the engine's own virtual drive.
        let eng = crate::bench::sim::SimEngine::open(addr, true).map_err(bench_open)?;
        let dev = eng.device().port(eng.device().relative_port());
        let clock = dev.clock();
        let c2 = clock.clone();
        let c3 = clock.clone();
        let mut poll = PollConfig::real(interval, interrupted.clone());
        poll.sleep = Arc::new(move |d: Duration| clock.advance(d.max(Duration::from_secs(1))));
        let mut always = PollConfig::real(interval, Arc::new(AtomicBool::new(false)));
        always.sleep = Arc::new(move |d: Duration| c2.advance(d.max(Duration::from_secs(1))));
        let idle = Box::new(move |s: f64| c3.advance(Duration::from_secs_f64(s.max(0.0))));
        let t: Box<dyn Transport> = if verbose == 0 {
            Box::new(dev)
        } else {
            Box::new(crate::transport::trace::Traced::new(Box::new(dev), verbose))
        };
        return Ok((EngineDriver::new(Box::new(eng), idle), t, poll, always));
    }
    let eng = crate::bench::open(addr, kind, Some(auth)).map_err(bench_open)?;
    let t = crate::device::open_with(addr, verbose)?;
    let poll = PollConfig::real(interval, interrupted.clone());
    let always = PollConfig::real(interval, Arc::new(AtomicBool::new(false)));
    let flag = interrupted.clone();
    let idle = Box::new(move |s: f64| {
        let end = std::time::Instant::now() + Duration::from_secs_f64(s.max(0.0));
        while std::time::Instant::now() < end && !flag.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(50));
        }
    });
    Ok((EngineDriver::new(eng, idle), t, poll, always))
}

fn bench_open(e: crate::bench::BenchError) -> Error {
    match e {
        crate::bench::BenchError::Open(e) => e,
        crate::bench::BenchError::InvalidArgument(m) => Error::InvalidArgument(m),
        crate::bench::BenchError::Unsupported(m) => Error::Unsupported(m),
        crate::bench::BenchError::Refused(m) => {
            Error::Refused(crate::error::Refusal::Benchmark { reason: m })
        }
        crate::bench::BenchError::Session(e) => e,
        other => Error::io(other.to_string(), std::io::Error::other("engine")),
    }
}

fn want_cache(s: &str) -> Option<bool> {
    match s {
        "enabled" => Some(true),
        "unchanged" => None,
        _ => Some(false),
    }
}

#[allow(clippy::too_many_lines)]
fn run_suite(
    ctx: &mut Ctx,
    a: &SuiteArgs,
    suite: &str,
    parts: Vec<String>,
    parts_given: bool,
    op_extra: f64,
) -> anyhow::Result<Report> {
    if a.tc == 0 || a.tc > 256 || a.qd == 0 || a.qd > 4096 {
        return Err(Error::InvalidArgument("--tc must be 1..=256 and --qd 1..=4096".into()).into());
    }
    if !(a.active_range > 0.0 && a.active_range <= 100.0) {
        return Err(Error::InvalidArgument("--active-range must be in (0, 100]".into()).into());
    }
    if let Some(f) = a.time_scale {
        if !(f > 0.0 && f <= 1.0) {
            return Err(Error::InvalidArgument("--time-scale must be in (0, 1]".into()).into());
        }
    }
    let kind = EngineKind::parse(&a.engine).map_err(Error::InvalidArgument)?;
    let addr = a.device.clone();
    // Held from here to the end of the run (dropped on every return), before the gate: a
    // limit that cannot be set (not root: exit 7) never reaches the drive or the audit log.
    let qos = crate::bench::qos::CpuLatency::for_run(
        a.cpu_latency,
        crate::device::is_virtual_address(&addr),
    )
    .map_err(super::bench::bench_err)?;
    // A report to resume, checked against the drive below.
    let resumed = match &a.resume {
        Some(d) => Some(BenchReport::load(d)?),
        None => None,
    };
    if let Some(r) = &resumed {
        // A virtual drive without a state file is a fresh drive on every open: "resuming"
        // on it would measure the remaining tests on a drive that never saw the saved run's
        // purge, preconditioning and rounds.
        if let Some(v) = crate::device::classify(&addr).virtual_spec() {
            if !v.options().any(|(k, _)| k == "state") {
                return Err(Error::InvalidArgument(format!(
                    "{addr}: --resume on a virtual drive without state=FILE would continue the \
                     saved run on a fresh drive (it keeps nothing between runs); run and resume \
                     with the same state file (sim:PROFILE?...&state=FILE)"
                ))
                .into());
            }
        }
        if r.suite != suite {
            return Err(Error::InvalidArgument(format!(
                "{}: a `bench {}` report cannot be resumed by `bench {suite}`",
                a.resume
                    .as_ref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default(),
                r.suite
            ))
            .into());
        }
        // --resume continues exactly the saved run's tests: another set is refused (exit 2)
        // rather than silently ignored or mixed into a report made with other settings.
        let mut want = parts.clone();
        let mut have = r.settings.tests.clone();
        want.sort();
        want.dedup();
        have.sort();
        have.dedup();
        if parts_given && want != have {
            let what = if suite == "pts" { "--test" } else { "--part" };
            return Err(Error::InvalidArgument(format!(
                "{}: the saved run is of {what} {}; --resume continues exactly those \
                 (omit {what}, or start a new report for {})",
                a.resume
                    .as_ref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default(),
                r.settings.tests.join(","),
                parts.join(",")
            ))
            .into());
        }
    }

    // Identity (read-only), then the gate: in-use on every path, --confirm, audit.
    let (id, cap) = {
        let mut t = crate::device::open_with(&addr, 0)?;
        let id = crate::ops::query::identity(&mut *t)?;
        let cap = crate::ops::query::read_capacity16(&mut *t)?;
        (id, cap)
    };
    let header = Header {
        address: addr.clone(),
        vendor: id.vendor.clone(),
        model: id.model.clone(),
        serial: id.serial.clone(),
        firmware: id.firmware.clone(),
        wwn: id.wwn.clone(),
        capacity_bytes: cap.bytes(),
        block_len: cap.block_len,
        protection_type: if cap.prot_en { cap.p_type + 1 } else { 0 },
        interface: if crate::device::is_virtual_address(&addr) {
            "virtual SAS SSD (sgctl sim)".into()
        } else {
            "SAS/SCSI".into()
        },
        engine: String::new(),
        host: safety::hostname(),
        kernel: uname_r(),
        tool: format!(
            "sgctl {} ({})",
            env!("CARGO_PKG_VERSION"),
            env!("SGCTL_GIT_REV")
        ),
    };
    if let Some(r) = &resumed {
        r.check_same_drive(&header)?;
    }
    let confirmation = Confirmation {
        tokens: a.confirm.clone(),
        interactive: a.confirm.is_empty() && !ctx.json && std::io::stdin().is_terminal(),
    };
    let cleared = safety::clear(
        &DiscoverHost,
        safety::GateRequest {
            job: if suite == "pts" {
                "bench-pts"
            } else {
                "bench-review"
            },
            address: &addr,
            name: &DriveName {
                serial: id.serial.clone(),
                wwn: id.wwn.clone(),
            },
            confirmation: &confirmation,
            audit: AuditLog::resolve(a.audit_log.as_deref()),
        },
        &mut safety::TtyPrompter::default(),
    )?;
    let auth = Authorization::from_cleared(&cleared, &addr);
    let interrupted = Arc::new(AtomicBool::new(false));
    let (mut driver, mut t, poll, poll_always) =
        open_drive(&addr, kind, &auth, ctx.verbose, &interrupted)?;

    // Purge method: resolved against what the drive has (exit 7 listing them).
    let purge_method = match &resumed {
        Some(r) => serde_json::from_value(serde_json::json!(r.settings.purge)).unwrap_or(a.purge),
        None => a.purge,
    };
    let purge_resolved = purge::resolve(&mut *t, purge_method)?;

    let dir = match (&a.resume, &a.report) {
        (Some(d), _) | (None, Some(d)) => d.clone(),
        (None, None) => PathBuf::from(format!(
            "sgctl-bench-{}-{}",
            id.serial.trim().replace(['/', ' '], "_"),
            SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0)
        )),
    };
    std::fs::create_dir_all(&dir)
        .map_err(|e| Error::io(format!("creating {}", dir.display()), e))?;

    let capacity = cap.bytes();
    let bl = u64::from(cap.block_len.max(1));
    let time_scale = a
        .time_scale
        .or_else(|| sim_time_scale(&addr, capacity))
        .unwrap_or(1.0);
    let scale_reason = if a.time_scale.is_some() {
        Some(format!(
            "--time-scale {time_scale}: every duration is {time_scale} x the PTS one (a trial run, not a PTS result)"
        ))
    } else if time_scale < 1.0 {
        Some(format!(
            "the virtual drive is scaled to {:.3} % of the profile's capacity; durations scale with it so every round writes the drive as many times as on the full-size drive",
            100.0 * time_scale
        ))
    } else {
        None
    };
    let len = ((capacity as f64 * a.active_range / 100.0) as u64) / bl * bl;
    let range = ActiveRange {
        offset_bytes: 0,
        len_bytes: len.max(bl),
    };

    let mut report = match resumed {
        Some(r) => r,
        None => BenchReport {
            format: rep::FORMAT.into(),
            version: rep::VERSION,
            suite: suite.into(),
            created: safety::rfc3339(SystemTime::now()),
            updated: String::new(),
            complete: false,
            state: "running".into(),
            header: Header {
                engine: driver.engine(),
                ..header.clone()
            },
            settings: Settings {
                tests: parts.clone(),
                tc: a.tc,
                qd: a.qd,
                toio: a.tc * a.qd,
                active_range_pct: a.active_range,
                active_range: Some(range),
                max_rounds: a.max_rounds,
                purge: a.purge.name().into(),
                data_pattern: "random (incompressible, scrambled per I/O)".into(),
                time_scale,
                time_scale_reason: scale_reason.clone(),
                op_extra_pct: (suite == "review").then_some(op_extra),
            },
            write_cache: WriteCache::default(),
            tests: vec![],
            notes: vec![],
        },
    };
    if let Some(r) = &scale_reason {
        if !report.notes.contains(r) {
            report.notes.push(r.clone());
        }
    }
    if a.active_range < 100.0 {
        let n = format!(
            "ActiveRange {} % of the capacity (PTS-E requires 100 %)",
            a.active_range
        );
        if !report.notes.contains(&n) {
            report.notes.push(n);
        }
    }
    if let Some(q) = &qos {
        let n = q.note();
        if !report.notes.contains(&n) {
            report.notes.push(n);
        }
    }
    if purge_resolved == PurgeMethod::None {
        let n = "NOT PURGED: the drive was not purged before the tests (--purge none)".to_string();
        if !report.notes.contains(&n) {
            report.notes.push(n);
        }
    }
    let settings = report.settings.clone();
    let run = RunSettings {
        range: settings.active_range.unwrap_or(range),
        tc: settings.tc,
        qd: settings.qd,
        time_scale: settings.time_scale,
        // One sample per (scaled) second, at least the engine's 10 ms.
        log_interval_s: settings.time_scale.max(0.01),
    };
    let parts = settings.tests.clone();
    let op_extra = settings.op_extra_pct.unwrap_or(op_extra);

    cleared.record_start(serde_json::json!({
        "drive": header, "suite": suite, "settings": settings, "report_dir": dir,
    }))?;
    if !cfg!(test) {
        let _ = signal_hook::flag::register(signal_hook::consts::SIGINT, interrupted.clone());
    }

    // Write cache per the spec, restored on every path below.
    let mut wc = match cache::prepare(&mut *t, want_cache(&a.write_cache)) {
        Ok(w) => w,
        Err(e) => {
            let _ = cleared.record_end("failed", serde_json::json!({"message": e.to_string()}));
            return Err(e.into());
        }
    };
    // On resume keep the WCE state found at the first start (the drive may still be WCE=0
    // if the first run could not restore it).
    if report.write_cache.wce_before.is_some() && report.write_cache.wce_before != wc.wce_before {
        wc.wce_before = report.write_cache.wce_before;
        wc.restored = false;
    }
    report.write_cache = wc;
    report.state = "running".into();

    let mut control = DriveControl {
        t,
        cleared: &cleared,
        poll,
        poll_always,
        dir: dir.clone(),
        n: report
            .tests
            .iter()
            .flat_map(|t| &t.stages)
            .filter(|s| s.purge.is_some())
            .count() as u32,
    };
    let progress = Progress::new(a.progress_json, false);
    let mut s = Suite::new(
        &mut driver,
        &mut control,
        report,
        dir.clone(),
        run,
        settings.max_rounds,
        purge_resolved,
        interrupted.clone(),
        progress,
    );
    let _ = s.save();
    let mut result: Result<()> = Ok(());
    for p in &parts {
        result = if suite == "pts" {
            match TestId::parse(p) {
                Some(tid) => pts::run(&mut s, tid),
                None => Err(Error::InvalidArgument(format!("unknown test {p}"))),
            }
        } else {
            review::run(&mut s, p, op_extra)
        };
        if let Err(e) = &result {
            let st = if is_interrupted(e) {
                "interrupted".to_string()
            } else {
                format!("failed: {e}")
            };
            s.report.test_mut(p).state = st;
            break;
        }
    }
    // The drive back to full capacity (OP experiment), then the write cache — always.
    let mut cleanup = Vec::new();
    if suite == "review" {
        if let Err(e) = review::restore_capacity(&mut s) {
            cleanup.push(format!("returning the drive to full capacity failed: {e}"));
        }
    }
    let mut report = std::mem::replace(&mut s.report, empty_report());
    drop(s);
    if let Err(e) = cache::restore(&mut *control.t, &mut report.write_cache) {
        cleanup.push(format!("restoring the write cache failed: {e}"));
    }
    let state = match &result {
        Ok(()) => "complete".to_string(),
        Err(e) if is_interrupted(e) => "interrupted".to_string(),
        Err(e) => format!("failed: {e}"),
    };
    report.complete = result.is_ok();
    report.state = state.clone();
    report.notes.extend(cleanup.iter().cloned());
    report.save(&dir)?;
    let _ = cleared.record_end(
        if result.is_ok() { "success" } else { "failed" },
        serde_json::json!({"state": state, "report_dir": dir}),
    );
    for c in &cleanup {
        ctx.warn(c.clone());
    }

    let exit = match &result {
        Ok(()) if cleanup.is_empty() => crate::exit::OK,
        Ok(()) => crate::exit::OTHER,
        Err(e) if is_interrupted(e) => crate::exit::OTHER,
        Err(_) if driver.device_failed.is_some() => crate::exit::COMMAND,
        Err(e) => e.exit_code(),
    };
    if let Err(e) = &result {
        if !is_interrupted(e) && driver.device_failed.is_none() && exit != crate::exit::OTHER {
            // Refusals and unsupported methods after the gate: the report is saved; say so.
            ctx.warn(format!("report saved in {}", dir.display()));
            return Err(anyhow::Error::from(clone_err(e)));
        }
        ctx.warn(match e {
            e if is_interrupted(e) => format!(
                "interrupted: completed rounds saved; continue with --resume {}",
                dir.display()
            ),
            e => format!("{e}; report saved in {}", dir.display()),
        });
    }
    // The terminal summary is computed from the report document by the function `bench run`
    // and `bench compare` use (crate::bench::report::summary).
    let mut text =
        crate::bench::report::summary::text(&serde_json::to_value(&report).unwrap_or_default());
    let _ = writeln!(
        text,
        "\nreport: {} ({})",
        BenchReport::path(&dir).display(),
        report.state
    );
    let data = summary(&report, &dir);
    Ok(Report::new(Some(&addr), &data, text).with_exit(exit))
}

fn clone_err(e: &Error) -> Error {
    match e {
        Error::Unsupported(m) => Error::Unsupported(m.clone()),
        Error::Refused(m) => Error::Refused(m.clone()),
        Error::InvalidArgument(m) => Error::InvalidArgument(m.clone()),
        other => Error::CheckFailed(other.to_string()),
    }
}

fn empty_report() -> BenchReport {
    BenchReport {
        format: String::new(),
        version: 0,
        suite: String::new(),
        created: String::new(),
        updated: String::new(),
        complete: false,
        state: String::new(),
        header: Header::default(),
        settings: Settings::default(),
        write_cache: WriteCache::default(),
        tests: vec![],
        notes: vec![],
    }
}

/// The `--json` data: where the report is and each test's results (series left in the file).
fn summary(r: &BenchReport, dir: &Path) -> serde_json::Value {
    let tests: Vec<serde_json::Value> = r
        .tests
        .iter()
        .map(|t| {
            let purge: Vec<&PurgeRecord> =
                t.stages.iter().filter_map(|s| s.purge.as_ref()).collect();
            let mut res = t.results.clone();
            if let Some(o) = res.as_object_mut() {
                o.remove("series");
                if let Some(ws) = o.get_mut("wait_states").and_then(|w| w.as_array_mut()) {
                    for w in ws {
                        if let Some(w) = w.as_object_mut() {
                            w.remove("burst_iops");
                            w.remove("baseline_iops");
                        }
                    }
                }
                o.remove("segments");
            }
            serde_json::json!({"test": t.test, "state": t.state,
                "purge": purge.iter().map(|p| &p.status).collect::<Vec<_>>(),
                "results": res, "notes": t.notes})
        })
        .collect();
    serde_json::json!({
        "report_dir": dir, "report_file": BenchReport::path(dir), "report_format": r.format,
        "report_version": r.version, "state": r.state, "complete": r.complete,
        "header": r.header, "settings": r.settings, "write_cache": r.write_cache,
        "notes": r.notes, "tests": tests,
    })
}
