//! SPC-6 7.7.19 Unit Serial Number (0x80): ASCII, often space padded. The length is in bytes
//! 2–3 (protocols.md §E.4 warns that go-tcg gets this wrong).

use super::page;
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
    let (_, b) = page(buf, 0x80, "Unit serial number VPD page")?;
    Ok(UnitSerialNumber {
        unit_serial_number: ascii_trim(b.rest(4)),
    })
}
