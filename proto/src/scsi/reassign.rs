//! REASSIGN BLOCKS (SBC-5 5.33, opcode 07h): the drive moves each listed logical block to a
//! spare and adds its old location to the grown defect list (GLIST). CDB byte 1: LONGLBA
//! (bit 1, 8-byte descriptors), LONGLIST (bit 0, 4-byte DEFECT LIST LENGTH in bytes 0-3 of
//! the parameter list header instead of 2 bytes in bytes 2-3). The descriptors follow the
//! 4-byte header, in the order given.

use crate::error::{Error, Result};

/// Operation code.
pub const OPCODE: u8 = 0x07;

/// The most LBAs one command carries here (a 4-byte LONGLIST length would allow more; a
/// drive's spare pool is far smaller).
pub(crate) const MAX_LBAS: usize = 65_536;

/// The CDB and parameter list for `lbas`: 4-byte descriptors unless an LBA needs more than
/// 32 bits (LONGLBA), the 2-byte length unless the list is longer than 65535 bytes
/// (LONGLIST), as sg_reassign chooses them.
pub fn build(lbas: &[u64]) -> Result<([u8; 6], Vec<u8>)> {
    if lbas.is_empty() || lbas.len() > MAX_LBAS {
        return Err(Error::InvalidArgument(format!(
            "REASSIGN BLOCKS takes 1 to {MAX_LBAS} logical block addresses, not {}",
            lbas.len()
        )));
    }
    let long_lba = lbas.iter().any(|&l| l > u64::from(u32::MAX));
    let desc = if long_lba { 8 } else { 4 };
    let len = lbas.len() * desc;
    let long_list = len > 0xFFFF;
    let mut p = Vec::with_capacity(4 + len);
    let len32 = u32::try_from(len).unwrap_or(u32::MAX);
    if long_list {
        p.extend_from_slice(&len32.to_be_bytes());
    } else {
        p.extend_from_slice(&[0, 0]);
        p.extend_from_slice(&(len32 as u16).to_be_bytes());
    }
    for &l in lbas {
        if long_lba {
            p.extend_from_slice(&l.to_be_bytes());
        } else {
            p.extend_from_slice(&(l as u32).to_be_bytes());
        }
    }
    let cdb = ReassignBlocksCdb::new()
        .longlba(long_lba)
        .longlist(long_list)
        .build();
    Ok((cdb, p))
}

crate::scsi::cdb::cdb_builder! {
    /// SBC-5 5.33 REASSIGN BLOCKS CDB (6 bytes); [`build`] chooses the bits for a list of LBAs.
    #[doc(alias = "sg_reassign")]
    pub struct ReassignBlocksCdb {
        ;;
        /// LONGLBA, byte 1 bit 1: 8-byte descriptors.
        longlba: bool = false,
        /// LONGLIST, byte 1 bit 0: 4-byte DEFECT LIST LENGTH.
        longlist: bool = false,
    }
}

impl ReassignBlocksCdb {
    /// REASSIGN BLOCKS operation code.
    pub const OPCODE: u8 = OPCODE;

    /// The 6 CDB bytes.
    pub fn build(&self) -> [u8; 6] {
        [
            OPCODE,
            (u8::from(self.longlba) << 1) | u8::from(self.longlist),
            0,
            0,
            0,
            0,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SBC-5 5.33 Tables "REASSIGN BLOCKS command" and "REASSIGN BLOCKS parameter list
    /// header": short descriptors with the 2-byte DEFECT LIST LENGTH in bytes 2-3.
    #[test]
    fn short_list() {
        let (c, p) = build(&[3000, 3001]).unwrap();
        assert_eq!(c, [0x07, 0, 0, 0, 0, 0]);
        assert_eq!(p, [0, 0, 0, 8, 0, 0, 0x0b, 0xb8, 0, 0, 0x0b, 0xb9].to_vec());
    }

    /// LONGLBA: an LBA beyond 32 bits makes every descriptor 8 bytes.
    #[test]
    fn long_lba() {
        let (c, p) = build(&[1, 0x1_0000_0000]).unwrap();
        assert_eq!(c[1], 0x02);
        assert_eq!(&p[..4], &[0, 0, 0, 16]);
        assert_eq!(&p[4..12], &[0, 0, 0, 0, 0, 0, 0, 1]);
        assert_eq!(&p[12..20], &[0, 0, 0, 1, 0, 0, 0, 0]);
    }

    /// LONGLIST: a list longer than 65535 bytes carries its length in bytes 0-3.
    #[test]
    fn long_list() {
        let lbas: Vec<u64> = (0..16_384).collect();
        let (c, p) = build(&lbas).unwrap();
        assert_eq!(c[1], 0x01);
        assert_eq!(&p[..4], &65_536u32.to_be_bytes());
        assert_eq!(p.len(), 4 + 65_536);
        assert!(build(&[]).is_err());
        assert!(build(&vec![0; MAX_LBAS + 1]).is_err());
    }
}
