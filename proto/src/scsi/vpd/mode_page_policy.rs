//! SPC-6 7.7.13 Mode Page Policy VPD page (0x87): whether each mode page is shared by all
//! I_T nexuses, kept per target port or per I_T nexus (matters on a dual-ported drive: a mode
//! page changed through one port may or may not show through the other).

use crate::bytes::ParseResult;
use serde::Serialize;

/// One mode page policy descriptor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Policy {
    /// Byte 0 bits 5-0 (0x3F with subpage 0xFF: every page and subpage).
    pub policy_page_code: u8,
    /// Byte 1.
    pub policy_subpage_code: u8,
    /// Byte 2 bit 7: multiple logical units share the page.
    pub mlus: bool,
    /// Byte 2 bits 1-0: 0 shared, 1 per target port, 2 obsolete, 3 per I_T nexus.
    pub mode_page_policy: u8,
}

/// Decoded page 0x87.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ModePagePolicy {
    /// Descriptors in device order.
    pub policies: Vec<Policy>,
}

/// Words for a MODE PAGE POLICY value, as sg_vpd 1.63 prints them: 10b is SPC-3's "per
/// initiator port" (obsolete since SPC-4, still answered by Linux scsi_debug for pages 18h
/// and 19h).
pub fn policy_name(p: u8) -> &'static str {
    match p & 3 {
        0 => "shared",
        1 => "per target port",
        2 => "per initiator port",
        _ => "per I_T nexus",
    }
}

const WHAT: &str = "Mode page policy VPD page";

/// Parses page 0x87 (strict).
pub fn parse(buf: &[u8]) -> ParseResult<ModePagePolicy> {
    super::strict(WHAT, |p| decode(buf, p))
}

/// Decodes page 0x87; a trailing partial descriptor is a problem.
pub fn decode(buf: &[u8], problems: &mut Vec<String>) -> ParseResult<ModePagePolicy> {
    let (_, b) = super::body(buf, 0x87, WHAT, problems)?;
    let list = b.rest(4);
    let policies = list
        .chunks_exact(4)
        .map(|c| Policy {
            policy_page_code: c[0] & 0x3f,
            policy_subpage_code: c[1],
            mlus: c[2] & 0x80 != 0,
            mode_page_policy: c[2] & 3,
        })
        .collect();
    if list.len() % 4 != 0 {
        problems.push(format!(
            "{} trailing bytes do not make a 4-byte descriptor",
            list.len() % 4
        ));
    }
    Ok(ModePagePolicy { policies })
}
