//! The identification reads (sg3_utils `sg_ll_inquiry`, `sg_ll_readcap_16`): standard INQUIRY
//! (SPC-5 6.7), a VPD page (EVPD=1) fetched again at the length it reports, and READ
//! CAPACITY(16) (SBC-4 5.20), each returning the bytes transferred.

use super::{query, run_query};
use crate::error::Result;
use crate::scsi::{inquiry, read_capacity};
use crate::transport::Transport;
use std::time::Duration;

/// Largest allocation a VPD page is fetched again with (the 16-bit field, kept even).
const VPD_MAX: u16 = 0xfffc;

/// Standard INQUIRY with `alloc` bytes asked.
pub fn standard(t: &mut dyn Transport, alloc: u16, timeout: Duration) -> Result<Vec<u8>> {
    query(
        t,
        &inquiry::InquiryCdb::new(alloc).build(),
        alloc.into(),
        timeout,
    )
}

/// VPD page `page` (EVPD=1), asked first with `alloc` bytes; a page whose PAGE LENGTH says it
/// is longer is fetched again at its length (up to 65532 bytes). The bytes are as
/// transferred; an error of the device (ILLEGAL REQUEST for a page it does not have
/// included) is returned as it is ([`super::supported`] turns that one into `None`).
pub fn vpd_page(t: &mut dyn Transport, page: u8, alloc: u16, timeout: Duration) -> Result<Vec<u8>> {
    let mut alloc = alloc;
    loop {
        let b = query(
            t,
            &inquiry::InquiryCdb::new(alloc)
                .evpd(true)
                .page_code(page)
                .build(),
            alloc.into(),
            timeout,
        )?;
        let want = b
            .get(2..4)
            .map(|l| usize::from(u16::from_be_bytes([l[0], l[1]])) + 4);
        match want {
            Some(w) if w > usize::from(alloc) && alloc < VPD_MAX => {
                alloc = u16::try_from(w).unwrap_or(VPD_MAX).min(VPD_MAX);
            }
            _ => return Ok(b),
        }
    }
}

/// READ CAPACITY(16) with a 32-byte allocation: the bytes transferred.
pub fn read_capacity16(t: &mut dyn Transport, timeout: Duration) -> Result<Vec<u8>> {
    let mut buf = vec![0u8; 32];
    let n = run_query(
        t,
        &read_capacity::ReadCapacity16Cdb::new(32).build(),
        &mut buf,
        timeout,
    )?;
    buf.truncate(n.min(32));
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::{Completion, DataBuf};

    /// Answers every VPD request with `page`, cut to the allocation length.
    struct Dev {
        page: Vec<u8>,
        allocs: Vec<u16>,
    }

    impl Transport for Dev {
        fn execute(&mut self, cdb: &[u8], data: DataBuf<'_>, _t: Duration) -> Result<Completion> {
            let alloc = u16::from_be_bytes([cdb[3], cdb[4]]);
            self.allocs.push(alloc);
            let DataBuf::In(buf) = data else {
                panic!("INQUIRY is data-in")
            };
            let n = buf.len().min(self.page.len());
            buf[..n].copy_from_slice(&self.page[..n]);
            Ok(Completion {
                resid: buf.len() - n,
                ..Completion::good()
            })
        }
        fn address(&self) -> String {
            "fake".into()
        }
    }

    #[test]
    fn a_longer_vpd_page_is_fetched_again_at_its_length() {
        let mut page = vec![0x00, 0x83, 0x01, 0x2c];
        page.resize(0x12c + 4, 0xaa);
        let mut d = Dev {
            page: page.clone(),
            allocs: vec![],
        };
        let got = vpd_page(&mut d, 0x83, 252, Duration::from_secs(1)).unwrap();
        assert_eq!(d.allocs, [252, 0x130]);
        assert_eq!(got, page);
    }

    #[test]
    fn a_page_that_fits_is_fetched_once() {
        let page = vec![0x00, 0x80, 0x00, 0x04, b'S', b'N', b'0', b'1'];
        let mut d = Dev {
            page: page.clone(),
            allocs: vec![],
        };
        assert_eq!(
            vpd_page(&mut d, 0x80, 252, Duration::from_secs(1)).unwrap(),
            page
        );
        assert_eq!(d.allocs, [252]);
    }
}
