//! SBC-4 6.6.6 Logical Block Provisioning VPD page (0xB2): UNMAP/WRITE SAME unmap support,
//! LBPRZ, provisioning type (protocols.md §E.4).

use super::designator::{decode_list, malformed, Designation};
use crate::bytes::{Bytes, ParseResult};
use serde::Serialize;

/// Decoded page 0xB2.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LogicalBlockProvisioning {
    /// Byte 4.
    pub threshold_exponent: u8,
    /// Byte 5 bit 7 UNMAP supported.
    pub lbpu: bool,
    /// Byte 5 bit 6 WRITE SAME(16) with UNMAP supported.
    pub lbpws: bool,
    /// Byte 5 bit 5 WRITE SAME(10) with UNMAP supported.
    pub lbpws10: bool,
    /// Byte 5 bits 4-2 (0: unmapped reads undefined, 1: zeros, 2: provisioning initialization pattern).
    pub lbprz: u8,
    /// Byte 5 bit 1 anchored LBAs supported.
    pub anc_sup: bool,
    /// Byte 5 bit 0 provisioning group descriptor present.
    pub dp: bool,
    /// Byte 6 bits 7-3.
    pub minimum_percentage: u8,
    /// Byte 6 bits 2-0 (0 full/unknown, 1 resource provisioned, 2 thin provisioned).
    pub provisioning_type: u8,
    /// Byte 7.
    pub threshold_percentage: Option<u8>,
    /// The provisioning group descriptor (a designation descriptor) when DP is set.
    pub provisioning_group: Option<Designation>,
}

/// Words for a provisioning type, as sg_vpd prints them.
pub fn provisioning_type_name(t: u8) -> &'static str {
    match t {
        0 => "not known or fully provisioned",
        1 => "resource provisioned",
        2 => "thin provisioned",
        _ => "reserved",
    }
}

/// Parses page 0xB2.
pub fn parse(buf: &[u8]) -> ParseResult<LogicalBlockProvisioning> {
    super::strict("Logical block provisioning VPD page", |p| decode(buf, p))
}

/// Decodes page 0xb2 as far as the bytes go; inconsistencies go to `problems`.
pub fn decode(buf: &[u8], problems: &mut Vec<String>) -> ParseResult<LogicalBlockProvisioning> {
    const WHAT: &str = "Logical block provisioning VPD page";
    let (_, b) = super::body(buf, 0xb2, WHAT, problems)?;
    b.need(7)?;
    let f = b.u8(5)?;
    let dp = f & 1 != 0;
    let provisioning_group = if dp {
        let list = Bytes::new(b.rest(8), WHAT);
        let mut v = decode_list(&list, problems);
        if let (true, [b0, b1, _, _, rest @ ..]) = (v.is_empty(), list.as_slice()) {
            // Cut inside the descriptor: keep its header (type, association) and bytes.
            v.push(malformed(
                *b0,
                *b1,
                Bytes::new(rest, WHAT),
                "cut short".to_string(),
            ));
        }
        if v.len() != 1 {
            problems.push(format!(
                "DP set but {} provisioning group descriptors",
                v.len()
            ));
        }
        v.truncate(1);
        v.pop()
    } else {
        None
    };
    Ok(LogicalBlockProvisioning {
        threshold_exponent: b.u8(4)?,
        lbpu: f & 0x80 != 0,
        lbpws: f & 0x40 != 0,
        lbpws10: f & 0x20 != 0,
        lbprz: (f >> 2) & 7,
        anc_sup: f & 0x02 != 0,
        dp,
        minimum_percentage: b.u8(6)? >> 3,
        provisioning_type: b.u8(6)? & 7,
        threshold_percentage: b.u8(7).ok(),
        provisioning_group,
    })
}
