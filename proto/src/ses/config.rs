//! SES-4 7.2.2 Configuration diagnostic page (01h): the enclosure descriptors (one for the
//! primary subenclosure and one per secondary subenclosure), then the type descriptor
//! headers of every subenclosure, then their texts.
//!
//! Layout (SES-4 table "Configuration diagnostic page"): byte 1 NUMBER OF SECONDARY
//! SUBENCLOSURES, bytes 4-7 GENERATION CODE, from byte 8 the enclosure descriptors. Enclosure
//! descriptor (table "Enclosure descriptor"): byte 0 bits 6-4 RELATIVE ENCLOSURE SERVICES
//! PROCESS IDENTIFIER, bits 2-0 NUMBER OF ENCLOSURE SERVICES PROCESSES; byte 1 SUBENCLOSURE
//! IDENTIFIER; byte 2 NUMBER OF TYPE DESCRIPTOR HEADERS; byte 3 ENCLOSURE DESCRIPTOR LENGTH
//! (m-3, at least 36); bytes 4-11 ENCLOSURE LOGICAL IDENTIFIER; 12-19 ENCLOSURE VENDOR
//! IDENTIFICATION; 20-35 PRODUCT IDENTIFICATION; 36-39 PRODUCT REVISION LEVEL; 40..m vendor
//! specific. Type descriptor header (table "Type descriptor header"): ELEMENT TYPE, NUMBER OF
//! POSSIBLE ELEMENTS, SUBENCLOSURE IDENTIFIER, TYPE DESCRIPTOR TEXT LENGTH.

use super::{body, element_type_name, generation, page, Decoded};
use crate::bytes::{ascii_trim, hex, Bytes, ParseResult};
use serde::Serialize;

/// One enclosure descriptor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EnclosureDescriptor {
    /// Byte 0 bits 6-4.
    pub relative_es_process_id: u8,
    /// Byte 0 bits 2-0.
    pub es_processes: u8,
    /// Byte 1 (0 = the primary subenclosure).
    pub subenclosure_id: u8,
    /// Byte 2.
    pub type_headers: u8,
    /// Bytes 4-11 (hex): the enclosure's logical identifier (typically an NAA 5 name).
    pub logical_identifier: String,
    /// Bytes 12-19.
    pub vendor: String,
    /// Bytes 20-35.
    pub product: String,
    /// Bytes 36-39.
    pub revision: String,
    /// Bytes 40.. (hex), empty if none.
    pub vendor_specific: String,
}

/// One type descriptor header with its text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TypeHeader {
    /// ELEMENT TYPE.
    pub element_type: u8,
    /// Its name (SES-4 7.1).
    pub type_name: String,
    /// NUMBER OF POSSIBLE ELEMENTS.
    pub possible_elements: u8,
    /// SUBENCLOSURE IDENTIFIER.
    pub subenclosure_id: u8,
    /// The type descriptor text ("" if its length is 0 or the text is missing).
    pub text: String,
    /// Element index (SES-4 clause 4, overall elements not counted) of this type's first
    /// element: the sum of the possible elements of the headers before it.
    pub first_element_index: u32,
}

/// Decoded Configuration page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Config {
    /// Byte 1.
    pub secondary_subenclosures: u8,
    /// Bytes 4-7.
    pub generation_code: u32,
    /// Enclosure descriptors, primary first.
    pub enclosures: Vec<EnclosureDescriptor>,
    /// Type descriptor headers in page order (the order of every status, descriptor and
    /// control page that follows).
    pub types: Vec<TypeHeader>,
}

impl Config {
    /// The type header and the element number within it of an element index (overall
    /// elements not counted); `None` past the last element.
    pub fn locate(&self, element_index: u32) -> Option<(usize, u32)> {
        self.types.iter().enumerate().find_map(|(i, t)| {
            let n = u32::from(t.possible_elements);
            (element_index >= t.first_element_index && element_index < t.first_element_index + n)
                .then(|| (i, element_index - t.first_element_index))
        })
    }

    /// Total number of elements (overall elements not counted).
    pub(crate) fn element_count(&self) -> u32 {
        self.types
            .iter()
            .map(|t| u32::from(t.possible_elements))
            .sum()
    }

    /// Number of status/control elements a page laid out by this configuration holds: one
    /// overall element per header plus the elements.
    pub(crate) fn slots_with_overall(&self) -> usize {
        self.types.len() + self.element_count() as usize
    }

    /// The primary subenclosure's descriptor (subenclosure identifier 0), if present.
    pub fn primary(&self) -> Option<&EnclosureDescriptor> {
        self.enclosures.iter().find(|e| e.subenclosure_id == 0)
    }
}

const WHAT: &str = "Configuration diagnostic page";

/// Decodes the Configuration page as far as the bytes go. An enclosure descriptor or type
/// header list that overruns the page ends the list, with a problem; a text that overruns is
/// kept as far as it goes.
pub fn decode_config(buf: &[u8]) -> ParseResult<Decoded<Config>> {
    let mut problems = Vec::new();
    let (h, b) = body(buf, page::CONFIGURATION, WHAT, &mut problems)?;
    let generation_code = generation(&b, &mut problems);
    let mut enclosures = Vec::new();
    let mut off = 8usize;
    let mut headers_total = 0usize;
    // NUMBER OF SECONDARY SUBENCLOSURES + 1 descriptors (at most 256: bounded by the byte).
    for n in 0..=usize::from(h.byte1) {
        match enclosure_at(&b, off) {
            Some((e, next)) => {
                headers_total += usize::from(e.type_headers);
                enclosures.push(e);
                off = next;
            }
            None => {
                problems.push(format!(
                    "enclosure descriptor {n} at offset {off} overruns the page ({} bytes) or is shorter than its 40 mandatory bytes",
                    b.len()
                ));
                return Ok(Decoded {
                    page: Config {
                        secondary_subenclosures: h.byte1,
                        generation_code,
                        enclosures,
                        types: Vec::new(),
                    },
                    problems,
                });
            }
        }
    }
    // Type descriptor headers: 4 bytes each, as many as the descriptors announce and the
    // bytes hold.
    let mut raw = Vec::new();
    for n in 0..headers_total {
        match b.slice(off, 4) {
            Ok(s) => raw.push([s[0], s[1], s[2], s[3]]),
            Err(_) => {
                problems.push(format!(
                    "type descriptor header {n} of {headers_total} at offset {off} overruns the \
                     page ({} bytes)",
                    b.len()
                ));
                break;
            }
        }
        off += 4;
    }
    let mut types = Vec::with_capacity(raw.len());
    let mut first = 0u32;
    let mut texts_ok = raw.len() == headers_total;
    for r in raw {
        let len = usize::from(r[3]);
        let text = if !texts_ok || len == 0 {
            String::new()
        } else {
            match b.slice(off, len) {
                Ok(s) => ascii_trim(s),
                Err(_) => {
                    problems.push(format!(
                        "type descriptor text of {len} bytes at offset {off} overruns the page \
                         ({} bytes)",
                        b.len()
                    ));
                    texts_ok = false;
                    ascii_trim(b.rest(off))
                }
            }
        };
        off += len;
        types.push(TypeHeader {
            element_type: r[0],
            type_name: element_type_name(r[0]),
            possible_elements: r[1],
            subenclosure_id: r[2],
            text,
            first_element_index: first,
        });
        first += u32::from(r[1]);
    }
    if texts_ok && off < b.len() {
        problems.push(format!(
            "{} bytes after the type descriptor texts (page length {})",
            b.len() - off,
            h.page_length
        ));
    }
    Ok(Decoded {
        page: Config {
            secondary_subenclosures: h.byte1,
            generation_code,
            enclosures,
            types,
        },
        problems,
    })
}

/// The enclosure descriptor at `off` and the offset after it; `None` if it overruns or is
/// shorter than its 40 mandatory bytes.
fn enclosure_at(b: &Bytes<'_>, off: usize) -> Option<(EnclosureDescriptor, usize)> {
    let len = usize::from(b.u8(off + 3).ok()?) + 4;
    let d = b.sub(off, len).ok()?;
    if len < 40 {
        return None;
    }
    let b0 = d.u8(0).ok()?;
    Some((
        EnclosureDescriptor {
            relative_es_process_id: (b0 >> 4) & 7,
            es_processes: b0 & 7,
            subenclosure_id: d.u8(1).ok()?,
            type_headers: d.u8(2).ok()?,
            logical_identifier: hex(d.slice(4, 8).ok()?),
            vendor: d.ascii(12, 8).ok()?,
            product: d.ascii(20, 16).ok()?,
            revision: d.ascii(36, 4).ok()?,
            vendor_specific: hex(d.rest(40)),
        },
        off + len,
    ))
}
