//! The CLI side of the ATA purge job: `--method ata-...` names. The job itself is
//! [`crate::ops::jobs::ata::AtaEraseJob`].

use crate::ops::ata_sanitize::AtaMethod;
pub use crate::ops::jobs::ata::{AtaEraseJob, PASSWORD_ENV};

/// Parses `--method` values naming an ATA method.
pub fn parse_method(s: &str) -> Option<AtaMethod> {
    Some(match s {
        "ata-crypto-scramble" => AtaMethod::CryptoScramble,
        "ata-block-erase" => AtaMethod::BlockErase,
        "ata-overwrite" => AtaMethod::Overwrite {
            pattern: 0,
            passes: 1,
            invert: false,
        },
        "ata-security-erase" => AtaMethod::SecurityErase { enhanced: false },
        "ata-security-erase-enhanced" => AtaMethod::SecurityErase { enhanced: true },
        _ => return None,
    })
}
