//! SPC-6 6.39 REQUEST SENSE (0x03): returns sense data with GOOD status. Used to poll the
//! progress of FORMAT UNIT / SANITIZE (protocols.md §C.7, §D.5) and to read deferred errors.
//! The response is ordinary sense data, decoded by [`crate::sense::Sense::parse`].

use crate::bytes::{ParseError, ParseResult};
use crate::sense::Sense;

/// REQUEST SENSE operation code.
pub const OPCODE: u8 = crate::scsi::opcodes::code::REQUEST_SENSE;

/// Allocation length sgctl asks for: 252 bytes is the SPC maximum for sense data.
pub const ALLOCATION: u8 = 252;

crate::scsi::cdb::cdb_builder! {
    /// SPC-6 6.39 REQUEST SENSE CDB (6 bytes).
    #[doc(alias = "sg_ll_request_sense")]
    pub struct RequestSenseCdb {
        /// ALLOCATION LENGTH, byte 4 ([`ALLOCATION`] is the SPC maximum).
        alloc_len: u8,
        ;;
        /// DESC, byte 1 bit 0: ask for descriptor-format sense data.
        desc: bool = false,
    }
}

impl RequestSenseCdb {
    /// REQUEST SENSE operation code.
    pub const OPCODE: u8 = OPCODE;

    /// The 6 CDB bytes.
    pub fn build(&self) -> [u8; 6] {
        [OPCODE, u8::from(self.desc), 0, 0, self.alloc_len, 0]
    }
}

/// Parses the REQUEST SENSE parameter data. An all-zero or empty buffer is an error (a device
/// that reports "no sense" still sends response code 0x70/0x72).
pub fn parse(buf: &[u8]) -> ParseResult<Sense> {
    if buf.is_empty() {
        return Err(ParseError::new("REQUEST SENSE data", "empty response"));
    }
    Sense::parse(buf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sense::{SenseKey, SenseKeySpecific};

    #[test]
    fn cdb_bytes() {
        assert_eq!(RequestSenseCdb::new(252).build(), [0x03, 0, 0, 0, 0xfc, 0]);
        assert_eq!(
            RequestSenseCdb::new(18).desc(true).build(),
            [0x03, 1, 0, 0, 18, 0]
        );
    }

    #[test]
    fn format_progress() {
        // NOT READY 04/04 with SKSV progress 0x4000 (25%): what a formatting drive returns
        // (protocols.md §C.7).
        let b = [
            0x70, 0, 0x02, 0, 0, 0, 0, 0x0a, 0, 0, 0, 0, 0x04, 0x04, 0, 0x80, 0x40, 0x00,
        ];
        let s = parse(&b).unwrap();
        assert_eq!(s.key, SenseKey::NotReady);
        assert_eq!(s.sks, Some(SenseKeySpecific::Progress { raw: 0x4000 }));
        assert!(parse(&[]).is_err());
        assert!(parse(&[0u8; 18]).is_err());
    }
}
