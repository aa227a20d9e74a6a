//! SPC-6 7.7.18 Supported VPD Pages (0x00): the page codes the device implements, ascending.

use crate::bytes::ParseResult;
use serde::Serialize;

/// Decoded page 0x00.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SupportedPages {
    /// Byte 0 bits 4-0.
    pub peripheral_device_type: u8,
    /// Supported page codes (bytes 4..).
    pub pages: Vec<u8>,
    /// T10 names, same order.
    pub names: Vec<String>,
}

/// Parses page 0x00.
pub fn parse(buf: &[u8]) -> ParseResult<SupportedPages> {
    super::strict("Supported VPD pages", |p| decode(buf, p))
}

/// Decodes page 0x00 as far as the bytes go; inconsistencies go to `problems`.
pub fn decode(buf: &[u8], problems: &mut Vec<String>) -> ParseResult<SupportedPages> {
    let (h, b) = super::body(buf, 0x00, "Supported VPD pages", problems)?;
    let pages = b.rest(4).to_vec();
    Ok(SupportedPages {
        peripheral_device_type: h.peripheral_device_type,
        names: pages.iter().map(|&p| super::page_name(p)).collect(),
        pages,
    })
}
