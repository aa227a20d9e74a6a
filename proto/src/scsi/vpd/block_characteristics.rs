//! SBC-4 6.6.2 Block Device Characteristics VPD page (0xB1): rotation rate (1 = SSD), form
//! factor, WABEREQ/WACEREQ (what reads return after a block/crypto erase sanitize).
//! Offsets: protocols.md §E.4; bit positions checked against sg3_utils `sg_vpd` 1.46.

use crate::bytes::ParseResult;
use serde::Serialize;

/// Decoded page 0xB1.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BlockDeviceCharacteristics {
    /// Bytes 4–5: 0 not reported, 1 non-rotating (solid state), 0x401–0xFFFE rpm.
    pub medium_rotation_rate: u16,
    /// Byte 6 (0 not specified, 1 CFast, 2 CompactFlash, 3 MemoryStick, ...).
    pub product_type: u8,
    /// Byte 7 bits 7-6.
    pub wabereq: u8,
    /// Byte 7 bits 5-4.
    pub wacereq: u8,
    /// Byte 7 bits 3-0 (1 5.25", 2 3.5", 3 2.5", 4 1.8", 5 less than 1.8").
    pub nominal_form_factor: u8,
    /// Byte 8 bits 5-4 (obsolete zoned field: 1 host aware, 2 host managed).
    pub zoned: u8,
    /// Byte 8 bit 3.
    pub rbwz: bool,
    /// Byte 8 bit 2.
    pub bocs: bool,
    /// Byte 8 bit 1 FUA behaviour.
    pub fuab: bool,
    /// Byte 8 bit 0 verify byte check unmapped LBA supported.
    pub vbuls: bool,
    /// Bytes 12–15 depopulation time (seconds), when present.
    pub depopulation_time: Option<u32>,
}

/// Words for a form factor code, as sg_vpd prints them.
pub fn form_factor_name(v: u8) -> &'static str {
    match v {
        0 => "not reported",
        1 => "5.25 inch",
        2 => "3.5 inch",
        3 => "2.5 inch",
        4 => "1.8 inch",
        5 => "less then 1.8 inch",
        _ => "reserved",
    }
}

/// Parses page 0xB1.
pub fn parse(buf: &[u8]) -> ParseResult<BlockDeviceCharacteristics> {
    super::strict("Block device characteristics VPD page", |p| decode(buf, p))
}

/// Decodes page 0xb1 as far as the bytes go; inconsistencies go to `problems`.
pub fn decode(buf: &[u8], problems: &mut Vec<String>) -> ParseResult<BlockDeviceCharacteristics> {
    let (_, b) = super::body(buf, 0xb1, "Block device characteristics VPD page", problems)?;
    b.need(9)?;
    let (b7, b8) = (b.u8(7)?, b.u8(8)?);
    Ok(BlockDeviceCharacteristics {
        medium_rotation_rate: b.be16(4)?,
        product_type: b.u8(6)?,
        wabereq: b7 >> 6,
        wacereq: (b7 >> 4) & 3,
        nominal_form_factor: b7 & 0x0f,
        zoned: (b8 >> 4) & 3,
        rbwz: b8 & 0x08 != 0,
        bocs: b8 & 0x04 != 0,
        fuab: b8 & 0x02 != 0,
        vbuls: b8 & 0x01 != 0,
        depopulation_time: b.be32(12).ok(),
    })
}
