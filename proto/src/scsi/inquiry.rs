//! SPC-6 6.7 INQUIRY (0x12): CDB builder and the standard INQUIRY data parser (SPC-6 6.7.2).
//! VPD pages (EVPD=1) are decoded in [`crate::scsi::vpd`].
//!
//! Byte offsets: protocols.md §E.4 (sources: sg3_utils `src/sg_inq.c`, SPC-6 Table 148).

use crate::bytes::{ascii_trim, Bytes, ParseError, ParseResult};
use serde::Serialize;
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// INQUIRY operation code.
pub const OPCODE: u8 = crate::scsi::opcodes::code::INQUIRY;

crate::scsi::cdb::cdb_builder! {
    /// SPC-6 6.7.1 INQUIRY CDB (6 bytes).
    #[doc(alias = "sg_ll_inquiry")]
    pub struct InquiryCdb {
        /// ALLOCATION LENGTH, bytes 3–4.
        alloc_len: u16,
        ;;
        /// EVPD, byte 1 bit 0: return the VPD page named by PAGE CODE.
        evpd: bool = false,
        /// PAGE CODE, byte 2 (0 unless EVPD is set).
        page_code: u8 = 0,
    }
}

impl InquiryCdb {
    /// INQUIRY operation code.
    pub const OPCODE: u8 = OPCODE;

    /// The 6 CDB bytes.
    pub fn build(&self) -> [u8; 6] {
        let a = self.alloc_len.to_be_bytes();
        [OPCODE, u8::from(self.evpd), self.page_code, a[0], a[1], 0]
    }
}

/// The fixed first 36 bytes of standard INQUIRY data (SPC-6 Table 148).
#[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, Debug)]
#[repr(C)]
struct StandardRaw {
    pq_pdt: u8,
    rmb: u8,
    version: u8,
    b3: u8,
    additional_length: u8,
    b5: u8,
    b6: u8,
    b7: u8,
    vendor: [u8; 8],
    product: [u8; 16],
    revision: [u8; 4],
}
const _: () = assert!(core::mem::size_of::<StandardRaw>() == 36);

/// Decoded standard INQUIRY data. Key names follow sg3_utils' `sg_inq --json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StandardInquiry {
    /// Byte 0 bits 7-5: 0 connected, 1 not connected, 3 no LU.
    pub peripheral_qualifier: u8,
    /// Byte 0 bits 4-0 (0 disk, 0x0d enclosure, 0x14 host managed zoned ...).
    pub peripheral_device_type: u8,
    /// Human name of the device type.
    pub peripheral_device_type_name: &'static str,
    /// Byte 1 bit 7 removable medium.
    pub rmb: bool,
    /// Byte 1 bit 6 LU_CONG (LUN conglomerate).
    pub lu_cong: bool,
    /// Byte 1 bit 5 HOT_PLUGGABLE (2 bits: 0 not reported, 1 hot pluggable, 2 not).
    pub hot_pluggable: u8,
    /// Byte 2: version (6 = SPC-4, 7 = SPC-5).
    pub version: u8,
    /// Byte 3 bit 5 NormACA.
    pub normaca: bool,
    /// Byte 3 bit 4 HiSup (hierarchical LUN addressing).
    pub hisup: bool,
    /// Byte 3 bits 3-0 (2 for SPC-2 and later).
    pub response_data_format: u8,
    /// Byte 4: bytes that follow (total length − 5).
    pub additional_length: u8,
    /// Byte 5 bit 7 SCCS.
    pub sccs: bool,
    /// Byte 5 bit 6 ACC.
    pub acc: bool,
    /// Byte 5 bits 5-4 TPGS (ALUA: 1 implicit, 2 explicit, 3 both).
    pub tpgs: u8,
    /// Byte 5 bit 3 3PC (third-party copy).
    #[serde(rename = "3pc")]
    pub three_pc: bool,
    /// Byte 5 bit 0 PROTECT (T10 PI supported; see VPD 0x86 SPT).
    pub protect: bool,
    /// Byte 6 bit 6 EncServ.
    pub encserv: bool,
    /// Byte 6 bit 4 MultiP (more than one port: dual-ported SAS).
    pub multip: bool,
    /// Byte 7 bit 1 CmdQue.
    pub cmdque: bool,
    /// Bytes 8–15 T10 vendor identification.
    pub t10_vendor_identification: String,
    /// Bytes 16–31.
    pub product_identification: String,
    /// Bytes 32–35.
    pub product_revision_level: String,
    /// Bytes 36–55 vendor specific (many drives put the serial number here), if present.
    pub vendor_specific: Option<String>,
    /// Bytes 58–73: up to eight version descriptors (non-zero ones), if present.
    pub version_descriptors: Vec<u16>,
    /// What is wrong with the data (cut short of the 36 mandatory bytes, an ADDITIONAL LENGTH
    /// below 31): it is decoded as far as the bytes go, as sg_inq does. Absent when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
}

/// Name of a peripheral device type (SPC-6 Table 150), as sg3_utils prints it; bits 7–5 are
/// ignored and a reserved type is "reserved".
pub fn pdt_name(pdt: u8) -> &'static str {
    pdt_known_name(pdt & 0x1f).unwrap_or("reserved")
}

/// The one peripheral device type name table (SPC-6 Table 150, sg3_utils' wording): `None`
/// for a reserved type (0Ah, 0Bh, 15h–1Dh) and for any value above 1Fh. [`pdt_name`] and
/// the sg_vpd-worded names of the VPD text (which name 0Ah, 0Bh and FFh) build on it.
pub fn pdt_known_name(pdt: u8) -> Option<&'static str> {
    Some(match pdt {
        0x00 => "disk",
        0x01 => "tape",
        0x02 => "printer",
        0x03 => "processor",
        0x04 => "write once optical disk",
        0x05 => "cd/dvd",
        0x06 => "scanner",
        0x07 => "optical memory device",
        0x08 => "medium changer",
        0x09 => "communications",
        0x0c => "storage array controller",
        0x0d => "enclosure services device",
        0x0e => "simplified direct access device",
        0x0f => "optical card reader/writer device",
        0x10 => "bridge controller commands",
        0x11 => "object based storage",
        0x12 => "automation/driver interface",
        0x13 => "security manager device",
        0x14 => "host managed zoned block",
        0x1e => "well known logical unit",
        0x1f => "unknown or no device type",
        _ => return None,
    })
}

/// Version byte meaning (SPC-6 Table 151).
pub fn version_name(v: u8) -> &'static str {
    match v {
        0 => "no conformance claimed",
        1 | 2 => "SCSI-2 or older",
        3 => "SPC",
        4 => "SPC-2",
        5 => "SPC-3",
        6 => "SPC-4",
        7 => "SPC-5",
        8 => "SPC-6",
        _ => "reserved",
    }
}

/// Minimum standard INQUIRY length (SPC-6 6.7.2: "shall contain at least 36 bytes").
pub(crate) const MIN_LEN: usize = 36;

/// Parses standard INQUIRY data strictly: the 36 mandatory bytes and an ADDITIONAL LENGTH of
/// at least 31 (SPC-6 6.7.2), else an error; optional fields are decoded only as far as both
/// the buffer and the ADDITIONAL LENGTH field reach. [`parse_best`] decodes what is there.
#[doc(alias = "sg_simple_inquiry")]
pub fn parse(buf: &[u8]) -> ParseResult<StandardInquiry> {
    const WHAT: &str = "standard INQUIRY data";
    if buf.len() < MIN_LEN {
        return Err(ParseError::new(
            WHAT,
            format!("truncated: need {MIN_LEN} bytes, have {}", buf.len()),
        ));
    }
    if buf[4] < 31 {
        // SPC requires ADDITIONAL LENGTH >= 31; anything smaller contradicts the 36 bytes
        // we would decode (or is pre-SCSI-2 data).
        return Err(ParseError::new(
            WHAT,
            format!(
                "additional length {} is less than the 31 bytes SPC requires",
                buf[4]
            ),
        ));
    }
    parse_best(buf)
}

/// Parses standard INQUIRY data as far as the bytes go. Fewer than the 36 mandatory bytes, or
/// an ADDITIONAL LENGTH below the 31 SPC requires, are listed in `problems` (the fields that
/// are missing read as empty/zero), as sg_inq decodes what is there; fewer than 5 bytes (no
/// ADDITIONAL LENGTH) is an error. Optional fields are decoded only as far as both the buffer
/// and the ADDITIONAL LENGTH field reach.
pub fn parse_best(buf: &[u8]) -> ParseResult<StandardInquiry> {
    const WHAT: &str = "standard INQUIRY data";
    if buf.len() < 5 {
        return Err(ParseError::new(
            WHAT,
            format!(
                "truncated: {} bytes, not even the 5-byte header with ADDITIONAL LENGTH",
                buf.len()
            ),
        ));
    }
    let mut problems = Vec::new();
    // The mandatory 36 bytes; a short response is padded (flags 0, text blank) and said so.
    let mut fixed = [b' '; MIN_LEN];
    fixed[..8].fill(0);
    let n = buf.len().min(MIN_LEN);
    fixed[..n].copy_from_slice(&buf[..n]);
    if buf.len() < MIN_LEN {
        problems.push(format!(
            "truncated: {} of the {MIN_LEN} mandatory bytes; the fields from byte {} on are missing (shown empty)",
            buf.len(),
            buf.len()
        ));
    }
    let Ok((raw, _)) = StandardRaw::ref_from_prefix(&fixed[..]) else {
        unreachable!("36 bytes hold StandardRaw");
    };
    let b = Bytes::new(buf, WHAT);
    if raw.additional_length < 31 {
        // SPC requires ADDITIONAL LENGTH >= 31: anything smaller contradicts the 36 bytes (or
        // is pre-SCSI-2 data); decode the bytes present anyway.
        problems.push(format!(
            "additional length {} is less than the 31 bytes SPC requires",
            raw.additional_length
        ));
    }
    let total = (usize::from(raw.additional_length) + 5).min(buf.len());
    let vendor_specific = b
        .slice(36, 20)
        .ok()
        .filter(|_| total >= 56)
        .map(ascii_trim)
        .filter(|s| !s.is_empty());
    let mut version_descriptors = Vec::new();
    for i in 0..8 {
        let off = 58 + 2 * i;
        if off + 2 > total {
            break;
        }
        let v = b.be16(off)?;
        if v != 0 {
            version_descriptors.push(v);
        }
    }
    let pdt = raw.pq_pdt & 0x1f;
    Ok(StandardInquiry {
        peripheral_qualifier: raw.pq_pdt >> 5,
        peripheral_device_type: pdt,
        peripheral_device_type_name: pdt_name(pdt),
        rmb: raw.rmb & 0x80 != 0,
        lu_cong: raw.rmb & 0x40 != 0,
        hot_pluggable: (raw.rmb >> 4) & 0x03,
        version: raw.version,
        normaca: raw.b3 & 0x20 != 0,
        hisup: raw.b3 & 0x10 != 0,
        response_data_format: raw.b3 & 0x0f,
        additional_length: raw.additional_length,
        sccs: raw.b5 & 0x80 != 0,
        acc: raw.b5 & 0x40 != 0,
        tpgs: (raw.b5 >> 4) & 0x03,
        three_pc: raw.b5 & 0x08 != 0,
        protect: raw.b5 & 0x01 != 0,
        encserv: raw.b6 & 0x40 != 0,
        multip: raw.b6 & 0x10 != 0,
        cmdque: raw.b7 & 0x02 != 0,
        t10_vendor_identification: ascii_trim(&raw.vendor),
        product_identification: ascii_trim(&raw.product),
        product_revision_level: ascii_trim(&raw.revision),
        vendor_specific,
        version_descriptors,
        problems,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cdb_bytes() {
        assert_eq!(InquiryCdb::new(36).build(), [0x12, 0, 0, 0, 36, 0]);
        assert_eq!(
            InquiryCdb::new(0x1000).evpd(true).page_code(0x83).build(),
            [0x12, 1, 0x83, 0x10, 0, 0]
        );
    }

    #[test]
    fn short_and_lying_decode_as_far_as_the_bytes_go() {
        assert!(parse_best(&[0u8; 4]).is_err(), "no ADDITIONAL LENGTH");
        // Cut inside the product identification: vendor and the first product bytes decode.
        let mut full = [0x20u8; 36];
        full[0] = 0;
        full[4] = 31;
        full[5] = 0x10; // TPGS 01b
        full[8..16].copy_from_slice(b"TOSHIBA ");
        full[16..26].copy_from_slice(b"PX02SMF080");
        let i = parse_best(&full[..20]).unwrap();
        assert_eq!(i.t10_vendor_identification, "TOSHIBA");
        assert_eq!(i.product_identification, "PX02");
        assert_eq!(i.product_revision_level, "");
        assert_eq!(i.tpgs, 1);
        assert_eq!(i.problems.len(), 1, "{:?}", i.problems);
        assert!(i.problems[0].contains("20 of the 36"), "{:?}", i.problems);
        // A lying ADDITIONAL LENGTH is listed; the 36 bytes still decode.
        let mut b = full;
        b[4] = 10; // claims only 15 bytes
        let i = parse_best(&b).unwrap();
        assert!(parse(&b).is_err(), "strict");
        assert_eq!(i.product_identification, "PX02SMF080");
        assert!(
            i.problems[0].contains("additional length 10"),
            "{:?}",
            i.problems
        );
        b[4] = 31;
        assert!(parse(&b).unwrap().problems.is_empty());
        assert!(parse(&full[..20]).is_err(), "strict");
    }
}
