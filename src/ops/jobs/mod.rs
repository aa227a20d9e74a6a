//! The job layer: destructive jobs on one or many drives, below the command line.
//!
//! A run has two phases. **Plan and gate**, one drive after the other: open, identify, plan
//! through [`ReadOnly`] (nothing state-changing can be sent), then the safety gate
//! ([`gate::clear`]) hands out the capability token [`Cleared`]. **Execute**, in parallel
//! with at most [`JobOptions::max_per_hba`] jobs per HBA: audit start record, the job (which
//! needs the token for every state-changing command), audit end record. The result is one
//! [`JobRecord`] per drive, the certificate when asked for, and an overall exit status.
//!
//! The jobs: [`format::FormatJob`], [`sanitize::SanitizeJob`] (with its ATA and TCG
//! fallbacks), `ata::AtaEraseJob`, [`tcg::TcgEraseJob`], [`tcg::TcgRevertJob`],
//! [`firmware::FirmwareJob`] (a microcode download, not an erase). The
//! benchmark's purge (`src/bench/suite/purge.rs`) runs the same jobs with its own gate token;
//! DESIGN.md shows how another module runs one through [`run_unattended`].
//!
//! Progress goes to a [`ProgressSink`]; the CLI renders the same [`JobEvent`]s as bars or
//! JSON Lines.

pub mod ata;
pub(crate) mod failover;
pub mod firmware;
pub mod format;
pub mod sanitize;
pub mod tcg;

use crate::clock::rfc3339;
use crate::device;
use crate::error::{Error, Invalid, Next, Refusal, Result};
use crate::exit;
use crate::host::HostView;
use crate::ops::audit::AuditLog;
use crate::ops::fleet;
use crate::ops::gate;
use crate::ops::gate::{
    ByRef, Cleared, Confirmation, DriveName, GateRequest, PlannedCommand, Prompter, ReadOnly,
};
use crate::ops::poll::PollConfig;
use crate::ops::query;
use crate::ops::record::{write_certificate_with, DriveInfo, JobRecord, Outcome};
use crate::transport::Transport;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

/// How to run a job: a plain struct (the CLI fills it from its flags).
#[derive(Debug, Clone)]
pub struct JobOptions {
    /// Serial numbers or WWNs naming the drives (any of them may name a given drive).
    pub confirm: Vec<String>,
    /// Plan and gate only: list the CDBs, send nothing that changes a drive.
    pub dry_run: bool,
    /// Audit log; `None`: `$SGCTL_AUDIT_LOG`, else [`crate::ops::audit::DEFAULT_AUDIT_LOG`].
    pub audit_log: Option<PathBuf>,
    /// Write a certificate: this file (JSON), the same name with `.txt` (text) and `.html`.
    pub certificate: Option<PathBuf>,
    /// Who performs the job, recorded in the certificate.
    pub operator: Option<String>,
    /// The certificate's auditor fields (site file and flags; see
    /// [`crate::ops::record_fields`]).
    pub record: crate::ops::record_fields::RecordOptions,
    /// Sign the certificate with this Ed25519 key; `None`: `$SGCTL_SIGNING_KEY`, else unsigned
    /// ([`crate::ops::sign::CertSigner::resolve`]).
    pub signing_key: Option<PathBuf>,
    /// At most this many jobs at once on drives behind the same HBA.
    pub max_per_hba: usize,
    /// Time between progress polls (a virtual drive's clock is advanced instead).
    pub poll_interval: Duration,
    /// The job's parameters as requested, recorded in each record.
    pub parameters: Value,
    /// Go ahead although another initiator holds a persistent reservation on the drive.
    pub ignore_reservation: bool,
    /// Replace outputs (the certificate and its renderings) that already exist (`--force`);
    /// without it an existing output refuses the run before anything is sent.
    pub force: bool,
}

impl Default for JobOptions {
    fn default() -> Self {
        JobOptions {
            confirm: vec![],
            dry_run: false,
            audit_log: None,
            certificate: None,
            operator: None,
            record: Default::default(),
            signing_key: None,
            max_per_hba: 4,
            poll_interval: Duration::from_secs(5),
            parameters: Value::Null,
            ignore_reservation: false,
            force: false,
        }
    }
}

/// One destructive job on one drive, in two phases.
pub trait Job: Send {
    /// `format`, `sanitize`, `tcg-erase`, `tcg-revert`.
    fn name(&self) -> &'static str;
    /// Read-only queries and planning (`t` refuses anything state-changing); fills the
    /// record's method and category and returns the state-changing commands it will send.
    fn plan(&mut self, t: &mut dyn Transport, rec: &mut JobRecord) -> Result<Vec<PlannedCommand>>;
    /// Runs the plan with the gate's token. Returns the drive's exit status and fills the
    /// record (outcome, trail, verification).
    fn execute(
        &mut self,
        t: &mut dyn Transport,
        rec: &mut JobRecord,
        gate: &Cleared,
        poll: &PollConfig,
        progress: &mut dyn FnMut(Option<f64>),
    ) -> Result<u8>;
}

/// What a run reports while it works (from several threads at once).
#[derive(Debug, Clone, PartialEq)]
pub enum JobEvent<'a> {
    /// The job on `device` passed the gate and starts.
    Started {
        /// The device address.
        device: &'a str,
    },
    /// A progress sample.
    Progress {
        /// The device address.
        device: &'a str,
        /// Percent done, when the drive says.
        percent: Option<f64>,
        /// Estimated time left.
        eta: Option<Duration>,
    },
    /// The job ended.
    Finished {
        /// The device address.
        device: &'a str,
        /// How.
        outcome: Outcome,
    },
}

/// Receives [`JobEvent`]s (progress bars, JSON Lines, a GUI, nothing).
pub trait ProgressSink: Sync {
    /// One event.
    fn event(&self, e: &JobEvent<'_>);
}

/// Discards events.
#[derive(Debug, Default)]
pub struct NoProgress;

impl ProgressSink for NoProgress {
    fn event(&self, _: &JobEvent<'_>) {}
}

/// Opens a device address for a job: the transport and how to wait between polls.
pub type Opener<'a> = dyn Fn(&str) -> Result<(Box<dyn Transport>, PollConfig)> + Sync + 'a;

/// How the caller words what the library keeps typed: the errors that end jobs and the
/// records' [`Next`] (the CLI names its own commands and flags; a program may word them its
/// own way, or not at all).
pub trait Advise: Sync {
    /// The record's `message` for the error that ended a job (default: its `Display`).
    fn message(&self, e: &Error) -> String {
        e.to_string()
    }
    /// The words of typed advice (default: none).
    fn next(&self, _next: &Next) -> Option<String> {
        None
    }
    /// The `advice` of a record that ended without any (default: its `next`, worded).
    fn advice(&self, rec: &JobRecord) -> Option<String> {
        rec.next.as_ref().and_then(|n| self.next(n))
    }
}

/// What a run needs from the outside world (fakes in tests).
pub struct JobEnv<'a> {
    /// Host view for the safety gate.
    pub host: &'a dyn HostView,
    /// Opens a device.
    pub open: &'a Opener<'a>,
    /// Asks for typed confirmations.
    pub prompter: &'a mut dyn Prompter,
    /// Whether a person can be asked (stdin is a terminal).
    pub interactive: bool,
    /// Set (by the caller's SIGINT handler) to stop watching; the drives go on.
    pub interrupted: Arc<AtomicBool>,
    /// Where progress goes.
    pub progress: &'a dyn ProgressSink,
    /// Words the records' messages and advice (`None`: the errors' `Display`, no advice).
    pub advise: Option<&'a dyn Advise>,
}

/// Opens `address` with the device factory; a virtual drive with a virtual clock gets a
/// sleeper that advances the drive's clock instead of waiting.
pub fn open_for_job(
    address: &str,
    verbose: u8,
    interval: Duration,
    interrupted: Arc<AtomicBool>,
) -> Result<(Box<dyn Transport>, PollConfig)> {
    let opened = device::open(address, crate::device::OpenOptions::traced(verbose))?;
    let mut poll = PollConfig::real(interval, interrupted);
    if let Some(advance) = opened.virtual_sleep() {
        // Nothing moves a virtual drive's clock but us: advance it instead of sleeping
        // (at least one second per poll so a zero interval still makes progress).
        poll.sleep = Arc::new(move |d: Duration| advance(d.max(Duration::from_secs(1))));
    }
    Ok((opened.transport, poll))
}

/// The result of a run.
#[derive(Debug, Clone)]
pub struct RunSummary {
    /// Whether it was a dry run.
    pub dry_run: bool,
    /// One record per address, in the order given.
    pub records: Vec<JobRecord>,
    /// Overall exit status (`overall_exit`).
    pub exit: u8,
    /// The audit log the start and end records went to.
    pub audit_log: PathBuf,
    /// The certificate written (JSON; `.txt` and `.html` beside it), if any.
    pub certificate: Option<PathBuf>,
    /// Fingerprint of the key that signed the certificate, if signed.
    pub signed_by: Option<String>,
    /// The records as JSON values, in order, when the certificate was written (the values it
    /// was made of); empty otherwise. [`RunSummary::record_values`] hands them over.
    pub values: Vec<Value>,
}

impl RunSummary {
    /// Each record as a JSON value (`serde_json::to_value`), in order: the certificate's own
    /// when one was written (taken, not copied), else made now on all cores
    /// (`crate::ops::par`). For a report of the run.
    pub fn record_values(&mut self) -> Vec<Value> {
        if self.values.len() == self.records.len() {
            return std::mem::take(&mut self.values);
        }
        crate::ops::par::map(&self.records, |r| {
            serde_json::to_value(r).unwrap_or(Value::Null)
        })
    }
}

/// Overall exit status: 0 all good; 8 some failed; all failed → the first failure's code.
pub(crate) fn overall_exit(codes: &[u8]) -> u8 {
    let failed: Vec<u8> = codes.iter().copied().filter(|c| *c != exit::OK).collect();
    if failed.is_empty() {
        exit::OK
    } else if failed.len() < codes.len() {
        exit::PARTIAL
    } else {
        failed[0]
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

/// The drive's other paths (`/dev/sgN`) than `address`, for advice when the job's own path
/// went away.
pub(crate) fn other_paths(gate: &Cleared, address: &str) -> Vec<String> {
    let dev = |n: &Option<String>| n.as_ref().map(|n| format!("/dev/{n}"));
    gate.paths
        .iter()
        .filter(|p| {
            dev(&p.sg).as_deref() != Some(address) && dev(&p.block).as_deref() != Some(address)
        })
        .filter_map(|p| dev(&p.sg))
        .collect()
}

fn fail(rec: &mut JobRecord, e: Error, advise: Option<&dyn Advise>) {
    rec.outcome = Outcome::of_error(&e);
    rec.error_sense = e.sense().map(|s| Box::new(s.clone()));
    rec.message = Some(advise.map_or_else(|| e.to_string(), |a| a.message(&e)));
    rec.exit_status = e.exit_code();
    rec.error = Some(Arc::new(e));
}

/// Advice of a job stopped by Ctrl-C before it sent anything.
const NOTHING_SENT: &str = "nothing to recover: run the command again to start the job";

impl Prepared {
    /// A drive that phase 2 skips (its record says why).
    fn refused(address: &str, job: Box<dyn Job>, rec: JobRecord) -> Prepared {
        Prepared {
            address: address.to_string(),
            t: None,
            poll: None,
            job,
            rec,
            cleared: None,
            hba: fleet::hba_key(address, None),
        }
    }
}

/// Marks `rec` refused because the user pressed Ctrl-C before the run's jobs started (at
/// `phase`: the confirmation prompt or the gate) and, unless the gate already did
/// (`recorded`), writes that to the audit log. Nothing was sent to the drive.
fn interrupted_before_start(rec: &mut JobRecord, audit: &AuditLog, phase: &str, recorded: bool) {
    let e: Error = Refusal::ConfirmationInterrupted {
        address: rec.device.clone(),
        job: rec.job.clone(),
    }
    .into();
    fail(rec, e, None);
    rec.advice = Some(NOTHING_SENT.into());
    if recorded {
        return;
    }
    if let Err(e) = gate::record_interrupted(audit, &rec.job, &rec.device, phase) {
        rec.message = Some(format!(
            "{}; the audit record could not be written: {e}",
            rec.message.as_deref().unwrap_or_default()
        ));
    }
}

/// A method that erases by destroying the media encryption key.
fn is_crypto_erase(m: Option<crate::ops::record::JobMethod>) -> bool {
    use crate::ops::record::JobMethod;
    use crate::scsi::sanitize::ServiceAction;
    matches!(
        m,
        Some(JobMethod::Sanitize(ServiceAction::CryptoErase))
            | Some(JobMethod::TcgErase)
            | Some(JobMethod::TcgRevert)
    )
}

/// Fills the auditor's section of a finished record (site file and flags, media type, media
/// source, the IEEE 2883 description); keeps the crypto-erase evidence read before the job.
fn fill_record_fields(
    r: &mut JobRecord,
    o: &crate::ops::record_fields::RecordOptions,
    drives: usize,
) {
    use crate::ops::record_fields::{describe, RecordFields};
    let evidence = r
        .sanitization_record
        .take()
        .and_then(|f| f.crypto_erase_evidence);
    let hctls: Vec<&str> = r.paths.iter().filter_map(|p| p.hctl.as_deref()).collect();
    let mut f = RecordFields::new(
        o,
        &r.drive,
        r.rotation_rate,
        r.operator.as_deref(),
        drives,
        &hctls,
    );
    f.description = Some(describe(
        r.ieee_2883_category,
        r.outcome == Outcome::Success,
    ));
    f.crypto_erase_evidence = evidence;
    r.sanitization_record = Some(f);
}

/// Phase 1a for one drive: open, identify, plan. Read-only (the transport refuses anything
/// state-changing), asks nobody, takes no lock and writes no audit record, so the drives are
/// planned at the same time ([`crate::ops::par::map_owned`]).
fn plan(
    host: &dyn HostView,
    open: &Opener<'_>,
    address: &str,
    opts: &JobOptions,
    job: &mut dyn Job,
    rec: &mut JobRecord,
) -> Result<(Box<dyn Transport>, PollConfig, DriveName)> {
    let (mut t, poll) = open(address)?;
    let mut ro = ReadOnly::new(ByRef(&mut *t));
    let id = query::identity(&mut ro)?;
    let cap = query::read_capacity16(&mut ro).ok();
    rec.drive = DriveInfo::new(&id, cap.as_ref());
    rec.rotation_rate = id.rotation_rate;
    rec.paths = host.paths_of(address).unwrap_or_default();
    rec.enclosure = host.slot_of(&rec.paths);
    rec.commands = job.plan(&mut ro, rec)?;
    if opts.certificate.is_some() && is_crypto_erase(rec.method) {
        // The drive's own evidence for its cryptographic erase, read-only, before the job.
        let ev = crate::ops::record_fields::read_crypto_evidence(&mut ro);
        rec.sanitization_record = Some(crate::ops::record_fields::RecordFields {
            crypto_erase_evidence: Some(ev),
            ..Default::default()
        });
    }
    gate::check_reservation(&mut ro, address, opts.ignore_reservation)?;
    let name = DriveName {
        serial: id.serial.clone(),
        wwn: id.wwn.clone(),
    };
    Ok((t, poll, name))
}

/// Phase 1b for one planned drive: the gate (in-use check, the one-job-per-drive lock, the
/// confirmation). Run for one drive after the other, in the order given, so prompts never
/// interleave and the lock and audit records do not depend on thread timing.
fn gate(
    env: &mut JobEnv<'_>,
    address: &str,
    opts: &JobOptions,
    confirmation: &Confirmation,
    audit: &AuditLog,
    job: &str,
    name: &DriveName,
) -> Result<Option<Cleared>> {
    if opts.dry_run {
        // Report what the gate would say, but never prompt: a `--confirm` that names another
        // drive is refused here as in the real run (a dry run that passes must mean the real
        // one would).
        gate::check_not_in_use(env.host, address)?;
        if !confirmation.tokens.is_empty() && !confirmation.tokens.iter().any(|c| name.matches(c)) {
            return Err(crate::error::Refusal::NotNamed {
                address: address.into(),
                drive: name.describe(),
            }
            .into());
        }
        return Ok(None);
    }
    let cleared = gate::clear(
        env.host,
        GateRequest {
            job,
            address,
            name,
            confirmation,
            audit: audit.clone(),
        },
        &mut *env.prompter,
    )?;
    Ok(Some(cleared))
}

/// Phase 2 for one drive that passed the gate: audit start, run, audit end.
fn execute(
    p: &mut Prepared,
    open: &Opener<'_>,
    progress: &dyn ProgressSink,
    advise: Option<&dyn Advise>,
    close_out: &Value,
) {
    let (Some(t), Some(poll), Some(cleared)) = (p.t.take(), p.poll.take(), p.cleared.take()) else {
        return;
    };
    let device = p.address.as_str();
    // The job goes on through another path of the LU if its own goes away.
    let reopen = move |a: &str| open(a).map(|(t, _)| t);
    let mut t =
        failover::Failover::new(t, failover::alternates(&cleared, device), Box::new(reopen));
    progress.event(&JobEvent::Started { device });
    let rec = &mut p.rec;
    let t0 = Instant::now();
    rec.started = Some(rfc3339(SystemTime::now()));
    // What `sgctl wait` needs to finish the job if this run is interrupted: the record's
    // method, scope and validation plan, and where the certificate goes.
    let mut co = close_out.clone();
    if let Some(m) = co.as_object_mut() {
        m.insert("method".into(), json!(rec.method));
        m.insert(
            "nist_sp_800_88_category".into(),
            json!(rec.nist_sp_800_88_category),
        );
        m.insert("ieee_2883_category".into(), json!(rec.ieee_2883_category));
        m.insert("scope".into(), json!(rec.scope));
        m.insert("validation".into(), json!(rec.validation));
    }
    let start = cleared.start(json!({
        "drive": rec.drive, "parameters": rec.parameters, "commands": rec.commands,
        "close_out": co,
    }));
    let (started, result) = match start {
        // The start record could not be written: the job does not start, and there is no
        // end record to write.
        Err(e) => (None, Err(e)),
        // Ctrl-C after the gate (while the start record waited for the audit log's lock, or
        // while other drives were being prepared): the job does not start.
        Ok(s) if poll.interrupted.load(Ordering::SeqCst) => (
            Some(s),
            Err(Refusal::ConfirmationInterrupted {
                address: device.to_string(),
                job: rec.job.clone(),
            }
            .into()),
        ),
        Ok(s) => {
            let started = Instant::now();
            let r = p.job.execute(&mut t, rec, &cleared, &poll, &mut |percent| {
                let eta = percent.and_then(|x| crate::ops::poll::eta(started, x));
                progress.event(&JobEvent::Progress {
                    device,
                    percent,
                    eta,
                })
            });
            (Some(s), r)
        }
    };
    match result {
        Ok(code) => rec.exit_status = code,
        Err(e) => {
            if matches!(e, Error::Refused(Refusal::ConfirmationInterrupted { .. })) {
                rec.advice = Some(NOTHING_SENT.into());
            }
            fail(rec, e, advise)
        }
    }
    rec.path_switches = t.switches().to_vec();
    if rec.advice.is_none() {
        rec.advice = advise.and_then(|a| a.advice(rec));
    }
    rec.ended = Some(rfc3339(SystemTime::now()));
    rec.duration_s = Some(t0.elapsed().as_secs_f64());
    progress.event(&JobEvent::Finished {
        device,
        outcome: rec.outcome,
    });
    let mut end = json!({"exit_status": rec.exit_status, "message": rec.message,
           "advice": rec.advice, "path_switches": rec.path_switches,
           "sense_trail": rec.sense_trail, "verification": rec.verification,
           "validation": rec.validation, "scope": rec.scope,
           "technique_verification": rec.technique_verification});
    // A job that stopped before the end keeps what `sgctl wait` needs to validate it (the
    // before-hashes of the sampled blocks: hashes only, never data).
    if rec.outcome != Outcome::Success {
        if let (Some(r), Some(m)) = (&rec.resume, end.as_object_mut()) {
            m.insert("resume".into(), r.clone());
        }
    }
    let ended = started.map_or(Ok(()), |s| s.end(rec.outcome.as_str(), end));
    if let Err(e) = ended {
        rec.message = Some(format!(
            "{}; the end audit record could not be written: {e}",
            rec.message.clone().unwrap_or_default()
        ));
    }
    // The drive handle goes last: a virtual drive with a state file saves itself when its last
    // handle is dropped, and the poll config's sleeper holds its clock.
    drop(poll);
    drop(t);
}

/// Wall time of a run's phases on stderr, when `SGCTL_JOB_TIMES` is set (docs/discovery.md,
/// "Rack-scale purges"): where a many-drive run spends its time, without a profiler.
struct Times {
    start: Option<Instant>,
    last: Instant,
}

impl Times {
    fn start() -> Times {
        let now = Instant::now();
        Times {
            start: std::env::var_os("SGCTL_JOB_TIMES").map(|_| now),
            last: now,
        }
    }

    /// Prints the time since the previous mark and since the start, naming the phase ended.
    fn mark(&mut self, phase: &str) {
        if let Some(start) = self.start {
            let now = Instant::now();
            eprintln!(
                "job time: {phase} {:.1} ms (total {:.1} ms)",
                (now - self.last).as_secs_f64() * 1e3,
                (now - start).as_secs_f64() * 1e3
            );
            self.last = now;
        }
    }
}

/// Plans, gates and runs a job (one from `make_job` per address) on every address.
pub fn run(
    mut env: JobEnv<'_>,
    addresses: &[String],
    opts: &JobOptions,
    mut make_job: impl FnMut() -> Box<dyn Job>,
) -> Result<RunSummary> {
    if addresses.is_empty() {
        return Err(Invalid::NoDevice.into());
    }
    let mut times = Times::start();
    let audit = AuditLog::resolve(opts.audit_log.as_deref());
    // A bad signing key fails here, before any drive is touched.
    let signer = crate::ops::sign::CertSigner::resolve(opts.signing_key.as_deref())?;
    // So does an output that could not be written afterwards.
    preflight_outputs(opts, addresses, &[])?;
    let confirmation = Confirmation {
        tokens: opts.confirm.clone(),
        interactive: opts.confirm.is_empty() && env.interactive,
    };
    times.mark("key and outputs checked");

    // Phase 1a, every drive at once (read-only; nobody is asked): open, identify, plan.
    // A Ctrl-C meanwhile leaves the drives not yet begun unplanned.
    let jobs: Vec<(String, Box<dyn Job>)> =
        addresses.iter().map(|a| (a.clone(), make_job())).collect();
    let (host, open, interrupted) = (env.host, env.open, env.interrupted.clone());
    let planned = crate::ops::par::map_owned(jobs, |(address, mut job)| {
        let mut rec = JobRecord::new(job.name(), &address);
        rec.parameters = opts.parameters.clone();
        let r = (!interrupted.load(Ordering::SeqCst))
            .then(|| plan(host, open, &address, opts, &mut *job, &mut rec));
        (address, job, rec, r)
    });
    times.mark("phase 1a: open, identify, plan");

    // Phase 1b, one drive after the other in the order given: the gate. Confirmation prompts
    // must not interleave, and the locks and audit records follow the order given. Ctrl-C at
    // a confirmation prompt (or anywhere in phase 1) ends the whole run before any drive's
    // job has started.
    let mut prepared = Vec::with_capacity(planned.len());
    let mut stopped: Option<&'static str> = None;
    for (address, job, mut rec, planned) in planned {
        let planned = match (stopped, planned) {
            (None, Some(r)) if !env.interrupted.load(Ordering::SeqCst) => r,
            _ => {
                // Stopped: this drive is not gated (its plan, if made, is dropped unsent).
                let phase = *stopped.get_or_insert("gate");
                let mut rec = JobRecord::new(job.name(), &address);
                rec.parameters = opts.parameters.clone();
                interrupted_before_start(&mut rec, &audit, phase, false);
                prepared.push(Prepared::refused(&address, job, rec));
                continue;
            }
        };
        let mut p = Prepared {
            address: address.clone(),
            t: None,
            poll: None,
            job: Box::new(NoJob),
            rec: JobRecord::default(),
            cleared: None,
            hba: fleet::hba_key(&address, None),
        };
        let r = planned.and_then(|(t, poll, name)| {
            let cleared = gate(
                &mut env,
                &address,
                opts,
                &confirmation,
                &audit,
                job.name(),
                &name,
            )?;
            Ok((t, poll, cleared))
        });
        match r {
            Ok((t, poll, cleared)) => {
                if let Some(c) = &cleared {
                    rec.job_id = Some(c.job_id.clone());
                    rec.paths = c.paths.clone();
                    p.hba =
                        fleet::hba_key(&address, c.paths.first().and_then(|x| x.hctl.as_deref()));
                } else {
                    rec.outcome = Outcome::DryRun;
                    rec.exit_status = exit::OK;
                }
                p.t = Some(t);
                p.poll = Some(poll);
                p.cleared = cleared;
            }
            Err(e) => {
                let refused = matches!(e, Error::Refused(_));
                let interrupted =
                    matches!(e, Error::Refused(Refusal::ConfirmationInterrupted { .. }));
                fail(&mut rec, e, env.advise);
                if opts.dry_run && refused {
                    rec.outcome = Outcome::DryRunRefused;
                }
                // A plan that failed may say what to do (a frozen ATA drive).
                if rec.advice.is_none() {
                    rec.advice =
                        (rec.next.as_ref()).and_then(|n| env.advise.and_then(|a| a.next(n)));
                }
                if interrupted {
                    stopped = Some("confirmation");
                    interrupted_before_start(&mut rec, &audit, "confirmation", true);
                }
            }
        }
        p.job = job;
        p.rec = rec;
        prepared.push(p);
    }
    if stopped.is_none() && env.interrupted.load(Ordering::SeqCst) {
        stopped = Some("gate");
    }
    if let Some(phase) = stopped {
        // Drives already cleared give their token (and lock) back: nothing has been sent.
        for p in &mut prepared {
            if p.cleared.take().is_some() {
                interrupted_before_start(&mut p.rec, &audit, phase, false);
            }
        }
    }

    times.mark("phase 1b: gate");
    // Phase 2, in parallel (capped per HBA).
    let (progress, advise, open) = (env.progress, env.advise, env.open);
    let items: Vec<(String, Prepared)> = prepared.into_iter().map(|p| (p.hba.clone(), p)).collect();
    let close_out = json!({
        "certificate": opts.certificate,
        "operator": opts.operator,
        "signing_key": signer.as_ref().map(|s| s.source.clone()),
    });
    let mut records: Vec<JobRecord> = fleet::run(items, opts.max_per_hba, |mut p| {
        execute(&mut p, open, progress, advise, &close_out);
        p.rec
    });
    times.mark("phase 2: the jobs");
    let drives = records.len();
    for r in &mut records {
        r.operator.clone_from(&opts.operator);
        if opts.certificate.is_some() {
            fill_record_fields(r, &opts.record, drives);
        }
    }
    let mut certificate = None;
    let mut values = Vec::new();
    if let (Some(path), false) = (&opts.certificate, opts.dry_run) {
        let replace = crate::files::Replace::forced(opts.force);
        // The batch manifest is made from the certificate's records, values and hashes while
        // the certificate's HTML and PDF are rendered, and written after them.
        let (manifest, made) =
            write_certificate_with(path, &records, signer.as_ref(), replace, |c| {
                (records.len() > 1)
                    .then(|| {
                        crate::ops::manifest::render(
                            &records,
                            c.values,
                            c.hashes,
                            path,
                            c.json,
                            audit.path(),
                            signer.as_ref(),
                        )
                    })
                    .transpose()
            })?;
        times.mark("certificate and manifest made (json, txt, html, pdf)");
        if let Some(m) = manifest {
            crate::ops::manifest::write_rendered(&m, &records, path, &audit, replace)?;
            times.mark("manifest written and anchored in the audit log");
        }
        values = made;
        certificate = Some(path.clone());
    }
    let codes: Vec<u8> = records.iter().map(|r| r.exit_status).collect();
    Ok(RunSummary {
        dry_run: opts.dry_run,
        exit: overall_exit(&codes),
        records,
        audit_log: audit.path().to_path_buf(),
        signed_by: certificate
            .as_ref()
            .and(signer.as_ref())
            .map(|s| crate::ops::sign::fingerprint(&s.public())),
        certificate,
        values,
    })
}

/// The files of a run that no output may name: its audit log, its signing key and the state
/// files of its virtual drives (`("audit log", path)`, ...).
pub(crate) fn job_inputs(opts: &JobOptions, addresses: &[String]) -> Vec<(&'static str, PathBuf)> {
    let mut v = vec![(
        "audit log",
        AuditLog::resolve(opts.audit_log.as_deref())
            .path()
            .to_path_buf(),
    )];
    let key = opts.signing_key.clone().or_else(|| {
        std::env::var_os(crate::ops::sign::SIGNING_KEY_ENV)
            .filter(|k| !k.is_empty())
            .map(PathBuf::from)
    });
    if let Some(k) = key {
        v.push(("signing key", crate::ops::sign::pub_path(&k)));
        v.push(("signing key", k));
    }
    for a in addresses {
        if let Some(state) = device::classify_address(a)
            .virtual_spec()
            .and_then(|s| s.option("state"))
        {
            let state = PathBuf::from(state);
            v.push(("lock file of a state file", state.with_extension("lock")));
            v.push(("state file", state));
        }
    }
    v
}

/// Every file a run writes besides its audit log: the certificate (`FILE`, `FILE.txt`,
/// `FILE.html`). A new kind of output is added here, so [`preflight_outputs`] checks it.
pub(crate) fn job_outputs(opts: &JobOptions) -> Vec<PathBuf> {
    opts.certificate
        .as_deref()
        .map(crate::ops::record::certificate_paths)
        .unwrap_or_default()
}

/// Checks, before a run opens any drive, that every output ([`job_outputs`] and `extra`) can
/// be written: the directory exists and is safe, the file system is writable and not full, the
/// name is free (or [`JobOptions::force`]), and no output names one of the run's inputs
/// ([`job_inputs`]) or another output. A refusal ([`crate::files::preflight_output`]) ends the
/// run with exit 6 and nothing sent to any drive.
pub(crate) fn preflight_outputs(
    opts: &JobOptions,
    addresses: &[String],
    extra: &[PathBuf],
) -> Result<()> {
    let inputs = job_inputs(opts, addresses);
    let mut outputs = job_outputs(opts);
    // Several drives: the batch manifest beside the certificate too.
    if let (Some(cert), true) = (&opts.certificate, addresses.len() > 1) {
        outputs.extend(crate::ops::manifest::paths(cert));
    }
    outputs.extend(extra.iter().cloned());
    for (i, out) in outputs.iter().enumerate() {
        let mut others: Vec<(&str, &std::path::Path)> =
            inputs.iter().map(|(w, p)| (*w, p.as_path())).collect();
        others.extend(outputs[..i].iter().map(|p| ("output", p.as_path())));
        crate::files::preflight_output(
            out,
            &crate::files::Preflight {
                replace: opts.force,
                others,
            },
        )?;
    }
    Ok(())
}

/// [`run`] on the real host and devices, unattended: nobody is asked (the drives must be
/// named in [`JobOptions::confirm`]), no progress is shown, Ctrl-C is not watched. What a
/// program such as the benchmark needs for a gated purge.
pub fn run_unattended(
    addresses: &[String],
    opts: &JobOptions,
    make_job: impl FnMut() -> Box<dyn Job>,
) -> Result<RunSummary> {
    let interrupted = Arc::new(AtomicBool::new(false));
    let flag = interrupted.clone();
    let interval = opts.poll_interval;
    let open = move |a: &str| open_for_job(a, 0, interval, flag.clone());
    let env = JobEnv {
        host: &crate::discover::DiscoverHost,
        open: &open,
        prompter: &mut gate::NoPrompter,
        interactive: false,
        interrupted,
        progress: &NoProgress,
        advise: None,
    };
    run(env, addresses, opts, make_job)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_status_of_many() {
        assert_eq!(overall_exit(&[0, 0]), 0);
        assert_eq!(overall_exit(&[0, 4]), exit::PARTIAL);
        assert_eq!(overall_exit(&[6, 4]), 6);
        assert_eq!(overall_exit(&[5]), 5);
    }
}
