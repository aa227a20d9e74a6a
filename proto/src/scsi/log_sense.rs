//! SPC-5 6.6 LOG SENSE (0x4D): CDB builder and the two-step page fetch.
//!
//! CDB layout restated in docs/protocols.md §E.1 (source: sg3_utils
//! `lib/sg_cmds_basic.c` `sg_ll_log_sense_v2`). Fetch pattern (§E.1, sg3_utils `src/sg_logs.c`
//! `do_logs`, smartmontools `lib/scsicmds.cpp` `scsiLogSense`): ask for the 4-byte header,
//! read the page length, ask again for the whole page rounded up to an even length.

use crate::bytes::ParseError;
use crate::error::{Error, Result};
use crate::transport::{run_query, Transport, DEFAULT_TIMEOUT};
use serde::Serialize;

/// LOG SENSE operation code.
pub const OPCODE: u8 = crate::scsi::opcodes::code::LOG_SENSE;

/// Largest allocation length the 16-bit field can carry.
pub const MAX_ALLOCATION: usize = 0xFFFF;

/// SPC-5 6.6 table "Page control (PC) field": which set of values to return.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[doc(alias = "PC")]
pub enum PageControl {
    /// 00b: current threshold values.
    Threshold,
    /// 01b: current cumulative values (what sg_logs and smartctl read by default).
    Cumulative,
    /// 10b: default threshold values.
    DefaultThreshold,
    /// 11b: default cumulative values.
    DefaultCumulative,
}

impl PageControl {
    /// The 2-bit field value.
    pub fn bits(self) -> u8 {
        match self {
            PageControl::Threshold => 0,
            PageControl::Cumulative => 1,
            PageControl::DefaultThreshold => 2,
            PageControl::DefaultCumulative => 3,
        }
    }

    /// Parses the CLI spelling: `current`/`cumulative`, `threshold`, `default`
    /// (= default cumulative), `default-threshold`, or a number 0..=3.
    pub fn parse(s: &str) -> Option<PageControl> {
        Some(match s {
            "current" | "cumulative" | "1" => PageControl::Cumulative,
            "threshold" | "0" => PageControl::Threshold,
            "default" | "default-cumulative" | "3" => PageControl::DefaultCumulative,
            "default-threshold" | "2" => PageControl::DefaultThreshold,
            _ => return None,
        })
    }
}

/// The fields of a LOG SENSE CDB.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LogSense {
    /// Page code (6 bits).
    pub page: u8,
    /// Subpage code.
    pub subpage: u8,
    /// Page control.
    pub pc: PageControl,
    /// First parameter code to return.
    pub parameter_pointer: u16,
    /// Allocation length.
    pub allocation_length: u16,
    /// SP: save parameters after returning them (byte 1 bit 0).
    pub sp: bool,
    /// PPC: parameter pointer control (byte 1 bit 1, obsolete in SPC-5).
    pub ppc: bool,
}

impl LogSense {
    /// Cumulative values of `page`/`subpage`, from the first parameter.
    pub fn new(page: u8, subpage: u8, allocation_length: u16) -> LogSense {
        LogSense {
            page,
            subpage,
            pc: PageControl::Cumulative,
            parameter_pointer: 0,
            allocation_length,
            sp: false,
            ppc: false,
        }
    }

    /// SPC-5 6.6 LOG SENSE CDB (10 bytes).
    pub fn cdb(&self) -> [u8; 10] {
        let pp = self.parameter_pointer.to_be_bytes();
        let al = self.allocation_length.to_be_bytes();
        [
            OPCODE,
            (u8::from(self.ppc) << 1) | u8::from(self.sp),
            (self.pc.bits() << 6) | (self.page & 0x3f),
            self.subpage,
            0,
            pp[0],
            pp[1],
            al[0],
            al[1],
            0,
        ]
    }
}

/// Length to request for a page whose header announced `page_length`: header + page, rounded
/// up to even (some HBAs mishandle odd transfers, sg_logs does the same), capped at 65535.
pub fn full_request_len(page_length: u16) -> usize {
    let n = usize::from(page_length) + 4;
    (n + (n & 1)).min(MAX_ALLOCATION)
}

/// One fetched page: the bytes the device returned and notes about how the fetch went.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Fetched {
    /// Bytes actually transferred (header included); may be shorter or longer than the header says.
    pub data: Vec<u8>,
    /// Things worth telling the user (short transfer, page grew between the two requests...).
    pub notes: Vec<String>,
}

/// Reads one log page in two steps (header, then the whole page).
///
/// Copes with a device that returns fewer bytes than its page length says (the page is
/// returned as transferred, with a note; the parser decodes what is present) or a page that
/// grew between the two requests (one more fetch with the new length). Fails with
/// [`Error::Parse`] if the device answers with a different page than asked for.
pub fn fetch(
    t: &mut dyn Transport,
    page: u8,
    subpage: u8,
    pc: PageControl,
    parameter_pointer: u16,
) -> Result<Fetched> {
    let mut req = LogSense {
        pc,
        parameter_pointer,
        ..LogSense::new(page, subpage, 4)
    };
    let mut head = [0u8; 4];
    let got = run_query(t, &req.cdb(), &mut head, DEFAULT_TIMEOUT)?;
    if got < 4 {
        return Err(Error::Parse(ParseError::new(
            "log page header",
            format!("page 0x{page:02x}: only {got} of 4 header bytes returned"),
        )));
    }
    check_identity(&head, page, subpage)?;
    let mut want = full_request_len(u16::from_be_bytes([head[2], head[3]]));
    let mut notes = Vec::new();
    for _attempt in 0..2 {
        req.allocation_length = u16::try_from(want).unwrap_or(u16::MAX);
        let mut buf = vec![0u8; want];
        let got = run_query(t, &req.cdb(), &mut buf, DEFAULT_TIMEOUT)?.min(want);
        buf.truncate(got);
        if got >= 4 {
            check_identity(&buf, page, subpage)?;
            let now = full_request_len(u16::from_be_bytes([buf[2], buf[3]]));
            if now > want && want < MAX_ALLOCATION {
                notes.push(format!(
                    "page 0x{page:02x},0x{subpage:02x} grew from {want} to {now} bytes between requests; fetched again"
                ));
                want = now;
                continue;
            }
            let announced = usize::from(u16::from_be_bytes([buf[2], buf[3]])) + 4;
            if got < announced {
                notes.push(format!(
                    "page 0x{page:02x},0x{subpage:02x}: device returned {got} bytes but its header announces {announced}"
                ));
            }
        } else {
            notes.push(format!(
                "page 0x{page:02x},0x{subpage:02x}: second request returned only {got} bytes"
            ));
        }
        return Ok(Fetched { data: buf, notes });
    }
    Err(Error::Parse(ParseError::new(
        "log page",
        format!("page 0x{page:02x},0x{subpage:02x} kept changing length between requests"),
    )))
}

/// The device must answer with the page (and, when SPF is set, the subpage) we asked for
/// (sg_logs checks the page code the same way).
fn check_identity(head: &[u8], page: u8, subpage: u8) -> Result<()> {
    let got_page = head[0] & 0x3f;
    let spf = head[0] & 0x40 != 0;
    let got_sub = if spf { head[1] } else { 0 };
    if got_page != (page & 0x3f)
        || (spf && got_sub != subpage)
        || (!spf && subpage != 0 && subpage != 0xff)
    {
        return Err(Error::Parse(ParseError::new(
            "log page header",
            format!(
                "asked for page 0x{page:02x},0x{subpage:02x} but the device returned 0x{got_page:02x},0x{got_sub:02x}"
            ),
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cdb_bytes() {
        // sg_logs -p 0x2f (PC=1): 4d 00 6f 00 00 00 00 <len> 00
        let c = LogSense::new(0x2f, 0, 0x0400).cdb();
        assert_eq!(c, [0x4d, 0, 0x6f, 0, 0, 0, 0, 0x04, 0, 0]);
        // Captured CDB from a real drive (libscsicmd collect_raw_data): page 0x0D, alloc 0x4000.
        let c = LogSense {
            pc: PageControl::Cumulative,
            ..LogSense::new(0x0d, 0, 0x4000)
        }
        .cdb();
        assert_eq!(c, [0x4d, 0x00, 0x4d, 0x00, 0, 0, 0, 0x40, 0x00, 0x00]);
        let c = LogSense {
            page: 0x18,
            subpage: 0x01,
            pc: PageControl::DefaultThreshold,
            parameter_pointer: 0x1234,
            allocation_length: 0xfffe,
            sp: true,
            ppc: true,
        }
        .cdb();
        assert_eq!(c, [0x4d, 0x03, 0x98, 0x01, 0, 0x12, 0x34, 0xff, 0xfe, 0]);
    }

    #[test]
    fn request_len_is_even_and_capped() {
        assert_eq!(full_request_len(0x0c), 16);
        assert_eq!(full_request_len(0x07), 12);
        assert_eq!(full_request_len(0xffff), MAX_ALLOCATION);
        assert_eq!(full_request_len(0xfffb), MAX_ALLOCATION);
    }

    use crate::transport::{Completion, DataBuf};
    use std::time::Duration;

    /// A device that answers LOG SENSE from a byte table; `cut` drops bytes from every full
    /// answer (a device returning less than its header says), `grow` makes the page longer
    /// after the first request.
    struct Dev {
        page: Vec<u8>,
        cut: usize,
        grow_to: Option<Vec<u8>>,
        cdbs: Vec<Vec<u8>>,
    }

    impl Transport for Dev {
        fn execute(&mut self, cdb: &[u8], data: DataBuf<'_>, _t: Duration) -> Result<Completion> {
            self.cdbs.push(cdb.to_vec());
            let DataBuf::In(buf) = data else {
                panic!("LOG SENSE is data-in")
            };
            let alloc = usize::from(u16::from_be_bytes([cdb[7], cdb[8]]));
            assert_eq!(alloc, buf.len());
            let src = if self.cdbs.len() > 1 {
                self.grow_to.clone().unwrap_or_else(|| self.page.clone())
            } else {
                self.page.clone()
            };
            let mut n = alloc.min(src.len());
            if alloc > 4 {
                n = n.saturating_sub(self.cut);
            }
            buf[..n].copy_from_slice(&src[..n]);
            Ok(Completion {
                resid: buf.len() - n,
                ..Completion::good()
            })
        }
        fn address(&self) -> String {
            "fake".into()
        }
    }

    fn dev(page: &[u8]) -> Dev {
        Dev {
            page: page.to_vec(),
            cut: 0,
            grow_to: None,
            cdbs: vec![],
        }
    }

    // Real scsi_debug temperature page (fixtures/logpages/sdeb_aa.hex).
    const TEMP: [u8; 16] = [0x0d, 0, 0, 0x0c, 0, 0, 3, 2, 0, 0x26, 0, 1, 3, 2, 0, 0x41];

    #[test]
    fn two_step_fetch() {
        let mut d = dev(&TEMP);
        let f = fetch(&mut d, 0x0d, 0, PageControl::Cumulative, 0).unwrap();
        assert_eq!(f.data, TEMP);
        assert!(f.notes.is_empty());
        assert_eq!(d.cdbs.len(), 2);
        assert_eq!(d.cdbs[0][7..9], [0, 4]);
        assert_eq!(d.cdbs[1][7..9], [0, 16]);
    }

    #[test]
    fn odd_length_is_rounded_up() {
        // Real scsi_debug IE page: page length 7 -> request 12, device sends 11.
        let ie = [0x2f, 0, 0, 7, 0, 0, 3, 3, 0, 0, 0x26];
        let mut d = dev(&ie);
        let f = fetch(&mut d, 0x2f, 0, PageControl::Cumulative, 0).unwrap();
        assert_eq!(d.cdbs[1][7..9], [0, 12]);
        assert_eq!(f.data, ie);
    }

    #[test]
    fn short_answer_is_kept_with_a_note() {
        let mut d = dev(&TEMP);
        d.cut = 3;
        let f = fetch(&mut d, 0x0d, 0, PageControl::Cumulative, 0).unwrap();
        assert_eq!(f.data.len(), 13);
        assert_eq!(f.notes.len(), 1);
        assert!(f.notes[0].contains("returned 13 bytes but its header announces 16"));
    }

    #[test]
    fn page_that_grows_is_fetched_again() {
        let mut big = TEMP.to_vec();
        big[3] = 0x12;
        big.extend_from_slice(&[0x80, 0, 3, 2, 0, 1]);
        let mut d = dev(&TEMP);
        d.grow_to = Some(big.clone());
        let f = fetch(&mut d, 0x0d, 0, PageControl::Cumulative, 0).unwrap();
        assert_eq!(d.cdbs.len(), 3);
        assert_eq!(f.data, big);
        assert!(f.notes[0].contains("grew"));
    }

    #[test]
    fn wrong_page_is_an_error() {
        let mut d = dev(&TEMP);
        let e = fetch(&mut d, 0x2f, 0, PageControl::Cumulative, 0).unwrap_err();
        assert!(e.to_string().contains("asked for page 0x2f"), "{e}");
        let mut d = dev(&TEMP[..3]);
        assert!(fetch(&mut d, 0x0d, 0, PageControl::Cumulative, 0).is_err());
    }

    #[test]
    fn page_control_names() {
        assert_eq!(PageControl::parse("current"), Some(PageControl::Cumulative));
        assert_eq!(
            PageControl::parse("threshold"),
            Some(PageControl::Threshold)
        );
        assert_eq!(
            PageControl::parse("default"),
            Some(PageControl::DefaultCumulative)
        );
        assert_eq!(PageControl::parse("bogus"), None);
    }
}
