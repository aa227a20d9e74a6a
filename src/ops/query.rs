//! Read-only queries the erase jobs need: identity, capacity, mode block descriptor, REQUEST
//! SENSE, REPORT SUPPORTED OPERATION CODES (one command).
//!
//! Interim: these small parsers stand in until the shared `scsi::{inquiry, vpd, read_capacity,
//! mode, request_sense, rsoc}` modules (commands helper) are on main; then they delegate there.
//! Every parser reads through [`Bytes`] and tolerates truncated or lying lengths.

use crate::bytes::{ascii_trim, Bytes};
use crate::error::{Error, Result};
use crate::sense::Sense;
use crate::transport::{self, run_query, DataBuf, Transport, DEFAULT_TIMEOUT};
use serde::Serialize;

/// Who the drive says it is (SPC-5 6.7 INQUIRY; VPD 0x80, 0x83).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct Identity {
    /// T10 vendor identification.
    pub vendor: String,
    /// Product identification (model).
    pub model: String,
    /// Product revision level (firmware).
    pub firmware: String,
    /// Unit serial number (VPD 0x80).
    pub serial: String,
    /// LU name: NAA designator from VPD 0x83, lowercase hex.
    pub wwn: Option<String>,
    /// PROTECT bit (standard INQUIRY byte 5 bit 0): the drive can do T10 PI.
    pub protect: bool,
}

/// Standard INQUIRY + VPD 0x80 + VPD 0x83.
pub fn identity(t: &mut dyn Transport) -> Result<Identity> {
    let mut buf = [0u8; 96];
    let n = run_query(t, &[0x12, 0, 0, 0, 96, 0], &mut buf, DEFAULT_TIMEOUT)?;
    let b = Bytes::new(&buf[..n.min(buf.len())], "standard INQUIRY");
    b.need(36)?;
    let mut id = Identity {
        vendor: b.ascii(8, 8)?,
        model: b.ascii(16, 16)?,
        firmware: b.ascii(32, 4)?,
        protect: b.u8(5)? & 1 != 0,
        ..Identity::default()
    };
    if let Ok(p) = vpd(t, 0x80) {
        let b = Bytes::new(&p, "VPD 0x80");
        let len = b.be16(2).map(usize::from).unwrap_or(0);
        id.serial = ascii_trim(b.rest(4).get(..len).unwrap_or(b.rest(4)));
    }
    if let Ok(p) = vpd(t, 0x83) {
        id.wwn = naa_of(&p);
    }
    Ok(id)
}

/// Fetches a VPD page (EVPD=1), trimmed to its PAGE LENGTH.
pub fn vpd(t: &mut dyn Transport, page: u8) -> Result<Vec<u8>> {
    let mut buf = vec![0u8; 512];
    let n = run_query(
        t,
        &[0x12, 1, page, 0x02, 0x00, 0],
        &mut buf,
        DEFAULT_TIMEOUT,
    )?;
    let b = Bytes::new(&buf[..n.min(buf.len())], "VPD page");
    b.need(4)?;
    if b.u8(1)? != page {
        return Err(Error::Parse(crate::bytes::ParseError::new(
            "VPD page",
            format!("asked for page 0x{page:02x}, got 0x{:02x}", b.u8(1)?),
        )));
    }
    let len = usize::from(b.be16(2)?);
    Ok(b.as_slice()[..(4 + len).min(b.len())].to_vec())
}

/// The LU-associated NAA designator (SPC-5 7.7.6.6) as lowercase hex.
fn naa_of(page: &[u8]) -> Option<String> {
    let b = Bytes::new(page, "VPD 0x83");
    let mut off = 4;
    while off + 4 <= b.len() {
        let code_set = b.u8(off).ok()? & 0x0f;
        let b1 = b.u8(off + 1).ok()?;
        let len = usize::from(b.u8(off + 3).ok()?);
        let assoc = (b1 >> 4) & 0x3;
        if b1 & 0x0f == 3 && assoc == 0 && code_set == 1 {
            let d = b.slice(off + 4, len).ok()?;
            return Some(crate::bytes::hex(d).replace(' ', ""));
        }
        off += 4 + len;
    }
    None
}

/// READ CAPACITY(16) data (SBC-4 5.20.2).
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq, Eq)]
pub struct Capacity {
    /// Last LBA.
    pub last_lba: u64,
    /// Logical block length in bytes (PI excluded).
    pub block_len: u32,
    /// PROT_EN.
    pub prot_en: bool,
    /// P_TYPE (protection type − 1).
    pub p_type: u8,
    /// P_I_EXPONENT.
    pub p_i_exponent: u8,
}

impl Capacity {
    /// Number of logical blocks.
    pub fn blocks(&self) -> u64 {
        self.last_lba.saturating_add(1)
    }
    /// Capacity in bytes.
    pub fn bytes(&self) -> u64 {
        self.blocks().saturating_mul(u64::from(self.block_len))
    }
}

/// READ CAPACITY(16).
pub fn read_capacity16(t: &mut dyn Transport) -> Result<Capacity> {
    let mut cdb = [0u8; 16];
    cdb[0] = 0x9e;
    cdb[1] = 0x10;
    cdb[13] = 32;
    let mut buf = [0u8; 32];
    let n = run_query(t, &cdb, &mut buf, DEFAULT_TIMEOUT)?;
    let b = Bytes::new(&buf[..n.min(32)], "READ CAPACITY(16)");
    b.need(14)?;
    Ok(Capacity {
        last_lba: b.be64(0)?,
        block_len: b.be32(8)?,
        prot_en: b.u8(12)? & 1 != 0,
        p_type: (b.u8(12)? >> 1) & 0x7,
        p_i_exponent: b.u8(13)? >> 4,
    })
}

/// MODE SENSE(10) answer with its block descriptor decoded (SPC-5 7.5.6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModeData {
    /// The whole response as received (trimmed to MODE DATA LENGTH).
    pub raw: Vec<u8>,
    /// LONGLBA: 16-byte block descriptor.
    pub longlba: bool,
    /// Number of blocks in the descriptor.
    pub blocks: u64,
    /// Block length in the descriptor.
    pub block_len: u32,
}

/// MODE SENSE(10) of `page` with DBD=0, LLBAA=1 (protocols.md §C.5 step 1).
pub fn mode_sense10(t: &mut dyn Transport, page: u8) -> Result<ModeData> {
    let cdb = [0x5a, 0x10, page & 0x3f, 0, 0, 0, 0, 0x01, 0x00, 0];
    let mut buf = vec![0u8; 256];
    let n = run_query(t, &cdb, &mut buf, DEFAULT_TIMEOUT)?;
    let b = Bytes::new(&buf[..n.min(buf.len())], "MODE SENSE(10)");
    b.need(8)?;
    let total = (usize::from(b.be16(0)?) + 2).min(b.len());
    let b = b.sub(0, total)?;
    let longlba = b.u8(4)? & 1 != 0;
    let bdl = usize::from(b.be16(6)?);
    let (blocks, block_len) = match (longlba, bdl) {
        (true, 16..) => (b.be64(8)?, b.be32(8 + 12)?),
        (false, 8..) => (u64::from(b.be32(8)?), b.be24(8 + 5)?),
        _ => {
            return Err(Error::Unsupported(
                "the drive returned no block descriptor in MODE SENSE(10)".into(),
            ))
        }
    };
    b.need(8 + bdl)?;
    Ok(ModeData {
        raw: b.as_slice().to_vec(),
        longlba,
        blocks,
        block_len,
    })
}

impl ModeData {
    /// MODE SELECT(10) parameter list from this answer with a new descriptor (protocols.md §C.5
    /// step 2): header bytes 0–3 zeroed, block length and count replaced, PS of the page cleared.
    pub fn select_params(&self, block_len: u32, blocks: u64) -> Result<Vec<u8>> {
        let mut p = self.raw.clone();
        let b = Bytes::new(&self.raw, "MODE SENSE(10)");
        let bdl = usize::from(b.be16(6)?);
        p[0] = 0;
        p[1] = 0;
        p[3] = 0;
        if self.longlba {
            p[8..16].copy_from_slice(&blocks.to_be_bytes());
            p[20..24].copy_from_slice(&block_len.to_be_bytes());
        } else {
            let n = u32::try_from(blocks).map_err(|_| {
                Error::Unsupported("block count does not fit a short descriptor".into())
            })?;
            p[8..12].copy_from_slice(&n.to_be_bytes());
            p[13..16].copy_from_slice(&block_len.to_be_bytes()[1..]);
        }
        if let Some(ps) = p.get_mut(8 + bdl) {
            *ps &= 0x7f;
        }
        Ok(p)
    }
}

/// MODE SELECT(10) CDB: PF=1, SP as given, parameter list length.
pub fn mode_select10_cdb(sp: bool, len: usize) -> Result<[u8; 10]> {
    let l = u16::try_from(len)
        .map_err(|_| Error::InvalidArgument("MODE SELECT list too long".into()))?;
    let [hi, lo] = l.to_be_bytes();
    Ok([0x55, 0x10 | u8::from(sp), 0, 0, 0, 0, 0, hi, lo, 0])
}

/// REQUEST SENSE (SPC-5 6.39) with fixed format; `Ok(None)` when no sense is pending
/// (GOOD with NO SENSE 00/00 and no progress).
pub fn request_sense(t: &mut dyn Transport) -> Result<Option<Sense>> {
    let cdb = [0x03, 0, 0, 0, 252, 0];
    let mut buf = [0u8; 252];
    let c = t.execute(&cdb, DataBuf::In(&mut buf), DEFAULT_TIMEOUT)?;
    let n = c.transferred(buf.len());
    if c.status == transport::status::CHECK_CONDITION {
        // The REQUEST SENSE itself failed; its own sense says why.
        transport::check(&c)?;
    }
    transport::check(&c)?;
    if n == 0 {
        return Ok(None);
    }
    let s = Sense::parse(&buf[..n]).map_err(|e| Error::BadSense {
        reason: e.to_string(),
    })?;
    if s.key == crate::sense::SenseKey::NoSense
        && s.asc == 0
        && s.ascq == 0
        && s.progress_percent().is_none()
    {
        return Ok(None);
    }
    Ok(Some(s))
}

/// SUPPORT field of a one-command RSOC answer (SPC-5 6.35.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Support {
    /// 011b / 101b: supported (by the standard or vendor-specifically).
    Supported,
    /// 001b: not supported.
    NotSupported,
    /// RSOC not available or answer 000b: unknown.
    Unknown,
}

/// REPORT SUPPORTED OPERATION CODES, reporting option 2 (opcode + service action), RCTD=1.
/// Returns the support and the recommended timeout in seconds when reported.
pub fn rsoc_one(t: &mut dyn Transport, opcode: u8, sa: u16) -> Result<(Support, Option<u32>)> {
    let [sh, sl] = sa.to_be_bytes();
    let cdb = [0xa3, 0x0c, 0x82, opcode, sh, sl, 0, 0, 0, 64, 0, 0];
    let mut buf = [0u8; 64];
    let n = match run_query(t, &cdb, &mut buf, DEFAULT_TIMEOUT) {
        Ok(n) => n,
        Err(Error::Sense(s)) if s.key == crate::sense::SenseKey::IllegalRequest => {
            return Ok((Support::Unknown, None))
        }
        Err(e) => return Err(e),
    };
    let b = Bytes::new(&buf[..n.min(64)], "RSOC one command");
    b.need(4)?;
    let support = match b.u8(1)? & 0x7 {
        0b011 | 0b101 => Support::Supported,
        0b001 => Support::NotSupported,
        _ => Support::Unknown,
    };
    let cdb_len = usize::from(b.be16(2)?);
    let timeout = if b.u8(1)? & 0x80 != 0 {
        b.be32(4 + cdb_len + 8).ok()
    } else {
        None
    };
    Ok((support, timeout))
}
