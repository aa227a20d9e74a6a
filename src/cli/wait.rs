//! `sgctl wait DEVICE`: watch a running FORMAT UNIT or SANITIZE until it ends (also after
//! sgctl was interrupted or the drive was power cycled: a sanitize resumes on the drive).

use crate::cli::erase::Progress;
use crate::cli::{Ctx, Report};
use crate::exit;
use crate::ops::jobs::open_for_job;
use crate::ops::poll::{self, PollEnd, Trail};
use serde_json::json;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Watch a running format or sanitize until it ends; exit 0 only when the drive ends clean.
#[derive(Debug, clap::Args)]
pub struct WaitArgs {
    /// The drive.
    #[arg(value_name = "DEVICE")]
    pub device: String,
    /// Seconds between polls.
    #[arg(long, value_name = "SECONDS", default_value_t = 5.0, value_parser = super::num::poll_seconds)]
    pub poll_interval: f64,
    /// Progress as JSON Lines events on stderr.
    #[arg(long)]
    pub progress_json: bool,
}

/// Runs `sgctl wait`.
pub fn run(ctx: &mut Ctx, args: WaitArgs) -> anyhow::Result<Report> {
    let interrupted = Arc::new(AtomicBool::new(false));
    let _ = signal_hook::flag::register(signal_hook::consts::SIGINT, interrupted.clone());
    let (mut t, cfg) = open_for_job(
        &args.device,
        ctx.verbose,
        Duration::try_from_secs_f64(args.poll_interval.clamp(0.0, 3600.0)).unwrap_or_default(),
        interrupted,
    )?;
    let progress = Progress::new(ctx.json || args.progress_json, args.progress_json);
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
                args.device
            ),
        ),
        PollEnd::Failed(s) => {
            let hint = match (s.asc, s.ascq) {
                (0x31, 0x03) => "sanitize failed: use `sgctl sanitize --exit-failure-mode` if it ran with --ause, else sanitize again",
                (0x31, _) => "format failed or medium format corrupted: `sgctl format --recover`",
                _ => "the drive reports an error",
            };
            ("failed", exit::COMMAND, format!("{s}\n{hint}"))
        }
    };
    progress.end(&args.device, outcome);
    Ok(Report::new(
        Some(&args.device),
        &json!({"outcome": outcome, "sense_trail": trail.0, "waited_s": started.elapsed().as_secs_f64()}),
        text,
    )
    .with_exit(code))
}
