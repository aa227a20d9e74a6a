//! A `bench pts` or `bench review` session below the command line: the drive's identity
//! (read once, handed to the report header), the safety gate and the audit records
//! ([`crate::ops::session`]), the engine and the control path on one drive, the write cache
//! set and restored, the suite's tests, `--resume`, and the report directory.
//!
//! The caller hands in typed options ([`SuiteOptions`]) and what the session needs from the
//! outside world ([`SuiteEnv`]); the result ([`SuiteOutcome`]) holds the report document and
//! how the run ended, for the caller to word.

use crate::bench::report::suite::{self as rep, Header, Report as BenchReport, Settings};
use crate::bench::suite::cache::{self, WriteCache};
use crate::bench::suite::defs::TestId;
use crate::bench::suite::driver::{ActiveRange, Driver, RunSettings};
use crate::bench::suite::engine_driver::EngineDriver;
use crate::bench::suite::purge::{self, PurgeMethod, PurgeRecord};
use crate::bench::suite::runner::{is_interrupted, Control, Progress, Suite};
use crate::bench::suite::{pts, review};
use crate::bench::{Authorization, EngineKind};
use crate::error::{Error, Result};
use crate::host::HostView;
use crate::ops::audit::AuditLog;
use crate::ops::gate;
use crate::ops::gate::{Cleared, Confirmation, DriveName, Prompter};
use crate::ops::poll::PollConfig;
use crate::ops::session::Started;
use crate::transport::Transport;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

/// Which suite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SuiteKind {
    /// The SNIA PTS tests (`bench pts`).
    Pts,
    /// The reviewers' tests (`bench review`).
    Review,
}

impl SuiteKind {
    /// `pts` or `review`, as the report's `suite` says.
    pub fn name(self) -> &'static str {
        match self {
            SuiteKind::Pts => "pts",
            SuiteKind::Review => "review",
        }
    }
}

/// What to run: typed values (the CLI parses its flags into these).
#[derive(Debug, Clone)]
pub struct SuiteOptions {
    /// The drive (destroyed: every test writes the whole ActiveRange).
    pub device: String,
    /// Which suite.
    pub suite: SuiteKind,
    /// The PTS tests ([`TestId::name`]) or the review parts ([`review::PARTS`]), in order.
    pub parts: Vec<String>,
    /// Whether the parts were named (a resumed run refuses another set).
    pub parts_given: bool,
    /// Over-provisioning experiment: capacity left unused, percent (review).
    pub op_extra: f64,
    /// Purge method before each test.
    pub purge: PurgeMethod,
    /// Serials or WWNs naming the drive.
    pub confirm: Vec<String>,
    /// Threads (TC).
    pub tc: u32,
    /// Queue depth per thread (QD).
    pub qd: u32,
    /// ActiveRange in percent of the capacity.
    pub active_range: f64,
    /// Most WDPC rounds before "steady state not reached".
    pub max_rounds: u32,
    /// Report directory [default: `./sgctl-bench-SERIAL-TIME`].
    pub report: Option<PathBuf>,
    /// Continue the run saved in this directory.
    pub resume: Option<PathBuf>,
    /// Engine.
    pub engine: EngineKind,
    /// Drive seconds per PTS second (a trial run).
    pub time_scale: Option<f64>,
    /// The write cache during the run: `Some(false)` disabled (PTS-E), `Some(true)` enabled
    /// (PTS-C), `None` unchanged.
    pub write_cache: Option<bool>,
    /// Hold the CPUs' idle wake-up latency at most this many microseconds for the run.
    pub cpu_latency: Option<u32>,
    /// `-v` level for the control path's command trace.
    pub verbose: u8,
}

/// What a suite needs from the outside world (as the job layer's `JobEnv`).
pub struct SuiteEnv<'a> {
    /// The host view for the gate's in-use check.
    pub host: &'a dyn HostView,
    /// Asks for the typed confirmation when `confirm` is empty.
    pub prompter: &'a mut dyn Prompter,
    /// Whether a person can be asked.
    pub interactive: bool,
    /// Where the start and end records go.
    pub audit: AuditLog,
    /// Stage, round and cell progress.
    pub progress: Progress,
    /// Each purge's progress, percent (every 10 %).
    pub purge_progress: &'a dyn Fn(f64),
}

/// How a suite ended.
#[derive(Debug)]
pub struct SuiteOutcome {
    /// The report document, as saved.
    pub report: BenchReport,
    /// The report directory.
    pub dir: PathBuf,
    /// How the tests ended (`Ok`: every test ran to its end).
    pub result: Result<()>,
    /// What returning the drive to its state failed at (full capacity, the write cache).
    pub cleanup: Vec<String>,
}

/// The drive's control path (purge, FORMAT UNIT) under the bench's gate clearance.
struct DriveControl<'a> {
    t: Box<dyn Transport>,
    cleared: &'a Cleared,
    /// Each purge's progress, percent.
    purge_progress: &'a dyn Fn(f64),
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
                        (self.purge_progress)(p);
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
    let spec = crate::device::classify_address(addr).virtual_spec()?;
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

/// The drive as read before the gate, with read-only commands: its identity and capacity
/// (the report header; read once, here, and handed on) and, for a device node, the handle
/// they were read through, kept as the control path so the drive is not opened again.
struct Identified {
    header: Header,
    name: DriveName,
    capacity: u64,
    block_len: u32,
    /// `None` for a `sim:` drive: its control path is a port of the engine's own drive.
    control: Option<Box<dyn Transport>>,
}

/// Reads the drive's identity and capacity (INQUIRY, VPD, READ CAPACITY(16)).
fn identify(addr: &str, verbose: u8) -> Result<Identified> {
    let mut t = crate::device::open(addr, crate::device::OpenOptions::traced(verbose))?.transport;
    let id = crate::ops::query::identity(&mut *t)?;
    let cap = crate::ops::query::read_capacity16(&mut *t)?;
    let header = Header {
        address: addr.to_string(),
        vendor: id.vendor.clone(),
        model: id.model.clone(),
        serial: id.serial.clone(),
        firmware: id.firmware.clone(),
        wwn: id.wwn.clone(),
        capacity_bytes: cap.bytes(),
        block_len: cap.block_len,
        protection_type: if cap.prot_en { cap.p_type + 1 } else { 0 },
        interface: if crate::device::is_virtual_address(addr) {
            "virtual SAS SSD (sgctl sim)".into()
        } else {
            "SAS/SCSI".into()
        },
        engine: String::new(),
        host: crate::host::hostname(),
        kernel: uname_r(),
        tool: format!(
            "sgctl {} ({})",
            env!("CARGO_PKG_VERSION"),
            env!("SGCTL_GIT_REV")
        ),
    };
    // A virtual drive is closed before the engine opens it (a `state=` file has one opener).
    let control = (!crate::device::is_virtual_address(addr)).then_some(t);
    Ok(Identified {
        header,
        name: DriveName {
            serial: id.serial,
            wwn: id.wwn,
        },
        capacity: cap.bytes(),
        block_len: cap.block_len,
        control,
    })
}

/// Opens the engine, after the gate, and the control path on the same drive: the handle
/// [`identify`] read through (a device node), or a second port of the engine's virtual drive.
fn open_drive(
    addr: &str,
    kind: EngineKind,
    auth: &Authorization,
    control: Option<Box<dyn Transport>>,
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
        let eng = crate::bench::sim::SimEngine::open(addr, true).map_err(Error::from)?;
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
    let eng = crate::bench::open(addr, kind, Some(auth)).map_err(Error::from)?;
    let t = match control {
        Some(t) => t,
        None => crate::device::open(addr, crate::device::OpenOptions::traced(verbose))?.transport,
    };
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

/// Options whose values are out of range (exit 2), before anything is opened.
fn check_options(opts: &SuiteOptions) -> Result<()> {
    if opts.tc == 0 || opts.tc > 256 || opts.qd == 0 || opts.qd > 4096 {
        return Err(Error::InvalidArgument(
            "--tc must be 1..=256 and --qd 1..=4096".into(),
        ));
    }
    if !(opts.active_range > 0.0 && opts.active_range <= 100.0) {
        return Err(Error::InvalidArgument(
            "--active-range must be in (0, 100]".into(),
        ));
    }
    if let Some(f) = opts.time_scale {
        if !(f > 0.0 && f <= 1.0) {
            return Err(Error::InvalidArgument(
                "--time-scale must be in (0, 1]".into(),
            ));
        }
    }
    Ok(())
}

/// The report `--resume` names, if any, checked against what can be resumed (the drive
/// itself is checked once it is identified).
fn resumable(opts: &SuiteOptions) -> Result<Option<BenchReport>> {
    let Some(d) = &opts.resume else {
        return Ok(None);
    };
    let r = BenchReport::load(d)?;
    let (addr, suite) = (&opts.device, opts.suite.name());
    // A virtual drive without a state file is a fresh drive on every open: "resuming"
    // on it would measure the remaining tests on a drive that never saw the saved run's
    // purge, preconditioning and rounds.
    if let Some(v) = crate::device::classify_address(addr).virtual_spec() {
        if !v.options().any(|(k, _)| k == "state") {
            return Err(Error::InvalidArgument(format!(
                "{addr}: --resume on a virtual drive without state=FILE would continue the \
                 saved run on a fresh drive (it keeps nothing between runs); run and resume \
                 with the same state file (sim:PROFILE?...&state=FILE)"
            )));
        }
    }
    if r.suite != suite {
        return Err(Error::InvalidArgument(format!(
            "{}: a `bench {}` report cannot be resumed by `bench {suite}`",
            d.display(),
            r.suite
        )));
    }
    // --resume continues exactly the saved run's tests: another set is refused (exit 2)
    // rather than silently ignored or mixed into a report made with other settings.
    let mut want = opts.parts.clone();
    let mut have = r.settings.tests.clone();
    want.sort();
    want.dedup();
    have.sort();
    have.dedup();
    if opts.parts_given && want != have {
        let what = if suite == "pts" { "--test" } else { "--part" };
        return Err(Error::InvalidArgument(format!(
            "{}: the saved run is of {what} {}; --resume continues exactly those \
             (omit {what}, or start a new report for {})",
            d.display(),
            r.settings.tests.join(","),
            opts.parts.join(",")
        )));
    }
    Ok(Some(r))
}

/// The safety gate: in use on every path, `--confirm` (or the typed confirmation), the
/// audit log writable.
fn clear_gate(opts: &SuiteOptions, env: &mut SuiteEnv<'_>, name: &DriveName) -> Result<Cleared> {
    let confirmation = Confirmation {
        tokens: opts.confirm.clone(),
        interactive: opts.confirm.is_empty() && env.interactive,
    };
    gate::clear(
        env.host,
        gate::GateRequest {
            job: match opts.suite {
                SuiteKind::Pts => "bench-pts",
                SuiteKind::Review => "bench-review",
            },
            address: &opts.device,
            name,
            confirmation: &confirmation,
            audit: env.audit.clone(),
        },
        &mut *env.prompter,
    )
}

/// The report directory: `--resume`'s, `--report`'s, or `./sgctl-bench-SERIAL-TIME`.
fn report_dir(opts: &SuiteOptions, serial: &str) -> Result<PathBuf> {
    let dir = match (&opts.resume, &opts.report) {
        (Some(d), _) | (None, Some(d)) => d.clone(),
        (None, None) => PathBuf::from(format!(
            "sgctl-bench-{}-{}",
            serial.trim().replace(['/', ' '], "_"),
            SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0)
        )),
    };
    std::fs::create_dir_all(&dir)
        .map_err(|e| Error::io(format!("creating {}", dir.display()), e))?;
    Ok(dir)
}

/// The time scale with the note that explains it (a trial run, a scaled-down virtual drive).
fn time_scale(opts: &SuiteOptions, capacity: u64) -> (f64, Option<String>) {
    let f = opts
        .time_scale
        .or_else(|| sim_time_scale(&opts.device, capacity))
        .unwrap_or(1.0);
    let why = if opts.time_scale.is_some() {
        Some(format!(
            "--time-scale {f}: every duration is {f} x the PTS one (a trial run, not a PTS result)"
        ))
    } else if f < 1.0 {
        Some(format!(
            "the virtual drive is scaled to {:.3} % of the profile's capacity; durations scale with it so every round writes the drive as many times as on the full-size drive",
            100.0 * f
        ))
    } else {
        None
    };
    (f, why)
}

/// A new report document for this run's settings.
fn new_report(
    opts: &SuiteOptions,
    header: Header,
    range: ActiveRange,
    time_scale: (f64, Option<String>),
) -> BenchReport {
    let suite = opts.suite.name();
    BenchReport {
        format: rep::FORMAT.into(),
        version: rep::VERSION,
        suite: suite.into(),
        created: crate::clock::rfc3339(SystemTime::now()),
        updated: String::new(),
        complete: false,
        state: "running".into(),
        header,
        settings: Settings {
            tests: opts.parts.clone(),
            tc: opts.tc,
            qd: opts.qd,
            toio: opts.tc * opts.qd,
            active_range_pct: opts.active_range,
            active_range: Some(range),
            max_rounds: opts.max_rounds,
            purge: opts.purge.name().into(),
            data_pattern: "random (incompressible, scrambled per I/O)".into(),
            time_scale: time_scale.0,
            time_scale_reason: time_scale.1,
            op_extra_pct: (opts.suite == SuiteKind::Review).then_some(opts.op_extra),
        },
        write_cache: WriteCache::default(),
        tests: vec![],
        notes: vec![],
    }
}

/// The report's notes on how this run differs from PTS-E (each once, also on resume).
fn add_notes(
    report: &mut BenchReport,
    opts: &SuiteOptions,
    scale_reason: Option<String>,
    qos: Option<&crate::bench::qos::CpuLatency>,
    purge: PurgeMethod,
) {
    let mut notes = Vec::new();
    notes.extend(scale_reason);
    if opts.active_range < 100.0 {
        notes.push(format!(
            "ActiveRange {} % of the capacity (PTS-E requires 100 %)",
            opts.active_range
        ));
    }
    notes.extend(qos.map(|q| q.note()));
    if purge == PurgeMethod::None {
        notes.push(
            "NOT PURGED: the drive was not purged before the tests (--purge none)".to_string(),
        );
    }
    for n in notes {
        if !report.notes.contains(&n) {
            report.notes.push(n);
        }
    }
}

/// The report document (the saved one on resume: its settings win) with this run's notes,
/// and the settings the rounds run with.
fn report_for(
    opts: &SuiteOptions,
    resumed: Option<BenchReport>,
    drive: &Identified,
    engine: String,
    qos: Option<&crate::bench::qos::CpuLatency>,
    purge: PurgeMethod,
) -> (BenchReport, RunSettings) {
    let bl = u64::from(drive.block_len.max(1));
    let len = ((drive.capacity as f64 * opts.active_range / 100.0) as u64) / bl * bl;
    let range = ActiveRange {
        offset_bytes: 0,
        len_bytes: len.max(bl),
    };
    let scale = time_scale(opts, drive.capacity);
    let scale_reason = scale.1.clone();
    let mut report = resumed.unwrap_or_else(|| {
        let header = Header {
            engine,
            ..drive.header.clone()
        };
        new_report(opts, header, range, scale)
    });
    add_notes(&mut report, opts, scale_reason, qos, purge);
    let settings = &report.settings;
    let run = RunSettings {
        range: settings.active_range.unwrap_or(range),
        tc: settings.tc,
        qd: settings.qd,
        time_scale: settings.time_scale,
        // One sample per (scaled) second, at least the engine's 10 ms.
        log_interval_s: settings.time_scale.max(0.01),
    };
    (report, run)
}

/// The write cache as the run wants it (`Some(enabled)`, `None`: unchanged), what was found
/// kept in the report for the restore at the end.
fn set_write_cache(
    t: &mut dyn Transport,
    want: Option<bool>,
    report: &mut BenchReport,
) -> Result<()> {
    let mut wc = cache::prepare(t, want)?;
    // On resume keep the WCE state found at the first start (the drive may still be WCE=0
    // if the first run could not restore it).
    if report.write_cache.wce_before.is_some() && report.write_cache.wce_before != wc.wce_before {
        wc.wce_before = report.write_cache.wce_before;
        wc.restored = false;
    }
    report.write_cache = wc;
    report.state = "running".into();
    Ok(())
}

/// The rounds: the tests in order, stopping at the first that does not end (its state says
/// why), then the drive back to full capacity after the OP experiment. Returns how the tests
/// ended and what returning the drive failed at.
fn run_tests(
    s: &mut Suite<'_>,
    kind: SuiteKind,
    parts: &[String],
    op_extra: f64,
) -> (Result<()>, Vec<String>) {
    let _ = s.save();
    let mut result: Result<()> = Ok(());
    for p in parts {
        result = match kind {
            SuiteKind::Pts => match TestId::parse(p) {
                Some(tid) => pts::run(s, tid),
                None => Err(Error::InvalidArgument(format!("unknown test {p}"))),
            },
            SuiteKind::Review => review::run(s, p, op_extra),
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
    let mut cleanup = Vec::new();
    if kind == SuiteKind::Review {
        if let Err(e) = review::restore_capacity(s) {
            cleanup.push(format!("returning the drive to full capacity failed: {e}"));
        }
    }
    (result, cleanup)
}

/// The end of a run: the write cache restored, the report's state, the report saved, the
/// audit end record.
fn finish(
    mut report: BenchReport,
    t: &mut dyn Transport,
    started: Started<'_>,
    dir: PathBuf,
    result: Result<()>,
    mut cleanup: Vec<String>,
) -> Result<SuiteOutcome> {
    if let Err(e) = cache::restore(t, &mut report.write_cache) {
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
    let _ = started.end(
        if result.is_ok() { "success" } else { "failed" },
        serde_json::json!({"state": state, "report_dir": dir}),
    );
    Ok(SuiteOutcome {
        report,
        dir,
        result,
        cleanup,
    })
}

/// Runs a suite: the drive's identity, the gate, the engine and the control path, the write
/// cache (restored on every path), the tests in order, the report saved after every round and
/// at the end, the audit start and end records.
///
/// Errors before the first test (a bad option, a report that cannot be resumed, the gate's
/// refusal, an unsupported purge method, a write cache that cannot be set) return `Err`; how
/// the tests ended is [`SuiteOutcome::result`], with the report saved either way.
pub fn run(opts: &SuiteOptions, mut env: SuiteEnv<'_>) -> Result<SuiteOutcome> {
    // Preconditions: the options, the report to resume.
    check_options(opts)?;
    let addr = opts.device.as_str();
    // Held from here to the end of the run (dropped on every return), before the gate: a
    // limit that cannot be set (not root: exit 7) never reaches the drive or the audit log.
    let qos = crate::bench::qos::CpuLatency::for_run(
        opts.cpu_latency,
        crate::device::is_virtual_address(addr),
    )
    .map_err(Error::from)?;
    let resumed = resumable(opts)?;

    // Identity (read-only, once), then the gate: in use on every path, --confirm, audit.
    let mut drive = identify(addr, opts.verbose)?;
    if let Some(r) = &resumed {
        r.check_same_drive(&drive.header)?;
    }
    let cleared = clear_gate(opts, &mut env, &drive.name)?;
    let auth = Authorization::from_cleared(&cleared, addr);
    let interrupted = Arc::new(AtomicBool::new(false));
    let (mut driver, mut t, poll, poll_always) = open_drive(
        addr,
        opts.engine,
        &auth,
        drive.control.take(),
        opts.verbose,
        &interrupted,
    )?;

    // Purge method: resolved against what the drive has (exit 7 listing them).
    let purge_method = match &resumed {
        Some(r) => {
            serde_json::from_value(serde_json::json!(r.settings.purge)).unwrap_or(opts.purge)
        }
        None => opts.purge,
    };
    let purge_resolved = purge::resolve(&mut *t, purge_method)?;
    let dir = report_dir(opts, &drive.name.serial)?;

    // The report document: the saved one on resume (its settings win), else a new one.
    let (mut report, run) = report_for(
        opts,
        resumed,
        &drive,
        driver.engine(),
        qos.as_ref(),
        purge_resolved,
    );
    let settings = report.settings.clone();

    // The audit start record, then the write cache per the spec (restored on every path).
    let started = cleared.start(serde_json::json!({
        "drive": drive.header, "suite": opts.suite.name(), "settings": settings,
        "report_dir": dir,
    }))?;
    if !cfg!(test) {
        let _ = signal_hook::flag::register(signal_hook::consts::SIGINT, interrupted.clone());
    }
    if let Err(e) = set_write_cache(&mut *t, opts.write_cache, &mut report) {
        let _ = started.end("failed", serde_json::json!({"message": e.to_string()}));
        return Err(e);
    }

    // The rounds.
    let n = report
        .tests
        .iter()
        .flat_map(|t| &t.stages)
        .filter(|s| s.purge.is_some())
        .count() as u32;
    let mut control = DriveControl {
        t,
        cleared: &cleared,
        purge_progress: env.purge_progress,
        poll,
        poll_always,
        dir: dir.clone(),
        n,
    };
    let mut s = Suite::new(
        &mut driver,
        &mut control,
        report,
        dir.clone(),
        run,
        settings.max_rounds,
        purge_resolved,
        interrupted.clone(),
        env.progress,
    );
    let op_extra = settings.op_extra_pct.unwrap_or(opts.op_extra);
    let (result, cleanup) = run_tests(&mut s, opts.suite, &settings.tests, op_extra);
    let report = std::mem::replace(&mut s.report, empty_report());
    drop(s);

    // The report and the end record.
    finish(report, &mut *control.t, started, dir, result, cleanup)
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
