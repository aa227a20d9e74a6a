//! The ATA purge methods ([`crate::ops::ata_sanitize`]) as a [`Job`]: same safety gate,
//! audit log, job record, verification and certificate as sanitize and format
//! ([`super::run`]). A sanitize with `Method::Auto` uses it on a SATA drive behind a SATL;
//! an ATA method by name picks one.

use super::Job;
use crate::error::{Error, Invalid, Next, Result};
use crate::exit;
use crate::ops::ata_sanitize::{self as asz, AtaMethod, AtaSupport};
use crate::ops::gate::{Cleared, PlannedCommand};
use crate::ops::poll::PollConfig;
use crate::ops::query;
use crate::ops::record::{Category, JobMethod, JobRecord, Outcome};
use crate::ops::validate::Plan;
use crate::transport::Transport;

/// Environment variable holding the ATA user password SECURITY ERASE UNIT sets (a secret:
/// never in argv, logs or records). Without it, [`asz::DEFAULT_PASSWORD`] is used.
pub(crate) const PASSWORD_ENV: &str = "SGCTL_ATA_PASSWORD";

/// One ATA purge of one drive.
#[derive(Debug, Clone)]
pub(crate) struct AtaEraseJob {
    /// The method asked for (None = strongest usable).
    pub want: Option<AtaMethod>,
    /// How the erased blocks are read back (the same plans as SANITIZE: quick, N blocks,
    /// full, none; [`crate::ops::validate`]).
    pub validate: Plan,
    /// Sampling seed.
    pub seed: u64,
    chosen: Option<(AtaMethod, AtaSupport)>,
    sample: Vec<u64>,
    block_len: u32,
    blocks: u64,
}

impl AtaEraseJob {
    /// A job for `want` (None = auto), validated as `validate` says.
    pub(crate) fn new(want: Option<AtaMethod>, validate: Plan, seed: u64) -> AtaEraseJob {
        AtaEraseJob {
            want,
            validate,
            seed,
            chosen: None,
            sample: Vec::new(),
            block_len: 512,
            blocks: 0,
        }
    }
}

impl Job for AtaEraseJob {
    fn name(&self) -> &'static str {
        "sanitize"
    }

    fn plan(&mut self, t: &mut dyn Transport, rec: &mut JobRecord) -> Result<Vec<PlannedCommand>> {
        let (s, _id) = asz::support(t)?;
        let m = match asz::choose(&s, self.want) {
            Ok(m) => m,
            Err(e) => {
                rec.next = s.advice.clone();
                return Err(e);
            }
        };
        let cap = query::read_capacity16(t)?;
        self.block_len = cap.block_len;
        self.blocks = cap.blocks();
        self.sample = crate::ops::validate::lbas(self.validate, &[(0, cap.blocks())], self.seed);
        rec.set_method(JobMethod::Ata(m), Category::from_name(m.category()));
        rec.set_scope(crate::ops::record::Scope::logical_unit(Some(cap.blocks())));
        rec.validation = Some(crate::ops::validate::Validation::planned(
            self.validate,
            self.seed,
            Some(cap.blocks()),
            self.sample.len(),
        ));
        self.chosen = Some((m, s));
        Ok(asz::planned(&m))
    }

    fn execute(
        &mut self,
        t: &mut dyn Transport,
        rec: &mut JobRecord,
        cleared: &Cleared,
        poll: &PollConfig,
        progress: &mut dyn FnMut(Option<f64>),
    ) -> Result<u8> {
        let (m, s) = self.chosen.clone().ok_or(Invalid::NotPlanned {
            job: "ATA sanitize",
        })?;
        let before = crate::ops::sanitize::hash_blocks(t, &self.sample, self.block_len);
        let password = std::env::var(PASSWORD_ENV)
            .map(String::into_bytes)
            .unwrap_or_else(|_| asz::DEFAULT_PASSWORD.to_vec());
        let out = asz::run(
            t,
            cleared,
            &m,
            &password,
            asz::erase_timeout(&s, &m),
            poll,
            progress,
        );
        let out = match out {
            Ok(o) => o,
            Err(e) => {
                if matches!(e, Error::Refused(_)) {
                    rec.next = Some(Next::AtaFrozen);
                }
                return Err(e);
            }
        };
        rec.next = out.advice.clone();
        if out.ended == asz::AtaEnded::Interrupted {
            rec.outcome = Outcome::Interrupted;
            return Ok(exit::OTHER);
        }
        if !out.success {
            rec.outcome = Outcome::Failed;
            rec.message = Some(format!("{} {}", m.name(), out.ended));
            return Ok(exit::COMMAND);
        }
        let v = (!before.is_empty())
            .then(|| crate::ops::sanitize::verify_after(t, self.block_len, &before));
        let ok = v.as_ref().is_none_or(|v| v.passed);
        rec.technique_verification = Some(crate::ops::record::TechniqueVerification {
            command_accepted: true,
            completed_without_failure: true,
            result: "completed".into(),
            ..Default::default()
        });
        if let Some(va) = rec.validation.as_mut() {
            crate::ops::sanitize::conclude(va, v.as_ref());
            if self.validate == Plan::Full {
                // Every block read back after the erase, as SANITIZE's `full` plan does.
                let stop = || poll.interrupted.load(std::sync::atomic::Ordering::SeqCst);
                match crate::ops::validate::full_read(
                    t,
                    &[(0, self.blocks)],
                    self.block_len,
                    None,
                    progress,
                    &stop,
                ) {
                    Some((n, bad, _)) => {
                        va.read_after(n);
                        va.full_read_unreadable = Some(bad);
                    }
                    None => {
                        if va.result != "failed" {
                            va.result = "inconclusive".into();
                        }
                        va.description
                            .push_str(" (the full read was stopped by an interrupt)");
                    }
                }
            }
        }
        rec.verification = v;
        Ok(if ok {
            rec.outcome = Outcome::Success;
            exit::OK
        } else {
            rec.outcome = Outcome::CheckFailed;
            rec.message = Some("verification failed: sampled data survived".into());
            rec.advice = Some(
                "sampled blocks still hold their old contents: the drive did not purge them".into(),
            );
            exit::CHECK_FAILED
        })
    }
}
