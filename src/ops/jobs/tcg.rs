//! TCG erase and PSID revert as [`Job`]s: they go through the same safety gate, audit log,
//! job record and certificate as format and sanitize ([`super::run`]). A sanitize with
//! `Method::Auto` falls back to [`TcgEraseJob`] on Enterprise drives without SANITIZE.

use super::Job;
use crate::cmd::tcg::enterprise;
use crate::cmd::tcg::{Dialect, Tper};
use crate::error::{Error, Refusal, Result};
use crate::exit;
use crate::ops::gate::{Cleared, PlannedCommand};
use crate::ops::poll::PollConfig;
use crate::ops::record::{Category, JobMethod, JobRecord, Outcome};
use crate::ops::tcg_erase;
use crate::ops::validate::{Plan, Validation};
use crate::scsi::security_protocol as sp;
use crate::tcg::{Pin, TcgError};
use crate::transport::Transport;
use serde_json::json;

/// Which credential opens the EraseMaster.
#[derive(Debug, Clone)]
pub enum Credential {
    /// A PIN from a file, variable or prompt.
    Pin(Pin),
    /// The drive's MSID (factory credentials).
    Msid,
}

impl Credential {
    fn resolve(&self, t: &mut Tper<'_>) -> std::result::Result<Pin, TcgError> {
        match self {
            Credential::Pin(p) => Ok(p.clone()),
            Credential::Msid => enterprise::read_msid(t),
        }
    }
}

/// The SECURITY PROTOCOL OUT a TCG job sends, for `--dry-run` and the record. The payload
/// (which carries the credential) is never listed.
fn planned(t: &Tper<'_>, what: &str) -> Result<PlannedCommand> {
    let cdb = sp::SecurityProtocolOutCdb::new(sp::PROTOCOL_TCG, t.comid, sp::BLOCK)
        .inc_512(t.inc)
        .build()?;
    Ok(PlannedCommand::new(
        &format!("SECURITY PROTOCOL OUT ({what}; payload not shown: carries a credential)"),
        &cdb,
        &[],
    ))
}

/// Cryptographic erase of Enterprise bands as EraseMaster.
#[derive(Debug, Clone)]
pub struct TcgEraseJob {
    /// Bands to erase; `None` = every band 0..=MaxRanges (the whole drive).
    pub bands: Option<Vec<u16>>,
    /// EraseMaster credential.
    pub credential: Credential,
    /// How the erased blocks are read back (default `quick`).
    pub validate: crate::ops::validate::Plan,
    /// The validation sample's seed.
    pub seed: u64,
}

impl TcgEraseJob {
    /// What `sanitize --method auto` uses: every band, factory credentials (MSID).
    pub fn auto() -> TcgEraseJob {
        TcgEraseJob::new(None, Credential::Msid)
    }

    /// An erase of `bands` (`None`: every band) with the default validation plan.
    pub fn new(bands: Option<Vec<u16>>, credential: Credential) -> TcgEraseJob {
        TcgEraseJob {
            bands,
            credential,
            validate: crate::ops::validate::Plan::Quick,
            seed: 1,
        }
    }
}

impl Job for TcgEraseJob {
    fn name(&self) -> &'static str {
        "tcg-erase"
    }

    fn plan(&mut self, t: &mut dyn Transport, rec: &mut JobRecord) -> Result<Vec<PlannedCommand>> {
        let h = Tper::open(t)?;
        if h.dialect != Dialect::Enterprise {
            return Err(Error::BandEraseNeedsEnterprise);
        }
        // NIST SP 800-88 Rev. 1 §5.1 / Table A-8: cryptographic erase through the TCG
        // interface is a Purge; IEEE 2883-2022 likewise lists it under Purge.
        rec.set_method(JobMethod::TcgErase, Category::Purge);
        let which = match &self.bands {
            Some(b) => format!(
                "Erase of band{} {}",
                if b.len() == 1 { "" } else { "s" },
                b.iter().map(u16::to_string).collect::<Vec<_>>().join(", ")
            ),
            None => "Erase of each band 0 (the global range) to MaxRanges (read from LockingInfo when run)".into(),
        };
        // The scope as far as known before the band table is read (refined when run).
        let total = rec.blocks_total();
        let named: Vec<u16> = self.bands.clone().unwrap_or_else(|| vec![0]);
        rec.set_scope(crate::ops::record::Scope::tcg_bands(
            &named,
            None,
            total,
            self.bands.is_none(),
        ));
        Ok(vec![planned(
            &h,
            &format!("EraseMaster session on the Enterprise Locking SP; {which}"),
        )?])
    }

    fn execute(
        &mut self,
        t: &mut dyn Transport,
        rec: &mut JobRecord,
        gate: &Cleared,
        poll: &PollConfig,
        progress: &mut dyn FnMut(Option<f64>),
    ) -> Result<u8> {
        let mut h = Tper::open(t)?;
        // Bands the drive does not have are refused before a session authenticates (an
        // anonymous read of LockingInfo: no PIN try is spent, nothing is erased).
        for &n in self.bands.iter().flatten() {
            enterprise::check_band(&mut h, n)?;
        }
        let pin = self.credential.resolve(&mut h)?;
        let list = match &self.bands {
            Some(b) => b.clone(),
            None => (0..=enterprise::max_ranges(&mut h)?).collect(),
        };
        // The band table before the erase: what the erase covers. Read anonymously; a drive
        // that refuses leaves the ranges unknown (never counted as the whole drive, unless
        // every band including the global range is erased).
        let table: Option<Vec<(u16, u64, u64)>> =
            enterprise::list_bands(&mut h, None).ok().map(|b| {
                b.iter()
                    .map(|b| (b.number, b.range_start, b.range_length))
                    .collect()
            });
        let total = rec.blocks_total();
        let scope = crate::ops::record::Scope::tcg_bands(
            &list,
            table.as_deref(),
            total,
            self.bands.is_none(),
        );
        // Validation: the quick (or asked-for) sample inside the erased extents, hashed before.
        let lb = rec.drive.logical_block_length.unwrap_or(512);
        let plan = if scope.extents.is_empty() {
            crate::ops::validate::Plan::None
        } else {
            self.validate
        };
        let lbas = crate::ops::validate::lbas(plan, &scope.extents, self.seed);
        let mut validation = crate::ops::validate::Validation::planned(
            plan,
            self.seed,
            scope.blocks_in_scope,
            lbas.len(),
        );
        if plan == crate::ops::validate::Plan::None && self.validate != plan {
            validation.description =
                "not validated: the erased bands' LBA ranges could not be read".into();
        }
        rec.set_scope(scope.clone());
        drop(h);
        let before = crate::ops::sanitize::hash_blocks(t, &lbas, lb);
        let mut h = Tper::open(t)?;
        progress(Some(0.0));
        match tcg_erase::erase_bands(&mut h, gate, &list, &pin) {
            Err(TcgError::AuthFailed(_)) if matches!(self.credential, Credential::Msid) => {
                return Err(Refusal::TcgOwned.into())
            }
            r => r?,
        }
        progress(Some(100.0));
        let after = enterprise::list_bands(&mut h, None)?;
        rec.after = json!({ "erased_bands": list, "bands": after });
        drop(h);
        rec.technique_verification = Some(crate::ops::record::TechniqueVerification {
            command_accepted: true,
            progress_max_percent: None,
            completed_without_failure: true,
            tcg_method_status: Some(format!(
                "SUCCESS for each of {} Erase call{}",
                list.len(),
                if list.len() == 1 { "" } else { "s" }
            )),
            ready_after: None,
            result: "completed".into(),
        });
        let v = read_back(
            t,
            lb,
            plan,
            &before,
            &scope.extents,
            &mut validation,
            poll,
            progress,
        );
        validation.read_after_erase = Some(
            "a band erase replaces the band's media key: reads return other data (or are \
             refused while the band is locked)"
                .into(),
        );
        let ok = v.as_ref().is_none_or(|v| v.passed);
        rec.verification = v;
        rec.validation = Some(validation);
        if !ok {
            rec.outcome = Outcome::CheckFailed;
            rec.message = Some("validation failed: sampled data survived the band erase".into());
            return Ok(exit::CHECK_FAILED);
        }
        rec.outcome = Outcome::Success;
        Ok(exit::OK)
    }
}

/// Reads back what a TCG erase or revert covered, as `plan` says: the sample hashed before
/// (`before`) compared after, and for `full` every block of `extents` read (counted readable
/// and unreadable). Fills `validation`; the compared sample is returned for the record.
#[allow(clippy::too_many_arguments)]
fn read_back(
    t: &mut dyn Transport,
    lb: u32,
    plan: Plan,
    before: &[(u64, Option<String>, bool)],
    extents: &[(u64, u64)],
    validation: &mut Validation,
    poll: &PollConfig,
    progress: &mut dyn FnMut(Option<f64>),
) -> Option<crate::ops::record::Verification> {
    let v = (!before.is_empty()).then(|| crate::ops::sanitize::verify_after(t, lb, before));
    crate::ops::sanitize::conclude(validation, v.as_ref());
    if plan == Plan::Full {
        let stop = || poll.interrupted.load(std::sync::atomic::Ordering::SeqCst);
        match crate::ops::validate::full_read(t, extents, lb, None, progress, &stop) {
            Some((n, bad, _)) => {
                validation.full_read_unreadable = Some(bad);
                validation.read_after(n);
            }
            None => {
                if validation.result != "failed" {
                    validation.result = "inconclusive".into();
                }
                validation
                    .description
                    .push_str(" (the full read was stopped by an interrupt)");
            }
        }
    }
    v
}

/// PSID revert (Enterprise `ThisSP.RevertSP` as PSID, Opal `AdminSP.Revert`): the drive back
/// to its factory state, every band's media key replaced. Recorded like a band erase: the
/// scope (every band, with the band table read before; whole drive only when the bands cover
/// every LBA) and the validation plan's reads before and after.
#[derive(Debug, Clone)]
pub struct TcgRevertJob {
    /// The PSID from the label.
    pub psid: Pin,
    /// How the reverted blocks are read back (default `quick`).
    pub validate: Plan,
    /// The validation sample's seed.
    pub seed: u64,
}

impl TcgRevertJob {
    /// A revert with `psid` and the default validation plan (`quick`).
    pub fn new(psid: Pin) -> TcgRevertJob {
        TcgRevertJob {
            psid,
            validate: Plan::Quick,
            seed: 1,
        }
    }
}

/// The scope of a revert on the drive `h` as it is before the revert: every band with the
/// band table (Enterprise, read anonymously; a drive that refuses leaves the ranges unknown)
/// or the logical unit (Opal, whole only when the Locking SP was active).
fn revert_scope(h: &mut Tper<'_>, total: Option<u64>) -> crate::ops::record::Scope {
    use crate::ops::record::Scope;
    let active = h.level0.locking().is_some_and(|l| l.0);
    match h.dialect {
        Dialect::Enterprise => {
            let bands: Vec<u16> = match enterprise::max_ranges(h) {
                Ok(max) => (0..=max).collect(),
                Err(_) => vec![0],
            };
            let table: Option<Vec<(u16, u64, u64)>> =
                enterprise::list_bands(h, None).ok().map(|b| {
                    b.iter()
                        .map(|b| (b.number, b.range_start, b.range_length))
                        .collect()
                });
            Scope::tcg_revert(Some(&bands), table.as_deref(), total, true)
        }
        Dialect::Opal => Scope::tcg_revert(None, None, total, active),
    }
}

impl Job for TcgRevertJob {
    fn name(&self) -> &'static str {
        "tcg-revert"
    }

    fn plan(&mut self, t: &mut dyn Transport, rec: &mut JobRecord) -> Result<Vec<PlannedCommand>> {
        let mut h = Tper::open(t)?;
        // NIST SP 800-88 Rev. 1 Table A-8 / IEEE 2883-2022: cryptographic erase is a Purge;
        // a revert that cannot be shown to cover every LBA is recorded as a purge of part.
        rec.set_method(JobMethod::TcgRevert, Category::Purge);
        let what = match h.dialect {
            Dialect::Enterprise => "Admin SP session, Authenticate(PSID), ThisSP.RevertSP",
            Dialect::Opal => "Admin SP session as PSID, AdminSP.Revert",
        };
        let c = planned(&h, what)?;
        // The scope as far as known before the revert (read again when run).
        let scope = revert_scope(&mut h, rec.blocks_total());
        rec.set_scope(scope);
        Ok(vec![c])
    }

    fn execute(
        &mut self,
        t: &mut dyn Transport,
        rec: &mut JobRecord,
        gate: &Cleared,
        poll: &PollConfig,
        progress: &mut dyn FnMut(Option<f64>),
    ) -> Result<u8> {
        let mut h = Tper::open(t)?;
        let scope = revert_scope(&mut h, rec.blocks_total());
        drop(h);
        let lb = rec.drive.logical_block_length.unwrap_or(512);
        let plan = if scope.extents.is_empty() {
            Plan::None
        } else {
            self.validate
        };
        let lbas = crate::ops::validate::lbas(plan, &scope.extents, self.seed);
        let mut validation =
            Validation::planned(plan, self.seed, scope.blocks_in_scope, lbas.len());
        if plan == Plan::None && self.validate != plan {
            validation.description =
                "not validated: the drive's capacity (the LBAs to read) is unknown".into();
        }
        rec.set_scope(scope.clone());
        // Hashed before: blocks of a locked band cannot be read (DATA PROTECT), and a sample
        // unreadable before proves nothing (the validation says inconclusive, not passed).
        let before = crate::ops::sanitize::hash_blocks(t, &lbas, lb);
        let mut h = Tper::open(t)?;
        progress(Some(0.0));
        tcg_erase::psid_revert(&mut h, gate, &self.psid)?;
        progress(Some(100.0));
        drop(h);
        // Level 0 after the revert: nothing should be locked.
        let h = Tper::open(t)?;
        let (enabled, locked, _) = h.level0.locking().unwrap_or((false, false, false));
        drop(h);
        rec.after = json!({ "locking_enabled": enabled, "locked": locked });
        rec.technique_verification = Some(crate::ops::record::TechniqueVerification {
            command_accepted: true,
            progress_max_percent: None,
            completed_without_failure: !locked,
            tcg_method_status: Some("SUCCESS for the revert call".into()),
            ready_after: Some(!locked),
            result: if locked { "not_completed" } else { "completed" }.into(),
        });
        if locked {
            rec.validation = Some(validation);
            rec.outcome = Outcome::CheckFailed;
            rec.message = Some("the drive still reports a locked range after the revert".into());
            return Ok(exit::CHECK_FAILED);
        }
        let v = read_back(
            t,
            lb,
            plan,
            &before,
            &scope.extents,
            &mut validation,
            poll,
            progress,
        );
        validation.read_after_erase = Some(
            "a revert replaces every band's media key: reads return other data than before".into(),
        );
        let ok = v.as_ref().is_none_or(|v| v.passed);
        rec.verification = v;
        rec.validation = Some(validation);
        if !ok {
            rec.outcome = Outcome::CheckFailed;
            rec.message = Some("validation failed: sampled data survived the revert".into());
            return Ok(exit::CHECK_FAILED);
        }
        rec.outcome = Outcome::Success;
        Ok(exit::OK)
    }
}
