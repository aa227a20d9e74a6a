//! Text of the SSC VPD pages (B0h–B5h of a tape drive or medium changer), worded like sg_vpd
//! 1.63 (Debian's sg3-utils 1.46), headings included, so tests/it/sg3_compare.rs compares
//! them field by field.

use crate::scsi::vpd::ssc::{
    DataTransferElementAddress, LogicalBlockProtection, SequentialAccessCapabilities,
    SerialNumberPage, TapeAlertSupportedFlags,
};
use std::fmt::Write;

/// B0h.
pub(super) fn capabilities(x: &SequentialAccessCapabilities) -> String {
    format!(
        "Sequential-access device capabilities VPD page (SSC):\n  WORM={}\n",
        u8::from(x.worm)
    )
}

/// B1h (sg_vpd's heading says "Manufactured-assigned").
pub(super) fn manufacturer_serial(x: &SerialNumberPage) -> String {
    format!(
        "Manufactured-assigned serial number VPD page (SSC):\n  Manufacturer-assigned serial \
         number: {}\n",
        x.serial_number
    )
}

/// B2h: eight flags a line, as sg_vpd lays them out.
pub(super) fn tapealert(x: &TapeAlertSupportedFlags) -> String {
    let mut t = String::from("TapeAlert supported flags VPD page (SSC):\n");
    for k in 1u8..=0x40 {
        let on = u8::from(x.supported_flags.contains(&k));
        if (k - 1) % 8 == 0 {
            if k > 1 {
                t.push('\n');
            }
            let _ = write!(t, "  Flag{k:02X}h: {on}");
        } else {
            let _ = write!(t, "  {k:02X}h: {on}");
        }
    }
    t.push('\n');
    t
}

/// B3h (sg_vpd's heading lacks the opening parenthesis).
pub(super) fn automation_serial(x: &SerialNumberPage) -> String {
    format!(
        "Automation device serial number VPD page SSC):\n  Automation device serial number: \
         {}\n",
        x.serial_number
    )
}

/// B4h.
pub(super) fn element_address(x: &DataTransferElementAddress) -> String {
    format!(
        "Data transfer device element address (SSC):\n  Data transfer device element address: \
         0x{}\n",
        x.data_transfer_device_element_address
    )
}

/// B5h.
pub(super) fn lb_protection(x: &LogicalBlockProtection) -> String {
    let mut t = String::from("Logical block protection VPD page (SSC):\n");
    for m in &x.methods {
        let _ = writeln!(
            t,
            "  method: {}, info_len: {}, LBP_W_C={}, LBP_R_C={}, RBDP_C={}",
            m.method,
            m.lbp_information_length,
            u8::from(m.lbp_w_c),
            u8::from(m.lbp_r_c),
            u8::from(m.rbdp_c)
        );
    }
    t
}
