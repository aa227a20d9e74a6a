//! Sense data the virtual drive returns: one logical record rendered as fixed (0x70/0x71) or
//! descriptor (0x72/0x73) format (SPC-5 4.4; protocols.md §B.1-B.3, §B.7).

use serde::{Deserialize, Serialize};

/// Sense keys used by the model (SPC-5 Table 49).
pub(crate) mod key {
    /// NO SENSE
    pub(crate) const NO_SENSE: u8 = 0x0;
    /// RECOVERED ERROR
    pub(crate) const RECOVERED_ERROR: u8 = 0x1;
    /// NOT READY
    pub(crate) const NOT_READY: u8 = 0x2;
    /// MEDIUM ERROR
    pub(crate) const MEDIUM_ERROR: u8 = 0x3;
    /// HARDWARE ERROR
    pub(crate) const HARDWARE_ERROR: u8 = 0x4;
    /// ILLEGAL REQUEST
    pub(crate) const ILLEGAL_REQUEST: u8 = 0x5;
    /// UNIT ATTENTION
    pub(crate) const UNIT_ATTENTION: u8 = 0x6;
    /// DATA PROTECT
    pub(crate) const DATA_PROTECT: u8 = 0x7;
    /// ABORTED COMMAND
    pub(crate) const ABORTED_COMMAND: u8 = 0xB;
    /// MISCOMPARE
    pub(crate) const MISCOMPARE: u8 = 0xE;
}

/// One sense record. `sks` holds the three sense-key-specific bytes with SKSV already set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimSense {
    /// Sense key (low nibble).
    pub key: u8,
    /// Additional sense code.
    pub asc: u8,
    /// Additional sense code qualifier.
    pub ascq: u8,
    /// INFORMATION field (failing LBA, ...).
    pub info: Option<u64>,
    /// COMMAND-SPECIFIC INFORMATION field (REASSIGN BLOCKS: the first LBA not reassigned).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub csi: Option<u64>,
    /// Sense-key-specific bytes (byte 0 bit 7 = SKSV set).
    pub sks: Option<[u8; 3]>,
    /// Deferred error (0x71/0x73): reports an earlier command's failure.
    pub deferred: bool,
    /// ATA Status Return descriptor (SAT-4 12.2.2.7) of an ATA PASS-THROUGH command; such
    /// sense is always rendered in descriptor format, as libata does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ata: Option<[u8; 14]>,
}

impl SimSense {
    /// A plain record without information or SKS.
    pub const fn new(key: u8, asc: u8, ascq: u8) -> SimSense {
        SimSense {
            key,
            asc,
            ascq,
            info: None,
            csi: None,
            sks: None,
            deferred: false,
            ata: None,
        }
    }

    /// ILLEGAL REQUEST 20/00 INVALID COMMAND OPERATION CODE, field pointer at CDB byte 0.
    pub(crate) fn invalid_opcode() -> SimSense {
        Self::new(key::ILLEGAL_REQUEST, 0x20, 0x00).with_field(true, 0, None)
    }

    /// ILLEGAL REQUEST 24/00 INVALID FIELD IN CDB, pointing at `byte` (and `bit` if known).
    pub(crate) fn invalid_cdb(byte: u16, bit: Option<u8>) -> SimSense {
        Self::new(key::ILLEGAL_REQUEST, 0x24, 0x00).with_field(true, byte, bit)
    }

    /// ILLEGAL REQUEST 26/00 INVALID FIELD IN PARAMETER LIST, pointing at parameter `byte`.
    pub(crate) fn invalid_param(byte: u16, bit: Option<u8>) -> SimSense {
        Self::new(key::ILLEGAL_REQUEST, 0x26, 0x00).with_field(false, byte, bit)
    }

    /// ILLEGAL REQUEST 1A/00 PARAMETER LIST LENGTH ERROR, pointing at the CDB length field.
    pub(crate) fn param_list_length(cdb_byte: u16) -> SimSense {
        Self::new(key::ILLEGAL_REQUEST, 0x1A, 0x00).with_field(true, cdb_byte, None)
    }

    /// ILLEGAL REQUEST 21/00 LOGICAL BLOCK ADDRESS OUT OF RANGE.
    pub(crate) fn lba_out_of_range() -> SimSense {
        Self::new(key::ILLEGAL_REQUEST, 0x21, 0x00)
    }

    /// NOT READY with a progress indication (SPC-5 4.4.2.4.4): 04/04 format, 04/1B sanitize.
    pub fn progress(asc: u8, ascq: u8, progress: u16) -> SimSense {
        let p = progress.to_be_bytes();
        SimSense {
            sks: Some([0x80, p[0], p[1]]),
            ..Self::new(key::NOT_READY, asc, ascq)
        }
    }

    /// Adds a field pointer (SPC-5 4.4.2.4.2): C/D bit 6, BPV bit 3, bit pointer bits 2-0.
    pub(crate) fn with_field(mut self, cd: bool, byte: u16, bit: Option<u8>) -> SimSense {
        let mut b0 = 0x80u8;
        if cd {
            b0 |= 0x40;
        }
        if let Some(bit) = bit {
            b0 |= 0x08 | (bit & 0x07);
        }
        let f = byte.to_be_bytes();
        self.sks = Some([b0, f[0], f[1]]);
        self
    }

    /// Adds the INFORMATION field.
    pub(crate) fn with_info(mut self, info: u64) -> SimSense {
        self.info = Some(info);
        self
    }

    /// Adds the COMMAND-SPECIFIC INFORMATION field.
    pub(crate) fn with_csi(mut self, csi: u64) -> SimSense {
        self.csi = Some(csi);
        self
    }

    /// Marks the record deferred.
    pub fn deferred(mut self) -> SimSense {
        self.deferred = true;
        self
    }

    /// Renders the record; `descriptor` selects 0x72/0x73 (D_SENSE or REQUEST SENSE DESC).
    pub fn render(&self, descriptor: bool) -> Vec<u8> {
        if descriptor || self.ata.is_some() {
            self.render_descriptor()
        } else {
            self.render_fixed()
        }
    }

    /// Fixed format, 18 bytes (SPC-5 4.4.3; protocols.md §B.1). An INFORMATION value that does
    /// not fit 32 bits is reported with VALID=0, as SPC-5 requires.
    pub(crate) fn render_fixed(&self) -> Vec<u8> {
        let mut s = vec![0u8; 18];
        s[0] = if self.deferred { 0x71 } else { 0x70 };
        s[2] = self.key & 0x0f;
        if let Some(info) = self.info {
            if let Ok(v) = u32::try_from(info) {
                s[0] |= 0x80;
                s[3..7].copy_from_slice(&v.to_be_bytes());
            }
        }
        s[7] = 10; // additional sense length: bytes 8..=17
        if let Some(csi) = self.csi {
            // Four bytes in fixed format: a value that does not fit reads FFFFFFFFh, the
            // "not available" value (SBC-4 REASSIGN BLOCKS).
            s[8..12].copy_from_slice(&u32::try_from(csi).unwrap_or(u32::MAX).to_be_bytes());
        }
        s[12] = self.asc;
        s[13] = self.ascq;
        if let Some(sks) = self.sks {
            s[15..18].copy_from_slice(&sks);
        }
        s
    }

    /// Descriptor format (SPC-5 4.4.2; protocols.md §B.2): header, then an Information
    /// descriptor (type 0x00, length 0x0A), a command-specific information descriptor (type
    /// 0x01, length 0x0A) and a sense-key-specific descriptor (type 0x02, length 0x06) when
    /// present.
    pub(crate) fn render_descriptor(&self) -> Vec<u8> {
        let mut s = vec![0u8; 8];
        s[0] = if self.deferred { 0x73 } else { 0x72 };
        s[1] = self.key & 0x0f;
        s[2] = self.asc;
        s[3] = self.ascq;
        if let Some(info) = self.info {
            s.extend_from_slice(&[0x00, 0x0A, 0x80, 0x00]);
            s.extend_from_slice(&info.to_be_bytes());
        }
        if let Some(csi) = self.csi {
            s.extend_from_slice(&[0x01, 0x0A, 0x00, 0x00]);
            s.extend_from_slice(&csi.to_be_bytes());
        }
        if let Some(sks) = self.sks {
            s.extend_from_slice(&[0x02, 0x06, 0x00, 0x00]);
            s.extend_from_slice(&sks);
            s.push(0);
        }
        if let Some(ata) = self.ata {
            s.extend_from_slice(&ata);
        }
        s[7] = (s.len() - 8) as u8;
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sense::{Sense, SenseKey, SenseKeySpecific};

    #[test]
    fn fixed_field_pointer_bytes() {
        let s = SimSense::invalid_cdb(4, Some(1)).render_fixed();
        assert_eq!(
            s,
            [0x70, 0, 5, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0x24, 0, 0, 0xC9, 0x00, 0x04]
        );
        let d = Sense::parse(&s).unwrap();
        assert_eq!(
            d.sks,
            Some(SenseKeySpecific::FieldPointer {
                cd: true,
                bit: Some(1),
                field: 4
            })
        );
    }

    #[test]
    fn descriptor_with_info_and_progress() {
        let s = SimSense::progress(0x04, 0x1B, 0x8000)
            .with_info(0x1_0000_0000)
            .render_descriptor();
        assert_eq!(s[0], 0x72);
        assert_eq!(s[7] as usize, s.len() - 8);
        let d = Sense::parse(&s).unwrap();
        assert_eq!(d.key, SenseKey::NotReady);
        assert_eq!(d.information, Some(0x1_0000_0000));
        assert_eq!(d.progress_percent(), Some(50.0));
        // fixed format cannot carry a 33-bit INFORMATION: VALID=0
        let f = SimSense::new(3, 0x11, 0)
            .with_info(0x1_0000_0000)
            .render_fixed();
        assert_eq!(f[0], 0x70);
    }

    #[test]
    fn command_specific_information_both_formats() {
        // SPC-5 4.4.3: fixed format bytes 8-11; 4.4.2.3: descriptor type 01h, length 0Ah,
        // two reserved bytes, then eight bytes.
        let s = SimSense::new(key::HARDWARE_ERROR, 0x32, 0x00).with_csi(0x1234);
        let f = s.render_fixed();
        assert_eq!(&f[8..12], &[0, 0, 0x12, 0x34]);
        assert_eq!(Sense::parse(&f).unwrap().command_specific, Some(0x1234));
        let d = s.render_descriptor();
        assert_eq!(&d[8..20], &[1, 0x0A, 0, 0, 0, 0, 0, 0, 0, 0, 0x12, 0x34]);
        assert_eq!(d[7], 12);
        assert_eq!(Sense::parse(&d).unwrap().command_specific, Some(0x1234));
        // Too wide for the fixed field: FFFFFFFFh (not available).
        let f = SimSense::new(4, 0x32, 0).with_csi(1 << 40).render_fixed();
        assert_eq!(&f[8..12], &[0xFF; 4]);
    }

    #[test]
    fn deferred_codes() {
        let s = SimSense::new(3, 0x31, 1).deferred();
        assert_eq!(s.render_fixed()[0], 0x71);
        assert_eq!(s.render_descriptor()[0], 0x73);
    }
}
