//! SPC-6 7.7.6 Device Constituents VPD page (0x8B): the constituents of the logical unit
//! (a virtual tape library's drives, a block device behind a gateway), each with its own
//! vendor, product and revision and a list of constituent type specific descriptors.
//!
//! Constituent descriptor (table "Constituent descriptor"): bytes 0–1 CONSTITUENT TYPE,
//! byte 2 CONSTITUENT DEVICE TYPE, bytes 4–11 T10 VENDOR IDENTIFICATION, 12–27 PRODUCT
//! IDENTIFICATION, 28–31 PRODUCT REVISION LEVEL, 34–35 CONSTITUENT DESCRIPTOR LENGTH (n−35),
//! then the specific descriptors: byte 0 type, bytes 2–3 ADDITIONAL LENGTH (n−3), data. A
//! specific descriptor of type 01h carries one of the constituent's VPD pages (SPC-5; sg_vpd
//! decodes it the same way), FFh is vendor specific.

use crate::bytes::{ascii_trim, hex, ParseResult};
use serde::Serialize;

/// Decoded page 0x8B.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DeviceConstituents {
    /// Constituents in page order.
    pub constituents: Vec<Constituent>,
}

/// One constituent descriptor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Constituent {
    /// Bytes 0–1: CONSTITUENT TYPE.
    pub constituent_type: u16,
    /// Its name.
    pub constituent_type_name: String,
    /// Byte 2: CONSTITUENT DEVICE TYPE (a peripheral device type, FFh unknown).
    pub constituent_device_type: u8,
    /// Bytes 4–11.
    pub vendor_identification: String,
    /// Bytes 12–27.
    pub product_identification: String,
    /// Bytes 28–31.
    pub product_revision_level: String,
    /// The constituent type specific descriptors.
    pub specific_descriptors: Vec<SpecificDescriptor>,
}

/// One constituent type specific descriptor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SpecificDescriptor {
    /// Type 01h: a VPD page of the constituent, decoded as far as its bytes go.
    VpdPage {
        /// The decoded page (with its own problems).
        page: super::Decoded,
    },
    /// Any other type (FFh vendor specific, others reserved): the bytes in hex.
    Data {
        /// Byte 0.
        descriptor_type: u8,
        /// The data (hex).
        data: String,
    },
}

/// Name of a CONSTITUENT TYPE (SPC-6 table "CONSTITUENT TYPE field").
pub fn constituent_type_name(t: u16) -> String {
    match t {
        1 => "Virtual tape library".into(),
        2 => "Virtual tape drive".into(),
        3 => "Direct access block device".into(),
        _ => "Reserved".into(),
    }
}

const WHAT: &str = "Device constituents VPD page";

/// Decodes page 0x8B: a descriptor that overruns the page ends the list (its fixed fields are
/// kept when present), with a problem. A nested Device Constituents page is not decoded again
/// (SPC-6 forbids it) and is shown in hex.
pub fn decode(buf: &[u8], problems: &mut Vec<String>) -> ParseResult<DeviceConstituents> {
    let (_, b) = super::body(buf, 0x8b, WHAT, problems)?;
    let mut constituents = Vec::new();
    let mut off = 4;
    while off < b.len() {
        let Ok(fixed) = b.sub(off, 36) else {
            problems.push(format!(
                "constituent descriptor at offset {off} is shorter than its 36 fixed bytes"
            ));
            break;
        };
        let t = fixed.be16(0)?;
        let mut c = Constituent {
            constituent_type: t,
            constituent_type_name: constituent_type_name(t),
            constituent_device_type: fixed.u8(2)?,
            vendor_identification: ascii_trim(fixed.slice(4, 8)?),
            product_identification: ascii_trim(fixed.slice(12, 16)?),
            product_revision_level: ascii_trim(fixed.slice(28, 4)?),
            specific_descriptors: Vec::new(),
        };
        let len = usize::from(fixed.be16(34)?);
        let Ok(list) = b.slice(off + 36, len) else {
            problems.push(format!(
                "constituent descriptor at offset {off} (length {len}) overruns the page ({} \
                 bytes)",
                b.len()
            ));
            constituents.push(c);
            break;
        };
        c.specific_descriptors = specific(list, off + 36, problems);
        constituents.push(c);
        off += 36 + len;
    }
    Ok(DeviceConstituents { constituents })
}

fn specific(list: &[u8], base: usize, problems: &mut Vec<String>) -> Vec<SpecificDescriptor> {
    let mut out = Vec::new();
    let mut off = 0;
    while off < list.len() {
        let (Some(&kind), Some(hi), Some(lo)) =
            (list.get(off), list.get(off + 2), list.get(off + 3))
        else {
            problems.push(format!(
                "constituent specific descriptor at offset {} has no 4-byte header",
                base + off
            ));
            break;
        };
        let len = usize::from(u16::from_be_bytes([*hi, *lo]));
        let Some(data) = list.get(off + 4..off + 4 + len) else {
            problems.push(format!(
                "constituent specific descriptor at offset {} (length {len}) overruns its list",
                base + off
            ));
            break;
        };
        let nested_ok = data.len() >= 4 && data[1] != 0x8b;
        out.push(match super::decode_best(data) {
            Ok(page) if kind == 1 && nested_ok => SpecificDescriptor::VpdPage { page },
            _ => {
                if kind == 1 {
                    problems.push(format!(
                        "constituent VPD page at offset {} is not decodable (too short or \
                         itself a Device Constituents page)",
                        base + off
                    ));
                }
                SpecificDescriptor::Data {
                    descriptor_type: kind,
                    data: hex(data),
                }
            }
        });
        off += 4 + len;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn constituent(t: u16, pdt: u8, specific: &[u8]) -> Vec<u8> {
        let mut d = t.to_be_bytes().to_vec();
        d.extend([pdt, 0]);
        d.extend(b"VENDORIDPRODUCT-ID-16CHRREV1");
        d.extend([0, 0]);
        d.extend((specific.len() as u16).to_be_bytes());
        d.extend(specific);
        d
    }

    fn page(body: &[u8]) -> Vec<u8> {
        let mut p = vec![0, 0x8b];
        p.extend((body.len() as u16).to_be_bytes());
        p.extend(body);
        p
    }

    #[test]
    fn spc6_tables_with_a_nested_page() {
        // Specific descriptors: a Unit Serial Number page, vendor data, a nested 8Bh page.
        let mut s = vec![1, 0, 0, 8, 0, 0x80, 0, 4];
        s.extend(b"SUB1");
        s.extend([0xff, 0, 0, 2, 0xab, 0xcd]);
        s.extend([1, 0, 0, 4, 0, 0x8b, 0, 0]);
        let mut body = constituent(1, 8, &s);
        body.extend(constituent(3, 0xff, &[]));
        let mut pr = Vec::new();
        let p = decode(&page(&body), &mut pr).unwrap();
        assert_eq!(p.constituents.len(), 2);
        let c = &p.constituents[0];
        assert_eq!(c.constituent_type_name, "Virtual tape library");
        assert_eq!(c.constituent_device_type, 8);
        assert_eq!(c.product_identification, "PRODUCT-ID-16CHR");
        assert!(matches!(
            &c.specific_descriptors[0],
            SpecificDescriptor::VpdPage { page } if matches!(page.page, super::super::VpdPage::UnitSerialNumber(_))
        ));
        assert!(matches!(
            &c.specific_descriptors[1],
            SpecificDescriptor::Data { descriptor_type: 0xff, data } if data == "abcd"
        ));
        assert!(matches!(
            &c.specific_descriptors[2],
            SpecificDescriptor::Data {
                descriptor_type: 1,
                ..
            }
        ));
        assert_eq!(pr.len(), 1, "{pr:?}");
        assert_eq!(
            p.constituents[1].constituent_type_name,
            "Direct access block device"
        );
    }

    #[test]
    fn overrun_keeps_the_fixed_fields() {
        let mut body = constituent(2, 1, &[0xff, 0, 0, 0]);
        body[35] = 200;
        let mut pr = Vec::new();
        let p = decode(&page(&body), &mut pr).unwrap();
        assert_eq!(p.constituents[0].vendor_identification, "VENDORID");
        assert_eq!(pr.len(), 1);
    }
}
