//! SPC-6 7.7.15 Protocol Specific Logical Unit Information VPD page (0x90) and 7.7.16
//! Protocol Specific Port Information VPD page (0x91): per relative port, a descriptor whose
//! body the transport standard defines. For SAS (SPL-4 "Protocol-Specific Logical Unit
//! Information VPD page" and "Protocol-Specific Port Information VPD page") these are the TLR
//! CONTROL SUPPORTED bit, and the PWR_D_S bit with one SSP PERSISTENT CAPABLE bit per phy.

use super::designator::protocol_name;
use crate::bytes::{hex, Bytes, ParseResult};
use serde::Serialize;

/// SAS in the PROTOCOL IDENTIFIER field (SPC-6 table "PROTOCOL IDENTIFIER values").
const SAS: u8 = 6;

/// One logical-unit descriptor of page 0x90.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LogicalUnitDescriptor {
    /// Bytes 0–1.
    pub relative_port: u16,
    /// Byte 2 bits 3-0 (`None` for a descriptor cut off before it).
    pub protocol_identifier: Option<u8>,
    /// Its name.
    pub protocol: Option<&'static str>,
    /// SAS: byte 8 bit 0 (TLR CONTROL SUPPORTED); `None` for other protocols or no data.
    pub tlr_control_supported: Option<bool>,
    /// The protocol-specific bytes (hex), for protocols not decoded.
    pub data: String,
}

/// Decoded page 0x90.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProtocolSpecificLuInformation {
    /// Descriptors in page order.
    pub descriptors: Vec<LogicalUnitDescriptor>,
}

/// One SAS phy of a page 0x91 descriptor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SasPhy {
    /// Byte 1: PHY IDENTIFIER.
    pub phy_identifier: u8,
    /// Byte 2 bit 0: SSP PERSISTENT CAPABLE.
    pub ssp_persistent_capable: bool,
}

/// One port descriptor of page 0x91.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PortDescriptor {
    /// Bytes 0–1.
    pub relative_port: u16,
    /// Byte 2 bits 3-0 (`None` for a descriptor cut off before it).
    pub protocol_identifier: Option<u8>,
    /// Its name.
    pub protocol: Option<&'static str>,
    /// SAS: byte 3 bit 0 (PWR_D_S, power disable supported).
    pub pwr_d_s: Option<bool>,
    /// SAS: the phy descriptors (4 bytes each from byte 8).
    pub phys: Vec<SasPhy>,
    /// The protocol-specific bytes (hex), for protocols not decoded.
    pub data: String,
}

/// Decoded page 0x91.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProtocolSpecificPortInformation {
    /// Descriptors in page order.
    pub descriptors: Vec<PortDescriptor>,
}

/// Walks the descriptors (8-byte header, DESCRIPTOR LENGTH at bytes 6–7): calls `f` with the
/// header bytes and the body; a descriptor that overruns the page ends the list with a problem
/// and, when its RELATIVE PORT IDENTIFIER is there, is returned as (relative port, protocol)
/// so the caller keeps what its bytes say (sg_vpd prints the relative port too).
fn walk<'a>(
    b: &Bytes<'a>,
    problems: &mut Vec<String>,
    mut f: impl FnMut(&'a [u8], &'a [u8]),
) -> Option<(u16, Option<u8>)> {
    let mut off = 4;
    while off < b.len() {
        let partial = || Some((b.be16(off).ok()?, b.u8(off + 2).ok().map(|p| p & 0x0f)));
        let (Ok(head), Ok(len)) = (b.slice(off, 8), b.be16(off + 6)) else {
            problems.push(format!(
                "descriptor header at offset {off} overruns the page ({} bytes)",
                b.len()
            ));
            return partial();
        };
        let Ok(body) = b.slice(off + 8, usize::from(len)) else {
            problems.push(format!(
                "descriptor at offset {off} (length {len}) overruns the page ({} bytes)",
                b.len()
            ));
            return partial();
        };
        f(head, body);
        off += 8 + usize::from(len);
    }
    None
}

/// Decodes page 0x90.
pub(crate) fn decode_lu(
    buf: &[u8],
    problems: &mut Vec<String>,
) -> ParseResult<ProtocolSpecificLuInformation> {
    let what = "Protocol-specific logical unit information VPD page";
    let (_, b) = super::body(buf, 0x90, what, problems)?;
    let mut descriptors = Vec::new();
    let cut = walk(&b, problems, |h, body| {
        let proto = h[2] & 0x0f;
        let sas = proto == SAS && !body.is_empty();
        descriptors.push(LogicalUnitDescriptor {
            relative_port: u16::from_be_bytes([h[0], h[1]]),
            protocol_identifier: Some(proto),
            protocol: Some(protocol_name(proto)),
            tlr_control_supported: sas.then(|| body[0] & 1 != 0),
            data: if sas { String::new() } else { hex(body) },
        });
    });
    if let Some((relative_port, proto)) = cut {
        descriptors.push(LogicalUnitDescriptor {
            relative_port,
            protocol_identifier: proto,
            protocol: proto.map(protocol_name),
            tlr_control_supported: None,
            data: String::new(),
        });
    }
    Ok(ProtocolSpecificLuInformation { descriptors })
}

/// Decodes page 0x91; a SAS phy list that is not a multiple of 4 bytes is a problem.
pub(crate) fn decode_port(
    buf: &[u8],
    problems: &mut Vec<String>,
) -> ParseResult<ProtocolSpecificPortInformation> {
    let what = "Protocol-specific port information VPD page";
    let (_, b) = super::body(buf, 0x91, what, problems)?;
    let mut descriptors = Vec::new();
    let mut odd = Vec::new();
    let cut = walk(&b, problems, |h, body| {
        let proto = h[2] & 0x0f;
        let rel = u16::from_be_bytes([h[0], h[1]]);
        let sas = proto == SAS && !body.is_empty();
        let mut phys = Vec::new();
        if sas {
            let chunks = body.chunks_exact(4);
            if !chunks.remainder().is_empty() {
                odd.push(format!(
                    "relative port {rel}: phy list of {} bytes is not a multiple of 4",
                    body.len()
                ));
            }
            phys = chunks
                .map(|p| SasPhy {
                    phy_identifier: p[1],
                    ssp_persistent_capable: p[2] & 1 != 0,
                })
                .collect();
        }
        descriptors.push(PortDescriptor {
            relative_port: rel,
            protocol_identifier: Some(proto),
            protocol: Some(protocol_name(proto)),
            pwr_d_s: sas.then(|| h[3] & 1 != 0),
            phys,
            data: if sas { String::new() } else { hex(body) },
        });
    });
    if let Some((relative_port, proto)) = cut {
        descriptors.push(PortDescriptor {
            relative_port,
            protocol_identifier: proto,
            protocol: proto.map(protocol_name),
            pwr_d_s: None,
            phys: Vec::new(),
            data: String::new(),
        });
    }
    problems.extend(odd);
    Ok(ProtocolSpecificPortInformation { descriptors })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sas_lu_and_port() {
        let lu = [0, 0x90, 0, 12, 0, 1, 6, 0, 0, 0, 0, 4, 1, 0, 0, 0];
        let p = decode_lu(&lu, &mut Vec::new()).unwrap();
        assert_eq!(p.descriptors[0].tlr_control_supported, Some(true));
        let port = [
            0, 0x91, 0, 16, 0, 2, 6, 1, 0, 0, 0, 8, 0, 3, 1, 0, 0, 4, 0, 0,
        ];
        let p = decode_port(&port, &mut Vec::new()).unwrap();
        let d = &p.descriptors[0];
        assert_eq!((d.relative_port, d.pwr_d_s), (2, Some(true)));
        assert_eq!(d.phys[1].phy_identifier, 4);
        assert!(d.phys[0].ssp_persistent_capable && !d.phys[1].ssp_persistent_capable);
        let mut pr = Vec::new();
        let p = decode_port(&port[..18], &mut pr).unwrap();
        // Cut inside the descriptor: its relative port and protocol are kept.
        assert_eq!(p.descriptors[0].relative_port, 2);
        assert_eq!(p.descriptors[0].pwr_d_s, None);
        assert_eq!(pr.len(), 2, "{pr:?}");
    }
}
