//! SPC-6 7.7.12 Management Network Addresses VPD page (0x85): network services (storage
//! configuration, diagnostics, status, logging, ...) and their URLs.

use super::designator::Association;
use crate::bytes::ParseResult;
use serde::Serialize;

/// One network service descriptor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NetworkService {
    /// Byte 0 bits 6-5.
    pub association: Association,
    /// Byte 0 bits 4-0.
    pub service_type: u8,
    /// The NUL-terminated address (bytes 4..).
    pub network_address: String,
}

/// Decoded page 0x85.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ManagementNetworkAddresses {
    /// Services in device order.
    pub services: Vec<NetworkService>,
}

/// Words for a SERVICE TYPE (SPC-6 Table 565), as sg_vpd prints them.
pub fn service_type_name(t: u8) -> &'static str {
    match t {
        0 => "unspecified",
        1 => "storage configuration service",
        2 => "diagnostics",
        3 => "status",
        4 => "logging",
        5 => "code download",
        6 => "copy service",
        7 => "administrative configuration service",
        _ => "reserved",
    }
}

const WHAT: &str = "Management network addresses VPD page";

/// Parses page 0x85 (strict).
pub fn parse(buf: &[u8]) -> ParseResult<ManagementNetworkAddresses> {
    super::strict(WHAT, |p| decode(buf, p))
}

/// Decodes page 0x85; a descriptor that overruns the page ends the list.
pub fn decode(buf: &[u8], problems: &mut Vec<String>) -> ParseResult<ManagementNetworkAddresses> {
    let (_, b) = super::body(buf, 0x85, WHAT, problems)?;
    let mut services = Vec::new();
    let mut off = 4;
    while off < b.len() {
        let Ok(b0) = b.u8(off) else { break };
        let Ok(n) = b.be16(off + 2) else {
            problems.push(format!(
                "descriptor header at offset {off} overruns the page"
            ));
            services.push(NetworkService {
                association: Association::from_bits(b0 >> 5),
                service_type: b0 & 0x1f,
                network_address: String::new(),
            });
            break;
        };
        let (addr, cut) = match b.slice(off + 4, usize::from(n)) {
            Ok(a) => (a, false),
            Err(_) => {
                problems.push(format!(
                    "network address length {n} at offset {off} overruns the page"
                ));
                (b.rest(off + 4), true)
            }
        };
        let end = addr.iter().position(|&c| c == 0).unwrap_or(addr.len());
        services.push(NetworkService {
            association: Association::from_bits(b0 >> 5),
            service_type: b0 & 0x1f,
            network_address: String::from_utf8_lossy(&addr[..end]).into_owned(),
        });
        if cut {
            break;
        }
        off += 4 + usize::from(n);
    }
    Ok(ManagementNetworkAddresses { services })
}
