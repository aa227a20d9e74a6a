//! SANITIZE as a [`Job`], with the fallbacks of `Method::Auto`: a SATA drive behind a SATL
//! gets an `AtaEraseJob`, a TCG Enterprise drive without SANITIZE a [`TcgEraseJob`] of
//! every band.

use super::ata::AtaEraseJob;
use super::tcg::TcgEraseJob;
use super::Job;
use crate::error::{Error, Invalid, Next, Refusal, Result};
use crate::exit;
use crate::ops::ata_sanitize::AtaMethod;
use crate::ops::gate::{Cleared, PlannedCommand};
use crate::ops::poll::{Ended, PollConfig, Trail};
use crate::ops::record::{JobMethod, JobRecord, Outcome};
use crate::ops::sanitize::{self as san, Method, Precondition, SanitizeOptions, SanitizePlan};
use crate::transport::Transport;

/// Sanitizes one drive as [`SanitizeOptions`] say.
#[derive(Debug, Clone)]
pub struct SanitizeJob {
    opts: SanitizeOptions,
    plan: Option<SanitizePlan>,
    seed: u64,
    /// `--method auto` on a TCG Enterprise drive without SANITIZE: erase every band.
    tcg: Option<TcgEraseJob>,
    /// An ATA method by name, or `auto` on a SATA drive behind a SATL.
    ata: Option<AtaEraseJob>,
    /// The ATA method asked for by name.
    ata_method: Option<AtaMethod>,
}

impl SanitizeJob {
    /// A sanitize job; `seed` picks the LBAs sampled for verification (give each drive its own).
    pub fn new(opts: SanitizeOptions, seed: u64) -> SanitizeJob {
        SanitizeJob {
            opts,
            plan: None,
            seed,
            tcg: None,
            ata: None,
            ata_method: None,
        }
    }

    /// [`SanitizeJob::new`] as a `Box<dyn Job>` (what the runner and `sgctl bench` take).
    pub(crate) fn boxed(opts: SanitizeOptions, seed: u64) -> Box<dyn Job> {
        Box::new(SanitizeJob::new(opts, seed))
    }

    /// Uses this ATA method (through ATA PASS-THROUGH) instead of SANITIZE.
    pub fn with_ata_method(mut self, m: Option<AtaMethod>) -> SanitizeJob {
        self.ata_method = m;
        self
    }
}

impl Job for SanitizeJob {
    fn name(&self) -> &'static str {
        "sanitize"
    }

    fn plan(&mut self, t: &mut dyn Transport, rec: &mut JobRecord) -> Result<Vec<PlannedCommand>> {
        match san::precondition(t)? {
            Precondition::InProgress(progress) => {
                return Err(Refusal::AlreadyRunning {
                    address: t.address(),
                    progress,
                }
                .into())
            }
            Precondition::Failed if self.opts.method != Method::ExitFailureMode => {
                rec.message = Some(
                    "the drive is in sanitize failure mode (31/03); a sanitize that completes clears it".into(),
                );
            }
            _ => {}
        }
        // SATA behind a SATL: the ATA side says what the drive really offers.
        if self.ata_method.is_some()
            || (self.opts.method == Method::Auto && crate::cmd::ata::is_behind_satl(t, None))
        {
            // The ATA path is validated by the same plans (quick, N, full, none).
            let mut j = AtaEraseJob::new(self.ata_method, self.opts.plan(), self.seed);
            let c = j.plan(t, rec)?;
            self.ata = Some(j);
            return Ok(c);
        }
        let p = match san::plan(t, &self.opts, self.seed) {
            Err(Error::Unsupported(why)) if self.opts.method == Method::Auto => {
                let mut j = TcgEraseJob::auto();
                j.validate = self.opts.plan();
                j.seed = self.seed;
                return match j.plan(t, rec) {
                    Ok(c) => {
                        self.tcg = Some(j);
                        Ok(c)
                    }
                    Err(_) => Err(Error::Unsupported(why)),
                };
            }
            r => r?,
        };
        rec.set_method(JobMethod::Sanitize(p.service_action), p.category);
        if p.service_action != crate::scsi::sanitize::ServiceAction::ExitFailureMode {
            rec.set_scope(crate::ops::record::Scope::logical_unit(
                p.capacity.map(|c| c.blocks()).or(rec.blocks_total()),
            ));
            rec.validation = p.validation.clone();
        }
        let cmds = p.commands.clone();
        self.plan = Some(p);
        Ok(cmds)
    }

    fn execute(
        &mut self,
        t: &mut dyn Transport,
        rec: &mut JobRecord,
        gate: &Cleared,
        poll: &PollConfig,
        progress: &mut dyn FnMut(Option<f64>),
    ) -> Result<u8> {
        if let Some(j) = self.tcg.as_mut() {
            return j.execute(t, rec, gate, poll, progress);
        }
        if let Some(j) = self.ata.as_mut() {
            return j.execute(t, rec, gate, poll, progress);
        }
        let p = self
            .plan
            .as_ref()
            .ok_or(Invalid::NotPlanned { job: "sanitize" })?;
        let before = san::hash_before(t, p);
        rec.resume = Some(serde_json::json!({
            "before": before,
            "block_len": p.capacity.map(|c| c.block_len),
        }));
        let mut trail = Trail::default();
        let r = san::start(t, gate, p, self.opts.ause, &mut trail);
        rec.sense_trail = trail.0.clone();
        if r.is_err() {
            rec.technique_verification = Some(crate::ops::record::TechniqueVerification {
                result: "not_completed".into(),
                ..Default::default()
            });
        }
        r?;
        let out = san::finish(t, p, self.opts.ause, &before, poll, &mut trail, progress);
        rec.sense_trail = trail.0;
        if out.is_err() {
            // The drive accepted the SANITIZE; watching it failed (the path or the drive went
            // away). The sanitize goes on, and resumes after a power cycle.
            rec.next = Some(Next::SanitizeWatchLost {
                address: t.address(),
                other_paths: super::other_paths(gate, &t.address()),
            });
        }
        let out = out?;
        rec.verification = out.verification.clone();
        if out.validation.is_some() {
            rec.validation = out.validation.clone();
        }
        rec.technique_verification = Some(out.technique.clone());
        rec.next = out.advice.clone();
        Ok(match (out.success, &out.ended) {
            (true, _) => {
                rec.outcome = Outcome::Success;
                exit::OK
            }
            (false, Ended::Interrupted) => {
                rec.outcome = Outcome::Interrupted;
                exit::OTHER
            }
            (false, Ended::Completed) => {
                rec.outcome = Outcome::CheckFailed;
                rec.message = Some("verification failed: sampled data survived".into());
                exit::CHECK_FAILED
            }
            (false, ended) => {
                rec.outcome = Outcome::Failed;
                rec.message = Some(format!("SANITIZE {ended}"));
                exit::COMMAND
            }
        })
    }
}
