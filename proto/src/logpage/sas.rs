//! 0x18 protocol-specific port page for SAS (SPL-4 "Protocol-Specific Port log page").
//!
//! Offsets from protocols.md §E.3 (sources: sg3_utils `src/sg_logs.c` `show_sas_port_param`;
//! Seagate SCSI Commands Reference Manual Rev J §5.2.17; HGST C15K600 spec table 115/116).
//! One parameter per target port (parameter code = relative target port identifier), each with
//! a list of SAS phy log descriptors.

use super::{short_param, LogPage, LogParam};
use serde::Serialize;

/// One phy event descriptor (SPL-4 phy event source + value + peak threshold).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct PhyEvent {
    /// Byte 3: phy event source.
    pub source: u8,
    /// Name of the source (SPL-4 table "Phy event source").
    pub name: String,
    /// Bytes 4-7: value.
    pub value: u64,
    /// Bytes 8-11: peak value detector threshold.
    pub peak_threshold: u64,
}

/// One SAS phy log descriptor.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct SasPhy {
    /// Byte 1: phy identifier.
    pub phy_identifier: u8,
    /// Byte 4 bits 6-4.
    pub attached_device_type: u8,
    /// Byte 4 bits 3-0.
    pub attached_reason: u8,
    /// Byte 5 bits 7-4.
    pub reason: u8,
    /// Byte 5 bits 3-0.
    pub negotiated_logical_link_rate: u8,
    /// Rate in words ("12 Gbps", "phy disabled", ...).
    pub negotiated_logical_link_rate_str: String,
    /// Byte 6 bits 3/2/1: attached SSP/STP/SMP initiator.
    pub attached_ssp_initiator: bool,
    /// STP initiator.
    pub attached_stp_initiator: bool,
    /// SMP initiator.
    pub attached_smp_initiator: bool,
    /// Byte 7 bits 3/2/1: attached SSP/STP/SMP target.
    pub attached_ssp_target: bool,
    /// STP target.
    pub attached_stp_target: bool,
    /// SMP target.
    pub attached_smp_target: bool,
    /// Bytes 8-15, hex.
    pub sas_address: String,
    /// Bytes 16-23, hex.
    pub attached_sas_address: String,
    /// Byte 24.
    pub attached_phy_identifier: u8,
    /// Bytes 32-35.
    pub invalid_dword_count: Option<u64>,
    /// Bytes 36-39.
    pub running_disparity_error_count: Option<u64>,
    /// Bytes 40-43.
    pub loss_of_dword_synchronization: Option<u64>,
    /// Bytes 44-47.
    pub phy_reset_problem: Option<u64>,
    /// Phy event descriptors (bytes 52..).
    pub phy_events: Vec<PhyEvent>,
}

/// One target port (one log parameter).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct SasPort {
    /// Parameter code = relative target port identifier (1 = port A, 2 = port B).
    pub relative_target_port: u16,
    /// Byte 4 bits 3-0 (6 = SAS).
    pub protocol_identifier: u8,
    /// Byte 6.
    pub generation_code: u8,
    /// Byte 7: number of phys.
    pub number_of_phys: u8,
    /// The phys.
    pub phys: Vec<SasPhy>,
}

/// Protocol-specific port page for SAS.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct ProtocolPort {
    /// One entry per target port.
    pub ports: Vec<SasPort>,
}

/// SPL-4 negotiated logical link rate names (sg3_utils `show_sas_rate`).
pub fn link_rate(r: u8) -> String {
    match r {
        0 => "phy enabled; unknown rate".into(),
        1 => "phy disabled".into(),
        2 => "phy enabled; speed negotiation failed".into(),
        3 => "phy enabled; SATA spinup hold state".into(),
        4 => "phy enabled; port selector".into(),
        5 => "phy enabled; reset in progress".into(),
        6 => "phy enabled; unsupported phy attached".into(),
        8 => "1.5 Gbps".into(),
        9 => "3 Gbps".into(),
        0xa => "6 Gbps".into(),
        0xb => "12 Gbps".into(),
        0xc => "22.5 Gbps".into(),
        o => format!("reserved [{o}]"),
    }
}

/// A few SPL-4 phy event source names (the counters that matter for link health).
pub(crate) fn phy_event_name(src: u8) -> String {
    match src {
        0x00 => "no event".into(),
        0x01 => "invalid word count".into(),
        0x02 => "running disparity error count".into(),
        0x03 => "loss of dword synchronization count".into(),
        0x04 => "phy reset problem count".into(),
        0x05 => "elasticity buffer overflow count".into(),
        0x06 => "received ERROR count".into(),
        0x07 => "invalid SPL packet count".into(),
        0x08 => "loss of SPL packet synchronization count".into(),
        0x20 => "received address frame error count".into(),
        0x21 => "transmitted abandon-class OPEN_REJECT count".into(),
        0x22 => "received abandon-class OPEN_REJECT count".into(),
        0x23 => "transmitted retry-class OPEN_REJECT count".into(),
        0x24 => "received retry-class OPEN_REJECT count".into(),
        0x25 => "received AIP (WAITING ON PARTIAL) count".into(),
        0x26 => "received AIP (WAITING ON CONNECTION) count".into(),
        0x27 => "transmitted BREAK count".into(),
        0x28 => "received BREAK count".into(),
        0x29 => "break timeout count".into(),
        0x2a => "connection count".into(),
        0x2b => "peak transmitted pathway blocked count".into(),
        0x2c => "peak transmitted arbitration wait time".into(),
        0x2d => "peak arbitration time".into(),
        0x2e => "peak connection time".into(),
        0x2f => "persistent connection count".into(),
        0x40 => "transmitted SSP frame count".into(),
        0x41 => "received SSP frame count".into(),
        0x42 => "transmitted SSP frame error count".into(),
        0x43 => "received SSP frame error count".into(),
        0x44 => "transmitted CREDIT_BLOCKED count".into(),
        0x45 => "received CREDIT_BLOCKED count".into(),
        o => format!("phy event source 0x{o:02x}"),
    }
}

/// Total descriptor size to assume when the length byte is 0 (SAS-1) or implausibly small
/// (protocols.md §E.3 "assume 48"; sg_logs does the same for anything below 44).
const SAS1_DESCRIPTOR_LEN: usize = 48;

fn decode_phy(d: &[u8], notes: &mut Vec<String>, port: u16) -> SasPhy {
    let b = crate::bytes::Bytes::new(d, "SAS phy descriptor");
    let u = |o| b.u8(o).unwrap_or(0);
    let c32 = |o| b.be32(o).ok().map(u64::from);
    let rate = u(5) & 0x0f;
    let mut phy = SasPhy {
        phy_identifier: u(1),
        attached_device_type: (u(4) >> 4) & 7,
        attached_reason: u(4) & 0x0f,
        reason: u(5) >> 4,
        negotiated_logical_link_rate: rate,
        negotiated_logical_link_rate_str: link_rate(rate),
        attached_ssp_initiator: u(6) & 8 != 0,
        attached_stp_initiator: u(6) & 4 != 0,
        attached_smp_initiator: u(6) & 2 != 0,
        attached_ssp_target: u(7) & 8 != 0,
        attached_stp_target: u(7) & 4 != 0,
        attached_smp_target: u(7) & 2 != 0,
        sas_address: b.slice(8, 8).map(crate::bytes::hex).unwrap_or_default(),
        attached_sas_address: b.slice(16, 8).map(crate::bytes::hex).unwrap_or_default(),
        attached_phy_identifier: u(24),
        invalid_dword_count: c32(32),
        running_disparity_error_count: c32(36),
        loss_of_dword_synchronization: c32(40),
        phy_reset_problem: c32(44),
        phy_events: Vec::new(),
    };
    if d.len() < 48 {
        notes.push(format!(
            "protocol-specific port page: port {port} phy {}: descriptor has {} bytes, counters need 48; missing ones not decoded",
            phy.phy_identifier,
            d.len()
        ));
    }
    if d.len() > 52 {
        let elen = usize::from(u(50));
        let count = usize::from(u(51));
        if elen < 12 {
            notes.push(format!(
                "protocol-specific port page: port {port} phy {}: phy event descriptor length {elen} < 12; events not decoded",
                phy.phy_identifier
            ));
        } else {
            for i in 0..count {
                let off = 52 + i * elen;
                let Ok(e) = b.sub(off, 12) else {
                    notes.push(format!(
                        "protocol-specific port page: port {port} phy {}: {} phy event descriptors announced, only {i} present",
                        phy.phy_identifier, count
                    ));
                    break;
                };
                let src = e.u8(3).unwrap_or(0);
                phy.phy_events.push(PhyEvent {
                    source: src,
                    name: phy_event_name(src),
                    value: e.be32(4).map(u64::from).unwrap_or(0),
                    peak_threshold: e.be32(8).map(u64::from).unwrap_or(0),
                });
            }
        }
    }
    phy
}

fn decode_port(prm: &LogParam, notes: &mut Vec<String>) -> SasPort {
    let mut port = SasPort {
        relative_target_port: prm.code,
        protocol_identifier: prm.u8_at(4).unwrap_or(0) & 0x0f,
        generation_code: prm.u8_at(6).unwrap_or(0),
        number_of_phys: prm.u8_at(7).unwrap_or(0),
        phys: Vec::new(),
    };
    if prm.raw.len() < 8 {
        short_param(notes, "protocol-specific port page", prm, 8);
        return port;
    }
    let mut off = 8usize;
    for i in 0..port.number_of_phys {
        if off + 4 > prm.raw.len() {
            notes.push(format!(
                "protocol-specific port page: port {} announces {} phys, only {i} present",
                prm.code, port.number_of_phys
            ));
            break;
        }
        // sg_logs `show_sas_port_param`: a length below 44 (SAS-1/1.1 drives put 0) means the
        // fixed 48-byte SAS-1 descriptor.
        let dlen = match usize::from(prm.raw[off + 3]) {
            n if n < 44 => SAS1_DESCRIPTOR_LEN,
            n => n + 4,
        };
        let end = (off + dlen).min(prm.raw.len());
        if off + dlen > prm.raw.len() {
            notes.push(format!(
                "protocol-specific port page: port {} phy descriptor {i} overruns the parameter by {} byte(s); decoded what is present",
                prm.code,
                off + dlen - prm.raw.len()
            ));
        }
        port.phys
            .push(decode_phy(&prm.raw[off..end], notes, prm.code));
        off += dlen;
    }
    port
}

/// Decodes 0x18.
pub fn protocol_port(p: &LogPage, notes: &mut Vec<String>) -> ProtocolPort {
    let mut pp = ProtocolPort::default();
    for prm in &p.params {
        let proto = prm.u8_at(4).unwrap_or(0) & 0x0f;
        if proto != 6 {
            notes.push(format!(
                "protocol-specific port page: port {} has protocol identifier {proto}, not SAS (6); not decoded",
                prm.code
            ));
            continue;
        }
        pp.ports.push(decode_port(prm, notes));
    }
    pp
}
