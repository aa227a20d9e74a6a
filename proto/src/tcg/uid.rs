//! 8-byte TCG UIDs (protocols.md §F.8, from [SEDU `DtaLexicon.h`], [GOTCG `uid/*.go`],
//! [K-opal `opal_proto.h`]).

use serde::{Serialize, Serializer};
use std::fmt;

/// A TCG object or method UID.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Uid(pub [u8; 8]);

impl Uid {
    /// From a big-endian u64.
    pub const fn from_u64(v: u64) -> Uid {
        Uid(v.to_be_bytes())
    }

    /// As a big-endian u64.
    pub fn as_u64(&self) -> u64 {
        u64::from_be_bytes(self.0)
    }

    /// From an 8-byte slice.
    pub fn from_slice(b: &[u8]) -> Option<Uid> {
        <[u8; 8]>::try_from(b).ok().map(Uid)
    }
}

impl fmt::Debug for Uid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Uid({:016x})", self.as_u64())
    }
}

impl fmt::Display for Uid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.as_u64())
    }
}

impl Serialize for Uid {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

// Sources for every UID below (one line each names the table it comes from):
// * [Core] TCG Storage Architecture Core Specification 2.01: the Base Template's table UIDs
//   (the "Table UID" column of the Table table: Table 00 00 00 01, MethodID 00 00 00 06,
//   Authority 00 00 00 09, C_PIN 00 00 00 0B, TPerInfo 00 00 02 01, SP 00 00 02 05,
//   LockingInfo 00 00 08 01, Locking 00 00 08 02, MBRControl 00 00 08 03, MBR 00 00 08 04)
//   and its special UIDs (ThisSP, SMUID) and method UIDs (MethodID table).
// * [Ent] TCG Storage Security Subsystem Class: Enterprise 1.00 r3.00: the preconfiguration
//   tables of the Admin SP (SP table, Authority table, C_PIN table, TPerInfo table) and of the
//   Locking SP (Authority table, C_PIN table, LockingInfo table, Locking table).
// * [Opal] TCG Storage SSC Opal 2.01 preconfiguration tables, for the Opal-only UIDs.
// * [PSID] TCG Storage Opal SSC Feature Set: PSID 1.00 (PSID authority / C_PIN_PSID).
// Cross-checked against sedutil `DtaLexicon.h` (OPALUID[], OPALMETHOD[]) and go-tcg-storage
// `pkg/core/uid/{tables,rows,methods}.go`; fixtures/tcg/uids.tsv holds the same values with
// their table and tests/it/tcg_conformance.rs reads it against these constants.

/// ThisSP (special UID, \[Core\] "Special purpose UIDs").
pub const THIS_SP: Uid = Uid::from_u64(0x0000_0000_0000_0001);
/// Session manager, SMUID (\[Core\] session manager UIDs).
pub const SMUID: Uid = Uid::from_u64(0x0000_0000_0000_00FF);
/// Admin SP: row `00 00 02 05 00 00 00 01` of the SP table (\[Ent\] Admin SP SP table).
pub const ADMIN_SP: Uid = Uid::from_u64(0x0000_0205_0000_0001);
/// Locking SP (Opal): SP table row (\[Opal\] Admin SP SP table).
pub(crate) const LOCKING_SP_OPAL: Uid = Uid::from_u64(0x0000_0205_0000_0002);
/// Locking SP (Enterprise): SP table row `00 00 02 05 00 01 00 01` (\[Ent\] Admin SP SP table).
pub const LOCKING_SP_ENTERPRISE: Uid = Uid::from_u64(0x0000_0205_0001_0001);

/// SP table (Admin SP; \[Core\] Table table row for SP).
pub const SP_TABLE: Uid = Uid::from_u64(0x0000_0205_0000_0000);
/// TPerInfo table (\[Core\] Table table row for TPerInfo).
pub const TPER_INFO_TABLE: Uid = Uid::from_u64(0x0000_0201_0000_0000);
/// TPerInfo row of the Admin SP, `00 00 02 01 00 03 00 01` (\[Ent\] Admin SP TPerInfo table).
pub const TPER_INFO: Uid = Uid::from_u64(0x0000_0201_0003_0001);
/// Authority table (\[Core\] Table table row for Authority).
pub const AUTHORITY_TABLE: Uid = Uid::from_u64(0x0000_0009_0000_0000);

/// Authority Anybody, in both SPs (\[Ent\] Admin SP and Locking SP Authority tables).
pub const AUTH_ANYBODY: Uid = Uid::from_u64(0x0000_0009_0000_0001);
/// Authority Admins, a class (\[Ent\] Admin SP Authority table).
pub const AUTH_ADMINS: Uid = Uid::from_u64(0x0000_0009_0000_0002);
/// Authority Makers, a class (\[Ent\] Admin SP Authority table).
pub const AUTH_MAKERS: Uid = Uid::from_u64(0x0000_0009_0000_0003);
/// Authority SID (\[Ent\] Admin SP Authority table; its credential is [`C_PIN_SID`]).
pub const AUTH_SID: Uid = Uid::from_u64(0x0000_0009_0000_0006);
/// Authority MSID (\[Ent\] Admin SP Authority table; credential [`C_PIN_MSID`]).
pub const AUTH_MSID: Uid = Uid::from_u64(0x0000_0009_0000_8402);
/// Authority PSID (\[PSID\] Admin SP Authority table addition; credential [`C_PIN_PSID`]).
pub const AUTH_PSID: Uid = Uid::from_u64(0x0000_0009_0001_FF01);
/// Opal Admin1 of the Locking SP (\[Opal\] Locking SP Authority table).
pub(crate) const AUTH_OPAL_ADMIN1: Uid = Uid::from_u64(0x0000_0009_0001_0001);
/// Enterprise EraseMaster (\[Ent\] Locking SP Authority table; credential
/// [`C_PIN_ERASEMASTER`]).
pub const AUTH_ERASEMASTER: Uid = Uid::from_u64(0x0000_0009_0000_8401);

/// Enterprise BandMaster n: `00 00 00 09 00 00 80 (01+n)` (\[Ent\] Locking SP Authority table,
/// rows BandMaster0..BandMasterN).
pub const fn auth_bandmaster(n: u16) -> Uid {
    Uid::from_u64(0x0000_0009_0000_8001 + n as u64)
}

/// C_PIN table (\[Core\] Table table row for C_PIN).
pub const C_PIN_TABLE: Uid = Uid::from_u64(0x0000_000B_0000_0000);
/// C_PIN_MSID (\[Ent\] Admin SP C_PIN table; readable by Anybody).
pub const C_PIN_MSID: Uid = Uid::from_u64(0x0000_000B_0000_8402);
/// C_PIN_SID, `00 00 00 0B 00 00 00 01` (\[Ent\] Admin SP C_PIN table; \[Opal\] the same). Note
/// the row number is 1, not SID's authority row 6: C_PIN rows are *not* the authority UID
/// with byte 3 changed.
pub const C_PIN_SID: Uid = Uid::from_u64(0x0000_000B_0000_0001);
/// C_PIN_PSID (\[PSID\] Admin SP C_PIN table addition).
pub const C_PIN_PSID: Uid = Uid::from_u64(0x0000_000B_0001_FF01);
/// C_PIN_Admin1 of the Opal Locking SP (\[Opal\] Locking SP C_PIN table).
pub(crate) const C_PIN_ADMIN1: Uid = Uid::from_u64(0x0000_000B_0001_0001);
/// C_PIN_EraseMaster (\[Ent\] Locking SP C_PIN table).
pub const C_PIN_ERASEMASTER: Uid = Uid::from_u64(0x0000_000B_0000_8401);

/// C_PIN_BandMaster n: `00 00 00 0B 00 00 80 (01+n)` (\[Ent\] Locking SP C_PIN table).
pub const fn c_pin_bandmaster(n: u16) -> Uid {
    Uid::from_u64(0x0000_000B_0000_8001 + n as u64)
}

/// Highest BandMaster / band number the UID layout can express (`80 01`..`83 FF`).
pub(crate) const MAX_BAND_NUMBER: u16 = 0x3FF;

/// The explicit authority ↔ C_PIN table (\[Ent\] Admin SP and Locking SP C_PIN tables: each
/// C_PIN row's "UID" column next to the authority whose credential it is). BandMasters are
/// the parametric rows of the Locking SP tables, handled by [`c_pin_of`].
pub(crate) const AUTHORITY_C_PIN: &[(Uid, Uid, Uid)] = &[
    // (authority, its C_PIN row, SP holding both)
    (AUTH_SID, C_PIN_SID, ADMIN_SP),
    (AUTH_MSID, C_PIN_MSID, ADMIN_SP),
    (AUTH_PSID, C_PIN_PSID, ADMIN_SP),
    (AUTH_ERASEMASTER, C_PIN_ERASEMASTER, LOCKING_SP_ENTERPRISE),
    (AUTH_OPAL_ADMIN1, C_PIN_ADMIN1, LOCKING_SP_OPAL),
];

/// The C_PIN row holding `authority`'s credential, from `AUTHORITY_C_PIN` (or the
/// BandMaster rows); `None` for authorities without a C_PIN row (Anybody, the classes).
pub fn c_pin_of(authority: Uid) -> Option<Uid> {
    if let Some(n) = bandmaster_number(authority) {
        return Some(c_pin_bandmaster(n));
    }
    AUTHORITY_C_PIN
        .iter()
        .find(|(a, _, _)| *a == authority)
        .map(|(_, c, _)| *c)
}

/// The authority whose credential C_PIN row `c_pin` is (inverse of [`c_pin_of`]).
pub fn authority_of_c_pin(c_pin: Uid) -> Option<Uid> {
    let v = c_pin.as_u64();
    if (0x0000_000B_0000_8001..=0x0000_000B_0000_8001 + MAX_BAND_NUMBER as u64).contains(&v) {
        return Some(auth_bandmaster((v - 0x0000_000B_0000_8001) as u16));
    }
    AUTHORITY_C_PIN
        .iter()
        .find(|(_, c, _)| *c == c_pin)
        .map(|(a, _, _)| *a)
}

/// Locking table (\[Core\] Table table row for Locking).
pub const LOCKING_TABLE: Uid = Uid::from_u64(0x0000_0802_0000_0000);
/// Global range = Enterprise Band0 (\[Ent\] Locking SP Locking table, row Band0).
pub const LOCKING_GLOBAL: Uid = Uid::from_u64(0x0000_0802_0000_0001);

/// Enterprise Band n: `00 00 08 02 00 00 00 (01+n)` (\[Ent\] Locking SP Locking table, rows
/// Band0..BandN; sedutil `setband`).
pub const fn band(n: u16) -> Uid {
    Uid::from_u64(0x0000_0802_0000_0001 + n as u64)
}

/// Which band a Locking-table row UID denotes (Enterprise numbering).
pub fn band_number(u: Uid) -> Option<u16> {
    let v = u.as_u64();
    if (0x0000_0802_0000_0001..=0x0000_0802_0000_0001 + MAX_BAND_NUMBER as u64).contains(&v) {
        Some((v - 0x0000_0802_0000_0001) as u16)
    } else {
        None
    }
}

/// Which BandMaster an authority UID denotes.
pub fn bandmaster_number(u: Uid) -> Option<u16> {
    let v = u.as_u64();
    if (0x0000_0009_0000_8001..=0x0000_0009_0000_8001 + MAX_BAND_NUMBER as u64).contains(&v) {
        Some((v - 0x0000_0009_0000_8001) as u16)
    } else {
        None
    }
}

/// Opal locking range n (n ≥ 1) (\[Opal\] Locking SP Locking table).
pub const fn opal_range(n: u16) -> Uid {
    Uid::from_u64(0x0000_0802_0003_0000 + n as u64)
}

/// LockingInfo row (Enterprise), `00 00 08 01 00 00 00 00` (\[Ent\] Locking SP LockingInfo
/// table; sedutil `ENTERPRISE_LOCKING_INFO_TABLE`, go-tcg `EnterpriseLockingInfoObj`).
pub const LOCKING_INFO_ENTERPRISE: Uid = Uid::from_u64(0x0000_0801_0000_0000);
/// LockingInfo row (Opal) (\[Opal\] Locking SP LockingInfo table).
pub const LOCKING_INFO_OPAL: Uid = Uid::from_u64(0x0000_0801_0000_0001);

/// Session manager methods (\[Core\] session manager method UIDs).
pub mod sm {
    use super::Uid;
    /// Properties
    pub const PROPERTIES: Uid = Uid::from_u64(0x0000_0000_0000_FF01);
    /// StartSession
    pub const START_SESSION: Uid = Uid::from_u64(0x0000_0000_0000_FF02);
    /// SyncSession
    pub const SYNC_SESSION: Uid = Uid::from_u64(0x0000_0000_0000_FF03);
    /// StartTrustedSession
    pub const START_TRUSTED_SESSION: Uid = Uid::from_u64(0x0000_0000_0000_FF04);
    /// SyncTrustedSession
    pub const SYNC_TRUSTED_SESSION: Uid = Uid::from_u64(0x0000_0000_0000_FF05);
    /// CloseSession
    pub const CLOSE_SESSION: Uid = Uid::from_u64(0x0000_0000_0000_FF06);
}

/// Method UIDs (\[Core\] MethodID table; the Enterprise SSC keeps the older Get/Set/Authenticate
/// UIDs 06/07/0C of its MethodID tables, \[Ent\] Admin SP and Locking SP MethodID tables).
pub mod method {
    use super::Uid;
    /// Opal/Core Get.
    pub const GET: Uid = Uid::from_u64(0x0000_0006_0000_0016);
    /// Opal/Core Set.
    pub const SET: Uid = Uid::from_u64(0x0000_0006_0000_0017);
    /// Next.
    pub const NEXT: Uid = Uid::from_u64(0x0000_0006_0000_0008);
    /// Opal/Core Authenticate.
    pub const AUTHENTICATE: Uid = Uid::from_u64(0x0000_0006_0000_001C);
    /// GenKey.
    pub const GENKEY: Uid = Uid::from_u64(0x0000_0006_0000_0010);
    /// RevertSP.
    pub const REVERT_SP: Uid = Uid::from_u64(0x0000_0006_0000_0011);
    /// Revert (on an SP object, Opal).
    pub const REVERT: Uid = Uid::from_u64(0x0000_0006_0000_0202);
    /// Activate.
    pub const ACTIVATE: Uid = Uid::from_u64(0x0000_0006_0000_0203);
    /// Random.
    pub const RANDOM: Uid = Uid::from_u64(0x0000_0006_0000_0601);
    /// Erase (Enterprise band crypto erase).
    pub const ERASE: Uid = Uid::from_u64(0x0000_0006_0000_0803);
    /// Enterprise Get.
    pub const E_GET: Uid = Uid::from_u64(0x0000_0006_0000_0006);
    /// Enterprise Set.
    pub const E_SET: Uid = Uid::from_u64(0x0000_0006_0000_0007);
    /// Enterprise Authenticate.
    pub const E_AUTHENTICATE: Uid = Uid::from_u64(0x0000_0006_0000_000C);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering() {
        // protocols.md §F.8: BandMaster0 = …80 01, Band0 = …00 01.
        assert_eq!(auth_bandmaster(0).0, [0, 0, 0, 9, 0, 0, 0x80, 0x01]);
        assert_eq!(band(1).0, [0, 0, 8, 2, 0, 0, 0, 0x02]);
        assert_eq!(c_pin_of(auth_bandmaster(3)), Some(c_pin_bandmaster(3)));
        assert_eq!(c_pin_of(AUTH_ERASEMASTER), Some(C_PIN_ERASEMASTER));
        // SID's credential is C_PIN row 1, not "byte 3 changed" (…0B 00 00 00 06).
        assert_eq!(c_pin_of(AUTH_SID).unwrap().0, [0, 0, 0, 0x0B, 0, 0, 0, 1]);
        assert_eq!(authority_of_c_pin(C_PIN_SID), Some(AUTH_SID));
        assert_eq!(
            authority_of_c_pin(Uid::from_u64(0x0000_000B_0000_0006)),
            None
        );
        assert_eq!(c_pin_of(AUTH_ANYBODY), None);
        for (a, c, _) in AUTHORITY_C_PIN {
            assert_eq!(authority_of_c_pin(*c), Some(*a));
        }
        assert_eq!(
            authority_of_c_pin(c_pin_bandmaster(15)),
            Some(auth_bandmaster(15))
        );
        assert_eq!(band_number(band(15)), Some(15));
        assert_eq!(band_number(LOCKING_TABLE), None);
        assert_eq!(bandmaster_number(auth_bandmaster(7)), Some(7));
        assert_eq!(bandmaster_number(AUTH_ERASEMASTER), None);
        assert_eq!(opal_range(1).0, [0, 0, 8, 2, 0, 3, 0, 1]);
    }
}
