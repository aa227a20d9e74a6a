//! Opal-family essentials (protocols.md §F.11): state from Level 0 and PSID revert.

use super::level0::{Feature, Level0};
use super::session::{Dialect, Tper};
use super::uid;
use super::{Pin, TcgError};
use serde::Serialize;

/// Opal locking state as Level 0 reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct OpalState {
    /// Locking SP activated (Locking feature "enabled").
    pub locking_enabled: bool,
    /// Some range is locked.
    pub locked: bool,
    /// MBR shadowing enabled.
    pub mbr_enabled: bool,
    /// MBR done.
    pub mbr_done: bool,
}

/// Reads the Opal state from Level 0.
pub fn state(l0: &Level0) -> Option<OpalState> {
    l0.features.iter().find_map(|f| match f {
        Feature::Locking {
            enabled,
            locked,
            mbr_enabled,
            mbr_done,
            ..
        } => Some(OpalState {
            locking_enabled: *enabled,
            locked: *locked,
            mbr_enabled: *mbr_enabled,
            mbr_done: *mbr_done,
        }),
        _ => None,
    })
}

/// PSID revert: StartSession(AdminSP, write, HostChallenge = PSID, HostSigningAuthority =
/// PSID authority) → `AdminSP.Revert`; the TPer ends the session without an EOS
/// [SEDU `DtaDevOpal::revertTPer`, K-opal].
pub fn psid_revert(t: &mut Tper<'_>, psid: &Pin) -> Result<(), TcgError> {
    if t.dialect != Dialect::Opal {
        return Err(TcgError::Unsupported("not an Opal-family drive".into()));
    }
    let s = t.start_session(uid::ADMIN_SP, true, Some((uid::AUTH_PSID, psid)))?;
    s.call_and_drop(uid::ADMIN_SP, uid::method::REVERT)
}
