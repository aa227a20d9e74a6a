//! SBC-4 5.16/5.17 READ(10)/(16) and 5.40/5.41 WRITE(10)/(16): CDB builders.
//!
//! Used by sanitize verification (sampled reads) and tests. Layout: SBC-4 Tables 75, 77, 102,
//! 104 (also sg3_utils `lib/sg_cmds_basic.c` `sg_ll_readcap`-style helpers and `sg_dd`).

use crate::bytes::{Bytes, ParseError, ParseResult};

/// READ(10) operation code.
pub const READ_10: u8 = 0x28;
/// READ(16) operation code.
pub const READ_16: u8 = 0x88;
/// WRITE(10) operation code.
pub const WRITE_10: u8 = 0x2A;
/// WRITE(16) operation code.
pub const WRITE_16: u8 = 0x8A;

/// VARIABLE LENGTH CDB operation code (READ(32)/WRITE(32) and other 32-byte commands).
pub const VARIABLE_LENGTH: u8 = 0x7F;
/// READ(32) service action.
pub(crate) const READ_32_SA: u16 = 0x0009;
/// WRITE(32) service action.
pub(crate) const WRITE_32_SA: u16 = 0x000B;

/// Byte 1 of (10)/(16), byte 10 of (32): RDPROTECT/WRPROTECT (7-5), DPO (4), FUA (3).
fn protect_byte(protect: u8, dpo: bool, fua: bool) -> u8 {
    ((protect & 0x7) << 5) | (u8::from(dpo) << 4) | (u8::from(fua) << 3)
}

fn build10(op: u8, lba: u32, blocks: u16, b1: u8, group: u8) -> [u8; 10] {
    let mut c = [0u8; 10];
    c[0] = op;
    c[1] = b1;
    c[2..6].copy_from_slice(&lba.to_be_bytes());
    c[6] = group & 0x1f;
    c[7..9].copy_from_slice(&blocks.to_be_bytes());
    c
}

fn build16(op: u8, lba: u64, blocks: u32, b1: u8, group: u8) -> [u8; 16] {
    let mut c = [0u8; 16];
    c[0] = op;
    c[1] = b1;
    c[2..10].copy_from_slice(&lba.to_be_bytes());
    c[10..14].copy_from_slice(&blocks.to_be_bytes());
    c[14] = group & 0x3f;
    c
}

/// SBC-4 5.18 READ(32) / 5.43 WRITE(32) (Tables 80, 107): the commands a drive formatted
/// with protection type 2 accepts; application tag and mask 0.
fn build32(sa: u16, lba: u64, blocks: u32, ref_tag: u32, b10: u8, group: u8) -> [u8; 32] {
    let mut c = [0u8; 32];
    c[0] = VARIABLE_LENGTH;
    c[6] = group & 0x1f;
    c[7] = 0x18; // ADDITIONAL CDB LENGTH
    c[8..10].copy_from_slice(&sa.to_be_bytes());
    c[10] = b10;
    c[12..20].copy_from_slice(&lba.to_be_bytes());
    c[20..24].copy_from_slice(&ref_tag.to_be_bytes());
    c[28..32].copy_from_slice(&blocks.to_be_bytes());
    c
}

/// Declares the six READ/WRITE builders: the same fields, their own operation code.
macro_rules! rw_cdb {
    ($(#[$m:meta])* $name:ident, $lba:ty, $blocks:ty, $group:literal) => {
        crate::scsi::cdb::cdb_builder! {
            $(#[$m])*
            pub struct $name {
                /// LOGICAL BLOCK ADDRESS.
                lba: $lba,
                /// TRANSFER LENGTH, in logical blocks.
                blocks: $blocks,
                ;;
                /// RDPROTECT/WRPROTECT (3 bits; 0 = no PI checking requested).
                protect: u8 = 0,
                /// DPO: disable page out (do not cache).
                dpo: bool = false,
                /// FUA: force unit access (read from / write to the medium).
                fua: bool = false,
                #[doc = concat!("GROUP NUMBER (low ", $group, " bits).")]
                group: u8 = 0,
            }
        }
    };
}

rw_cdb!(
    /// SBC-4 5.16 READ (10) CDB (Table 75): LBA up to 2^32−1, up to 65535 blocks.
    #[doc(alias = "sg_ll_read10")]
    Read10Cdb, u32, u16, "5"
);
rw_cdb!(
    /// SBC-4 5.17 READ (16) CDB (Table 77).
    #[doc(alias = "sg_ll_read16")]
    Read16Cdb, u64, u32, "6"
);
crate::scsi::cdb::cdb_builder! {
    /// SBC-4 5.18 READ (32) CDB (Table 80; VARIABLE LENGTH, service action 0009h).
    #[doc(alias = "sg_ll_read32")]
    pub struct Read32Cdb {
        /// LOGICAL BLOCK ADDRESS.
        lba: u64,
        /// TRANSFER LENGTH, in logical blocks.
        blocks: u32,
        ;;
        /// RDPROTECT (3 bits; 0 = no PI checking requested).
        protect: u8 = 0,
        /// DPO: disable page out (do not cache).
        dpo: bool = false,
        /// FUA: force unit access (read from / write to the medium).
        fua: bool = false,
        /// GROUP NUMBER (low 5 bits).
        group: u8 = 0,
        /// EXPECTED INITIAL LOGICAL BLOCK REFERENCE TAG, bytes 20-23 (default: the low 32
        /// bits of the LBA, as Linux sd sends it).
        expected_ref_tag: u32 = lba as u32,
    }
}
rw_cdb!(
    /// SBC-4 5.40 WRITE (10) CDB (Table 102): LBA up to 2^32−1, up to 65535 blocks.
    #[doc(alias = "sg_ll_write10")]
    Write10Cdb, u32, u16, "5"
);
rw_cdb!(
    /// SBC-4 5.41 WRITE (16) CDB (Table 104).
    #[doc(alias = "sg_ll_write16")]
    Write16Cdb, u64, u32, "6"
);
crate::scsi::cdb::cdb_builder! {
    /// SBC-4 5.43 WRITE (32) CDB (Table 107; VARIABLE LENGTH, service action 000Bh).
    #[doc(alias = "sg_ll_write32")]
    pub struct Write32Cdb {
        /// LOGICAL BLOCK ADDRESS.
        lba: u64,
        /// TRANSFER LENGTH, in logical blocks.
        blocks: u32,
        ;;
        /// WRPROTECT (3 bits; 0 = no PI checking requested).
        protect: u8 = 0,
        /// DPO: disable page out (do not cache).
        dpo: bool = false,
        /// FUA: force unit access (read from / write to the medium).
        fua: bool = false,
        /// GROUP NUMBER (low 5 bits).
        group: u8 = 0,
        /// EXPECTED INITIAL LOGICAL BLOCK REFERENCE TAG, bytes 20-23 (default: the low 32
        /// bits of the LBA, as Linux sd sends it).
        expected_ref_tag: u32 = lba as u32,
    }
}

impl Read10Cdb {
    /// READ (10) operation code.
    pub const OPCODE: u8 = READ_10;

    /// The 10 CDB bytes.
    pub fn build(&self) -> [u8; 10] {
        let b1 = protect_byte(self.protect, self.dpo, self.fua);
        build10(READ_10, self.lba, self.blocks, b1, self.group)
    }
}

impl Read16Cdb {
    /// READ (16) operation code.
    pub const OPCODE: u8 = READ_16;

    /// The 16 CDB bytes.
    pub fn build(&self) -> [u8; 16] {
        let b1 = protect_byte(self.protect, self.dpo, self.fua);
        build16(READ_16, self.lba, self.blocks, b1, self.group)
    }
}

impl Read32Cdb {
    /// VARIABLE LENGTH operation code.
    pub const OPCODE: u8 = VARIABLE_LENGTH;
    /// READ (32) service action, bytes 8-9.
    pub const SERVICE_ACTION: u16 = READ_32_SA;

    /// The 32 CDB bytes.
    pub fn build(&self) -> [u8; 32] {
        let b10 = protect_byte(self.protect, self.dpo, self.fua);
        let (lba, n, tag) = (self.lba, self.blocks, self.expected_ref_tag);
        build32(READ_32_SA, lba, n, tag, b10, self.group)
    }
}

impl Write10Cdb {
    /// WRITE (10) operation code.
    pub const OPCODE: u8 = WRITE_10;

    /// The 10 CDB bytes.
    pub fn build(&self) -> [u8; 10] {
        let b1 = protect_byte(self.protect, self.dpo, self.fua);
        build10(WRITE_10, self.lba, self.blocks, b1, self.group)
    }
}

impl Write16Cdb {
    /// WRITE (16) operation code.
    pub const OPCODE: u8 = WRITE_16;

    /// The 16 CDB bytes.
    pub fn build(&self) -> [u8; 16] {
        let b1 = protect_byte(self.protect, self.dpo, self.fua);
        build16(WRITE_16, self.lba, self.blocks, b1, self.group)
    }
}

impl Write32Cdb {
    /// VARIABLE LENGTH operation code.
    pub const OPCODE: u8 = VARIABLE_LENGTH;
    /// WRITE (32) service action, bytes 8-9.
    pub const SERVICE_ACTION: u16 = WRITE_32_SA;

    /// The 32 CDB bytes.
    pub fn build(&self) -> [u8; 32] {
        let b10 = protect_byte(self.protect, self.dpo, self.fua);
        let (lba, n, tag) = (self.lba, self.blocks, self.expected_ref_tag);
        build32(WRITE_32_SA, lba, n, tag, b10, self.group)
    }
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
    use super::*;

    #[test]
    fn read32_write32_bytes() {
        let c = Read32Cdb::new(0x0102_0304_0506_0708, 0x10).build();
        assert_eq!(&c[..12], &[0x7F, 0, 0, 0, 0, 0, 0, 0x18, 0x00, 0x09, 0, 0]);
        assert_eq!(&c[12..20], &[1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(
            &c[20..24],
            &[5, 6, 7, 8],
            "expected initial reference tag = LBA low 32"
        );
        assert_eq!(&c[24..28], &[0; 4]);
        assert_eq!(&c[28..32], &[0, 0, 0, 0x10]);
        let w = Write32Cdb::new(7, 1).protect(1).build();
        assert_eq!((w[8], w[9], w[10]), (0x00, 0x0B, 0x20));
        assert_eq!(w.len(), 32);
    }

    /// `sg_dd`-style READ(10) of 8 blocks at LBA 0x12345678.
    #[test]
    fn read10_bytes() {
        let c = Read10Cdb::new(0x1234_5678, 8).build();
        assert_eq!(c, [0x28, 0, 0x12, 0x34, 0x56, 0x78, 0, 0, 0x08, 0]);
    }

    #[test]
    fn read16_fua_beyond_32_bits() {
        let c = Read16Cdb::new(0x1_0000_0000, 1).fua(true).build();
        assert_eq!(
            c,
            [0x88, 0x08, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x01, 0, 0]
        );
        assert_eq!(parse(&c).unwrap(), (false, 0x1_0000_0000, 1));
    }

    #[test]
    fn write_cdbs() {
        let c = Write10Cdb::new(7, 1).build();
        assert_eq!(c, [0x2A, 0, 0, 0, 0, 7, 0, 0, 1, 0]);
        let c = Write16Cdb::new(0xAABB, 0x10000)
            .protect(1)
            .dpo(true)
            .build();
        assert_eq!(
            c,
            [0x8A, 0x30, 0, 0, 0, 0, 0, 0, 0xAA, 0xBB, 0, 0x01, 0, 0, 0, 0]
        );
        assert_eq!(parse(&c).unwrap(), (true, 0xAABB, 0x10000));
    }

    #[test]
    fn parse_limits() {
        assert!(parse(&[0x28, 0, 0]).is_err());
        assert!(parse(&[0x12; 16]).is_err());
        assert!(parse(&[]).is_err());
    }
}
