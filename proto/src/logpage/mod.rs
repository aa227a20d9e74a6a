//! Log pages (SPC-5 7.3): the generic page/parameter parser and the page decoders.
//!
//! Header layouts are restated in docs/protocols.md §E.2 (source: sg3_utils
//! `src/sg_logs.c`). Device bytes are untrusted: a page length or parameter length that overruns
//! the data is reported in [`LogPage::problems`] and everything before it is still decoded.

pub mod counters;
pub mod environment;
pub mod sas;
pub mod selftest;
pub mod stats;
pub mod supported;
pub mod text;

use crate::bytes::{hex, Bytes, ParseResult};
use serde::Serialize;
use serde_json::Value;

/// SPC-5 7.3.2 FORMAT AND LINKING field of a parameter control byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FormatLinking {
    /// 00b: bounded data counter.
    BoundedDataCounter,
    /// 01b: ASCII format list.
    AsciiList,
    /// 10b: bounded or unbounded data counter.
    DataCounter,
    /// 11b: binary format list.
    BinaryList,
}

/// One log parameter: 4-byte header plus value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogParam {
    /// Parameter code.
    pub code: u16,
    /// Control byte (DU, TSD, ETC, TMC, FORMAT AND LINKING).
    pub control: u8,
    /// Header and value bytes exactly as received (offset 4 = first value byte), so decoders
    /// can use the byte offsets the standards give "within the parameter".
    pub raw: Vec<u8>,
    /// Offset of this parameter within the page.
    pub offset: usize,
}

impl LogParam {
    /// DU: disable update (byte 2 bit 7).
    pub(crate) fn du(&self) -> bool {
        self.control & 0x80 != 0
    }
    /// TSD: target save disable (bit 5).
    pub(crate) fn tsd(&self) -> bool {
        self.control & 0x20 != 0
    }
    /// ETC: enable threshold comparison (bit 4, obsolete).
    pub fn etc(&self) -> bool {
        self.control & 0x10 != 0
    }
    /// TMC: threshold met criteria (bits 3-2, obsolete).
    pub(crate) fn tmc(&self) -> u8 {
        (self.control >> 2) & 3
    }
    /// FORMAT AND LINKING (bits 1-0).
    pub(crate) fn format_linking(&self) -> FormatLinking {
        match self.control & 3 {
            0 => FormatLinking::BoundedDataCounter,
            1 => FormatLinking::AsciiList,
            2 => FormatLinking::DataCounter,
            _ => FormatLinking::BinaryList,
        }
    }
    /// The value bytes (after the 4-byte header).
    pub fn value(&self) -> &[u8] {
        self.raw.get(4..).unwrap_or(&[])
    }
    /// The value as one big-endian unsigned integer if it is 1..=8 bytes wide
    /// (counters are variable width: always use the parameter length, §E.2).
    pub fn uint(&self) -> Option<u64> {
        let v = self.value();
        if v.is_empty() || v.len() > 8 {
            return None;
        }
        Some(v.iter().fold(0u64, |a, b| (a << 8) | u64::from(*b)))
    }
    /// Checked reader over header+value (offsets as in the standards' parameter tables).
    pub fn bytes(&self) -> Bytes<'_> {
        Bytes::new(&self.raw, "log parameter")
    }
    /// Byte at `off` within the parameter, if present.
    pub(crate) fn u8_at(&self, off: usize) -> Option<u8> {
        self.raw.get(off).copied()
    }
    /// Big-endian integer of `len` bytes at `off`, if present.
    pub(crate) fn be_at(&self, off: usize, len: usize) -> Option<u64> {
        self.bytes().be_var(off, len).ok()
    }
}

/// A log page as received: header fields, raw body and (for parameter pages) the parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogPage {
    /// Page code (6 bits).
    pub page_code: u8,
    /// Subpage code (0 when SPF is clear).
    pub subpage_code: u8,
    /// DS: disable save (byte 0 bit 7).
    pub ds: bool,
    /// SPF: subpage format (byte 0 bit 6).
    pub spf: bool,
    /// PAGE LENGTH field (bytes 2-3) as the device stated it.
    pub page_length: u16,
    /// The body bytes actually present (at most `page_length`).
    pub body: Vec<u8>,
    /// Parameters (empty for list pages 0x00 and N/0xFF).
    pub params: Vec<LogParam>,
    /// What could not be decoded, in words.
    pub problems: Vec<String>,
}

impl LogPage {
    /// True for pages whose body is a list of page codes rather than parameters.
    pub fn is_list_page(page_code: u8, subpage: u8) -> bool {
        page_code == 0 || subpage == 0xff
    }

    /// First parameter with `code`.
    pub fn param(&self, code: u16) -> Option<&LogParam> {
        self.params.iter().find(|p| p.code == code)
    }

    /// The whole page as bytes (re-assembled header + body), for hex output.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = vec![
            (u8::from(self.ds) << 7) | (u8::from(self.spf) << 6) | self.page_code,
            self.subpage_code,
        ];
        v.extend_from_slice(&self.page_length.to_be_bytes());
        v.extend_from_slice(&self.body);
        v
    }
}

/// Parses a log page. Fails only when not even the 4-byte header is present; every other
/// inconsistency is decoded as far as possible and listed in [`LogPage::problems`].
pub fn parse(buf: &[u8]) -> ParseResult<LogPage> {
    let b = Bytes::new(buf, "log page");
    b.need(4)?;
    let page_code = buf[0] & 0x3f;
    let spf = buf[0] & 0x40 != 0;
    let ds = buf[0] & 0x80 != 0;
    let subpage_code = if spf { buf[1] } else { 0 };
    let page_length = b.be16(2)?;
    let mut problems = Vec::new();
    if !spf && buf[1] != 0 {
        problems.push(format!(
            "SPF is clear but the subpage byte is 0x{:02x} (ignored)",
            buf[1]
        ));
    }
    let present = buf.len() - 4;
    let body_len = usize::from(page_length).min(present);
    if usize::from(page_length) > present {
        problems.push(format!(
            "page length {} but only {} bytes follow the header; decoded what is present",
            page_length, present
        ));
    }
    let body = buf[4..4 + body_len].to_vec();
    let params = if LogPage::is_list_page(page_code, subpage_code) {
        Vec::new()
    } else {
        parse_params(&body, &mut problems)
    };
    Ok(LogPage {
        page_code,
        subpage_code,
        ds,
        spf,
        page_length,
        body,
        params,
        problems,
    })
}

/// Splits several LOG SENSE responses stored back to back (as in sg3_utils `--inhex` files)
/// by the page length in each header. A last page shorter than its header says is kept as is.
pub fn split_pages(mut buf: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    while buf.len() >= 4 {
        let n = (4 + usize::from(u16::from_be_bytes([buf[2], buf[3]]))).min(buf.len());
        out.push(&buf[..n]);
        buf = &buf[n..];
    }
    out
}

/// Walks the parameter list; stops at the first parameter whose length overruns the body.
fn parse_params(body: &[u8], problems: &mut Vec<String>) -> Vec<LogParam> {
    let mut out = Vec::new();
    let mut off = 0usize;
    while off < body.len() {
        let left = body.len() - off;
        if left < 4 {
            problems.push(format!(
                "{left} trailing byte(s) at page offset {} are too short for a parameter header",
                off + 4
            ));
            break;
        }
        let code = u16::from_be_bytes([body[off], body[off + 1]]);
        let control = body[off + 2];
        let len = usize::from(body[off + 3]);
        if 4 + len > left {
            problems.push(format!(
                "parameter 0x{code:04x} at page offset {}: length {len} overruns the page by {} byte(s); not decoded{}",
                off + 4,
                4 + len - left,
                if out.is_empty() { String::new() } else { " (earlier parameters are)".into() }
            ));
            break;
        }
        out.push(LogParam {
            code,
            control,
            raw: body[off..off + 4 + len].to_vec(),
            offset: off + 4,
        });
        off += 4 + len;
    }
    out
}

/// The standard name of a page (SPC-5/SBC-4 log page tables, names as sg_logs prints them).
pub fn page_name(page: u8, subpage: u8) -> String {
    let s = match (page, subpage) {
        (0x00, 0x00) => "Supported log pages",
        (0x00, 0xff) => "Supported log pages and subpages",
        (_, 0xff) => "Supported subpages",
        (0x02, 0) => "Write error counter",
        (0x03, 0) => "Read error counter",
        (0x04, 0) => "Read reverse error counter",
        (0x05, 0) => "Verify error counter",
        (0x06, 0) => "Non-medium error",
        (0x07, 0) => "Last n error events",
        (0x08, 0) => "Format status",
        (0x0b, 0) => "Last n deferred errors or asynchronous events",
        (0x0c, 0) => "Logical block provisioning",
        (0x0d, 0) => "Temperature",
        (0x0d, 1) => "Environmental reporting",
        (0x0d, 2) => "Environmental limits",
        (0x0e, 0) => "Start-stop cycle counter",
        (0x0e, 1) => "Utilization",
        (0x0f, 0) => "Application client",
        (0x10, 0) => "Self-test results",
        (0x11, 0) => "Solid state media",
        (0x14, 1) => "Zoned block device statistics",
        (0x15, 0) => "Background scan results",
        (0x15, 1) => "Pending defects",
        (0x15, 2) => "Background operation",
        (0x15, 3) => "LPS misalignment",
        (0x16, 0) => "ATA pass-through results",
        (0x17, 0) => "Non-volatile cache",
        (0x18, 0) => "Protocol specific port",
        (0x19, 0) => "General statistics and performance",
        (0x19, 0x01..=0x1f) => "Group statistics and performance",
        (0x19, 0x20) => "Cache memory statistics",
        (0x19, 0x21) => "Command duration limits statistics",
        (0x1a, 0) => "Power condition transitions",
        (0x2f, 0) => "Informational exceptions",
        (0x30..=0x3e, _) => "Vendor specific",
        _ => "Unknown",
    };
    s.to_string()
}

/// True for the vendor-specific page range (SPC-5: 0x30-0x3E).
pub(crate) fn is_vendor(page: u8) -> bool {
    (0x30..=0x3e).contains(&page)
}

/// One parameter as shown in `logs --json` (every parameter is listed, decoded or not).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ParamView {
    /// Parameter code.
    pub parameter_code: u16,
    /// DU bit.
    pub du: bool,
    /// TSD bit.
    pub tsd: bool,
    /// ETC bit.
    pub etc: bool,
    /// TMC field.
    pub tmc: u8,
    /// FORMAT AND LINKING.
    pub format_and_linking: FormatLinking,
    /// Parameter length (value bytes).
    pub parameter_length: usize,
    /// Value as an integer when it is 1..=8 bytes wide.
    pub value: Option<u64>,
    /// Value bytes in hex.
    pub hex: String,
}

impl From<&LogParam> for ParamView {
    fn from(p: &LogParam) -> Self {
        ParamView {
            parameter_code: p.code,
            du: p.du(),
            tsd: p.tsd(),
            etc: p.etc(),
            tmc: p.tmc(),
            format_and_linking: p.format_linking(),
            parameter_length: p.value().len(),
            value: p.uint(),
            hex: hex(p.value()),
        }
    }
}

/// A decoded page for `logs`: header, every parameter, the page-specific decode, problems.
#[derive(Debug, Clone, Serialize)]
pub struct DecodedPage {
    /// Page code.
    pub page_code: u8,
    /// Subpage code.
    pub subpage_code: u8,
    /// Standard name.
    pub name: String,
    /// DS bit.
    pub ds: bool,
    /// SPF bit.
    pub spf: bool,
    /// Page length as stated by the device.
    pub page_length: u16,
    /// True if this page is vendor specific (shown in hex only).
    pub vendor_specific: bool,
    /// Every parameter (empty for list pages).
    pub parameters: Vec<ParamView>,
    /// Page-specific decode (null when sgctl has no decoder for this page).
    pub decoded: Value,
    /// What could not be decoded.
    pub problems: Vec<String>,
    /// True when a problem is an inconsistency of the bytes (a length that overruns, a
    /// parameter shorter than its layout, a list cut short), not only parameter codes the
    /// standard does not define: `sgctl logs` and `decode --as logpage` then exit 9.
    #[serde(skip)]
    pub inconsistent: bool,
    /// The page bytes in hex.
    pub hex: String,
    /// The page bytes (for `--hex` text output).
    #[serde(skip)]
    pub raw: Vec<u8>,
}

/// Page-specific decoders return this: a serialisable value plus notes about what they did
/// not understand (unknown parameter codes, short parameters).
pub type Decoded = (Value, Vec<String>);

fn to_value<T: Serialize>(t: &T) -> Value {
    serde_json::to_value(t).unwrap_or(Value::Null)
}

/// Decodes a parsed page with its page-specific decoder, if sgctl has one.
pub fn decode(page: &LogPage) -> DecodedPage {
    let mut problems = page.problems.clone();
    let mut inconsistent = !page.problems.is_empty();
    let decoded = match decode_specific(page) {
        Some((v, mut notes)) => {
            inconsistent |= notes.iter().any(|n| !n.ends_with(UNKNOWN_PARAM));
            problems.append(&mut notes);
            v
        }
        None => Value::Null,
    };
    DecodedPage {
        page_code: page.page_code,
        subpage_code: page.subpage_code,
        name: page_name(page.page_code, page.subpage_code),
        ds: page.ds,
        spf: page.spf,
        page_length: page.page_length,
        vendor_specific: is_vendor(page.page_code),
        parameters: page.params.iter().map(ParamView::from).collect(),
        decoded,
        problems,
        inconsistent,
        hex: hex(&page.to_bytes()),
        raw: page.to_bytes(),
    }
}

fn with_notes<T: Serialize>(f: impl FnOnce(&mut Vec<String>) -> T) -> Decoded {
    let mut notes = Vec::new();
    let t = f(&mut notes);
    (to_value(&t), notes)
}

fn decode_specific(p: &LogPage) -> Option<Decoded> {
    Some(match (p.page_code, p.subpage_code) {
        (0x00, _) | (_, 0xff) => with_notes(|n| supported::decode(p, n)),
        (0x02 | 0x03 | 0x05, 0) => with_notes(|n| counters::error_counters(p, n)),
        (0x06, 0) => with_notes(|n| counters::non_medium(p, n)),
        (0x08, 0) => with_notes(|n| counters::format_status(p, n)),
        (0x0d, 0) => with_notes(|n| environment::temperature(p, n)),
        (0x0d, 1) => with_notes(|n| environment::env_reporting(p, n)),
        (0x0d, 2) => with_notes(|n| environment::env_limits(p, n)),
        (0x0e, 0) => with_notes(|n| environment::start_stop(p, n)),
        (0x0e, 1) => with_notes(|n| environment::utilization(p, n)),
        (0x10, 0) => with_notes(|n| selftest::self_test_results(p, n)),
        (0x11, 0) => with_notes(|n| counters::solid_state_media(p, n)),
        (0x15, 0) => with_notes(|n| selftest::background_scan(p, n)),
        (0x15, 1) => with_notes(|n| selftest::pending_defects(p, n)),
        (0x18, 0) => with_notes(|n| sas::protocol_port(p, n)),
        (0x19, 0) => with_notes(|n| stats::general_statistics(p, n)),
        (0x19, 0x01..=0x1f) => with_notes(|n| stats::group_statistics(p, n)),
        (0x19, 0x20) => with_notes(|n| stats::cache_statistics(p, n)),
        (0x1a, 0) => with_notes(|n| counters::power_transitions(p, n)),
        (0x2f, 0) => with_notes(|n| environment::informational_exceptions(p, n)),
        _ => return None,
    })
}

/// Notes an unknown parameter code in a standard page.
pub(crate) fn unknown_param(notes: &mut Vec<String>, page: &str, p: &LogParam) {
    notes.push(format!(
        "{page}: parameter 0x{:04x} ({} bytes){UNKNOWN_PARAM}",
        p.code,
        p.value().len()
    ));
}

/// The end of an [`unknown_param`] note: a parameter code the standard does not define is
/// shown, not an inconsistency (real drives report some).
const UNKNOWN_PARAM: &str = " is not defined by the standard; shown in hex only";

/// Notes a parameter too short for its defined layout.
pub(crate) fn short_param(notes: &mut Vec<String>, page: &str, p: &LogParam, need: usize) {
    notes.push(format!(
        "{page}: parameter 0x{:04x} has {} value bytes, expected at least {}; fields past the end not decoded",
        p.code,
        p.value().len(),
        need.saturating_sub(4)
    ));
}

#[cfg(test)]
mod tests;
