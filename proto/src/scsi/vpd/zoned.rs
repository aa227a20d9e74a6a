//! ZBC-2 6.5.2 Zoned Block Device Characteristics VPD page (0xB6): zone model extension and
//! the open-zone limits of host-aware and host-managed drives.

use crate::bytes::ParseResult;
use serde::Serialize;

/// Decoded page 0xB6.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ZonedBlockDeviceCharacteristics {
    /// Byte 4 bits 7-4: 0 not reported (host managed when the device type is 0x14), 1 host
    /// aware, 2 domains and realms.
    pub zoned_block_device_extension: u8,
    /// Byte 4 bit 1: activation aligned on realm boundaries.
    pub aaorb: bool,
    /// Byte 4 bit 0: unrestricted read in sequential write required zones.
    pub urswrz: bool,
    /// Bytes 8–11 (0xFFFFFFFF = not reported).
    pub optimal_number_of_open_sequential_write_preferred_zones: u32,
    /// Bytes 12–15 (0xFFFFFFFF = not reported).
    pub optimal_number_of_non_sequentially_written_sequential_write_preferred_zones: u32,
    /// Bytes 16–19 (0xFFFFFFFF = no limit).
    pub maximum_number_of_open_sequential_write_required_zones: u32,
}

/// Words for the ZONED BLOCK DEVICE EXTENSION field, as sg_vpd 1.63 prints them.
pub fn extension_name(v: u8) -> String {
    match v {
        0 => "not reported".into(),
        1 => "host aware zone block device model".into(),
        2 => "Domains and realms zone block device model".into(),
        o => format!("Unknown [0x{o:x}]"),
    }
}

const WHAT: &str = "Zoned block device characteristics VPD page";

/// Parses page 0xB6 (strict).
pub fn parse(buf: &[u8]) -> ParseResult<ZonedBlockDeviceCharacteristics> {
    super::strict(WHAT, |p| decode(buf, p))
}

/// Decodes page 0xB6 (64 bytes are mandatory, as for sg_vpd).
pub fn decode(
    buf: &[u8],
    problems: &mut Vec<String>,
) -> ParseResult<ZonedBlockDeviceCharacteristics> {
    let (_, b) = super::body(buf, 0xb6, WHAT, problems)?;
    b.need(64)?;
    let b4 = b.u8(4)?;
    Ok(ZonedBlockDeviceCharacteristics {
        zoned_block_device_extension: b4 >> 4,
        aaorb: b4 & 2 != 0,
        urswrz: b4 & 1 != 0,
        optimal_number_of_open_sequential_write_preferred_zones: b.be32(8)?,
        optimal_number_of_non_sequentially_written_sequential_write_preferred_zones: b.be32(12)?,
        maximum_number_of_open_sequential_write_required_zones: b.be32(16)?,
    })
}
