//! SBC-4 6.6.7 Referrals VPD page (0xB3): user data segment size and multiplier (how a
//! referral-capable LU splits its LBA space between target port groups).

use crate::bytes::ParseResult;
use serde::Serialize;

/// Decoded page 0xB3.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Referrals {
    /// Bytes 8–11 (logical blocks).
    pub user_data_segment_size: u32,
    /// Bytes 12–15.
    pub user_data_segment_multiplier: u32,
}

const WHAT: &str = "Referrals VPD page";

/// Parses page 0xB3 (strict).
pub fn parse(buf: &[u8]) -> ParseResult<Referrals> {
    super::strict(WHAT, |p| decode(buf, p))
}

/// Decodes page 0xB3 (16 bytes are mandatory).
pub fn decode(buf: &[u8], problems: &mut Vec<String>) -> ParseResult<Referrals> {
    let (_, b) = super::body(buf, 0xb3, WHAT, problems)?;
    b.need(16)?;
    Ok(Referrals {
        user_data_segment_size: b.be32(8)?,
        user_data_segment_multiplier: b.be32(12)?,
    })
}
