//! The TCG methods that destroy data: a band erase (Enterprise `Band n.Erase`) and a
//! PSID revert (Enterprise `ThisSP.RevertSP`, Opal `AdminSP.Revert`). They take the safety
//! gate's token, so they live here, above the gate: the sgctl-proto crate keeps the protocol
//! (sessions, tokens, UIDs, the non-destructive Enterprise operations) and has no function that
//! sends them. The compiler enforces it across the crate boundary: the token
//! ([`Cleared`]) is an `ops` type that only [`crate::ops::gate::clear`] makes.
//!
//! What stays open, as for every SCSI command (a caller can hand any CDB to
//! `Transport::execute`): the generic method call of an open session
//! (`cmd::tcg::Session::call` with any method UID). The named operations are the API; the
//! raw call is the protocol layer's escape hatch.

use crate::cmd::tcg::enterprise::erasemaster_session;
use crate::cmd::tcg::{Dialect, Tper};
use crate::ops::gate::Cleared;
use crate::tcg::{uid, Pin, TcgError};

/// Cryptographic erase of band `n` as EraseMaster: `Band n.Erase` (TCG Enterprise SSC 1.01
/// §6.3.1.1). The drive generates a new media key, unlocks the band and resets BandMaster n's
/// PIN to the MSID.
pub fn erase_band(
    t: &mut Tper<'_>,
    gate: &Cleared,
    n: u16,
    erasemaster_pin: &Pin,
) -> Result<(), TcgError> {
    erase_bands(t, gate, &[n], erasemaster_pin)
}

/// Cryptographic erase of `bands` in one EraseMaster session (Enterprise `Band n.Erase`).
///
/// Without the gate's token the call does not compile (E0061: wrong number of arguments):
///
/// ```compile_fail,E0061
/// # fn f(t: &mut sgctl::cmd::tcg::Tper<'_>, pin: &sgctl::tcg::Pin) -> Result<(), sgctl::tcg::TcgError> {
/// sgctl::ops::tcg_erase::erase_bands(t, &[1], pin)?;
/// # Ok(()) }
/// ```
///
/// and the protocol crate has no such method to call instead (E0425: not found):
///
/// ```compile_fail,E0425
/// # fn f(t: &mut sgctl::cmd::tcg::Tper<'_>, pin: &sgctl::tcg::Pin) -> Result<(), sgctl::tcg::TcgError> {
/// sgctl::cmd::tcg::enterprise::erase_bands(t, &[1], pin)?;
/// # Ok(()) }
/// ```
pub fn erase_bands(
    t: &mut Tper<'_>,
    _gate: &Cleared,
    bands: &[u16],
    erasemaster_pin: &Pin,
) -> Result<(), TcgError> {
    let mut s = erasemaster_session(t, erasemaster_pin)?;
    for &n in bands {
        s.call(uid::band(n), uid::method::ERASE, &[])?;
    }
    s.end()
}

/// PSID revert in the drive's dialect: Enterprise: Admin SP session, Authenticate(PSID),
/// `ThisSP.RevertSP`, the TPer ends the session itself [SEDU `revertTPer`, SEDU-ISS #469;
/// vendor-dependent]. Opal: StartSession(AdminSP, write, HostChallenge = PSID,
/// HostSigningAuthority = PSID authority) → `AdminSP.Revert`, the TPer ends the session
/// without an EOS [SEDU `DtaDevOpal::revertTPer`, K-opal].
///
/// Without the gate's token the call does not compile (E0061):
///
/// ```compile_fail,E0061
/// # fn f(t: &mut sgctl::cmd::tcg::Tper<'_>, psid: &sgctl::tcg::Pin) -> Result<(), sgctl::tcg::TcgError> {
/// sgctl::ops::tcg_erase::psid_revert(t, psid)?;
/// # Ok(()) }
/// ```
///
/// nor does the protocol crate's former entry point, which is gone (E0425):
///
/// ```compile_fail,E0425
/// # fn f(t: &mut sgctl::cmd::tcg::Tper<'_>, psid: &sgctl::tcg::Pin) -> Result<(), sgctl::tcg::TcgError> {
/// sgctl::tcg::opal::psid_revert(t, psid)?;
/// # Ok(()) }
/// ```
pub fn psid_revert(t: &mut Tper<'_>, _gate: &Cleared, psid: &Pin) -> Result<(), TcgError> {
    let (sp, method) = match t.dialect {
        Dialect::Enterprise => (uid::THIS_SP, uid::method::REVERT_SP),
        Dialect::Opal => (uid::ADMIN_SP, uid::method::REVERT),
    };
    let s = t.start_session(uid::ADMIN_SP, true, Some((uid::AUTH_PSID, psid)))?;
    s.call_and_drop(sp, method)
}
