//! SPC-6 7.7.16 Software Interface Identification VPD page (0x84): a list of 6-byte software
//! interface identifiers (an IEEE company id and a 24-bit vendor specific extension each).

use crate::bytes::ParseResult;
use serde::Serialize;

/// One software interface identifier.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SoftwareInterface {
    /// Bytes 0–2: IEEE company id.
    pub ieee_company_id: u32,
    /// Bytes 3–5: vendor specific extension identifier.
    pub vendor_specific_extension_id: u32,
}

/// Decoded page 0x84.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SoftwareInterfaceIdentification {
    /// Identifiers in device order.
    pub identifiers: Vec<SoftwareInterface>,
}

const WHAT: &str = "Software interface identification VPD page";

/// Parses page 0x84 (strict).
pub fn parse(buf: &[u8]) -> ParseResult<SoftwareInterfaceIdentification> {
    super::strict(WHAT, |p| decode(buf, p))
}

/// Decodes page 0x84; a trailing partial identifier is a problem.
pub fn decode(
    buf: &[u8],
    problems: &mut Vec<String>,
) -> ParseResult<SoftwareInterfaceIdentification> {
    let (_, b) = super::body(buf, 0x84, WHAT, problems)?;
    let list = b.rest(4);
    let identifiers = list
        .chunks_exact(6)
        .map(|c| SoftwareInterface {
            ieee_company_id: u32::from_be_bytes([0, c[0], c[1], c[2]]),
            vendor_specific_extension_id: u32::from_be_bytes([0, c[3], c[4], c[5]]),
        })
        .collect();
    if list.len() % 6 != 0 {
        problems.push(format!(
            "{} trailing bytes do not make a 6-byte identifier",
            list.len() % 6
        ));
    }
    Ok(SoftwareInterfaceIdentification { identifiers })
}
