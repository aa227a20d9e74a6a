//! SPC-6 6.13/6.14 MODE SENSE (6) (0x1A) / (10) (0x5A) and SPC-6 6.11/6.12 MODE SELECT (6)
//! (0x15) / (10) (0x55): CDB builders, the mode parameter list parser (header, short and long
//! LBA block descriptors, pages) and the MODE SELECT parameter list builder used to change the
//! logical block size (protocols.md §C.5; sources: sg3_utils `src/sg_format.c`
//! `fetch_block_desc`, sdparm page tables).
//!
//! Decoded pages: 0x01 Read-Write Error Recovery (SBC-4 7.5.9), 0x08 Caching (SBC-4 7.5.5),
//! 0x0A Control (SPC-6 7.5.8), 0x19 SAS Protocol-Specific Port (SPL-4 9.2.7: short format,
//! subpage 0x01 Phy Control And Discover, 0x02 Shared Port Control), 0x1C Informational
//! Exceptions Control (SPC-6 7.5.12). Other pages are kept as raw bytes.

pub mod fields;
mod pages;

use crate::bytes::{hex, Bytes, ParseError, ParseResult};
use crate::error::{Error, Invalid, Result};
use serde::Serialize;

pub use pages::*;

/// MODE SENSE (6) operation code.
pub(crate) const OPCODE_SENSE_6: u8 = crate::scsi::opcodes::code::MODE_SENSE_6;
/// MODE SENSE (10) operation code.
pub(crate) const OPCODE_SENSE_10: u8 = crate::scsi::opcodes::code::MODE_SENSE_10;
/// MODE SELECT (6) operation code.
pub const OPCODE_SELECT_6: u8 = crate::scsi::opcodes::code::MODE_SELECT_6;
/// MODE SELECT (10) operation code.
pub(crate) const OPCODE_SELECT_10: u8 = crate::scsi::opcodes::code::MODE_SELECT_10;
/// Page code asking for all pages.
pub const ALL_PAGES: u8 = 0x3f;
/// Subpage code asking for all subpages.
pub const ALL_SUBPAGES: u8 = 0xff;

/// PAGE CONTROL field (SPC-6 Table 172).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PageControl {
    /// 00b current values.
    Current = 0,
    /// 01b changeable values (a mask).
    Changeable = 1,
    /// 10b default values.
    Default = 2,
    /// 11b saved values.
    Saved = 3,
}

crate::scsi::cdb::cdb_builder! {
    /// SPC-6 6.13 MODE SENSE (6) CDB (6 bytes).
    #[doc(alias = "sg_ll_mode_sense6")]
    pub struct ModeSense6Cdb {
        /// PAGE CODE, byte 2 bits 5-0 ([`ALL_PAGES`] for all).
        page_code: u8,
        /// ALLOCATION LENGTH, byte 4.
        alloc_len: u8,
        ;;
        /// SUBPAGE CODE, byte 3 ([`ALL_SUBPAGES`] for all).
        subpage_code: u8 = 0,
        /// PC, byte 2 bits 7-6.
        pc: PageControl = PageControl::Current,
        /// DBD, byte 1 bit 3: no block descriptors.
        dbd: bool = false,
    }
}

impl ModeSense6Cdb {
    /// MODE SENSE (6) operation code.
    pub const OPCODE: u8 = OPCODE_SENSE_6;

    /// The 6 CDB bytes.
    pub fn build(&self) -> [u8; 6] {
        [
            OPCODE_SENSE_6,
            if self.dbd { 0x08 } else { 0 },
            (self.pc as u8) << 6 | (self.page_code & 0x3f),
            self.subpage_code,
            self.alloc_len,
            0,
        ]
    }
}

crate::scsi::cdb::cdb_builder! {
    /// SPC-6 6.14 MODE SENSE (10) CDB (10 bytes).
    #[doc(alias = "sg_ll_mode_sense10")]
    pub struct ModeSense10Cdb {
        /// PAGE CODE, byte 2 bits 5-0 ([`ALL_PAGES`] for all).
        page_code: u8,
        /// ALLOCATION LENGTH, bytes 7–8.
        alloc_len: u16,
        ;;
        /// SUBPAGE CODE, byte 3 ([`ALL_SUBPAGES`] for all).
        subpage_code: u8 = 0,
        /// PC, byte 2 bits 7-6.
        pc: PageControl = PageControl::Current,
        /// DBD, byte 1 bit 3: no block descriptors.
        dbd: bool = false,
        /// LLBAA, byte 1 bit 4: long LBA block descriptors accepted.
        llbaa: bool = false,
    }
}

impl ModeSense10Cdb {
    /// MODE SENSE (10) operation code.
    pub const OPCODE: u8 = OPCODE_SENSE_10;

    /// The 10 CDB bytes.
    pub fn build(&self) -> [u8; 10] {
        let a = self.alloc_len.to_be_bytes();
        [
            OPCODE_SENSE_10,
            if self.llbaa { 0x10 } else { 0 } | if self.dbd { 0x08 } else { 0 },
            (self.pc as u8) << 6 | (self.page_code & 0x3f),
            self.subpage_code,
            0,
            0,
            0,
            a[0],
            a[1],
            0,
        ]
    }
}

crate::scsi::cdb::cdb_builder! {
    /// SPC-6 6.11 MODE SELECT (6) CDB (6 bytes).
    #[doc(alias = "sg_ll_mode_select6")]
    pub struct ModeSelect6Cdb {
        /// PARAMETER LIST LENGTH, byte 4.
        parameter_list_length: u8,
        ;;
        /// PF, byte 1 bit 4: the pages follow the page format.
        pf: bool = false,
        /// SP, byte 1 bit 0: save the pages.
        sp: bool = false,
    }
}

impl ModeSelect6Cdb {
    /// MODE SELECT (6) operation code.
    pub const OPCODE: u8 = OPCODE_SELECT_6;

    /// The 6 CDB bytes.
    pub fn build(&self) -> [u8; 6] {
        [
            OPCODE_SELECT_6,
            if self.pf { 0x10 } else { 0 } | u8::from(self.sp),
            0,
            0,
            self.parameter_list_length,
            0,
        ]
    }
}

crate::scsi::cdb::cdb_builder! {
    /// SPC-6 6.12 MODE SELECT (10) CDB (10 bytes).
    #[doc(alias = "sg_ll_mode_select10")]
    pub struct ModeSelect10Cdb {
        /// PARAMETER LIST LENGTH, bytes 7–8.
        parameter_list_length: u16,
        ;;
        /// PF, byte 1 bit 4: the pages follow the page format.
        pf: bool = false,
        /// SP, byte 1 bit 0: save the pages.
        sp: bool = false,
    }
}

impl ModeSelect10Cdb {
    /// MODE SELECT (10) operation code.
    pub const OPCODE: u8 = OPCODE_SELECT_10;

    /// The 10 CDB bytes.
    pub fn build(&self) -> [u8; 10] {
        let l = self.parameter_list_length.to_be_bytes();
        [
            OPCODE_SELECT_10,
            if self.pf { 0x10 } else { 0 } | u8::from(self.sp),
            0,
            0,
            0,
            0,
            0,
            l[0],
            l[1],
            0,
        ]
    }
}

/// Mode parameter header (SPC-6 7.5.5: 4 bytes for the 6-byte commands, 8 for the 10-byte).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ModeHeader {
    /// MODE DATA LENGTH as reported (bytes after this field).
    pub mode_data_length: u16,
    /// MEDIUM TYPE (0 for disks).
    pub medium_type: u8,
    /// DEVICE-SPECIFIC PARAMETER, raw (disks: bit 7 WP, bit 4 DPOFUA).
    pub device_specific: u8,
    /// Write protected (device-specific bit 7, SBC-4 7.5.3).
    pub wp: bool,
    /// DPO and FUA supported (device-specific bit 4).
    pub dpofua: bool,
    /// LONGLBA (10-byte header byte 4 bit 0): block descriptors are 16 bytes.
    pub longlba: bool,
    /// BLOCK DESCRIPTOR LENGTH.
    pub block_descriptor_length: u16,
}

/// An LBA block descriptor (SBC-4 7.5.2): short (8 bytes) or long (16 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct BlockDescriptor {
    /// NUMBER OF LOGICAL BLOCKS (short form: 0xFFFFFFFF means "too many, ask with LLBAA").
    pub number_of_blocks: u64,
    /// LOGICAL BLOCK LENGTH.
    pub block_length: u32,
    /// True for the 16-byte form.
    pub long: bool,
}

impl BlockDescriptor {
    fn parse(b: &Bytes<'_>, off: usize, long: bool) -> ParseResult<BlockDescriptor> {
        Ok(if long {
            BlockDescriptor {
                number_of_blocks: b.be64(off)?,
                block_length: b.be32(off + 12)?,
                long,
            }
        } else {
            BlockDescriptor {
                number_of_blocks: u64::from(b.be32(off)?),
                block_length: b.be24(off + 5)?,
                long,
            }
        })
    }

    /// The descriptor's bytes. Fails if a value does not fit the short form.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        if self.long {
            let mut v = Vec::with_capacity(16);
            v.extend_from_slice(&self.number_of_blocks.to_be_bytes());
            v.extend_from_slice(&[0; 4]);
            v.extend_from_slice(&self.block_length.to_be_bytes());
            Ok(v)
        } else {
            let n = u32::try_from(self.number_of_blocks).map_err(|_| {
                Invalid::ShortDescriptorBlocks {
                    blocks: self.number_of_blocks,
                }
            })?;
            if self.block_length > 0x00ff_ffff {
                return Err(Invalid::DescriptorBlockLength {
                    block_length: self.block_length,
                }
                .into());
            }
            let mut v = n.to_be_bytes().to_vec();
            v.push(0);
            v.extend_from_slice(&self.block_length.to_be_bytes()[1..]);
            Ok(v)
        }
    }
}
/// One mode page (SPC-6 7.5.7: page_0 or sub_page format).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ModePage {
    /// Page code (byte 0 bits 5-0).
    pub page_code: u8,
    /// Subpage code (0 in page_0 format).
    pub subpage_code: u8,
    /// PS: the page can be saved.
    pub ps: bool,
    /// SPF: sub_page format.
    pub spf: bool,
    /// PAGE LENGTH field.
    pub page_length: u16,
    /// T10 name.
    pub name: &'static str,
    /// Decoded fields.
    pub data: PageData,
    /// The page's bytes, header included (hex).
    pub raw_hex: String,
    /// The page's bytes, header included (for MODE SELECT round trips).
    #[serde(skip)]
    pub raw: Vec<u8>,
}

/// A complete MODE SENSE response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ModeParameters {
    /// Header.
    pub header: ModeHeader,
    /// LBA block descriptors.
    pub block_descriptors: Vec<BlockDescriptor>,
    /// Pages.
    pub pages: Vec<ModePage>,
    /// What did not add up (lengths that overrun, a page that does not decode); empty for a
    /// consistent response. Filled by [`decode`]; [`parse`] turns any of them into an error.
    pub problems: Vec<String>,
}
/// Which header a response carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeaderKind {
    /// MODE SENSE (6): 4-byte header.
    Six,
    /// MODE SENSE (10): 8-byte header.
    Ten,
}

const WHAT: &str = "mode parameter data";

fn err(reason: String) -> ParseError {
    ParseError::new(WHAT, reason)
}

/// Parses a MODE SENSE response strictly: MODE DATA LENGTH may exceed the buffer (short
/// allocation; decoding then stops at the last complete page), but block descriptor and page
/// lengths that overrun the data, or a page that does not decode, are errors.
#[doc(alias = "sg_mode_page_offset")]
pub fn parse(buf: &[u8], kind: HeaderKind) -> ParseResult<ModeParameters> {
    let m = decode(buf, kind)?;
    match m.problems.first() {
        Some(p) => Err(err(p.clone())),
        None => Ok(m),
    }
}

/// Decodes a MODE SENSE response as far as the bytes go: a block descriptor length
/// that is not a multiple of the descriptor size or overruns the data keeps the whole
/// descriptors present; a page that overruns ends the walk; a page that does not decode is
/// skipped (its length is known). Each is listed in [`ModeParameters::problems`]. Only a header
/// that is not there is an error.
pub fn decode(buf: &[u8], kind: HeaderKind) -> ParseResult<ModeParameters> {
    let mut problems = Vec::new();
    let b = Bytes::new(buf, WHAT);
    let (hdr_len, mdl, medium, dsp, longlba, bdl) = match kind {
        HeaderKind::Six => (
            4usize,
            u16::from(b.u8(0)?),
            b.u8(1)?,
            b.u8(2)?,
            false,
            u16::from(b.u8(3)?),
        ),
        HeaderKind::Ten => (
            8usize,
            b.be16(0)?,
            b.u8(2)?,
            b.u8(3)?,
            b.u8(4)? & 0x01 != 0,
            b.be16(6)?,
        ),
    };
    // MODE DATA LENGTH counts the bytes after itself (1 byte in the 6 form, 2 in the 10).
    let len_field = if kind == HeaderKind::Six { 1 } else { 2 };
    let end = (usize::from(mdl) + len_field).min(buf.len());
    if end < hdr_len {
        return Err(err(format!(
            "mode data length {mdl} is shorter than the {hdr_len}-byte header"
        )));
    }
    let b = b.sub(0, end)?;
    let dlen = if longlba { 16 } else { 8 };
    let bdl_us = usize::from(bdl);
    if bdl_us % dlen != 0 {
        problems.push(format!(
            "block descriptor length {bdl} is not a multiple of {dlen}"
        ));
    }
    let mut pages_start = hdr_len + bdl_us;
    if pages_start > end {
        problems.push(format!(
            "block descriptor length {bdl} overruns the {end} bytes of mode data"
        ));
        pages_start = end;
    }
    let mut block_descriptors = Vec::new();
    for i in 0..(pages_start - hdr_len) / dlen {
        block_descriptors.push(BlockDescriptor::parse(&b, hdr_len + i * dlen, longlba)?);
    }
    let mut pages = Vec::new();
    let mut off = pages_start;
    while off < end {
        // A page header cut off by the allocation length ends the walk.
        let Ok(b0) = b.u8(off) else { break };
        let spf = b0 & 0x40 != 0;
        let (_subpage, plen, phdr) = if spf {
            match (b.u8(off + 1), b.be16(off + 2)) {
                (Ok(s), Ok(l)) => (s, l, 4),
                _ => break,
            }
        } else {
            match b.u8(off + 1) {
                Ok(l) => (0, u16::from(l), 2),
                Err(_) => break,
            }
        };
        let total = phdr + usize::from(plen);
        let Ok(raw) = b.slice(off, total) else {
            if usize::from(mdl) + len_field > buf.len() {
                break; // truncated by allocation length: stop at the last whole page
            }
            problems.push(format!(
                "page 0x{:02x} at offset {off}: length {plen} overruns the mode data",
                b0 & 0x3f
            ));
            break;
        };
        match parse_page(raw) {
            Ok(p) => pages.push(p),
            Err(e) => problems.push(format!("page at offset {off}: {e}")),
        }
        off += total;
    }
    Ok(ModeParameters {
        header: ModeHeader {
            mode_data_length: mdl,
            medium_type: medium,
            device_specific: dsp,
            wp: dsp & 0x80 != 0,
            dpofua: dsp & 0x10 != 0,
            longlba,
            block_descriptor_length: bdl,
        },
        block_descriptors,
        pages,
        problems,
    })
}

/// Decodes one page (its header included).
pub fn parse_page(raw: &[u8]) -> ParseResult<ModePage> {
    let b = Bytes::new(raw, "mode page");
    let b0 = b.u8(0)?;
    let spf = b0 & 0x40 != 0;
    let page = b0 & 0x3f;
    let (sub, plen, body_off) = if spf {
        (b.u8(1)?, b.be16(2)?, 4)
    } else {
        (0, u16::from(b.u8(1)?), 2)
    };
    b.need(body_off + usize::from(plen))?;
    let data = decode_page(page, sub, spf, &b).unwrap_or(PageData::Raw);
    Ok(ModePage {
        page_code: page,
        subpage_code: sub,
        ps: b0 & 0x80 != 0,
        spf,
        page_length: plen,
        name: page_name(page, sub),
        data,
        raw_hex: hex(raw),
        raw: raw.to_vec(),
    })
}
/// Builds a MODE SELECT parameter list (SPC-6 7.5.5): header with MODE DATA LENGTH,
/// MEDIUM TYPE and DEVICE-SPECIFIC PARAMETER zeroed (reserved for MODE SELECT), the block
/// descriptors, then the pages with their PS bit cleared (SPC-6 7.5.7: PS is reserved in
/// MODE SELECT). All descriptors must have the same form; long ones need the 10-byte form.
#[doc(alias = "sg_mode_select")]
pub fn select_parameter_list(
    kind: HeaderKind,
    descriptors: &[BlockDescriptor],
    pages: &[&[u8]],
) -> Result<Vec<u8>> {
    let long = descriptors.first().is_some_and(|d| d.long);
    if descriptors.iter().any(|d| d.long != long) {
        return Err(Invalid::MixedDescriptors.into());
    }
    if long && kind == HeaderKind::Six {
        return Err(Invalid::LongDescriptorsNeedSelect10.into());
    }
    let mut desc = Vec::new();
    for d in descriptors {
        desc.extend(d.to_bytes()?);
    }
    let mut out = match kind {
        HeaderKind::Six => {
            let l = u8::try_from(desc.len()).map_err(|_| Invalid::TooManyDescriptors {
                mode_select_6: true,
            })?;
            vec![0, 0, 0, l]
        }
        HeaderKind::Ten => {
            let l = u16::try_from(desc.len()).map_err(|_| Invalid::TooManyDescriptors {
                mode_select_6: false,
            })?;
            let l = l.to_be_bytes();
            vec![0, 0, 0, 0, u8::from(long), 0, l[0], l[1]]
        }
    };
    out.extend(desc);
    for p in pages {
        // Validate the page's own length before copying it.
        parse_page(p).map_err(Error::Parse)?;
        let start = out.len();
        out.extend_from_slice(p);
        out[start] &= 0x7f;
    }
    let max = if kind == HeaderKind::Six {
        0xff
    } else {
        0xffff
    };
    if out.len() > max {
        return Err(Invalid::ModeSelectLength { len: out.len() }.into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cdbs() {
        assert_eq!(
            ModeSense6Cdb::new(0x3f, 252).subpage_code(0xff).build(),
            [0x1a, 0, 0x3f, 0xff, 252, 0]
        );
        assert_eq!(
            ModeSense10Cdb::new(0x01, 252)
                .pc(PageControl::Changeable)
                .llbaa(true)
                .build(),
            [0x5a, 0x10, 0x41, 0, 0, 0, 0, 0, 252, 0]
        );
        assert_eq!(
            ModeSelect6Cdb::new(24).pf(true).sp(true).build(),
            [0x15, 0x11, 0, 0, 24, 0]
        );
        assert_eq!(
            ModeSelect10Cdb::new(0x1c).pf(true).build(),
            [0x55, 0x10, 0, 0, 0, 0, 0, 0, 0x1c, 0]
        );
    }

    #[test]
    fn block_size_change_list() {
        // protocols.md §C.5: long descriptor, count 0, 4096-byte blocks, page 0x01 with PS set.
        let page = [0x81u8, 0x0a, 0xc0, 8, 0, 0, 0, 0, 8, 0, 0, 0];
        let d = BlockDescriptor {
            number_of_blocks: 0,
            block_length: 4096,
            long: true,
        };
        let l = select_parameter_list(HeaderKind::Ten, &[d], &[&page]).unwrap();
        assert_eq!(
            l,
            [
                0, 0, 0, 0, 1, 0, 0, 16, // header: LONGLBA, 16 bytes of descriptor
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10, 0, // descriptor
                0x01, 0x0a, 0xc0, 8, 0, 0, 0, 0, 8, 0, 0, 0 // page, PS cleared
            ]
        );
        // Round trip through the parser (MODE DATA LENGTH is reserved in SELECT; fill it in).
        let mut sensed = l.clone();
        sensed[1] = (l.len() - 2) as u8;
        let p = parse(&sensed, HeaderKind::Ten).unwrap();
        assert_eq!(p.block_descriptors, vec![d]);
        assert_eq!(p.pages[0].page_code, 1);
        assert!(select_parameter_list(HeaderKind::Six, &[d], &[]).is_err());
        let short = BlockDescriptor {
            number_of_blocks: 0x1_0000_0000,
            block_length: 512,
            long: false,
        };
        assert!(select_parameter_list(HeaderKind::Six, &[short], &[]).is_err());
    }

    #[test]
    fn lying_lengths() {
        // Block descriptor length 16 but only 8 bytes of mode data.
        assert!(parse(&[11, 0, 0, 16, 0, 0, 0, 0, 0, 0, 2, 0], HeaderKind::Six).is_err());
        // Page claims 0x20 bytes but mode data length says the list is complete.
        assert!(parse(&[7, 0, 0, 0, 0x08, 0x20, 0, 0], HeaderKind::Six).is_err());
        // Same page cut off by the allocation length: stop quietly.
        let p = parse(&[0x40, 0, 0, 0, 0x08, 0x20, 0, 0], HeaderKind::Six).unwrap();
        assert!(p.pages.is_empty());
    }

    #[test]
    fn best_effort_keeps_what_fits() {
        // A good caching page (0x08, 18 bytes), then a page whose length overruns the data.
        let mut b = vec![0u8; 4];
        b.extend([0x08, 0x12]);
        b.extend([0u8; 18]);
        b.extend([0x0a, 0x40, 0, 0]);
        b[0] = (b.len() - 1) as u8;
        let m = decode(&b, HeaderKind::Six).unwrap();
        assert_eq!(m.pages.len(), 1);
        assert_eq!(m.problems.len(), 1, "{:?}", m.problems);
        assert!(
            m.problems[0].contains("page 0x0a at offset 24"),
            "{:?}",
            m.problems
        );
        assert!(parse(&b, HeaderKind::Six).is_err());
        // Block descriptor length 12 (not a multiple of 8) over 16 bytes: one descriptor kept.
        let mut c = vec![19, 0, 0, 12];
        c.extend([0, 0, 0, 9, 0, 0, 2, 0]);
        c.extend([0u8; 8]);
        let m = decode(&c, HeaderKind::Six).unwrap();
        assert_eq!(m.block_descriptors.len(), 1);
        assert!(
            m.problems[0].contains("not a multiple of 8"),
            "{:?}",
            m.problems
        );
    }
}
