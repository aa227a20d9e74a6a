//! TCG Enterprise SSC operations (protocols.md §F.10) [SEDU `DtaDevEnterprise.cpp`,
//! SGT-SED pp.14–24].
//!
//! Sessions: Admin SP for SID and MSID; Enterprise Locking SP for EraseMaster and the
//! BandMasters. One authority per session; a BandMaster only touches its own band.

use super::session::{self, column, columns, Dialect, Tper};
use super::token::Value;
use super::uid::{self, Uid};
use super::{Pin, TcgError};
use serde::Serialize;

/// Bands assumed when the drive does not report LockingInfo.MaxRanges.
pub const DEFAULT_MAX_BANDS: u16 = 16;

fn need_enterprise(t: &Tper<'_>) -> Result<(), TcgError> {
    if t.dialect != Dialect::Enterprise {
        return Err(TcgError::Unsupported(
            "this is an Opal-family drive; Enterprise band operations do not apply".into(),
        ));
    }
    Ok(())
}

/// One band (Locking table row).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Band {
    /// Band number (0 = global range).
    pub number: u16,
    /// RangeStart (LBA).
    pub range_start: u64,
    /// RangeLength (blocks).
    pub range_length: u64,
    /// ReadLockEnabled.
    pub read_lock_enabled: bool,
    /// WriteLockEnabled.
    pub write_lock_enabled: bool,
    /// ReadLocked.
    pub read_locked: bool,
    /// WriteLocked.
    pub write_locked: bool,
    /// LockOnReset contains PowerCycle (0).
    pub lock_on_reset: bool,
}

fn as_bool(v: Option<&Value>) -> bool {
    v.and_then(Value::as_uint).unwrap_or(0) != 0
}

/// Decodes a Locking table row from Get results (names or Opal column numbers).
pub fn parse_band(number: u16, results: &[Value]) -> Band {
    let c = columns(results);
    Band {
        number,
        range_start: column(&c, "RangeStart", 3)
            .and_then(Value::as_uint)
            .unwrap_or(0),
        range_length: column(&c, "RangeLength", 4)
            .and_then(Value::as_uint)
            .unwrap_or(0),
        read_lock_enabled: as_bool(column(&c, "ReadLockEnabled", 5)),
        write_lock_enabled: as_bool(column(&c, "WriteLockEnabled", 6)),
        read_locked: as_bool(column(&c, "ReadLocked", 7)),
        write_locked: as_bool(column(&c, "WriteLocked", 8)),
        lock_on_reset: column(&c, "LockOnReset", 9)
            .and_then(Value::as_list)
            .is_some_and(|l| l.iter().any(|x| x.as_uint() == Some(0))),
    }
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
pub fn set_pin(
    t: &mut Tper<'_>,
    sp: Uid,
    who: Uid,
    current: &Pin,
    new: &Pin,
) -> Result<(), TcgError> {
    // The credential row comes from the explicit authority ↔ C_PIN table (SID → C_PIN_SID
    // `…0B 00 00 00 01`), never from rewriting the authority UID.
    let row = uid::c_pin_of(who).ok_or_else(|| {
        TcgError::Unsupported(format!("{} has no C_PIN row", session::authority_name(who)))
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

/// What `take_ownership` changed.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Ownership {
    /// Authorities whose PIN was set.
    pub authorities: Vec<String>,
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
) -> Result<session::Session<'s, 't>, TcgError> {
    need_enterprise(t)?;
    t.start_session(
        uid::LOCKING_SP_ENTERPRISE,
        true,
        Some((uid::AUTH_ERASEMASTER, erasemaster_pin)),
    )
}

/// Enables BandMaster authorities (Authority row column "Enabled" = TRUE) as EraseMaster
/// [SEDU `setBandsEnabled`].
pub fn enable_bandmasters(
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

/// Band configuration (protocols.md §F.10 step 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct BandConfig {
    /// RangeStart (ignored for band 0, which always covers the whole drive).
    pub range_start: u64,
    /// RangeLength.
    pub range_length: u64,
    /// Read and write lock enabled (set as a pair: Seagate ignores mixed values).
    pub lock_enabled: bool,
    /// Relock at power cycle.
    pub lock_on_reset: bool,
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

// The methods that destroy data (`Band n.Erase`, `ThisSP.RevertSP`, Opal `AdminSP.Revert`)
// are not here: they take the safety gate's token, so they live above the gate, in
// `sgctl::ops::tcg_erase`.

/// Names the authority for an error message.
pub fn describe(u: Uid) -> String {
    session::authority_name(u)
}
