//! SPC-6 6.35 REPORT LUNS (0xA0) and SAM-6 4.7 LUN decoding.
//!
//! Parameter data: bytes 0–3 LUN LIST LENGTH (bytes of LUNs that follow the 8-byte header),
//! then one 8-byte LUN per logical unit. Sources: sg3_utils `src/sg_luns.c`, Linux
//! `drivers/scsi/scsi_common.c` (`scsilun_to_int`).

use crate::bytes::{hex, Bytes, ParseError, ParseResult};
use serde::Serialize;

/// REPORT LUNS operation code.
pub const OPCODE: u8 = crate::scsi::opcodes::code::REPORT_LUNS;

crate::scsi::cdb::cdb_builder! {
    /// SPC-6 6.35.1 REPORT LUNS CDB (12 bytes).
    #[doc(alias = "sg_ll_report_luns")]
    pub struct ReportLunsCdb {
        /// ALLOCATION LENGTH, bytes 6–9 (at least 16, SPC-6 6.35.1).
        alloc_len: u32,
        ;;
        /// SELECT REPORT, byte 2: 0 all addressable LUs, 1 well-known LUs, 2 all.
        select_report: u8 = 0,
    }
}

impl ReportLunsCdb {
    /// REPORT LUNS operation code.
    pub const OPCODE: u8 = OPCODE;

    /// The 12 CDB bytes.
    pub fn build(&self) -> [u8; 12] {
        let a = self.alloc_len.to_be_bytes();
        [
            OPCODE,
            0,
            self.select_report,
            0,
            0,
            0,
            a[0],
            a[1],
            a[2],
            a[3],
            0,
            0,
        ]
    }
}

/// One level of a hierarchical LUN (SAM-6 4.7.x), decoded by its ADDRESS METHOD.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "address_method", rename_all = "snake_case")]
pub enum LunLevel {
    /// 00b peripheral device addressing: bus identifier and target/LUN byte.
    Peripheral {
        /// Byte 0 bits 5-0 (0 = this level addresses a LUN directly).
        bus_id: u8,
        /// Byte 1.
        target_or_lun: u8,
    },
    /// 01b flat space addressing: a 14-bit LUN.
    Flat {
        /// The LUN.
        lun: u16,
    },
    /// 10b logical unit addressing: target, bus and LUN.
    LogicalUnit {
        /// Byte 0 bits 5-0.
        target: u8,
        /// Byte 1 bits 7-5.
        bus: u8,
        /// Byte 1 bits 4-0.
        lun: u8,
    },
    /// 11b with extended address method 1 and length 0: a well-known LU (SPC-6 8.1).
    WellKnown {
        /// W-LUN number (0x01 REPORT LUNS, 0x02 ACCESS CONTROLS, 0x03 TARGET LOG PAGES, ...).
        wlun: u8,
    },
    /// 11b extended addressing, other forms, kept raw.
    Extended {
        /// The bytes of this level.
        raw: String,
    },
}

/// One reported LUN.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Lun {
    /// The 8 bytes, as 16 hex digits (what sg_luns prints).
    pub raw: String,
    /// The integer Linux uses in H:C:T:L (`scsilun_to_int`).
    pub linux_lun: u64,
    /// Decoded levels up to the first all-zero level (at least one).
    pub levels: Vec<LunLevel>,
}

/// REPORT LUNS parameter data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReportLuns {
    /// LUN LIST LENGTH as reported (may exceed what was transferred).
    pub lun_list_length: u32,
    /// The LUNs that were transferred in full.
    pub luns: Vec<Lun>,
    /// True when the device has more LUNs than the buffer held (re-issue with a bigger one).
    pub truncated: bool,
}

/// Decodes one 8-byte LUN (SAM-6 4.7).
pub(crate) fn decode_lun(b: [u8; 8]) -> Lun {
    // Linux scsilun_to_int: the first two levels, swapped into an integer.
    let mut linux = 0u64;
    for i in (0..8).step_by(2) {
        linux |= (u64::from(b[i]) << 8 | u64::from(b[i + 1])) << (i * 8);
    }
    let mut levels = Vec::new();
    for (i, lvl) in b.chunks_exact(2).enumerate() {
        if i > 0 && lvl == [0, 0] {
            break;
        }
        let (b0, b1) = (lvl[0], lvl[1]);
        levels.push(match b0 >> 6 {
            0 => LunLevel::Peripheral {
                bus_id: b0 & 0x3f,
                target_or_lun: b1,
            },
            1 => LunLevel::Flat {
                lun: u16::from(b0 & 0x3f) << 8 | u16::from(b1),
            },
            2 => LunLevel::LogicalUnit {
                target: b0 & 0x3f,
                bus: b1 >> 5,
                lun: b1 & 0x1f,
            },
            _ if b0 == 0xc1 => LunLevel::WellKnown { wlun: b1 },
            _ => LunLevel::Extended { raw: hex(lvl) },
        });
        // Extended addressing levels longer than 2 bytes end the walk (their length is
        // in byte 0 bits 5-4); decoding them further needs SAM's table, not needed here.
        if b0 >> 6 == 3 && b0 != 0xc1 {
            break;
        }
    }
    Lun {
        raw: hex(&b),
        linux_lun: linux,
        levels,
    }
}

/// Parses REPORT LUNS parameter data. A buffer holding fewer LUNs than LUN LIST LENGTH
/// announces is reported as `truncated` (normal when the allocation length was small);
/// a list length that is not a multiple of 8 is an error.
pub fn parse(buf: &[u8]) -> ParseResult<ReportLuns> {
    let b = Bytes::new(buf, "REPORT LUNS data");
    b.need(8)?;
    let len = b.be32(0)?;
    if len % 8 != 0 {
        return Err(ParseError::new(
            "REPORT LUNS data",
            format!("LUN list length {len} is not a multiple of 8"),
        ));
    }
    let avail = (buf.len() - 8) / 8;
    let announced = usize::try_from(len / 8).unwrap_or(usize::MAX);
    let n = avail.min(announced);
    let mut luns = Vec::with_capacity(n);
    for i in 0..n {
        let s = b.slice(8 + i * 8, 8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(s);
        luns.push(decode_lun(a));
    }
    Ok(ReportLuns {
        lun_list_length: len,
        luns,
        truncated: announced > avail,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cdb_bytes() {
        assert_eq!(
            ReportLunsCdb::new(8192).build(),
            [0xa0, 0, 0, 0, 0, 0, 0, 0, 0x20, 0, 0, 0]
        );
    }

    #[test]
    fn lun_forms() {
        let l = decode_lun([0, 1, 0, 0, 0, 0, 0, 0]);
        assert_eq!(l.linux_lun, 1);
        assert_eq!(
            l.levels,
            vec![LunLevel::Peripheral {
                bus_id: 0,
                target_or_lun: 1
            }]
        );
        let l = decode_lun([0x41, 0x23, 0, 0, 0, 0, 0, 0]);
        assert_eq!(l.levels, vec![LunLevel::Flat { lun: 0x123 }]);
        assert_eq!(l.linux_lun, 0x4123);
        let l = decode_lun([0xc1, 0x01, 0, 0, 0, 0, 0, 0]);
        assert_eq!(l.levels, vec![LunLevel::WellKnown { wlun: 1 }]);
        let l = decode_lun([0x81, 0x44, 0, 0, 0, 0, 0, 0]);
        assert_eq!(
            l.levels,
            vec![LunLevel::LogicalUnit {
                target: 1,
                bus: 2,
                lun: 4
            }]
        );
    }

    #[test]
    fn truncation_and_bad_length() {
        let mut b = vec![0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        let r = parse(&b).unwrap();
        assert!(r.truncated);
        assert_eq!(r.luns.len(), 1);
        b[3] = 12;
        assert!(parse(&b).is_err());
        assert!(parse(&b[..7]).is_err());
    }
}
