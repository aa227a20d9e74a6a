//! SBC-4 6.6.4 Block Limits VPD page (0xB0): transfer and UNMAP limits.
//! Offsets: protocols.md §E.4 (sg3_utils `decode_block_limits_vpd`). Fields past the page
//! length (SBC-2 devices send 16 bytes) are `None`.

use crate::bytes::{Bytes, ParseResult};
use serde::Serialize;

/// Decoded page 0xB0 (lengths in logical blocks).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BlockLimits {
    /// Byte 4 bit 0 WSNZ (write same with zero length not allowed).
    pub wsnz: bool,
    /// Byte 5.
    pub maximum_compare_and_write_length: u8,
    /// Bytes 6–7.
    pub optimal_transfer_length_granularity: u16,
    /// Bytes 8–11 (0 = not reported).
    pub maximum_transfer_length: u32,
    /// Bytes 12–15.
    pub optimal_transfer_length: u32,
    /// Bytes 16–19.
    pub maximum_prefetch_length: Option<u32>,
    /// Bytes 20–23.
    pub maximum_unmap_lba_count: Option<u32>,
    /// Bytes 24–27.
    pub maximum_unmap_block_descriptor_count: Option<u32>,
    /// Bytes 28–31.
    pub optimal_unmap_granularity: Option<u32>,
    /// Byte 32 bit 7.
    pub ugavalid: Option<bool>,
    /// Bytes 32–35 bits 30-0.
    pub unmap_granularity_alignment: Option<u32>,
    /// Bytes 36–43.
    pub maximum_write_same_length: Option<u64>,
    /// Bytes 44–47.
    pub maximum_atomic_transfer_length: Option<u32>,
    /// Bytes 48–51.
    pub atomic_alignment: Option<u32>,
    /// Bytes 52–55.
    pub atomic_transfer_length_granularity: Option<u32>,
    /// Bytes 56–59.
    pub maximum_atomic_transfer_length_with_atomic_boundary: Option<u32>,
    /// Bytes 60–63.
    pub maximum_atomic_boundary_size: Option<u32>,
}

/// Parses page 0xB0.
pub fn parse(buf: &[u8]) -> ParseResult<BlockLimits> {
    super::strict("Block limits VPD page", |p| decode(buf, p))
}

/// Decodes page 0xb0 as far as the bytes go; inconsistencies go to `problems`.
pub fn decode(buf: &[u8], problems: &mut Vec<String>) -> ParseResult<BlockLimits> {
    let (_, b) = super::body(buf, 0xb0, "Block limits VPD page", problems)?;
    b.need(16)?;
    let o32 = |b: &Bytes<'_>, o: usize| b.be32(o).ok();
    let uga = o32(&b, 32);
    Ok(BlockLimits {
        wsnz: b.u8(4)? & 1 != 0,
        maximum_compare_and_write_length: b.u8(5)?,
        optimal_transfer_length_granularity: b.be16(6)?,
        maximum_transfer_length: b.be32(8)?,
        optimal_transfer_length: b.be32(12)?,
        maximum_prefetch_length: o32(&b, 16),
        maximum_unmap_lba_count: o32(&b, 20),
        maximum_unmap_block_descriptor_count: o32(&b, 24),
        optimal_unmap_granularity: o32(&b, 28),
        ugavalid: uga.map(|v| v & 0x8000_0000 != 0),
        unmap_granularity_alignment: uga.map(|v| v & 0x7fff_ffff),
        maximum_write_same_length: b.be64(36).ok(),
        maximum_atomic_transfer_length: o32(&b, 44),
        atomic_alignment: o32(&b, 48),
        atomic_transfer_length_granularity: o32(&b, 52),
        maximum_atomic_transfer_length_with_atomic_boundary: o32(&b, 56),
        maximum_atomic_boundary_size: o32(&b, 60),
    })
}
