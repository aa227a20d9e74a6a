//! What the drive lists, read before an optional probe: the Supported VPD Pages page (SPC-6
//! 7.7.18, page 00h) and REPORT SUPPORTED OPERATION CODES for one command (SPC-6 6.36).
//!
//! A read-only command must not change the drive. A request for a page or command the drive
//! does not implement ends in CHECK CONDITION / ILLEGAL REQUEST, and drives count those in the
//! Non-Medium Error log page (0x06): a health check that probes blindly raises the very counter
//! it reports. So an optional probe asks the list first and skips what is not listed. (The
//! supported log pages list, page 00h of LOG SENSE, is read by the log and health code.)

use super::run_query;
use crate::error::{Error, Result};
use crate::scsi::{rsoc, vpd};
use crate::sense::SenseKey;
use crate::transport::{Transport, DEFAULT_TIMEOUT};

fn illegal(e: &Error) -> bool {
    e.sense().is_some_and(|s| s.key == SenseKey::IllegalRequest)
}

/// The VPD page codes the drive lists in page 00h. A drive that rejects page 00h implements
/// no VPD page at all (SPC-6 7.7.1: page 00h is mandatory when any VPD page is), so the list
/// is empty then.
pub fn vpd_pages(t: &mut dyn Transport) -> Result<Vec<u8>> {
    let mut buf = vec![0u8; 255];
    let n = match run_query(
        t,
        &crate::scsi::inquiry::InquiryCdb::new(255)
            .evpd(true)
            .page_code(0x00)
            .build(),
        &mut buf,
        DEFAULT_TIMEOUT,
    ) {
        Ok(n) => n,
        Err(e) if illegal(&e) => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let p = vpd::supported::decode(&buf[..n.min(buf.len())], &mut Vec::new())?;
    Ok(p.pages)
}

/// True when the drive lists VPD page `page` (page 00h itself always counts as listed).
/// A list that cannot be read counts as "not listed": the probe is skipped.
pub(crate) fn vpd_listed(t: &mut dyn Transport, page: u8) -> bool {
    page == 0 || vpd_pages(t).is_ok_and(|l| l.contains(&page))
}

/// The CDB USAGE DATA of a supported command without service action (SPC-6 6.36.3: a bit set
/// where the device server looks at the CDB bit); `None` when RSOC does not say.
pub fn command_usage(t: &mut dyn Transport, opcode: u8) -> Option<Vec<u8>> {
    let mut buf = [0u8; 64];
    let cdb = rsoc::ReportSupportedOpcodesCdb::new(64)
        .options(rsoc::ReportingOptions::OpCode(opcode))
        .build();
    let n = run_query(t, &cdb, &mut buf, DEFAULT_TIMEOUT).ok()?;
    let one = rsoc::decode_one(&buf[..n.min(buf.len())]).ok()?;
    one.supported().then_some(one.cdb_usage_bytes)
}

/// What REPORT SUPPORTED OPERATION CODES says of one command: `Some(true)` supported,
/// `Some(false)` not supported, `None` when the drive does not say (no RSOC, or SUPPORT 000b).
/// `service_action` selects reporting option 2 (the opcode has service actions), else option 1.
pub fn command_supported(
    t: &mut dyn Transport,
    opcode: u8,
    service_action: Option<u16>,
) -> Option<bool> {
    let opts = match service_action {
        Some(sa) => rsoc::ReportingOptions::OpCodeSa(opcode, sa),
        None => rsoc::ReportingOptions::OpCode(opcode),
    };
    let mut buf = [0u8; 64];
    let n = run_query(
        t,
        &rsoc::ReportSupportedOpcodesCdb::new(64)
            .options(opts)
            .build(),
        &mut buf,
        DEFAULT_TIMEOUT,
    )
    .ok()?;
    match rsoc::decode_one(&buf[..n.min(buf.len())]).ok()?.support {
        rsoc::Support::Standard | rsoc::Support::Vendor => Some(true),
        rsoc::Support::NotSupported => Some(false),
        _ => None,
    }
}
