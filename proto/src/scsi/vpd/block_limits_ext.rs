//! SBC-4 6.6.5 Block Limits Extension VPD page (0xB7): stream control limits and (SBC-5) the
//! WRITE SCATTERED limits.

use crate::bytes::ParseResult;
use serde::Serialize;

/// Decoded page 0xB7.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BlockLimitsExtension {
    /// Bytes 6–7 (0 = no stream control).
    pub maximum_number_of_streams: u16,
    /// Bytes 8–9 (logical blocks).
    pub optimal_stream_write_size: u16,
    /// Bytes 10–13 (optimal stream write sizes).
    pub stream_granularity_size: u32,
    /// Bytes 16–19 (0 = not reported); absent on a page shorter than 28 bytes.
    pub maximum_scattered_lba_range_transfer_length: Option<u32>,
    /// Bytes 22–23.
    pub maximum_scattered_lba_range_descriptor_count: Option<u16>,
    /// Bytes 24–27.
    pub maximum_scattered_transfer_length: Option<u32>,
}

const WHAT: &str = "Block limits extension VPD page";

/// Parses page 0xB7 (strict).
pub fn parse(buf: &[u8]) -> ParseResult<BlockLimitsExtension> {
    super::strict(WHAT, |p| decode(buf, p))
}

/// Decodes page 0xB7 (14 bytes are mandatory; the scattered-write fields need 28).
pub fn decode(buf: &[u8], problems: &mut Vec<String>) -> ParseResult<BlockLimitsExtension> {
    let (_, b) = super::body(buf, 0xb7, WHAT, problems)?;
    b.need(14)?;
    let long = b.len() >= 28;
    Ok(BlockLimitsExtension {
        maximum_number_of_streams: b.be16(6)?,
        optimal_stream_write_size: b.be16(8)?,
        stream_granularity_size: b.be32(10)?,
        maximum_scattered_lba_range_transfer_length: long.then(|| b.be32(16).ok()).flatten(),
        maximum_scattered_lba_range_descriptor_count: long.then(|| b.be16(22).ok()).flatten(),
        maximum_scattered_transfer_length: long.then(|| b.be32(24).ok()).flatten(),
    })
}
