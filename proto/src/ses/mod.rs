//! SES-4 (SCSI Enclosure Services) diagnostic pages: pure decoders of the pages an enclosure
//! services device returns to RECEIVE DIAGNOSTIC RESULTS, and the builder of the Enclosure
//! Control page sent with SEND DIAGNOSTIC (CDBs in [`crate::scsi::diagnostic`]).
//!
//! | page | clause | decoder |
//! |---|---|---|
//! | 00h Supported Diagnostic Pages | SPC-6 7.3.2 | [`decode_supported`] |
//! | 01h Configuration | SES-4 7.2.2 | [`decode_config`] |
//! | 02h Enclosure Status | SES-4 7.2.4, elements 7.3 | [`decode_status`] |
//! | 02h Enclosure Control | SES-4 7.2.3, elements 7.3 | [`control_page_set_leds`] (builder) |
//! | 07h Element Descriptor | SES-4 7.2.10 | [`decode_element_desc`] |
//! | 0Ah Additional Element Status | SES-4 7.2.13, SAS 7.6 / Annex | [`decode_addl_status`] |
//!
//! Every page after the Configuration page is laid out by the configuration's type descriptor
//! headers (one overall element and NUMBER OF POSSIBLE ELEMENTS elements per header, in header
//! order), so those decoders take the decoded [`Config`]. All bytes are untrusted: a decoder
//! reads what is there, lists each inconsistency in `problems` (a length that overruns, a page
//! shorter than its header says, a generation code that differs from the configuration's) and
//! never allocates by a length the page merely claims (lists grow with the bytes present).
//! Only a page with no 4-byte header, or with another page code, is an error.

mod addl;
mod config;
mod control;
mod element_desc;
mod status;

pub use addl::{
    decode_addl_status, AddlDescriptor, AddlStatus, ExpanderPhy, PortPhy, SasInfo, SlotPhy,
};
pub use config::{decode_config, Config, EnclosureDescriptor, TypeHeader};
pub use control::{control_page_set_leds, LedRequest};
pub use element_desc::{decode_element_desc, Described, ElementDescriptors, TypeDescriptors};
pub use status::{
    decode_status, ArrayBits, Cooling, Detail, Element, EnclosureElement, PowerSupply, Slot,
    Status, Temperature, TypeStatus,
};

use crate::bytes::{Bytes, ParseResult};
use serde::Serialize;

/// Page codes of the pages decoded here.
pub mod page {
    /// Supported Diagnostic Pages (SPC-6).
    pub const SUPPORTED: u8 = 0x00;
    /// Configuration.
    pub const CONFIGURATION: u8 = 0x01;
    /// Enclosure Status (in) / Enclosure Control (out).
    pub const ENCLOSURE_STATUS: u8 = 0x02;
    /// Element Descriptor.
    pub const ELEMENT_DESCRIPTOR: u8 = 0x07;
    /// Additional Element Status.
    pub const ADDITIONAL_ELEMENT_STATUS: u8 = 0x0a;
}

/// SES-4 7.1 element type codes used by name in this module.
pub mod element_type {
    /// Device Slot.
    pub const DEVICE_SLOT: u8 = 0x01;
    /// Power Supply.
    pub(crate) const POWER_SUPPLY: u8 = 0x02;
    /// Cooling.
    pub(crate) const COOLING: u8 = 0x03;
    /// Temperature Sensor.
    pub const TEMPERATURE: u8 = 0x04;
    /// Enclosure Services Controller Electronics.
    pub(crate) const ESCE: u8 = 0x07;
    /// Enclosure.
    pub(crate) const ENCLOSURE: u8 = 0x0e;
    /// SCSI Target Port.
    pub(crate) const SCSI_TARGET_PORT: u8 = 0x14;
    /// SCSI Initiator Port.
    pub(crate) const SCSI_INITIATOR_PORT: u8 = 0x15;
    /// Array Device Slot.
    pub const ARRAY_DEVICE_SLOT: u8 = 0x17;
    /// SAS Expander.
    pub(crate) const SAS_EXPANDER: u8 = 0x18;
}

/// SES-4 7.1 (table "Element type codes"): the name of an element type, as sg_ses prints it.
pub(crate) fn element_type_name(t: u8) -> String {
    let n = match t {
        0x00 => "Unspecified",
        0x01 => "Device slot",
        0x02 => "Power supply",
        0x03 => "Cooling",
        0x04 => "Temperature sensor",
        0x05 => "Door",
        0x06 => "Audible alarm",
        0x07 => "Enclosure services controller electronics",
        0x08 => "SCC controller electronics",
        0x09 => "Nonvolatile cache",
        0x0a => "Invalid operation reason",
        0x0b => "Uninterruptible power supply",
        0x0c => "Display",
        0x0d => "Key pad entry",
        0x0e => "Enclosure",
        0x0f => "SCSI port/transceiver",
        0x10 => "Language",
        0x11 => "Communication port",
        0x12 => "Voltage sensor",
        0x13 => "Current sensor",
        0x14 => "SCSI target port",
        0x15 => "SCSI initiator port",
        0x16 => "Simple subenclosure",
        0x17 => "Array device slot",
        0x18 => "SAS expander",
        0x19 => "SAS connector",
        0x80..=0xff => return format!("vendor specific [0x{t:x}]"),
        _ => return format!("reserved [0x{t:x}]"),
    };
    n.to_string()
}

/// The name of a diagnostic page code (SPC-6 7.3.1 table "Diagnostic page codes", SES-4 6.1).
pub fn page_name(code: u8) -> String {
    let n = match code {
        0x00 => "Supported Diagnostic Pages",
        0x01 => "Configuration (SES)",
        0x02 => "Enclosure Status/Control (SES)",
        0x03 => "Help Text (SES)",
        0x04 => "String In/Out (SES)",
        0x05 => "Threshold In/Out (SES)",
        0x06 => "Array Status/Control (SES, obsolete)",
        0x07 => "Element Descriptor (SES)",
        0x08 => "Short Enclosure Status (SES)",
        0x09 => "Enclosure Busy (SES-2)",
        0x0a => "Additional Element Status (SES-2)",
        0x0b => "Subenclosure Help Text (SES-2)",
        0x0c => "Subenclosure String In/Out (SES-2)",
        0x0d => "Supported SES Diagnostic Pages (SES-2)",
        0x0e => "Download Microcode (SES-2)",
        0x0f => "Subenclosure Nickname (SES-2)",
        0x3f => "Protocol Specific (SAS transport)",
        0x40 => "Translate Address (SBC)",
        0x41 => "Device Status (SBC)",
        0x42 => "Rebuild Assist (SBC)",
        0x10..=0x1f => return format!("SES reserved [0x{code:x}]"),
        0x80..=0xff => return format!("Vendor specific [0x{code:x}]"),
        _ => return format!("Reserved [0x{code:x}]"),
    };
    n.to_string()
}

/// A page decoded as far as its bytes go, with every inconsistency found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Decoded<T> {
    /// The decoded page (its JSON fields sit at the top level, next to `problems`).
    #[serde(flatten)]
    pub page: T,
    /// Lengths that overran, truncation, a stale generation code; empty for a clean page.
    pub problems: Vec<String>,
}

/// The 4-byte diagnostic page header (SPC-6 7.3.1): page code, byte 1 (page specific), PAGE
/// LENGTH (n-3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Header {
    /// Byte 0.
    pub page_code: u8,
    /// Byte 1 (page specific).
    pub byte1: u8,
    /// Bytes 2-3.
    pub page_length: u16,
}

/// Reads the header of a page expected to be `code` and returns a view of `4 + PAGE LENGTH`
/// bytes (or of the bytes present, with a problem, when the page is shorter).
pub(crate) fn body<'a>(
    buf: &'a [u8],
    code: u8,
    what: &'static str,
    problems: &mut Vec<String>,
) -> ParseResult<(Header, Bytes<'a>)> {
    let b = Bytes::new(buf, what);
    let h = Header {
        page_code: b.u8(0)?,
        byte1: b.u8(1)?,
        page_length: b.be16(2)?,
    };
    let v = crate::bytes::page_body(buf, what, code, h.page_code, h.page_length, problems)?;
    Ok((h, v))
}

/// Reads the GENERATION CODE (bytes 4-7) of a page that has one; a page too short for it gives
/// a problem and 0.
pub(crate) fn generation(b: &Bytes<'_>, problems: &mut Vec<String>) -> u32 {
    match b.be32(4) {
        Ok(g) => g,
        Err(_) => {
            problems.push(format!(
                "too short for the generation code (bytes 4-7): {} bytes",
                b.len()
            ));
            0
        }
    }
}

/// Checks a page's generation code against the configuration's (SES-4 7.2.2 GENERATION CODE: the pages
/// describe the same configuration only when the codes agree).
pub(crate) fn check_generation(page: u32, config: &Config, problems: &mut Vec<String>) {
    if page != config.generation_code {
        problems.push(format!(
            "generation code 0x{page:x} differs from the configuration page's 0x{:x}: the \
             configuration changed between the reads (read both again)",
            config.generation_code
        ));
    }
}

/// Splits concatenated diagnostic pages (as `sg_ses --page=all -HHH` captures them and
/// `sg_ses --inhex` reads them) into `(page code, page bytes)`, each page `4 + PAGE LENGTH`
/// bytes; a last page cut short is returned with the bytes present.
pub fn split_pages(buf: &[u8]) -> Vec<(u8, &[u8])> {
    let mut out = Vec::new();
    let mut rest = buf;
    while rest.len() >= 4 {
        let len = 4 + usize::from(u16::from_be_bytes([rest[2], rest[3]]));
        let take = len.min(rest.len());
        let (page, tail) = rest.split_at(take);
        out.push((page[0], page));
        rest = tail;
    }
    out
}

/// Decoded Supported Diagnostic Pages page (00h, SPC-6 7.3.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SupportedPages {
    /// The page codes listed (bytes 4..), as listed.
    pub pages: Vec<u8>,
    /// Their names, same order.
    pub names: Vec<String>,
}

/// Decodes the Supported Diagnostic Pages page (00h).
pub fn decode_supported(buf: &[u8]) -> ParseResult<Decoded<SupportedPages>> {
    let mut problems = Vec::new();
    let (_, b) = body(
        buf,
        page::SUPPORTED,
        "Supported Diagnostic Pages",
        &mut problems,
    )?;
    let pages = b.rest(4).to_vec();
    Ok(Decoded {
        page: SupportedPages {
            names: pages.iter().map(|&p| page_name(p)).collect(),
            pages,
        },
        problems,
    })
}

#[cfg(test)]
mod tests;
