//! SBC-4 5.20 READ CAPACITY (10) (0x25) and SBC-4 5.21 READ CAPACITY (16) (SERVICE ACTION IN
//! 0x9E, service action 0x10).
//!
//! Byte offsets: protocols.md §C.4 (sources: sg3_utils `src/sg_readcap.c`/`sg_format.c`
//! `print_read_cap`, Seagate SCSI Commands Reference Manual Rev J p. 159).

use crate::bytes::{ParseError, ParseResult};
use serde::Serialize;
use zerocopy::byteorder::big_endian::{U16, U32, U64};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// READ CAPACITY (10) operation code.
pub(crate) const OPCODE_10: u8 = crate::scsi::opcodes::code::READ_CAPACITY_10;
/// SERVICE ACTION IN (16) operation code.
pub(crate) const OPCODE_16: u8 = crate::scsi::opcodes::code::SERVICE_ACTION_IN_16;
/// READ CAPACITY (16) service action.
pub const SA_READ_CAPACITY_16: u8 = 0x10;
/// Length of READ CAPACITY (16) parameter data.
pub const LEN_16: usize = 32;

crate::scsi::cdb::cdb_builder! {
    /// SBC-4 5.20.1 READ CAPACITY (10) CDB (10 bytes; LBA and PMI are obsolete and left zero).
    #[doc(alias = "sg_ll_readcap_10")]
    pub struct ReadCapacity10Cdb {
        ;;
    }
}

impl ReadCapacity10Cdb {
    /// READ CAPACITY (10) operation code.
    pub const OPCODE: u8 = OPCODE_10;

    /// The 10 CDB bytes.
    pub fn build(&self) -> [u8; 10] {
        [OPCODE_10, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    }
}

crate::scsi::cdb::cdb_builder! {
    /// SBC-4 5.21.1 READ CAPACITY (16) CDB (SERVICE ACTION IN (16), 16 bytes).
    #[doc(alias = "sg_ll_readcap_16")]
    pub struct ReadCapacity16Cdb {
        /// ALLOCATION LENGTH, bytes 10–13 ([`LEN_16`] for the whole parameter data).
        alloc_len: u32,
        ;;
    }
}

impl ReadCapacity16Cdb {
    /// SERVICE ACTION IN (16) operation code.
    pub const OPCODE: u8 = OPCODE_16;
    /// READ CAPACITY (16) service action, byte 1 bits 4-0.
    pub const SERVICE_ACTION: u8 = SA_READ_CAPACITY_16;

    /// The 16 CDB bytes.
    pub fn build(&self) -> [u8; 16] {
        let a = self.alloc_len.to_be_bytes();
        [
            OPCODE_16,
            SA_READ_CAPACITY_16,
            0,
            0,
            0,
            0,
            0,
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

#[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
struct Rc10Raw {
    last_lba: U32,
    block_len: U32,
}
const _: () = assert!(core::mem::size_of::<Rc10Raw>() == 8);

#[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
struct Rc16Raw {
    last_lba: U64,
    block_len: U32,
    b12: u8,
    b13: u8,
    b14_15: U16,
}
const _: () = assert!(core::mem::size_of::<Rc16Raw>() == 16);

/// READ CAPACITY (10) parameter data (SBC-4 Table 118).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReadCapacity10 {
    /// RETURNED LOGICAL BLOCK ADDRESS: the last LBA (0xFFFFFFFF: too big, use the 16 form).
    pub last_lba: u32,
    /// Logical block length in bytes.
    pub block_len: u32,
    /// Number of logical blocks (last LBA + 1); `None` when the 16-byte form is needed.
    pub lba_count: Option<u64>,
    /// Capacity in bytes, when known.
    pub size_bytes: Option<u64>,
}

/// Parses READ CAPACITY (10) data (8 bytes).
pub fn parse10(buf: &[u8]) -> ParseResult<ReadCapacity10> {
    let (r, _) = Rc10Raw::ref_from_prefix(buf).map_err(|_| {
        ParseError::new(
            "READ CAPACITY(10) data",
            format!("truncated: need 8 bytes, have {}", buf.len()),
        )
    })?;
    let last = r.last_lba.get();
    let len = r.block_len.get();
    let count = (last != u32::MAX).then(|| u64::from(last) + 1);
    Ok(ReadCapacity10 {
        last_lba: last,
        block_len: len,
        lba_count: count,
        size_bytes: count.map(|c| c * u64::from(len)),
    })
}

/// READ CAPACITY (16) parameter data (SBC-4 Table 121).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReadCapacity16 {
    /// Bytes 0–7: the last LBA.
    pub last_lba: u64,
    /// Number of logical blocks (last LBA + 1).
    pub lba_count: u64,
    /// Bytes 8–11: logical block length in bytes (user data; PI bytes excluded).
    pub block_len: u32,
    /// `lba_count * block_len` (saturating).
    pub size_bytes: u64,
    /// Byte 12 bits 5-4 RC BASIS (0: last LBA of a reduced capacity, 1: of the whole LU).
    pub rc_basis: u8,
    /// Byte 12 bits 3-1 P_TYPE (protection type − 1, when PROT_EN).
    pub p_type: u8,
    /// Byte 12 bit 0 PROT_EN.
    pub prot_en: bool,
    /// T10 PI type (0 when PROT_EN is clear, else P_TYPE + 1).
    pub protection_type: u8,
    /// Byte 13 bits 7-4 P_I_EXPONENT: 2^x protection intervals per logical block.
    pub p_i_exponent: u8,
    /// Byte 13 bits 3-0 LOGICAL BLOCKS PER PHYSICAL BLOCK EXPONENT.
    pub lb_per_pb_exponent: u8,
    /// Physical block length: block_len << lb_per_pb_exponent.
    pub physical_block_len: u64,
    /// Byte 14 bit 7 LBPME (logical block provisioning management enabled: thin/UNMAP).
    pub lbpme: bool,
    /// Byte 14 bit 6 LBPRZ (unmapped blocks read as zeros).
    pub lbprz: bool,
    /// Byte 14 bits 5-0 and byte 15: LOWEST ALIGNED LOGICAL BLOCK ADDRESS.
    pub lowest_aligned_lba: u16,
}

/// Parses READ CAPACITY (16) data. The 16 bytes after offset 16 are reserved and may be
/// absent if the allocation length was short; the first 16 are required.
pub fn parse16(buf: &[u8]) -> ParseResult<ReadCapacity16> {
    let (r, _) = Rc16Raw::ref_from_prefix(buf).map_err(|_| {
        ParseError::new(
            "READ CAPACITY(16) data",
            format!("truncated: need 16 bytes, have {}", buf.len()),
        )
    })?;
    let last = r.last_lba.get();
    let len = r.block_len.get();
    let count = last.saturating_add(1);
    let prot_en = r.b12 & 0x01 != 0;
    let p_type = (r.b12 >> 1) & 0x07;
    let exp = r.b13 & 0x0f;
    Ok(ReadCapacity16 {
        last_lba: last,
        lba_count: count,
        block_len: len,
        size_bytes: count.saturating_mul(u64::from(len)),
        rc_basis: (r.b12 >> 4) & 0x03,
        p_type,
        prot_en,
        protection_type: if prot_en { p_type + 1 } else { 0 },
        p_i_exponent: r.b13 >> 4,
        lb_per_pb_exponent: exp,
        physical_block_len: u64::from(len) << exp,
        lbpme: r.b14_15.get() & 0x8000 != 0,
        lbprz: r.b14_15.get() & 0x4000 != 0,
        lowest_aligned_lba: r.b14_15.get() & 0x3fff,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cdbs() {
        assert_eq!(
            ReadCapacity10Cdb::new().build(),
            [0x25, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        );
        assert_eq!(
            ReadCapacity16Cdb::new(32).build(),
            [0x9e, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0]
        );
    }

    #[test]
    fn rc10_overflow_marker() {
        let r = parse10(&[0xff, 0xff, 0xff, 0xff, 0, 0, 2, 0]).unwrap();
        assert_eq!(r.lba_count, None);
        assert_eq!(r.block_len, 512);
        assert!(parse10(&[0; 7]).is_err());
    }

    #[test]
    fn rc16_fields() {
        // 512e drive with type 2 PI, LBPME+LBPRZ, lowest aligned 0x12 (hand-built from SBC-4
        // Table 121; real captures are in tests/it/commands_fixtures.rs).
        let b = [
            0, 0, 0, 0, 0x74, 0x70, 0x6d, 0xaf, 0, 0, 2, 0, 0x13, 0x23, 0xc0, 0x12, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        ];
        let r = parse16(&b).unwrap();
        assert_eq!(r.lba_count, 0x7470_6db0);
        assert_eq!(r.rc_basis, 1);
        assert_eq!((r.prot_en, r.p_type, r.protection_type), (true, 1, 2));
        assert_eq!((r.p_i_exponent, r.lb_per_pb_exponent), (2, 3));
        assert_eq!(r.physical_block_len, 4096);
        assert!(r.lbpme && r.lbprz);
        assert_eq!(r.lowest_aligned_lba, 0x12);
        assert!(parse16(&b[..15]).is_err());
    }
}
