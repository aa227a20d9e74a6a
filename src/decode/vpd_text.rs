//! Text renderings of VPD pages, worded and laid out like sg3_utils' `sg_vpd` (1.46) so the
//! output is familiar and field-by-field comparable (tests/sg3_compare.rs checks this).

use crate::scsi::vpd::ata_info::AtaInformation;
use crate::scsi::vpd::block_characteristics::{form_factor_name, BlockDeviceCharacteristics};
use crate::scsi::vpd::block_limits::BlockLimits;
use crate::scsi::vpd::designator::{
    code_set_name, protocol_name, type_name, Association, Designation, Designator,
};
use crate::scsi::vpd::extended_inquiry::ExtendedInquiry;
use crate::scsi::vpd::lb_provisioning::{provisioning_type_name, LogicalBlockProvisioning};
use crate::scsi::vpd::{VpdPage, PAGES};
use std::fmt::Write;

mod sbc;
mod spc;
mod ssc;

/// Renders any decoded page.
pub fn page(p: &VpdPage) -> String {
    match p {
        VpdPage::SupportedPages(s) => {
            let mut t = String::from("Supported VPD pages VPD page:\n");
            for code in &s.pages {
                match PAGES.iter().find(|e| e.0 == *code) {
                    Some((_, acr, name)) => {
                        let _ = writeln!(t, "  {name} [{acr}]");
                    }
                    None => {
                        let _ = writeln!(t, "  0x{code:02x}");
                    }
                }
            }
            t
        }
        VpdPage::UnitSerialNumber(s) => format!(
            "Unit serial number VPD page:\n  Unit serial number: {}\n",
            s.unit_serial_number
        ),
        VpdPage::DeviceIdentification(d) => {
            let mut t = String::from("Device Identification VPD page:\n");
            t.push_str(&designations(&d.designators, 2));
            t
        }
        VpdPage::ExtendedInquiry(e) => extended_inquiry(e),
        VpdPage::ScsiPorts(sp) => {
            let mut t = String::from("SCSI Ports VPD page:\n");
            for port in &sp.ports {
                let _ = writeln!(t, "  Relative port={}", port.relative_port);
                if let Some(tid) = &port.initiator_transport_id {
                    let _ = writeln!(t, "    Initiator port transport id:\n      {tid}");
                }
                if !port.target_port_descriptors.is_empty() {
                    t.push_str("    Target port descriptor(s):\n");
                    for d in &port.target_port_descriptors {
                        t.push_str(&designation(d, 6));
                    }
                }
            }
            t
        }
        VpdPage::AtaInformation(a) => ata_information(a),
        VpdPage::BlockLimits(b) => block_limits(b),
        VpdPage::BlockDeviceCharacteristics(b) => block_characteristics(b),
        VpdPage::LogicalBlockProvisioning(l) => lb_provisioning(l),
        VpdPage::SoftwareInterfaceIdentification(x) => spc::software_interface(x),
        VpdPage::ManagementNetworkAddresses(x) => spc::network_addresses(x),
        VpdPage::ModePagePolicy(x) => spc::mode_page_policy(x),
        VpdPage::PowerCondition(x) => spc::power_condition(x),
        VpdPage::PowerConsumption(x) => spc::power_consumption(x),
        VpdPage::ThirdPartyCopy(x) => spc::third_party_copy(x),
        VpdPage::Referrals(x) => sbc::referrals(x),
        VpdPage::ZonedBlockDeviceCharacteristics(x) => sbc::zoned(x),
        VpdPage::BlockLimitsExtension(x) => sbc::block_limits_ext(x),
        VpdPage::ConcurrentPositioningRanges(x) => sbc::positioning_ranges(x),
        VpdPage::SupportedBlockLengths(x) => sbc::block_lengths(x),
        VpdPage::FormatPresets(x) => sbc::format_presets(x),
        VpdPage::BlockDeviceCharacteristicsExtension(x) => sbc::block_characteristics_ext(x),
        VpdPage::ImplementedOperatingDefinition(x) => spc::implemented_operating_definition(x),
        VpdPage::AsciiImplementedOperatingDefinition(x) => spc::ascii_operating_definition(x),
        VpdPage::DeviceConstituents(x) => spc::device_constituents(x),
        VpdPage::CfaProfileInformation(x) => spc::cfa_profile(x),
        VpdPage::ProtocolSpecificLuInformation(x) => spc::protocol_lu(x),
        VpdPage::ProtocolSpecificPortInformation(x) => spc::protocol_port(x),
        VpdPage::ScsiFeatureSets(x) => spc::feature_sets(x),
        VpdPage::SequentialAccessDeviceCapabilities(x) => ssc::capabilities(x),
        VpdPage::ManufacturerAssignedSerialNumber(x) => ssc::manufacturer_serial(x),
        VpdPage::TapeAlertSupportedFlags(x) => ssc::tapealert(x),
        VpdPage::AutomationDeviceSerialNumber(x) => ssc::automation_serial(x),
        VpdPage::DataTransferDeviceElementAddress(x) => ssc::element_address(x),
        VpdPage::LogicalBlockProtection(x) => ssc::lb_protection(x),
        VpdPage::Other {
            page_code,
            name,
            data,
        } => {
            let bytes: Vec<u8> = (0..data.len() / 2)
                .filter_map(|i| u8::from_str_radix(data.get(2 * i..2 * i + 2)?, 16).ok())
                .collect();
            format!(
                "{name} VPD page (0x{page_code:02x}), not decoded:\n{}",
                crate::bytes::hexdump(&bytes)
            )
        }
    }
}

/// A best-effort decode: the page, then its problems (if any).
pub fn decoded(d: &crate::scsi::vpd::Decoded) -> String {
    let mut t = page(&d.page);
    t.push_str(&problems(&d.problems));
    t
}

/// The problems list of a best-effort decode, as text (empty when there are none).
pub fn problems(list: &[String]) -> String {
    let mut t = String::new();
    if !list.is_empty() {
        t.push_str("Problems (decoded as far as the bytes go):\n");
        for p in list {
            let _ = writeln!(t, "  - {p}");
        }
    }
    t
}

/// Hex lines without offsets, 16 bytes, with a padded ASCII column (sg3_utils `hex2stdout`
/// style) or without one.
fn hex_lines(b: &[u8]) -> String {
    hex_lines_opt(b, true)
}

fn hex_lines_opt(b: &[u8], ascii: bool) -> String {
    let mut s = String::new();
    for chunk in b.chunks(16) {
        let mut line = String::new();
        for (j, x) in chunk.iter().enumerate() {
            if j == 8 {
                line.push(' ');
            }
            let _ = write!(line, "{x:02x} ");
        }
        if !ascii {
            s.push_str(line.trim_end());
            s.push('\n');
            continue;
        }
        let _ = write!(s, "{line:<49}   ");
        let text: String = chunk
            .iter()
            .map(|&c| {
                if (0x20..0x7f).contains(&c) {
                    c as char
                } else {
                    '.'
                }
            })
            .collect();
        let _ = writeln!(s, "{text:<16}");
    }
    s
}

/// sg3_utils `hex2stdout(.., 0)` lines: offset, 16 bytes, ASCII.
fn hex_lines_offset(b: &[u8]) -> String {
    let mut s = String::new();
    for (i, line) in hex_lines(b).lines().enumerate() {
        let _ = writeln!(s, " {:02x}     {}", i * 16, line.trim_end());
    }
    s
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .filter_map(|i| u8::from_str_radix(s.get(2 * i..2 * i + 2)?, 16).ok())
        .collect()
}

/// Designators grouped by association, as sg_vpd prints page 0x83.
pub(crate) fn designations(list: &[Designation], indent: usize) -> String {
    let mut t = String::new();
    for assoc in [
        Association::LogicalUnit,
        Association::TargetPort,
        Association::TargetDevice,
        Association::Reserved,
    ] {
        let mut first = true;
        for d in list.iter().filter(|d| d.association == assoc) {
            if first {
                let _ = writeln!(t, "{:indent$}{}:", "", assoc.heading());
                first = false;
            }
            t.push_str(&designation(d, indent + 2));
        }
    }
    t
}

/// One designator: type line, transport line (PIV), value lines.
pub fn designation(d: &Designation, indent: usize) -> String {
    let pad = " ".repeat(indent);
    let mut t = format!(
        "{pad}designator type: {},  code set: {}\n",
        type_name(d.designator_type),
        code_set_name(d.code_set)
    );
    if let Some(p) = d.protocol_identifier {
        let _ = writeln!(t, "{pad} transport: {}", protocol_name(p));
    }
    let v = format!("{pad}  ");
    match &d.designator {
        Designator::VendorSpecific { data } if matches!(d.code_set, 2 | 3) => {
            // ASCII/UTF-8 code set: sg_vpd prints the text (QEMU puts `device_id` here).
            let _ = writeln!(
                t,
                "{v}vendor specific: {}",
                String::from_utf8_lossy(&unhex(data))
            );
        }
        Designator::VendorSpecific { data } => {
            let _ = writeln!(t, "{v}vendor specific:");
            t.push_str(&hex_lines(&unhex(data)));
        }
        Designator::T10VendorId {
            vendor_id,
            vendor_specific,
        } => {
            let _ = writeln!(t, "{v}vendor id: {vendor_id}");
            if !vendor_specific.is_empty() {
                let _ = writeln!(t, "{v}vendor specific: {vendor_specific}");
            }
        }
        Designator::Eui64 { value, .. } | Designator::Naa { value, .. } => {
            let _ = writeln!(t, "{v}{value}");
        }
        Designator::RelativeTargetPort { relative_port } => {
            let _ = writeln!(t, "{v}Relative target port: 0x{relative_port:x}");
        }
        Designator::TargetPortGroup { target_port_group } => {
            let _ = writeln!(t, "{v}Target port group: 0x{target_port_group:x}");
        }
        Designator::LogicalUnitGroup { logical_unit_group } => {
            let _ = writeln!(t, "{v}Logical unit group: 0x{logical_unit_group:x}");
        }
        Designator::Md5 { data } => {
            let _ = writeln!(t, "{v}MD5 logical unit identifier:");
            t.push_str(&hex_lines_opt(&unhex(data), false));
        }
        Designator::ScsiName { name } => {
            let _ = writeln!(t, "{v}SCSI name string:\n{v}{name}");
        }
        Designator::ProtocolSpecificPort { data } => {
            let b = unhex(data);
            match (d.protocol_identifier, b.as_slice()) {
                (Some(9), [addr, _, iface, ..]) => {
                    let _ = writeln!(
                        t,
                        "{v}USB device address: 0x{addr:x}\n{v}USB interface number: 0x{iface:x}"
                    );
                }
                (Some(0xa), [hi, lo, ..]) => {
                    let _ = writeln!(
                        t,
                        "{v}PCIe routing ID, bus number: 0x{hi:x}\n{v}    function number: 0x{lo:x}\n\
                         {v}    [or device number: 0x{:x}, function number: 0x{:x}]",
                        lo >> 3,
                        lo & 7
                    );
                }
                _ => t.push_str(&hex_lines(&b)),
            }
        }
        Designator::Uuid { uuid_type, uuid } => {
            let _ = writeln!(
                t,
                "{v}{}UUID: {uuid}",
                if *uuid_type == 1 {
                    "Locally assigned "
                } else {
                    ""
                }
            );
        }
        Designator::Reserved { data } => t.push_str(&hex_lines(&unhex(data))),
        Designator::Malformed { data, reason } => {
            let _ = writeln!(t, "{v}<< malformed: {reason} >>");
            t.push_str(&hex_lines(&unhex(data)));
        }
    }
    t
}

fn b(v: bool) -> u8 {
    u8::from(v)
}

fn extended_inquiry(e: &ExtendedInquiry) -> String {
    let mut t = String::from("extended INQUIRY data VPD page:\n");
    let _ = writeln!(
        t,
        "  ACTIVATE_MICROCODE={} SPT={} GRD_CHK={} APP_CHK={} REF_CHK={}",
        e.activate_microcode,
        e.spt,
        b(e.grd_chk),
        b(e.app_chk),
        b(e.ref_chk)
    );
    let _ = writeln!(
        t,
        "  UASK_SUP={} GROUP_SUP={} PRIOR_SUP={} HEADSUP={} ORDSUP={} SIMPSUP={}",
        b(e.uask_sup),
        b(e.group_sup),
        b(e.prior_sup),
        b(e.headsup),
        b(e.ordsup),
        b(e.simpsup)
    );
    let _ = writeln!(
        t,
        "  WU_SUP={} [CRD_SUP={}] NV_SUP={} V_SUP={}",
        b(e.wu_sup),
        b(e.crd_sup),
        b(e.nv_sup),
        b(e.v_sup)
    );
    let _ = writeln!(
        t,
        "  NO_PI_CHK={} P_I_I_SUP={} LUICLR={}",
        b(e.no_pi_chk),
        b(e.p_i_i_sup),
        b(e.luiclr)
    );
    let _ = writeln!(
        t,
        "  LU_COLL_TYPE={} R_SUP={} RTD_SUP={} HSSRELEF={} [CBCS={}]",
        e.lu_coll_type,
        b(e.r_sup),
        b(e.rtd_sup),
        b(e.hssrelef),
        b(e.cbcs)
    );
    let _ = writeln!(
        t,
        "  Multi I_T nexus microcode download={}",
        e.multi_i_t_nexus_microcode_download
    );
    let _ = writeln!(
        t,
        "  Extended self-test completion minutes={}",
        e.extended_self_test_completion_minutes
    );
    let _ = writeln!(
        t,
        "  POA_SUP={} HRA_SUP={} VSA_SUP={} DMS_VALID={}",
        b(e.poa_sup),
        b(e.hra_sup),
        b(e.vsa_sup),
        b(e.dms_valid)
    );
    let _ = writeln!(
        t,
        "  Maximum supported sense data length={}",
        e.maximum_supported_sense_data_length
    );
    let _ = writeln!(
        t,
        "  IBS={} IAS={} SAC={} NRD1={} NRD0={}",
        b(e.ibs),
        b(e.ias),
        b(e.sac),
        b(e.nrd1),
        b(e.nrd0)
    );
    let _ = writeln!(
        t,
        "  Maximum inquiry change logs={}",
        e.maximum_inquiry_change_logs
    );
    let _ = writeln!(
        t,
        "  Maximum mode page change logs={}",
        e.maximum_mode_page_change_logs
    );
    let _ = writeln!(
        t,
        "  DM_MD_4={} DM_MD_5={} DM_MD_6={} DM_MD_7={}",
        b(e.dm_md_4),
        b(e.dm_md_5),
        b(e.dm_md_6),
        b(e.dm_md_7)
    );
    let _ = writeln!(
        t,
        "  DM_MD_D={} DM_MD_E={} DM_MD_F={}",
        b(e.dm_md_d),
        b(e.dm_md_e),
        b(e.dm_md_f)
    );
    t
}

fn blocks(v: u32, zero: &str) -> String {
    if v == 0 {
        format!("0 blocks [{zero}]")
    } else {
        format!("{v} blocks")
    }
}

fn block_limits(l: &BlockLimits) -> String {
    let mut t = String::from("Block limits VPD page (SBC):\n");
    let _ = writeln!(t, "  Write same non-zero (WSNZ): {}", b(l.wsnz));
    let _ = writeln!(
        t,
        "  Maximum compare and write length: {}",
        blocks(
            u32::from(l.maximum_compare_and_write_length),
            "Command not implemented"
        )
    );
    let _ = writeln!(
        t,
        "  Optimal transfer length granularity: {}",
        blocks(
            u32::from(l.optimal_transfer_length_granularity),
            "not reported"
        )
    );
    let _ = writeln!(
        t,
        "  Maximum transfer length: {}",
        blocks(l.maximum_transfer_length, "not reported")
    );
    let _ = writeln!(
        t,
        "  Optimal transfer length: {}",
        blocks(l.optimal_transfer_length, "not reported")
    );
    if let Some(v) = l.maximum_prefetch_length {
        let _ = writeln!(
            t,
            "  Maximum prefetch transfer length: {}",
            blocks(v, "ignored")
        );
    }
    let unmap = |v: u32| {
        if v == 0 {
            "0 [Unmap command not implemented]".to_string()
        } else if v == u32::MAX {
            "-1 [unbounded]".to_string()
        } else {
            v.to_string()
        }
    };
    if let Some(v) = l.maximum_unmap_lba_count {
        let _ = writeln!(t, "  Maximum unmap LBA count: {}", unmap(v));
    }
    if let Some(v) = l.maximum_unmap_block_descriptor_count {
        let _ = writeln!(t, "  Maximum unmap block descriptor count: {}", unmap(v));
    }
    if let Some(v) = l.optimal_unmap_granularity {
        let _ = writeln!(
            t,
            "  Optimal unmap granularity: {}",
            blocks(v, "not reported")
        );
    }
    if let (Some(valid), Some(v)) = (l.ugavalid, l.unmap_granularity_alignment) {
        let _ = writeln!(t, "  Unmap granularity alignment valid: {valid}");
        let _ = writeln!(
            t,
            "  Unmap granularity alignment: {v}{}",
            if valid { "" } else { " [invalid]" }
        );
    }
    if let Some(v) = l.maximum_write_same_length {
        if v == 0 {
            t.push_str("  Maximum write same length: 0 blocks [not reported]\n");
        } else {
            let _ = writeln!(t, "  Maximum write same length: 0x{v:x} blocks");
        }
    }
    if let Some(v) = l.maximum_atomic_transfer_length {
        let _ = writeln!(
            t,
            "  Maximum atomic transfer length: {}",
            blocks(v, "not reported")
        );
    }
    if let Some(v) = l.atomic_alignment {
        if v == 0 {
            t.push_str("  Atomic alignment: 0 [unaligned atomic writes permitted]\n");
        } else {
            let _ = writeln!(t, "  Atomic alignment: {v}");
        }
    }
    if let Some(v) = l.atomic_transfer_length_granularity {
        if v == 0 {
            t.push_str("  Atomic transfer length granularity: 0 [no granularity requirement\n");
        } else {
            let _ = writeln!(t, "  Atomic transfer length granularity: {v}");
        }
    }
    if let Some(v) = l.maximum_atomic_transfer_length_with_atomic_boundary {
        let _ = writeln!(
            t,
            "  Maximum atomic transfer length with atomic boundary: {}",
            blocks(v, "not reported")
        );
    }
    if let Some(v) = l.maximum_atomic_boundary_size {
        let _ = writeln!(
            t,
            "  Maximum atomic boundary size: {}",
            blocks(v, "can only write atomic 1 block")
        );
    }
    t
}

fn product_type_name(p: u8) -> String {
    match p {
        0 => "Not specified".into(),
        1 => "CFast".into(),
        2 => "CompactFlash".into(),
        3 => "MemoryStick".into(),
        4 => "MultiMediaCard".into(),
        5 => "Secure Digital Card (SD)".into(),
        6 => "XQD".into(),
        7 => "Universal Flash Storage Card (UFS)".into(),
        o => format!("Reserved [0x{o:x}]"),
    }
}

fn block_characteristics(c: &BlockDeviceCharacteristics) -> String {
    let mut t = String::from("Block device characteristics VPD page (SBC):\n");
    match c.medium_rotation_rate {
        0 => t.push_str("  Medium rotation rate is not reported\n"),
        1 => t.push_str("  Non-rotating medium (e.g. solid state)\n"),
        r if (0x401..0xffff).contains(&r) => {
            let _ = writeln!(t, "  Nominal rotation rate: {r} rpm");
        }
        r => {
            let _ = writeln!(t, "  Reserved [0x{r:x}]");
        }
    }
    let _ = writeln!(t, "  Product type: {}", product_type_name(c.product_type));
    let _ = writeln!(t, "  WABEREQ={}", c.wabereq);
    let _ = writeln!(t, "  WACEREQ={}", c.wacereq);
    if c.nominal_form_factor == 0 {
        t.push_str("  Nominal form factor not reported\n");
    } else {
        let _ = writeln!(
            t,
            "  Nominal form factor: {}",
            form_factor_name(c.nominal_form_factor)
        );
    }
    let _ = writeln!(
        t,
        "  ZONED={}{}",
        c.zoned,
        match c.zoned {
            1 => "  [host-aware]",
            2 => "  [host-managed]",
            _ => "",
        }
    );
    let _ = writeln!(t, "  RBWZ={}", b(c.rbwz));
    let _ = writeln!(t, "  BOCS={}", b(c.bocs));
    let _ = writeln!(t, "  FUAB={}", b(c.fuab));
    let _ = writeln!(t, "  VBULS={}", b(c.vbuls));
    if let Some(d) = c.depopulation_time {
        let _ = writeln!(t, "  DEPOPULATION_TIME={d} (seconds)");
    }
    t
}

fn lb_provisioning(l: &LogicalBlockProvisioning) -> String {
    let mut t = String::from("Logical block provisioning VPD page (SBC):\n");
    let _ = writeln!(t, "  Unmap command supported (LBPU): {}", b(l.lbpu));
    let _ = writeln!(
        t,
        "  Write same (16) with unmap bit supported (LBPWS): {}",
        b(l.lbpws)
    );
    let _ = writeln!(
        t,
        "  Write same (10) with unmap bit supported (LBPWS10): {}",
        b(l.lbpws10)
    );
    let _ = writeln!(
        t,
        "  Logical block provisioning read zeros (LBPRZ): {}",
        l.lbprz
    );
    let _ = writeln!(t, "  Anchored LBAs supported (ANC_SUP): {}", b(l.anc_sup));
    if l.threshold_exponent == 0 {
        t.push_str("  Threshold exponent: 0 [threshold sets not supported]\n");
    } else {
        let _ = writeln!(t, "  Threshold exponent: {}", l.threshold_exponent);
    }
    let _ = writeln!(t, "  Descriptor present (DP): {}", b(l.dp));
    if l.minimum_percentage == 0 {
        t.push_str("  Minimum percentage: 0 [not reported]\n");
    } else {
        let _ = writeln!(t, "  Minimum percentage: {}", l.minimum_percentage);
    }
    let pt = match l.provisioning_type {
        0..=2 => provisioning_type_name(l.provisioning_type).to_string(),
        o => format!("reserved [0x{o:x}]"),
    };
    let _ = writeln!(t, "  Provisioning type: {} ({pt})", l.provisioning_type);
    match l.threshold_percentage {
        Some(0) => t.push_str("  Threshold percentage: 0 [percentages not supported]\n"),
        Some(p) => {
            let _ = writeln!(t, "  Threshold percentage: {p}");
        }
        None => {}
    }
    if let Some(d) = &l.provisioning_group {
        t.push_str("  Provisioning group descriptor:\n");
        t.push_str(&designation(d, 8));
    }
    t
}

fn ata_information(a: &AtaInformation) -> String {
    let mut t = String::from("ATA information VPD page:\n");
    let _ = writeln!(
        t,
        "  SAT Vendor identification: {}",
        a.sat_vendor_identification
    );
    let _ = writeln!(
        t,
        "  SAT Product identification: {}",
        a.sat_product_identification
    );
    let _ = writeln!(
        t,
        "  SAT Product revision level: {}",
        a.sat_product_revision_level
    );
    match a.sata_transport {
        Some(true) => t.push_str("  Device signature indicates SATA transport\n"),
        Some(false) => t.push_str("  Device signature indicates PATA transport\n"),
        None => {}
    }
    if let Some(cc) = a.command_code {
        let _ = writeln!(t, "  Command code: 0x{cc:02x}");
    }
    if let (Some(m), Some(s), Some(f)) = (&a.model, &a.serial_number, &a.firmware_revision) {
        let _ = writeln!(
            t,
            "  ATA command IDENTIFY {}DEVICE response summary:",
            if a.command_code == Some(0xa1) {
                "PACKET "
            } else {
                ""
            }
        );
        let _ = writeln!(t, "    model: {m}");
        let _ = writeln!(t, "    serial number: {s}");
        let _ = writeln!(t, "    firmware revision: {f}");
    }
    t
}
