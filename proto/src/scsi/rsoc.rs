//! SPC-6 6.36 REPORT SUPPORTED OPERATION CODES (MAINTENANCE IN 0xA3, service action 0x0C).
//!
//! Byte offsets: protocols.md §D.4 (sources: sg3_utils `src/sg_opcodes.c`, opensea-operations).
//! Reporting option 0 lists all commands (8-byte descriptors, +12 with timeouts); options 1–3
//! describe one command (support, CDB usage bitmap, optional timeouts descriptor).

use crate::bytes::{hex, Bytes, ParseError, ParseResult};
use serde::Serialize;

/// MAINTENANCE IN operation code.
pub const OPCODE: u8 = crate::scsi::opcodes::code::MAINTENANCE_IN;
/// REPORT SUPPORTED OPERATION CODES service action.
pub(crate) const SERVICE_ACTION: u8 = super::opcodes::code::SA_REPORT_SUPPORTED_OPCODES as u8;

/// REPORTING OPTIONS field (CDB byte 2 bits 2-0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportingOptions {
    /// 000b: all commands.
    All,
    /// 001b: one operation code without service action.
    OpCode(u8),
    /// 010b: one operation code with this service action.
    OpCodeSa(u8, u16),
    /// 011b: one operation code, service action if it has them.
    OpCodeMaybeSa(u8, u16),
}

crate::scsi::cdb::cdb_builder! {
    /// SPC-6 6.36.1 REPORT SUPPORTED OPERATION CODES CDB (MAINTENANCE IN, 12 bytes).
    #[doc(alias = "sg_ll_report_supported_opcodes")]
    pub struct ReportSupportedOpcodesCdb {
        /// ALLOCATION LENGTH, bytes 6–9.
        alloc_len: u32,
        ;;
        /// REPORTING OPTIONS, byte 2 bits 2-0, with REQUESTED OPERATION CODE (byte 3) and
        /// REQUESTED SERVICE ACTION (bytes 4–5).
        options: ReportingOptions = ReportingOptions::All,
        /// RCTD, byte 2 bit 7: return command timeouts descriptors.
        rctd: bool = false,
    }
}

impl ReportSupportedOpcodesCdb {
    /// MAINTENANCE IN operation code.
    pub const OPCODE: u8 = OPCODE;
    /// REPORT SUPPORTED OPERATION CODES service action, byte 1 bits 4-0.
    pub const SERVICE_ACTION: u8 = SERVICE_ACTION;

    /// The 12 CDB bytes.
    pub fn build(&self) -> [u8; 12] {
        let (opts, rctd, alloc) = (self.options, self.rctd, self.alloc_len);
        let (ro, op, sa) = match opts {
            ReportingOptions::All => (0, 0, 0),
            ReportingOptions::OpCode(o) => (1, o, 0),
            ReportingOptions::OpCodeSa(o, s) => (2, o, s),
            ReportingOptions::OpCodeMaybeSa(o, s) => (3, o, s),
        };
        let a = alloc.to_be_bytes();
        let s = sa.to_be_bytes();
        [
            OPCODE,
            SERVICE_ACTION,
            if rctd { 0x80 } else { 0 } | ro,
            op,
            s[0],
            s[1],
            a[0],
            a[1],
            a[2],
            a[3],
            0,
            0,
        ]
    }
}

/// SPC-6 6.36.4 command timeouts descriptor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Timeouts {
    /// Byte 3: command specific (e.g. for WRITE BUFFER).
    pub command_specific: u8,
    /// Bytes 4–7: nominal command processing timeout, seconds (0 = not specified).
    pub nominal_seconds: u32,
    /// Bytes 8–11: recommended command timeout, seconds (0 = not specified).
    pub recommended_seconds: u32,
}

fn parse_timeouts(b: &Bytes<'_>, off: usize) -> ParseResult<Timeouts> {
    let len = b.be16(off)?;
    if len != 0x0a {
        return Err(ParseError::new(
            "command timeouts descriptor",
            format!("descriptor length {len}, expected 10"),
        ));
    }
    Ok(Timeouts {
        command_specific: b.u8(off + 3)?,
        nominal_seconds: b.be32(off + 4)?,
        recommended_seconds: b.be32(off + 8)?,
    })
}

/// One entry of the all-commands list (SPC-6 6.36.2 command descriptor).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CommandDescriptor {
    /// Operation code.
    pub opcode: u8,
    /// Service action, when SERVACTV is set.
    pub service_action: Option<u16>,
    /// Bytes 6–7: CDB length.
    pub cdb_length: u16,
    /// T10 name of the command, when known.
    pub name: Option<&'static str>,
    /// Timeouts, when CTDP is set.
    pub timeouts: Option<Timeouts>,
}

/// The all-commands response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AllCommands {
    /// Bytes 0–3: COMMAND DATA LENGTH as reported.
    pub command_data_length: u32,
    /// Descriptors.
    pub commands: Vec<CommandDescriptor>,
    /// What did not add up (a list cut short, a descriptor that overruns, a timeouts
    /// descriptor of the wrong length); filled by [`decode_all`], an error for [`parse_all`].
    pub problems: Vec<String>,
}

/// Parses the reporting-options-0 response. The list must be complete: a descriptor cut off
/// by the buffer or by COMMAND DATA LENGTH is an error (ask again with a bigger allocation).
pub fn parse_all(buf: &[u8]) -> ParseResult<AllCommands> {
    let a = decode_all(buf)?;
    match a.problems.first() {
        Some(p) => Err(ParseError::new(WHAT_ALL, p.clone())),
        None => Ok(a),
    }
}

const WHAT_ALL: &str = "REPORT SUPPORTED OPERATION CODES data";

/// Decodes the reporting-options-0 response as far as the bytes go: a list shorter
/// than COMMAND DATA LENGTH keeps its whole descriptors, a descriptor that overruns ends the
/// list, a timeouts descriptor of the wrong length is left out; each is listed in
/// [`AllCommands::problems`]. Only a missing 4-byte header is an error.
pub fn decode_all(buf: &[u8]) -> ParseResult<AllCommands> {
    let b = Bytes::new(buf, WHAT_ALL);
    let len = b.be32(0)?;
    let mut problems = Vec::new();
    let want = usize::try_from(len).unwrap_or(usize::MAX).saturating_add(4);
    let end = want.min(buf.len());
    if want > buf.len() {
        problems.push(format!(
            "truncated: command data length {len} needs {want} bytes, have {}",
            buf.len()
        ));
    }
    let b = b.sub(0, end)?;
    let mut off = 4;
    let mut commands = Vec::new();
    while off < end {
        let Ok(d) = b.sub(off, 8) else {
            problems.push(format!(
                "command descriptor at offset {off} overruns the list ({} bytes left)",
                end - off
            ));
            break;
        };
        let flags = d.u8(5)?;
        let opcode = d.u8(0)?;
        let sa = (flags & 0x01 != 0).then_some(d.be16(2)?);
        let ctdp = flags & 0x02 != 0;
        let timeouts = if ctdp {
            match parse_timeouts(&b, off + 8) {
                Ok(t) => Some(t),
                Err(e) => {
                    problems.push(format!("opcode 0x{opcode:02x} at offset {off}: {e}"));
                    None
                }
            }
        } else {
            None
        };
        commands.push(CommandDescriptor {
            opcode,
            service_action: sa,
            cdb_length: d.be16(6)?,
            name: command_name(opcode, sa),
            timeouts,
        });
        off += if ctdp { 20 } else { 8 };
    }
    Ok(AllCommands {
        command_data_length: len,
        commands,
        problems,
    })
}

/// SUPPORT field of the one-command response (SPC-6 Table 307).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Support {
    /// 000b: data not currently available.
    NotAvailable,
    /// 001b: command not supported.
    NotSupported,
    /// 011b: supported in conformance with a T10 standard.
    Standard,
    /// 101b: supported in a vendor specific manner.
    Vendor,
    /// Reserved values.
    Reserved(u8),
}

/// The one-command response (reporting options 1–3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OneCommand {
    /// Byte 1 bits 2-0.
    pub support: Support,
    /// Bytes 2–3: CDB size.
    pub cdb_size: u16,
    /// CDB usage data: which bits of each CDB byte the device looks at (hex).
    pub cdb_usage: String,
    /// The usage bitmap bytes.
    #[serde(skip)]
    pub cdb_usage_bytes: Vec<u8>,
    /// Timeouts, when CTDP (byte 1 bit 7) is set.
    pub timeouts: Option<Timeouts>,
    /// What did not add up (CDB usage data cut short, a bad timeouts descriptor); filled by
    /// [`decode_one`], an error for [`parse_one`].
    pub problems: Vec<String>,
}

impl OneCommand {
    /// True when the device implements the command (SUPPORT 011b or 101b).
    pub fn supported(&self) -> bool {
        matches!(self.support, Support::Standard | Support::Vendor)
    }
}

/// Parses a one-command response. It must be complete: CDB usage data cut short or a bad
/// timeouts descriptor is an error (see [`decode_one`] for the best-effort decode).
pub fn parse_one(buf: &[u8]) -> ParseResult<OneCommand> {
    let o = decode_one(buf)?;
    match o.problems.first() {
        Some(p) => Err(ParseError::new(WHAT_ONE, p.clone())),
        None => Ok(o),
    }
}

const WHAT_ONE: &str = "REPORT SUPPORTED OPERATION CODES one-command data";

/// Decodes a one-command response as far as the bytes go: CDB usage data shorter
/// than CDB SIZE keeps the bytes present, a timeouts descriptor (CTDP set) that is cut off or of
/// the wrong length is left out; each is listed in [`OneCommand::problems`]. Only a missing
/// 4-byte header is an error.
pub fn decode_one(buf: &[u8]) -> ParseResult<OneCommand> {
    let b = Bytes::new(buf, WHAT_ONE);
    b.need(4)?;
    let flags = b.u8(1)?;
    let size = b.be16(2)?;
    let mut problems = Vec::new();
    let avail = buf.len() - 4;
    let n = usize::from(size).min(avail);
    if usize::from(size) > avail {
        problems.push(format!(
            "CDB size {size} but only {avail} bytes of CDB usage data follow; decoded what is present"
        ));
    }
    let usage = b.slice(4, n)?;
    let ctdp = flags & 0x80 != 0;
    let timeouts = if !ctdp {
        None
    } else if usize::from(size) > avail {
        problems.push("CTDP is set but the command timeouts descriptor is missing".into());
        None
    } else {
        match parse_timeouts(&b, 4 + n) {
            Ok(t) => Some(t),
            Err(e) => {
                problems.push(format!("CTDP is set but {e}"));
                None
            }
        }
    };
    Ok(OneCommand {
        support: match flags & 0x07 {
            0 => Support::NotAvailable,
            1 => Support::NotSupported,
            3 => Support::Standard,
            5 => Support::Vendor,
            o => Support::Reserved(o),
        },
        cdb_size: size,
        cdb_usage: hex(usage),
        cdb_usage_bytes: usage.to_vec(),
        timeouts,
        problems,
    })
}

/// Name of a command as `sg_opcodes` prints it (the one opcode table,
/// [`super::opcodes`]); `None` for an opcode the table does not know.
pub fn command_name(opcode: u8, sa: Option<u16>) -> Option<&'static str> {
    super::opcodes::find(opcode, sa).map(|o| o.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cdb_bytes() {
        assert_eq!(
            ReportSupportedOpcodesCdb::new(0x2000).rctd(true).build(),
            [0xa3, 0x0c, 0x80, 0, 0, 0, 0, 0, 0x20, 0, 0, 0]
        );
        assert_eq!(
            ReportSupportedOpcodesCdb::new(512)
                .options(ReportingOptions::OpCodeSa(0x48, 3))
                .build(),
            [0xa3, 0x0c, 0x02, 0x48, 0, 3, 0, 0, 2, 0, 0, 0]
        );
    }

    #[test]
    fn all_with_timeouts() {
        let b = [
            0, 0, 0, 28, // length: one plain + one with timeouts
            0x12, 0, 0, 0, 0, 0, 0, 6, // INQUIRY, CDB 6
            0x48, 0, 0, 3, 0, 0x03, 0, 10, // SANITIZE SA 3, SERVACTV+CTDP
            0, 10, 0, 0, 0, 0, 0, 30, 0, 0, 0x0e, 0x10,
        ];
        let a = parse_all(&b).unwrap();
        assert_eq!(a.commands.len(), 2);
        assert_eq!(a.commands[1].service_action, Some(3));
        assert_eq!(
            a.commands[1].timeouts,
            Some(Timeouts {
                command_specific: 0,
                nominal_seconds: 30,
                recommended_seconds: 3600
            })
        );
        assert!(parse_all(&b[..27]).is_err());
        // Best effort: cut inside the second descriptor's timeouts: both commands kept, the
        // second without timeouts, the cut listed.
        let a = decode_all(&b[..27]).unwrap();
        assert_eq!(a.commands.len(), 2);
        assert_eq!(a.commands[1].timeouts, None);
        assert_eq!(a.problems.len(), 2, "{:?}", a.problems);
        assert!(a.problems[0].contains("command data length 28 needs 32 bytes, have 27"));
        assert!(
            a.problems[1].contains("opcode 0x48 at offset 12"),
            "{:?}",
            a.problems
        );
        // Cut inside the second descriptor itself: the first is kept.
        let a = decode_all(&b[..15]).unwrap();
        assert_eq!(a.commands.len(), 1);
        assert!(
            a.problems[1].contains("descriptor at offset 12 overruns"),
            "{:?}",
            a.problems
        );
        // A timeouts descriptor of the wrong length is left out, the command kept.
        let mut c = b;
        c[21] = 9;
        let a = decode_all(&c).unwrap();
        assert_eq!(a.commands.len(), 2);
        assert_eq!(a.commands[1].timeouts, None);
        assert!(
            a.problems[0].contains("descriptor length 9, expected 10"),
            "{:?}",
            a.problems
        );
    }

    #[test]
    fn one_command() {
        let b = [
            0, 0x83, 0, 6, 0x04, 0xff, 0, 0, 0x03, 0x07, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 60,
        ];
        let o = parse_one(&b).unwrap();
        assert!(o.supported());
        assert_eq!(o.cdb_usage, "04ff00000307");
        assert_eq!(o.timeouts.unwrap().recommended_seconds, 60);
        assert!(parse_one(&b[..10]).is_err());
        // Best effort: the usage bytes present, the missing timeouts descriptor listed.
        let d = decode_one(&b[..8]).unwrap();
        assert_eq!(d.cdb_usage, "04ff0000");
        assert!(d.timeouts.is_none());
        assert_eq!(d.problems.len(), 2, "{:?}", d.problems);
        assert!(
            d.problems[0].contains("CDB size 6 but only 4 bytes"),
            "{:?}",
            d.problems
        );
        assert!(d.problems[1].contains("timeouts descriptor is missing"));
        // Whole usage data, timeouts descriptor cut short: usage kept, descriptor listed.
        let d = decode_one(&b[..14]).unwrap();
        assert_eq!(d.cdb_usage, "04ff00000307");
        assert!(d.timeouts.is_none());
        assert_eq!(d.problems.len(), 1, "{:?}", d.problems);
        assert!(
            d.problems[0].starts_with("CTDP is set but"),
            "{:?}",
            d.problems
        );
        // A wrong descriptor length.
        let mut w = b;
        w[11] = 9;
        let d = decode_one(&w).unwrap();
        assert!(
            d.problems[0].contains("descriptor length 9, expected 10"),
            "{:?}",
            d.problems
        );
        assert!(decode_one(&b[..3]).is_err());
        assert!(decode_one(&b).unwrap().problems.is_empty());
    }
}
