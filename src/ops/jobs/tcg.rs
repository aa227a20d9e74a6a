//! TCG erase and PSID revert as [`Job`]s: they go through the same safety gate, audit log,
//! job record and certificate as format and sanitize ([`super::run`]). A sanitize with
//! `Method::Auto` falls back to [`TcgEraseJob`] on Enterprise drives without SANITIZE.

use super::Job;
use crate::error::{Error, Refusal, Result};
use crate::exit;
use crate::ops::poll::PollConfig;
use crate::ops::record::{Category, JobMethod, JobRecord, Outcome};
use crate::ops::safety::{Cleared, PlannedCommand};
use crate::ops::tcg_erase;
use crate::scsi::security_protocol as sp;
use crate::tcg::enterprise;
use crate::tcg::session::{Dialect, Tper};
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
    let cdb = sp::cdb_out(sp::PROTOCOL_TCG, t.comid, sp::BLOCK, t.inc)?;
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
}

impl TcgEraseJob {
    /// What `sanitize --method auto` uses: every band, factory credentials (MSID).
    pub fn auto() -> TcgEraseJob {
        TcgEraseJob {
            bands: None,
            credential: Credential::Msid,
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
            Some(b) => format!("Band {b:?}.Erase"),
            None => "Erase on every band 0..=MaxRanges".into(),
        };
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
        _poll: &PollConfig,
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
        rec.outcome = Outcome::Success;
        Ok(exit::OK)
    }
}

/// PSID revert (Enterprise `ThisSP.RevertSP` as PSID, Opal `AdminSP.Revert`).
#[derive(Debug, Clone)]
pub struct TcgRevertJob {
    /// The PSID from the label.
    pub psid: Pin,
}

impl Job for TcgRevertJob {
    fn name(&self) -> &'static str {
        "tcg-revert"
    }

    fn plan(&mut self, t: &mut dyn Transport, rec: &mut JobRecord) -> Result<Vec<PlannedCommand>> {
        let h = Tper::open(t)?;
        rec.set_method(JobMethod::TcgRevert, Category::Purge);
        let what = match h.dialect {
            Dialect::Enterprise => "Admin SP session, Authenticate(PSID), ThisSP.RevertSP",
            Dialect::Opal => "Admin SP session as PSID, AdminSP.Revert",
        };
        Ok(vec![planned(&h, what)?])
    }

    fn execute(
        &mut self,
        t: &mut dyn Transport,
        rec: &mut JobRecord,
        gate: &Cleared,
        _poll: &PollConfig,
        progress: &mut dyn FnMut(Option<f64>),
    ) -> Result<u8> {
        let mut h = Tper::open(t)?;
        progress(Some(0.0));
        tcg_erase::psid_revert(&mut h, gate, &self.psid)?;
        progress(Some(100.0));
        drop(h);
        // Level 0 after the revert: nothing should be locked.
        let h = Tper::open(t)?;
        let (enabled, locked, _) = h.level0.locking().unwrap_or((false, false, false));
        rec.after = json!({ "locking_enabled": enabled, "locked": locked });
        if locked {
            rec.outcome = Outcome::CheckFailed;
            rec.message = Some("the drive still reports a locked range after the revert".into());
            return Ok(exit::CHECK_FAILED);
        }
        rec.outcome = Outcome::Success;
        Ok(exit::OK)
    }
}
