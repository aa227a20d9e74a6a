//! Shared machinery of the destructive commands (`format`, `sanitize`): the safety options,
//! the two-phase run (plan + gate serially, then execute in parallel per HBA), progress on
//! stderr, the summary table, certificates and the exit status.

use crate::cli::{Ctx, Report};
use crate::error::{Error, Result};
use crate::exit;
use crate::ops::fleet;
use crate::ops::poll::PollConfig;
use crate::ops::query;
use crate::ops::record::{write_certificate_signed, DriveInfo, JobRecord};
use crate::ops::safety::{
    self, rfc3339, AuditLog, ByRef, Cleared, Confirmation, DiscoverHost, GateRequest, HostView,
    PlannedCommand, Prompter, ReadOnly, TtyPrompter,
};
use crate::transport::Transport;
use serde_json::json;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

/// Options every destructive command takes.
#[derive(Debug, Clone, clap::Args)]
pub struct SafetyArgs {
    /// Serial number or WWN naming the drive (repeat once per drive). Without it sgctl asks
    /// you to type it when stdin is a terminal; there is no default.
    #[arg(long = "confirm", value_name = "SERIAL|WWN")]
    pub confirm: Vec<String>,
    /// Print the exact CDBs (hex) that would be sent; send nothing that changes the drive.
    #[arg(long)]
    pub dry_run: bool,
    /// Audit log, JSON Lines, one record before and one after each job
    /// [default: $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl].
    #[arg(long, value_name = "FILE")]
    pub audit_log: Option<PathBuf>,
    /// Write a certificate: FILE (JSON, one record per drive), FILE.txt (text) and FILE.html
    /// (a printable certificate of sanitization).
    #[arg(long, value_name = "FILE")]
    pub certificate: Option<PathBuf>,
    /// Who performs the job, recorded in the certificate [default: $SGCTL_OPERATOR].
    #[arg(long, value_name = "NAME")]
    pub operator: Option<String>,
    /// Sign the certificate with this Ed25519 key (PKCS#8 PEM, mode 0600; `sgctl certificate
    /// keygen`) [default: $SGCTL_SIGNING_KEY, else unsigned].
    #[arg(long, value_name = "FILE")]
    pub signing_key: Option<PathBuf>,
    /// At most N jobs at once on drives behind the same HBA.
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub max_per_hba: usize,
    /// Seconds between progress polls (virtual drives: the drive's clock is advanced instead).
    #[arg(long, value_name = "SECONDS", default_value_t = 5.0)]
    pub poll_interval: f64,
    /// Progress as JSON Lines events on stderr (instead of progress bars).
    #[arg(long)]
    pub progress_json: bool,
    /// Go ahead although another initiator holds a persistent reservation on the drive
    /// (`sgctl reservations DEVICE` shows it; the drive itself may still refuse with
    /// RESERVATION CONFLICT).
    #[arg(long)]
    pub ignore_reservation: bool,
}

/// One destructive job on one drive, in two phases.
pub trait Job: Send {
    /// `format`, `sanitize`.
    fn name(&self) -> &'static str;
    /// Read-only queries and planning; fills the record's method/parameters.
    fn plan(&mut self, t: &mut dyn Transport, rec: &mut JobRecord) -> Result<Vec<PlannedCommand>>;
    /// Runs the plan. Returns the drive's exit status and fills the record.
    fn execute(
        &mut self,
        t: &mut dyn Transport,
        rec: &mut JobRecord,
        cleared: &Cleared,
        poll: &PollConfig,
        progress: &mut dyn FnMut(Option<f64>),
    ) -> Result<u8>;
}

/// Opens a device for a job; `sim:` drives with a virtual clock get a poll sleeper that
/// advances the drive's clock instead of waiting.
pub fn open_for_job(
    address: &str,
    verbose: u8,
    interval: Duration,
    interrupted: Arc<AtomicBool>,
) -> Result<(Box<dyn Transport>, PollConfig)> {
    if let Some(spec) = address.strip_prefix("sim:") {
        let dev = crate::sim::open(spec)?;
        let clock = dev.clock();
        let mut poll = PollConfig::real(interval, interrupted);
        if clock.mode() == crate::sim::ClockMode::Virtual {
            // Nothing moves a virtual drive's clock but us: advance it instead of sleeping
            // (at least one second per poll so a zero interval still makes progress).
            poll.sleep = Arc::new(move |d: Duration| clock.advance(d.max(Duration::from_secs(1))));
        }
        let t: Box<dyn Transport> = if verbose == 0 {
            Box::new(dev)
        } else {
            Box::new(crate::transport::trace::Traced::new(Box::new(dev), verbose))
        };
        return Ok((t, poll));
    }
    let t = crate::device::open_with(address, verbose)?;
    Ok((t, PollConfig::real(interval, interrupted)))
}

fn outcome_for(e: &Error) -> &'static str {
    match e {
        Error::Refused(_) => "refused",
        Error::Unsupported(_) => "unsupported",
        Error::CheckFailed(_) => "check_failed",
        _ => "failed",
    }
}

struct Prepared {
    address: String,
    t: Option<Box<dyn Transport>>,
    poll: Option<PollConfig>,
    job: Box<dyn Job>,
    rec: JobRecord,
    cleared: Option<Cleared>,
    hba: String,
}

/// Opens a device address for a job.
pub type Opener<'a> = dyn Fn(&str) -> Result<(Box<dyn Transport>, PollConfig)> + 'a;

/// What a run needs from the outside world (replaced by fakes in tests).
pub struct JobEnv<'a> {
    /// Host view for the safety gate.
    pub host: &'a dyn HostView,
    /// Opens a device.
    pub open: &'a Opener<'a>,
    /// Asks for typed confirmations.
    pub prompter: &'a mut dyn Prompter,
    /// Whether a person can be asked (stdin is a terminal).
    pub interactive: bool,
    /// Set by SIGINT.
    pub interrupted: Arc<AtomicBool>,
}

/// Plans, gates and runs `job` on every address (real host, real devices).
pub fn run_jobs(
    ctx: &Ctx,
    addresses: &[String],
    sa: &SafetyArgs,
    params: serde_json::Value,
    make_job: impl FnMut() -> Box<dyn Job>,
) -> anyhow::Result<Report> {
    let host = DiscoverHost;
    let interrupted = Arc::new(AtomicBool::new(false));
    let interval = Duration::from_secs_f64(sa.poll_interval.clamp(0.0, 3600.0));
    let verbose = ctx.verbose;
    let flag = interrupted.clone();
    let open = move |a: &str| open_for_job(a, verbose, interval, flag.clone());
    let mut prompter = TtyPrompter;
    let env = JobEnv {
        host: &host,
        open: &open,
        prompter: &mut prompter,
        interactive: std::io::stdin().is_terminal(),
        interrupted,
    };
    run_jobs_in(ctx, env, addresses, sa, params, make_job)
}

/// [`run_jobs`] with an explicit environment.
pub fn run_jobs_in(
    ctx: &Ctx,
    env: JobEnv<'_>,
    addresses: &[String],
    sa: &SafetyArgs,
    params: serde_json::Value,
    mut make_job: impl FnMut() -> Box<dyn Job>,
) -> anyhow::Result<Report> {
    if addresses.is_empty() {
        return Err(Error::InvalidArgument("no DEVICE given".into()).into());
    }
    let host = env.host;
    let audit = AuditLog::resolve(sa.audit_log.as_deref());
    // A bad signing key fails here, before any drive is touched.
    let signer = crate::ops::sign::CertSigner::resolve(sa.signing_key.as_deref())?;
    let interrupted = env.interrupted.clone();
    let prompter = env.prompter;
    let confirmation = Confirmation {
        tokens: sa.confirm.clone(),
        interactive: sa.confirm.is_empty() && env.interactive,
    };

    // Phase 1, one drive after the other: open, identify, plan (read-only), gate.
    let mut prepared = Vec::new();
    for address in addresses {
        let mut job = make_job();
        let mut rec = JobRecord::new(job.name(), address);
        rec.parameters = params.clone();
        let mut p = Prepared {
            address: address.clone(),
            t: None,
            poll: None,
            job: Box::new(NoJob),
            rec: JobRecord::default(),
            cleared: None,
            hba: fleet::hba_key(address, None),
        };
        let r = (|| -> Result<(Box<dyn Transport>, PollConfig, Option<Cleared>)> {
            let (mut t, poll) = (env.open)(address)?;
            let mut ro = ReadOnly::new(ByRef(&mut *t));
            let id = query::identity(&mut ro)?;
            let cap = query::read_capacity16(&mut ro).ok();
            rec.drive = DriveInfo::new(&id, cap.as_ref());
            rec.paths = host.paths_of(address).unwrap_or_default();
            rec.commands = job.plan(&mut ro, &mut rec)?;
            safety::check_reservation(&mut ro, address, sa.ignore_reservation)?;
            if sa.dry_run {
                // Report what the gate would say, but never prompt.
                safety::check_not_in_use(host, address)?;
                return Ok((t, poll, None));
            }
            let name = safety::DriveName {
                serial: id.serial.clone(),
                wwn: id.wwn.clone(),
            };
            let cleared = safety::clear(
                host,
                GateRequest {
                    job: job.name(),
                    address,
                    name: &name,
                    confirmation: &confirmation,
                    audit: audit.clone(),
                },
                &mut *prompter,
            )?;
            Ok((t, poll, Some(cleared)))
        })();
        match r {
            Ok((t, poll, cleared)) => {
                if let Some(c) = &cleared {
                    rec.job_id = Some(c.job_id.clone());
                    rec.paths = c.paths.clone();
                    p.hba =
                        fleet::hba_key(address, c.paths.first().and_then(|x| x.hctl.as_deref()));
                } else {
                    rec.outcome = "dry_run".into();
                    rec.exit_status = exit::OK;
                }
                p.t = Some(t);
                p.poll = Some(poll);
                p.cleared = cleared;
            }
            Err(e) => {
                rec.outcome = if sa.dry_run && matches!(e, Error::Refused(_)) {
                    "dry_run_refused".into()
                } else {
                    outcome_for(&e).into()
                };
                rec.message = Some(e.to_string());
                rec.exit_status = e.exit_code();
            }
        }
        p.job = job;
        p.rec = rec;
        prepared.push(p);
    }

    // Phase 2, in parallel (capped per HBA): audit start, run, audit end.
    if !cfg!(test) {
        let _ = signal_hook::flag::register(signal_hook::consts::SIGINT, interrupted.clone());
    }
    let bars = Progress::new(ctx.json || sa.progress_json, sa.progress_json);
    let items: Vec<(String, Prepared)> = prepared.into_iter().map(|p| (p.hba.clone(), p)).collect();
    let records: Vec<JobRecord> = fleet::run(items, sa.max_per_hba, |mut p| {
        let (Some(mut t), Some(poll), Some(cleared)) =
            (p.t.take(), p.poll.take(), p.cleared.take())
        else {
            return p.rec;
        };
        let bar = bars.add(&p.address);
        let rec = &mut p.rec;
        let t0 = Instant::now();
        rec.started = Some(rfc3339(SystemTime::now()));
        let start = cleared.record_start(json!({
            "drive": rec.drive, "parameters": rec.parameters, "commands": rec.commands,
        }));
        let result = match start {
            Err(e) => Err(Error::Refused(format!(
                "cannot write the audit record ({e}); nothing was sent"
            ))),
            Ok(()) => {
                let started = Instant::now();
                p.job.execute(&mut *t, rec, &cleared, &poll, &mut |pct| {
                    bar.update(pct, started)
                })
            }
        };
        match result {
            Ok(code) => rec.exit_status = code,
            Err(e) => {
                rec.outcome = outcome_for(&e).into();
                rec.message = Some(e.to_string());
                rec.exit_status = e.exit_code();
            }
        }
        if rec.advice.is_none() {
            // A locked self-encrypting drive refuses FORMAT/SANITIZE/writes (issue 8).
            rec.advice = crate::cli::tcg_jobs::locked_sed_advice(rec);
        }
        rec.ended = Some(rfc3339(SystemTime::now()));
        rec.duration_s = Some(t0.elapsed().as_secs_f64());
        bar.finish(&rec.outcome);
        if let Err(e) = cleared.record_end(
            &rec.outcome,
            json!({"exit_status": rec.exit_status, "message": rec.message,
                   "sense_trail": rec.sense_trail, "verification": rec.verification}),
        ) {
            rec.message = Some(format!(
                "{}; the end audit record could not be written: {e}",
                rec.message.clone().unwrap_or_default()
            ));
        }
        p.rec
    });
    finish_report(ctx, records, sa, signer.as_ref())
}

struct NoJob;
impl Job for NoJob {
    fn name(&self) -> &'static str {
        "none"
    }
    fn plan(&mut self, _: &mut dyn Transport, _: &mut JobRecord) -> Result<Vec<PlannedCommand>> {
        Ok(vec![])
    }
    fn execute(
        &mut self,
        _: &mut dyn Transport,
        _: &mut JobRecord,
        _: &Cleared,
        _: &PollConfig,
        _: &mut dyn FnMut(Option<f64>),
    ) -> Result<u8> {
        Ok(exit::OK)
    }
}

/// True when a scanned drive matches `--all-matching FILTER`: every whitespace-separated word
/// of FILTER must occur (case-insensitively) in the drive's vendor, model, serial, firmware or
/// LU name. Only disks (peripheral type 0) match.
pub fn drive_matches(d: &crate::discover::Drive, filter: &str) -> bool {
    if d.peripheral_type != Some(0) {
        return false;
    }
    let hay = [&d.vendor, &d.model, &d.serial, &d.firmware, &d.lu_name]
        .iter()
        .filter_map(|x| x.as_deref())
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    let words: Vec<String> = filter.split_whitespace().map(str::to_lowercase).collect();
    !words.is_empty() && words.iter().all(|w| hay.contains(w.as_str()))
}

/// The DEVICEs given, plus one address per scanned drive matching `--all-matching`.
pub fn resolve_devices(devices: &[String], all_matching: Option<&str>) -> Result<Vec<String>> {
    let mut out = devices.to_vec();
    if let Some(f) = all_matching {
        let scan = crate::discover::scan(&crate::discover::ScanOptions::default())?;
        let found: Vec<String> = scan
            .drives
            .iter()
            .filter(|d| drive_matches(d, f))
            .filter_map(|d| d.paths.first().map(|p| p.address.clone()))
            .collect();
        if found.is_empty() {
            return Err(Error::InvalidArgument(format!(
                "--all-matching {f:?}: no disk matches (see `sgctl scan`)"
            )));
        }
        for a in found {
            if !out.contains(&a) {
                out.push(a);
            }
        }
    }
    Ok(out)
}

/// Overall exit status: 0 all good; 8 some failed; all failed → the first failure's code.
pub fn overall_exit(codes: &[u8]) -> u8 {
    let failed: Vec<u8> = codes.iter().copied().filter(|c| *c != exit::OK).collect();
    if failed.is_empty() {
        exit::OK
    } else if failed.len() < codes.len() {
        exit::PARTIAL
    } else {
        failed[0]
    }
}

fn finish_report(
    ctx: &Ctx,
    mut records: Vec<JobRecord>,
    sa: &SafetyArgs,
    signer: Option<&crate::ops::sign::CertSigner>,
) -> anyhow::Result<Report> {
    let operator = sa
        .operator
        .clone()
        .or_else(|| std::env::var("SGCTL_OPERATOR").ok())
        .filter(|o| !o.trim().is_empty());
    for r in &mut records {
        r.operator.clone_from(&operator);
    }
    let codes: Vec<u8> = records.iter().map(|r| r.exit_status).collect();
    let code = overall_exit(&codes);
    if let Some(path) = &sa.certificate {
        if !sa.dry_run {
            write_certificate_signed(path, &records, signer)?;
        }
    }
    let mut text = String::new();
    for r in &records {
        if sa.dry_run {
            text.push_str(&format!(
                "{} ({} {} serial {}): dry run, nothing sent{}\n",
                r.device,
                r.drive.vendor,
                r.drive.model,
                r.drive.serial,
                r.message
                    .as_deref()
                    .map(|m| format!(" — {m}"))
                    .unwrap_or_default()
            ));
            for c in &r.commands {
                text.push_str(&format!("  would send {}\n", c.render()));
            }
        } else {
            text.push_str(&r.render_text());
        }
    }
    if records.len() > 1 {
        text.push_str(&format!(
            "\n{:<32} {:<20} {:<14} {:>9}  {}\n",
            "DEVICE", "SERIAL", "OUTCOME", "SECONDS", "EXIT"
        ));
        for r in &records {
            text.push_str(&format!(
                "{:<32} {:<20} {:<14} {:>9.1}  {}\n",
                r.device,
                r.drive.serial,
                r.outcome,
                r.duration_s.unwrap_or(0.0),
                r.exit_status
            ));
        }
        let ok = codes.iter().filter(|c| **c == exit::OK).count();
        text.push_str(&format!("{ok} of {} drives succeeded\n", records.len()));
    }
    let device = (records.len() == 1).then(|| records[0].device.clone());
    let data = json!({ "dry_run": sa.dry_run, "drives": records });
    let _ = ctx;
    Ok(Report::new(device.as_deref(), &data, text).with_exit(code))
}

/// Progress on stderr: indicatif bars, or JSON Lines events, or nothing.
pub struct Progress {
    multi: Option<indicatif::MultiProgress>,
    json: bool,
    lock: Mutex<()>,
}

/// One drive's progress display.
pub struct Bar<'a> {
    bar: Option<indicatif::ProgressBar>,
    json: bool,
    address: String,
    last: Mutex<Option<f64>>,
    _p: &'a Progress,
}

impl Progress {
    /// `hidden`: no bars (`--json`); `json`: JSON Lines events.
    pub fn new(hidden: bool, json: bool) -> Progress {
        Progress {
            multi: (!hidden).then(|| {
                indicatif::MultiProgress::with_draw_target(indicatif::ProgressDrawTarget::stderr())
            }),
            json,
            lock: Mutex::new(()),
        }
    }

    /// Adds a line for `address`.
    pub fn add(&self, address: &str) -> Bar<'_> {
        let bar = self.multi.as_ref().map(|m| {
            let b = m.add(indicatif::ProgressBar::new(1000));
            let style = indicatif::ProgressStyle::with_template(
                "{prefix:30} [{bar:30}] {percent:>3}% {msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
            b.set_style(style.progress_chars("=> "));
            b.set_prefix(address.to_string());
            b
        });
        Bar {
            bar,
            json: self.json,
            address: address.into(),
            last: Mutex::new(None),
            _p: self,
        }
    }
}

impl Bar<'_> {
    /// New progress sample.
    pub fn update(&self, pct: Option<f64>, started: Instant) {
        let eta = pct.and_then(|p| crate::ops::poll::eta(started, p));
        if let Some(b) = &self.bar {
            if let Some(p) = pct {
                b.set_position((p * 10.0) as u64);
            }
            b.set_message(match eta {
                Some(e) => format!("ETA {}s", e.as_secs()),
                None => String::new(),
            });
        }
        if self.json {
            let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
            if *last != pct {
                *last = pct;
                let _g = self._p.lock.lock().unwrap_or_else(|e| e.into_inner());
                eprintln!(
                    "{}",
                    json!({"event":"progress","device":self.address,"percent":pct,
                           "eta_s": eta.map(|e| e.as_secs())})
                );
            }
        }
    }

    /// Done.
    pub fn finish(&self, outcome: &str) {
        if let Some(b) = &self.bar {
            b.finish_with_message(outcome.to_string());
        }
        if self.json {
            let _g = self._p.lock.lock().unwrap_or_else(|e| e.into_inner());
            eprintln!(
                "{}",
                json!({"event":"end","device":self.address,"outcome":outcome})
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_matching_filter() {
        let mut d = crate::discover::Drive::default();
        d.vendor = Some("TOSHIBA".into());
        d.model = Some("PX02SMF080".into());
        d.serial = Some("X7R0A0AHT".into());
        d.lu_name = Some("naa.5000039594f8fb90".into());
        d.peripheral_type = Some(0);
        assert!(drive_matches(&d, "px02"));
        assert!(drive_matches(&d, "toshiba x7r0"));
        assert!(!drive_matches(&d, "toshiba seagate"));
        assert!(!drive_matches(&d, "   "));
        let mut enclosure = d.clone();
        enclosure.peripheral_type = Some(0x0d);
        assert!(!drive_matches(&enclosure, "px02"));
    }

    #[test]
    fn exit_status_of_many() {
        assert_eq!(overall_exit(&[0, 0]), 0);
        assert_eq!(overall_exit(&[0, 4]), exit::PARTIAL);
        assert_eq!(overall_exit(&[6, 4]), 6);
        assert_eq!(overall_exit(&[5]), 5);
    }
}

/// Test support: mock drives by address and a fake host.
#[cfg(test)]
pub(crate) mod testenv {
    use super::*;
    use crate::ops::mockdrive::MockDrive;
    use crate::ops::safety::{InUse, PathInfo};
    use std::collections::HashMap;

    pub struct FakeHost {
        pub busy: Vec<String>,
    }

    impl HostView for FakeHost {
        fn paths_of(&self, address: &str) -> Result<Vec<PathInfo>> {
            Ok(vec![PathInfo {
                hctl: None,
                block: Some(address.trim_start_matches("mock:").into()),
                sg: None,
            }])
        }
        fn in_use(&self, paths: &[PathInfo]) -> Result<Vec<InUse>> {
            Ok(paths
                .iter()
                .filter_map(|p| p.block.clone())
                .filter(|b| self.busy.contains(b))
                .map(|b| InUse::Mounted {
                    device: format!("{b}1"),
                    mount_point: "/srv".into(),
                })
                .collect())
        }
    }

    pub struct NoTty;
    impl Prompter for NoTty {
        fn ask(&mut self, _: &str) -> Option<String> {
            None
        }
    }

    /// Drives `mock:a`, `mock:b`, ... with serials `SER-a`, `SER-b`, ...
    pub fn drives(names: &[&str]) -> HashMap<String, MockDrive> {
        names
            .iter()
            .map(|n| {
                let d = MockDrive::new();
                d.st().serial = format!("SER-{n}");
                (format!("mock:{n}"), d)
            })
            .collect()
    }

    pub fn safety(dir: &std::path::Path, confirm: &[&str], dry_run: bool) -> SafetyArgs {
        SafetyArgs {
            confirm: confirm.iter().map(|s| s.to_string()).collect(),
            dry_run,
            audit_log: Some(dir.join("audit.jsonl")),
            certificate: Some(dir.join("cert.json")),
            operator: None,
            signing_key: None,
            max_per_hba: 4,
            poll_interval: 0.0,
            progress_json: false,
            ignore_reservation: false,
        }
    }

    pub fn run(
        drives: &HashMap<String, MockDrive>,
        busy: &[&str],
        sa: &SafetyArgs,
        make_job: impl FnMut() -> Box<dyn Job>,
    ) -> Report {
        let host = FakeHost {
            busy: busy.iter().map(|s| s.to_string()).collect(),
        };
        let open = |a: &str| -> Result<(Box<dyn Transport>, PollConfig)> {
            let d = drives.get(a).ok_or_else(|| Error::BadAddress {
                address: a.into(),
                reason: "no such mock".into(),
            })?;
            Ok((Box::new(d.clone()), PollConfig::immediate()))
        };
        let mut p = NoTty;
        let env = JobEnv {
            host: &host,
            open: &open,
            prompter: &mut p,
            interactive: false,
            interrupted: Arc::new(AtomicBool::new(false)),
        };
        let mut addrs: Vec<String> = drives.keys().cloned().collect();
        addrs.sort();
        run_jobs_in(
            &Ctx::default(),
            env,
            &addrs,
            sa,
            serde_json::Value::Null,
            make_job,
        )
        .expect("run")
    }

    pub fn audit_lines(dir: &std::path::Path) -> Vec<serde_json::Value> {
        std::fs::read_to_string(dir.join("audit.jsonl"))
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).expect("json line"))
            .collect()
    }
}
