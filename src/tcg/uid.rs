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

/// ThisSP.
pub const THIS_SP: Uid = Uid::from_u64(0x0000_0000_0000_0001);
/// Session manager.
pub const SMUID: Uid = Uid::from_u64(0x0000_0000_0000_00FF);
/// Admin SP.
pub const ADMIN_SP: Uid = Uid::from_u64(0x0000_0205_0000_0001);
/// Locking SP (Opal).
pub const LOCKING_SP_OPAL: Uid = Uid::from_u64(0x0000_0205_0000_0002);
/// Locking SP (Enterprise).
pub const LOCKING_SP_ENTERPRISE: Uid = Uid::from_u64(0x0000_0205_0001_0001);

/// Authority Anybody.
pub const AUTH_ANYBODY: Uid = Uid::from_u64(0x0000_0009_0000_0001);
/// Authority Admins.
pub const AUTH_ADMINS: Uid = Uid::from_u64(0x0000_0009_0000_0002);
/// Authority Makers.
pub const AUTH_MAKERS: Uid = Uid::from_u64(0x0000_0009_0000_0003);
/// Authority SID.
pub const AUTH_SID: Uid = Uid::from_u64(0x0000_0009_0000_0006);
/// Authority MSID.
pub const AUTH_MSID: Uid = Uid::from_u64(0x0000_0009_0000_8402);
/// Authority PSID.
pub const AUTH_PSID: Uid = Uid::from_u64(0x0000_0009_0001_FF01);
/// Opal Admin1.
pub const AUTH_OPAL_ADMIN1: Uid = Uid::from_u64(0x0000_0009_0001_0001);
/// Enterprise EraseMaster.
pub const AUTH_ERASEMASTER: Uid = Uid::from_u64(0x0000_0009_0000_8401);

/// Enterprise BandMaster n: `00 00 00 09 00 00 80 (01+n)`.
pub const fn auth_bandmaster(n: u16) -> Uid {
    Uid::from_u64(0x0000_0009_0000_8001 + n as u64)
}

/// C_PIN table.
pub const C_PIN_TABLE: Uid = Uid::from_u64(0x0000_000B_0000_0000);
/// C_PIN_MSID.
pub const C_PIN_MSID: Uid = Uid::from_u64(0x0000_000B_0000_8402);
/// C_PIN_SID.
pub const C_PIN_SID: Uid = Uid::from_u64(0x0000_000B_0000_0001);
/// C_PIN_Admin1 (Opal).
pub const C_PIN_ADMIN1: Uid = Uid::from_u64(0x0000_000B_0001_0001);
/// C_PIN_EraseMaster.
pub const C_PIN_ERASEMASTER: Uid = Uid::from_u64(0x0000_000B_0000_8401);

/// C_PIN_BandMaster n.
pub const fn c_pin_bandmaster(n: u16) -> Uid {
    Uid::from_u64(0x0000_000B_0000_8001 + n as u64)
}

/// The C_PIN row of an authority: the authority UID with byte 3 changed 09 → 0B.
pub fn c_pin_of(authority: Uid) -> Uid {
    let mut u = authority.0;
    u[3] = 0x0B;
    Uid(u)
}

/// Locking table.
pub const LOCKING_TABLE: Uid = Uid::from_u64(0x0000_0802_0000_0000);
/// Global range = Enterprise Band0.
pub const LOCKING_GLOBAL: Uid = Uid::from_u64(0x0000_0802_0000_0001);

/// Enterprise Band n: `00 00 08 02 00 00 00 (01+n)` (sedutil `setband`).
pub const fn band(n: u16) -> Uid {
    Uid::from_u64(0x0000_0802_0000_0001 + n as u64)
}

/// Which band a Locking-table row UID denotes (Enterprise numbering).
pub fn band_number(u: Uid) -> Option<u16> {
    let v = u.as_u64();
    if (0x0000_0802_0000_0001..=0x0000_0802_0000_FFFF).contains(&v) {
        Some((v - 0x0000_0802_0000_0001) as u16)
    } else {
        None
    }
}

/// Which BandMaster an authority UID denotes.
pub fn bandmaster_number(u: Uid) -> Option<u16> {
    let v = u.as_u64();
    if (0x0000_0009_0000_8001..0x0000_0009_0000_8401).contains(&v) {
        Some((v - 0x0000_0009_0000_8001) as u16)
    } else {
        None
    }
}

/// Opal locking range n (n ≥ 1).
pub const fn opal_range(n: u16) -> Uid {
    Uid::from_u64(0x0000_0802_0003_0000 + n as u64)
}

/// LockingInfo row (Enterprise).
pub const LOCKING_INFO_ENTERPRISE: Uid = Uid::from_u64(0x0000_0801_0000_0000);
/// LockingInfo row (Opal).
pub const LOCKING_INFO_OPAL: Uid = Uid::from_u64(0x0000_0801_0000_0001);

/// Session manager methods.
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

/// Method UIDs.
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
        // protocols.md §F.8: BandMaster0 = …80 01, Band0 = …00 01, C_PIN swaps byte 3.
        assert_eq!(auth_bandmaster(0).0, [0, 0, 0, 9, 0, 0, 0x80, 0x01]);
        assert_eq!(band(1).0, [0, 0, 8, 2, 0, 0, 0, 0x02]);
        assert_eq!(c_pin_of(auth_bandmaster(3)), c_pin_bandmaster(3));
        assert_eq!(c_pin_of(AUTH_ERASEMASTER), C_PIN_ERASEMASTER);
        assert_eq!(band_number(band(15)), Some(15));
        assert_eq!(band_number(LOCKING_TABLE), None);
        assert_eq!(bandmaster_number(auth_bandmaster(7)), Some(7));
        assert_eq!(bandmaster_number(AUTH_ERASEMASTER), None);
        assert_eq!(opal_range(1).0, [0, 0, 8, 2, 0, 3, 0, 1]);
    }
}
