//! Shared plumbing of the query commands (inquiry, vpd, readcap, opcodes, sense, luns, modes):
//! send a CDB (traced with `-v` when the device was opened with `OpenOptions::traced`), re-fetch when the first allocation was too
//! small, and turn "ILLEGAL REQUEST, invalid opcode/field" into [`Error::Unsupported`].

use sgctl::bytes::hexdump;
use sgctl::cmd::run_query;
use sgctl::error::{Error, Result};
use sgctl::sense::SenseKey;
use sgctl::transport::{Transport, DEFAULT_TIMEOUT};

/// Sends a data-in CDB with an `alloc`-byte buffer (retrying once on UNIT ATTENTION) and
/// returns the bytes actually transferred.
pub(crate) fn data_in(t: &mut dyn Transport, cdb: &[u8], alloc: usize) -> Result<Vec<u8>> {
    let mut buf = vec![0u8; alloc];
    let n = run_query(t, cdb, &mut buf, DEFAULT_TIMEOUT)?;
    buf.truncate(n.min(alloc));
    Ok(buf)
}

/// Maps ILLEGAL REQUEST with INVALID COMMAND OPERATION CODE (20/00) or INVALID FIELD IN CDB
/// (24/00) to [`Error::Unsupported`] naming `what`; other errors pass through.
pub(crate) fn unsupported(e: Error, what: &str) -> Error {
    match e.sense() {
        Some(s) if s.key == SenseKey::IllegalRequest && matches!(s.asc, 0x20 | 0x24) => {
            Error::Unsupported(format!("{what} ({})", s.summary()))
        }
        _ => e,
    }
}

/// Standard INQUIRY: 36 bytes, then again with the full ADDITIONAL LENGTH.
pub(crate) fn standard_inquiry(t: &mut dyn Transport) -> Result<Vec<u8>> {
    use sgctl::scsi::inquiry;
    let first = data_in(t, &inquiry::InquiryCdb::new(36).build(), 36)?;
    let want = first.get(4).map(|l| usize::from(*l) + 5).unwrap_or(0);
    if want > first.len() {
        let len = u16::try_from(want).unwrap_or(255);
        return data_in(t, &inquiry::InquiryCdb::new(len).build(), usize::from(len));
    }
    Ok(first)
}

/// A VPD page: 252 bytes first, then the full page if it is longer (as sg_vpd does).
pub(crate) fn vpd(t: &mut dyn Transport, page: u8) -> Result<Vec<u8>> {
    use sgctl::scsi::vpd;
    let what = format!("VPD page 0x{page:02x} ({})", vpd::page_name(page));
    let first = data_in(
        t,
        &sgctl::scsi::inquiry::InquiryCdb::new(252)
            .evpd(true)
            .page_code(page)
            .build(),
        252,
    )
    .map_err(|e| unsupported(e, &format!("{what} is not supported by the device")))?;
    let h = vpd::header(&first, "VPD page")?;
    if h.page_code != page {
        return Err(Error::Unsupported(format!(
            "{what}: the device answered with page 0x{:02x} instead",
            h.page_code
        )));
    }
    let want = usize::from(h.page_length) + 4;
    if want > first.len() && first.len() == 252 {
        let len = u16::try_from(want).unwrap_or(u16::MAX);
        return data_in(
            t,
            &sgctl::scsi::inquiry::InquiryCdb::new(len)
                .evpd(true)
                .page_code(page)
                .build(),
            usize::from(len),
        );
    }
    Ok(first)
}

/// The `--hex` report: the raw response as a hex dump (text) and a hex string (JSON).
pub(crate) fn hex_report(device: Option<&str>, bytes: &[u8]) -> super::Report {
    super::Report::new(
        device,
        &serde_json::json!({ "hex": sgctl::bytes::hex(bytes) }),
        hexdump(bytes),
    )
}
