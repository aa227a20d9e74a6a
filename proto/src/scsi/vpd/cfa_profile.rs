//! SPC-6 7.7.5 CFA Profile Information VPD page (0x8C): the CFA (VPG1) profiles the device
//! server supports, four bytes each (table "CFA profile descriptor"). sg_vpd 1.63 shows it in
//! hex only.

use crate::bytes::ParseResult;
use serde::Serialize;

/// One CFA profile descriptor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CfaProfile {
    /// Byte 0: CFA PROFILE SUPPORTED.
    pub cfa_profile_supported: u8,
    /// Bytes 2–3: SEQUENTIAL WRITE DATA SIZE (logical blocks; 0 = no preference).
    pub sequential_write_data_size: u16,
}

/// Decoded page 0x8C.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CfaProfileInformation {
    /// Descriptors in page order.
    pub profiles: Vec<CfaProfile>,
}

/// Decodes page 0x8C; a trailing partial descriptor is a problem.
pub fn decode(buf: &[u8], problems: &mut Vec<String>) -> ParseResult<CfaProfileInformation> {
    let (_, b) = super::body(buf, 0x8c, "CFA profile information VPD page", problems)?;
    let list = b.rest(4);
    let chunks = list.chunks_exact(4);
    if !chunks.remainder().is_empty() {
        problems.push(format!(
            "{} bytes after the last whole 4-byte profile descriptor",
            chunks.remainder().len()
        ));
    }
    let profiles = chunks
        .map(|d| CfaProfile {
            cfa_profile_supported: d[0],
            sequential_write_data_size: u16::from_be_bytes([d[2], d[3]]),
        })
        .collect();
    Ok(CfaProfileInformation { profiles })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spc6_table() {
        let mut pr = Vec::new();
        let p = decode(&[0, 0x8c, 0, 8, 1, 0, 1, 0, 2, 0, 0, 0x40], &mut pr).unwrap();
        assert_eq!(p.profiles.len(), 2);
        assert_eq!(p.profiles[0].sequential_write_data_size, 0x100);
        assert_eq!(p.profiles[1].cfa_profile_supported, 2);
        assert!(pr.is_empty());
        decode(&[0, 0x8c, 0, 2, 1, 0], &mut pr).unwrap();
        assert_eq!(pr.len(), 1);
    }
}
