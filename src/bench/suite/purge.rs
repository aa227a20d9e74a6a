//! PURGE before a test, through the same jobs as `sgctl sanitize` and `sgctl format` (their
//! plan → execute code, sense trail, verification and job record), run under the bench's own
//! safety-gate clearance. A drive that cannot be purged runs only with `--purge none`, and the
//! report then says NOT PURGED.
//!
//! The jobs are [`crate::ops::jobs::sanitize::SanitizeJob`] and
//! [`crate::ops::jobs::format::FormatJob`]; `run_job` is the one call site.

use crate::clock::rfc3339;
use crate::error::{Error, Result};
use crate::ops::gate::Cleared;
use crate::ops::jobs::{format::FormatJob, sanitize::SanitizeJob, Job};
use crate::ops::poll::PollConfig;
use crate::ops::query::{self, Support};
use crate::ops::record::{DriveInfo, JobRecord, Outcome};
use crate::ops::sanitize::{self as san, Method, SanitizeOptions};
use crate::scsi::sanitize::{OverwriteParameters, ServiceAction};
use crate::transport::Transport;
use serde::{Deserialize, Serialize};
use std::time::{Instant, SystemTime};

/// `--purge`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum PurgeMethod {
    /// The first the drive supports for a benchmark: block > crypto > overwrite > format. Not
    /// `sanitize`'s order on purpose: a block erase returns the flash to its fresh-out-of-box
    /// state, which the PTS purge is for; a crypto erase may leave every LBA mapped
    /// (docs/cli-conventions.md).
    Auto,
    /// SANITIZE CRYPTOGRAPHIC ERASE.
    Crypto,
    /// SANITIZE BLOCK ERASE.
    Block,
    /// SANITIZE OVERWRITE (one pass of zeros).
    Overwrite,
    /// FORMAT UNIT at the current block size and protection (full format).
    Format,
    /// No purge: the report says NOT PURGED.
    None,
}

impl PurgeMethod {
    /// The `--purge` spelling.
    pub fn name(self) -> &'static str {
        match self {
            PurgeMethod::Auto => "auto",
            PurgeMethod::Crypto => "crypto",
            PurgeMethod::Block => "block",
            PurgeMethod::Overwrite => "overwrite",
            PurgeMethod::Format => "format",
            PurgeMethod::None => "none",
        }
    }
}

/// The purge step as the report holds it.
#[derive(Debug, Clone, Serialize, Deserialize, Default)]
pub struct PurgeRecord {
    /// `--purge` as given.
    pub requested: String,
    /// What ran (`SANITIZE BLOCK ERASE`, `FORMAT UNIT`), or None.
    pub method: Option<String>,
    /// True only when a purge completed and verified.
    pub purged: bool,
    /// `purged (SANITIZE BLOCK ERASE)` or `NOT PURGED (...)`: the line reports print.
    pub status: String,
    /// RFC 3339 start.
    pub started: Option<String>,
    /// Wall seconds.
    pub duration_s: Option<f64>,
    /// The job record of the sanitize/format job (sense trail, verification, outcome).
    pub job: Option<serde_json::Value>,
    /// Certificate file (relative to the report directory) written for this purge.
    pub certificate: Option<String>,
    /// Audit log the gate wrote to.
    pub audit_log: Option<String>,
}

/// `--purge auto` of a benchmark: the method that returns flash to its fresh-out-of-box
/// state first.
pub(crate) const BENCH_AUTO_ORDER: [PurgeMethod; 4] = [
    PurgeMethod::Block,
    PurgeMethod::Crypto,
    PurgeMethod::Overwrite,
    PurgeMethod::Format,
];

/// The purge methods this drive offers (names as `--purge` spells them): its SANITIZE
/// service actions, then FORMAT UNIT.
pub fn available(t: &mut dyn Transport) -> Vec<PurgeMethod> {
    let mut v = Vec::new();
    if let Ok(s) = san::support(t) {
        for sa in san::AUTO_ORDER {
            if s.of(sa) == Support::Supported {
                v.push(match sa {
                    ServiceAction::CryptoErase => PurgeMethod::Crypto,
                    ServiceAction::BlockErase => PurgeMethod::Block,
                    _ => PurgeMethod::Overwrite,
                });
            }
        }
    }
    // FORMAT UNIT (04h): supported unless RSOC says it is not.
    match query::rsoc_one(t, 0x04, 0) {
        Ok((Support::NotSupported, _)) => {}
        _ => v.push(PurgeMethod::Format),
    }
    v
}

fn list(v: &[PurgeMethod]) -> String {
    if v.is_empty() {
        "none (run with --purge none; the report will say NOT PURGED)".into()
    } else {
        v.iter().map(|m| m.name()).collect::<Vec<_>>().join(", ")
    }
}

/// Resolves `--purge` against what the drive offers. A method the drive lacks is
/// [`Error::Unsupported`] (exit 7) naming the methods it has.
pub fn resolve(t: &mut dyn Transport, want: PurgeMethod) -> Result<PurgeMethod> {
    if want == PurgeMethod::None {
        return Ok(want);
    }
    let have = available(t);
    if want == PurgeMethod::Auto {
        return BENCH_AUTO_ORDER
            .into_iter()
            .find(|m| have.contains(m))
            .ok_or_else(|| {
                Error::Unsupported(format!(
                    "the drive offers no purge method; methods it has: {}",
                    list(&have)
                ))
            });
    }
    if have.contains(&want) {
        Ok(want)
    } else {
        Err(Error::Unsupported(format!(
            "the drive does not support --purge {}; methods it has: {}",
            want.name(),
            list(&have)
        )))
    }
}

/// The record of a run without purge.
pub(crate) fn not_purged(requested: PurgeMethod, why: &str) -> PurgeRecord {
    PurgeRecord {
        requested: requested.name().into(),
        status: format!("NOT PURGED ({why})"),
        ..PurgeRecord::default()
    }
}

/// Runs the purge `m` (already [`resolve`]d, not `None`/`Auto`) as the sanitize/format job.
pub fn run(
    t: &mut dyn Transport,
    m: PurgeMethod,
    cleared: &Cleared,
    poll: &PollConfig,
    certificate: Option<&std::path::Path>,
    progress: &mut dyn FnMut(Option<f64>),
) -> Result<PurgeRecord> {
    let started = SystemTime::now();
    let t0 = Instant::now();
    let rec = run_job(t, m, cleared, poll, progress)?;
    let mut cert_name = None;
    if let Some(p) = certificate {
        crate::ops::record::write_certificate(p, std::slice::from_ref(&rec))?;
        cert_name = p.file_name().map(|n| n.to_string_lossy().into_owned());
    }
    let ok = rec.exit_status == crate::exit::OK && rec.outcome == Outcome::Success;
    let method = rec.method.map(|m| m.name().to_string());
    let out = PurgeRecord {
        requested: m.name().into(),
        purged: ok,
        status: if ok {
            format!("purged ({})", method.clone().unwrap_or_default())
        } else {
            format!(
                "NOT PURGED ({} {}: {})",
                method.clone().unwrap_or_else(|| m.name().into()),
                rec.outcome,
                rec.message.clone().unwrap_or_default()
            )
        },
        method,
        started: Some(rfc3339(started)),
        duration_s: Some(t0.elapsed().as_secs_f64()),
        job: serde_json::to_value(&rec).ok(),
        certificate: cert_name,
        audit_log: Some(cleared.audit_path().display().to_string()),
    };
    if !ok {
        return Err(match rec.exit_status {
            crate::exit::UNSUPPORTED => Error::Unsupported(out.status.clone()),
            crate::exit::CHECK_FAILED => Error::CheckFailed(out.status.clone()),
            _ => Error::CheckFailed(out.status.clone()),
        });
    }
    Ok(out)
}

/// FORMAT UNIT to `pct` % of the current capacity (None: the maximum) at the current block
/// size and protection, through the `sgctl format` job. Returns its record.
pub fn format_capacity(
    t: &mut dyn Transport,
    pct: Option<u8>,
    cleared: &Cleared,
    poll: &PollConfig,
    progress: &mut dyn FnMut(Option<f64>),
) -> Result<JobRecord> {
    let cap = query::read_capacity16(t)?;
    let job = FormatJob::boxed(crate::ops::format::FormatOptions {
        block_size: Some(cap.block_len),
        protection: protection_of(&cap)?,
        pi_exponent: cap.p_i_exponent,
        capacity: match pct {
            Some(p) => crate::ops::format::CapacityRequest::Percent(p),
            None => crate::ops::format::CapacityRequest::Max,
        },
        fast: false,
        recover: false,
        preset: None,
    });
    execute_job(t, job, cleared, poll, progress)
}

/// The one call site of the sanitize/format jobs.
fn run_job(
    t: &mut dyn Transport,
    m: PurgeMethod,
    cleared: &Cleared,
    poll: &PollConfig,
    progress: &mut dyn FnMut(Option<f64>),
) -> Result<JobRecord> {
    let seed = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1);
    let job = match m {
        PurgeMethod::Format => {
            let cap = query::read_capacity16(t)?;
            FormatJob::boxed(crate::ops::format::FormatOptions {
                block_size: Some(cap.block_len),
                protection: protection_of(&cap)?,
                pi_exponent: cap.p_i_exponent,
                capacity: crate::ops::format::CapacityRequest::Max,
                fast: false,
                recover: false,
                preset: None,
            })
        }
        other => {
            let method = match other {
                PurgeMethod::Crypto => Method::Crypto,
                PurgeMethod::Block => Method::Block,
                PurgeMethod::Overwrite => Method::Overwrite(OverwriteParameters {
                    invert: false,
                    count: 1,
                    pattern: vec![0; 4],
                }),
                _ => Method::Auto,
            };
            SanitizeJob::boxed(
                SanitizeOptions {
                    method,
                    ause: false,
                    znr: false,
                    verify: 4,
                    validate: None,
                },
                seed,
            )
        }
    };
    execute_job(t, job, cleared, poll, progress)
}

fn execute_job(
    t: &mut dyn Transport,
    mut job: Box<dyn Job>,
    cleared: &Cleared,
    poll: &PollConfig,
    progress: &mut dyn FnMut(Option<f64>),
) -> Result<JobRecord> {
    let mut rec = JobRecord::new(job.name(), &t.address());
    {
        let mut ro = crate::ops::gate::ReadOnly::new(crate::ops::gate::ByRef(&mut *t));
        let id = query::identity(&mut ro)?;
        let cap = query::read_capacity16(&mut ro).ok();
        rec.drive = DriveInfo::new(&id, cap.as_ref());
        rec.commands = job.plan(&mut ro, &mut rec)?;
    }
    rec.job_id = Some(cleared.job_id.clone());
    rec.paths = cleared.paths.clone();
    rec.started = Some(rfc3339(SystemTime::now()));
    let t0 = Instant::now();
    match job.execute(t, &mut rec, cleared, poll, progress) {
        Ok(code) => rec.exit_status = code,
        Err(e) => {
            rec.outcome = Outcome::Failed;
            rec.message = Some(e.to_string());
            rec.exit_status = e.exit_code();
        }
    }
    rec.ended = Some(rfc3339(SystemTime::now()));
    rec.duration_s = Some(t0.elapsed().as_secs_f64());
    Ok(rec)
}

/// The protection type a drive is formatted with now (READ CAPACITY(16) PROT_EN/P_TYPE).
pub(crate) fn protection_of(
    cap: &query::Capacity,
) -> Result<crate::scsi::format_unit::ProtectionType> {
    let n = if cap.prot_en { cap.p_type + 1 } else { 0 };
    crate::scsi::format_unit::ProtectionType::from_number(n)
}
