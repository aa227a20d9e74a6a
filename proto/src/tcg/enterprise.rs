//! TCG Enterprise SSC (protocols.md §F.10) [SEDU `DtaDevEnterprise.cpp`, SGT-SED pp.14–24]:
//! the band row, its decoding and configuration. The operations that run sessions are
//! [`crate::cmd::tcg::enterprise`].

use super::session::{self, column, columns};
use super::token::Value;
use super::uid::Uid;
use serde::Serialize;

/// Bands assumed when the drive does not report LockingInfo.MaxRanges.
pub const DEFAULT_MAX_BANDS: u16 = 16;

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

/// What `take_ownership` changed.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Ownership {
    /// Authorities whose PIN was set.
    pub authorities: Vec<String>,
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

/// Names the authority for an error message.
pub fn describe(u: Uid) -> String {
    session::authority_name(u)
}
