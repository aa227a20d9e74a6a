//! Reading log pages from a drive: the supported list, one page, or every page.
//!
//! Identity and capacity use the shared parsers in [`crate::scsi`]; READ DEFECT DATA (grown
//! list count) is here.

use crate::cmd::log_sense;
use crate::cmd::run_query;
use crate::error::{Error, Result};
use crate::logpage::{self, supported::PageId, LogPage};
use crate::scsi::log_sense::PageControl;
use crate::sense::SenseKey;
use crate::transport::{Transport, DEFAULT_TIMEOUT};
use serde::Serialize;

/// A page the drive listed but that could not be read or decoded.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct PageError {
    /// Page code.
    pub page_code: u8,
    /// Subpage code.
    pub subpage_code: u8,
    /// What went wrong.
    pub error: String,
}

/// True when the drive rejected the request as unsupported (ILLEGAL REQUEST), which for an
/// optional page means "not there" rather than "broken".
pub(crate) fn is_unsupported(e: &Error) -> bool {
    e.sense().is_some_and(|s| s.key == SenseKey::IllegalRequest)
}

/// Reads and parses one page; fetch notes are appended to the page's problems.
pub fn read_page(
    t: &mut dyn Transport,
    page: u8,
    subpage: u8,
    pc: PageControl,
    parameter_pointer: u16,
) -> Result<LogPage> {
    let f = log_sense::fetch(t, page, subpage, pc, parameter_pointer)?;
    let mut p = logpage::parse(&f.data)?;
    p.problems.splice(0..0, f.notes);
    Ok(p)
}

/// The supported (page, subpage) list: 0x00/0xFF, or 0x00/0x00 when subpages are not supported.
/// Returns the list and the raw list pages that were read.
///
/// The subpage list is asked for only when the drive may have subpages: when REPORT SUPPORTED
/// OPERATION CODES shows LOG SENSE ignoring the SUBPAGE CODE byte (CDB usage byte 3 zero), the
/// drive would reject 0x00/0xFF as ILLEGAL REQUEST and count it as a non-medium error.
pub fn supported_pages(t: &mut dyn Transport) -> Result<(Vec<PageId>, Vec<LogPage>)> {
    let subpages = crate::cmd::probe::command_usage(t, crate::scsi::log_sense::OPCODE)
        .is_none_or(|u| u.get(3).is_some_and(|b| *b != 0));
    match subpages.then(|| read_page(t, 0, 0xff, PageControl::Cumulative, 0)) {
        None => {}
        Some(Ok(p)) if p.spf => {
            let list = logpage::supported::decode(&p, &mut Vec::new()).pages;
            return Ok((list, vec![p]));
        }
        Some(Ok(_)) => {} // device ignored the subpage: fall through to the plain list
        Some(Err(e)) if is_unsupported(&e) => {}
        Some(Err(e)) => return Err(e),
    }
    let p = read_page(t, 0, 0, PageControl::Cumulative, 0)?;
    let list = logpage::supported::decode(&p, &mut Vec::new()).pages;
    Ok((list, vec![p]))
}

/// Every page the drive lists (list pages themselves included once), with per-page errors.
#[derive(Debug, Clone, Default)]
pub struct AllPages {
    /// The supported list.
    pub supported: Vec<PageId>,
    /// Pages read.
    pub pages: Vec<LogPage>,
    /// Pages listed but not readable.
    pub errors: Vec<PageError>,
}

/// Reads every listed page. Subpage lists (N/0xFF) are read too; a drive that lists a page
/// but rejects it lands in `errors`.
pub fn read_all(t: &mut dyn Transport, pc: PageControl) -> Result<AllPages> {
    let (supported, lists) = supported_pages(t)?;
    let mut all = AllPages {
        supported: supported.clone(),
        pages: lists,
        errors: vec![],
    };
    for id in &supported {
        if all
            .pages
            .iter()
            .any(|p| p.page_code == id.page_code && p.subpage_code == id.subpage_code)
        {
            continue;
        }
        match read_page(t, id.page_code, id.subpage_code, pc, 0) {
            Ok(p) => all.pages.push(p),
            Err(e) => all.errors.push(PageError {
                page_code: id.page_code,
                subpage_code: id.subpage_code,
                error: e.to_string(),
            }),
        }
    }
    Ok(all)
}

/// Who the drive is: the one identity ([`crate::ops::query::Query::identity`]).
pub(crate) use crate::ops::query::Identity;

/// Reads the identity with the one policy (`crate::discover::ident::read`): INQUIRY must
/// work, a missing or failing VPD page leaves its field empty.
pub fn identity(t: &mut dyn Transport) -> Result<Identity> {
    crate::discover::ident::read(t)
}

/// READ CAPACITY(16), falling back to READ CAPACITY(10) for drives without it (shared parsers
/// in [`crate::scsi::read_capacity`]). Returns (number of logical blocks, block length).
pub fn capacity(t: &mut dyn Transport) -> Result<(u64, u32)> {
    use crate::scsi::read_capacity as rc;
    let mut b16 = [0u8; 32];
    if let Ok(n) = run_query(
        t,
        &rc::ReadCapacity16Cdb::new(32).build(),
        &mut b16,
        DEFAULT_TIMEOUT,
    ) {
        if let Ok(c) = rc::parse16(&b16[..n.min(b16.len())]) {
            return Ok((c.lba_count, c.block_len));
        }
    }
    let mut b10 = [0u8; 8];
    let n = run_query(
        t,
        &rc::ReadCapacity10Cdb::new().build(),
        &mut b10,
        DEFAULT_TIMEOUT,
    )?;
    let c = rc::parse10(&b10[..n.min(8)])?;
    let count = c.lba_count.ok_or_else(|| {
        Error::Parse(crate::bytes::ParseError::new(
            "READ CAPACITY(10) data",
            "last LBA 0xFFFFFFFF needs READ CAPACITY(16), which failed",
        ))
    })?;
    Ok((count, c.block_len))
}

/// SBC-4 5.9 READ DEFECT DATA(10), GLIST only, header only: number of grown defects, or None
/// when the drive does not report a grown list. Format 4 (bytes from index) as smartctl asks;
/// the descriptor size follows the format the drive answers with.
pub fn grown_defects(t: &mut dyn Transport) -> Result<Option<u64>> {
    // Only when REPORT SUPPORTED OPERATION CODES does not deny it ([`crate::cmd::probe`]).
    if crate::cmd::probe::command_supported(t, 0x37, None) == Some(false) {
        return Ok(None);
    }
    let mut h = [0u8; 4];
    let n = run_query(
        t,
        &[0x37, 0, 0x08 | 4, 0, 0, 0, 0, 0, 4, 0],
        &mut h,
        DEFAULT_TIMEOUT,
    )?;
    if n < 4 || h[1] & 0x08 == 0 {
        return Ok(None);
    }
    let size = match h[1] & 7 {
        0 => 4,
        3..=5 => 8,
        _ => return Ok(None),
    };
    Ok(Some(u64::from(u16::from_be_bytes([h[2], h[3]])) / size))
}
