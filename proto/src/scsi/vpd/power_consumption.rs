//! SPC-6 7.7.15 Power Consumption VPD page (0x8D): the maximum power of each power
//! consumption identifier (selected with the Power Consumption mode page).

use crate::bytes::ParseResult;
use serde::Serialize;

/// One power consumption descriptor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PowerConsumptionDescriptor {
    /// Byte 0.
    pub power_consumption_identifier: u8,
    /// Byte 1 bits 2-0: 0 gigawatts .. 5 microwatts.
    pub power_consumption_units: u8,
    /// Bytes 2–3.
    pub power_consumption_value: u16,
}

/// Decoded page 0x8D.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PowerConsumption {
    /// Descriptors in device order.
    pub descriptors: Vec<PowerConsumptionDescriptor>,
}

/// Unit names (SPC-6 Table 573), as sg_vpd prints them.
pub const UNITS: [&str; 8] = [
    "Gigawatts",
    "Megawatts",
    "Kilowatts",
    "Watts",
    "Milliwatts",
    "Microwatts",
    "Unit reserved",
    "Unit reserved",
];

const WHAT: &str = "Power consumption VPD page";

/// Parses page 0x8D (strict).
pub fn parse(buf: &[u8]) -> ParseResult<PowerConsumption> {
    super::strict(WHAT, |p| decode(buf, p))
}

/// Decodes page 0x8D; a trailing partial descriptor is a problem.
pub fn decode(buf: &[u8], problems: &mut Vec<String>) -> ParseResult<PowerConsumption> {
    let (_, b) = super::body(buf, 0x8d, WHAT, problems)?;
    let list = b.rest(4);
    let descriptors = list
        .chunks_exact(4)
        .map(|c| PowerConsumptionDescriptor {
            power_consumption_identifier: c[0],
            power_consumption_units: c[1] & 7,
            power_consumption_value: u16::from_be_bytes([c[2], c[3]]),
        })
        .collect();
    if list.len() % 4 != 0 {
        problems.push(format!(
            "{} trailing bytes do not make a 4-byte descriptor",
            list.len() % 4
        ));
    }
    Ok(PowerConsumption { descriptors })
}
