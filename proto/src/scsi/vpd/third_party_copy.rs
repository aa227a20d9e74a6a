//! SPC-6 7.7.18 Third-party Copy VPD page (0x8F): the copy manager's descriptors (EXTENDED
//! COPY and ROD token limits). Decoded: Block Device ROD Token Limits (0x0000), Parameter Data
//! (0x0004), General Copy Operations (0x8001), Stream Copy Operations (0x9101), Held Data
//! (0xC001); every other descriptor type is kept with its name and bytes in hex.

use crate::bytes::{hex, Bytes, ParseResult};
use serde::Serialize;

/// One third-party copy descriptor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TpcDescriptor {
    /// Bytes 0–1: THIRD-PARTY COPY DESCRIPTOR TYPE.
    pub descriptor_type: u16,
    /// Its name.
    pub name: String,
    /// The fields of the types listed above (name: value), in descriptor order.
    pub fields: serde_json::Map<String, serde_json::Value>,
    /// The descriptor's bytes after its 4-byte header (hex).
    pub data: String,
}

/// Decoded page 0x8F.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ThirdPartyCopy {
    /// Descriptors in device order (zero-length ones skipped, as sg_vpd does).
    pub descriptors: Vec<TpcDescriptor>,
}

/// The name of a descriptor type (SPC-6 Table 581).
pub fn type_name(t: u16) -> &'static str {
    match t {
        0x0000 => "Block Device ROD Token Limits",
        0x0001 => "Supported commands",
        0x0004 => "Parameter data",
        0x0008 => "Supported descriptors",
        0x000c => "Supported CSCD IDs",
        0x000d => "Copy group identifier",
        0x0106 => "ROD token features",
        0x0108 => "Supported ROD token and ROD types",
        0x8001 => "General copy operations",
        0x9101 => "Stream copy operations",
        0xc001 => "Held data",
        _ => "Unknown descriptor type",
    }
}

/// (name, offset in the descriptor, width) of the decoded fields of a descriptor type.
fn layout(t: u16) -> &'static [(&'static str, usize, usize)] {
    match t {
        0x0000 => &[
            ("maximum_range_descriptors", 10, 2),
            ("maximum_inactivity_timeout", 12, 4),
            ("default_inactivity_timeout", 16, 4),
            ("maximum_token_transfer_size", 20, 8),
            ("optimal_transfer_count", 28, 8),
        ],
        0x0004 => &[
            ("maximum_cscd_descriptor_count", 8, 2),
            ("maximum_segment_descriptor_count", 10, 2),
            ("maximum_descriptor_list_length", 12, 4),
            ("maximum_inline_data_length", 16, 4),
        ],
        0x8001 => &[
            ("total_concurrent_copies", 4, 4),
            ("maximum_identified_concurrent_copies", 8, 4),
            ("maximum_segment_length", 12, 4),
            ("data_segment_granularity_log2", 16, 1),
            ("inline_data_granularity_log2", 17, 1),
        ],
        0x9101 => &[("maximum_stream_device_transfer_size", 4, 4)],
        0xc001 => &[
            ("held_data_limit", 4, 4),
            ("held_data_granularity_log2", 8, 1),
        ],
        _ => &[],
    }
}

const WHAT: &str = "Third-party copy VPD page";

/// Parses page 0x8F (strict).
pub fn parse(buf: &[u8]) -> ParseResult<ThirdPartyCopy> {
    super::strict(WHAT, |p| decode(buf, p))
}

/// Decodes page 0x8F: a descriptor that overruns the page ends the list, a descriptor too
/// short for its fields keeps those that fit; both are problems.
pub fn decode(buf: &[u8], problems: &mut Vec<String>) -> ParseResult<ThirdPartyCopy> {
    let (_, b) = super::body(buf, 0x8f, WHAT, problems)?;
    let mut descriptors = Vec::new();
    let mut off = 4;
    while off < b.len() {
        let (Ok(t), Ok(n)) = (b.be16(off), b.be16(off + 2)) else {
            problems.push(format!(
                "descriptor header at offset {off} overruns the page"
            ));
            break;
        };
        let n = usize::from(n);
        let Ok(whole) = b.sub(off, 4 + n) else {
            problems.push(format!(
                "descriptor 0x{t:04x} at offset {off}: length {n} overruns the page"
            ));
            break;
        };
        off += 4 + n;
        if n == 0 {
            continue;
        }
        descriptors.push(descriptor(t, &whole, problems));
    }
    Ok(ThirdPartyCopy { descriptors })
}

fn descriptor(t: u16, d: &Bytes<'_>, problems: &mut Vec<String>) -> TpcDescriptor {
    let mut fields = serde_json::Map::new();
    for &(name, at, width) in layout(t) {
        match d.be_var(at, width) {
            Ok(v) => {
                fields.insert(name.to_string(), v.into());
            }
            Err(_) => {
                problems.push(format!(
                    "descriptor 0x{t:04x} ({}) of {} bytes is too short for {name}",
                    type_name(t),
                    d.len()
                ));
                break;
            }
        }
    }
    TpcDescriptor {
        descriptor_type: t,
        name: type_name(t).to_string(),
        fields,
        data: hex(d.rest(4)),
    }
}
