//! The CLI side of the ATA purge job: `--method ata-...` names. The job itself is
//! [`sgctl::ops::jobs::ata::AtaEraseJob`].

use sgctl::ops::ata_sanitize::AtaMethod;

/// Parses `--method` values naming an ATA method.
pub(crate) fn parse_method(s: &str) -> Option<AtaMethod> {
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
