//! Text of the SPC-6 VPD pages not in the parent module (0x81, 0x82, 0x84, 0x85, 0x87, 0x8A,
//! 0x8B, 0x8C, 0x8D, 0x8F, 0x90, 0x91, 0x92), worded like sg_vpd 1.63 (Debian's sg3-utils 1.46) so tests/it/sg3_compare.rs
//! compares them field by field.

use crate::scsi::inquiry::pdt_known_name;
use crate::scsi::vpd::cfa_profile::CfaProfileInformation;
use crate::scsi::vpd::device_constituents::{DeviceConstituents, SpecificDescriptor};
use crate::scsi::vpd::feature_sets::ScsiFeatureSets;
use crate::scsi::vpd::mode_page_policy::{policy_name, ModePagePolicy};
use crate::scsi::vpd::network_addresses::{service_type_name, ManagementNetworkAddresses};
use crate::scsi::vpd::operating_definition::{
    AsciiOperatingDefinition, ImplementedOperatingDefinition,
};
use crate::scsi::vpd::power_condition::PowerCondition;
use crate::scsi::vpd::power_consumption::{PowerConsumption, UNITS};
use crate::scsi::vpd::protocol_specific::{
    ProtocolSpecificLuInformation, ProtocolSpecificPortInformation,
};
use crate::scsi::vpd::software_interface::SoftwareInterfaceIdentification;
use crate::scsi::vpd::third_party_copy::{RodDeviceFeatures, ThirdPartyCopy};
use std::fmt::Write;

/// 0x84.
pub fn software_interface(x: &SoftwareInterfaceIdentification) -> String {
    let mut t = String::from("Software interface identification VPD page:\n");
    for i in &x.identifiers {
        let _ = writeln!(
            t,
            "    IEEE Company_id: 0x{:06x}, vendor specific extension id: 0x{:06x}",
            i.ieee_company_id, i.vendor_specific_extension_id
        );
    }
    t
}

/// 0x85.
pub fn network_addresses(x: &ManagementNetworkAddresses) -> String {
    let mut t = String::from("Management network addresses VPD page:\n");
    for s in &x.services {
        let _ = writeln!(
            t,
            "  {}, Service type: {}\n    {}",
            s.association.heading(),
            service_type_name(s.service_type),
            s.network_address
        );
    }
    t
}

/// 0x87.
pub fn mode_page_policy(x: &ModePagePolicy) -> String {
    let mut t = String::from("Mode page policy VPD page:\n");
    for p in &x.policies {
        if p.policy_subpage_code != 0 {
            let _ = writeln!(
                t,
                "  Policy page code: 0x{:x},  subpage code: 0x{:x}",
                p.policy_page_code, p.policy_subpage_code
            );
        } else {
            let _ = writeln!(t, "  Policy page code: 0x{:x}", p.policy_page_code);
        }
        if p.policy_page_code == 0x3f && p.policy_subpage_code == 0xff {
            t.push_str("  therefore the policy applies to all modes pages and subpages\n");
        }
        let _ = writeln!(
            t,
            "    MLUS={},  Policy: {}",
            u8::from(p.mlus),
            policy_name(p.mode_page_policy)
        );
    }
    t
}

/// 0x8A.
pub fn power_condition(x: &PowerCondition) -> String {
    let b = u8::from;
    let mut t = String::from("Power condition VPD page:\n");
    let _ = writeln!(
        t,
        "  Standby_y={} Standby_z={} Idle_c={} Idle_b={} Idle_a={}",
        b(x.standby_y),
        b(x.standby_z),
        b(x.idle_c),
        b(x.idle_b),
        b(x.idle_a)
    );
    for (name, v) in [
        ("Stopped", x.stopped_condition_recovery_time_ms),
        ("Standby_z", x.standby_z_condition_recovery_time_ms),
        ("Standby_y", x.standby_y_condition_recovery_time_ms),
        ("Idle_a", x.idle_a_condition_recovery_time_ms),
        ("Idle_b", x.idle_b_condition_recovery_time_ms),
        ("Idle_c", x.idle_c_condition_recovery_time_ms),
    ] {
        let _ = writeln!(t, "  {name} condition recovery time (ms) {v}");
    }
    t
}

/// 0x8D: values of 1000 and more in a unit below gigawatts are shown in the next larger unit
/// with three decimals, as sg_vpd does.
pub fn power_consumption(x: &PowerConsumption) -> String {
    let mut t = String::from("Power consumption VPD page:\n");
    for d in &x.descriptors {
        let (v, u) = (
            d.power_consumption_value,
            usize::from(d.power_consumption_units),
        );
        let value = if v >= 1000 && u > 0 {
            format!("{}.{:03} {}", v / 1000, v % 1000, UNITS[u - 1])
        } else {
            format!("{v} {}", UNITS[u])
        };
        let _ = writeln!(
            t,
            "  Power consumption identifier: 0x{:x}    Maximum power consumption: {value}",
            d.power_consumption_identifier
        );
    }
    t
}

/// 0x8F.
pub fn third_party_copy(x: &ThirdPartyCopy) -> String {
    let mut t = String::from("Third party copy VPD page:\n");
    for d in &x.descriptors {
        // sg_vpd says which IDs the list holds (SPC-6: those above 07FFh).
        let above = if d.descriptor_type == 0x000c {
            " (above 0x7ff)"
        } else {
            ""
        };
        let _ = writeln!(t, " {}{above}:", d.name);
        let f = |k: &str| d.fields.get(k).and_then(serde_json::Value::as_u64);
        let nr = |v: u64, unit: &str| {
            if v == 0 {
                "0 [not reported]".to_string()
            } else {
                format!("{v}{unit}")
            }
        };
        let pow2 = |v: u64| {
            if v < 64 {
                (1u64 << v).to_string()
            } else {
                format!("too large [2^{v}]")
            }
        };
        let mut line = |label: &str, v: Option<String>| {
            if let Some(v) = v {
                let _ = writeln!(t, "  {label}: {v}");
            }
        };
        match d.descriptor_type {
            0x0000 => {
                line(
                    "Maximum range descriptors",
                    f("maximum_range_descriptors").map(|v| nr(v, "")),
                );
                line(
                    "Maximum inactivity timeout",
                    f("maximum_inactivity_timeout").map(|v| match v {
                        0xffff_ffff => "-1 [no maximum given]".to_string(),
                        v => nr(v, " seconds"),
                    }),
                );
                line(
                    "Default inactivity timeout",
                    f("default_inactivity_timeout").map(|v| nr(v, " seconds")),
                );
                line(
                    "Maximum token transfer size",
                    f("maximum_token_transfer_size").map(|v| nr(v, "")),
                );
                line(
                    "Optimal transfer count",
                    f("optimal_transfer_count").map(|v| nr(v, "")),
                );
            }
            0x0004 => {
                for (label, k) in [
                    (
                        "Maximum CSCD descriptor count",
                        "maximum_cscd_descriptor_count",
                    ),
                    (
                        "Maximum segment descriptor count",
                        "maximum_segment_descriptor_count",
                    ),
                    (
                        "Maximum descriptor list length",
                        "maximum_descriptor_list_length",
                    ),
                    ("Maximum inline data length", "maximum_inline_data_length"),
                ] {
                    line(label, f(k).map(|v| v.to_string()));
                }
            }
            0x8001 => {
                for (label, k) in [
                    ("Total concurrent copies", "total_concurrent_copies"),
                    (
                        "Maximum identified concurrent copies",
                        "maximum_identified_concurrent_copies",
                    ),
                    ("Maximum segment length", "maximum_segment_length"),
                ] {
                    line(label, f(k).map(|v| v.to_string()));
                }
                line(
                    "Data segment granularity",
                    f("data_segment_granularity_log2").map(pow2),
                );
                line(
                    "Inline data granularity",
                    f("inline_data_granularity_log2").map(pow2),
                );
            }
            0x9101 => line(
                "Maximum stream device transfer size",
                f("maximum_stream_device_transfer_size").map(|v| v.to_string()),
            ),
            0xc001 => {
                line(
                    "Held data limit",
                    f("held_data_limit").map(|v| v.to_string()),
                );
                line(
                    "Held data granularity",
                    f("held_data_granularity_log2").map(pow2),
                );
            }
            0x0001 => {
                for c in &d.supported_commands {
                    if c.service_actions.is_empty() {
                        let _ = writeln!(t, "  {}", c.name);
                    }
                    for sa in &c.service_actions {
                        let _ = writeln!(t, "  {}", sa.name);
                    }
                }
            }
            0x0008 => {
                for c in &d.supported_descriptors {
                    let _ = match c.name {
                        Some(n) => writeln!(t, "  {n} [0x{:x}]", c.code),
                        None => writeln!(t, "  0x{:x}", c.code),
                    };
                }
            }
            0x000c => {
                for c in &d.supported_cscd_ids {
                    let _ = match c.name {
                        Some(n) => writeln!(t, "  {n} [0x{:04x}]", c.code),
                        None => writeln!(t, "  0x{:04x}", c.code),
                    };
                }
            }
            0x000d => {
                if let Some(g) = &d.copy_group_identifier {
                    let _ = match &g.locally_assigned_uuid {
                        Some(u) => writeln!(t, "      Locally assigned UUID: {u}"),
                        None => writeln!(t, "  Copy group identifier (in hex): {}", g.data),
                    };
                }
            }
            0x0106 => {
                line("Remote tokens", f("remote_tokens").map(|v| v.to_string()));
                for (label, k) in [
                    ("Minimum token lifetime", "minimum_token_lifetime"),
                    ("Maximum token lifetime", "maximum_token_lifetime"),
                ] {
                    line(label, f(k).map(|v| format!("{v} seconds")));
                }
                line(
                    "Maximum token inactivity timeout",
                    f("maximum_token_inactivity_timeout").map(|v| v.to_string()),
                );
                for r in &d.rod_device_features {
                    rod_features(&mut t, r);
                }
            }
            0x0108 => {
                let yes = |v: bool| if v { "yes" } else { "no" };
                for r in &d.rod_types {
                    let _ = match r.name {
                        Some(n) => writeln!(t, "  ROD type: {n} [0x{:x}]", r.rod_type),
                        None => writeln!(t, "  ROD type: 0x{:x}", r.rod_type),
                    };
                    let _ = writeln!(
                        t,
                        "    Internal: {}\n    Token in: {}\n    Token out: {}\n    \
                         Preference: {}",
                        yes(r.ecpy_int),
                        yes(r.token_in),
                        yes(r.token_out),
                        r.preference_indication
                    );
                }
            }
            other => {
                let _ = writeln!(t, "  descriptor type 0x{other:04x}, in hex:\n  {}", d.data);
            }
        }
    }
    t
}

/// A ROD device type specific features descriptor of 0x8F's ROD token features, in sg_vpd's
/// words (an all-ones optimal size is "no limit").
fn rod_features(t: &mut String, r: &RodDeviceFeatures) {
    let f = |k: &str| r.fields.get(k).and_then(serde_json::Value::as_u64);
    let opt = |v: u64| {
        if v == u64::MAX {
            "-1 [no limit]".to_string()
        } else {
            v.to_string()
        }
    };
    let rows: &[(&str, &str, bool)] = match r.peripheral_device_type {
        0x00 => &[
            (
                "Optimal block ROD length granularity",
                "optimal_block_rod_length_granularity",
                false,
            ),
            (
                "Maximum Bytes in block ROD",
                "maximum_bytes_in_block_rod",
                false,
            ),
            (
                "Optimal Bytes in block ROD transfer",
                "optimal_bytes_in_block_rod_transfer",
                true,
            ),
            (
                "Optimal Bytes to token per segment",
                "optimal_bytes_to_token_per_segment",
                true,
            ),
            (
                "Optimal Bytes from token per segment",
                "optimal_bytes_from_token_per_segment",
                true,
            ),
        ],
        0x01 => &[
            (
                "Maximum Bytes in stream ROD",
                "maximum_bytes_in_stream_rod",
                false,
            ),
            (
                "Optimal Bytes in stream ROD transfer",
                "optimal_bytes_in_stream_rod_transfer",
                true,
            ),
        ],
        0x03 => &[
            (
                "Maximum Bytes in processor ROD",
                "maximum_bytes_in_processor_rod",
                false,
            ),
            (
                "Optimal Bytes in processor ROD transfer",
                "optimal_bytes_in_processor_rod_transfer",
                true,
            ),
        ],
        pdt => {
            let _ = writeln!(
                t,
                "  ROD features for device type 0x{pdt:x} ({}), in hex: {}",
                device_type_name(pdt),
                r.data
            );
            return;
        }
    };
    for &(label, k, unlimited) in rows {
        if let Some(v) = f(k) {
            let v = if unlimited { opt(v) } else { v.to_string() };
            let _ = writeln!(t, "  {label}: {v}");
        }
    }
}

/// 0x81 (obsolete; sg_vpd shows it in hex only).
pub fn implemented_operating_definition(x: &ImplementedOperatingDefinition) -> String {
    let mut t = String::from("Implemented operating definition VPD page (obsolete):\n");
    let _ = writeln!(
        t,
        "  Current operating definition: 0x{:x}  SAVIMP={}",
        x.current_operating_definition,
        u8::from(x.savimp)
    );
    for d in &x.supported_operating_definitions {
        let _ = writeln!(
            t,
            "  Supported operating definition: 0x{:x}  SAVIMP={}",
            d & 0x7f,
            d >> 7
        );
    }
    t
}

/// 0x82 (obsolete; sg_vpd shows it in hex only).
pub fn ascii_operating_definition(x: &AsciiOperatingDefinition) -> String {
    let mut t = String::from("ASCII implemented operating definition VPD page (obsolete):\n");
    let _ = writeln!(t, "  ASCII information: {}", x.ascii_information);
    if !x.vendor_specific.is_empty() {
        let _ = writeln!(t, "  Vendor specific: {}", x.vendor_specific);
    }
    t
}

/// 0x8B, nested pages rendered in place as sg_vpd does.
pub fn device_constituents(x: &DeviceConstituents) -> String {
    let mut t = String::from("Device constituents VPD page:\n");
    for (i, c) in x.constituents.iter().enumerate() {
        if i > 0 {
            t.push('\n');
        }
        let _ = writeln!(t, "  Constituent descriptor {}:", i + 1);
        if c.constituent_type_name == "Reserved" && c.constituent_type > 3 {
            let _ = writeln!(
                t,
                "    Constituent type: unknown [0x{:x}]",
                c.constituent_type
            );
        } else {
            let _ = writeln!(
                t,
                "    Constituent type: {} [0x{:x}]",
                c.constituent_type_name, c.constituent_type
            );
        }
        let _ = writeln!(
            t,
            "    Constituent device type: {} [0x{:x}]",
            device_type_name(c.constituent_device_type),
            c.constituent_device_type
        );
        let _ = writeln!(t, "    Vendor_identification: {}", c.vendor_identification);
        let _ = writeln!(
            t,
            "    Product_identification: {}",
            c.product_identification
        );
        let _ = writeln!(
            t,
            "    Product_revision_level: {}",
            c.product_revision_level
        );
        if c.specific_descriptors.is_empty() {
            continue;
        }
        t.push_str("    Constituent specific descriptors:\n");
        for (q, d) in c.specific_descriptors.iter().enumerate() {
            match d {
                SpecificDescriptor::VpdPage { page } => {
                    let _ = writeln!(t, "      Constituent VPD page {}:", q + 1);
                    t.push_str(&super::decoded(page));
                }
                SpecificDescriptor::Data {
                    descriptor_type,
                    data,
                } => {
                    if *descriptor_type == 0xff {
                        t.push_str("      Vendor specific data (in hex):\n");
                    } else {
                        let _ = writeln!(
                            t,
                            "      Reserved [0x{descriptor_type:x}] specific data (in hex):"
                        );
                    }
                    t.push_str(&super::hex_lines_offset(&super::unhex(data)));
                }
            }
        }
    }
    t
}

/// Peripheral device type names as sg_vpd prints them (`sg_get_pdt_str`): the INQUIRY table
/// ([`pdt_known_name`]) with sg_vpd's own words for the codes it leaves unnamed — 0Ah/0Bh
/// "graphics", FFh "Unknown", another reserved code its number (below 20h) or "Reserved".
fn device_type_name(pdt: u8) -> String {
    match (pdt, pdt_known_name(pdt)) {
        (0x0a | 0x0b, _) => format!("graphics [0x{pdt:x}]"),
        (0xff, _) => "Unknown".to_string(),
        (_, Some(n)) => n.to_string(),
        (0x00..=0x1f, None) => format!("0x{pdt:x}"),
        _ => "Reserved".to_string(),
    }
}

/// 0x8C (sg_vpd 1.63 shows it in hex only; later sg_vpd words it like this).
pub fn cfa_profile(x: &CfaProfileInformation) -> String {
    let mut t = String::from("CFA profile information VPD page:\n");
    for p in &x.profiles {
        let _ = writeln!(
            t,
            "  CFA profile supported: 0x{:x}\n    Sequential write data size: {} blocks",
            p.cfa_profile_supported, p.sequential_write_data_size
        );
    }
    t
}

/// 0x90.
pub fn protocol_lu(x: &ProtocolSpecificLuInformation) -> String {
    let mut t = String::from("Protocol-specific logical unit information:\n");
    for d in &x.descriptors {
        let _ = writeln!(t, "  Relative port={}", d.relative_port);
        match d.tlr_control_supported {
            Some(v) => {
                let _ = writeln!(
                    t,
                    "    Protocol identifier: SAS\n    TLR control supported: {}",
                    u8::from(v)
                );
            }
            None if !d.data.is_empty() => {
                let _ = writeln!(
                    t,
                    "    Protocol identifier: {}\n    Protocol-specific data: {}",
                    d.protocol.unwrap_or("?"),
                    d.data
                );
            }
            None => {}
        }
    }
    t
}

/// 0x91.
pub fn protocol_port(x: &ProtocolSpecificPortInformation) -> String {
    let mut t = String::from("Protocol-specific port information:\n");
    for d in &x.descriptors {
        let _ = writeln!(t, "  Relative port={}", d.relative_port);
        if let Some(p) = d.pwr_d_s {
            let _ = writeln!(t, "    power disable supported (pwr_d_s)={}", u8::from(p));
            for phy in &d.phys {
                let _ = writeln!(
                    t,
                    "      phy id={}, SSP persistent capable={}",
                    phy.phy_identifier,
                    u8::from(phy.ssp_persistent_capable)
                );
            }
        } else if !d.data.is_empty() {
            let _ = writeln!(
                t,
                "    Protocol identifier: {}\n    Protocol-specific data: {}",
                d.protocol.unwrap_or("?"),
                d.data
            );
        }
    }
    t
}

/// 0x92.
pub fn feature_sets(x: &ScsiFeatureSets) -> String {
    let mut t = String::from("SCSI Feature sets:\n");
    for f in &x.feature_sets {
        let _ = writeln!(t, "    {}", f.name);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::device_type_name;
    use crate::scsi::inquiry::pdt_name;

    #[test]
    fn device_type_names_share_the_inquiry_table() {
        // Named in the one table: the same words in both.
        for pdt in [0x00, 0x01, 0x08, 0x0d, 0x14, 0x1e, 0x1f] {
            assert_eq!(device_type_name(pdt), pdt_name(pdt), "{pdt:#x}");
        }
        // sg_vpd's overrides, and the codes neither names.
        assert_eq!(device_type_name(0x0a), "graphics [0xa]");
        assert_eq!(device_type_name(0x0b), "graphics [0xb]");
        assert_eq!(device_type_name(0xff), "Unknown");
        assert_eq!(device_type_name(0x15), "0x15");
        assert_eq!(device_type_name(0x20), "Reserved");
        assert_eq!(pdt_name(0x0a), "reserved");
        assert_eq!(pdt_name(0x15), "reserved");
        assert_eq!(pdt_name(0xe0), "disk", "bits 7-5 are the qualifier");
    }
}
