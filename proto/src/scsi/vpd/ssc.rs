//! The SSC VPD pages that share page codes B0h–B5h with SBC: a tape drive or medium changer
//! (peripheral device type 01h or 08h) means these, as sg_vpd decides too.
//!
//! - B0h Sequential-Access Device Capabilities (SSC-4 8.6.2): byte 4 bit 0 WORM.
//! - B1h Manufacturer-assigned Serial Number (SSC-4 8.6.3): ASCII from byte 4.
//! - B2h TapeAlert Supported Flags (SSC-4 8.6.4): bytes 4–11, one bit per flag 01h–40h
//!   (byte 4 bit 7 is flag 01h).
//! - B3h Automation Device Serial Number (SSC-4 8.6.5): ASCII from byte 4.
//! - B4h Data Transfer Device Element Address (SSC-4 8.6.6): bytes from byte 4.
//! - B5h Logical Block Protection (SSC-5 8.6.7): from byte 8, descriptors of byte 0 + 1
//!   bytes: byte 1 LOGICAL BLOCK PROTECTION METHOD, byte 2 bits 5-0 LBP INFORMATION LENGTH,
//!   byte 3 bits 7/6/5 LBP_W_C, LBP_R_C, RBDP_C.

use crate::bytes::{ascii_trim, hex, ParseResult};
use serde::Serialize;

/// Decoded page B0h (SSC).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SequentialAccessCapabilities {
    /// Byte 4 bit 0.
    pub worm: bool,
    /// Byte 4 whole (later SSC revisions define more bits).
    pub byte_4: u8,
}

/// Decoded page B1h or B3h (SSC): a serial number string.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SerialNumberPage {
    /// Bytes 4.. as ASCII.
    pub serial_number: String,
}

/// Decoded page B2h (SSC).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TapeAlertSupportedFlags {
    /// The flag numbers (01h–40h) the device supports.
    pub supported_flags: Vec<u8>,
    /// Bytes 4–11 (hex).
    pub flags: String,
}

/// Decoded page B4h (SSC).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DataTransferElementAddress {
    /// Bytes 4.. (hex).
    pub data_transfer_device_element_address: String,
}

/// One logical block protection method.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LbpMethod {
    /// Byte 1.
    pub method: u8,
    /// Byte 2 bits 5-0.
    pub lbp_information_length: u8,
    /// Byte 3 bit 7.
    pub lbp_w_c: bool,
    /// Byte 3 bit 6.
    pub lbp_r_c: bool,
    /// Byte 3 bit 5.
    pub rbdp_c: bool,
}

/// Decoded page B5h (SSC).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LogicalBlockProtection {
    /// Methods in page order.
    pub methods: Vec<LbpMethod>,
}

/// B0h.
pub(crate) fn decode_b0(
    buf: &[u8],
    problems: &mut Vec<String>,
) -> ParseResult<SequentialAccessCapabilities> {
    let what = "Sequential-access device capabilities VPD page";
    let (_, b) = super::body(buf, 0xb0, what, problems)?;
    b.need(5)?;
    let v = b.u8(4)?;
    Ok(SequentialAccessCapabilities {
        worm: v & 1 != 0,
        byte_4: v,
    })
}

/// B1h or B3h.
pub(crate) fn decode_serial(
    buf: &[u8],
    code: u8,
    problems: &mut Vec<String>,
) -> ParseResult<SerialNumberPage> {
    let (_, b) = super::body(buf, code, "SSC serial number VPD page", problems)?;
    let raw = b.rest(4);
    // sg_vpd prints up to the first NUL; so does this.
    let end = raw.iter().position(|&c| c == 0).unwrap_or(raw.len());
    Ok(SerialNumberPage {
        serial_number: ascii_trim(&raw[..end]),
    })
}

/// B2h (12 bytes are mandatory).
pub(crate) fn decode_b2(
    buf: &[u8],
    problems: &mut Vec<String>,
) -> ParseResult<TapeAlertSupportedFlags> {
    let (_, b) = super::body(buf, 0xb2, "TapeAlert supported flags VPD page", problems)?;
    b.need(12)?;
    let bytes = b.slice(4, 8)?;
    let supported_flags = (1u8..=0x40)
        .filter(|k| {
            let i = usize::from((k - 1) / 8);
            bytes[i] & (0x80 >> ((k - 1) % 8)) != 0
        })
        .collect();
    Ok(TapeAlertSupportedFlags {
        supported_flags,
        flags: hex(bytes),
    })
}

/// B4h.
pub(crate) fn decode_b4(
    buf: &[u8],
    problems: &mut Vec<String>,
) -> ParseResult<DataTransferElementAddress> {
    let what = "Data transfer device element address VPD page";
    let (_, b) = super::body(buf, 0xb4, what, problems)?;
    Ok(DataTransferElementAddress {
        data_transfer_device_element_address: hex(b.rest(4)),
    })
}

/// B5h (8 bytes are mandatory): a descriptor that overruns the page ends the list.
pub(crate) fn decode_b5(
    buf: &[u8],
    problems: &mut Vec<String>,
) -> ParseResult<LogicalBlockProtection> {
    let (_, b) = super::body(buf, 0xb5, "Logical block protection VPD page", problems)?;
    b.need(8)?;
    let mut methods = Vec::new();
    let mut off = 8;
    while off < b.len() {
        let len = usize::from(b.u8(off)?);
        let Ok(d) = b.slice(off, 1 + len) else {
            problems.push(format!(
                "protection method descriptor at offset {off} (length {len}) overruns the page"
            ));
            break;
        };
        if d.len() < 4 {
            problems.push(format!(
                "protection method descriptor at offset {off} is shorter than 4 bytes"
            ));
        } else {
            methods.push(LbpMethod {
                method: d[1],
                lbp_information_length: d[2] & 0x3f,
                lbp_w_c: d[3] & 0x80 != 0,
                lbp_r_c: d[3] & 0x40 != 0,
                rbdp_c: d[3] & 0x20 != 0,
            });
        }
        off += 1 + len;
    }
    Ok(LogicalBlockProtection { methods })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ssc_tables() {
        let p = decode_b0(&[1, 0xb0, 0, 4, 1, 0, 0, 0], &mut Vec::new()).unwrap();
        assert!(p.worm);
        let p = decode_b2(
            &[1, 0xb2, 0, 12, 0, 0, 0, 0, 0x80, 0x41, 0, 0, 0, 0, 0, 1],
            &mut Vec::new(),
        )
        .unwrap();
        assert_eq!(p.supported_flags, vec![0x21, 0x2a, 0x30]);
        let s = decode_serial(
            &[1, 0xb1, 0, 5, b'A', b'B', 0, b'C', b' '],
            0xb1,
            &mut Vec::new(),
        )
        .unwrap();
        assert_eq!(s.serial_number, "AB");
        let a = decode_b4(&[1, 0xb4, 0, 2, 0x12, 0xab], &mut Vec::new()).unwrap();
        assert_eq!(a.data_transfer_device_element_address, "12ab");
        let mut pr = Vec::new();
        let l = decode_b5(
            &[1, 0xb5, 0, 12, 0, 0, 0, 0, 3, 1, 4, 0xe0, 3, 2, 8, 0x40],
            &mut pr,
        )
        .unwrap();
        assert_eq!(l.methods.len(), 2);
        assert!(l.methods[0].rbdp_c && !l.methods[1].lbp_w_c && l.methods[1].lbp_r_c);
        assert!(pr.is_empty());
        decode_b5(&[1, 0xb5, 0, 6, 0, 0, 0, 0, 9, 1], &mut pr).unwrap();
        assert_eq!(pr.len(), 1);
    }
}
