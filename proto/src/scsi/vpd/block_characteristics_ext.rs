//! SBC-4 6.6.3 Block Device Characteristics Extension VPD page (0xB5): the utilization the
//! device is rated for (a write/read workload per day or year).

use crate::bytes::ParseResult;
use serde::Serialize;

/// Decoded page 0xB5.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BlockDeviceCharacteristicsExtension {
    /// Byte 5: UTILIZATION TYPE (1 combined writes and reads, 2 writes only, 3 separate).
    pub utilization_type: u8,
    /// Byte 6: UTILIZATION UNITS (2 MB ... 6 EB, powers of 1000).
    pub utilization_units: u8,
    /// Byte 7: UTILIZATION INTERVAL (0Ah per day, 0Eh per year).
    pub utilization_interval: u8,
    /// Bytes 8–11: UTILIZATION B.
    pub utilization_b: u32,
    /// Bytes 12–15: UTILIZATION A.
    pub utilization_a: u32,
}

/// Name of a UTILIZATION TYPE (SBC-4 table "UTILIZATION TYPE field").
pub fn utilization_type_name(v: u8) -> &'static str {
    match v {
        1 => "Combined writes and reads",
        2 => "Writes only",
        3 => "Separate writes and reads",
        _ => "Reserved",
    }
}

/// Name of a UTILIZATION UNITS value.
pub fn utilization_units_name(v: u8) -> &'static str {
    match v {
        2 => "megabytes",
        3 => "gigabytes",
        4 => "terabytes",
        5 => "petabytes",
        6 => "exabytes",
        _ => "Reserved",
    }
}

/// Name of a UTILIZATION INTERVAL value.
pub fn utilization_interval_name(v: u8) -> &'static str {
    match v {
        0x0a => "per day",
        0x0e => "per year",
        _ => "Reserved",
    }
}

/// Decodes page 0xB5 (16 bytes are mandatory).
pub fn decode(
    buf: &[u8],
    problems: &mut Vec<String>,
) -> ParseResult<BlockDeviceCharacteristicsExtension> {
    let what = "Block device characteristics extension VPD page";
    let (_, b) = super::body(buf, 0xb5, what, problems)?;
    b.need(16)?;
    Ok(BlockDeviceCharacteristicsExtension {
        utilization_type: b.u8(5)?,
        utilization_units: b.u8(6)?,
        utilization_interval: b.u8(7)?,
        utilization_b: b.be32(8)?,
        utilization_a: b.be32(12)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sbc4_table() {
        let page = [0, 0xb5, 0, 12, 0, 1, 3, 0x0a, 0, 0, 0, 10, 0, 0, 1, 0];
        let p = decode(&page, &mut Vec::new()).unwrap();
        assert_eq!((p.utilization_b, p.utilization_a), (10, 256));
        assert_eq!(utilization_units_name(p.utilization_units), "gigabytes");
        assert!(decode(&page[..12], &mut Vec::new()).is_err());
    }
}
