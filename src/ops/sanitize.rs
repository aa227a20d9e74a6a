//! `sgctl sanitize`: SANITIZE with capability-driven method choice, polling that survives
//! power cycles, failure detection (31/03) with the way out, and read-back verification.
//!
//! Sources: docs/protocols.md §D (SBC-4 5.31, sg3_utils `sg_sanitize.c`, OpenSea `sanitize.c`,
//! T10 reflector 2015/2017 on AUSE and resume).

use crate::cmd::run_out;
use crate::error::{Error, Invalid, Next, Refusal, Result};
use crate::ops::gate::{Cleared, PlannedCommand};
use crate::ops::poll::{self, Ended, PollConfig, PollEnd, Trail};
use crate::ops::query::{self, Capacity, Support};
use crate::ops::record::{Category, Sample, SampleOutcome, Verification, VerifyResult};
use crate::ops::validate::{self, Plan, Validation};
use crate::scsi::read_write::Read16Cdb;
use crate::scsi::sanitize::{self as cdb, OverwriteParameters, ServiceAction};
use crate::sense::SenseKey;
use crate::transport::{DataBuf, Transport, DEFAULT_TIMEOUT};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::time::Duration;

/// The method the user picked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// CRYPTOGRAPHIC ERASE.
    Crypto,
    /// BLOCK ERASE.
    Block,
    /// OVERWRITE with a pattern.
    Overwrite(OverwriteParameters),
    /// EXIT FAILURE MODE (leave a failed sanitize; needs AUSE=1 on the failed one).
    ExitFailureMode,
    /// The strongest supported purge, fastest first: crypto > block > overwrite.
    Auto,
}

/// Options of one sanitize.
#[derive(Debug, Clone, Serialize)]
pub struct SanitizeOptions {
    /// Method.
    pub method: Method,
    /// AUSE: allow EXIT FAILURE MODE if this sanitize fails.
    pub ause: bool,
    /// ZNR: zoned drives keep write pointers.
    pub znr: bool,
    /// Sampled LBAs to hash before and read after (`--verify N`, an alias of the `N` blocks
    /// validation plan); used when `validate` is `None` and N > 0.
    pub verify: u32,
    /// The validation plan; `None`: `verify` blocks when N > 0, else the default `quick`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub validate: Option<crate::ops::validate::Plan>,
}

impl SanitizeOptions {
    /// `method` without AUSE or ZNR and without sampled verification.
    pub fn new(method: Method) -> SanitizeOptions {
        SanitizeOptions {
            method,
            ause: false,
            znr: false,
            verify: 0,
            validate: None,
        }
    }

    /// The validation plan in effect.
    pub fn plan(&self) -> Plan {
        match (self.validate, self.verify) {
            (Some(p), _) => p,
            (None, 0) => Plan::Quick,
            (None, n) => Plan::Blocks(n),
        }
    }

    /// Whether the plan was asked for (not the default).
    fn plan_explicit(&self) -> bool {
        self.validate.is_some() || self.verify > 0
    }
}

/// Which service actions the drive offers (RSOC per service action).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SupportReport {
    /// One entry per SA: name, support, recommended timeout.
    pub service_actions: Vec<SaSupport>,
}

/// Support of one service action.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SaSupport {
    /// The service action.
    pub service_action: ServiceAction,
    /// T10 name.
    pub name: String,
    /// What RSOC said.
    pub support: Support,
    /// Recommended command timeout in seconds (RCTD), if reported.
    pub recommended_timeout_s: Option<u32>,
}

impl SupportReport {
    /// The support of `sa`.
    pub fn of(&self, sa: ServiceAction) -> Support {
        self.service_actions
            .iter()
            .find(|s| s.service_action == sa)
            .map(|s| s.support)
            .unwrap_or(Support::Unknown)
    }
}

/// Asks the drive which SANITIZE service actions it supports (docs/protocols.md §D.4).
pub fn support(t: &mut dyn Transport) -> Result<SupportReport> {
    let mut v = Vec::new();
    for sa in ServiceAction::ALL {
        let (support, timeout) = query::rsoc_one(t, cdb::OPCODE, u16::from(sa.code()))?;
        v.push(SaSupport {
            service_action: sa,
            name: sa.name().into(),
            support,
            recommended_timeout_s: timeout,
        });
    }
    Ok(SupportReport { service_actions: v })
}

/// NIST SP 800-88 Rev. 1 / IEEE 2883-2022 category of a method.
pub fn category(sa: ServiceAction) -> Category {
    match sa {
        // SP 800-88r1 Tables A-7/A-8 (SCSI): all three SANITIZE variants are Purge;
        // IEEE 2883 §6 lists them as Purge methods for SCSI.
        ServiceAction::Overwrite | ServiceAction::BlockErase | ServiceAction::CryptoErase => {
            Category::Purge
        }
        ServiceAction::ExitFailureMode => Category::None,
    }
}

/// The one `auto` order (docs/cli-conventions.md): the SANITIZE service actions `sanitize
/// --method auto` and `bench pts --purge auto` try, first supported wins. Crypto first: it
/// takes seconds and reaches every copy the drive keeps under the media key; block erase next;
/// overwrite last (hours, and it cannot reach over-provisioned flash).
pub(crate) const AUTO_ORDER: [ServiceAction; 3] = [
    ServiceAction::CryptoErase,
    ServiceAction::BlockErase,
    ServiceAction::Overwrite,
];

/// Picks the method: explicit, or auto (crypto > block > overwrite among supported).
pub fn choose(
    method: &Method,
    s: &SupportReport,
) -> Result<(ServiceAction, Option<OverwriteParameters>)> {
    Ok(match method {
        Method::Crypto => (ServiceAction::CryptoErase, None),
        Method::Block => (ServiceAction::BlockErase, None),
        Method::Overwrite(p) => (ServiceAction::Overwrite, Some(p.clone())),
        Method::ExitFailureMode => (ServiceAction::ExitFailureMode, None),
        Method::Auto => {
            let pick = AUTO_ORDER
                .into_iter()
            .find(|sa| s.of(*sa) == Support::Supported)
            .ok_or_else(|| {
                Error::Unsupported(
                    "the drive reports no SANITIZE service action (REPORT SUPPORTED OPERATION CODES); \
                     pick one explicitly to try anyway"
                        .into(),
                )
            })?;
            let p = (pick == ServiceAction::Overwrite).then(|| OverwriteParameters {
                invert: false,
                count: 1,
                pattern: vec![0; 4],
            });
            (pick, p)
        }
    })
}

/// Decided commands for one sanitize.
#[derive(Debug, Clone, Serialize)]
pub struct SanitizePlan {
    /// Chosen service action.
    pub service_action: ServiceAction,
    /// NIST/IEEE category.
    pub category: Category,
    /// Capacity before.
    pub capacity: Option<Capacity>,
    /// LBAs sampled for verification.
    pub sample_lbas: Vec<u64>,
    /// The validation plan and its summary (result filled in by [`finish`]).
    pub validation: Option<Validation>,
    /// The plan itself.
    #[serde(skip)]
    pub validate: Plan,
    /// The OVERWRITE pattern (a `full` read compares every block with it).
    #[serde(skip)]
    pub pattern: Option<Vec<u8>>,
    /// The SANITIZE CDB.
    #[serde(skip)]
    pub cdb: [u8; 10],
    /// Its parameter list.
    #[serde(skip)]
    pub params: Vec<u8>,
    /// State-changing commands for `--dry-run` and the record.
    pub commands: Vec<PlannedCommand>,
    /// Support probe result.
    pub support: SupportReport,
}

/// Where the drive stands before we start.
#[derive(Debug, Clone, PartialEq)]
pub enum Precondition {
    /// Ready.
    Ready,
    /// A sanitize is already running (e.g. after a power cycle): watch it with `sgctl wait`.
    InProgress(Option<f64>),
    /// A previous sanitize failed (31/03).
    Failed,
    /// Medium format corrupted (31/00).
    FormatCorrupt,
}

/// Looks at the drive's pending condition without changing anything.
pub fn precondition(t: &mut dyn Transport) -> Result<Precondition> {
    // Twice: the first REQUEST SENSE may only report and clear a unit attention.
    for _ in 0..2 {
        let s = match query::request_sense(t) {
            Ok(s) => s,
            Err(Error::Sense(s)) => Some(*s),
            Err(e) => return Err(e),
        };
        let Some(s) = s else {
            return Ok(Precondition::Ready);
        };
        match (s.key, s.asc, s.ascq) {
            (SenseKey::UnitAttention, _, _) => continue,
            (_, 0x04, 0x1b) | (_, 0x04, 0x04) => {
                return Ok(Precondition::InProgress(s.progress_percent()))
            }
            (_, 0x31, 0x03) => return Ok(Precondition::Failed),
            (_, 0x31, 0x00) => return Ok(Precondition::FormatCorrupt),
            _ => return Ok(Precondition::Ready),
        }
    }
    Ok(Precondition::Ready)
}

/// A small deterministic generator for sampling LBAs (xorshift64*; no crypto needed).
fn sample_lbas(last_lba: u64, n: u32, seed: u64) -> Vec<u64> {
    let mut v = Vec::new();
    if n == 0 {
        return v;
    }
    v.push(0);
    if n >= 2 && last_lba > 0 {
        v.push(last_lba);
    }
    let mut x = seed | 1;
    let mut tries = 0;
    while (v.len() as u64) < u64::from(n).min(last_lba.saturating_add(1)) && tries < 10 * n {
        tries += 1;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        let r = x.wrapping_mul(0x2545_f491_4f6c_dd1d) % last_lba.saturating_add(1);
        if !v.contains(&r) {
            v.push(r);
        }
    }
    v
}

/// Plans a sanitize with read-only queries.
pub fn plan(t: &mut dyn Transport, o: &SanitizeOptions, seed: u64) -> Result<SanitizePlan> {
    let sup = support(t)?;
    let (sa, ow) = choose(&o.method, &sup)?;
    if sup.of(sa) == Support::NotSupported {
        return Err(Error::Unsupported(format!(
            "the drive does not support SANITIZE {} (REPORT SUPPORTED OPERATION CODES)",
            sa.name()
        )));
    }
    let capacity = if sa == ServiceAction::ExitFailureMode {
        None
    } else {
        match query::read_capacity16(t) {
            Ok(c) => Some(c),
            // A drive in sanitize failure mode (31/03) or with a corrupt format (31/00)
            // refuses medium access; a new sanitize is the way out, so plan without capacity.
            Err(e) if e.sense().is_some_and(|s| s.asc == 0x31) => None,
            Err(e) => return Err(e),
        }
    };
    let mut vplan = if sa == ServiceAction::ExitFailureMode {
        Plan::None
    } else {
        o.plan()
    };
    if capacity.is_none() && vplan != Plan::None {
        if o.plan_explicit() {
            return Err(Invalid::VerifyNeedsCapacity.into());
        }
        // The default plan on a drive that cannot report its capacity (sanitize failure
        // mode): the record says "not validated" and why.
        vplan = Plan::None;
    }
    let lb = match capacity {
        Some(c) => c.block_len,
        None => query::mode_sense10(t, 0x01)
            .map(|m| m.block_len)
            .unwrap_or(512),
    };
    let (c, p) = cdb::SanitizeCdb::new(sa)
        .immed(true)
        .ause(o.ause)
        .znr(o.znr)
        .build_with_list(ow.as_ref().map(|p| (p, lb)))?;
    let extents: Vec<(u64, u64)> = capacity.map(|c| vec![(0, c.blocks())]).unwrap_or_default();
    let sample = validate::lbas(vplan, &extents, seed);
    let validation = (sa != ServiceAction::ExitFailureMode).then(|| {
        let mut v = Validation::planned(vplan, seed, capacity.map(|c| c.blocks()), sample.len());
        if vplan == Plan::None && capacity.is_none() {
            v.description =
                "not validated: the drive did not report its capacity (sanitize failure mode)"
                    .into();
        }
        if vplan != Plan::None {
            let b1 = query::vpd(t, 0xb1)
                .ok()
                .and_then(|p| crate::scsi::vpd::block_characteristics::parse(&p).ok());
            v.read_after_erase = match sa {
                ServiceAction::BlockErase => {
                    b1.map(|b| format!("WABEREQ: {}", validate::read_after_erase(b.wabereq)))
                }
                ServiceAction::CryptoErase => {
                    b1.map(|b| format!("WACEREQ: {}", validate::read_after_erase(b.wacereq)))
                }
                _ => Some(
                    "after OVERWRITE reads succeed and return the pattern (SBC-4 SANITIZE)".into(),
                ),
            };
            v.protection_information = capacity.map(|c| {
                if c.prot_en {
                    format!(
                        "type {} protection: reads use RDPROTECT=0, so the drive checks the \
                         protection information; a read refused after the erase (PI check or \
                         MEDIUM ERROR) counts as unreadable after, which shows the erase",
                        c.p_type + 1
                    )
                } else {
                    "none (not formatted with protection information)".into()
                }
            });
        }
        v
    });
    Ok(SanitizePlan {
        service_action: sa,
        category: category(sa),
        capacity,
        sample_lbas: sample,
        validation,
        validate: vplan,
        pattern: ow.as_ref().map(|p| p.pattern.clone()),
        cdb: c,
        params: p.clone(),
        commands: vec![PlannedCommand::new(
            &format!("SANITIZE {}", sa.name()),
            &c,
            &p,
        )],
        support: sup,
    })
}

fn read_block(t: &mut dyn Transport, lba: u64, lb: u32) -> Result<Vec<u8>> {
    let mut buf = vec![0u8; lb as usize];
    let c = t.execute(
        &Read16Cdb::new(lba, 1).build(),
        DataBuf::In(&mut buf),
        DEFAULT_TIMEOUT,
    )?;
    crate::transport::check(&c)?;
    Ok(buf)
}

/// `n` LBAs to sample on a drive whose last LBA is `last_lba`: first, last, then random
/// (also used by the ATA purge methods, src/ops/ata_sanitize.rs).
pub fn sample(last_lba: u64, n: u32, seed: u64) -> Vec<u64> {
    sample_lbas(last_lba, n, seed)
}

/// Hashes the sampled blocks before the purge: `(lba, hash, uniform)`.
pub(crate) fn hash_before(
    t: &mut dyn Transport,
    p: &SanitizePlan,
) -> Vec<(u64, Option<String>, bool)> {
    let lb = p.capacity.map(|c| c.block_len).unwrap_or(512);
    hash_blocks(t, &p.sample_lbas, lb)
}

/// Hashes blocks `lbas` of `lb` bytes: `(lba, hash, uniform)`.
pub(crate) fn hash_blocks(
    t: &mut dyn Transport,
    lbas: &[u64],
    lb: u32,
) -> Vec<(u64, Option<String>, bool)> {
    lbas.iter()
        .map(|&lba| match read_block(t, lba, lb) {
            Ok(b) => {
                let uniform = b.windows(2).all(|w| w[0] == w[1]);
                (lba, Some(hex32(&Sha256::digest(&b))), uniform)
            }
            Err(_) => (lba, None, false),
        })
        .collect()
}

fn hex32(d: &[u8]) -> String {
    d.iter().map(|b| format!("{b:02x}")).collect()
}

/// Reads the samples again and compares.
pub(crate) fn verify_after(
    t: &mut dyn Transport,
    lb: u32,
    before: &[(u64, Option<String>, bool)],
) -> Verification {
    let mut v = Verification::default();
    for (lba, bh, uniform) in before {
        let after = read_block(t, *lba, lb)
            .ok()
            .map(|b| hex32(&Sha256::digest(&b)));
        let outcome = match (bh, &after) {
            (None, _) => SampleOutcome::UnreadableBefore,
            (Some(_), None) => SampleOutcome::UnreadableAfter,
            (Some(b), Some(a)) if a == b && *uniform => SampleOutcome::InconclusiveBlank,
            (Some(b), Some(a)) if a == b => SampleOutcome::Survived,
            _ => SampleOutcome::Changed,
        };
        if outcome == SampleOutcome::Survived {
            v.survived += 1;
        }
        v.samples.push(Sample {
            lba: *lba,
            before_sha256: bh.clone(),
            after_sha256: after,
            outcome,
        });
    }
    v.conclusive = v.samples.iter().filter(|s| s.outcome.conclusive()).count();
    v.passed = v.survived == 0;
    v.result = if v.survived > 0 {
        VerifyResult::Failed
    } else if v.conclusive == 0 {
        VerifyResult::Inconclusive
    } else {
        VerifyResult::Passed
    };
    if v.conclusive < v.samples.len() && v.survived == 0 {
        v.note = Some(format!(
            "{} of {} sampled blocks were uniform (e.g. never written) before and after: they \
             cannot show whether the purge worked",
            v.samples.len() - v.conclusive,
            v.samples.len()
        ));
    }
    v
}

/// Sends the SANITIZE (IMMED). Maps refusals to errors that explain the way out.
///
/// Only a job that passed the safety gate can call it: `_gate` is the token
/// [`crate::ops::gate::clear`] hands out, and nothing else can make one.
///
/// ```no_run
/// # fn f(t: &mut dyn sgctl::Transport, gate: &sgctl::ops::gate::Cleared,
/// #      p: &sgctl::ops::sanitize::SanitizePlan) -> sgctl::Result<()> {
/// let mut trail = sgctl::ops::poll::Trail::default();
/// sgctl::ops::sanitize::start(t, gate, p, false, &mut trail)?;
/// # Ok(()) }
/// ```
///
/// Without the token the call does not compile (E0061: wrong number of arguments):
///
/// ```compile_fail,E0061
/// # fn f(t: &mut dyn sgctl::Transport,
/// #      p: &sgctl::ops::sanitize::SanitizePlan) -> sgctl::Result<()> {
/// let mut trail = sgctl::ops::poll::Trail::default();
/// sgctl::ops::sanitize::start(t, p, false, &mut trail)?;
/// # Ok(()) }
/// ```
///
/// and a caller cannot make a token of its own (its fields are private):
///
/// ```compile_fail
/// let gate = sgctl::ops::gate::Cleared {
///     job_id: "mine".into(), paths: vec![], started: std::time::SystemTime::now(),
///     audit: sgctl::ops::audit::AuditLog::at("/dev/null"), job: "x".into(), address: "x".into(),
/// };
/// ```
pub fn start(
    t: &mut dyn Transport,
    _gate: &Cleared,
    p: &SanitizePlan,
    ause: bool,
    trail: &mut Trail,
) -> Result<()> {
    let r = if p.params.is_empty() {
        crate::cmd::run_none(t, &p.cdb, Duration::from_secs(60))
    } else {
        run_out(t, &p.cdb, &p.params, Duration::from_secs(60))
    };
    r.map_err(|e| {
        if let Some(s) = e.sense() {
            trail.push(&format!("SANITIZE {}", p.service_action.name()), s);
            if s.key == SenseKey::IllegalRequest && s.asc == 0x20 {
                return Error::Unsupported(format!("the drive does not implement SANITIZE ({s})"));
            }
            if s.key == SenseKey::IllegalRequest && s.asc == 0x24 {
                return match p.service_action {
                    ServiceAction::ExitFailureMode => Refusal::ExitFailureModeRestricted {
                        sense: Box::new(s.clone()),
                    }
                    .into(),
                    _ => Error::SanitizeRefused {
                        action: p.service_action.name().into(),
                        sense: Box::new(s.clone()),
                        ause,
                    },
                };
            }
        }
        e
    })
}

/// How a sanitize ended.
#[derive(Debug, Clone, Serialize)]
pub struct SanitizeOutcome {
    /// `completed`, `failed: ...`, `interrupted`.
    pub ended: Ended,
    /// True only if the drive completed cleanly and the post-checks pass.
    pub success: bool,
    /// The advice when it failed (typed; the CLI words it).
    #[serde(skip)]
    pub advice: Option<Next>,
    /// Verification, if requested.
    pub verification: Option<Verification>,
    /// The validation summary (plan, coverage, seed, result).
    pub validation: Option<Validation>,
    /// The evidence that the technique completed.
    pub technique: crate::ops::record::TechniqueVerification,
}

/// Polls to the end, checks the drive is clean and verifies samples.
pub fn finish(
    t: &mut dyn Transport,
    p: &SanitizePlan,
    ause: bool,
    before: &[(u64, Option<String>, bool)],
    cfg: &PollConfig,
    trail: &mut Trail,
    progress: &mut dyn FnMut(Option<f64>),
) -> Result<SanitizeOutcome> {
    let mut max_seen: Option<f64> = None;
    let end = poll::poll(t, cfg, trail, &mut |p| {
        if let Some(x) = p {
            max_seen = Some(max_seen.map_or(x, |m: f64| m.max(x)));
        }
        progress(p)
    })?;
    let mut technique = crate::ops::record::TechniqueVerification {
        command_accepted: true,
        progress_max_percent: max_seen,
        result: "unknown".into(),
        ..Default::default()
    };
    match end {
        PollEnd::Interrupted => {
            return Ok(SanitizeOutcome {
                ended: Ended::Interrupted,
                success: false,
                advice: Some(Next::SanitizeContinues {
                    address: t.address(),
                }),
                verification: None,
                validation: None,
                technique,
            })
        }
        PollEnd::Failed(s) => {
            let advice = if s.asc == 0x31 && s.ascq == 0x03 {
                Some(if ause {
                    Next::ExitFailureMode {
                        address: t.address(),
                    }
                } else {
                    Next::SanitizeAgain
                })
            } else {
                None
            };
            technique.result = "not_completed".into();
            return Ok(SanitizeOutcome {
                ended: Ended::Failed(s),
                success: false,
                advice,
                verification: None,
                validation: None,
                technique,
            });
        }
        PollEnd::Done => {}
    }
    technique.completed_without_failure = true;
    // Clean final state: one more REQUEST SENSE must be clean and the medium readable.
    let again = poll::classify_sense(query::request_sense(t)?.as_ref());
    if again != poll::Condition::Clean {
        technique.ready_after = Some(false);
        technique.result = "not_completed".into();
        return Ok(SanitizeOutcome {
            ended: Ended::CompletedWithCondition,
            success: false,
            advice: None,
            verification: None,
            validation: None,
            technique,
        });
    }
    technique.ready_after = Some(true);
    technique.result = "completed".into();
    let mut validation = p.validation.clone();
    let verification = if p.service_action == ServiceAction::ExitFailureMode {
        None
    } else {
        let cap = query::read_capacity16(t)?;
        let v = (!before.is_empty()).then(|| verify_after(t, cap.block_len, before));
        if let Some(va) = validation.as_mut() {
            conclude(va, v.as_ref());
            if p.validate == Plan::Full {
                let extents = [(0, cap.blocks())];
                let stop = || cfg.interrupted.load(std::sync::atomic::Ordering::SeqCst);
                match validate::full_read(
                    t,
                    &extents,
                    cap.block_len,
                    p.pattern.as_deref(),
                    progress,
                    &stop,
                ) {
                    Some((n, bad, not_pattern)) => {
                        va.read_after(n);
                        va.full_read_unreadable = Some(bad);
                        if p.pattern.is_some() {
                            va.full_read_not_pattern = Some(not_pattern);
                            if not_pattern > 0 || bad > 0 {
                                va.result = "failed".into();
                            }
                        }
                    }
                    None => {
                        va.result = "inconclusive".into();
                        va.description
                            .push_str(" (the full read was stopped by an interrupt)");
                    }
                }
            }
        }
        v
    };
    let ok = verification.as_ref().is_none_or(|v| v.passed)
        && validation.as_ref().is_none_or(|v| v.result != "failed");
    Ok(SanitizeOutcome {
        ended: Ended::Completed,
        success: ok,
        advice: (!ok).then(|| {
            Next::Note(
                "sampled blocks still hold their old contents: the drive did not purge them"
                    .to_string(),
            )
        }),
        verification,
        validation,
        technique,
    })
}

/// Fills a validation summary from the compared samples.
pub(crate) fn conclude(va: &mut Validation, v: Option<&Verification>) {
    match v {
        Some(v) => {
            va.read_after(v.samples.len() as u64);
            va.blocks_sampled = v.samples.len();
            va.result = v.result.to_string();
        }
        None if va.plan == Plan::None.name() => va.result = "not_validated".into(),
        None => {
            va.read_after(0);
            va.result = "inconclusive".into();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scsi::read_write::READ_16;
    use crate::testing::mockdrive::{MockDrive, Op};

    fn opts(m: Method, verify: u32) -> SanitizeOptions {
        SanitizeOptions {
            method: m,
            ause: false,
            znr: false,
            verify,
            validate: None,
        }
    }

    fn run(d: &mut MockDrive, o: &SanitizeOptions) -> Result<SanitizeOutcome> {
        assert_eq!(precondition(d)?, Precondition::Ready);
        let p = plan(d, o, 42)?;
        let before = hash_before(d, &p);
        let mut trail = Trail::default();
        start(d, &crate::ops::gate::test_token(), &p, o.ause, &mut trail)?;
        finish(
            d,
            &p,
            o.ause,
            &before,
            &PollConfig::immediate(),
            &mut trail,
            &mut |_| {},
        )
    }

    #[test]
    fn auto_picks_crypto_then_block_then_overwrite() {
        let mut d = MockDrive::new();
        let p = plan(&mut d, &opts(Method::Auto, 0), 1).unwrap();
        assert_eq!(p.service_action, ServiceAction::CryptoErase);
        assert_eq!(p.commands[0].cdb, "48 83 00 00 00 00 00 00 00 00");
        d.st().supported_sa = vec![1, 2];
        assert_eq!(
            plan(&mut d, &opts(Method::Auto, 0), 1)
                .unwrap()
                .service_action,
            ServiceAction::BlockErase
        );
        d.st().supported_sa = vec![1];
        let p = plan(&mut d, &opts(Method::Auto, 0), 1).unwrap();
        assert_eq!(p.service_action, ServiceAction::Overwrite);
        assert_eq!(p.params, vec![1, 0, 0, 4, 0, 0, 0, 0]);
        d.st().supported_sa = vec![];
        assert!(matches!(
            plan(&mut d, &opts(Method::Auto, 0), 1),
            Err(Error::Unsupported(_))
        ));
        assert!(matches!(
            plan(&mut d, &opts(Method::Crypto, 0), 1),
            Err(Error::Unsupported(_))
        ));
    }

    #[test]
    fn crypto_erase_verified() {
        let mut d = MockDrive::new();
        let out = run(&mut d, &opts(Method::Crypto, 8)).unwrap();
        assert!(out.success, "{out:?}");
        let v = out.verification.unwrap();
        assert_eq!(v.samples.len(), 8);
        assert_eq!(v.samples[0].lba, 0);
        assert_eq!(v.samples[1].lba, (1 << 20) - 1);
        assert!(v
            .samples
            .iter()
            .all(|s| s.outcome == SampleOutcome::Changed));
        assert_eq!(v.result, VerifyResult::Passed);
        let reads = d.opcodes().iter().filter(|o| **o == READ_16).count();
        assert_eq!(reads, 16);
    }

    #[test]
    fn a_drive_that_does_not_erase_fails_verification() {
        let mut d = MockDrive::new();
        d.st().noop_sanitize = true;
        let out = run(&mut d, &opts(Method::Block, 4)).unwrap();
        assert!(!out.success);
        let v = out.verification.unwrap();
        assert_eq!(v.survived, 4);
        assert_eq!(v.result, VerifyResult::Failed);
    }

    #[test]
    fn blank_samples_are_inconclusive_not_passed() {
        // Uniform before and unchanged after: nothing survived, but nothing was shown either.
        struct Blank;
        impl Transport for Blank {
            fn execute(
                &mut self,
                _cdb: &[u8],
                data: DataBuf<'_>,
                _t: std::time::Duration,
            ) -> Result<crate::transport::Completion> {
                if let DataBuf::In(b) = data {
                    b.fill(0);
                }
                Ok(crate::transport::Completion::good())
            }
            fn address(&self) -> String {
                "blank".into()
            }
        }
        let before: Vec<(u64, Option<String>, bool)> = [0u64, 1]
            .iter()
            .map(|&l| (l, Some(hex32(&Sha256::digest([0u8; 512]))), true))
            .collect();
        let v = verify_after(&mut Blank, 512, &before);
        assert_eq!((v.survived, v.conclusive, v.passed), (0, 0, true));
        assert_eq!(v.result, VerifyResult::Inconclusive);
        assert!(v.note.is_some());
    }

    #[test]
    fn failed_sanitize_then_exit_failure_mode() {
        let mut d = MockDrive::new();
        d.st().fail_sanitize = true;
        let mut o = opts(Method::Block, 0);
        o.ause = true;
        let out = run(&mut d, &o).unwrap();
        assert!(!out.success);
        assert!(out.ended.to_string().contains("31/03"), "{}", out.ended);
        assert!(matches!(out.advice, Some(Next::ExitFailureMode { .. })));
        assert_eq!(precondition(&mut d).unwrap(), Precondition::Failed);
        d.st().fail_sanitize = false;
        let p = plan(&mut d, &opts(Method::ExitFailureMode, 0), 1).unwrap();
        start(
            &mut d,
            &crate::ops::gate::test_token(),
            &p,
            false,
            &mut Trail::default(),
        )
        .unwrap();
        assert_eq!(d.st().op, Op::Idle);
    }

    #[test]
    fn restricted_failure_refuses_exit_and_explains() {
        let mut d = MockDrive::new();
        d.st().fail_sanitize = true;
        let out = run(&mut d, &opts(Method::Crypto, 0)).unwrap();
        assert_eq!(out.advice, Some(Next::SanitizeAgain));
        let p = plan(&mut d, &opts(Method::ExitFailureMode, 0), 1).unwrap();
        let e = start(
            &mut d,
            &crate::ops::gate::test_token(),
            &p,
            false,
            &mut Trail::default(),
        )
        .unwrap_err();
        assert!(matches!(e, Error::Refused(_)), "{e}");
        assert!(e.to_string().contains("another sanitize"));
        // The way out: a sanitize that completes.
        d.st().fail_sanitize = false;
        let p = plan(&mut d, &opts(Method::Crypto, 0), 1).unwrap();
        let mut trail = Trail::default();
        start(
            &mut d,
            &crate::ops::gate::test_token(),
            &p,
            false,
            &mut trail,
        )
        .unwrap();
        let out = finish(
            &mut d,
            &p,
            false,
            &[],
            &PollConfig::immediate(),
            &mut trail,
            &mut |_| {},
        )
        .unwrap();
        assert!(out.success);
    }

    #[test]
    fn power_cycle_during_sanitize_resumes_polling() {
        let mut d = MockDrive::new();
        d.st().steps = 6;
        let o = opts(Method::Crypto, 2);
        let p = plan(&mut d, &o, 7).unwrap();
        let before = hash_before(&mut d, &p);
        let mut trail = Trail::default();
        start(
            &mut d,
            &crate::ops::gate::test_token(),
            &p,
            false,
            &mut trail,
        )
        .unwrap();
        let dd = d.clone();
        let mut n = 0;
        let out = finish(
            &mut d,
            &p,
            false,
            &before,
            &PollConfig::immediate(),
            &mut trail,
            &mut |_| {
                n += 1;
                if n == 2 {
                    dd.power_cycle();
                }
            },
        )
        .unwrap();
        assert!(out.success, "{out:?}");
        assert!(trail.0.iter().any(|e| e.asc == 0x29), "{:?}", trail.0);
        // After a power cycle with the sanitize still running, the precondition says so.
        let mut d = MockDrive::new();
        d.st().steps = 6;
        let p = plan(&mut d, &o, 7).unwrap();
        start(
            &mut d,
            &crate::ops::gate::test_token(),
            &p,
            false,
            &mut Trail::default(),
        )
        .unwrap();
        d.power_cycle();
        assert!(matches!(
            precondition(&mut d).unwrap(),
            Precondition::InProgress(_)
        ));
    }

    #[test]
    fn sampling_is_bounded_and_distinct() {
        assert_eq!(sample_lbas(0, 5, 3), vec![0]);
        assert_eq!(sample_lbas(1, 5, 3).len(), 2);
        let v = sample_lbas(1_000_000, 16, 99);
        assert_eq!(v.len(), 16);
        let mut s = v.clone();
        s.sort();
        s.dedup();
        assert_eq!(s.len(), 16);
        assert!(v.iter().all(|l| *l <= 1_000_000));
    }
}
