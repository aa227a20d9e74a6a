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

use crate::bytes::{hex, Bytes, ParseError, ParseResult};
use crate::error::{Error, Result};
use serde::Serialize;

/// MODE SENSE (6) operation code.
pub const OPCODE_SENSE_6: u8 = 0x1a;
/// MODE SENSE (10) operation code.
pub const OPCODE_SENSE_10: u8 = 0x5a;
/// MODE SELECT (6) operation code.
pub const OPCODE_SELECT_6: u8 = 0x15;
/// MODE SELECT (10) operation code.
pub const OPCODE_SELECT_10: u8 = 0x55;
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

/// SPC-6 6.13 MODE SENSE (6) CDB: byte 1 bit 3 DBD, byte 2 PC and page code, byte 3 subpage,
/// byte 4 allocation length.
#[doc(alias = "sg_ll_mode_sense6")]
pub fn cdb_sense6(dbd: bool, pc: PageControl, page: u8, subpage: u8, alloc: u8) -> [u8; 6] {
    [
        OPCODE_SENSE_6,
        if dbd { 0x08 } else { 0 },
        (pc as u8) << 6 | (page & 0x3f),
        subpage,
        alloc,
        0,
    ]
}

/// SPC-6 6.14 MODE SENSE (10) CDB: byte 1 bit 4 LLBAA (long LBA descriptors accepted), bit 3
/// DBD, byte 2 PC and page code, byte 3 subpage, bytes 7–8 allocation length.
#[doc(alias = "sg_ll_mode_sense10")]
pub fn cdb_sense10(
    llbaa: bool,
    dbd: bool,
    pc: PageControl,
    page: u8,
    subpage: u8,
    alloc: u16,
) -> [u8; 10] {
    let a = alloc.to_be_bytes();
    [
        OPCODE_SENSE_10,
        if llbaa { 0x10 } else { 0 } | if dbd { 0x08 } else { 0 },
        (pc as u8) << 6 | (page & 0x3f),
        subpage,
        0,
        0,
        0,
        a[0],
        a[1],
        0,
    ]
}

/// SPC-6 6.11 MODE SELECT (6) CDB: byte 1 bit 4 PF (page format), bit 0 SP (save pages),
/// byte 4 parameter list length.
#[doc(alias = "sg_ll_mode_select6")]
pub fn cdb_select6(pf: bool, sp: bool, len: u8) -> [u8; 6] {
    [
        OPCODE_SELECT_6,
        if pf { 0x10 } else { 0 } | u8::from(sp),
        0,
        0,
        len,
        0,
    ]
}

/// SPC-6 6.12 MODE SELECT (10) CDB: byte 1 bit 4 PF, bit 0 SP, bytes 7–8 parameter list length.
#[doc(alias = "sg_ll_mode_select10")]
pub fn cdb_select10(pf: bool, sp: bool, len: u16) -> [u8; 10] {
    let l = len.to_be_bytes();
    [
        OPCODE_SELECT_10,
        if pf { 0x10 } else { 0 } | u8::from(sp),
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
                Error::InvalidArgument(format!(
                    "{} blocks do not fit a short block descriptor; use the long form",
                    self.number_of_blocks
                ))
            })?;
            if self.block_length > 0x00ff_ffff {
                return Err(Error::InvalidArgument(format!(
                    "block length {} does not fit 24 bits",
                    self.block_length
                )));
            }
            let mut v = n.to_be_bytes().to_vec();
            v.push(0);
            v.extend_from_slice(&self.block_length.to_be_bytes()[1..]);
            Ok(v)
        }
    }
}

/// A decoded mode page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PageData {
    /// 0x01 Read-Write Error Recovery (SBC-4 7.5.9).
    ReadWriteErrorRecovery(RwErrorRecovery),
    /// 0x08 Caching (SBC-4 7.5.5).
    Caching(Caching),
    /// 0x0A Control (SPC-6 7.5.8).
    Control(Control),
    /// 0x19/0x00 SAS Protocol-Specific Port, short format (SPL-4 9.2.7.2).
    SasPortControl(SasPortControl),
    /// 0x19/0x01 SAS Phy Control And Discover (SPL-4 9.2.7.3).
    SasPhyControl(SasPhyControl),
    /// 0x19/0x02 SAS Shared Port Control (SPL-4 9.2.7.4).
    SasSharedPortControl(SasSharedPortControl),
    /// 0x1C Informational Exceptions Control (SPC-6 7.5.12).
    InformationalExceptions(InformationalExceptions),
    /// Not decoded.
    Raw,
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
}

/// Name of a mode page as sdparm/sg3_utils call it.
pub fn page_name(page: u8, subpage: u8) -> &'static str {
    match (page, subpage) {
        (0x01, 0) => "Read write error recovery",
        (0x02, 0) => "Disconnect-reconnect",
        (0x03, 0) => "Format (obsolete)",
        (0x04, 0) => "Rigid disk geometry (obsolete)",
        (0x05, 0) => "Flexible disk (obsolete)",
        (0x07, 0) => "Verify error recovery",
        (0x08, 0) => "Caching",
        (0x0a, 0) => "Control",
        (0x0a, 0x01) => "Control extension",
        (0x0a, 0x02) => "Application tag",
        (0x0a, 0x03) => "Command duration limit A",
        (0x0a, 0x04) => "Command duration limit B",
        (0x0a, 0x05) => "IO advice hints grouping",
        (0x0a, 0x06) => "Background operation control",
        (0x0a, 0xf1) => "PATA control",
        (0x0a, 0xf2) => "ATA feature control",
        (0x18, _) => "Protocol specific logical unit",
        (0x19, 0) => "Protocol specific port",
        (0x19, 0x01) => "SAS phy control and discover",
        (0x19, 0x02) => "SAS shared port control",
        (0x19, 0x03) => "SAS enhanced phy control",
        (0x1a, 0) => "Power condition",
        (0x1a, 0x01) => "Power consumption",
        (0x1c, 0) => "Informational exceptions control",
        (0x1c, 0x01) => "Background control",
        (0x1c, 0x02) => "Logical block provisioning",
        (0x00, _) => "Vendor specific (unit attention)",
        (0x20..=0x3e, _) => "Vendor specific",
        _ => "Unknown",
    }
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

/// Parses a MODE SENSE response. MODE DATA LENGTH may exceed the buffer (short allocation):
/// decoding then stops at the last complete page. Block descriptor and page lengths that
/// overrun the data are errors.
#[doc(alias = "sg_mode_page_offset")]
pub fn parse(buf: &[u8], kind: HeaderKind) -> ParseResult<ModeParameters> {
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
        return Err(err(format!(
            "block descriptor length {bdl} is not a multiple of {dlen}"
        )));
    }
    if hdr_len + bdl_us > end {
        return Err(err(format!(
            "block descriptor length {bdl} overruns the {end} bytes of mode data"
        )));
    }
    let mut block_descriptors = Vec::new();
    for i in 0..bdl_us / dlen {
        block_descriptors.push(BlockDescriptor::parse(&b, hdr_len + i * dlen, longlba)?);
    }
    let mut pages = Vec::new();
    let mut off = hdr_len + bdl_us;
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
            return Err(err(format!(
                "page 0x{:02x} length {plen} overruns the mode data",
                b0 & 0x3f
            )));
        };
        pages.push(parse_page(raw)?);
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

/// Decodes the known pages; `Err` (short page) falls back to [`PageData::Raw`].
fn decode_page(page: u8, sub: u8, spf: bool, b: &Bytes<'_>) -> ParseResult<PageData> {
    Ok(match (page, sub, spf) {
        (0x01, 0, false) => PageData::ReadWriteErrorRecovery(RwErrorRecovery::parse(b)?),
        (0x08, 0, false) => PageData::Caching(Caching::parse(b)?),
        (0x0a, 0, false) => PageData::Control(Control::parse(b)?),
        (0x19, 0, false) => PageData::SasPortControl(SasPortControl::parse(b)?),
        (0x19, 0x01, true) => PageData::SasPhyControl(SasPhyControl::parse(b)?),
        (0x19, 0x02, true) => PageData::SasSharedPortControl(SasSharedPortControl::parse(b)?),
        (0x1c, 0, false) => PageData::InformationalExceptions(InformationalExceptions::parse(b)?),
        _ => PageData::Raw,
    })
}

fn bit(v: u8, n: u8) -> bool {
    v >> n & 1 != 0
}

/// SBC-4 7.5.9 Read-Write Error Recovery mode page (0x01), names as in sdparm.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RwErrorRecovery {
    /// Byte 2 bit 7 automatic write reallocation enabled.
    pub awre: bool,
    /// Byte 2 bit 6 automatic read reallocation enabled.
    pub arre: bool,
    /// Byte 2 bit 5 transfer block.
    pub tb: bool,
    /// Byte 2 bit 4 read continuous.
    pub rc: bool,
    /// Byte 2 bit 3 enable early recovery.
    pub eer: bool,
    /// Byte 2 bit 2 post error.
    pub per: bool,
    /// Byte 2 bit 1 data terminate on error.
    pub dte: bool,
    /// Byte 2 bit 0 disable correction.
    pub dcr: bool,
    /// Byte 3 read retry count.
    pub read_retry_count: u8,
    /// Byte 7 bit 7 logical block provisioning error reporting enabled.
    pub lbpere: bool,
    /// Byte 8 write retry count.
    pub write_retry_count: u8,
    /// Bytes 10–11 recovery time limit (ms).
    pub recovery_time_limit_ms: u16,
}

impl RwErrorRecovery {
    fn parse(b: &Bytes<'_>) -> ParseResult<Self> {
        let f = b.u8(2)?;
        Ok(RwErrorRecovery {
            awre: bit(f, 7),
            arre: bit(f, 6),
            tb: bit(f, 5),
            rc: bit(f, 4),
            eer: bit(f, 3),
            per: bit(f, 2),
            dte: bit(f, 1),
            dcr: bit(f, 0),
            read_retry_count: b.u8(3)?,
            lbpere: bit(b.u8(7)?, 7),
            write_retry_count: b.u8(8)?,
            recovery_time_limit_ms: b.be16(10)?,
        })
    }
}

/// SBC-4 7.5.5 Caching mode page (0x08).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Caching {
    /// Byte 2 bit 7 initiator control.
    pub ic: bool,
    /// Byte 2 bit 6 abort pre-fetch.
    pub abpf: bool,
    /// Byte 2 bit 5 caching analysis permitted.
    pub cap: bool,
    /// Byte 2 bit 4 discontinuity.
    pub disc: bool,
    /// Byte 2 bit 3 size enable.
    pub size: bool,
    /// Byte 2 bit 2 write cache enable.
    pub wce: bool,
    /// Byte 2 bit 1 multiplication factor.
    pub mf: bool,
    /// Byte 2 bit 0 read cache disable.
    pub rcd: bool,
    /// Byte 3 bits 7-4.
    pub demand_read_retention_priority: u8,
    /// Byte 3 bits 3-0.
    pub write_retention_priority: u8,
    /// Bytes 4–5.
    pub disable_prefetch_transfer_length: u16,
    /// Bytes 6–7.
    pub minimum_prefetch: u16,
    /// Bytes 8–9.
    pub maximum_prefetch: u16,
    /// Bytes 10–11.
    pub maximum_prefetch_ceiling: u16,
    /// Byte 12 bit 7 force sequential write.
    pub fsw: bool,
    /// Byte 12 bit 6 logical block cache segment size.
    pub lbcss: bool,
    /// Byte 12 bit 5 disable read-ahead.
    pub dra: bool,
    /// Byte 12 bit 0 non-volatile cache disabled.
    pub nv_dis: bool,
    /// Byte 13.
    pub number_of_cache_segments: u8,
    /// Bytes 14–15.
    pub cache_segment_size: u16,
}

impl Caching {
    fn parse(b: &Bytes<'_>) -> ParseResult<Self> {
        let f = b.u8(2)?;
        let r = b.u8(3)?;
        let g = b.u8(12)?;
        Ok(Caching {
            ic: bit(f, 7),
            abpf: bit(f, 6),
            cap: bit(f, 5),
            disc: bit(f, 4),
            size: bit(f, 3),
            wce: bit(f, 2),
            mf: bit(f, 1),
            rcd: bit(f, 0),
            demand_read_retention_priority: r >> 4,
            write_retention_priority: r & 0x0f,
            disable_prefetch_transfer_length: b.be16(4)?,
            minimum_prefetch: b.be16(6)?,
            maximum_prefetch: b.be16(8)?,
            maximum_prefetch_ceiling: b.be16(10)?,
            fsw: bit(g, 7),
            lbcss: bit(g, 6),
            dra: bit(g, 5),
            nv_dis: bit(g, 0),
            number_of_cache_segments: b.u8(13)?,
            cache_segment_size: b.be16(14)?,
        })
    }
}

/// SPC-6 7.5.8 Control mode page (0x0A).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Control {
    /// Byte 2 bits 7-5 task set type.
    pub tst: u8,
    /// Byte 2 bit 4.
    pub tmf_only: bool,
    /// Byte 2 bit 3 DPICZ.
    pub dpicz: bool,
    /// Byte 2 bit 2 D_SENSE: descriptor format sense data.
    pub d_sense: bool,
    /// Byte 2 bit 1 global logging target save disable.
    pub gltsd: bool,
    /// Byte 2 bit 0 report log exception condition.
    pub rlec: bool,
    /// Byte 3 bits 7-4 queue algorithm modifier.
    pub queue_algorithm_modifier: u8,
    /// Byte 3 bit 3.
    pub nuar: bool,
    /// Byte 3 bits 2-1 queue error management.
    pub qerr: u8,
    /// Byte 4 bit 6 report a check.
    pub rac: bool,
    /// Byte 4 bits 5-4 unit attention interlocks control.
    pub ua_intlck_ctrl: u8,
    /// Byte 4 bit 3 software write protect.
    pub swp: bool,
    /// Byte 5 bit 7 application tag owner.
    pub ato: bool,
    /// Byte 5 bit 6 task aborted status.
    pub tas: bool,
    /// Byte 5 bit 5 application tag mode page enabled.
    pub atmpe: bool,
    /// Byte 5 bit 4 reject write without protection.
    pub rwwp: bool,
    /// Byte 5 bits 2-0 autoload mode.
    pub autoload_mode: u8,
    /// Bytes 8–9 busy timeout period (100 ms units).
    pub busy_timeout_period: u16,
    /// Bytes 10–11 extended self-test completion time (seconds).
    pub extended_self_test_completion_time: u16,
}

impl Control {
    fn parse(b: &Bytes<'_>) -> ParseResult<Self> {
        let (b2, b3, b4, b5) = (b.u8(2)?, b.u8(3)?, b.u8(4)?, b.u8(5)?);
        Ok(Control {
            tst: b2 >> 5,
            tmf_only: bit(b2, 4),
            dpicz: bit(b2, 3),
            d_sense: bit(b2, 2),
            gltsd: bit(b2, 1),
            rlec: bit(b2, 0),
            queue_algorithm_modifier: b3 >> 4,
            nuar: bit(b3, 3),
            qerr: (b3 >> 1) & 0x03,
            rac: bit(b4, 6),
            ua_intlck_ctrl: (b4 >> 4) & 0x03,
            swp: bit(b4, 3),
            ato: bit(b5, 7),
            tas: bit(b5, 6),
            atmpe: bit(b5, 5),
            rwwp: bit(b5, 4),
            autoload_mode: b5 & 0x07,
            busy_timeout_period: b.be16(8)?,
            extended_self_test_completion_time: b.be16(10)?,
        })
    }
}

/// SPL-4 9.2.7.2 Protocol-Specific Port mode page, short format (0x19, SAS).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SasPortControl {
    /// Byte 2 bit 6 CONTINUE AWT.
    pub continue_awt: bool,
    /// Byte 2 bit 5 BROADCAST ASYNCHRONOUS EVENT.
    pub broadcast_asynchronous_event: bool,
    /// Byte 2 bit 4 READY LED MEANING.
    pub ready_led_meaning: bool,
    /// Byte 2 bits 3-0 protocol identifier (6 = SAS).
    pub protocol_identifier: u8,
    /// Bytes 4–5 I_T NEXUS LOSS TIME (ms; 0xFFFF = forever).
    pub i_t_nexus_loss_time_ms: u16,
    /// Bytes 6–7 INITIATOR RESPONSE TIMEOUT (ms).
    pub initiator_response_timeout_ms: u16,
    /// Bytes 8–9 REJECT TO OPEN LIMIT (10 µs units), when present.
    pub reject_to_open_limit: Option<u16>,
}

impl SasPortControl {
    fn parse(b: &Bytes<'_>) -> ParseResult<Self> {
        let f = b.u8(2)?;
        let plen = usize::from(b.u8(1)?);
        Ok(SasPortControl {
            continue_awt: bit(f, 6),
            broadcast_asynchronous_event: bit(f, 5),
            ready_led_meaning: bit(f, 4),
            protocol_identifier: f & 0x0f,
            i_t_nexus_loss_time_ms: b.be16(4)?,
            initiator_response_timeout_ms: b.be16(6)?,
            reject_to_open_limit: if plen >= 8 { b.be16(8).ok() } else { None },
        })
    }
}

/// One phy mode descriptor of the Phy Control And Discover subpage (SPL-4 Table 203).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SasPhy {
    /// Byte 1 phy identifier.
    pub phy_identifier: u8,
    /// Byte 4 bits 6-4 (0 none, 1 end device, 2 expander, 3 fanout expander).
    pub attached_device_type: u8,
    /// Byte 4 bits 3-0 attached reason.
    pub attached_reason: u8,
    /// Byte 5 bits 7-4 reason.
    pub reason: u8,
    /// Byte 5 bits 3-0 negotiated logical link rate (0x8 1.5, 0x9 3, 0xa 6, 0xb 12, 0xc 22.5 Gbit/s).
    pub negotiated_logical_link_rate: u8,
    /// Byte 6 attached initiator port bits (SSP bit 3, STP bit 2, SMP bit 1).
    pub attached_initiator_ports: u8,
    /// Byte 7 attached target port bits.
    pub attached_target_ports: u8,
    /// Bytes 8–15 this phy's SAS address.
    pub sas_address: String,
    /// Bytes 16–23 attached SAS address.
    pub attached_sas_address: String,
    /// Byte 24 attached phy identifier.
    pub attached_phy_identifier: u8,
    /// Byte 32 bits 7-4 programmed minimum physical link rate.
    pub programmed_min_link_rate: u8,
    /// Byte 32 bits 3-0 hardware minimum physical link rate.
    pub hardware_min_link_rate: u8,
    /// Byte 33 bits 7-4 programmed maximum physical link rate.
    pub programmed_max_link_rate: u8,
    /// Byte 33 bits 3-0 hardware maximum physical link rate.
    pub hardware_max_link_rate: u8,
}

/// SPL-4 9.2.7.3 Phy Control And Discover mode subpage (0x19/0x01).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SasPhyControl {
    /// Byte 5 bits 3-0 protocol identifier (6 = SAS).
    pub protocol_identifier: u8,
    /// Byte 6 generation code.
    pub generation_code: u8,
    /// Byte 7 number of phys.
    pub number_of_phys: u8,
    /// Phy mode descriptors (48 bytes each from byte 8).
    pub phys: Vec<SasPhy>,
}

impl SasPhyControl {
    fn parse(b: &Bytes<'_>) -> ParseResult<Self> {
        let n = b.u8(7)?;
        let mut phys = Vec::new();
        for i in 0..usize::from(n) {
            let d = b.sub(8 + i * 48, 48)?;
            phys.push(SasPhy {
                phy_identifier: d.u8(1)?,
                attached_device_type: (d.u8(4)? >> 4) & 0x07,
                attached_reason: d.u8(4)? & 0x0f,
                reason: d.u8(5)? >> 4,
                negotiated_logical_link_rate: d.u8(5)? & 0x0f,
                attached_initiator_ports: d.u8(6)?,
                attached_target_ports: d.u8(7)?,
                sas_address: format!("0x{:016x}", d.be64(8)?),
                attached_sas_address: format!("0x{:016x}", d.be64(16)?),
                attached_phy_identifier: d.u8(24)?,
                programmed_min_link_rate: d.u8(32)? >> 4,
                hardware_min_link_rate: d.u8(32)? & 0x0f,
                programmed_max_link_rate: d.u8(33)? >> 4,
                hardware_max_link_rate: d.u8(33)? & 0x0f,
            });
        }
        Ok(SasPhyControl {
            protocol_identifier: b.u8(5)? & 0x0f,
            generation_code: b.u8(6)?,
            number_of_phys: n,
            phys,
        })
    }
}

/// SPL-4 9.2.7.4 Shared Port Control mode subpage (0x19/0x02).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SasSharedPortControl {
    /// Byte 5 bits 3-0 protocol identifier.
    pub protocol_identifier: u8,
    /// Bytes 6–7 POWER LOSS TIMEOUT (ms).
    pub power_loss_timeout_ms: u16,
    /// Byte 9 POWER GRANT TIMEOUT (seconds), SPL-3 and later.
    pub power_grant_timeout: u8,
}

impl SasSharedPortControl {
    fn parse(b: &Bytes<'_>) -> ParseResult<Self> {
        Ok(SasSharedPortControl {
            protocol_identifier: b.u8(5)? & 0x0f,
            power_loss_timeout_ms: b.be16(6)?,
            power_grant_timeout: b.u8(9)?,
        })
    }
}

/// SPC-6 7.5.12 Informational Exceptions Control mode page (0x1C).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InformationalExceptions {
    /// Byte 2 bit 7 performance.
    pub perf: bool,
    /// Byte 2 bit 5 enable background function.
    pub ebf: bool,
    /// Byte 2 bit 4 enable warning.
    pub ewasc: bool,
    /// Byte 2 bit 3 disable exception control (1 = failure prediction reporting off).
    pub dexcpt: bool,
    /// Byte 2 bit 2 test (report a false 5D/FF).
    pub test: bool,
    /// Byte 2 bit 1 enable background error.
    pub ebackerr: bool,
    /// Byte 2 bit 0 log errors.
    pub logerr: bool,
    /// Byte 3 bits 3-0 method of reporting informational exceptions.
    pub mrie: u8,
    /// Bytes 4–7 interval timer (100 ms units).
    pub interval_timer: u32,
    /// Bytes 8–11 report count.
    pub report_count: u32,
}

impl InformationalExceptions {
    fn parse(b: &Bytes<'_>) -> ParseResult<Self> {
        let f = b.u8(2)?;
        Ok(InformationalExceptions {
            perf: bit(f, 7),
            ebf: bit(f, 5),
            ewasc: bit(f, 4),
            dexcpt: bit(f, 3),
            test: bit(f, 2),
            ebackerr: bit(f, 1),
            logerr: bit(f, 0),
            mrie: b.u8(3)? & 0x0f,
            interval_timer: b.be32(4)?,
            report_count: b.be32(8)?,
        })
    }
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
        return Err(Error::InvalidArgument(
            "block descriptors mix short and long forms".into(),
        ));
    }
    if long && kind == HeaderKind::Six {
        return Err(Error::InvalidArgument(
            "long LBA block descriptors need MODE SELECT(10)".into(),
        ));
    }
    let mut desc = Vec::new();
    for d in descriptors {
        desc.extend(d.to_bytes()?);
    }
    let mut out = match kind {
        HeaderKind::Six => {
            let l = u8::try_from(desc.len()).map_err(|_| {
                Error::InvalidArgument("too many block descriptors for MODE SELECT(6)".into())
            })?;
            vec![0, 0, 0, l]
        }
        HeaderKind::Ten => {
            let l = u16::try_from(desc.len())
                .map_err(|_| Error::InvalidArgument("too many block descriptors".into()))?;
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
        return Err(Error::InvalidArgument(format!(
            "parameter list of {} bytes is too long for this MODE SELECT",
            out.len()
        )));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cdbs() {
        assert_eq!(
            cdb_sense6(false, PageControl::Current, 0x3f, 0xff, 252),
            [0x1a, 0, 0x3f, 0xff, 252, 0]
        );
        assert_eq!(
            cdb_sense10(true, false, PageControl::Changeable, 0x01, 0, 252),
            [0x5a, 0x10, 0x41, 0, 0, 0, 0, 0, 252, 0]
        );
        assert_eq!(cdb_select6(true, true, 24), [0x15, 0x11, 0, 0, 24, 0]);
        assert_eq!(
            cdb_select10(true, false, 0x1c),
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
}
