//! SBC-4 5.16/5.17 READ(10)/(16) and 5.40/5.41 WRITE(10)/(16): CDB builders.
//!
//! Used by sanitize verification (sampled reads) and tests. Layout: SBC-4 Tables 75, 77, 102,
//! 104 (also sg3_utils `lib/sg_cmds_basic.c` `sg_ll_readcap`-style helpers and `sg_dd`).

use crate::bytes::{Bytes, ParseError, ParseResult};
use crate::error::{Invalid, Result};

/// READ(10) operation code.
pub const READ_10: u8 = 0x28;
/// READ(16) operation code.
pub const READ_16: u8 = 0x88;
/// WRITE(10) operation code.
pub const WRITE_10: u8 = 0x2A;
/// WRITE(16) operation code.
pub const WRITE_16: u8 = 0x8A;

/// Options common to READ and WRITE CDBs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RwFlags {
    /// RDPROTECT/WRPROTECT, byte 1 bits 7-5 (0 = no PI checking requested).
    pub protect: u8,
    /// DPO: disable page out (do not cache).
    pub dpo: bool,
    /// FUA: force unit access (read from / write to the medium).
    pub fua: bool,
    /// GROUP NUMBER (low 5 or 6 bits of byte 6 / 14).
    pub group: u8,
}

impl RwFlags {
    fn byte1(&self) -> u8 {
        ((self.protect & 0x7) << 5) | (u8::from(self.dpo) << 4) | (u8::from(self.fua) << 3)
    }
}

fn build10(op: u8, lba: u64, blocks: u32, f: RwFlags) -> Result<[u8; 10]> {
    let lba = u32::try_from(lba).map_err(|_| Invalid::LbaNeeds16 { lba })?;
    let blocks = u16::try_from(blocks).map_err(|_| Invalid::BlocksExceed10 { blocks })?;
    let mut c = [0u8; 10];
    c[0] = op;
    c[1] = f.byte1();
    c[2..6].copy_from_slice(&lba.to_be_bytes());
    c[6] = f.group & 0x1f;
    c[7..9].copy_from_slice(&blocks.to_be_bytes());
    Ok(c)
}

fn build16(op: u8, lba: u64, blocks: u32, f: RwFlags) -> [u8; 16] {
    let mut c = [0u8; 16];
    c[0] = op;
    c[1] = f.byte1();
    c[2..10].copy_from_slice(&lba.to_be_bytes());
    c[10..14].copy_from_slice(&blocks.to_be_bytes());
    c[14] = f.group & 0x3f;
    c
}

/// READ(10): LBA ≤ 2^32−1, ≤ 65535 blocks.
pub fn read10(lba: u64, blocks: u32, f: RwFlags) -> Result<[u8; 10]> {
    build10(READ_10, lba, blocks, f)
}

/// READ(16).
pub fn read16(lba: u64, blocks: u32, f: RwFlags) -> [u8; 16] {
    build16(READ_16, lba, blocks, f)
}

/// WRITE(10): LBA ≤ 2^32−1, ≤ 65535 blocks.
pub fn write10(lba: u64, blocks: u32, f: RwFlags) -> Result<[u8; 10]> {
    build10(WRITE_10, lba, blocks, f)
}

/// WRITE(16).
pub fn write16(lba: u64, blocks: u32, f: RwFlags) -> [u8; 16] {
    build16(WRITE_16, lba, blocks, f)
}

/// VARIABLE LENGTH CDB operation code (READ(32)/WRITE(32) and other 32-byte commands).
pub const VARIABLE_LENGTH: u8 = 0x7F;
/// READ(32) service action.
pub(crate) const READ_32_SA: u16 = 0x0009;
/// WRITE(32) service action.
pub(crate) const WRITE_32_SA: u16 = 0x000B;

/// SBC-4 5.18 READ(32) / 5.43 WRITE(32) (Tables 80, 107): the commands a drive formatted
/// with protection type 2 accepts. `ref_tag` is the EXPECTED INITIAL LOGICAL BLOCK
/// REFERENCE TAG (the low 32 bits of the LBA, as Linux sd uses); application tag and mask 0.
fn build32(sa: u16, lba: u64, blocks: u32, ref_tag: u32, f: RwFlags) -> [u8; 32] {
    let mut c = [0u8; 32];
    c[0] = VARIABLE_LENGTH;
    c[6] = f.group & 0x1f;
    c[7] = 0x18; // ADDITIONAL CDB LENGTH
    c[8..10].copy_from_slice(&sa.to_be_bytes());
    c[10] = f.byte1();
    c[12..20].copy_from_slice(&lba.to_be_bytes());
    c[20..24].copy_from_slice(&ref_tag.to_be_bytes());
    c[28..32].copy_from_slice(&blocks.to_be_bytes());
    c
}

/// READ(32).
#[doc(alias = "sg_ll_read32")]
pub fn read32(lba: u64, blocks: u32, f: RwFlags) -> [u8; 32] {
    build32(READ_32_SA, lba, blocks, lba as u32, f)
}

/// WRITE(32).
pub fn write32(lba: u64, blocks: u32, f: RwFlags) -> [u8; 32] {
    build32(WRITE_32_SA, lba, blocks, lba as u32, f)
}

/// A decoded READ/WRITE CDB: `(is_write, lba, blocks)`.
pub fn parse(cdb: &[u8]) -> ParseResult<(bool, u64, u32)> {
    let b = Bytes::new(cdb, "READ/WRITE CDB");
    match b.u8(0)? {
        READ_10 | WRITE_10 => {
            b.need(10)?;
            Ok((
                b.u8(0)? == WRITE_10,
                u64::from(b.be32(2)?),
                u32::from(b.be16(7)?),
            ))
        }
        READ_16 | WRITE_16 => {
            b.need(16)?;
            Ok((b.u8(0)? == WRITE_16, b.be64(2)?, b.be32(10)?))
        }
        op => Err(ParseError::new(
            "READ/WRITE CDB",
            format!("0x{op:02x} is not READ/WRITE(10/16)"),
        )),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn read32_write32_bytes() {
        let c = super::read32(0x0102_0304_0506_0708, 0x10, super::RwFlags::default());
        assert_eq!(&c[..12], &[0x7F, 0, 0, 0, 0, 0, 0, 0x18, 0x00, 0x09, 0, 0]);
        assert_eq!(&c[12..20], &[1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(
            &c[20..24],
            &[5, 6, 7, 8],
            "expected initial reference tag = LBA low 32"
        );
        assert_eq!(&c[24..28], &[0; 4]);
        assert_eq!(&c[28..32], &[0, 0, 0, 0x10]);
        let w = super::write32(
            7,
            1,
            super::RwFlags {
                protect: 1,
                ..Default::default()
            },
        );
        assert_eq!((w[8], w[9], w[10]), (0x00, 0x0B, 0x20));
        assert_eq!(w.len(), 32);
    }

    use super::*;

    /// `sg_dd`-style READ(10) of 8 blocks at LBA 0x12345678.
    #[test]
    fn read10_bytes() {
        let c = read10(0x1234_5678, 8, RwFlags::default()).unwrap();
        assert_eq!(c, [0x28, 0, 0x12, 0x34, 0x56, 0x78, 0, 0, 0x08, 0]);
    }

    #[test]
    fn read16_fua_beyond_32_bits() {
        let f = RwFlags {
            fua: true,
            ..Default::default()
        };
        let c = read16(0x1_0000_0000, 1, f);
        assert_eq!(
            c,
            [0x88, 0x08, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x01, 0, 0]
        );
        assert_eq!(parse(&c).unwrap(), (false, 0x1_0000_0000, 1));
    }

    #[test]
    fn write_cdbs() {
        let c = write10(7, 1, RwFlags::default()).unwrap();
        assert_eq!(c, [0x2A, 0, 0, 0, 0, 7, 0, 0, 1, 0]);
        let f = RwFlags {
            protect: 1,
            dpo: true,
            ..Default::default()
        };
        let c = write16(0xAABB, 0x10000, f);
        assert_eq!(
            c,
            [0x8A, 0x30, 0, 0, 0, 0, 0, 0, 0xAA, 0xBB, 0, 0x01, 0, 0, 0, 0]
        );
        assert_eq!(parse(&c).unwrap(), (true, 0xAABB, 0x10000));
    }

    #[test]
    fn ten_byte_limits() {
        assert!(read10(1 << 32, 1, RwFlags::default()).is_err());
        assert!(write10(0, 65536, RwFlags::default()).is_err());
        assert!(parse(&[0x28, 0, 0]).is_err());
        assert!(parse(&[0x12; 16]).is_err());
        assert!(parse(&[]).is_err());
    }
}
