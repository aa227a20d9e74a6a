//! SPC-6 7.7.17 SCSI Ports VPD page (0x88): every port of the target (both ports of a
//! dual-ported SAS drive, whichever one is asked), with its relative port identifier and
//! target port designators (protocols.md §E.4; sg3_utils `decode_scsi_ports_vpd`).

use super::designator::{parse_list, Designation};
use super::page;
use crate::bytes::{hex, ParseError, ParseResult};
use serde::Serialize;

/// One SCSI port designation descriptor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ScsiPort {
    /// Bytes 2–3.
    pub relative_port: u16,
    /// Initiator port TransportID (hex), if any (bytes 8.. of the descriptor).
    pub initiator_transport_id: Option<String>,
    /// Target port descriptors (designation descriptors, association = target port).
    pub target_port_descriptors: Vec<Designation>,
}

/// Decoded page 0x88.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ScsiPorts {
    /// Ports in device order.
    pub ports: Vec<ScsiPort>,
}

/// Parses page 0x88.
pub fn parse(buf: &[u8]) -> ParseResult<ScsiPorts> {
    const WHAT: &str = "SCSI ports VPD page";
    let (_, b) = page(buf, 0x88, WHAT)?;
    let mut ports = Vec::new();
    let mut off = 4;
    let over = |off: usize| {
        ParseError::new(
            WHAT,
            format!("port descriptor at offset {off} overruns the page"),
        )
    };
    while off < b.len() {
        let rel = b.be16(off + 2).map_err(|_| over(off))?;
        let tid_len = usize::from(b.be16(off + 6).map_err(|_| over(off))?);
        let tid = b.slice(off + 8, tid_len).map_err(|_| over(off))?;
        let tp_off = off + 8 + tid_len;
        let tp_len = usize::from(b.be16(tp_off + 2).map_err(|_| over(off))?);
        let list = b.sub(tp_off + 4, tp_len).map_err(|_| over(off))?;
        ports.push(ScsiPort {
            relative_port: rel,
            initiator_transport_id: (tid_len > 0).then(|| hex(tid)),
            target_port_descriptors: parse_list(&list)?,
        });
        off = tp_off + 4 + tp_len;
    }
    Ok(ScsiPorts { ports })
}
