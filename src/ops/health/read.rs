//! Reading log pages from a drive: the supported list, one page, or every page.
//!
//! Identity and capacity come from the shared interim queries in [`crate::ops::query`];
//! READ DEFECT DATA (grown list count) is here.

use crate::error::{Error, Result};
use crate::logpage::{self, supported::PageId, LogPage};
use crate::scsi::log_sense::{self, PageControl};
use crate::sense::SenseKey;
use crate::transport::{run_query, Transport, DEFAULT_TIMEOUT};
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
pub fn is_unsupported(e: &Error) -> bool {
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
pub fn supported_pages(t: &mut dyn Transport) -> Result<(Vec<PageId>, Vec<LogPage>)> {
    match read_page(t, 0, 0xff, PageControl::Cumulative, 0) {
        Ok(p) if p.spf => {
            let list = logpage::supported::decode(&p, &mut Vec::new()).pages;
            return Ok((list, vec![p]));
        }
        Ok(_) => {} // device ignored the subpage: fall through to the plain list
        Err(e) if is_unsupported(&e) => {}
        Err(e) => return Err(e),
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

/// Who the drive is: INQUIRY + VPD 0x80/0x83, through the shared interim parser in
/// [`crate::ops::query`] (which will delegate to the commands area's `scsi::inquiry`/`vpd`).
pub fn identity(t: &mut dyn Transport) -> Result<crate::ops::query::Identity> {
    crate::ops::query::identity(t)
}

/// READ CAPACITY(16) (shared parser in [`crate::ops::query`]), falling back to READ
/// CAPACITY(10) (SBC-4 5.19: bytes 0-3 last LBA, 4-7 block length) for drives without (16).
/// Returns (number of logical blocks, block length).
pub fn capacity(t: &mut dyn Transport) -> Result<(u64, u32)> {
    if let Ok(c) = crate::ops::query::read_capacity16(t) {
        return Ok((c.blocks(), c.block_len));
    }
    let mut b10 = [0u8; 8];
    let n = run_query(
        t,
        &[0x25, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        &mut b10,
        DEFAULT_TIMEOUT,
    )?;
    let b = crate::bytes::Bytes::new(&b10[..n.min(8)], "READ CAPACITY(10) data");
    Ok((u64::from(b.be32(0)?) + 1, b.be32(4)?))
}

/// SBC-4 5.9 READ DEFECT DATA(10), GLIST only, header only: number of grown defects, or None
/// when the drive does not report a grown list. Format 4 (bytes from index) as smartctl asks;
/// the descriptor size follows the format the drive answers with.
pub fn grown_defects(t: &mut dyn Transport) -> Result<Option<u64>> {
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
