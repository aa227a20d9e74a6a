//! TCG Enterprise SSC operations (protocols.md §F.10) [SEDU `DtaDevEnterprise.cpp`,
//! SGT-SED pp.14–24].
//!
//! Sessions: Admin SP for SID and MSID; Enterprise Locking SP for EraseMaster and the
//! BandMasters. One authority per session; a BandMaster only touches its own band.
//!
//! The methods that destroy data (`Band n.Erase`, `ThisSP.RevertSP`, Opal `AdminSP.Revert`)
//! are not here: they take the safety gate's token, so they live above the gate, in
//! `sgctl::ops::tcg_erase`.

use super::{Dialect, Session, Tper};
use crate::tcg::session::{authority_name, column, columns};
use crate::tcg::token::Value;
use crate::tcg::uid::{self, Uid};
use crate::tcg::{Pin, TcgError};

pub use crate::tcg::enterprise::{parse_band, Band, BandConfig, Ownership, DEFAULT_MAX_BANDS};

fn need_enterprise(t: &Tper<'_>) -> Result<(), TcgError> {
    if t.dialect != Dialect::Enterprise {
        return Err(TcgError::Unsupported(
            "this is an Opal-family drive; Enterprise band operations do not apply".into(),
        ));
    }
    Ok(())
}

/// Reads the MSID (C_PIN_MSID.PIN) in an anonymous read-only Admin SP session.
pub fn read_msid(t: &mut Tper<'_>) -> Result<Pin, TcgError> {
    let mut s = t.start_session(uid::ADMIN_SP, false, None)?;
    let r = s.get(uid::C_PIN_MSID, Some((("PIN", 3), ("PIN", 3))))?;
    s.end()?;
    let c = columns(&r);
    column(&c, "PIN", 3)
        .and_then(Value::as_bytes)
        .map(|b| Pin::new(b.to_vec()))
        .ok_or_else(|| TcgError::Token("C_PIN_MSID Get returned no PIN column".into()))
}

/// Changes the PIN of `who` on `sp`, authenticating with `current`.
pub(crate) fn set_pin(
    t: &mut Tper<'_>,
    sp: Uid,
    who: Uid,
    current: &Pin,
    new: &Pin,
) -> Result<(), TcgError> {
    // The credential row comes from the explicit authority ↔ C_PIN table (SID → C_PIN_SID
    // `…0B 00 00 00 01`), never from rewriting the authority UID.
    let row = uid::c_pin_of(who).ok_or_else(|| {
        TcgError::Unsupported(format!("{} has no C_PIN row", authority_name(who)))
    })?;
    let mut s = t.start_session(sp, true, Some((who, current)))?;
    s.set(row, &[("PIN", 3, Value::Bytes(new.expose().to_vec()))])?;
    s.end()
}

/// LockingInfo.MaxRanges (bands beyond the global band), read anonymously.
pub fn max_ranges(t: &mut Tper<'_>) -> Result<u16, TcgError> {
    need_enterprise(t)?;
    let mut s = t.start_session(uid::LOCKING_SP_ENTERPRISE, false, None)?;
    let r = s.get(uid::LOCKING_INFO_ENTERPRISE, None);
    s.end()?;
    let r = r?;
    let c = columns(&r);
    match column(&c, "MaxRanges", 4).and_then(Value::as_uint) {
        // sedutil treats ≥ 1024 as bogus.
        Some(n) if n < 1024 => Ok(n as u16),
        _ => Ok(DEFAULT_MAX_BANDS - 1),
    }
}

/// Checks band `n` against the drive's Locking table (LockingInfo.MaxRanges, read in an
/// anonymous read-only session) before any session authenticates: a band the drive does not
/// have ends here with the range it has, and costs no PIN try.
pub fn check_band(t: &mut Tper<'_>, n: u16) -> Result<(), TcgError> {
    let max = max_ranges(t)?;
    if n > max {
        return Err(TcgError::NoSuchBand { band: n, max });
    }
    Ok(())
}

/// Take ownership: SID (Admin SP), EraseMaster, then every BandMaster 0..=max_ranges, each
/// from the MSID to `new` (protocols.md §F.10 step 2). BandMasters 2.. are enabled first by
/// EraseMaster, as they ship disabled.
pub fn take_ownership(t: &mut Tper<'_>, new: &Pin) -> Result<Ownership, TcgError> {
    need_enterprise(t)?;
    let msid = read_msid(t)?;
    let mut o = Ownership::default();
    set_pin(t, uid::ADMIN_SP, uid::AUTH_SID, &msid, new)?;
    o.authorities.push("SID".into());
    set_pin(
        t,
        uid::LOCKING_SP_ENTERPRISE,
        uid::AUTH_ERASEMASTER,
        &msid,
        new,
    )?;
    o.authorities.push("EraseMaster".into());
    let max = max_ranges(t)?;
    enable_bandmasters(t, new, 0..=max)?;
    for n in 0..=max {
        set_pin(
            t,
            uid::LOCKING_SP_ENTERPRISE,
            uid::auth_bandmaster(n),
            &msid,
            new,
        )?;
        o.authorities.push(format!("BandMaster{n}"));
    }
    Ok(o)
}

/// A write session on the Enterprise Locking SP as EraseMaster (an Opal drive is refused).
pub fn erasemaster_session<'s, 't>(
    t: &'s mut Tper<'t>,
    erasemaster_pin: &Pin,
) -> Result<Session<'s, 't>, TcgError> {
    need_enterprise(t)?;
    t.start_session(
        uid::LOCKING_SP_ENTERPRISE,
        true,
        Some((uid::AUTH_ERASEMASTER, erasemaster_pin)),
    )
}

/// Enables BandMaster authorities (Authority row column "Enabled" = TRUE) as EraseMaster
/// [SEDU `setBandsEnabled`].
pub(crate) fn enable_bandmasters(
    t: &mut Tper<'_>,
    erasemaster_pin: &Pin,
    bands: std::ops::RangeInclusive<u16>,
) -> Result<(), TcgError> {
    let mut s = erasemaster_session(t, erasemaster_pin)?;
    for n in bands {
        s.set(uid::auth_bandmaster(n), &[("Enabled", 5, Value::Uint(1))])?;
    }
    s.end()
}

/// Reads band `n`; authenticates as BandMaster n when `pin` is given, else anonymously.
pub fn get_band(t: &mut Tper<'_>, n: u16, pin: Option<&Pin>) -> Result<Band, TcgError> {
    need_enterprise(t)?;
    let auth = pin.map(|p| (uid::auth_bandmaster(n), p));
    let mut s = t.start_session(uid::LOCKING_SP_ENTERPRISE, false, auth)?;
    let r = s.get(uid::band(n), None);
    s.end()?;
    Ok(parse_band(n, &r?))
}

/// Lists bands 0..=MaxRanges.
pub fn list_bands(t: &mut Tper<'_>, pin: Option<&Pin>) -> Result<Vec<Band>, TcgError> {
    let max = max_ranges(t)?;
    (0..=max).map(|n| get_band(t, n, pin)).collect()
}

/// Configures band `n` as BandMaster n.
pub fn configure_band(
    t: &mut Tper<'_>,
    n: u16,
    pin: &Pin,
    cfg: &BandConfig,
) -> Result<(), TcgError> {
    need_enterprise(t)?;
    check_band(t, n)?;
    let mut s = t.start_session(
        uid::LOCKING_SP_ENTERPRISE,
        true,
        Some((uid::auth_bandmaster(n), pin)),
    )?;
    let le = u64::from(cfg.lock_enabled);
    let lor = if cfg.lock_on_reset {
        Value::List(vec![Value::Uint(0)])
    } else {
        Value::List(vec![])
    };
    let mut cols = vec![];
    if n != 0 {
        cols.push(("RangeStart", 3, Value::Uint(cfg.range_start)));
        cols.push(("RangeLength", 4, Value::Uint(cfg.range_length)));
    }
    cols.push(("ReadLockEnabled", 5, Value::Uint(le)));
    cols.push(("WriteLockEnabled", 6, Value::Uint(le)));
    cols.push(("LockOnReset", 9, lor));
    s.set(uid::band(n), &cols)?;
    s.end()
}

/// Locks or unlocks band `n` (ReadLocked and WriteLocked as a pair) as BandMaster n.
pub fn set_locked(t: &mut Tper<'_>, n: u16, pin: &Pin, locked: bool) -> Result<(), TcgError> {
    need_enterprise(t)?;
    check_band(t, n)?;
    let mut s = t.start_session(
        uid::LOCKING_SP_ENTERPRISE,
        true,
        Some((uid::auth_bandmaster(n), pin)),
    )?;
    let v = u64::from(locked);
    s.set(
        uid::band(n),
        &[
            ("ReadLocked", 7, Value::Uint(v)),
            ("WriteLocked", 8, Value::Uint(v)),
        ],
    )?;
    s.end()
}
