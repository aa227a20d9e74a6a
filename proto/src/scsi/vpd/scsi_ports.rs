//! SPC-6 7.7.17 SCSI Ports VPD page (0x88): every port of the target (both ports of a
//! dual-ported SAS drive, whichever one is asked), with its relative port identifier and
//! target port designators (protocols.md §E.4; sg3_utils `decode_scsi_ports_vpd`).

use super::designator::{decode_list, Designation};
use crate::bytes::{hex, Bytes, ParseResult};
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

const WHAT: &str = "SCSI ports VPD page";

/// Decodes page 0x88 as far as the bytes go: a port descriptor that overruns the page ends the
/// list, with a problem; the ports before it are kept.
pub(crate) fn decode(buf: &[u8], problems: &mut Vec<String>) -> ParseResult<ScsiPorts> {
    let (_, b) = super::body(buf, 0x88, WHAT, problems)?;
    let mut ports = Vec::new();
    let mut off = 4;
    while off < b.len() {
        let Some(port) = port_at(&b, off, problems) else {
            problems.push(format!(
                "port descriptor at offset {off} overruns the page ({} bytes)",
                b.len()
            ));
            // Keep what its header says (the relative port), as sg_vpd does.
            if let Ok(rel) = b.be16(off + 2) {
                ports.push(ScsiPort {
                    relative_port: rel,
                    initiator_transport_id: None,
                    target_port_descriptors: Vec::new(),
                });
            }
            break;
        };
        ports.push(port.0);
        off = port.1;
    }
    Ok(ScsiPorts { ports })
}

/// One port descriptor at `off` and the offset after it, `None` if it overruns.
fn port_at(b: &Bytes<'_>, off: usize, problems: &mut Vec<String>) -> Option<(ScsiPort, usize)> {
    let rel = b.be16(off + 2).ok()?;
    let tid_len = usize::from(b.be16(off + 6).ok()?);
    let tid = b.slice(off + 8, tid_len).ok()?;
    let tp_off = off + 8 + tid_len;
    let tp_len = usize::from(b.be16(tp_off + 2).ok()?);
    let list = b.sub(tp_off + 4, tp_len).ok()?;
    let port = ScsiPort {
        relative_port: rel,
        initiator_transport_id: (tid_len > 0).then(|| hex(tid)),
        target_port_descriptors: decode_list(&list, problems),
    };
    Some((port, tp_off + 4 + tp_len))
}
