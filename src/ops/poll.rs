//! Polling a long operation (FORMAT UNIT, SANITIZE) with REQUEST SENSE until it ends.
//!
//! REQUEST SENSE answers GOOD with NOT READY 04/04 (format) or 04/1B (sanitize) plus an SKS
//! progress indication while the drive works (docs/protocols.md §C.7, §D.5); completion is a clean
//! NO SENSE; failure is 31/00, 31/01 or 31/03, possibly as deferred sense (§B.4). Unlike
//! sg_format's TUR path and sg_sanitize's loop, a non-progress error is never taken as success.

use crate::clock::rfc3339;
use crate::error::{Error, Result};
use crate::ops::query;
use crate::sense::{Sense, SenseKey};
use crate::transport::Transport;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

/// One line of the sense trail kept in the record (each change of condition, not every poll).
#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq)]
pub struct TrailEntry {
    /// When it was seen.
    pub time: String,
    /// The command that returned it.
    pub command: String,
    /// Sense key name.
    pub sense_key: String,
    /// ASC.
    pub asc: u8,
    /// ASCQ.
    pub ascq: u8,
    /// Decoded description.
    pub description: String,
    /// Deferred error (belongs to an earlier command).
    pub deferred: bool,
    /// Progress in percent, when reported.
    pub progress_percent: Option<f64>,
}

/// The sense trail of a job.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Trail(pub Vec<TrailEntry>);

impl Trail {
    /// Records a sense (skipping a repeat of the last condition).
    pub fn push(&mut self, command: &str, s: &Sense) {
        if let Some(last) = self.0.last() {
            if last.command == command
                && last.asc == s.asc
                && last.ascq == s.ascq
                && last.sense_key == s.key.name()
            {
                return;
            }
        }
        self.0.push(TrailEntry {
            time: rfc3339(SystemTime::now()),
            command: command.into(),
            sense_key: s.key.name().into(),
            asc: s.asc,
            ascq: s.ascq,
            description: crate::sense::asc_description(s.asc, s.ascq),
            deferred: s.deferred,
            progress_percent: s.progress_percent(),
        });
    }

    /// Records a poll that failed without sense (the path or the drive went away, BUSY after
    /// a target restart), skipping a repeat of the last failure: the record shows the
    /// interruption even when the job then goes on.
    pub(crate) fn push_error(&mut self, command: &str, e: &Error) {
        let description = format!("command failed: {e}");
        if self
            .0
            .last()
            .is_some_and(|l| l.command == command && l.description == description)
        {
            return;
        }
        self.0.push(TrailEntry {
            time: rfc3339(SystemTime::now()),
            command: command.into(),
            sense_key: "(no sense data)".into(),
            asc: 0,
            ascq: 0,
            description,
            deferred: false,
            progress_percent: None,
        });
    }

    /// Records a poll answered only after `took` (the drive or its path stalled: a target
    /// restart, a reset, a path change): the record shows the interruption when the job goes on.
    pub(crate) fn push_stall(&mut self, command: &str, took: Duration) {
        self.0.push(TrailEntry {
            time: rfc3339(SystemTime::now()),
            command: command.into(),
            sense_key: "(stalled)".into(),
            asc: 0,
            ascq: 0,
            description: format!(
                "answered after {:.1} s: the drive or its path stalled (restart, reset or path change)",
                took.as_secs_f64()
            ),
            deferred: false,
            progress_percent: None,
        });
    }

    /// Records a clean completion.
    pub(crate) fn push_clean(&mut self, command: &str) {
        self.0.push(TrailEntry {
            time: rfc3339(SystemTime::now()),
            command: command.into(),
            sense_key: SenseKey::NoSense.name().into(),
            asc: 0,
            ascq: 0,
            description: crate::sense::asc_description(0, 0),
            deferred: false,
            progress_percent: None,
        });
    }
}

/// How to wait between polls. The sleeper is swappable: real time for drives, the virtual
/// clock for `sim:` devices, nothing in unit tests.
#[derive(Clone)]
pub struct PollConfig {
    /// Time between polls.
    pub interval: Duration,
    /// Waits `interval` (or advances a virtual clock).
    pub sleep: Arc<dyn Fn(Duration) + Send + Sync>,
    /// Set by SIGINT: stop polling (the drive keeps going).
    pub interrupted: Arc<AtomicBool>,
    /// Consecutive transport errors tolerated (drive resetting, path flapping).
    pub max_errors: u32,
    /// A poll answered after this long is recorded in the trail as a stall.
    pub stall: Duration,
}

/// [`PollConfig::stall`] of real-time polling: REQUEST SENSE answers in milliseconds.
pub const STALL: Duration = Duration::from_secs(5);

impl PollConfig {
    /// Real-time polling every `interval`, sleeping in short slices so Ctrl-C is prompt.
    pub fn real(interval: Duration, interrupted: Arc<AtomicBool>) -> PollConfig {
        let flag = interrupted.clone();
        PollConfig {
            interval,
            sleep: Arc::new(move |d: Duration| {
                let end = std::time::Instant::now() + d;
                while std::time::Instant::now() < end && !flag.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(50).min(d));
                }
            }),
            interrupted,
            max_errors: 10,
            stall: STALL,
        }
    }

    /// Polls without waiting (unit tests; the mock drive advances per poll).
    pub fn immediate() -> PollConfig {
        PollConfig {
            interval: Duration::ZERO,
            sleep: Arc::new(|_| {}),
            interrupted: Arc::new(AtomicBool::new(false)),
            max_errors: 3,
            stall: Duration::MAX,
        }
    }
}

/// What kind of operation is being watched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Watched {
    /// FORMAT UNIT (04/04).
    Format,
    /// SANITIZE (04/1B).
    Sanitize,
}

/// How polling ended.
#[derive(Debug, Clone, PartialEq)]
pub enum PollEnd {
    /// The drive reports no pending condition.
    Done,
    /// The operation failed; the sense says how (31/00, 31/01, 31/03, deferred, ...).
    Failed(Box<Sense>),
    /// The user pressed Ctrl-C; the drive continues.
    Interrupted,
}

/// How a format or sanitize ended, as recorded (`ended` in a format's `after`; the text after
/// `FORMAT UNIT`/`SANITIZE` in a failure message).
#[derive(Debug, Clone, PartialEq)]
pub enum Ended {
    /// The drive finished and reports nothing pending.
    Completed,
    /// The drive finished but still reports a condition on the next REQUEST SENSE.
    CompletedWithCondition,
    /// Watching stopped (Ctrl-C); the drive goes on.
    Interrupted,
    /// The operation failed; the sense says how.
    Failed(Box<Sense>),
}

impl Ended {
    /// From how polling ended.
    pub fn of(end: &PollEnd) -> Ended {
        match end {
            PollEnd::Done => Ended::Completed,
            PollEnd::Interrupted => Ended::Interrupted,
            PollEnd::Failed(s) => Ended::Failed(s.clone()),
        }
    }
}

impl std::fmt::Display for Ended {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ended::Completed => f.write_str("completed"),
            Ended::CompletedWithCondition => {
                f.write_str("completed, but the drive still reports a condition")
            }
            Ended::Interrupted => f.write_str("interrupted"),
            Ended::Failed(s) => write!(f, "failed: {s}"),
        }
    }
}

impl Serialize for Ended {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Classification of one REQUEST SENSE answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Condition {
    /// Nothing pending.
    Clean,
    /// Still working, with progress if reported.
    InProgress(Option<f64>),
    /// A unit attention (reset/power on, capacity changed): informational; poll again.
    Attention,
    /// Becoming ready (04/01) or similar transient not-ready.
    Transient,
    /// The operation failed.
    Failed,
}

/// Classifies a sense from REQUEST SENSE while watching `w` (OpenSea's table, stricter).
pub(crate) fn classify_sense(s: Option<&Sense>) -> Condition {
    let Some(s) = s else {
        return Condition::Clean;
    };
    if s.deferred {
        return Condition::Failed;
    }
    match (s.key, s.asc, s.ascq) {
        (SenseKey::NoSense, 0, 0) if s.progress_percent().is_none() => Condition::Clean,
        // SPC-6 5Eh/xx with NO SENSE: the drive is idle or in standby (by a Power Condition
        // timer or by command), nothing is pending.
        (SenseKey::NoSense, 0x5E, _) if s.progress_percent().is_none() => Condition::Clean,
        (SenseKey::NoSense | SenseKey::NotReady, _, _) if s.progress_percent().is_some() => {
            Condition::InProgress(s.progress_percent())
        }
        (SenseKey::NotReady, 0x04, 0x04 | 0x1b) => Condition::InProgress(None),
        (SenseKey::UnitAttention, _, _) => Condition::Attention,
        (SenseKey::NotReady, 0x04, 0x01) => Condition::Transient,
        // Anything else (31/xx, hardware error, ...) is not success.
        _ => Condition::Failed,
    }
}

/// Polls REQUEST SENSE until the operation ends, calling `progress` with each percentage.
pub fn poll(
    t: &mut dyn Transport,
    cfg: &PollConfig,
    trail: &mut Trail,
    progress: &mut dyn FnMut(Option<f64>),
) -> Result<PollEnd> {
    let mut errors = 0;
    loop {
        if cfg.interrupted.load(Ordering::Relaxed) {
            return Ok(PollEnd::Interrupted);
        }
        let asked = std::time::Instant::now();
        let r = query::request_sense(t);
        if asked.elapsed() >= cfg.stall {
            trail.push_stall("REQUEST SENSE", asked.elapsed());
        }
        let s = match r {
            Ok(s) => {
                errors = 0;
                s
            }
            Err(Error::Sense(s)) => Some(*s),
            Err(e) => {
                // Drive resetting after a power cycle, path flapping: keep trying for a while.
                trail.push_error("REQUEST SENSE", &e);
                errors += 1;
                if errors > cfg.max_errors {
                    return Err(e);
                }
                (cfg.sleep)(cfg.interval.max(Duration::from_millis(10)));
                continue;
            }
        };
        match classify_sense(s.as_ref()) {
            Condition::Clean => {
                trail.push_clean("REQUEST SENSE");
                return Ok(PollEnd::Done);
            }
            Condition::InProgress(p) => {
                if let Some(s) = &s {
                    trail.push("REQUEST SENSE", s);
                }
                progress(p);
            }
            Condition::Attention | Condition::Transient => {
                if let Some(s) = &s {
                    trail.push("REQUEST SENSE", s);
                }
                // REQUEST SENSE cleared the attention; look again after the interval.
            }
            Condition::Failed => {
                let s = s.ok_or_else(|| Error::CheckFailed("lost sense".into()))?;
                trail.push("REQUEST SENSE", &s);
                return Ok(PollEnd::Failed(Box::new(s)));
            }
        }
        (cfg.sleep)(cfg.interval);
    }
}

/// Estimated time left from two progress samples (linear).
pub fn eta(started: std::time::Instant, percent: f64) -> Option<Duration> {
    if percent <= 0.5 || percent >= 100.0 {
        return None;
    }
    let el = started.elapsed().as_secs_f64();
    Some(Duration::from_secs_f64(el * (100.0 - percent) / percent))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::{Completion, DataBuf};

    /// Answers REQUEST SENSE "sanitize in progress" once, then "no sense", each after `delay`.
    struct Slow {
        delay: Duration,
        n: u32,
    }

    impl Transport for Slow {
        fn execute(&mut self, _: &[u8], d: DataBuf<'_>, _: Duration) -> Result<Completion> {
            std::thread::sleep(self.delay);
            self.n += 1;
            if let DataBuf::In(b) = d {
                b.fill(0);
                b[0] = 0x70;
                b[7] = 10;
                if self.n == 1 {
                    b[2] = 0x02;
                    b[12] = 0x04;
                    b[13] = 0x1b;
                }
                return Ok(Completion {
                    resid: b.len() - 18,
                    ..Completion::good()
                });
            }
            unreachable!()
        }
        fn address(&self) -> String {
            "slow".into()
        }
    }

    #[test]
    fn a_stalled_poll_is_in_the_trail() {
        let mut cfg = PollConfig::immediate();
        cfg.stall = Duration::from_millis(20);
        let mut trail = Trail::default();
        let mut t = Slow {
            delay: Duration::from_millis(30),
            n: 0,
        };
        let end = poll(&mut t, &cfg, &mut trail, &mut |_| {}).unwrap();
        assert_eq!(end, PollEnd::Done);
        let stalls = trail
            .0
            .iter()
            .filter(|e| e.sense_key == "(stalled)")
            .count();
        assert_eq!(stalls, 2, "{:?}", trail.0);
        // Answers in time leave no such entry.
        let mut trail = Trail::default();
        let mut t = Slow {
            delay: Duration::ZERO,
            n: 0,
        };
        cfg.stall = Duration::from_secs(5);
        poll(&mut t, &cfg, &mut trail, &mut |_| {}).unwrap();
        assert!(
            trail.0.iter().all(|e| e.sense_key != "(stalled)"),
            "{:?}",
            trail.0
        );
    }

    /// A drive that went idle or into standby (SPC-6 NO SENSE 5Eh/xx, by a Power Condition
    /// timer or by command) after the operation ended has nothing pending: not a failure.
    #[test]
    fn a_low_power_condition_is_clean() {
        for ascq in [0x00u8, 0x01, 0x02, 0x03, 0x05, 0x09, 0x0A] {
            let b = [
                0x70, 0, 0x00, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0x5E, ascq, 0, 0, 0, 0,
            ];
            let s = Sense::parse(&b).unwrap_or_else(|e| panic!("{e:?}"));
            assert_eq!(classify_sense(Some(&s)), Condition::Clean, "5E/{ascq:02x}");
        }
        // Another ASC with NO SENSE still is not taken as success.
        let b = [
            0x70, 0, 0x00, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0x0B, 0x01, 0, 0, 0, 0,
        ];
        let s = Sense::parse(&b).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(classify_sense(Some(&s)), Condition::Failed);
    }
}
