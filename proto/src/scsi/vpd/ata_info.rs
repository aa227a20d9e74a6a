//! SAT-4 12.4.2 ATA Information VPD page (0x89): present when a SATA drive sits behind a
//! SCSI/ATA translation layer (libata, an HBA's SAT). Offsets: protocols.md §E.4
//! (sg3_utils `decode_ata_info_vpd`).

use crate::bytes::{ascii_trim, hex, Bytes, ParseResult};
use serde::Serialize;

/// Decoded page 0x89.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AtaInformation {
    /// Bytes 8–15.
    pub sat_vendor_identification: String,
    /// Bytes 16–31.
    pub sat_product_identification: String,
    /// Bytes 32–35.
    pub sat_product_revision_level: String,
    /// Bytes 36–55: the ATA device signature (device-to-host FIS), hex (`None` on a page cut
    /// short before it).
    pub ata_device_signature: Option<String>,
    /// Byte 36 is 0x34 (a register D2H FIS): the device is on a SATA link.
    pub sata_transport: Option<bool>,
    /// Byte 56: 0xEC IDENTIFY DEVICE or 0xA1 IDENTIFY PACKET DEVICE (0 = none).
    pub command_code: Option<u8>,
    /// Model number (IDENTIFY words 27–46), when IDENTIFY data is present.
    pub model: Option<String>,
    /// Serial number (words 10–19).
    pub serial_number: Option<String>,
    /// Firmware revision (words 23–26).
    pub firmware_revision: Option<String>,
    /// The 512 IDENTIFY bytes, hex, when present.
    #[serde(skip)]
    pub identify: Option<Vec<u8>>,
}

/// ATA strings are stored as big-endian 16-bit words: swap each byte pair.
fn ata_string(b: &[u8]) -> String {
    let swapped: Vec<u8> = b.chunks(2).flat_map(|c| c.iter().rev().copied()).collect();
    ascii_trim(&swapped)
}

/// Parses page 0x89.
pub fn parse(buf: &[u8]) -> ParseResult<AtaInformation> {
    super::strict("ATA information VPD page", |p| decode(buf, p))
}

/// Decodes page 0x89 as far as the bytes go; inconsistencies go to `problems`.
pub fn decode(buf: &[u8], problems: &mut Vec<String>) -> ParseResult<AtaInformation> {
    let (_, b) = super::body(buf, 0x89, "ATA information VPD page", problems)?;
    // SAT-4 fixes 572 bytes; the SAT identification (bytes 8-35) is what every caller needs.
    b.need(36)?;
    if b.len() < 572 {
        problems.push(format!(
            "{} bytes, SAT-4 defines 572: fields past the end are left out",
            b.len()
        ));
    }
    let identify: Option<&[u8]> = b.slice(60, 512).ok();
    let id = identify.map(|i| Bytes::new(i, "IDENTIFY data"));
    let field = |o: usize, l: usize| id.and_then(|i| i.slice(o, l).ok()).map(ata_string);
    Ok(AtaInformation {
        sat_vendor_identification: b.ascii(8, 8)?,
        sat_product_identification: b.ascii(16, 16)?,
        sat_product_revision_level: b.ascii(32, 4)?,
        ata_device_signature: b.slice(36, 20).ok().map(hex),
        sata_transport: b.slice(36, 20).ok().map(|s| s[0] == 0x34),
        command_code: b.u8(56).ok(),
        model: field(54, 40),
        serial_number: field(20, 20),
        firmware_revision: field(46, 8),
        identify: identify.map(<[u8]>::to_vec),
    })
}
