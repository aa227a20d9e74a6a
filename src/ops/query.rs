//! Read-only queries the erase jobs need: identity, capacity, mode block descriptor, REQUEST
//! SENSE, REPORT SUPPORTED OPERATION CODES (one command).
//!
//! Thin I/O wrappers: CDBs and parsers come from the shared `scsi::{inquiry, vpd,
//! read_capacity, mode, request_sense, rsoc}` modules; this file only sends them and reduces the
//! answers to what the jobs (erase, health, logs, tcg) need.

use crate::cmd::run_query;
use crate::error::{Error, Result};
use crate::scsi::{inquiry, mode, read_capacity, request_sense as rs, rsoc, vpd as vpdmod};
use crate::sense::Sense;
use crate::transport::{self, DataBuf, Transport, DEFAULT_TIMEOUT};
use serde::Serialize;

/// Who the drive says it is: the one identity (standard INQUIRY, VPD 0x80/0x83/0xB1, READ
/// CAPACITY(16)) that discovery, the jobs, health and logs read.
pub(crate) use crate::discover::ident::Identity;

/// The read-only commands every job and command sends, as an extension of any
/// [`Transport`]; each is run by [`crate::cmd`] with its one retry/re-fetch policy (a UNIT
/// ATTENTION is retried once; a VPD page or log page longer than the first allocation is
/// fetched again at its length; a page the drive does not have is `None`).
///
/// ```no_run
/// use sgctl::ops::query::Query;
/// let mut t = sgctl::device::open("sim:px02", Default::default()).unwrap().transport;
/// let id = t.identity().unwrap();
/// let cap = t.read_capacity().unwrap();
/// println!("{} {} {:?} {} bytes", id.vendor, id.serial, id.wwn, cap.bytes());
/// ```
pub trait Query {
    /// Standard INQUIRY (96 bytes asked).
    fn inquiry(&mut self) -> Result<inquiry::StandardInquiry>;
    /// VPD page `page` (EVPD=1) as returned; `Ok(None)` when the drive does not have it.
    fn vpd_page(&mut self, page: u8) -> Result<Option<Vec<u8>>>;
    /// READ CAPACITY(16).
    fn read_capacity(&mut self) -> Result<Capacity>;
    /// LOG SENSE of the current cumulative values of a page.
    fn log_sense(&mut self, page: u8, subpage: u8) -> Result<crate::cmd::log_sense::Fetched>;
    /// The drive's identity (`crate::discover::ident::read`).
    fn identity(&mut self) -> Result<Identity>;
}

impl Query for dyn Transport + '_ {
    fn inquiry(&mut self) -> Result<inquiry::StandardInquiry> {
        let b = crate::cmd::inquiry::standard(self, 96, DEFAULT_TIMEOUT)?;
        Ok(inquiry::parse(&b)?)
    }
    fn vpd_page(&mut self, page: u8) -> Result<Option<Vec<u8>>> {
        crate::cmd::supported(crate::cmd::inquiry::vpd_page(
            self,
            page,
            252,
            DEFAULT_TIMEOUT,
        ))
    }
    fn read_capacity(&mut self) -> Result<Capacity> {
        read_capacity16(self)
    }
    fn log_sense(&mut self, page: u8, subpage: u8) -> Result<crate::cmd::log_sense::Fetched> {
        crate::cmd::log_sense::fetch(
            self,
            page,
            subpage,
            crate::scsi::log_sense::PageControl::Cumulative,
            0,
        )
    }
    fn identity(&mut self) -> Result<Identity> {
        crate::discover::ident::read(self)
    }
}

/// Every concrete transport (SG_IO, bsg, the virtual drive, `Traced`, `ReadOnly`) has the
/// same commands as `dyn Transport`.
impl<T: Transport> Query for T {
    fn inquiry(&mut self) -> Result<inquiry::StandardInquiry> {
        (self as &mut dyn Transport).inquiry()
    }
    fn vpd_page(&mut self, page: u8) -> Result<Option<Vec<u8>>> {
        (self as &mut dyn Transport).vpd_page(page)
    }
    fn read_capacity(&mut self) -> Result<Capacity> {
        (self as &mut dyn Transport).read_capacity()
    }
    fn log_sense(&mut self, page: u8, subpage: u8) -> Result<crate::cmd::log_sense::Fetched> {
        (self as &mut dyn Transport).log_sense(page, subpage)
    }
    fn identity(&mut self) -> Result<Identity> {
        (self as &mut dyn Transport).identity()
    }
}

/// Standard INQUIRY + VPD 0x80 + VPD 0x83 (+ VPD 0xB1, READ CAPACITY(16) for disks): the one
/// identity read ([`Query::identity`]).
pub fn identity(t: &mut dyn Transport) -> Result<Identity> {
    t.identity()
}

/// Fetches a VPD page (EVPD=1), trimmed to its PAGE LENGTH.
pub fn vpd(t: &mut dyn Transport, page: u8) -> Result<Vec<u8>> {
    let mut buf = vec![0u8; 512];
    let n = run_query(
        t,
        &inquiry::InquiryCdb::new(512)
            .evpd(true)
            .page_code(page)
            .build(),
        &mut buf,
        DEFAULT_TIMEOUT,
    )?;
    let (_, b) = vpdmod::page(&buf[..n.min(buf.len())], page, "VPD page")?;
    Ok(b.as_slice().to_vec())
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
    let b = crate::cmd::inquiry::read_capacity16(t, DEFAULT_TIMEOUT)?;
    let r = read_capacity::parse16(&b)?;
    Ok(Capacity {
        last_lba: r.last_lba,
        block_len: r.block_len,
        prot_en: r.prot_en,
        p_type: r.p_type,
        p_i_exponent: r.p_i_exponent,
    })
}

/// MODE SENSE(10) answer reduced to the first block descriptor and the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ModeData {
    /// LONGLBA: 16-byte block descriptor.
    pub longlba: bool,
    /// Number of blocks in the descriptor.
    pub blocks: u64,
    /// Block length in the descriptor.
    pub block_len: u32,
    /// The mode page as returned (PS bit included).
    pub page: Vec<u8>,
}

/// MODE SENSE(10) of `page` with DBD=0, LLBAA=1 (docs/protocols.md §C.5 step 1).
pub(crate) fn mode_sense10(t: &mut dyn Transport, page: u8) -> Result<ModeData> {
    let cdb = mode::ModeSense10Cdb::new(page, 256).llbaa(true).build();
    let mut buf = vec![0u8; 256];
    let n = run_query(t, &cdb, &mut buf, DEFAULT_TIMEOUT)?;
    let m = mode::parse(&buf[..n.min(buf.len())], mode::HeaderKind::Ten)?;
    let d = m.block_descriptors.first().ok_or_else(|| {
        Error::Unsupported("the drive returned no block descriptor in MODE SENSE(10)".into())
    })?;
    Ok(ModeData {
        longlba: d.long,
        blocks: d.number_of_blocks,
        block_len: d.block_length,
        page: m.pages.first().map(|p| p.raw.clone()).unwrap_or_default(),
    })
}

impl ModeData {
    /// MODE SELECT(10) parameter list with a new descriptor (docs/protocols.md §C.5 step 2): header
    /// reserved fields zeroed, block length and count replaced, PS of the page cleared. The
    /// long form is used when the drive answered with it or the count needs 64 bits.
    pub(crate) fn select_params(&self, block_len: u32, blocks: u64) -> Result<Vec<u8>> {
        let d = mode::BlockDescriptor {
            number_of_blocks: blocks,
            block_length: block_len,
            long: self.longlba || blocks > u64::from(u32::MAX),
        };
        let pages: Vec<&[u8]> = if self.page.is_empty() {
            vec![]
        } else {
            vec![&self.page]
        };
        mode::select_parameter_list(mode::HeaderKind::Ten, &[d], &pages)
    }
}

/// MODE SELECT(10) CDB: PF=1, SP as given, parameter list length.
pub(crate) fn mode_select10_cdb(sp: bool, len: usize) -> Result<[u8; 10]> {
    let l = u16::try_from(len).map_err(|_| crate::error::Invalid::TooLong {
        what: "MODE SELECT list",
        len,
    })?;
    Ok(mode::ModeSelect10Cdb::new(l).pf(true).sp(sp).build())
}

/// REQUEST SENSE (SPC-5 6.39) with fixed format; `Ok(None)` when no sense is pending
/// (GOOD with NO SENSE 00/00 and no progress).
pub fn request_sense(t: &mut dyn Transport) -> Result<Option<Sense>> {
    let mut buf = [0u8; 252];
    let c = t.execute(
        &rs::RequestSenseCdb::new(252).build(),
        DataBuf::In(&mut buf),
        DEFAULT_TIMEOUT,
    )?;
    // A CHECK CONDITION on REQUEST SENSE itself carries its own sense: report it as the error.
    transport::check(&c)?;
    let n = c.transferred(buf.len());
    if n == 0 {
        return Ok(None);
    }
    let s = rs::parse(&buf[..n]).map_err(|e| Error::BadSense {
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
/// Returns the support and the recommended timeout in seconds when reported. A drive without
/// RSOC (ILLEGAL REQUEST) gives [`Support::Unknown`].
pub(crate) fn rsoc_one(
    t: &mut dyn Transport,
    opcode: u8,
    sa: u16,
) -> Result<(Support, Option<u32>)> {
    let cdb = rsoc::ReportSupportedOpcodesCdb::new(64)
        .options(rsoc::ReportingOptions::OpCodeSa(opcode, sa))
        .rctd(true)
        .build();
    let mut buf = [0u8; 64];
    let n = match run_query(t, &cdb, &mut buf, DEFAULT_TIMEOUT) {
        Ok(n) => n,
        Err(Error::Sense(s)) if s.key == crate::sense::SenseKey::IllegalRequest => {
            return Ok((Support::Unknown, None))
        }
        Err(e) => return Err(e),
    };
    let one = rsoc::parse_one(&buf[..n.min(64)])?;
    let support = match one.support {
        rsoc::Support::Standard | rsoc::Support::Vendor => Support::Supported,
        rsoc::Support::NotSupported => Support::NotSupported,
        _ => Support::Unknown,
    };
    Ok((support, one.timeouts.map(|t| t.recommended_seconds)))
}
