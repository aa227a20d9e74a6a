//! SPC-6 7.7.18 Third-party Copy VPD page (0x8F): the copy manager's descriptors (EXTENDED
//! COPY and ROD token limits), each decoded field by field:
//!
//! | type | descriptor (SPC-6 7.7.18.x, SBC-5 for 0000h) | bytes after the 4-byte header |
//! |---|---|---|
//! | 0000h | Block Device ROD Token Limits | 10–11 MAXIMUM RANGE DESCRIPTORS, 12–15 MAXIMUM INACTIVITY TIMEOUT, 16–19 DEFAULT INACTIVITY TIMEOUT, 20–27 MAXIMUM TOKEN TRANSFER SIZE, 28–35 OPTIMAL TRANSFER COUNT |
//! | 0001h | Supported Commands | 4 COMMANDS SUPPORTED LIST LENGTH, then command support descriptors: OPERATION CODE, SERVICE ACTION LIST LENGTH, the service actions |
//! | 0004h | Parameter Data | 8–9 MAXIMUM CSCD DESCRIPTOR COUNT, 10–11 MAXIMUM SEGMENT DESCRIPTOR COUNT, 12–15 MAXIMUM DESCRIPTOR LIST LENGTH, 16–19 MAXIMUM INLINE DATA LENGTH |
//! | 0008h | Supported Descriptors | 4 SUPPORTED DESCRIPTOR LIST LENGTH, then one descriptor type code a byte |
//! | 000Ch | Supported CSCD Descriptor IDs | 4–5 SUPPORTED CSCD DESCRIPTOR IDS LIST LENGTH, then 2-byte CSCD descriptor IDs |
//! | 000Dh | Copy Group Identifier | 4 COPY GROUP IDENTIFIER LENGTH, then the identifier (a locally assigned UUID designator) |
//! | 0106h | ROD Token Features | 4 bits 3–0 REMOTE TOKENS, 16–19 MINIMUM TOKEN LIFETIME, 20–23 MAXIMUM TOKEN LIFETIME, 24–27 MAXIMUM TOKEN INACTIVITY TIMEOUT, 46–47 ROD DEVICE TYPE SPECIFIC FEATURES DESCRIPTORS LENGTH, then those descriptors (block, stream, processor) |
//! | 0108h | Supported ROD Token and ROD Types | 6–7 ROD TYPE DESCRIPTORS LENGTH, then 8-byte ROD type descriptors: ROD TYPE, ECPY_INT, TOKEN_IN, TOKEN_OUT, PREFERENCE INDICATION |
//! | 8001h | General Copy Operations | 4–7 TOTAL CONCURRENT COPIES, 8–11 MAXIMUM IDENTIFIED CONCURRENT COPIES, 12–15 MAXIMUM SEGMENT LENGTH, 16 DATA SEGMENT GRANULARITY (log2), 17 INLINE DATA GRANULARITY (log2) |
//! | 9101h | Stream Copy Operations | 4–7 MAXIMUM STREAM DEVICE TRANSFER SIZE |
//! | C001h | Held Data | 4–7 HELD DATA LIMIT, 8 HELD DATA GRANULARITY (log2) |
//!
//! Any other type is kept with its bytes in hex. Every length is checked against the bytes
//! present: a list longer than its descriptor is decoded as far as the descriptor goes and
//! listed as a problem; nothing is allocated from a claimed length.

use crate::bytes::{hex, Bytes, ParseResult};
use serde::Serialize;

/// One third-party copy descriptor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TpcDescriptor {
    /// Bytes 0–1: THIRD-PARTY COPY DESCRIPTOR TYPE.
    pub descriptor_type: u16,
    /// Its name.
    pub name: String,
    /// The fixed fields of the types listed above (name: value), in descriptor order.
    pub fields: serde_json::Map<String, serde_json::Value>,
    /// 0001h: the command support descriptors.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub supported_commands: Vec<SupportedCommand>,
    /// 0008h: the supported segment and CSCD descriptor type codes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub supported_descriptors: Vec<Named<u8>>,
    /// 000Ch: the supported CSCD descriptor IDs (those above 07FFh).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub supported_cscd_ids: Vec<Named<u16>>,
    /// 000Dh: the copy group identifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub copy_group_identifier: Option<CopyGroupIdentifier>,
    /// 0106h: the ROD device type specific features descriptors.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rod_device_features: Vec<RodDeviceFeatures>,
    /// 0108h: the ROD type descriptors.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rod_types: Vec<RodType>,
    /// The descriptor's bytes after its 4-byte header (hex).
    pub data: String,
}

/// A code and its name (`None` when the standard gives it none sgctl knows).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Named<T> {
    /// The code.
    pub code: T,
    /// Its name.
    pub name: Option<&'static str>,
}

/// A command support descriptor (Supported Commands, 0001h).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SupportedCommand {
    /// Byte 0: OPERATION CODE.
    pub operation_code: u8,
    /// The command's name (sg3_utils' wording).
    pub name: String,
    /// Bytes 2..: the supported service actions (empty: the command has none).
    pub service_actions: Vec<ServiceAction>,
}

/// A supported service action of a command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ServiceAction {
    /// The SERVICE ACTION code.
    pub service_action: u8,
    /// The command's name with this service action.
    pub name: String,
}

/// The Copy Group Identifier (000Dh).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CopyGroupIdentifier {
    /// The identifier as a locally assigned UUID (a UUID designator of 18 bytes whose byte 0
    /// bits 7–4 are 1), when it is one.
    pub locally_assigned_uuid: Option<String>,
    /// The identifier's bytes (hex).
    pub data: String,
}

/// A ROD device type specific features descriptor (within ROD Token Features, 0106h).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RodDeviceFeatures {
    /// Byte 0 bits 4–0: the peripheral device type it applies to (0 block, 1 stream, 3
    /// processor).
    pub peripheral_device_type: u8,
    /// Bytes 2–3: DESCRIPTOR LENGTH.
    pub descriptor_length: u16,
    /// The fields of the block, stream or processor descriptor (name: value).
    pub fields: serde_json::Map<String, serde_json::Value>,
    /// The descriptor's bytes after its 4-byte header (hex).
    pub data: String,
}

/// A ROD type descriptor (Supported ROD Token and ROD Types, 0108h).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RodType {
    /// Bytes 0–3: ROD TYPE.
    pub rod_type: u32,
    /// Its name (SPC-6 table "ROD type codes"), when known.
    pub name: Option<&'static str>,
    /// Byte 4 bit 7: ECPY_INT (usable in EXTENDED COPY copy operations).
    pub ecpy_int: bool,
    /// Byte 4 bit 1: TOKEN_IN (ROD tokens of this type are accepted).
    pub token_in: bool,
    /// Byte 4 bit 0: TOKEN_OUT (ROD tokens of this type are created).
    pub token_out: bool,
    /// Bytes 6–7: PREFERENCE INDICATION.
    pub preference_indication: u16,
}

/// Decoded page 0x8F.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ThirdPartyCopy {
    /// Descriptors in device order (zero-length ones skipped, as sg_vpd does).
    pub descriptors: Vec<TpcDescriptor>,
}

/// The name of a descriptor type (SPC-6 table "Third-party copy descriptor types").
pub fn type_name(t: u16) -> &'static str {
    match t {
        0x0000 => "Block Device ROD Token Limits",
        0x0001 => "Supported commands",
        0x0004 => "Parameter data",
        0x0008 => "Supported descriptors",
        0x000c => "Supported CSCD IDs",
        0x000d => "Copy group identifier",
        0x0106 => "ROD token features",
        0x0108 => "Supported ROD token and ROD types",
        0x8001 => "General copy operations",
        0x9101 => "Stream copy operations",
        0xc001 => "Held data",
        _ => "Unknown descriptor type",
    }
}

/// The segment descriptor type codes (SPC-6 table "Segment descriptor type codes") and CSCD
/// descriptor type codes (table "CSCD descriptor type codes"), worded as sg_vpd words them.
pub(crate) fn descriptor_code_name(code: u8) -> Option<&'static str> {
    Some(match code {
        0x00 => "block -> stream",
        0x01 => "stream -> block",
        0x02 => "block -> block",
        0x03 => "stream -> stream",
        0x04 => "inline -> stream",
        0x05 => "embedded -> stream",
        0x06 => "stream -> discard",
        0x07 => "verify CSCD",
        0x08 => "block<o> -> stream",
        0x09 => "stream -> block<o>",
        0x0a => "block<o> -> block<o>",
        0x0b => "block -> stream & application_client",
        0x0c => "stream -> block & application_client",
        0x0d => "block -> block & application_client",
        0x0e => "stream -> stream&application_client",
        0x0f => "stream -> discard&application_client",
        0x10 => "filemark -> tape",
        0x11 => "space -> tape",
        0x12 => "locate -> tape",
        0x13 => "<i>tape -> <i>tape",
        0x14 => "register persistent reservation key",
        0x15 => "third party persistent reservation source I_T nexus",
        0x16 => "<i>block -> <i>block",
        0x17 => "positioning -> tape",
        0x18 => "<loi>tape -> <loi>tape",
        0xbe => "ROD <- block range(n)",
        0xbf => "ROD <- block range(1)",
        0xe0 => "CSCD: FC N_Port_Name",
        0xe1 => "CSCD: FC N_Port_ID",
        0xe2 => "CSCD: FC N_Port_ID with N_Port_Name, checking",
        0xe3 => "CSCD: Parallel interface: I_T",
        0xe4 => "CSCD: Identification Descriptor",
        0xe5 => "CSCD: IPv4",
        0xe6 => "CSCD: Alias",
        0xe7 => "CSCD: RDMA",
        0xe8 => "CSCD: IEEE 1394 EUI-64",
        0xe9 => "CSCD: SAS SSP",
        0xea => "CSCD: IPv6",
        0xeb => "CSCD: IP copy service",
        0xfe => "CSCD: ROD",
        0xff => "CSCD: extension",
        _ => return None,
    })
}

/// The CSCD descriptor IDs above 07FFh that name something (SPC-6 table "CSCD descriptor
/// ID values").
pub(crate) fn cscd_id_name(id: u16) -> Option<&'static str> {
    Some(match id {
        0xc000 => "copy src or dst null LU, pdt=0",
        0xc001 => "copy src or dst null LU, pdt=1",
        0xf800 => "copy src or dst in ROD token",
        0xffff => "copy src or dst is copy manager LU",
        _ => return None,
    })
}

/// The ROD type codes (SPC-6 table "ROD type codes").
pub(crate) fn rod_type_name(t: u32) -> Option<&'static str> {
    Some(match t {
        0x0000_0000 => "copy manager internal",
        0x0001_0000 => "access upon reference",
        0x0080_0000 => "point in time copy - default",
        0x0080_0001 => "point in time copy - change vulnerable",
        0x0080_0002 => "point in time copy - persistent",
        0x0080_ffff => "point in time copy - any",
        0xffff_0001 => "block device zero",
        _ => return None,
    })
}

/// The name of a command (sg3_utils' wording): the opcode table's, else by the opcode's
/// group as sg3_utils names unknown ones.
pub fn command_name(code: u8) -> String {
    match super::super::opcodes::find(code, None) {
        Some(o) => o.name.to_string(),
        None => match code >> 5 {
            3 => format!("Reserved [0x{code:x}]"),
            6 | 7 => format!("Vendor specific [0x{code:x}]"),
            _ => format!("Opcode=0x{code:x}"),
        },
    }
}

/// The name of a command with a service action: the opcode table's entry for it, else the
/// command's name and the code.
pub(crate) fn service_action_name(code: u8, sa: u8) -> String {
    match super::super::opcodes::find(code, Some(u16::from(sa))) {
        Some(o) if o.sa == Some(u16::from(sa)) => o.name.to_string(),
        _ => format!("{} service action=0x{sa:x}", command_name(code)),
    }
}

/// Bits of a field: all of its bytes, or a part of one.
const ALL: u64 = u64::MAX;

/// (name, offset in the descriptor, width, mask) of the fixed fields of a descriptor type.
fn layout(t: u16) -> &'static [(&'static str, usize, usize, u64)] {
    match t {
        0x0000 => &[
            ("maximum_range_descriptors", 10, 2, ALL),
            ("maximum_inactivity_timeout", 12, 4, ALL),
            ("default_inactivity_timeout", 16, 4, ALL),
            ("maximum_token_transfer_size", 20, 8, ALL),
            ("optimal_transfer_count", 28, 8, ALL),
        ],
        0x0001 => &[("commands_supported_list_length", 4, 1, ALL)],
        0x0004 => &[
            ("maximum_cscd_descriptor_count", 8, 2, ALL),
            ("maximum_segment_descriptor_count", 10, 2, ALL),
            ("maximum_descriptor_list_length", 12, 4, ALL),
            ("maximum_inline_data_length", 16, 4, ALL),
        ],
        0x0008 => &[("supported_descriptor_list_length", 4, 1, ALL)],
        0x000c => &[("supported_cscd_descriptor_ids_list_length", 4, 2, ALL)],
        0x000d => &[("copy_group_identifier_length", 4, 1, ALL)],
        0x0106 => &[
            ("remote_tokens", 4, 1, 0x0f),
            ("minimum_token_lifetime", 16, 4, ALL),
            ("maximum_token_lifetime", 20, 4, ALL),
            ("maximum_token_inactivity_timeout", 24, 4, ALL),
            (
                "rod_device_type_specific_features_descriptors_length",
                46,
                2,
                ALL,
            ),
        ],
        0x0108 => &[("rod_type_descriptors_length", 6, 2, ALL)],
        0x8001 => &[
            ("total_concurrent_copies", 4, 4, ALL),
            ("maximum_identified_concurrent_copies", 8, 4, ALL),
            ("maximum_segment_length", 12, 4, ALL),
            ("data_segment_granularity_log2", 16, 1, ALL),
            ("inline_data_granularity_log2", 17, 1, ALL),
        ],
        0x9101 => &[("maximum_stream_device_transfer_size", 4, 4, ALL)],
        0xc001 => &[
            ("held_data_limit", 4, 4, ALL),
            ("held_data_granularity_log2", 8, 1, ALL),
        ],
        _ => &[],
    }
}

/// The fields of a ROD device type specific features descriptor, by peripheral device type
/// (SPC-6 tables "Block ROD device type specific features descriptor", "Stream ROD …",
/// "Copy manager ROD …").
fn rod_layout(pdt: u8) -> &'static [(&'static str, usize, usize, u64)] {
    match pdt {
        0x00 => &[
            ("optimal_block_rod_length_granularity", 6, 2, ALL),
            ("maximum_bytes_in_block_rod", 8, 8, ALL),
            ("optimal_bytes_in_block_rod_transfer", 16, 8, ALL),
            ("optimal_bytes_to_token_per_segment", 24, 8, ALL),
            ("optimal_bytes_from_token_per_segment", 32, 8, ALL),
        ],
        0x01 => &[
            ("maximum_bytes_in_stream_rod", 8, 8, ALL),
            ("optimal_bytes_in_stream_rod_transfer", 16, 8, ALL),
        ],
        0x03 => &[
            ("maximum_bytes_in_processor_rod", 8, 8, ALL),
            ("optimal_bytes_in_processor_rod_transfer", 16, 8, ALL),
        ],
        _ => &[],
    }
}

const WHAT: &str = "Third-party copy VPD page";

/// Parses page 0x8F (strict).
pub fn parse(buf: &[u8]) -> ParseResult<ThirdPartyCopy> {
    super::strict(WHAT, |p| decode(buf, p))
}

/// Decodes page 0x8F: a descriptor that overruns the page ends the list, a descriptor too
/// short for its fields keeps those that fit, a list longer than its descriptor is decoded as
/// far as the descriptor goes; each is a problem.
pub fn decode(buf: &[u8], problems: &mut Vec<String>) -> ParseResult<ThirdPartyCopy> {
    let (_, b) = super::body(buf, 0x8f, WHAT, problems)?;
    let mut descriptors = Vec::new();
    let mut off = 4;
    while off < b.len() {
        let (Ok(t), Ok(n)) = (b.be16(off), b.be16(off + 2)) else {
            problems.push(format!(
                "descriptor header at offset {off} overruns the page"
            ));
            break;
        };
        let n = usize::from(n);
        let Ok(whole) = b.sub(off, 4 + n) else {
            problems.push(format!(
                "descriptor 0x{t:04x} at offset {off}: length {n} overruns the page"
            ));
            break;
        };
        off += 4 + n;
        if n == 0 {
            continue;
        }
        descriptors.push(descriptor(t, &whole, problems));
    }
    Ok(ThirdPartyCopy { descriptors })
}

/// Reads the fields of `layout` from `d`; stops at the first that does not fit (a problem
/// naming `what`). Returns whether all fit.
fn read_fields(
    d: &Bytes<'_>,
    layout: &[(&'static str, usize, usize, u64)],
    what: &str,
    fields: &mut serde_json::Map<String, serde_json::Value>,
    problems: &mut Vec<String>,
) -> bool {
    for &(name, at, width, mask) in layout {
        match d.be_var(at, width) {
            Ok(v) => {
                fields.insert(name.to_string(), (v & mask).into());
            }
            Err(_) => {
                problems.push(format!(
                    "{what} of {} bytes is too short for {name}",
                    d.len()
                ));
                return false;
            }
        }
    }
    true
}

/// The `len` bytes of a list starting at `at` in descriptor `d`, cut to the bytes the
/// descriptor holds (a problem when cut).
fn list<'a>(
    d: &Bytes<'a>,
    at: usize,
    len: u64,
    what: &str,
    problems: &mut Vec<String>,
) -> &'a [u8] {
    let rest = d.rest(at);
    let have = rest.len();
    match usize::try_from(len) {
        Ok(n) if n <= have => &rest[..n],
        _ => {
            problems.push(format!(
                "{what}: list length {len} overruns the descriptor ({have} bytes follow); \
                 decoded the bytes present"
            ));
            rest
        }
    }
}

fn descriptor(t: u16, d: &Bytes<'_>, problems: &mut Vec<String>) -> TpcDescriptor {
    let what = format!("descriptor 0x{t:04x} ({})", type_name(t));
    let mut x = TpcDescriptor {
        descriptor_type: t,
        name: type_name(t).to_string(),
        fields: serde_json::Map::new(),
        supported_commands: Vec::new(),
        supported_descriptors: Vec::new(),
        supported_cscd_ids: Vec::new(),
        copy_group_identifier: None,
        rod_device_features: Vec::new(),
        rod_types: Vec::new(),
        data: hex(d.rest(4)),
    };
    if !read_fields(d, layout(t), &what, &mut x.fields, problems) {
        return x;
    }
    let claimed = |k: &str| x.fields.get(k).and_then(serde_json::Value::as_u64);
    match t {
        0x0001 => {
            let n = claimed("commands_supported_list_length").unwrap_or(0);
            x.supported_commands = commands(list(d, 5, n, &what, problems), &what, problems);
        }
        0x0008 => {
            let n = claimed("supported_descriptor_list_length").unwrap_or(0);
            x.supported_descriptors = list(d, 5, n, &what, problems)
                .iter()
                .map(|&code| Named {
                    code,
                    name: descriptor_code_name(code),
                })
                .collect();
        }
        0x000c => {
            let n = claimed("supported_cscd_descriptor_ids_list_length").unwrap_or(0);
            let ids = list(d, 6, n, &what, problems);
            if ids.len() % 2 != 0 {
                problems.push(format!(
                    "{what}: {} bytes of CSCD descriptor IDs is not a whole number of 2-byte IDs",
                    ids.len()
                ));
            }
            x.supported_cscd_ids = ids
                .chunks_exact(2)
                .map(|c| {
                    let code = u16::from_be_bytes([c[0], c[1]]);
                    Named {
                        code,
                        name: cscd_id_name(code),
                    }
                })
                .collect();
        }
        0x000d => {
            let n = claimed("copy_group_identifier_length").unwrap_or(0);
            let id = list(d, 5, n, &what, problems);
            x.copy_group_identifier = Some(copy_group_identifier(id));
        }
        0x0106 => {
            let n = claimed("rod_device_type_specific_features_descriptors_length").unwrap_or(0);
            let l = list(d, 48, n, &what, problems);
            x.rod_device_features = rod_features(l, &what, problems);
        }
        0x0108 => {
            let n = claimed("rod_type_descriptors_length").unwrap_or(0);
            let l = list(d, 8, n, &what, problems);
            if l.len() % 8 != 0 {
                problems.push(format!(
                    "{what}: {} bytes of ROD type descriptors is not a whole number of 8-byte \
                     descriptors",
                    l.len()
                ));
            }
            x.rod_types = l
                .chunks_exact(8)
                .map(|c| {
                    let rod_type = u32::from_be_bytes([c[0], c[1], c[2], c[3]]);
                    RodType {
                        rod_type,
                        name: rod_type_name(rod_type),
                        ecpy_int: c[4] & 0x80 != 0,
                        token_in: c[4] & 0x02 != 0,
                        token_out: c[4] & 0x01 != 0,
                        preference_indication: u16::from_be_bytes([c[6], c[7]]),
                    }
                })
                .collect();
        }
        _ => {}
    }
    x
}

/// The command support descriptors of a Supported Commands list.
fn commands(l: &[u8], what: &str, problems: &mut Vec<String>) -> Vec<SupportedCommand> {
    let mut out = Vec::new();
    let mut j = 0;
    while let Some(&code) = l.get(j) {
        let Some(&sl) = l.get(j + 1) else {
            problems.push(format!(
                "{what}: command support descriptor at list offset {j} (opcode 0x{code:02x}) \
                 has no SERVICE ACTION LIST LENGTH"
            ));
            break;
        };
        let start = j + 2;
        let end = start + usize::from(sl);
        let sas = l.get(start..end).unwrap_or_else(|| {
            problems.push(format!(
                "{what}: opcode 0x{code:02x}: service action list length {sl} overruns the \
                 command list"
            ));
            l.get(start..).unwrap_or_default()
        });
        out.push(SupportedCommand {
            operation_code: code,
            name: command_name(code),
            service_actions: sas
                .iter()
                .map(|&sa| ServiceAction {
                    service_action: sa,
                    name: service_action_name(code, sa),
                })
                .collect(),
        });
        j = end;
    }
    out
}

/// A copy group identifier: a locally assigned UUID designator (18 bytes, byte 0 bits 7–4 =
/// 1, bytes 2–17 the UUID) is shown as a UUID, anything else in hex.
fn copy_group_identifier(id: &[u8]) -> CopyGroupIdentifier {
    let uuid = match id {
        [b0, _, u @ ..] if id.len() == 18 && b0 >> 4 == 1 => Some(format!(
            "{}-{}-{}-{}-{}",
            hex(&u[..4]),
            hex(&u[4..6]),
            hex(&u[6..8]),
            hex(&u[8..10]),
            hex(&u[10..])
        )),
        _ => None,
    };
    CopyGroupIdentifier {
        locally_assigned_uuid: uuid,
        data: hex(id),
    }
}

/// The ROD device type specific features descriptors of a ROD Token Features descriptor.
fn rod_features(l: &[u8], what: &str, problems: &mut Vec<String>) -> Vec<RodDeviceFeatures> {
    let b = Bytes::new(l, "ROD device type specific features descriptor");
    let mut out = Vec::new();
    let mut off = 0;
    while off < b.len() {
        let (Ok(pdt), Ok(n)) = (b.u8(off), b.be16(off + 2)) else {
            problems.push(format!(
                "{what}: ROD device type specific features descriptor header at list offset \
                 {off} overruns the list"
            ));
            break;
        };
        let Ok(d) = b.sub(off, 4 + usize::from(n)) else {
            problems.push(format!(
                "{what}: ROD device type specific features descriptor at list offset {off}: \
                 length {n} overruns the list"
            ));
            break;
        };
        off += 4 + usize::from(n);
        let pdt = pdt & 0x1f;
        let mut fields = serde_json::Map::new();
        let name = format!("{what}: ROD features descriptor for device type 0x{pdt:02x}");
        read_fields(&d, rod_layout(pdt), &name, &mut fields, problems);
        out.push(RodDeviceFeatures {
            peripheral_device_type: pdt,
            descriptor_length: n,
            fields,
            data: hex(d.rest(4)),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(descs: &[(u16, &[u8])]) -> Vec<u8> {
        let mut body = Vec::new();
        for (t, d) in descs {
            body.extend_from_slice(&t.to_be_bytes());
            body.extend_from_slice(&(d.len() as u16).to_be_bytes());
            body.extend_from_slice(d);
        }
        let mut p = vec![0, 0x8f];
        p.extend_from_slice(&(body.len() as u16).to_be_bytes());
        p.extend(body);
        p
    }

    #[test]
    fn supported_commands_with_service_actions() {
        // SPC-6 "Supported Commands third-party copy descriptor": list length 9, EXTENDED
        // COPY(LID1)+POPULATE TOKEN, RECEIVE ROD TOKEN INFORMATION, a vendor specific opcode.
        let d = [9, 0x83, 2, 0x00, 0x10, 0x84, 1, 0x07, 0xc5, 0, 0, 0];
        let p = page(&[(0x0001, &d)]);
        let x = parse(&p).unwrap();
        let c = &x.descriptors[0].supported_commands;
        assert_eq!(c.len(), 3);
        assert_eq!(c[0].service_actions[1].name, "Populate token");
        assert_eq!(
            c[1].service_actions[0].name,
            "Receive ROD token information"
        );
        assert_eq!(c[2].name, "Vendor specific [0xc5]");
        assert!(c[2].service_actions.is_empty());
        assert_eq!(
            service_action_name(0x83, 0x1e),
            "Third party copy out service action=0x1e"
        );
        assert_eq!(command_name(0x60), "Reserved [0x60]");
        assert_eq!(command_name(0x02), "Opcode=0x2");
    }

    #[test]
    fn lists_that_overrun_their_descriptor_are_cut_and_listed() {
        // Supported descriptors: list length 200 in a descriptor of 4 bytes.
        let mut problems = Vec::new();
        let p = page(&[(0x0008, &[200, 0x02, 0xe9, 0])]);
        let x = decode(&p, &mut problems).unwrap();
        let codes: Vec<u8> = x.descriptors[0]
            .supported_descriptors
            .iter()
            .map(|n| n.code)
            .collect();
        assert_eq!(codes, [0x02, 0xe9, 0]);
        assert!(
            problems[0].contains("list length 200 overruns"),
            "{problems:?}"
        );
        assert!(parse(&p).is_err());
        // A service action list running past the command list.
        let mut problems = Vec::new();
        let p = page(&[(0x0001, &[3, 0x83, 5, 0x10, 0, 0, 0, 0])]);
        let x = decode(&p, &mut problems).unwrap();
        assert_eq!(
            x.descriptors[0].supported_commands[0].service_actions.len(),
            1
        );
        assert!(
            problems[0].contains("service action list length 5"),
            "{problems:?}"
        );
        // Odd CSCD ID list, ROD types not a multiple of 8.
        let mut problems = Vec::new();
        let p = page(&[
            (0x000c, &[0, 3, 0xff, 0xff, 0xc0, 0, 0, 0]),
            (
                0x0108,
                &[0, 0, 0, 10, 0, 0, 0, 0, 0x03, 0, 0, 1, 0xff, 0xff, 0, 0],
            ),
        ]);
        let x = decode(&p, &mut problems).unwrap();
        assert_eq!(
            x.descriptors[0].supported_cscd_ids[0].name,
            cscd_id_name(0xffff)
        );
        assert_eq!(x.descriptors[1].rod_types.len(), 1);
        assert!(x.descriptors[1].rod_types[0].token_in);
        assert_eq!(problems.len(), 2, "{problems:?}");
    }

    #[test]
    fn rod_token_features_and_copy_group() {
        // The body after the 4-byte header: descriptor byte k is d[k - 4].
        let mut d = vec![0u8; 44];
        d[0] = 0xf2; // REMOTE TOKENS = 2, reserved bits set
        d[12..16].copy_from_slice(&600u32.to_be_bytes()); // MINIMUM TOKEN LIFETIME
        let mut blk = vec![0u8; 48];
        blk[3] = 0x2c;
        blk[7] = 8;
        blk[8..16].copy_from_slice(&(1u64 << 30).to_be_bytes());
        // A processor descriptor cut short: DESCRIPTOR LENGTH 44 with 10 bytes left.
        let mut tail = vec![3u8, 0, 0, 0x2c, 0, 0, 0, 0, 0, 0];
        let n = (blk.len() + tail.len()) as u16;
        d[42..44].copy_from_slice(&n.to_be_bytes());
        d.extend_from_slice(&blk);
        d.append(&mut tail);
        let mut cg = vec![18u8, 0x10, 0];
        cg.extend(1..=16u8);
        cg.push(0);
        let p = page(&[(0x0106, &d), (0x000d, &cg)]);
        let mut problems = Vec::new();
        let x = decode(&p, &mut problems).unwrap();
        let f = &x.descriptors[0];
        assert_eq!(f.fields["remote_tokens"], 2);
        assert_eq!(f.fields["minimum_token_lifetime"], 600);
        assert_eq!(f.rod_device_features.len(), 1);
        assert_eq!(
            f.rod_device_features[0].fields["maximum_bytes_in_block_rod"],
            1u64 << 30
        );
        assert_eq!(
            f.rod_device_features[0].fields["optimal_block_rod_length_granularity"],
            8
        );
        assert!(problems[0].contains("length 44 overruns"), "{problems:?}");
        let g = x.descriptors[1].copy_group_identifier.as_ref().unwrap();
        assert_eq!(
            g.locally_assigned_uuid.as_deref(),
            Some("01020304-0506-0708-090a-0b0c0d0e0f10")
        );
    }

    const FIXTURES: [&str; 3] = [
        include_str!("../../../../fixtures/commands/sg3_utils_inhex/vpd_tpc.hex"),
        include_str!("../../../../fixtures/commands/spec_built/vpd_8f_lists.hex"),
        include_str!("../../../../fixtures/commands/spec_built/vpd_8f_rod.hex"),
    ];

    #[test]
    fn spec_built_rod_types_all_decoded() {
        // sg_vpd 1.63 shows only the first ROD type descriptor (it steps 64 bytes); all five
        // are there.
        let full = crate::bytes::parse_inhex(FIXTURES[2]).unwrap();
        let x = parse(&full).unwrap();
        let t = &x.descriptors[2].rod_types;
        let got: Vec<(u32, bool, bool, bool, u16)> = t
            .iter()
            .map(|r| {
                (
                    r.rod_type,
                    r.ecpy_int,
                    r.token_in,
                    r.token_out,
                    r.preference_indication,
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (0, true, true, true, 3),
                (0x0080_0000, false, true, true, 2),
                (0xffff_0001, false, true, false, 1),
                (0x0080_0002, false, false, true, 0),
                (0x1234_5678, false, false, false, 0xffff),
            ]
        );
        assert_eq!(t[4].name, None);
        let r = &x.descriptors[1].rod_device_features;
        assert_eq!(
            r.iter()
                .map(|r| r.peripheral_device_type)
                .collect::<Vec<_>>(),
            [0, 1, 3]
        );
        assert_eq!(
            r[1].fields["optimal_bytes_in_stream_rod_transfer"],
            u64::MAX
        );
    }

    #[test]
    fn every_byte_of_the_fixtures_may_lie() {
        // Each byte set to 00, 01, 7F, FF in turn (lengths, list lengths, codes): decoded
        // without a panic, and a clean decode only when nothing is listed.
        for text in FIXTURES {
            let full = crate::bytes::parse_inhex(text).unwrap();
            for i in 2..full.len() {
                for v in [0x00, 0x01, 0x7f, 0xff] {
                    let mut p = full.clone();
                    p[i] = v;
                    let mut problems = Vec::new();
                    let r = decode(&p, &mut problems);
                    assert_eq!(parse(&p).is_ok(), r.is_ok() && problems.is_empty());
                }
            }
        }
    }

    #[test]
    fn every_cut_of_a_full_page_decodes_without_panicking() {
        let full = crate::bytes::parse_inhex(FIXTURES[0]).unwrap();
        for cut in 0..=full.len() {
            let mut p = full[..cut].to_vec();
            if p.len() >= 4 {
                // Keep the claimed page length: the cut is a lying length.
                let _ = decode(&p, &mut Vec::new());
                // And with a page length of the bytes present, every descriptor length lies.
                let n = (p.len() - 4) as u16;
                p[2..4].copy_from_slice(&n.to_be_bytes());
                let _ = decode(&p, &mut Vec::new());
            } else {
                assert!(decode(&p, &mut Vec::new()).is_err());
            }
        }
    }
}
