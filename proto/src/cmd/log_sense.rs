//! SPC-5 6.6 LOG SENSE, sent in two steps (docs/protocols.md §E.1; sg3_utils `src/sg_logs.c`
//! `do_logs`, smartmontools `lib/scsicmds.cpp` `scsiLogSense`): ask for the 4-byte header,
//! read the page length, ask again for the whole page rounded up to an even length.

use crate::bytes::ParseError;
use crate::cmd::run_query;
use crate::error::{Error, Result};
use crate::scsi::log_sense::{full_request_len, LogSenseCdb, PageControl, MAX_ALLOCATION};
use crate::transport::{Transport, DEFAULT_TIMEOUT};

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
    let mut req = LogSenseCdb::new(page, 4)
        .subpage_code(subpage)
        .pc(pc)
        .parameter_pointer(parameter_pointer);
    let mut head = [0u8; 4];
    let got = run_query(t, &req.build(), &mut head, DEFAULT_TIMEOUT)?;
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
        req.alloc_len = u16::try_from(want).unwrap_or(u16::MAX);
        let mut buf = vec![0u8; want];
        let got = run_query(t, &req.build(), &mut buf, DEFAULT_TIMEOUT)?.min(want);
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
}
