//! SPC-6 7.7.6 Device Identification VPD page (0x83): the LU name (NAA/EUI-64/SCSI name),
//! target port and target device designators. A dual-ported SAS drive reports the same LU NAA
//! through both ports but a different target-port NAA (the port's SAS address) and relative
//! target port (protocols.md §E.4; Fujitsu MBA3073RC manual p. 147).

use super::designator::{decode_list, Association, Designation, Designator};
use crate::bytes::ParseResult;
use serde::Serialize;

/// Decoded page 0x83.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DeviceIdentification {
    /// All designation descriptors in device order.
    pub designators: Vec<Designation>,
}

impl DeviceIdentification {
    /// The preferred logical unit name, as smartmontools chooses it (`scsi_decode_lu_dev_id`):
    /// NAA, then EUI-64, then SCSI name string, from LU-associated designators.
    pub fn lu_name(&self) -> Option<String> {
        let lu = || {
            self.designators
                .iter()
                .filter(|d| d.association == Association::LogicalUnit)
        };
        lu().find_map(|d| match &d.designator {
            Designator::Naa { value, .. } => Some(value.clone()),
            _ => None,
        })
        .or_else(|| {
            lu().find_map(|d| match &d.designator {
                Designator::Eui64 { value, .. } => Some(value.clone()),
                _ => None,
            })
        })
        .or_else(|| {
            lu().find_map(|d| match &d.designator {
                Designator::ScsiName { name } => Some(name.clone()),
                _ => None,
            })
        })
    }

    /// The target port's NAA (its SAS address), if reported.
    pub fn target_port_naa(&self) -> Option<String> {
        self.designators.iter().find_map(|d| match &d.designator {
            Designator::Naa { value, .. } if d.association == Association::TargetPort => {
                Some(value.clone())
            }
            _ => None,
        })
    }

    /// The relative target port identifier (1 = port A, 2 = port B), if reported.
    pub fn relative_target_port(&self) -> Option<u16> {
        self.designators.iter().find_map(|d| match d.designator {
            Designator::RelativeTargetPort { relative_port } => Some(relative_port),
            _ => None,
        })
    }
}

/// Parses page 0x83. Every descriptor must fit the page exactly.
pub fn parse(buf: &[u8]) -> ParseResult<DeviceIdentification> {
    super::strict("Device identification VPD page", |p| decode(buf, p))
}

/// Decodes page 0x83 as far as the bytes go; inconsistencies go to `problems`.
pub fn decode(buf: &[u8], problems: &mut Vec<String>) -> ParseResult<DeviceIdentification> {
    let (_, b) = super::body(buf, 0x83, "Device identification VPD page", problems)?;
    let list = b.sub(4, b.len().saturating_sub(4))?;
    Ok(DeviceIdentification {
        designators: decode_list(&list, problems),
    })
}
