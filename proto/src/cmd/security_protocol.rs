//! SPC-5 6.40 SECURITY PROTOCOL IN and 6.41 SECURITY PROTOCOL OUT, sent with buffers padded
//! to a multiple of 512 bytes (the CDBs: [`crate::scsi::security_protocol`]).

use crate::cmd::run_query;
use crate::error::Result;
use crate::scsi::security_protocol::{
    pad_len, parse_supported_protocols, Inc512, SecurityProtocolInCdb, SecurityProtocolOutCdb,
    BLOCK, PROTOCOL_INFO,
};
use crate::transport::{check, DataBuf, Transport};
use std::time::Duration;

/// Default timeout for TCG exchanges.
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// Sends SECURITY PROTOCOL IN and returns the transferred bytes (buffer padded to 512).
pub fn security_in(
    t: &mut dyn Transport,
    protocol: u8,
    sps: u16,
    alloc: usize,
    inc: Inc512,
) -> Result<Vec<u8>> {
    let len = pad_len(alloc);
    let cdb = SecurityProtocolInCdb::new(protocol, sps, len)
        .inc_512(inc)
        .build()?;
    let mut buf = vec![0u8; len];
    let n = run_query(t, &cdb, &mut buf, TIMEOUT)?;
    buf.truncate(n);
    Ok(buf)
}

/// Sends SECURITY PROTOCOL OUT with `data` zero-padded to a multiple of 512.
pub fn security_out(
    t: &mut dyn Transport,
    protocol: u8,
    sps: u16,
    data: &[u8],
    inc: Inc512,
) -> Result<()> {
    let len = pad_len(data.len());
    let mut buf = data.to_vec();
    buf.resize(len, 0);
    let cdb = SecurityProtocolOutCdb::new(protocol, sps, len)
        .inc_512(inc)
        .build()?;
    let c = t.execute(&cdb, DataBuf::Out(&buf), TIMEOUT)?;
    check(&c)
}

/// Reads the supported security protocol list.
pub fn supported_protocols(t: &mut dyn Transport, inc: Inc512) -> Result<Vec<u8>> {
    let buf = security_in(t, PROTOCOL_INFO, 0, BLOCK, inc)?;
    Ok(parse_supported_protocols(&buf)?)
}
