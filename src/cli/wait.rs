//! `sgctl wait DEVICE`: watch a running FORMAT UNIT or SANITIZE until it ends (also after
//! sgctl was interrupted or the drive was power cycled: a sanitize resumes on the drive).
//! A sanitize whose job was interrupted (Ctrl-C, SIGTERM, SIGHUP) is finished: validation,
//! the audit end record and the certificate the job was started with
//! ([`sgctl::ops::closeout`]).

use crate::cli::erase::Progress;
use crate::cli::{Ctx, Report};
use serde_json::json;
use sgctl::exit;
use sgctl::ops::jobs::open_for_job;
use sgctl::ops::poll::{self, PollEnd, Trail};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Watch a running format or sanitize until it ends; exit 0 only when the drive ends clean.
/// Finishes an interrupted sanitize job of the drive found in the audit log.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
When the audit log holds a sanitize of this drive (same serial number) that was interrupted
(Ctrl-C, SIGTERM, SIGHUP, a lost session) or never ended, wait finishes that job: it watches
the drive to the end, validates the sampled blocks with the hashes taken before the sanitize,
writes the job's end record and the certificate named when the job started (same signing key).

EXAMPLES:
  sgctl wait /dev/sg3
  sgctl wait --resume --audit-log /var/log/sgctl/audit.jsonl /dev/sg3")]
pub(crate) struct WaitArgs {
    /// The drive.
    #[arg(value_name = "DEVICE")]
    pub device: String,
    /// Time between polls (a duration: 5, 5s, 500ms).
    #[arg(long, value_name = "DURATION", default_value_t = 5.0, value_parser = super::num::poll_seconds)]
    pub poll_interval: f64,
    /// Progress as JSON Lines events on stderr.
    #[arg(long)]
    pub progress_json: bool,
    /// Audit log to look for the interrupted job in
    /// [default: $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl].
    #[arg(long, value_name = "FILE")]
    pub audit_log: Option<std::path::PathBuf>,
    /// Require an interrupted job of this drive in the audit log to finish (without it, wait
    /// also just watches a drive whose job it does not find).
    #[arg(long)]
    pub resume: bool,
}

/// Runs `sgctl wait`.
pub(crate) fn run(ctx: &mut Ctx, args: WaitArgs) -> anyhow::Result<Report> {
    let interrupted = Arc::new(AtomicBool::new(false));
    let _ = super::signals::register_stop_signals(&interrupted);
    let (mut t, cfg) = open_for_job(
        &args.device,
        ctx.verbose,
        Duration::try_from_secs_f64(args.poll_interval.clamp(0.0, 3600.0)).unwrap_or_default(),
        interrupted,
    )?;
    let progress = Progress::new(ctx.json || args.progress_json, args.progress_json);
    // An interrupted sanitize of this drive (by serial number) in the audit log?
    let audit = sgctl::ops::audit::AuditLog::resolve(args.audit_log.as_deref());
    let id = sgctl::ops::query::identity(&mut *t).ok();
    let serial = id.as_ref().map(|i| i.serial.clone());
    let open = match &serial {
        Some(s) => sgctl::ops::closeout::find(&audit, s)?,
        None => None,
    };
    // The job's own process may still be watching (it holds the drive's job lock): then it
    // writes the end record itself and wait only watches.
    let mut note = None;
    let mut _lock = None;
    let open = match (open, &id) {
        (Some(job), Some(i)) => {
            let name = sgctl::ops::gate::DriveName {
                serial: i.serial.clone(),
                wwn: i.wwn.clone(),
            };
            match sgctl::ops::gate::lock::for_job("wait", &job.job_id, &args.device, &name) {
                Ok(l) => {
                    _lock = l;
                    Some(job)
                }
                Err(e) => {
                    note = Some(format!(
                        "job {} is still watched by its own process ({e}); only watching\n",
                        job.job_id
                    ));
                    None
                }
            }
        }
        (o, _) => o,
    };
    if let Some(job) = open {
        progress.begin(&args.device);
        let started = Instant::now();
        let rec = sgctl::ops::closeout::finish(&mut *t, &job, &cfg, &audit, &mut |p| {
            progress.sample(&args.device, p, p.and_then(|x| poll::eta(started, x)))
        })?;
        progress.end(&args.device, rec.outcome.as_str());
        let mut text = format!(
            "finishing job {} (started {}, {}):\n",
            job.job_id,
            job.start["time"].as_str().unwrap_or("-"),
            job.state.replace('_', " ")
        );
        text.push_str(&rec.render_text());
        if rec.outcome == sgctl::ops::record::Outcome::Interrupted {
            text.push_str(&format!(
                "stopped watching again; the drive continues. Run `sgctl wait {}` again\n",
                args.device
            ));
        }
        let code = rec.exit_status;
        return Ok(Report::new(
            Some(&args.device),
            &json!({"outcome": rec.outcome.as_str(), "finished_job": job.job_id,
                    "record": rec, "waited_s": started.elapsed().as_secs_f64()}),
            text,
        )
        .with_exit(code));
    }
    if args.resume && note.is_none() {
        return Err(sgctl::Error::InvalidArgument(format!(
            "--resume: the audit log {} holds no interrupted sanitize of this drive{}",
            audit.path().display(),
            serial.map(|s| format!(" (serial {s})")).unwrap_or_default()
        ))
        .into());
    }
    progress.begin(&args.device);
    let started = Instant::now();
    let mut trail = Trail::default();
    let end = poll::poll(&mut *t, &cfg, &mut trail, &mut |p| {
        progress.sample(&args.device, p, p.and_then(|x| poll::eta(started, x)))
    })?;
    let (outcome, code, text) = match &end {
        PollEnd::Done => (
            "done",
            exit::OK,
            "the drive reports no operation in progress and no error".to_string(),
        ),
        PollEnd::Interrupted => (
            "interrupted",
            exit::OTHER,
            format!(
                "stopped watching; the drive continues. Run `sgctl wait {}` again",
                crate::cli::advice::sh(&args.device)
            ),
        ),
        PollEnd::Failed(s) => {
            let dev = crate::cli::advice::sh(&args.device);
            let hint = match (s.asc, s.ascq) {
                (0x31, 0x03) => format!("sanitize failed: use `sgctl sanitize {dev} --exit-failure-mode` if it ran with --ause, else sanitize again"),
                (0x31, _) => format!("format failed or medium format corrupted: `sgctl format {dev} --recover`"),
                _ => "the drive reports an error".to_string(),
            };
            ("failed", exit::COMMAND, format!("{s}\n{hint}"))
        }
    };
    progress.end(&args.device, outcome);
    let text = format!("{}{text}", note.unwrap_or_default());
    Ok(Report::new(
        Some(&args.device),
        &json!({"outcome": outcome, "sense_trail": trail.0, "waited_s": started.elapsed().as_secs_f64()}),
        text,
    )
    .with_exit(code))
}
