//! SBC-4 6.6.7 Supported Block Lengths and Protection Types VPD page (0xB4): one 8-byte
//! descriptor per logical block length the drive can be formatted to, with the protection
//! types and checks it supports at that length (protocols.md §C.3).
//!
//! Descriptor: bytes 0–3 LOGICAL BLOCK LENGTH; byte 4 bit 6 P_I_I_SUP, bit 3 NO_PI_CHK,
//! bit 2 GRD_CHK, bit 1 APP_CHK, bit 0 REF_CHK; byte 5 bit 3 T3PS, bit 2 T2PS, bit 1 T1PS,
//! bit 0 T0PS; bytes 6–7 reserved.

use crate::bytes::ParseResult;
use serde::Serialize;

/// One supported logical block length. A flag is `None` when the page ends before its byte.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BlockLengthDescriptor {
    /// Bytes 0–3 (user data bytes, PI excluded).
    pub logical_block_length: u32,
    /// Byte 4 bit 6: protection information interval (PIE > 0) supported.
    pub p_i_i_sup: Option<bool>,
    /// Byte 4 bit 3: no PI checking.
    pub no_pi_chk: Option<bool>,
    /// Byte 4 bit 2: guard check.
    pub grd_chk: Option<bool>,
    /// Byte 4 bit 1: application tag check.
    pub app_chk: Option<bool>,
    /// Byte 4 bit 0: reference tag check.
    pub ref_chk: Option<bool>,
    /// Byte 5 bit 3: type 3 protection supported at this length.
    pub t3ps: Option<bool>,
    /// Byte 5 bit 2: type 2.
    pub t2ps: Option<bool>,
    /// Byte 5 bit 1: type 1.
    pub t1ps: Option<bool>,
    /// Byte 5 bit 0: type 0 (no protection).
    pub t0ps: Option<bool>,
}

impl BlockLengthDescriptor {
    /// The protection types (0..=3) supported at this length.
    pub fn protection_types(&self) -> Vec<u8> {
        [self.t0ps, self.t1ps, self.t2ps, self.t3ps]
            .iter()
            .enumerate()
            .filter(|(_, s)| **s == Some(true))
            .map(|(i, _)| i as u8)
            .collect()
    }
}

/// Decoded page 0xB4.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SupportedBlockLengths {
    /// Descriptors in device order.
    pub descriptors: Vec<BlockLengthDescriptor>,
}

impl SupportedBlockLengths {
    /// The listed logical block lengths, in device order.
    pub fn lengths(&self) -> Vec<u32> {
        self.descriptors
            .iter()
            .map(|d| d.logical_block_length)
            .collect()
    }

    /// The descriptor for `len`, if listed.
    pub fn find(&self, len: u32) -> Option<&BlockLengthDescriptor> {
        self.descriptors
            .iter()
            .find(|d| d.logical_block_length == len)
    }
}

const WHAT: &str = "Supported block lengths and protection types VPD page";

/// Parses page 0xB4 (strict).
pub fn parse(buf: &[u8]) -> ParseResult<SupportedBlockLengths> {
    super::strict(WHAT, |p| decode(buf, p))
}

/// Decodes page 0xB4 as far as the bytes go; a trailing partial descriptor is a problem.
pub fn decode(buf: &[u8], problems: &mut Vec<String>) -> ParseResult<SupportedBlockLengths> {
    let (_, b) = super::body(buf, 0xb4, WHAT, problems)?;
    b.need(4)?;
    let list = b.rest(4);
    let descriptors = list
        .chunks(8)
        .filter(|c| c.len() >= 4)
        .map(|c| {
            let bit = |i: usize, m: u8| c.get(i).map(|b| b & m != 0);
            BlockLengthDescriptor {
                logical_block_length: u32::from_be_bytes([c[0], c[1], c[2], c[3]]),
                p_i_i_sup: bit(4, 0x40),
                no_pi_chk: bit(4, 0x08),
                grd_chk: bit(4, 0x04),
                app_chk: bit(4, 0x02),
                ref_chk: bit(4, 0x01),
                t3ps: bit(5, 0x08),
                t2ps: bit(5, 0x04),
                t1ps: bit(5, 0x02),
                t0ps: bit(5, 0x01),
            }
        })
        .collect();
    if list.len() % 8 != 0 {
        problems.push(format!(
            "{} trailing bytes do not make an 8-byte block length descriptor",
            list.len() % 8
        ));
    }
    Ok(SupportedBlockLengths { descriptors })
}

/// Builds page 0xB4 from (length, byte 4, byte 5) triples (for the virtual drive and tests).
pub fn build(descs: &[(u32, u8, u8)]) -> Vec<u8> {
    let mut v = vec![0u8, 0xb4, 0, 0];
    for (len, b4, b5) in descs {
        v.extend_from_slice(&len.to_be_bytes());
        v.extend_from_slice(&[*b4, *b5, 0, 0]);
    }
    let n = u16::try_from(v.len() - 4).unwrap_or(u16::MAX);
    v[2..4].copy_from_slice(&n.to_be_bytes());
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SBC-4 Table 264/265 layout: 512 with every check and types 0-3, 520 type 0 only.
    #[test]
    fn table_layout() {
        let buf = [
            0x00, 0xb4, 0x00, 0x10, 0, 0, 0x02, 0x00, 0x4f, 0x0f, 0, 0, 0, 0, 0x02, 0x08, 0x00,
            0x01, 0, 0,
        ];
        let p = parse(&buf).unwrap();
        assert_eq!(p.lengths(), vec![512, 520]);
        let d = &p.descriptors[0];
        let all = [d.p_i_i_sup, d.no_pi_chk, d.grd_chk, d.app_chk, d.ref_chk];
        assert!(all.iter().all(|f| *f == Some(true)));
        assert_eq!(d.protection_types(), vec![0, 1, 2, 3]);
        assert_eq!(p.find(520).unwrap().protection_types(), vec![0]);
        assert!(p.find(4096).is_none());
        assert_eq!(build(&[(512, 0x4f, 0x0f), (520, 0, 1)]), buf.to_vec());
    }

    #[test]
    fn truncated_and_odd_lengths() {
        let mut ps = Vec::new();
        // Page length 10: one descriptor and 2 stray bytes.
        let buf = [0, 0xb4, 0, 10, 0, 0, 2, 0, 0, 1, 0, 0, 0xff, 0xff];
        let p = decode(&buf, &mut ps).unwrap();
        assert_eq!(p.lengths(), vec![512]);
        assert_eq!(ps.len(), 1);
        // Cut inside a descriptor: the length and the flags whose byte is there.
        let buf = [0, 0xb4, 0, 5, 0, 0, 2, 0, 0x04];
        let p = decode(&buf, &mut Vec::new()).unwrap();
        assert_eq!(p.descriptors[0].grd_chk, Some(true));
        assert_eq!(p.descriptors[0].t0ps, None);
        assert!(p.descriptors[0].protection_types().is_empty());
        assert!(parse(&buf).is_err());
        // Page length says 16, only 8 present: decoded as far as the bytes go.
        let mut ps = Vec::new();
        let buf = [0, 0xb4, 0, 16, 0, 0, 2, 8, 0, 1, 0, 0];
        let p = decode(&buf, &mut ps).unwrap();
        assert_eq!(p.lengths(), vec![520]);
        assert!(ps.iter().any(|s| s.contains("truncated")));
        // Empty page: no lengths, no problem; garbage never panics.
        assert!(parse(&[0, 0xb4, 0, 0]).unwrap().descriptors.is_empty());
        for n in 0..40 {
            let junk: Vec<u8> = (0..n).map(|i| (i * 37) as u8).collect();
            let _ = decode(&junk, &mut Vec::new());
        }
    }
}
