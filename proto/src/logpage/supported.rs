//! Supported pages lists: 0x00/0x00 (page codes), 0x00/0xFF (page+subpage pairs) and
//! N/0xFF (supported subpages of page N). SPC-5 7.3.18/7.3.19; protocols.md §E.3.

use super::LogPage;
use serde::Serialize;

/// One supported (page, subpage) pair.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct PageId {
    /// Page code.
    pub page_code: u8,
    /// Subpage code.
    pub subpage_code: u8,
}

impl PageId {
    /// A page id.
    pub const fn new(page_code: u8, subpage_code: u8) -> PageId {
        PageId {
            page_code,
            subpage_code,
        }
    }
}

/// Decoded list page.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct SupportedPages {
    /// The (page, subpage) pairs listed, in device order.
    pub pages: Vec<PageId>,
}

/// Decodes 0x00/0x00 (1-byte list), 0x00/0xFF and N/0xFF (2-byte pairs).
pub fn decode(p: &LogPage, notes: &mut Vec<String>) -> SupportedPages {
    let mut s = SupportedPages::default();
    if p.spf {
        if p.body.len() % 2 != 0 {
            notes.push(format!(
                "supported subpages list has odd length {}; last byte ignored",
                p.body.len()
            ));
        }
        for pair in p.body.chunks_exact(2) {
            s.pages.push(PageId::new(pair[0] & 0x3f, pair[1]));
        }
    } else {
        for b in &p.body {
            s.pages.push(PageId::new(b & 0x3f, 0));
        }
    }
    s
}
