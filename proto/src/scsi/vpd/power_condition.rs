//! SPC-6 7.7.14 Power Condition VPD page (0x8A): supported power conditions and their
//! recovery times (milliseconds).

use crate::bytes::ParseResult;
use serde::Serialize;

/// Decoded page 0x8A.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PowerCondition {
    /// Byte 4 bit 1.
    pub standby_y: bool,
    /// Byte 4 bit 0.
    pub standby_z: bool,
    /// Byte 5 bit 2.
    pub idle_c: bool,
    /// Byte 5 bit 1.
    pub idle_b: bool,
    /// Byte 5 bit 0.
    pub idle_a: bool,
    /// Bytes 6–7.
    pub stopped_condition_recovery_time_ms: u16,
    /// Bytes 8–9.
    pub standby_z_condition_recovery_time_ms: u16,
    /// Bytes 10–11.
    pub standby_y_condition_recovery_time_ms: u16,
    /// Bytes 12–13.
    pub idle_a_condition_recovery_time_ms: u16,
    /// Bytes 14–15.
    pub idle_b_condition_recovery_time_ms: u16,
    /// Bytes 16–17.
    pub idle_c_condition_recovery_time_ms: u16,
}

const WHAT: &str = "Power condition VPD page";

/// Parses page 0x8A (strict).
pub fn parse(buf: &[u8]) -> ParseResult<PowerCondition> {
    super::strict(WHAT, |p| decode(buf, p))
}

/// Decodes page 0x8A (18 bytes are mandatory, as for sg_vpd).
pub fn decode(buf: &[u8], problems: &mut Vec<String>) -> ParseResult<PowerCondition> {
    let (_, b) = super::body(buf, 0x8a, WHAT, problems)?;
    b.need(18)?;
    let (b4, b5) = (b.u8(4)?, b.u8(5)?);
    Ok(PowerCondition {
        standby_y: b4 & 2 != 0,
        standby_z: b4 & 1 != 0,
        idle_c: b5 & 4 != 0,
        idle_b: b5 & 2 != 0,
        idle_a: b5 & 1 != 0,
        stopped_condition_recovery_time_ms: b.be16(6)?,
        standby_z_condition_recovery_time_ms: b.be16(8)?,
        standby_y_condition_recovery_time_ms: b.be16(10)?,
        idle_a_condition_recovery_time_ms: b.be16(12)?,
        idle_b_condition_recovery_time_ms: b.be16(14)?,
        idle_c_condition_recovery_time_ms: b.be16(16)?,
    })
}
