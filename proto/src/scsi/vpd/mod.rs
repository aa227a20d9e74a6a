//! SPC-6 7.7 Vital product data pages (INQUIRY with EVPD=1): one file per page, a common
//! header check, the page-name table and [`decode`], which picks the parser from the page code
//! in the data itself.
//!
//! Header (SPC-6 7.7.1): byte 0 peripheral qualifier/device type, byte 1 page code, bytes 2–3
//! PAGE LENGTH (n−3). Bytes after PAGE LENGTH are ignored.
//!
//! Two policies for untrusted lengths: [`decode_best`] decodes as far as the bytes
//! go, as sg_vpd does — a page shorter than its PAGE LENGTH is decoded from the bytes present,
//! a descriptor that overruns ends its list, a designator of the wrong length is kept in hex —
//! and lists every inconsistency in [`Decoded::problems`]; a page too short for its mandatory
//! fields is shown in hex with the reason. [`decode`] and each page's `parse` are the strict
//! form for callers that need exact data (identification, the gate): any problem is an error.

pub mod ata_info;
pub mod block_characteristics;
pub mod block_characteristics_ext;
pub mod block_lengths;
pub mod block_limits;
pub mod block_limits_ext;
pub mod cfa_profile;
pub mod designator;
pub mod device_constituents;
pub mod device_id;
pub mod extended_inquiry;
pub mod feature_sets;
pub mod format_presets;
pub mod lb_provisioning;
pub mod mode_page_policy;
pub mod network_addresses;
pub mod operating_definition;
pub mod positioning_ranges;
pub mod power_condition;
pub mod power_consumption;
pub mod protocol_specific;
pub mod referrals;
pub(crate) mod scsi_ports;
pub mod serial;
pub mod software_interface;
pub mod ssc;
pub mod supported;
pub mod third_party_copy;
pub mod zoned;

use crate::bytes::{hex, Bytes, ParseError, ParseResult};
use serde::Serialize;

/// Page names: (code, sg_vpd acronym, T10 name).
pub const PAGES: &[(u8, &str, &str)] = &[
    (0x00, "sv", "Supported VPD pages"),
    (0x80, "sn", "Unit serial number"),
    (0x81, "iod", "Implemented operating definition (obsolete)"),
    (
        0x82,
        "aod",
        "ASCII implemented operating definition (obsolete)",
    ),
    (0x83, "di", "Device identification"),
    (0x84, "sii", "Software interface identification"),
    (0x85, "mna", "Management network addresses"),
    (0x86, "ei", "Extended inquiry data"),
    (0x87, "mpp", "Mode page policy"),
    (0x88, "sp", "SCSI ports"),
    (0x89, "ai", "ATA information (SAT)"),
    (0x8a, "pc", "Power condition"),
    (0x8b, "dc", "Device constituents"),
    (0x8c, "cfa", "CFA profile information"),
    (0x8d, "psm", "Power consumption"),
    (0x8f, "tpc", "Third party copy"),
    (0x90, "pslu", "Protocol specific logical unit information"),
    (0x91, "pspo", "Protocol specific port information"),
    (0x92, "sfs", "SCSI feature sets"),
    (0xb0, "bl", "Block limits (SBC)"),
    (0xb1, "bdc", "Block device characteristics (SBC)"),
    (0xb2, "lbpv", "Logical block provisioning (SBC)"),
    (0xb3, "ref", "Referrals (SBC)"),
    (
        0xb4,
        "sbl",
        "Supported block lengths and protection types (SBC)",
    ),
    (0xb5, "bdce", "Block device characteristics extension (SBC)"),
    (0xb6, "zbdc", "Zoned block device characteristics"),
    (0xb7, "ble", "Block limits extension (SBC)"),
    (0xb8, "fp", "Format presets"),
    (0xb9, "cpr", "Concurrent positioning ranges"),
    (0xba, "cap", "Capacity/product identification mapping"),
];

/// The SSC pages that reuse B0h–B5h (a tape drive or medium changer): (code, sg_vpd acronym,
/// T10 name).
pub const SSC_PAGES: &[(u8, &str, &str)] = &[
    (0xb0, "sad", "Sequential access device capabilities (SSC)"),
    (0xb1, "mas", "Manufacturer assigned serial number (SSC)"),
    (0xb2, "tas", "TapeAlert supported flags (SSC)"),
    (0xb3, "adsn", "Automation device serial number (SSC)"),
    (0xb4, "dtde", "Data transfer device element address (SSC)"),
    (0xb5, "lbpro", "Logical block protection (SSC)"),
];

/// Whether a peripheral device type reads B0h–B5h as the SSC pages (tape, medium changer).
pub(crate) fn is_ssc(peripheral_device_type: u8) -> bool {
    matches!(peripheral_device_type, 0x01 | 0x08)
}

/// The T10 name of a page code.
pub fn page_name(code: u8) -> String {
    PAGES
        .iter()
        .find(|p| p.0 == code)
        .map(|p| p.2.to_string())
        .unwrap_or_else(|| {
            if code >= 0xc0 {
                format!("Vendor specific page 0x{code:02x}")
            } else {
                format!("Unknown page 0x{code:02x}")
            }
        })
}

/// Resolves a page given by the user: a number (`0x83`, `131`, `83h`) or an sg_vpd acronym
/// (`di`). `None` if neither.
pub fn page_from_str(s: &str) -> Option<u8> {
    let t = s.trim().to_ascii_lowercase();
    if let Some(p) = PAGES.iter().chain(SSC_PAGES).find(|p| p.1 == t) {
        return Some(p.0);
    }
    if let Some(h) = t.strip_prefix("0x") {
        return u8::from_str_radix(h, 16).ok();
    }
    if let Some(h) = t.strip_suffix('h') {
        return u8::from_str_radix(h, 16).ok();
    }
    t.parse::<u8>().ok()
}

/// The checked VPD page header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct VpdHeader {
    /// Byte 0 bits 7-5.
    pub peripheral_qualifier: u8,
    /// Byte 0 bits 4-0.
    pub peripheral_device_type: u8,
    /// Byte 1.
    pub page_code: u8,
    /// Bytes 2–3.
    pub page_length: u16,
}

/// Checks the header of a page expected to be `code` and returns it with a view of exactly
/// `4 + PAGE LENGTH` bytes (strict: a truncated page is an error).
pub fn page<'a>(
    buf: &'a [u8],
    code: u8,
    what: &'static str,
) -> ParseResult<(VpdHeader, Bytes<'a>)> {
    let mut problems = Vec::new();
    let r = body(buf, code, what, &mut problems)?;
    match problems.into_iter().next() {
        Some(p) => Err(ParseError::new(what, p)),
        None => Ok(r),
    }
}

/// Best-effort [`page`]: a page shorter than its PAGE LENGTH gives a view of the bytes present
/// and a problem. Only a missing header or another page code is an error.
pub fn body<'a>(
    buf: &'a [u8],
    code: u8,
    what: &'static str,
    problems: &mut Vec<String>,
) -> ParseResult<(VpdHeader, Bytes<'a>)> {
    let h = header(buf, what)?;
    let v = crate::bytes::page_body(buf, what, code, h.page_code, h.page_length, problems)?;
    Ok((h, v))
}

/// Runs a best-effort page decoder strictly: any problem is an error.
pub(crate) fn strict<T>(
    what: &'static str,
    f: impl FnOnce(&mut Vec<String>) -> ParseResult<T>,
) -> ParseResult<T> {
    let mut problems = Vec::new();
    let v = f(&mut problems)?;
    match problems.into_iter().next() {
        Some(p) => Err(ParseError::new(what, p)),
        None => Ok(v),
    }
}

/// Reads the 4-byte VPD header.
pub fn header(buf: &[u8], what: &'static str) -> ParseResult<VpdHeader> {
    let b = Bytes::new(buf, what);
    Ok(VpdHeader {
        peripheral_qualifier: b.u8(0)? >> 5,
        peripheral_device_type: b.u8(0)? & 0x1f,
        page_code: b.u8(1)?,
        page_length: b.be16(2)?,
    })
}

/// Any decoded VPD page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "page", rename_all = "snake_case")]
pub enum VpdPage {
    /// 0x00
    SupportedPages(supported::SupportedPages),
    /// 0x80
    UnitSerialNumber(serial::UnitSerialNumber),
    /// 0x81 (obsolete, SPC-2)
    ImplementedOperatingDefinition(operating_definition::ImplementedOperatingDefinition),
    /// 0x82 (obsolete, SPC-2)
    AsciiImplementedOperatingDefinition(operating_definition::AsciiOperatingDefinition),
    /// 0x83
    DeviceIdentification(device_id::DeviceIdentification),
    /// 0x84
    SoftwareInterfaceIdentification(software_interface::SoftwareInterfaceIdentification),
    /// 0x85
    ManagementNetworkAddresses(network_addresses::ManagementNetworkAddresses),
    /// 0x86
    ExtendedInquiry(extended_inquiry::ExtendedInquiry),
    /// 0x87
    ModePagePolicy(mode_page_policy::ModePagePolicy),
    /// 0x88
    ScsiPorts(scsi_ports::ScsiPorts),
    /// 0x89
    AtaInformation(ata_info::AtaInformation),
    /// 0x8A
    PowerCondition(power_condition::PowerCondition),
    /// 0x8B
    DeviceConstituents(device_constituents::DeviceConstituents),
    /// 0x8C
    CfaProfileInformation(cfa_profile::CfaProfileInformation),
    /// 0x8D
    PowerConsumption(power_consumption::PowerConsumption),
    /// 0x8F
    ThirdPartyCopy(third_party_copy::ThirdPartyCopy),
    /// 0x90
    ProtocolSpecificLuInformation(protocol_specific::ProtocolSpecificLuInformation),
    /// 0x91
    ProtocolSpecificPortInformation(protocol_specific::ProtocolSpecificPortInformation),
    /// 0x92
    ScsiFeatureSets(feature_sets::ScsiFeatureSets),
    /// 0xB0
    BlockLimits(block_limits::BlockLimits),
    /// 0xB1
    BlockDeviceCharacteristics(block_characteristics::BlockDeviceCharacteristics),
    /// 0xB2
    LogicalBlockProvisioning(lb_provisioning::LogicalBlockProvisioning),
    /// 0xB3
    Referrals(referrals::Referrals),
    /// 0xB4
    SupportedBlockLengths(block_lengths::SupportedBlockLengths),
    /// 0xB5
    BlockDeviceCharacteristicsExtension(
        block_characteristics_ext::BlockDeviceCharacteristicsExtension,
    ),
    /// 0xB6
    ZonedBlockDeviceCharacteristics(zoned::ZonedBlockDeviceCharacteristics),
    /// 0xB7
    BlockLimitsExtension(block_limits_ext::BlockLimitsExtension),
    /// 0xB8
    FormatPresets(format_presets::FormatPresets),
    /// 0xB9
    ConcurrentPositioningRanges(positioning_ranges::ConcurrentPositioningRanges),
    /// 0xB0 of a tape drive or medium changer (SSC)
    SequentialAccessDeviceCapabilities(ssc::SequentialAccessCapabilities),
    /// 0xB1 of a tape drive or medium changer (SSC)
    ManufacturerAssignedSerialNumber(ssc::SerialNumberPage),
    /// 0xB2 of a tape drive or medium changer (SSC)
    TapeAlertSupportedFlags(ssc::TapeAlertSupportedFlags),
    /// 0xB3 of a tape drive or medium changer (SSC)
    AutomationDeviceSerialNumber(ssc::SerialNumberPage),
    /// 0xB4 of a tape drive or medium changer (SSC)
    DataTransferDeviceElementAddress(ssc::DataTransferElementAddress),
    /// 0xB5 of a tape drive or medium changer (SSC)
    LogicalBlockProtection(ssc::LogicalBlockProtection),
    /// Any other page (or one too short for its mandatory fields): its name and raw bytes.
    Other {
        /// Page code.
        page_code: u8,
        /// Name.
        name: String,
        /// The page bytes (hex).
        data: String,
    },
}

/// A page decoded as far as its bytes go, with every inconsistency found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Decoded {
    /// The decoded page (its JSON fields sit at the top level, next to `problems`).
    #[serde(flatten)]
    pub page: VpdPage,
    /// Lengths that overran, truncation, malformed descriptors; empty for a clean page.
    pub problems: Vec<String>,
}

/// Decodes a VPD page strictly, choosing the parser from byte 1 of the data: any problem
/// [`decode_best`] would list is an error.
pub fn decode(buf: &[u8]) -> ParseResult<VpdPage> {
    let d = decode_best(buf)?;
    match d.problems.into_iter().next() {
        Some(p) => Err(ParseError::new("VPD page", p)),
        None => Ok(d.page),
    }
}

/// Decodes a VPD page as far as its bytes go (see the module notes). Errors only when there is
/// no 4-byte header.
pub fn decode_best(buf: &[u8]) -> ParseResult<Decoded> {
    let h = header(buf, "VPD page")?;
    let mut problems = Vec::new();
    let p = &mut problems;
    let r = match h.page_code {
        0xb0..=0xb5 if is_ssc(h.peripheral_device_type) => ssc_page(buf, h.page_code, p),
        0x00 => supported::decode(buf, p).map(VpdPage::SupportedPages),
        0x80 => serial::decode(buf, p).map(VpdPage::UnitSerialNumber),
        0x81 => {
            operating_definition::decode_81(buf, p).map(VpdPage::ImplementedOperatingDefinition)
        }
        0x82 => operating_definition::decode_82(buf, p)
            .map(VpdPage::AsciiImplementedOperatingDefinition),
        0x83 => device_id::decode(buf, p).map(VpdPage::DeviceIdentification),
        0x84 => software_interface::decode(buf, p).map(VpdPage::SoftwareInterfaceIdentification),
        0x85 => network_addresses::decode(buf, p).map(VpdPage::ManagementNetworkAddresses),
        0x86 => extended_inquiry::decode(buf, p).map(VpdPage::ExtendedInquiry),
        0x87 => mode_page_policy::decode(buf, p).map(VpdPage::ModePagePolicy),
        0x88 => scsi_ports::decode(buf, p).map(VpdPage::ScsiPorts),
        0x89 => ata_info::decode(buf, p).map(VpdPage::AtaInformation),
        0x8a => power_condition::decode(buf, p).map(VpdPage::PowerCondition),
        0x8b => device_constituents::decode(buf, p).map(VpdPage::DeviceConstituents),
        0x8c => cfa_profile::decode(buf, p).map(VpdPage::CfaProfileInformation),
        0x8d => power_consumption::decode(buf, p).map(VpdPage::PowerConsumption),
        0x8f => third_party_copy::decode(buf, p).map(VpdPage::ThirdPartyCopy),
        0x90 => protocol_specific::decode_lu(buf, p).map(VpdPage::ProtocolSpecificLuInformation),
        0x91 => {
            protocol_specific::decode_port(buf, p).map(VpdPage::ProtocolSpecificPortInformation)
        }
        0x92 => feature_sets::decode(buf, p).map(VpdPage::ScsiFeatureSets),
        0xb0 => block_limits::decode(buf, p).map(VpdPage::BlockLimits),
        0xb1 => block_characteristics::decode(buf, p).map(VpdPage::BlockDeviceCharacteristics),
        0xb2 => lb_provisioning::decode(buf, p).map(VpdPage::LogicalBlockProvisioning),
        0xb3 => referrals::decode(buf, p).map(VpdPage::Referrals),
        0xb4 => block_lengths::decode(buf, p).map(VpdPage::SupportedBlockLengths),
        0xb5 => block_characteristics_ext::decode(buf, p)
            .map(VpdPage::BlockDeviceCharacteristicsExtension),
        0xb6 => zoned::decode(buf, p).map(VpdPage::ZonedBlockDeviceCharacteristics),
        0xb7 => block_limits_ext::decode(buf, p).map(VpdPage::BlockLimitsExtension),
        0xb8 => format_presets::decode(buf, p).map(VpdPage::FormatPresets),
        0xb9 => positioning_ranges::decode(buf, p).map(VpdPage::ConcurrentPositioningRanges),
        code => Ok(other(buf, code, p)),
    };
    let page = match r {
        Ok(page) => page,
        Err(e) => {
            // Too short for the mandatory fields: show what is there, say why.
            problems.push(format!(
                "too short for its mandatory fields ({}); shown in hex",
                e.reason
            ));
            other(buf, h.page_code, &mut Vec::new())
        }
    };
    Ok(Decoded { page, problems })
}

/// B0h–B5h of a tape drive or medium changer.
fn ssc_page(buf: &[u8], code: u8, p: &mut Vec<String>) -> ParseResult<VpdPage> {
    match code {
        0xb0 => ssc::decode_b0(buf, p).map(VpdPage::SequentialAccessDeviceCapabilities),
        0xb1 => ssc::decode_serial(buf, code, p).map(VpdPage::ManufacturerAssignedSerialNumber),
        0xb2 => ssc::decode_b2(buf, p).map(VpdPage::TapeAlertSupportedFlags),
        0xb3 => ssc::decode_serial(buf, code, p).map(VpdPage::AutomationDeviceSerialNumber),
        0xb4 => ssc::decode_b4(buf, p).map(VpdPage::DataTransferDeviceElementAddress),
        _ => ssc::decode_b5(buf, p).map(VpdPage::LogicalBlockProtection),
    }
}

/// A page shown in hex with its name (the bytes of its PAGE LENGTH, or all there are).
fn other(buf: &[u8], code: u8, problems: &mut Vec<String>) -> VpdPage {
    let data = body(buf, code, "VPD page", problems)
        .map(|(_, b)| b.as_slice())
        .unwrap_or(buf);
    let ssc = SSC_PAGES
        .iter()
        .find(|p| p.0 == code && buf.first().is_some_and(|b| is_ssc(b & 0x1f)));
    VpdPage::Other {
        page_code: code,
        name: ssc.map_or_else(|| page_name(code), |p| p.2.to_string()),
        data: hex(data),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_numbers() {
        assert_eq!(page_from_str("di"), Some(0x83));
        assert_eq!(page_from_str("0xB0"), Some(0xb0));
        assert_eq!(page_from_str("86h"), Some(0x86));
        assert_eq!(page_from_str("137"), Some(0x89));
        assert_eq!(page_from_str("nope"), None);
        assert_eq!(page_from_str("tas"), Some(0xb2));
        assert_eq!(page_from_str("sfs"), Some(0x92));
        assert_eq!(page_name(0xc3), "Vendor specific page 0xc3");
    }

    #[test]
    fn header_checks() {
        assert!(page(&[0, 0x80, 0, 4, b'A'], 0x80, "t").is_err());
        assert!(page(&[0, 0x80, 0, 1, b'A'], 0x83, "t").is_err());
        let (h, b) = page(&[0, 0x80, 0, 1, b'A', 0xff], 0x80, "t").unwrap();
        assert_eq!((h.page_length, b.len()), (1, 5));
    }
}
