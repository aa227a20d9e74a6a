//! SPC-6 7.7.6.1 designation descriptors, shared by the Device Identification page (0x83) and
//! the SCSI Ports page (0x88).
//!
//! Descriptor: byte 0 bits 7-4 PROTOCOL IDENTIFIER (valid only with PIV), bits 3-0 CODE SET
//! (1 binary, 2 ASCII, 3 UTF-8); byte 1 bit 7 PIV, bits 5-4 ASSOCIATION (0 LU, 1 target port,
//! 2 target device), bits 3-0 DESIGNATOR TYPE; byte 3 DESIGNATOR LENGTH; designator from byte
//! 4 (protocols.md §E.4; sg3_utils `sg_get_designation_descriptor_str`).

use crate::bytes::{hex, Bytes, ParseError, ParseResult};
use serde::Serialize;

/// ASSOCIATION field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Association {
    /// 00b: the addressed logical unit.
    LogicalUnit,
    /// 01b: the target port that received the command.
    TargetPort,
    /// 10b: the SCSI target device that contains the LU.
    TargetDevice,
    /// 11b: reserved.
    Reserved,
}

impl Association {
    pub(crate) fn from_bits(v: u8) -> Self {
        match v & 3 {
            0 => Association::LogicalUnit,
            1 => Association::TargetPort,
            2 => Association::TargetDevice,
            _ => Association::Reserved,
        }
    }

    /// Heading as sg_vpd prints it.
    pub fn heading(self) -> &'static str {
        match self {
            Association::LogicalUnit => "Addressed logical unit",
            Association::TargetPort => "Target port",
            Association::TargetDevice => "Target device that contains addressed lu",
            Association::Reserved => "Reserved [0x3]",
        }
    }
}

/// Name of a CODE SET value, as sg_vpd prints it.
pub fn code_set_name(cs: u8) -> String {
    match cs {
        1 => "Binary".into(),
        2 => "ASCII".into(),
        3 => "UTF-8".into(),
        o => format!("Reserved [0x{o:x}]"),
    }
}

/// Name of a PROTOCOL IDENTIFIER (SPC-6 Table 444), as sg3_utils prints it.
pub fn protocol_name(p: u8) -> &'static str {
    match p {
        0 => "Fibre Channel Protocol for SCSI (FCP-5)",
        1 => "SCSI Parallel Interface (SPI-5)",
        2 => "Serial Storage Architecture SCSI-3 Protocol (SSA-S3P)",
        3 => "Serial Bus Protocol for IEEE 1394 (SBP-3)",
        4 => "SCSI RDMA Protocol (SRP)",
        5 => "Internet SCSI (iSCSI)",
        6 => "Serial Attached SCSI Protocol (SPL-4)",
        7 => "Automation/Drive Interface Transport (ADT-2)",
        8 => "AT Attachment Interface (ATA/ATAPI-7)",
        9 => "USB Attached SCSI (UAS-2)",
        0xa => "SCSI over PCI Express (SOP)",
        0xb => "PCIe",
        0xf => "No specific protocol",
        _ => "[reserved]",
    }
}

/// Name of a DESIGNATOR TYPE, as sg_vpd prints it.
pub fn type_name(t: u8) -> String {
    match t {
        0 => "vendor specific [0x0]".into(),
        1 => "T10 vendor identification".into(),
        2 => "EUI-64 based".into(),
        3 => "NAA".into(),
        4 => "Relative target port".into(),
        5 => "Target port group".into(),
        6 => "Logical unit group".into(),
        7 => "MD5 logical unit identifier".into(),
        8 => "SCSI name string".into(),
        9 => "Protocol specific port identifier".into(),
        0xa => "UUID identifier".into(),
        o => format!("[0x{o:x}]"),
    }
}

/// The designator, decoded by type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Designator {
    /// Type 0: vendor specific bytes.
    VendorSpecific {
        /// Hex.
        data: String,
    },
    /// Type 1: T10 vendor ID (8 ASCII bytes) plus vendor specific identifier.
    T10VendorId {
        /// Bytes 0–7.
        vendor_id: String,
        /// The rest.
        vendor_specific: String,
    },
    /// Type 2: EUI-64 based, 8/12/16 bytes.
    Eui64 {
        /// All bytes as `0x...`.
        value: String,
        /// IEEE company id (OUI/CID).
        ieee_company_id: u32,
        /// Vendor specific extension identifier (40 bits).
        vendor_specific_extension_id: u64,
        /// 12-byte form: directory id.
        directory_id: Option<u32>,
        /// 16-byte form: identifier extension.
        identifier_extension: Option<u64>,
    },
    /// Type 3: NAA.
    Naa {
        /// NAA field (2 IEEE extended, 3 locally assigned, 5 IEEE registered, 6 registered
        /// extended).
        naa: u8,
        /// All bytes as `0x...` (the WWN as sg_vpd and udev print it).
        value: String,
        /// IEEE company id (NAA 2, 5, 6).
        ieee_company_id: Option<u32>,
        /// Vendor specific identifier (NAA 5/6: 36 bits; NAA 2: the 24-bit identifier B).
        vendor_specific_id: Option<u64>,
        /// NAA 6: vendor specific identifier extension (hex).
        vendor_specific_id_extension: Option<String>,
    },
    /// Type 4: relative target port identifier (1 = port A, 2 = port B).
    RelativeTargetPort {
        /// Bytes 2–3.
        relative_port: u16,
    },
    /// Type 5: target port group.
    TargetPortGroup {
        /// Bytes 2–3.
        target_port_group: u16,
    },
    /// Type 6: logical unit group.
    LogicalUnitGroup {
        /// Bytes 2–3.
        logical_unit_group: u16,
    },
    /// Type 7: MD5 logical unit identifier (16 bytes).
    Md5 {
        /// Hex.
        data: String,
    },
    /// Type 8: SCSI name string (UTF-8, NUL terminated and padded).
    ScsiName {
        /// The name.
        name: String,
    },
    /// Type 9: protocol specific port identifier.
    ProtocolSpecificPort {
        /// Hex.
        data: String,
    },
    /// Type 0xA: UUID (RFC 4122), locally assigned when byte 0 bits 7-4 are 1.
    Uuid {
        /// Byte 0 bits 7-4 (1 = locally assigned).
        uuid_type: u8,
        /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`.
        uuid: String,
    },
    /// Reserved types.
    Reserved {
        /// Hex.
        data: String,
    },
    /// A designator whose length does not fit its type (kept in hex, listed as a problem).
    Malformed {
        /// Hex.
        data: String,
        /// What is wrong with it.
        reason: String,
    },
}

/// One designation descriptor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Designation {
    /// Byte 0 bits 3-0.
    pub code_set: u8,
    /// Byte 1 bit 7.
    pub piv: bool,
    /// Byte 0 bits 7-4, when PIV is set and the association is a port or device.
    pub protocol_identifier: Option<u8>,
    /// Byte 1 bits 5-4.
    pub association: Association,
    /// Byte 1 bits 3-0.
    pub designator_type: u8,
    /// Byte 3.
    pub designator_length: u8,
    /// Decoded designator.
    pub designator: Designator,
}

const WHAT: &str = "designation descriptor";

fn bad(reason: String) -> ParseError {
    ParseError::new(WHAT, reason)
}

/// Parses a list of designation descriptors filling `b` exactly; any inconsistency is an
/// error (see `decode_list` for the best-effort form).
pub fn parse_list(b: &Bytes<'_>) -> ParseResult<Vec<Designation>> {
    let mut problems = Vec::new();
    let v = decode_list(b, &mut problems);
    match problems.into_iter().next() {
        Some(p) => Err(bad(p)),
        None => Ok(v),
    }
}

/// Decodes a list of designation descriptors as far as the bytes go, as sg_vpd does: a
/// descriptor whose length overruns the list ends the list (everything before it is kept); a
/// descriptor whose length does not fit its type is kept as [`Designator::Malformed`]. Each
/// inconsistency is added to `problems`.
pub(crate) fn decode_list(b: &Bytes<'_>, problems: &mut Vec<String>) -> Vec<Designation> {
    let mut out = Vec::new();
    let mut off = 0;
    while off < b.len() {
        let Ok(hdr) = b.sub(off, 4) else {
            problems.push(format!(
                "descriptor header at offset {off} overruns the list ({} bytes left)",
                b.len() - off
            ));
            break;
        };
        let (b0, b1, len) = (
            hdr.as_slice()[0],
            hdr.as_slice()[1],
            usize::from(hdr.as_slice()[3]),
        );
        let Ok(d) = b.sub(off + 4, len) else {
            problems.push(format!(
                "designator length {len} at offset {off} overruns the list ({} bytes left)",
                b.len() - off - 4
            ));
            break;
        };
        match parse_one(b0, b1, d) {
            Ok(x) => out.push(x),
            Err(e) => {
                problems.push(format!("descriptor at offset {off}: {}", e.reason));
                out.push(malformed(b0, b1, d, e.reason));
            }
        }
        off += 4 + len;
    }
    out
}

/// A designation kept in hex with `reason` (its type and association still decoded).
pub fn malformed(b0: u8, b1: u8, d: Bytes<'_>, reason: String) -> Designation {
    let association = Association::from_bits(b1 >> 4);
    let piv = b1 & 0x80 != 0;
    Designation {
        code_set: b0 & 0x0f,
        piv,
        protocol_identifier: (piv && association != Association::LogicalUnit).then_some(b0 >> 4),
        association,
        designator_type: b1 & 0x0f,
        designator_length: d.len() as u8,
        designator: Designator::Malformed {
            data: hex(d.as_slice()),
            reason,
        },
    }
}

fn parse_one(b0: u8, b1: u8, d: Bytes<'_>) -> ParseResult<Designation> {
    let code_set = b0 & 0x0f;
    let piv = b1 & 0x80 != 0;
    let association = Association::from_bits(b1 >> 4);
    let dtype = b1 & 0x0f;
    let len = d.len();
    let data = d.as_slice();
    let need = |ok: bool, what: &str| -> ParseResult<()> {
        if ok {
            Ok(())
        } else {
            Err(bad(format!("{what} designator with length {len}")))
        }
    };
    let designator = match dtype {
        0 => Designator::VendorSpecific { data: hex(data) },
        1 => {
            need(len >= 8, "T10 vendor id")?;
            Designator::T10VendorId {
                vendor_id: ascii_keep(&data[..8]),
                vendor_specific: ascii_keep(&data[8..]),
            }
        }
        2 => {
            need(matches!(len, 8 | 12 | 16), "EUI-64")?;
            let base = if len == 16 { 8 } else { 0 };
            Designator::Eui64 {
                value: format!("0x{}", hex(data)),
                ieee_company_id: d.be24(base)?,
                vendor_specific_extension_id: d.be_var(base + 3, 5)?,
                directory_id: if len == 12 { Some(d.be32(8)?) } else { None },
                identifier_extension: if len == 16 { Some(d.be64(0)?) } else { None },
            }
        }
        3 => {
            need(len >= 1, "NAA")?;
            let naa = data[0] >> 4;
            match naa {
                2 | 3 | 5 => need(len == 8, "NAA")?,
                6 => need(len == 16, "NAA 6")?,
                _ => {}
            }
            let (cid, vsi) = match naa {
                2 => (Some(d.be24(2)?), Some(u64::from(d.be24(5)?))),
                5 | 6 => {
                    let v = d.be64(0)?;
                    (
                        Some(((v >> 36) & 0xff_ffff) as u32),
                        Some(v & 0xf_ffff_ffff),
                    )
                }
                _ => (None, None),
            };
            Designator::Naa {
                naa,
                value: format!("0x{}", hex(data)),
                ieee_company_id: cid,
                vendor_specific_id: vsi,
                vendor_specific_id_extension: (naa == 6).then(|| hex(&data[8..])),
            }
        }
        4 => {
            need(len == 4, "relative target port")?;
            Designator::RelativeTargetPort {
                relative_port: d.be16(2)?,
            }
        }
        5 => {
            need(len == 4, "target port group")?;
            Designator::TargetPortGroup {
                target_port_group: d.be16(2)?,
            }
        }
        6 => {
            need(len == 4, "logical unit group")?;
            Designator::LogicalUnitGroup {
                logical_unit_group: d.be16(2)?,
            }
        }
        7 => Designator::Md5 { data: hex(data) },
        8 => {
            let end = data.iter().position(|&c| c == 0).unwrap_or(len);
            Designator::ScsiName {
                name: String::from_utf8_lossy(&data[..end]).into_owned(),
            }
        }
        9 => Designator::ProtocolSpecificPort { data: hex(data) },
        0xa => {
            need(len == 18, "UUID")?;
            let u = &data[2..18];
            Designator::Uuid {
                uuid_type: data[0] >> 4,
                uuid: format!(
                    "{}-{}-{}-{}-{}",
                    hex(&u[..4]),
                    hex(&u[4..6]),
                    hex(&u[6..8]),
                    hex(&u[8..10]),
                    hex(&u[10..])
                ),
            }
        }
        _ => Designator::Reserved { data: hex(data) },
    };
    Ok(Designation {
        code_set,
        piv,
        protocol_identifier: (piv && association != Association::LogicalUnit).then_some(b0 >> 4),
        association,
        designator_type: dtype,
        designator_length: len as u8,
        designator,
    })
}

/// ASCII with trailing spaces kept (sg_vpd shows T10 vendor ids padded) but control bytes
/// shown as spaces.
fn ascii_keep(b: &[u8]) -> String {
    b.iter()
        .map(|&c| {
            if (0x20..0x7f).contains(&c) {
                c as char
            } else {
                ' '
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(bytes: &[u8]) -> ParseResult<Designation> {
        let v = parse_list(&Bytes::new(bytes, "t"))?;
        Ok(v.into_iter().next().unwrap())
    }

    #[test]
    fn naa5_fields() {
        let d = one(&[
            0x61, 0x93, 0, 8, 0x50, 0x00, 0xc5, 0x00, 0x30, 0x11, 0xcb, 0x29,
        ])
        .unwrap();
        assert_eq!(d.protocol_identifier, Some(6));
        assert_eq!(d.association, Association::TargetPort);
        assert_eq!(
            d.designator,
            Designator::Naa {
                naa: 5,
                value: "0x5000c5003011cb29".into(),
                ieee_company_id: Some(0xc50),
                vendor_specific_id: Some(0x3011cb29),
                vendor_specific_id_extension: None,
            }
        );
    }

    #[test]
    fn malformed() {
        assert!(one(&[1, 3, 0, 4, 0x50, 0, 0, 0]).is_err()); // NAA 5 with 4 bytes
        assert!(one(&[1, 3, 0, 9, 0x50, 0, 0, 0]).is_err()); // overruns
        assert!(one(&[1, 0x0a, 0, 2, 0x10, 0]).is_err()); // UUID too short
        assert!(parse_list(&Bytes::new(&[1, 3, 0], "t")).is_err());
    }
}
