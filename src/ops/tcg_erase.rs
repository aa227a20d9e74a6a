//! The gated entry points of the destructive TCG methods (issue 11): a band erase and a PSID
//! revert take the safety gate's token. The methods themselves (`tcg::enterprise::erase_bands`,
//! `tcg::enterprise::psid_revert`, `tcg::opal::psid_revert`) are the protocol layer, which lives
//! below the gate (the token is an `ops` type: it carries the audit log and the drive's paths),
//! so the jobs call these wrappers, not the methods.

use crate::ops::safety::Cleared;
use crate::tcg::session::{Dialect, Tper};
use crate::tcg::{enterprise, opal, Pin, TcgError};

/// Cryptographic erase of `bands` in one EraseMaster session (Enterprise `Band n.Erase`).
///
/// Without the gate's token the call does not compile (E0061: wrong number of arguments):
///
/// ```compile_fail,E0061
/// # fn f(t: &mut sgctl::tcg::session::Tper<'_>, pin: &sgctl::tcg::Pin) -> Result<(), sgctl::tcg::TcgError> {
/// sgctl::ops::tcg_erase::erase_bands(t, &[1], pin)?;
/// # Ok(()) }
/// ```
pub fn erase_bands(
    t: &mut Tper<'_>,
    _gate: &Cleared,
    bands: &[u16],
    erasemaster_pin: &Pin,
) -> Result<(), TcgError> {
    enterprise::erase_bands(t, bands, erasemaster_pin)
}

/// PSID revert in the drive's dialect (Enterprise `ThisSP.RevertSP`, Opal `AdminSP.Revert`).
///
/// Without the gate's token the call does not compile (E0061):
///
/// ```compile_fail,E0061
/// # fn f(t: &mut sgctl::tcg::session::Tper<'_>, psid: &sgctl::tcg::Pin) -> Result<(), sgctl::tcg::TcgError> {
/// sgctl::ops::tcg_erase::psid_revert(t, psid)?;
/// # Ok(()) }
/// ```
pub fn psid_revert(t: &mut Tper<'_>, _gate: &Cleared, psid: &Pin) -> Result<(), TcgError> {
    match t.dialect {
        Dialect::Enterprise => enterprise::psid_revert(t, psid),
        Dialect::Opal => opal::psid_revert(t, psid),
    }
}
