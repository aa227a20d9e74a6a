//! SES-4 7.2.10 Element Descriptor diagnostic page (07h): a text per overall element and
//! element, in the order of the Configuration page's type descriptor headers (the slot names
//! an enclosure prints on its bezel, "SLOT 01").
//!
//! Page: bytes 4-7 GENERATION CODE, then descriptors (table "Element descriptor format"):
//! bytes 0-1 reserved, bytes 2-3 DESCRIPTOR LENGTH (n-3), bytes 4..n DESCRIPTOR (text).

use super::{body, check_generation, generation, page, Config, Decoded};
use crate::bytes::{ascii_trim, ParseResult};
use serde::Serialize;

/// The descriptors of one type descriptor header.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TypeDescriptors {
    /// Index of the type descriptor header.
    pub type_index: usize,
    /// ELEMENT TYPE.
    pub element_type: u8,
    /// Its name.
    pub type_name: String,
    /// SUBENCLOSURE IDENTIFIER.
    pub subenclosure_id: u8,
    /// The overall descriptor's text (None if the page ends before it).
    pub overall: Option<String>,
    /// The element descriptors present.
    pub elements: Vec<Described>,
}

/// One element's descriptor text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Described {
    /// Element index (overall elements not counted).
    pub element_index: u32,
    /// The DESCRIPTOR text.
    pub text: String,
}

/// Decoded Element Descriptor page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ElementDescriptors {
    /// Bytes 4-7.
    pub generation_code: u32,
    /// One entry per type descriptor header reached by the bytes.
    pub types: Vec<TypeDescriptors>,
}

impl ElementDescriptors {
    /// The text of an element index, if present.
    pub fn text(&self, element_index: u32) -> Option<&str> {
        self.types.iter().find_map(|t| {
            t.elements
                .iter()
                .find(|e| e.element_index == element_index)
                .map(|e| e.text.as_str())
        })
    }
}

const WHAT: &str = "Element Descriptor diagnostic page";

/// Decodes the Element Descriptor page laid out by `config`. A descriptor that overruns the
/// page ends the decode, with a problem; the descriptors before it are kept.
pub fn decode_element_desc(
    config: &Config,
    buf: &[u8],
) -> ParseResult<Decoded<ElementDescriptors>> {
    let mut problems = Vec::new();
    let (_, b) = body(buf, page::ELEMENT_DESCRIPTOR, WHAT, &mut problems)?;
    let generation_code = generation(&b, &mut problems);
    if b.len() >= 8 {
        check_generation(generation_code, config, &mut problems);
    }
    let mut off = 8usize;
    let mut types = Vec::new();
    let mut stop = None;
    let next = |off: &mut usize| -> Option<String> {
        let len = usize::from(b.be16(*off + 2).ok()?);
        let s = b.slice(*off + 4, len).ok()?;
        *off += 4 + len;
        Some(ascii_trim(s))
    };
    'types: for (ti, t) in config.types.iter().enumerate() {
        let Some(overall) = next(&mut off) else {
            stop = Some(off);
            break;
        };
        let mut td = TypeDescriptors {
            type_index: ti,
            element_type: t.element_type,
            type_name: t.type_name.clone(),
            subenclosure_id: t.subenclosure_id,
            overall: Some(overall),
            elements: Vec::new(),
        };
        for n in 0..u32::from(t.possible_elements) {
            let Some(text) = next(&mut off) else {
                types.push(td);
                stop = Some(off);
                break 'types;
            };
            td.elements.push(Described {
                element_index: t.first_element_index + n,
                text,
            });
        }
        types.push(td);
    }
    match stop {
        Some(at) if at >= b.len() => problems.push(format!(
            "the page ends at byte {} before the configuration's {} descriptors",
            b.len(),
            config.slots_with_overall()
        )),
        Some(at) => problems.push(format!(
            "element descriptor at offset {at} overruns the page ({} bytes)",
            b.len()
        )),
        None if off < b.len() => problems.push(format!(
            "{} bytes after the last descriptor the configuration describes",
            b.len() - off
        )),
        None => {}
    }
    Ok(Decoded {
        page: ElementDescriptors {
            generation_code,
            types,
        },
        problems,
    })
}
