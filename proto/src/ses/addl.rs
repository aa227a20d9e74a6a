//! SES-4 7.2.13 Additional Element Status diagnostic page (0Ah) with the SAS
//! protocol-specific information of SES-4 7.6 (annex "SAS protocol-specific information"):
//! the SAS addresses that tie a device slot to the drive's ports, and an expander's phys.
//!
//! Page: bytes 4-7 GENERATION CODE, then descriptors (table "Additional Element Status
//! descriptor"): byte 0 bit 7 INVALID, bit 4 EIP, bits 3-0 PROTOCOL IDENTIFIER; byte 1
//! ADDITIONAL ELEMENT STATUS DESCRIPTOR LENGTH (n-1). With EIP=1: byte 2 bits 1-0 EIIOE, byte
//! 3 ELEMENT INDEX, protocol-specific information from byte 4. With EIP=0 the descriptors
//! follow the elements of the types that have one, in order, and the protocol-specific
//! information starts at byte 2.
//!
//! SAS (protocol identifier 6), DESCRIPTOR TYPE 00b (Device Slot, Array Device Slot): byte 0
//! NUMBER OF PHY DESCRIPTORS, byte 1 bits 7-6 DESCRIPTOR TYPE and bit 0 NOT ALL PHYS; with
//! EIP=1 byte 3 DEVICE SLOT NUMBER and the phy descriptors from byte 4, with EIP=0 from byte
//! 2. Phy descriptor, 28 bytes: byte 0 bits 6-4 DEVICE TYPE, byte 2 initiator port bits (SSP 3,
//! STP 2, SMP 1), byte 3 target port bits (SATA PORT SELECTOR 7, SSP 3, STP 2, SMP 1, SATA
//! DEVICE 0), bytes 4-11 ATTACHED SAS ADDRESS, 12-19 SAS ADDRESS, byte 20 PHY IDENTIFIER.
//! DESCRIPTOR TYPE 01b: SAS Expander (bytes 4-11 SAS ADDRESS, then 2-byte expander phy
//! descriptors: CONNECTOR ELEMENT INDEX, OTHER ELEMENT INDEX), SCSI Initiator/Target Port and
//! Enclosure Services Controller Electronics (12-byte phy descriptors from byte 4: PHY
//! IDENTIFIER, -, CONNECTOR ELEMENT INDEX, OTHER ELEMENT INDEX, SAS ADDRESS).

use super::{body, check_generation, element_type, generation, page, Config, Decoded};
use crate::bytes::{hex, Bytes, ParseResult};
use serde::Serialize;

/// SPC-6 7.6.1 table "PROTOCOL IDENTIFIER values" (the names sg_ses prints).
pub(super) fn protocol_name(p: u8) -> &'static str {
    match p & 0xf {
        0 => "Fibre Channel",
        1 => "Parallel SCSI",
        2 => "SSA",
        3 => "IEEE 1394",
        4 => "SCSI RDMA",
        5 => "iSCSI",
        6 => "SAS",
        7 => "ADT",
        8 => "ATA/ATAPI",
        9 => "UAS",
        0xa => "SOP",
        0xb => "PCIe",
        0xf => "No specific protocol",
        _ => "reserved",
    }
}

/// SAS-3 DEVICE TYPE field names (sg_ses' words).
fn device_type_name(t: u8) -> &'static str {
    match t {
        0 => "no SAS device attached",
        1 => "end device",
        2 => "expander device",
        3 => "expander device (fanout)",
        _ => "reserved",
    }
}

/// A Device Slot / Array Device Slot phy descriptor (28 bytes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SlotPhy {
    /// Byte 0 bits 6-4.
    pub device_type: u8,
    /// Its name.
    pub device_type_name: &'static str,
    /// Byte 2 bit 3.
    pub ssp_initiator: bool,
    /// Byte 2 bit 2.
    pub stp_initiator: bool,
    /// Byte 2 bit 1.
    pub smp_initiator: bool,
    /// Byte 3 bit 7.
    pub sata_port_selector: bool,
    /// Byte 3 bit 3.
    pub ssp_target: bool,
    /// Byte 3 bit 2.
    pub stp_target: bool,
    /// Byte 3 bit 1.
    pub smp_target: bool,
    /// Byte 3 bit 0.
    pub sata_device: bool,
    /// Bytes 4-11 (`0x` and 16 hex digits): the expander phy's (or initiator's) address.
    pub attached_sas_address: String,
    /// Bytes 12-19: the device's port address on this phy (the drive's target port).
    pub sas_address: String,
    /// Byte 20.
    pub phy_identifier: u8,
}

/// An expander phy descriptor (2 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ExpanderPhy {
    /// Byte 0 (0xFF: no connector).
    pub connector_element_index: u8,
    /// Byte 1 (0xFF: none).
    pub other_element_index: u8,
}

/// A port phy descriptor of a SCSI Initiator Port, SCSI Target Port or ESCE element
/// (12 bytes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PortPhy {
    /// Byte 0.
    pub phy_identifier: u8,
    /// Byte 2.
    pub connector_element_index: u8,
    /// Byte 3.
    pub other_element_index: u8,
    /// Bytes 4-11.
    pub sas_address: String,
}

/// SAS protocol-specific information.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "descriptor", rename_all = "snake_case")]
pub enum SasInfo {
    /// Descriptor type 00b: a Device Slot or Array Device Slot.
    Slot {
        /// Byte 0.
        phy_descriptors: u8,
        /// Byte 1 bit 0.
        not_all_phys: bool,
        /// Byte 3 (EIP=1 only).
        device_slot_number: Option<u8>,
        /// The phy descriptors present (one per drive port: two for a dual-ported drive).
        phys: Vec<SlotPhy>,
    },
    /// Descriptor type 01b on a SAS Expander element.
    Expander {
        /// Byte 0.
        phy_descriptors: u8,
        /// Bytes 4-11.
        sas_address: String,
        /// The expander phy descriptors present.
        phys: Vec<ExpanderPhy>,
    },
    /// Descriptor type 01b on a SCSI Initiator Port, SCSI Target Port or ESCE element.
    Port {
        /// Byte 0.
        phy_descriptors: u8,
        /// The phy descriptors present.
        phys: Vec<PortPhy>,
    },
    /// Descriptor type 10b or 11b (reserved): bytes in `data`.
    Reserved {
        /// Byte 1 bits 7-6.
        descriptor_type: u8,
    },
}

/// One additional element status descriptor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AddlDescriptor {
    /// Byte 0 bit 7: the descriptor's contents are not valid.
    pub invalid: bool,
    /// Byte 0 bit 4: the descriptor carries an ELEMENT INDEX.
    pub eip: bool,
    /// Byte 2 bits 1-0 (EIP=1).
    pub eiioe: Option<u8>,
    /// The ELEMENT INDEX field as sent (EIP=1).
    pub element_index_field: Option<u8>,
    /// The element index (overall elements not counted) the descriptor describes: the field
    /// converted per EIIOE (EIP=1), or the next element of a type with descriptors (EIP=0).
    pub element_index: Option<u32>,
    /// The element's type descriptor header index, type and name, from the configuration.
    pub type_index: Option<usize>,
    /// ELEMENT TYPE.
    pub element_type: Option<u8>,
    /// Its name.
    pub type_name: Option<String>,
    /// The element's SUBENCLOSURE IDENTIFIER (from its type descriptor header).
    pub subenclosure_id: Option<u8>,
    /// Byte 0 bits 3-0.
    pub protocol: u8,
    /// Its name.
    pub protocol_name: &'static str,
    /// SAS information (protocol 6).
    pub sas: Option<SasInfo>,
    /// The protocol-specific bytes (hex).
    pub data: String,
}

/// Decoded Additional Element Status page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AddlStatus {
    /// Bytes 4-7.
    pub generation_code: u32,
    /// The descriptors present, in page order.
    pub descriptors: Vec<AddlDescriptor>,
}

impl AddlStatus {
    /// The descriptor of an element index, if present.
    pub fn for_element(&self, element_index: u32) -> Option<&AddlDescriptor> {
        self.descriptors
            .iter()
            .find(|d| d.element_index == Some(element_index))
    }
}

/// Element types that have additional element status (SES-4 7.2.13).
fn has_addl(t: u8) -> bool {
    matches!(
        t,
        element_type::DEVICE_SLOT
            | element_type::ARRAY_DEVICE_SLOT
            | element_type::SAS_EXPANDER
            | element_type::SCSI_INITIATOR_PORT
            | element_type::SCSI_TARGET_PORT
            | element_type::ESCE
    )
}

/// The element index (overall elements not counted) of an index that counts them (EIIOE=1);
/// `None` if it names an overall element or lies past the last element.
fn from_including_overall(config: &Config, idx: u32) -> Option<u32> {
    let mut pos = idx;
    for t in &config.types {
        if pos == 0 {
            return None;
        }
        pos -= 1;
        let n = u32::from(t.possible_elements);
        if pos < n {
            return Some(t.first_element_index + pos);
        }
        pos -= n;
    }
    None
}

const WHAT: &str = "Additional Element Status diagnostic page";

/// Decodes the Additional Element Status page, with `config` to resolve element indexes and
/// types. A descriptor that overruns the page ends the list, with a problem.
pub fn decode_addl_status(config: &Config, buf: &[u8]) -> ParseResult<Decoded<AddlStatus>> {
    let mut problems = Vec::new();
    let (_, b) = body(buf, page::ADDITIONAL_ELEMENT_STATUS, WHAT, &mut problems)?;
    let generation_code = generation(&b, &mut problems);
    if b.len() >= 8 {
        check_generation(generation_code, config, &mut problems);
    }
    // Elements that can have a descriptor, in order (for EIP=0 descriptors).
    let mut implied = config.types.iter().enumerate().flat_map(|(ti, t)| {
        let first = t.first_element_index;
        (0..u32::from(t.possible_elements))
            .filter(move |_| has_addl(t.element_type))
            .map(move |n| (ti, first + n))
    });
    let mut descriptors = Vec::new();
    let mut off = 8usize;
    while off < b.len() {
        let n = match b.u8(off + 1) {
            Ok(l) => usize::from(l) + 2,
            Err(_) => {
                problems.push(format!(
                    "descriptor at offset {off}: one byte left, no length"
                ));
                break;
            }
        };
        let Ok(d) = b.sub(off, n) else {
            problems.push(format!(
                "descriptor of {n} bytes at offset {off} overruns the page ({} bytes)",
                b.len()
            ));
            break;
        };
        descriptors.push(descriptor(config, &d, off, &mut implied, &mut problems));
        off += n;
    }
    Ok(Decoded {
        page: AddlStatus {
            generation_code,
            descriptors,
        },
        problems,
    })
}

fn sas_addr(b: &Bytes<'_>, off: usize) -> String {
    b.be64(off)
        .map(|v| format!("0x{v:016x}"))
        .unwrap_or_default()
}

fn descriptor(
    config: &Config,
    d: &Bytes<'_>,
    at: usize,
    implied: &mut impl Iterator<Item = (usize, u32)>,
    problems: &mut Vec<String>,
) -> AddlDescriptor {
    let b0 = d.u8(0).unwrap_or(0);
    let eip = b0 & 0x10 != 0;
    let protocol = b0 & 0xf;
    let psi_off = if eip { 4 } else { 2 };
    // The element at this descriptor's position among the elements that have one.
    let pos = implied.next().map(|x| x.1);
    // SAS DESCRIPTOR TYPE: 00b belongs to a slot, 01b to the other types.
    let dtype = (protocol == 6)
        .then(|| d.u8(psi_off + 1).ok().map(|b| b >> 6))
        .flatten();
    let fits = |i: u32| {
        config
            .locate(i)
            .and_then(|(ti, _)| config.types.get(ti))
            .is_some_and(|t| {
                let slot = matches!(
                    t.element_type,
                    element_type::DEVICE_SLOT | element_type::ARRAY_DEVICE_SLOT
                );
                has_addl(t.element_type)
                    && match dtype {
                        Some(0) => slot,
                        Some(1) => !slot,
                        _ => true,
                    }
            })
    };
    let (eiioe, field, index) = if eip {
        let eiioe = d.u8(2).map(|v| v & 3).ok();
        let field = d.u8(3).ok();
        let mut index = match (eiioe, field) {
            (Some(0), Some(f)) => Some(u32::from(f)),
            (Some(1), Some(f)) => {
                let i = from_including_overall(config, u32::from(f));
                if i.is_none() {
                    problems.push(format!(
                        "descriptor at offset {at}: element index {f} (EIIOE=1, overall \
                         elements counted) names no element"
                    ));
                }
                i
            }
            (Some(e), Some(f)) => {
                problems.push(format!(
                    "descriptor at offset {at}: EIIOE={e} not decoded; element index {f} taken \
                     as not counting overall elements"
                ));
                Some(u32::from(f))
            }
            _ => {
                problems.push(format!(
                    "descriptor at offset {at}: too short for its element index"
                ));
                None
            }
        };
        // A field that names an element this descriptor cannot describe, when the element at
        // its position fits: the position wins (as sg_ses decodes it), with a problem.
        if let (Some(i), Some(p)) = (index, pos) {
            if !fits(i) && fits(p) {
                problems.push(format!(
                    "descriptor at offset {at}: ELEMENT INDEX {i} names an element this \
                     descriptor cannot describe; taken as element {p}, the next one in order"
                ));
                index = Some(p);
            }
        }
        (eiioe, field, index)
    } else {
        (None, None, pos)
    };
    let located = index.and_then(|i| config.locate(i));
    if index.is_some() && located.is_none() {
        problems.push(format!(
            "descriptor at offset {at}: element index {} is past the configuration's {} \
             elements",
            index.unwrap_or(0),
            config.element_count()
        ));
    }
    let t = located.and_then(|(ti, _)| config.types.get(ti));
    if let Some(t) = t {
        if !has_addl(t.element_type) {
            problems.push(format!(
                "descriptor at offset {at}: element {} is a {} element, which has no additional \
                 element status",
                index.unwrap_or(0),
                t.type_name
            ));
        }
    }
    let psi = d.sub(psi_off, d.len().saturating_sub(psi_off)).ok();
    let sas = match (protocol, psi) {
        (6, Some(p)) => sas_info(&p, eip, t.map(|t| t.element_type), at, problems),
        (6, None) => {
            problems.push(format!(
                "descriptor at offset {at}: no protocol-specific information"
            ));
            None
        }
        _ => None,
    };
    AddlDescriptor {
        invalid: b0 & 0x80 != 0,
        eip,
        eiioe,
        element_index_field: field,
        element_index: index,
        type_index: located.map(|l| l.0),
        element_type: t.map(|t| t.element_type),
        type_name: t.map(|t| t.type_name.clone()),
        subenclosure_id: t.map(|t| t.subenclosure_id),
        protocol,
        protocol_name: protocol_name(protocol),
        sas,
        data: hex(d.rest(psi_off)),
    }
}

fn sas_info(
    p: &Bytes<'_>,
    eip: bool,
    etype: Option<u8>,
    at: usize,
    problems: &mut Vec<String>,
) -> Option<SasInfo> {
    let (Ok(count), Ok(b1)) = (p.u8(0), p.u8(1)) else {
        problems.push(format!(
            "descriptor at offset {at}: SAS information shorter than 2 bytes"
        ));
        return None;
    };
    let dtype = b1 >> 6;
    let mut short = |have: usize, each: usize| {
        if have < usize::from(count) {
            problems.push(format!(
                "descriptor at offset {at}: {count} phy descriptors announced, room for {have} \
                 ({each} bytes each)"
            ));
        }
    };
    match dtype {
        0 => {
            let (slot, from) = if eip { (p.u8(3).ok(), 4) } else { (None, 2) };
            let mut phys = Vec::new();
            for i in 0..usize::from(count) {
                let Ok(ph) = p.sub(from + 28 * i, 28) else {
                    break;
                };
                let (b0, b2, b3) = (
                    ph.u8(0).unwrap_or(0),
                    ph.u8(2).unwrap_or(0),
                    ph.u8(3).unwrap_or(0),
                );
                let dt = (b0 >> 4) & 7;
                phys.push(SlotPhy {
                    device_type: dt,
                    device_type_name: device_type_name(dt),
                    ssp_initiator: b2 & 8 != 0,
                    stp_initiator: b2 & 4 != 0,
                    smp_initiator: b2 & 2 != 0,
                    sata_port_selector: b3 & 0x80 != 0,
                    ssp_target: b3 & 8 != 0,
                    stp_target: b3 & 4 != 0,
                    smp_target: b3 & 2 != 0,
                    sata_device: b3 & 1 != 0,
                    attached_sas_address: sas_addr(&ph, 4),
                    sas_address: sas_addr(&ph, 12),
                    phy_identifier: ph.u8(20).unwrap_or(0),
                });
            }
            short(phys.len(), 28);
            Some(SasInfo::Slot {
                phy_descriptors: count,
                not_all_phys: b1 & 1 != 0,
                device_slot_number: slot,
                phys,
            })
        }
        1 if etype == Some(element_type::SAS_EXPANDER) => {
            let sas_address = sas_addr(p, 4);
            let mut phys = Vec::new();
            for i in 0..usize::from(count) {
                let Ok(ph) = p.slice(12 + 2 * i, 2) else {
                    break;
                };
                phys.push(ExpanderPhy {
                    connector_element_index: ph[0],
                    other_element_index: ph[1],
                });
            }
            short(phys.len(), 2);
            Some(SasInfo::Expander {
                phy_descriptors: count,
                sas_address,
                phys,
            })
        }
        1 => {
            let mut phys = Vec::new();
            for i in 0..usize::from(count) {
                let Ok(ph) = p.sub(4 + 12 * i, 12) else {
                    break;
                };
                phys.push(PortPhy {
                    phy_identifier: ph.u8(0).unwrap_or(0),
                    connector_element_index: ph.u8(2).unwrap_or(0),
                    other_element_index: ph.u8(3).unwrap_or(0),
                    sas_address: sas_addr(&ph, 4),
                });
            }
            short(phys.len(), 12);
            Some(SasInfo::Port {
                phy_descriptors: count,
                phys,
            })
        }
        t => Some(SasInfo::Reserved { descriptor_type: t }),
    }
}
