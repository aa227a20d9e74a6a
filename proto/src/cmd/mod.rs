//! The one home of "send this command and check it" (in the spirit of sg3_utils'
//! `lib/sg_cmds_basic.c`): every runner that sends a CDB through a [`Transport`] and turns the
//! completion into bytes or a typed error lives here, with one policy:
//!
//! - a query (a data-in command that changes nothing) is sent again once after a UNIT
//!   ATTENTION, which a drive reports once after a reset or power on (SPC-5 5.14);
//! - a page longer than the first allocation is fetched again at the length the device
//!   reports (VPD pages, log pages);
//! - the completion is checked by [`crate::transport::check`] (host byte, driver byte,
//!   status, sense) and, for ATA PASS-THROUGH, by `ata::interpret`.
//!
//! The layers below (`scsi`, `sense`, `logpage`, `tcg`, `ata`) build CDBs and parse answers
//! and do no I/O; `proto/tests/module_layers.rs` keeps it so.

pub mod ata;
pub mod inquiry;
pub mod log_sense;
pub mod security_protocol;
pub mod tcg;

use crate::error::{Error, Result};
use crate::sense::SenseKey;
use crate::transport::{check, DataBuf, Transport};
use std::time::Duration;

/// Executes and checks a data-in query (INQUIRY, LOG SENSE, ...) and returns the bytes
/// transferred; a first UNIT ATTENTION is retried once.
pub fn run_query(
    t: &mut dyn Transport,
    cdb: &[u8],
    buf: &mut [u8],
    timeout: Duration,
) -> Result<usize> {
    let mut attempt = 0;
    loop {
        let c = t.execute(cdb, DataBuf::In(buf), timeout)?;
        match check(&c) {
            Ok(()) => return Ok(c.transferred(buf.len())),
            Err(Error::Sense(s)) if s.key == SenseKey::UnitAttention && attempt == 0 => {
                attempt += 1;
            }
            Err(e) => return Err(e),
        }
    }
}

/// Executes a command without a data phase and checks it.
pub fn run_none(t: &mut dyn Transport, cdb: &[u8], timeout: Duration) -> Result<()> {
    let c = t.execute(cdb, DataBuf::None, timeout)?;
    check(&c)
}

/// Executes a data-out command and checks it.
pub fn run_out(t: &mut dyn Transport, cdb: &[u8], data: &[u8], timeout: Duration) -> Result<()> {
    let c = t.execute(cdb, DataBuf::Out(data), timeout)?;
    check(&c)
}

/// [`run_query`] into a buffer of `alloc` bytes, returned cut to the bytes transferred.
pub fn query(
    t: &mut dyn Transport,
    cdb: &[u8],
    alloc: usize,
    timeout: Duration,
) -> Result<Vec<u8>> {
    let mut buf = vec![0u8; alloc];
    let n = run_query(t, cdb, &mut buf, timeout)?;
    buf.truncate(n);
    Ok(buf)
}

/// True when the device said it does not have this page or command (ILLEGAL REQUEST).
pub fn not_supported(e: &Error) -> bool {
    matches!(e.sense(), Some(s) if s.key == SenseKey::IllegalRequest)
}

/// An optional page or command: what the device does not have (ILLEGAL REQUEST) is `None`,
/// any other error stays an error.
pub fn supported<T>(r: Result<T>) -> Result<Option<T>> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(e) if not_supported(&e) => Ok(None),
        Err(e) => Err(e),
    }
}
