//! FORMAT UNIT as a [`Job`]: MODE SELECT for the new block size, FORMAT UNIT (IMMED), poll,
//! READ CAPACITY(16) to verify, kernel rescan of every path.

use super::Job;
use crate::error::Error;
use crate::error::{Invalid, Next, Result};
use crate::exit;
use crate::ops::format::{self, FormatOptions, FormatPlan};
use crate::ops::format_support;
use crate::ops::gate::{Cleared, PlannedCommand};
use crate::ops::poll::{Ended, PollConfig, Trail};
use crate::ops::record::{Category, JobMethod, JobRecord, Outcome, VerifiedState};
use crate::scsi::format_unit::ProtectionType;
use crate::scsi::vpd::block_lengths::SupportedBlockLengths;
use crate::transport::Transport;
use std::path::{Path, PathBuf};

/// What a format asked for, as its audit start record has it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct FormatRequest {
    job_id: String,
    time: String,
    block_size: u32,
    protection: ProtectionType,
    pi_exponent: u8,
}

/// The last format (not itself a geometry-less `--recover`) of the drive with `serial` that
/// the audit log at `path` has a start record of. An unreadable log or record is no answer.
fn last_format_request(path: &Path, serial: &str) -> Option<FormatRequest> {
    let text = std::fs::read_to_string(path).ok()?;
    text.lines().rev().find_map(|line| {
        if !line.contains("\"start\"") {
            return None;
        }
        let v: serde_json::Value = serde_json::from_str(line).ok()?;
        let d = &v["details"];
        let p = &d["parameters"];
        if v["event"] != "start" || v["job"] != "format" || d["drive"]["serial"] != serial {
            return None;
        }
        let protection = match p["protection"].as_str()? {
            "type0" => ProtectionType::Type0,
            "type1" => ProtectionType::Type1,
            "type2" => ProtectionType::Type2,
            "type3" => ProtectionType::Type3,
            _ => return None,
        };
        Some(FormatRequest {
            job_id: v["job_id"].as_str().unwrap_or("-").to_string(),
            time: v["time"].as_str().unwrap_or("-").to_string(),
            block_size: u32::try_from(p["block_size"].as_u64()?).ok()?,
            protection,
            pi_exponent: u8::try_from(p["pi_exponent"].as_u64().unwrap_or(0)).ok()?,
        })
    })
}

/// Formats one drive as [`FormatOptions`] say.
#[derive(Debug, Clone)]
pub struct FormatJob {
    opts: FormatOptions,
    plan: Option<FormatPlan>,
    /// `--recover` without a geometry: the audit log to find what the interrupted format of
    /// this drive asked for.
    recover_from: Option<PathBuf>,
    force: bool,
    block_lengths: Option<SupportedBlockLengths>,
}

impl FormatJob {
    /// A format job (planned by the runner).
    pub fn new(opts: FormatOptions) -> FormatJob {
        FormatJob {
            opts,
            plan: None,
            recover_from: None,
            force: false,
            block_lengths: None,
        }
    }

    /// A `--recover` job that restores the geometry the drive's last format asked for, as the
    /// audit log at `audit_log` recorded it in that format's start record.
    pub fn recovering(opts: FormatOptions, audit_log: PathBuf) -> FormatJob {
        FormatJob {
            recover_from: Some(audit_log),
            ..FormatJob::new(opts)
        }
    }

    /// With `force`, a block length or protection type the drive does not list in VPD 0xB4
    /// is sent anyway (the verification afterwards still checks what the drive did).
    pub fn with_force(mut self, force: bool) -> FormatJob {
        self.force = force;
        self
    }

    /// [`FormatJob::new`] as a `Box<dyn Job>` (what the runner and `sgctl bench` take).
    pub(crate) fn boxed(opts: FormatOptions) -> Box<dyn Job> {
        Box::new(FormatJob::new(opts))
    }
}

impl Job for FormatJob {
    fn name(&self) -> &'static str {
        "format"
    }

    fn plan(&mut self, t: &mut dyn Transport, rec: &mut JobRecord) -> Result<Vec<PlannedCommand>> {
        if let Some(audit) = &self.recover_from {
            let note = match last_format_request(audit, &rec.drive.serial) {
                Some(asked) => {
                    self.opts.block_size = Some(asked.block_size);
                    self.opts.protection = asked.protection;
                    self.opts.pi_exponent = asked.pi_exponent;
                    format!(
                        "restoring what the interrupted format (job {}, {}) asked for: \
                         {}-byte blocks, PI type {}",
                        asked.job_id,
                        asked.time,
                        asked.block_size,
                        asked.protection.number()
                    )
                }
                None => format!(
                    "no earlier format of serial {} in the audit log {}: formatting again \
                     with the block size the drive has pending and no PI (--block-size and \
                     --pi choose another)",
                    rec.drive.serial,
                    audit.display()
                ),
            };
            if let Some(o) = rec.parameters.as_object_mut() {
                o.insert("block_size".into(), self.opts.block_size.into());
                o.insert(
                    "protection".into(),
                    serde_json::to_value(self.opts.protection).unwrap_or_default(),
                );
                o.insert("pi_exponent".into(), self.opts.pi_exponent.into());
            }
            rec.message = Some(note);
        }
        let p = format::plan(t, &self.opts)?;
        if self.opts.preset.is_some() {
            // The preset's geometry, in the start record as a geometry format's is (what
            // --recover restores after an interrupted format).
            if let Some(o) = rec.parameters.as_object_mut() {
                o.insert("block_size".into(), p.expect.block_len.into());
                o.insert(
                    "protection".into(),
                    serde_json::to_value(p.expect.protection).unwrap_or_default(),
                );
                o.insert("pi_exponent".into(), p.expect.pi_exponent.into());
            }
        }
        // What the drive lists (VPD 0xB4) is checked before anything that changes it (plan
        // above sends queries only).
        self.block_lengths = format_support::preflight(t)?;
        if let (Some(bl), Some(len)) = (&self.block_lengths, self.opts.block_size) {
            if let Some(why) = format_support::check(bl, len, self.opts.protection.number()) {
                if !self.force {
                    return Err(Error::Unsupported(format!(
                        "{why}; nothing was sent (--force sends it anyway)"
                    )));
                }
            }
        }
        // A FORMAT UNIT without security initialize is not a sanitization method.
        rec.set_method(JobMethod::FormatUnit, Category::None);
        rec.set_scope(crate::ops::record::Scope::logical_unit(rec.blocks_total()));
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
        let p = self
            .plan
            .as_ref()
            .ok_or(Invalid::NotPlanned { job: "format" })?;
        let mut trail = Trail::default();
        let r = format::start(t, gate, p, &mut trail);
        rec.sense_trail = trail.0.clone();
        let requested = self.opts.block_size.unwrap_or(p.expect.block_len);
        let without_sp =
            r.map_err(|e| format_support::diagnose(e, self.block_lengths.as_ref(), requested))?;
        if without_sp {
            // Record what was really sent: the drive refused SP=1, the retry used SP=0.
            if let Some(params) = &p.mode_select {
                let cdb = crate::ops::query::mode_select10_cdb(false, params.len())?;
                rec.commands.insert(
                    1,
                    PlannedCommand::new("MODE SELECT(10) retry without SP", &cdb, params),
                );
            }
        }
        let out = format::finish(t, &p.expect, poll, &mut trail, progress);
        rec.sense_trail = trail.0;
        if out.is_err() {
            // The drive accepted the FORMAT UNIT; watching it failed (the path or the drive
            // went away). A power cycle loses a format in progress (31/00).
            rec.next = Some(Next::FormatWatchLost {
                address: t.address(),
                other_paths: super::other_paths(gate, &t.address()),
            });
        }
        let mut out = out?;
        out.mode_select_without_sp = without_sp;
        rec.after = serde_json::to_value(&out).unwrap_or_default();
        rec.verified_state = out.after.as_ref().map(VerifiedState::of);
        match out.ended {
            Ended::Interrupted => {
                rec.outcome = Outcome::Interrupted;
                rec.next = Some(Next::FormatContinues {
                    address: t.address(),
                });
                return Ok(exit::OTHER);
            }
            Ended::Completed => {}
            _ => {
                rec.outcome = Outcome::Failed;
                rec.message = Some(format!("FORMAT UNIT {}", out.ended));
                rec.next = Some(Next::FormatAgain {
                    address: t.address(),
                });
                return Ok(exit::COMMAND);
            }
        }
        // Ask the kernel to re-read the capacity on every path (a virtual drive has none) that
        // is still there: one the kernel removed mid-format is in the record's path switches.
        let hctls: Vec<String> = gate
            .paths
            .iter()
            .filter_map(|p| p.hctl.clone())
            .filter(|h| {
                std::path::Path::new("/sys/class/scsi_device")
                    .join(h)
                    .exists()
            })
            .collect();
        let errs = format::rescan(&hctls);
        if !errs.is_empty() {
            rec.advice = Some(format!("kernel rescan failed: {}", errs.join("; ")));
        }
        if !out.mismatches.is_empty() {
            rec.outcome = Outcome::CheckFailed;
            rec.message = Some(format!(
                "the drive did not format as requested: {}",
                out.mismatches.join("; ")
            ));
            return Ok(exit::CHECK_FAILED);
        }
        rec.outcome = Outcome::Success;
        Ok(exit::OK)
    }
}
