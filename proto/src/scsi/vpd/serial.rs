//! SPC-6 7.7.19 Unit Serial Number (0x80): ASCII, often space padded. The length is in bytes
//! 2–3 (protocols.md §E.4 warns that go-tcg gets this wrong).

use crate::bytes::{ascii_trim, ParseResult};
use serde::Serialize;

/// Decoded page 0x80.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnitSerialNumber {
    /// The serial number with leading and trailing spaces removed.
    pub unit_serial_number: String,
}

/// Parses page 0x80.
pub fn parse(buf: &[u8]) -> ParseResult<UnitSerialNumber> {
    super::strict("Unit serial number VPD page", |p| decode(buf, p))
}

/// Decodes page 0x80 as far as the bytes go; inconsistencies go to `problems`.
pub fn decode(buf: &[u8], problems: &mut Vec<String>) -> ParseResult<UnitSerialNumber> {
    let (_, b) = super::body(buf, 0x80, "Unit serial number VPD page", problems)?;
    Ok(UnitSerialNumber {
        unit_serial_number: ascii_trim(b.rest(4)),
    })
}
