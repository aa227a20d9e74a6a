//! SBC-5 6.6.5 Format Presets VPD page (0xB8): one 64-byte descriptor per format preset the
//! drive offers to FORMAT WITH PRESET (SBC-5 5.5).
//!
//! Descriptor: bytes 0–3 PRESET IDENTIFIER; byte 4 SCHEMA TYPE (1 block device, 2 host aware
//! zoned, 3 host managed zoned, 4 zone domains and realms); byte 7 bits 3-0 LOGICAL BLOCKS PER
//! PHYSICAL BLOCK EXPONENT; bytes 8–11 LOGICAL BLOCK LENGTH; bytes 16–23 DESIGNED LAST LOGICAL
//! BLOCK ADDRESS; byte 38 bits 7-6 FMTPINFO, bits 2-0 PROTECTION FIELD USAGE; byte 39 bits 3-0
//! PROTECTION INTERVAL EXPONENT; bytes 40–63 schema-type specific (zoned schemas: byte 40 low
//! and byte 41 high LBA conventional zones percentage in tenths, bytes 52–55 logical blocks
//! per zone; zone domains: bytes 40–41 zone types of domains 0–3, bytes 56–63 designed zone
//! maximum address). Field offsets checked against sg3_utils `sg_vpd`.

use crate::bytes::ParseResult;
use serde::Serialize;

/// Zoned schema fields (schema types 2 and 3); `None` when the page ends before the bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ZonedPreset {
    /// Byte 40, tenths of a percent.
    pub low_lba_conventional_zones_permille: Option<u8>,
    /// Byte 41, tenths of a percent.
    pub high_lba_conventional_zones_permille: Option<u8>,
    /// Bytes 52–55.
    pub logical_blocks_per_zone: Option<u32>,
}

/// Zone domains and realms schema fields (schema type 4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ZoneDomainsPreset {
    /// Bytes 40–41: zone type of zone domains 0, 1, 2, 3 (a nibble each).
    pub zone_domain_types: [u8; 4],
    /// Bytes 52–55.
    pub logical_blocks_per_zone: u32,
    /// Bytes 56–63.
    pub designed_zone_maximum_address: u64,
}

/// One format preset. A field is `None` when the page ends before its bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FormatPreset {
    /// Bytes 0–3.
    pub preset_identifier: u32,
    /// Byte 4.
    pub schema_type: Option<u8>,
    /// Byte 7 bits 3-0.
    pub lbppbe: Option<u8>,
    /// Bytes 8–11.
    pub logical_block_length: Option<u32>,
    /// Bytes 16–23.
    pub designed_last_lba: Option<u64>,
    /// Byte 38 bits 7-6.
    pub fmtpinfo: Option<u8>,
    /// Byte 38 bits 2-0.
    pub protection_field_usage: Option<u8>,
    /// Byte 39 bits 3-0.
    pub protection_interval_exponent: Option<u8>,
    /// Schema types 2 and 3.
    pub zoned: Option<ZonedPreset>,
    /// Schema type 4.
    pub zone_domains: Option<ZoneDomainsPreset>,
}

impl FormatPreset {
    /// The protection type this preset formats to (FMTPINFO × PFU, SBC-4 Table 38), `None`
    /// for a combination FORMAT UNIT would refuse.
    pub fn protection_type(&self) -> Option<u8> {
        match (self.fmtpinfo?, self.protection_field_usage?) {
            (0, 0) => Some(0),
            (2, 0) => Some(1),
            (3, 0) => Some(2),
            (3, 1) => Some(3),
            _ => None,
        }
    }
}

/// Words for a schema type.
pub fn schema_name(t: u8) -> &'static str {
    match t {
        1 => "block device",
        2 => "host aware zoned block device",
        3 => "host managed zoned block device",
        4 => "zone domains and realms device",
        _ => "reserved",
    }
}

/// Decoded page 0xB8.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FormatPresets {
    /// Presets in device order.
    pub presets: Vec<FormatPreset>,
}

const WHAT: &str = "Format presets VPD page";

/// Parses page 0xB8 (strict).
pub fn parse(buf: &[u8]) -> ParseResult<FormatPresets> {
    super::strict(WHAT, |p| decode(buf, p))
}

fn be(s: &[u8]) -> u64 {
    s.iter().fold(0u64, |a, &b| (a << 8) | u64::from(b))
}

/// Decodes page 0xB8 as far as the bytes go; a trailing partial descriptor is a problem (its
/// fields whose bytes are there are still decoded).
pub fn decode(buf: &[u8], problems: &mut Vec<String>) -> ParseResult<FormatPresets> {
    let (_, b) = super::body(buf, 0xb8, WHAT, problems)?;
    b.need(4)?;
    let list = b.rest(4);
    let presets = list
        .chunks(64)
        .filter(|c| c.len() >= 4)
        .map(|c| {
            let num = |a: usize, b: usize| c.get(a..b).map(be);
            let byte = |i: usize| c.get(i).copied();
            let schema_type = byte(4);
            let full = c.len() == 64;
            FormatPreset {
                preset_identifier: be(&c[0..4]) as u32,
                schema_type,
                lbppbe: byte(7).map(|b| b & 0x0f),
                logical_block_length: num(8, 12).map(|v| v as u32),
                designed_last_lba: num(16, 24),
                fmtpinfo: byte(38).map(|b| b >> 6),
                protection_field_usage: byte(38).map(|b| b & 0x07),
                protection_interval_exponent: byte(39).map(|b| b & 0x0f),
                zoned: matches!(schema_type, Some(2 | 3)).then(|| ZonedPreset {
                    low_lba_conventional_zones_permille: byte(40),
                    high_lba_conventional_zones_permille: byte(41),
                    logical_blocks_per_zone: num(52, 56).map(|v| v as u32),
                }),
                zone_domains: (full && schema_type == Some(4)).then(|| ZoneDomainsPreset {
                    zone_domain_types: [c[40] >> 4, c[40] & 0x0f, c[41] >> 4, c[41] & 0x0f],
                    logical_blocks_per_zone: be(&c[52..56]) as u32,
                    designed_zone_maximum_address: be(&c[56..64]),
                }),
            }
        })
        .collect();
    if list.len() % 64 != 0 {
        problems.push(format!(
            "{} trailing bytes do not make a 64-byte format preset descriptor",
            list.len() % 64
        ));
    }
    Ok(FormatPresets { presets })
}

/// Builds one block-device (schema 1) preset descriptor (for the virtual drive and tests).
pub fn build_descriptor(id: u32, lbppbe: u8, lb_len: u32, last_lba: u64, prot: u8) -> [u8; 64] {
    let mut d = [0u8; 64];
    d[0..4].copy_from_slice(&id.to_be_bytes());
    d[4] = 1;
    d[7] = lbppbe & 0x0f;
    d[8..12].copy_from_slice(&lb_len.to_be_bytes());
    d[16..24].copy_from_slice(&last_lba.to_be_bytes());
    d[38] = match prot {
        1 => 0x80,
        2 => 0xc0,
        3 => 0xc1,
        _ => 0,
    };
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(descs: &[[u8; 64]]) -> Vec<u8> {
        let mut v = vec![0, 0xb8, 0, (descs.len() * 64) as u8];
        for d in descs {
            v.extend_from_slice(d);
        }
        v
    }

    /// SBC-5 Table 271 layout: a type-2 4096 preset and a host-managed zoned preset.
    #[test]
    fn table_layout() {
        let a = build_descriptor(0x11223344, 3, 4096, 0x0123_4567_89ab, 2);
        let mut z = build_descriptor(7, 0, 512, 0xffff, 0);
        z[4] = 3;
        z[39] = 0x02;
        z[40] = 15;
        z[41] = 5;
        z[52..56].copy_from_slice(&0x8_0000u32.to_be_bytes());
        let p = parse(&page(&[a, z])).unwrap();
        let x = &p.presets[0];
        assert_eq!(
            (
                x.preset_identifier,
                x.schema_type,
                x.lbppbe,
                x.logical_block_length
            ),
            (0x11223344, Some(1), Some(3), Some(4096))
        );
        assert_eq!(x.designed_last_lba, Some(0x0123_4567_89ab));
        assert_eq!((x.fmtpinfo, x.protection_field_usage), (Some(3), Some(0)));
        assert_eq!(x.protection_type(), Some(2));
        assert!(x.zoned.is_none());
        let y = &p.presets[1];
        assert_eq!(y.protection_interval_exponent, Some(2));
        let zz = y.zoned.as_ref().unwrap();
        assert_eq!(
            (
                zz.low_lba_conventional_zones_permille,
                zz.high_lba_conventional_zones_permille
            ),
            (Some(15), Some(5))
        );
        assert_eq!(zz.logical_blocks_per_zone, Some(0x8_0000));
        assert_eq!(
            schema_name(y.schema_type.unwrap_or(0)),
            "host managed zoned block device"
        );
    }

    #[test]
    fn short_descriptors() {
        let a = build_descriptor(1, 0, 512, 9, 3);
        let mut buf = page(&[a]);
        buf.truncate(4 + 40);
        let mut ps = Vec::new();
        let p = decode(&buf, &mut ps).unwrap();
        assert_eq!(p.presets[0].protection_type(), Some(3));
        assert!(!ps.is_empty());
        assert!(parse(&buf).is_err());
        let mut ps = Vec::new();
        buf.truncate(4 + 20);
        let p = decode(&buf, &mut ps).unwrap();
        assert_eq!(p.presets[0].logical_block_length, Some(512));
        assert_eq!(p.presets[0].designed_last_lba, None);
        assert_eq!(p.presets[0].protection_type(), None);
        for n in 0..80 {
            let junk: Vec<u8> = (0..n).map(|i| (i * 91) as u8).collect();
            let _ = decode(&junk, &mut Vec::new());
        }
    }
}
