//! SBC-5 5.20/5.21 READ DEFECT DATA (10) (0x37) and (12) (0xB7): the primary (PLIST) and
//! grown (GLIST) defect lists in one of the address descriptor formats of SBC-5 6.2
//! ("Address descriptor formats").
//!
//! CDB (10): byte 2 REQ_PLIST (4), REQ_GLIST (3), DEFECT LIST FORMAT (2-0); bytes 7-8
//! ALLOCATION LENGTH. CDB (12): byte 1 REQ_PLIST (4), REQ_GLIST (3), DEFECT LIST FORMAT
//! (2-0); bytes 2-5 ADDRESS DESCRIPTOR INDEX; bytes 6-9 ALLOCATION LENGTH.
//! Parameter data (10): 4-byte header, byte 1 PLISTV (4), GLISTV (3), DEFECT LIST FORMAT
//! (2-0), bytes 2-3 DEFECT LIST LENGTH. (12): 8-byte header, byte 1 as (10), bytes 2-3
//! GENERATION CODE, bytes 4-7 DEFECT LIST LENGTH.

use crate::bytes::{ParseError, ParseResult};
use serde::Serialize;

/// READ DEFECT DATA(10) operation code.
pub(crate) const OPCODE_10: u8 = 0x37;
/// READ DEFECT DATA(12) operation code.
pub(crate) const OPCODE_12: u8 = 0xB7;

/// Address descriptor format (SBC-5 Table "Address descriptor formats").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DefectFormat {
    /// 000b: short block (4-byte LBA).
    ShortBlock,
    /// 001b: extended bytes from index.
    ExtendedBytesFromIndex,
    /// 010b: extended physical sector.
    ExtendedPhysicalSector,
    /// 011b: long block (8-byte LBA).
    LongBlock,
    /// 100b: bytes from index (cylinder, head, bytes from index).
    BytesFromIndex,
    /// 101b: physical sector (cylinder, head, sector).
    PhysicalSector,
    /// 110b: vendor specific (4 bytes).
    Vendor,
    /// 111b: reserved.
    Reserved,
}

impl DefectFormat {
    /// The 3-bit field value.
    pub fn code(self) -> u8 {
        match self {
            DefectFormat::ShortBlock => 0,
            DefectFormat::ExtendedBytesFromIndex => 1,
            DefectFormat::ExtendedPhysicalSector => 2,
            DefectFormat::LongBlock => 3,
            DefectFormat::BytesFromIndex => 4,
            DefectFormat::PhysicalSector => 5,
            DefectFormat::Vendor => 6,
            DefectFormat::Reserved => 7,
        }
    }

    /// The format of a 3-bit field value.
    pub fn from_code(c: u8) -> DefectFormat {
        match c & 7 {
            0 => DefectFormat::ShortBlock,
            1 => DefectFormat::ExtendedBytesFromIndex,
            2 => DefectFormat::ExtendedPhysicalSector,
            3 => DefectFormat::LongBlock,
            4 => DefectFormat::BytesFromIndex,
            5 => DefectFormat::PhysicalSector,
            6 => DefectFormat::Vendor,
            _ => DefectFormat::Reserved,
        }
    }

    /// Bytes per address descriptor; None for the reserved code.
    pub(crate) fn descriptor_len(self) -> Option<usize> {
        match self {
            DefectFormat::ShortBlock | DefectFormat::Vendor => Some(4),
            DefectFormat::Reserved => None,
            _ => Some(8),
        }
    }

    /// Name as sg3_utils prints it.
    pub fn name(self) -> &'static str {
        match self {
            DefectFormat::ShortBlock => "short block",
            DefectFormat::ExtendedBytesFromIndex => "extended bytes from index",
            DefectFormat::ExtendedPhysicalSector => "extended physical sector",
            DefectFormat::LongBlock => "long block",
            DefectFormat::BytesFromIndex => "bytes from index",
            DefectFormat::PhysicalSector => "physical sector",
            DefectFormat::Vendor => "vendor specific",
            DefectFormat::Reserved => "reserved",
        }
    }
}

fn list_flags(plist: bool, glist: bool, format: DefectFormat) -> u8 {
    (u8::from(plist) << 4) | (u8::from(glist) << 3) | format.code()
}

crate::scsi::cdb::cdb_builder! {
    /// SBC-5 5.20 READ DEFECT DATA (10) CDB (10 bytes).
    #[doc(alias = "sg_ll_read_defect10")]
    pub struct ReadDefectData10Cdb {
        /// DEFECT LIST FORMAT asked for, byte 2 bits 2-0.
        format: DefectFormat,
        /// ALLOCATION LENGTH, bytes 7-8.
        alloc_len: u16,
        ;;
        /// REQ_PLIST, byte 2 bit 4: the primary (factory) list.
        plist: bool = false,
        /// REQ_GLIST, byte 2 bit 3: the grown list.
        glist: bool = false,
    }
}

impl ReadDefectData10Cdb {
    /// READ DEFECT DATA (10) operation code.
    pub const OPCODE: u8 = OPCODE_10;

    /// The 10 CDB bytes.
    pub fn build(&self) -> [u8; 10] {
        let a = self.alloc_len.to_be_bytes();
        let f = list_flags(self.plist, self.glist, self.format);
        [OPCODE_10, 0, f, 0, 0, 0, 0, a[0], a[1], 0]
    }
}

crate::scsi::cdb::cdb_builder! {
    /// SBC-5 5.21 READ DEFECT DATA (12) CDB (12 bytes).
    pub struct ReadDefectData12Cdb {
        /// DEFECT LIST FORMAT asked for, byte 1 bits 2-0.
        format: DefectFormat,
        /// ALLOCATION LENGTH, bytes 6-9.
        alloc_len: u32,
        ;;
        /// REQ_PLIST, byte 1 bit 4: the primary (factory) list.
        plist: bool = false,
        /// REQ_GLIST, byte 1 bit 3: the grown list.
        glist: bool = false,
        /// ADDRESS DESCRIPTOR INDEX, bytes 2-5: the first descriptor to return.
        address_descriptor_index: u32 = 0,
    }
}

impl ReadDefectData12Cdb {
    /// READ DEFECT DATA (12) operation code.
    pub const OPCODE: u8 = OPCODE_12;

    /// The 12 CDB bytes.
    pub fn build(&self) -> [u8; 12] {
        let i = self.address_descriptor_index.to_be_bytes();
        let a = self.alloc_len.to_be_bytes();
        [
            OPCODE_12,
            list_flags(self.plist, self.glist, self.format),
            i[0],
            i[1],
            i[2],
            i[3],
            a[0],
            a[1],
            a[2],
            a[3],
            0,
            0,
        ]
    }
}

/// One address descriptor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Defect {
    /// Short or long block format.
    Lba {
        /// The LBA.
        lba: u64,
    },
    /// Bytes from index / physical sector formats (plain or extended).
    Chs {
        /// Cylinder number (3 bytes).
        cylinder: u32,
        /// Head number.
        head: u8,
        /// Bytes from index, or sector number.
        position: u32,
        /// Extended formats: MADS (a range of defects starts or continues here).
        mads: bool,
    },
    /// Vendor specific: the four bytes.
    Vendor {
        /// Raw value.
        value: u32,
    },
}

/// Header and descriptors of a READ DEFECT DATA answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DefectList {
    /// PLISTV: the primary list is in the data.
    pub plist_valid: bool,
    /// GLISTV: the grown list is in the data.
    pub glist_valid: bool,
    /// The format the device answered in (may differ from the one asked for).
    pub format: DefectFormat,
    /// Its name.
    pub format_name: &'static str,
    /// DEFECT LIST LENGTH (bytes of descriptors the device has).
    pub list_length: u64,
    /// Number of descriptors the device has (list length / descriptor size).
    pub count: u64,
    /// (12) only: GENERATION CODE.
    pub generation: Option<u16>,
    /// The descriptors present in the buffer.
    pub defects: Vec<Defect>,
    /// What did not add up (a list cut short by the allocation length, a length that is not a
    /// multiple of the descriptor size).
    pub problems: Vec<String>,
}

/// Header length of the (10) or (12) answer.
pub(crate) fn header_len(twelve: bool) -> usize {
    if twelve {
        8
    } else {
        4
    }
}

/// DEFECT LIST LENGTH from a header; None when `buf` is shorter than the header.
pub fn list_length(buf: &[u8], twelve: bool) -> Option<u64> {
    if twelve {
        let b = buf.get(4..8)?;
        Some(u64::from(u32::from_be_bytes([b[0], b[1], b[2], b[3]])))
    } else {
        let b = buf.get(2..4)?;
        Some(u64::from(u16::from_be_bytes([b[0], b[1]])))
    }
}

/// Parses a READ DEFECT DATA answer (header and whatever descriptors the buffer holds).
pub fn parse(buf: &[u8], twelve: bool) -> ParseResult<DefectList> {
    let h = header_len(twelve);
    if buf.len() < h {
        return Err(ParseError::new(
            "READ DEFECT DATA",
            format!("{} bytes, shorter than the {h}-byte header", buf.len()),
        ));
    }
    let format = DefectFormat::from_code(buf[1]);
    let list_length = list_length(buf, twelve).unwrap_or(0);
    let mut problems = Vec::new();
    let mut defects = Vec::new();
    let mut count = 0;
    match format.descriptor_len() {
        None => problems.push("DEFECT LIST FORMAT 111b is reserved".into()),
        Some(n) => {
            count = list_length / n as u64;
            if list_length % n as u64 != 0 {
                problems.push(format!(
                    "DEFECT LIST LENGTH {list_length} is not a multiple of the {n}-byte {} descriptor",
                    format.name()
                ));
            }
            let avail = &buf[h..];
            let want = usize::try_from(list_length).unwrap_or(usize::MAX);
            if avail.len() < want {
                problems.push(format!(
                    "{} of {list_length} bytes of descriptors returned",
                    avail.len()
                ));
            }
            for d in avail[..avail.len().min(want)].chunks_exact(n) {
                defects.push(descriptor(format, d));
            }
        }
    }
    Ok(DefectList {
        plist_valid: buf[1] & 0x10 != 0,
        glist_valid: buf[1] & 0x08 != 0,
        format,
        format_name: format.name(),
        list_length,
        count,
        generation: twelve.then(|| u16::from_be_bytes([buf[2], buf[3]])),
        defects,
        problems,
    })
}

fn descriptor(f: DefectFormat, d: &[u8]) -> Defect {
    let be32 = |o: usize| u32::from_be_bytes([d[o], d[o + 1], d[o + 2], d[o + 3]]);
    match f {
        DefectFormat::ShortBlock => Defect::Lba {
            lba: u64::from(be32(0)),
        },
        DefectFormat::LongBlock => Defect::Lba {
            lba: (u64::from(be32(0)) << 32) | u64::from(be32(4)),
        },
        DefectFormat::Vendor => Defect::Vendor { value: be32(0) },
        DefectFormat::ExtendedBytesFromIndex | DefectFormat::ExtendedPhysicalSector => {
            Defect::Chs {
                cylinder: u32::from_be_bytes([0, d[0], d[1], d[2]]),
                head: d[3],
                position: be32(4) & 0x0FFF_FFFF,
                mads: d[4] & 0x80 != 0,
            }
        }
        _ => Defect::Chs {
            cylinder: u32::from_be_bytes([0, d[0], d[1], d[2]]),
            head: d[3],
            position: be32(4),
            mads: false,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SBC-5 READ DEFECT DATA (10)/(12) CDB tables.
    #[test]
    fn cdbs_from_the_tables() {
        let g = ReadDefectData10Cdb::new(DefectFormat::LongBlock, 0x200).glist(true);
        assert_eq!(g.build(), [0x37, 0, 0x0b, 0, 0, 0, 0, 0x02, 0, 0]);
        let p = ReadDefectData10Cdb::new(DefectFormat::BytesFromIndex, 4).plist(true);
        assert_eq!(p.build(), [0x37, 0, 0x14, 0, 0, 0, 0, 0, 4, 0]);
        assert_eq!(
            ReadDefectData12Cdb::new(DefectFormat::LongBlock, 0x10000)
                .glist(true)
                .address_descriptor_index(5)
                .build(),
            [0xb7, 0x0b, 0, 0, 0, 5, 0, 1, 0, 0, 0, 0]
        );
    }

    #[test]
    fn formats_decode() {
        // (10), GLISTV, short block, two LBAs.
        let b = [0, 0x08, 0, 8, 0, 0, 0x12, 0x34, 0xff, 0xff, 0xff, 0xfe];
        let l = parse(&b, false).unwrap();
        assert!(l.glist_valid && !l.plist_valid);
        assert_eq!(l.count, 2);
        assert_eq!(
            l.defects,
            [
                Defect::Lba { lba: 0x1234 },
                Defect::Lba { lba: 0xffff_fffe }
            ]
        );
        // (12), PLISTV, bytes from index: cylinder 0x010203, head 4, bytes 0x05060708.
        let b = [0, 0x14, 0, 7, 0, 0, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8];
        let l = parse(&b, true).unwrap();
        assert_eq!(l.generation, Some(7));
        assert_eq!(
            l.defects,
            [Defect::Chs {
                cylinder: 0x010203,
                head: 4,
                position: 0x05060708,
                mads: false
            }]
        );
        // Extended physical sector: MADS in byte 4 bit 7, 28-bit sector.
        let b = [0, 0x0a, 0, 8, 0, 0, 1, 2, 0x80, 0, 0, 9];
        let l = parse(&b, false).unwrap();
        assert_eq!(
            l.defects,
            [Defect::Chs {
                cylinder: 1,
                head: 2,
                position: 9,
                mads: true
            }]
        );
        // Long block, list cut short by the allocation: the one present, a problem listed.
        let b = [0, 0x0b, 0, 16, 0, 0, 0, 1, 0, 0, 0, 2];
        let l = parse(&b, false).unwrap();
        assert_eq!(l.count, 2);
        assert_eq!(l.defects, [Defect::Lba { lba: 0x1_0000_0002 }]);
        assert_eq!(l.problems.len(), 1);
        assert!(parse(&[0, 0x08], false).is_err());
        // A length that is not a multiple of the descriptor.
        let l = parse(&[0, 0x08, 0, 6, 0, 0, 0, 1, 0, 0], false).unwrap();
        assert_eq!(l.defects.len(), 1);
        assert!(!l.problems.is_empty());
    }
}
