//! SBC-5 6.6.6 Concurrent Positioning Ranges VPD page (0xB9): the LBA ranges served by
//! independent actuators (multi-actuator drives).

use crate::bytes::ParseResult;
use serde::Serialize;

/// One LBA range descriptor (32 bytes from byte 64).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PositioningRange {
    /// Byte 0.
    pub lba_range_number: u8,
    /// Byte 1.
    pub number_of_storage_elements: u8,
    /// Bytes 8–15.
    pub starting_lba: u64,
    /// Bytes 16–23.
    pub number_of_lbas: u64,
}

/// Decoded page 0xB9.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConcurrentPositioningRanges {
    /// Ranges in device order.
    pub ranges: Vec<PositioningRange>,
}

const WHAT: &str = "Concurrent positioning ranges VPD page";

/// Parses page 0xB9 (strict).
pub fn parse(buf: &[u8]) -> ParseResult<ConcurrentPositioningRanges> {
    super::strict(WHAT, |p| decode(buf, p))
}

/// Decodes page 0xB9 (64 header bytes are mandatory); a trailing partial descriptor is a
/// problem.
pub fn decode(buf: &[u8], problems: &mut Vec<String>) -> ParseResult<ConcurrentPositioningRanges> {
    let (_, b) = super::body(buf, 0xb9, WHAT, problems)?;
    b.need(64)?;
    let list = b.rest(64);
    let be64 = |s: &[u8]| {
        let mut a = [0u8; 8];
        a.copy_from_slice(s);
        u64::from_be_bytes(a)
    };
    // A last descriptor cut inside its reserved bytes 24-31 still has all its fields.
    let ranges = list
        .chunks(32)
        .filter(|c| c.len() >= 24)
        .map(|c| PositioningRange {
            lba_range_number: c[0],
            number_of_storage_elements: c[1],
            starting_lba: be64(&c[8..16]),
            number_of_lbas: be64(&c[16..24]),
        })
        .collect();
    if list.len() % 32 != 0 {
        problems.push(format!(
            "{} trailing bytes do not make a 32-byte range descriptor",
            list.len() % 32
        ));
    }
    Ok(ConcurrentPositioningRanges { ranges })
}
