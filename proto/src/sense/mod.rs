//! SCSI sense data (SPC-5 4.4): fixed (0x70/0x71) and descriptor (0x72/0x73) formats.
//!
//! Byte offsets follow SPC-5 4.4.2/4.4.3 as restated in docs/protocols.md §B
//! (sources: sg3_utils `lib/sg_lib.c`).

use crate::bytes::{Bytes, ParseError, ParseResult};
use serde::Serialize;
use std::fmt;

/// SPC-5 Table 49 sense keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SenseKey {
    /// 0x0
    NoSense,
    /// 0x1
    RecoveredError,
    /// 0x2
    NotReady,
    /// 0x3
    MediumError,
    /// 0x4
    HardwareError,
    /// 0x5
    IllegalRequest,
    /// 0x6
    UnitAttention,
    /// 0x7
    DataProtect,
    /// 0x8
    BlankCheck,
    /// 0x9
    VendorSpecific,
    /// 0xA
    CopyAborted,
    /// 0xB
    AbortedCommand,
    /// 0xD
    VolumeOverflow,
    /// 0xE
    Miscompare,
    /// 0xF
    Completed,
    /// 0xC (obsolete/reserved)
    Reserved,
}

impl SenseKey {
    /// Decodes the low nibble.
    pub(crate) fn from_u8(v: u8) -> SenseKey {
        use SenseKey::*;
        match v & 0x0f {
            0x0 => NoSense,
            0x1 => RecoveredError,
            0x2 => NotReady,
            0x3 => MediumError,
            0x4 => HardwareError,
            0x5 => IllegalRequest,
            0x6 => UnitAttention,
            0x7 => DataProtect,
            0x8 => BlankCheck,
            0x9 => VendorSpecific,
            0xa => CopyAborted,
            0xb => AbortedCommand,
            0xd => VolumeOverflow,
            0xe => Miscompare,
            0xf => Completed,
            _ => Reserved,
        }
    }

    /// The numeric code.
    pub fn code(self) -> u8 {
        use SenseKey::*;
        match self {
            NoSense => 0,
            RecoveredError => 1,
            NotReady => 2,
            MediumError => 3,
            HardwareError => 4,
            IllegalRequest => 5,
            UnitAttention => 6,
            DataProtect => 7,
            BlankCheck => 8,
            VendorSpecific => 9,
            CopyAborted => 0xa,
            AbortedCommand => 0xb,
            Reserved => 0xc,
            VolumeOverflow => 0xd,
            Miscompare => 0xe,
            Completed => 0xf,
        }
    }

    /// The T10 name, as sg3_utils prints it.
    pub fn name(self) -> &'static str {
        use SenseKey::*;
        match self {
            NoSense => "No Sense",
            RecoveredError => "Recovered Error",
            NotReady => "Not Ready",
            MediumError => "Medium Error",
            HardwareError => "Hardware Error",
            IllegalRequest => "Illegal Request",
            UnitAttention => "Unit Attention",
            DataProtect => "Data Protect",
            BlankCheck => "Blank Check",
            VendorSpecific => "Vendor specific",
            CopyAborted => "Copy Aborted",
            AbortedCommand => "Aborted Command",
            Reserved => "Reserved",
            VolumeOverflow => "Volume Overflow",
            Miscompare => "Miscompare",
            Completed => "Completed",
        }
    }
}

/// Sense-key-specific field (SPC-5 4.4.2.4), decoded according to the sense key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SenseKeySpecific {
    /// ILLEGAL REQUEST: which byte/bit of the CDB (`cd`=true) or parameter list was wrong.
    FieldPointer {
        /// true: error is in the CDB; false: in the parameter data.
        cd: bool,
        /// Bit pointer, when valid (BPV).
        bit: Option<u8>,
        /// Byte offset of the field.
        field: u16,
    },
    /// NOT READY / NO SENSE: progress of a long operation, 0..=65535 (65536 = 100%).
    Progress {
        /// Raw progress indication.
        raw: u16,
    },
    /// RECOVERED/HARDWARE/MEDIUM ERROR: actual retry count.
    RetryCount {
        /// Retries.
        count: u16,
    },
    /// Anything else, raw.
    Raw {
        /// The three bytes, SKSV bit included.
        bytes: [u8; 3],
    },
}

impl SenseKeySpecific {
    fn decode(key: SenseKey, b: [u8; 3]) -> Option<SenseKeySpecific> {
        if b[0] & 0x80 == 0 {
            return None;
        }
        let v16 = u16::from_be_bytes([b[1], b[2]]);
        Some(match key {
            SenseKey::IllegalRequest => SenseKeySpecific::FieldPointer {
                cd: b[0] & 0x40 != 0,
                bit: (b[0] & 0x08 != 0).then_some(b[0] & 0x07),
                field: v16,
            },
            SenseKey::NotReady | SenseKey::NoSense => SenseKeySpecific::Progress { raw: v16 },
            SenseKey::RecoveredError | SenseKey::HardwareError | SenseKey::MediumError => {
                SenseKeySpecific::RetryCount { count: v16 }
            }
            _ => SenseKeySpecific::Raw { bytes: b },
        })
    }

    /// Progress as a percentage, if this is a progress indication.
    pub fn progress_percent(&self) -> Option<f64> {
        match self {
            SenseKeySpecific::Progress { raw } => Some(f64::from(*raw) * 100.0 / 65536.0),
            _ => None,
        }
    }
}

/// One "another progress indication" sense data descriptor (SPC-5 4.4.2.9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct OtherProgress {
    /// Sense key of the operation in progress.
    pub key: SenseKey,
    /// Its additional sense code.
    pub asc: u8,
    /// Its qualifier.
    pub ascq: u8,
    /// Progress indication, 0..=65535 (65536 = 100%).
    pub raw: u16,
}

impl OtherProgress {
    /// Progress in percent.
    pub fn percent(&self) -> f64 {
        f64::from(self.raw) * 100.0 / 65536.0
    }
}

/// Decoded sense data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Sense {
    /// 0x70..=0x73 (or vendor 0x7f).
    pub response_code: u8,
    /// Descriptor format (0x72/0x73) rather than fixed.
    pub descriptor_format: bool,
    /// Deferred error (0x71/0x73): reports an earlier command's failure.
    pub deferred: bool,
    /// Sense key.
    pub key: SenseKey,
    /// Additional sense code.
    pub asc: u8,
    /// Additional sense code qualifier.
    pub ascq: u8,
    /// INFORMATION field (failing LBA, ...), when VALID / present.
    pub information: Option<u64>,
    /// COMMAND-SPECIFIC INFORMATION, when non-zero.
    pub command_specific: Option<u64>,
    /// Sense-key-specific field, when SKSV is set.
    pub sks: Option<SenseKeySpecific>,
    /// Field replaceable unit code (0 = none).
    pub fru: u8,
    /// Fixed format ILI bit / block command descriptor ILI.
    pub ili: bool,
    /// "Another progress indication" descriptors (SPC-5 4.4.2.9, type 0x0A): progress of
    /// operations other than the one this sense reports (descriptor format only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub other_progress: Vec<OtherProgress>,
    /// What did not add up (an additional length claiming more bytes than were received, a
    /// descriptor that overruns, fields missing from a short fixed-format buffer); the fields
    /// are decoded from the bytes present. Empty for consistent sense data.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
    /// The raw bytes as received.
    #[serde(skip)]
    pub raw: Vec<u8>,
}

impl Sense {
    /// Parses sense bytes. Lengths inside are clamped to what was actually received
    /// (devices often claim more additional bytes than the host buffer held).
    pub fn parse(buf: &[u8]) -> ParseResult<Sense> {
        let b = Bytes::new(buf, "sense data");
        let rc = b.u8(0)? & 0x7f;
        match rc {
            0x70 | 0x71 => Self::parse_fixed(b, rc),
            0x72 | 0x73 => Self::parse_descriptor(b, rc),
            _ => Err(ParseError::new(
                "sense data",
                format!("unknown response code 0x{rc:02x}"),
            )),
        }
    }

    fn parse_fixed(b: Bytes<'_>, rc: u8) -> ParseResult<Sense> {
        b.need(3)?;
        let valid = b.u8(0)? & 0x80 != 0;
        let key = SenseKey::from_u8(b.u8(2)?);
        let ili = b.u8(2)? & 0x20 != 0;
        // Additional sense length (byte 7) counts from byte 8; trust it only as far as the
        // bytes we actually hold.
        let add_len = b.u8(7).map(usize::from).unwrap_or(0);
        let mut problems = Vec::new();
        if 8 + add_len > b.len() && b.len() >= 8 {
            problems.push(format!(
                "additional sense length {add_len} claims {} bytes, have {}",
                8 + add_len,
                b.len()
            ));
        }
        if b.len().min(8 + add_len) < 14 {
            problems.push(format!(
                "fixed-format sense of {} bytes has no ASC/ASCQ (bytes 12-13): shown as 00/00",
                b.len().min(8 + add_len)
            ));
        }
        let avail = b.len().min(8 + add_len);
        let b = b.sub(0, avail.max(3).min(b.len()))?;
        let information = if valid {
            b.be32(3).ok().map(u64::from)
        } else {
            None
        };
        let csi = b.be32(8).ok().filter(|v| *v != 0).map(u64::from);
        let asc = b.u8(12).unwrap_or(0);
        let ascq = b.u8(13).unwrap_or(0);
        let fru = b.u8(14).unwrap_or(0);
        let sks = b
            .slice(15, 3)
            .ok()
            .and_then(|s| SenseKeySpecific::decode(key, [s[0], s[1], s[2]]));
        Ok(Sense {
            response_code: rc,
            descriptor_format: false,
            deferred: rc == 0x71,
            key,
            asc,
            ascq,
            information,
            command_specific: csi,
            sks,
            fru,
            ili,
            other_progress: Vec::new(),
            problems,
            raw: b.as_slice().to_vec(),
        })
    }

    fn parse_descriptor(b: Bytes<'_>, rc: u8) -> ParseResult<Sense> {
        b.need(4)?;
        let key = SenseKey::from_u8(b.u8(1)?);
        let asc = b.u8(2)?;
        let ascq = b.u8(3)?;
        let add_len = b.u8(7).map(usize::from).unwrap_or(0);
        let end = b.len().min(8 + add_len);
        let mut problems = Vec::new();
        if 8 + add_len > b.len() && b.len() >= 8 {
            problems.push(format!(
                "additional sense length {add_len} claims {} bytes, have {}",
                8 + add_len,
                b.len()
            ));
        }
        let mut s = Sense {
            response_code: rc,
            descriptor_format: true,
            deferred: rc == 0x73,
            key,
            asc,
            ascq,
            information: None,
            command_specific: None,
            sks: None,
            fru: 0,
            ili: false,
            other_progress: Vec::new(),
            problems,
            raw: b.rest(0).get(..end.max(4)).unwrap_or(b.as_slice()).to_vec(),
        };
        // Walk the descriptors (SPC-5 4.4.2.x): type, additional length, body.
        let mut off = 8;
        while off + 2 <= end {
            let dtype = b.u8(off)?;
            let dlen = usize::from(b.u8(off + 1)?);
            if off + 2 + dlen > end {
                s.problems.push(format!(
                    "descriptor 0x{dtype:02x} at offset {off}: length {dlen} overruns the {end} \
                     bytes of sense data"
                ));
            }
            let body_end = (off + 2 + dlen).min(end);
            let d = b.sub(off, body_end - off)?;
            match dtype {
                // Information (4.4.2.2): VALID bit in byte 2, 8-byte field at 4.
                0x00 => s.information = d.be64(4).ok(),
                // Command-specific information (4.4.2.3).
                0x01 => s.command_specific = d.be64(4).ok(),
                // Sense key specific (4.4.2.4): bytes 4..7.
                0x02 => {
                    if let Ok(x) = d.slice(4, 3) {
                        s.sks = SenseKeySpecific::decode(key, [x[0], x[1], x[2]]);
                    }
                }
                // Field replaceable unit (4.4.2.5).
                0x03 => s.fru = d.u8(3).unwrap_or(0),
                // Block commands (SBC-4 4.18.2): ILI at byte 3 bit 5.
                0x05 => s.ili = d.u8(3).map(|v| v & 0x20 != 0).unwrap_or(false),
                // Another progress indication (SPC-5 4.4.2.9): key at 2, ASC 3, ASCQ 4,
                // progress indication at 6..8.
                0x0a => {
                    if let (Ok(k), Ok(asc), Ok(ascq), Ok(raw)) =
                        (d.u8(2), d.u8(3), d.u8(4), d.be16(6))
                    {
                        s.other_progress.push(OtherProgress {
                            key: SenseKey::from_u8(k),
                            asc,
                            ascq,
                            raw,
                        });
                    }
                }
                _ => {}
            }
            off += 2 + dlen;
        }
        Ok(s)
    }

    /// The progress indication of a long operation (FORMAT/SANITIZE/self-test), in percent.
    pub fn progress_percent(&self) -> Option<f64> {
        self.sks.and_then(|s| s.progress_percent())
    }

    /// Short description: `Not Ready: Logical unit not ready, format in progress (04/04)`.
    pub fn summary(&self) -> String {
        let desc = crate::sense::asc_description(self.asc, self.ascq);
        format!(
            "{}{}: {} ({:02x}/{:02x})",
            if self.deferred { "Deferred " } else { "" },
            self.key.name(),
            desc,
            self.asc,
            self.ascq
        )
    }

    /// True for "logical unit not ready, ... in progress" conditions (ASC 0x04, ASCQ
    /// 0x04 format, 0x07 operation, 0x09 self-test, 0x1B sanitize, ...).
    pub fn is_in_progress(&self) -> bool {
        self.key == SenseKey::NotReady
            && self.asc == 0x04
            && matches!(
                self.ascq,
                0x04 | 0x07 | 0x09 | 0x11 | 0x14 | 0x1a | 0x1b | 0x24
            )
    }
}

impl fmt::Display for Sense {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.summary())?;
        if let Some(p) = self.progress_percent() {
            write!(f, ", progress {p:.1}%")?;
        }
        if let Some(i) = self.information {
            write!(f, ", information 0x{i:x}")?;
        }
        if let Some(SenseKeySpecific::FieldPointer { cd, bit, field }) = self.sks {
            write!(
                f,
                ", error in {} byte {field}",
                if cd { "CDB" } else { "parameter list" }
            )?;
            if let Some(b) = bit {
                write!(f, " bit {b}")?;
            }
        }
        for p in &self.other_progress {
            write!(
                f,
                ", {} ({:02x}/{:02x}) {:.1}% done",
                p.key.name(),
                p.asc,
                p.ascq,
                p.percent()
            )?;
        }
        Ok(())
    }
}

mod asc;
pub use asc::asc_description;

/// Builds fixed-format sense bytes (18 bytes), as simulators and tests need.
pub fn build_fixed(key: SenseKey, asc: u8, ascq: u8) -> Vec<u8> {
    let mut s = vec![0u8; 18];
    s[0] = 0x70;
    s[2] = key.code();
    s[7] = 10;
    s[12] = asc;
    s[13] = ascq;
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_progress() {
        // NOT READY, 04/04 format in progress, SKSV progress 0x8000 = 50%.
        let mut s = build_fixed(SenseKey::NotReady, 0x04, 0x04);
        s[15] = 0x80;
        s[16] = 0x80;
        let d = Sense::parse(&s).unwrap();
        assert_eq!(d.key, SenseKey::NotReady);
        assert!(d.is_in_progress());
        assert_eq!(d.progress_percent(), Some(50.0));
    }

    #[test]
    fn descriptor_info_and_sks() {
        let s = [
            0x72, 0x03, 0x11, 0x00, 0, 0, 0, 0x18, // header, 24 bytes of descriptors
            0x00, 0x0a, 0x80, 0, 0, 0, 0, 0, 0, 0, 0x12, 0x34, // information = 0x1234
            0x02, 0x06, 0, 0, 0x80, 0x00, 0x05, 0, // SKS retry count 5
        ];
        let d = Sense::parse(&s).unwrap();
        assert_eq!(d.key, SenseKey::MediumError);
        assert_eq!((d.asc, d.ascq), (0x11, 0x00));
        assert_eq!(d.information, Some(0x1234));
        assert_eq!(d.sks, Some(SenseKeySpecific::RetryCount { count: 5 }));
    }

    #[test]
    fn another_progress_indication() {
        // Descriptor sense: UNIT ATTENTION 2A/01 while a sanitize (02/04/1B) is at 25%.
        let s = [
            0x72, 0x06, 0x2a, 0x01, 0, 0, 0, 0x08, // header, 8 bytes of descriptors
            0x0a, 0x06, 0x02, 0x04, 0x1b, 0x00, 0x40, 0x00, // another progress indication
        ];
        let d = Sense::parse(&s).unwrap();
        assert_eq!(d.other_progress.len(), 1);
        let p = d.other_progress[0];
        assert_eq!((p.key, p.asc, p.ascq), (SenseKey::NotReady, 0x04, 0x1b));
        assert_eq!(p.percent(), 25.0);
        // Cut inside the descriptor: ignored, not a panic.
        let d = Sense::parse(&s[..14]).unwrap();
        assert!(d.other_progress.is_empty());
    }

    #[test]
    fn lying_lengths_do_not_panic() {
        assert!(Sense::parse(&[]).is_err());
        assert!(Sense::parse(&[0x70]).is_ok() || Sense::parse(&[0x70]).is_err());
        let _ = Sense::parse(&[0x72, 0x05, 0x20, 0x00, 0, 0, 0, 0xff, 0x02, 0xff]);
        let _ = Sense::parse(&[0xf0, 0, 5, 0, 0, 0, 0, 0xff]);
    }
}
