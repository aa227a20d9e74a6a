//! The obsolete operating-definition VPD pages of SPC-2 8.4.4/8.4.5, still answered by old
//! drives: 0x81 Implemented Operating Definition (current and supported definitions) and 0x82
//! ASCII Implemented Operating Definition (a text). sg_vpd 1.63 shows both in hex only.

use crate::bytes::{ascii_trim, hex, ParseResult};
use serde::Serialize;

/// Decoded page 0x81.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ImplementedOperatingDefinition {
    /// Byte 4 bit 7: SAVIMP (the current definition can be saved).
    pub savimp: bool,
    /// Byte 4 bits 6-0: CURRENT OPERATING DEFINITION.
    pub current_operating_definition: u8,
    /// Bytes 5..: SUPPORTED OPERATING DEFINITION list (bit 7 SAVIMP, bits 6-0 the definition).
    pub supported_operating_definitions: Vec<u8>,
}

/// Decoded page 0x82.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AsciiOperatingDefinition {
    /// Bytes 5.. for ASCII LENGTH (byte 4) bytes.
    pub ascii_information: String,
    /// The bytes after the ASCII information (hex).
    pub vendor_specific: String,
}

/// Decodes page 0x81 (5 bytes are mandatory).
pub(crate) fn decode_81(
    buf: &[u8],
    problems: &mut Vec<String>,
) -> ParseResult<ImplementedOperatingDefinition> {
    let (_, b) = super::body(
        buf,
        0x81,
        "Implemented operating definition VPD page",
        problems,
    )?;
    b.need(5)?;
    let cur = b.u8(4)?;
    Ok(ImplementedOperatingDefinition {
        savimp: cur & 0x80 != 0,
        current_operating_definition: cur & 0x7f,
        supported_operating_definitions: b.rest(5).to_vec(),
    })
}

/// Decodes page 0x82 (5 bytes are mandatory); an ASCII LENGTH past the page is cut to the
/// bytes present, with a problem.
pub(crate) fn decode_82(
    buf: &[u8],
    problems: &mut Vec<String>,
) -> ParseResult<AsciiOperatingDefinition> {
    let what = "ASCII implemented operating definition VPD page";
    let (_, b) = super::body(buf, 0x82, what, problems)?;
    b.need(5)?;
    let n = usize::from(b.u8(4)?);
    let avail = b.len() - 5;
    if n > avail {
        problems.push(format!(
            "ASCII length {n} overruns the page ({avail} bytes after it)"
        ));
    }
    let n = n.min(avail);
    let text = b.slice(5, n)?;
    Ok(AsciiOperatingDefinition {
        ascii_information: ascii_trim(text),
        vendor_specific: hex(b.rest(5 + n)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spc2_tables() {
        // SPC-2 table 8.4.4: SAVIMP=1, current definition 02h, two supported ones.
        let p = decode_81(&[0, 0x81, 0, 3, 0x82, 0x01, 0x82], &mut Vec::new()).unwrap();
        assert!(p.savimp);
        assert_eq!(p.current_operating_definition, 2);
        assert_eq!(p.supported_operating_definitions, vec![1, 0x82]);
        // SPC-2 table 8.4.5: ASCII LENGTH 3, "ABC", one vendor byte.
        let mut pr = Vec::new();
        let a = decode_82(&[0, 0x82, 0, 5, 3, b'A', b'B', b'C', 0x7e], &mut pr).unwrap();
        assert_eq!(
            (a.ascii_information.as_str(), a.vendor_specific.as_str()),
            ("ABC", "7e")
        );
        assert!(pr.is_empty());
        let a = decode_82(&[0, 0x82, 0, 3, 9, b'A', b'B'], &mut pr).unwrap();
        assert_eq!(a.ascii_information, "AB");
        assert_eq!(pr.len(), 1);
    }
}
