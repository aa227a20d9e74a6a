//! The one opcode table: every command sgctl sends, the virtual drive answers or a disk
//! commonly reports (SPC-6 Annex D / SBC-5 Table 11 operation codes, the variable-length
//! service actions of SBC-5 Table 12, the THIRD-PARTY COPY OUT/IN service actions of SPC-6
//! Annex D), with its service action, name, data direction, whether it may change the drive's
//! state and its timeout class.
//!
//! Users: the `-v` trace names commands with it ([`crate::transport::trace`]), REPORT
//! SUPPORTED OPERATION CODES decoding names the descriptors ([`super::rsoc`]), the gate's
//! read-only transport classifies commands (`sgctl::ops::gate::is_state_changing`), the
//! TCMU server decides the data direction of an entry (`sgctl_sim::tcmu::ring::is_data_out`), and
//! the CDB builders take their operation codes from here.
//!
//! Names are spelled as sg3_utils `sg_opcodes` spells them (`sg_lib_data.c`), so `sgctl
//! opcodes` can be compared line by line with `sg_opcodes`.

use std::time::Duration;

/// Which way data moves for a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    /// No data phase.
    None,
    /// Device to initiator.
    In,
    /// Initiator to device (a parameter list or blocks to write).
    Out,
    /// VERIFY: data-out only when BYTCHK (byte 1 bits 2:1; byte 10 for the 32-byte CDB) is
    /// not zero, else none.
    OutIfBytchk,
    /// ATA PASS-THROUGH: T_DIR (byte 2 bit 3) and T_LENGTH (bits 1-0) say (SAT-4 12.2.2.3).
    AtaTDir,
}

/// Whether a command may change what the drive stores or how it behaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Changes {
    /// A query or a read: data, format, mode, logs and security state stay as they are.
    No,
    /// May change state (writes, format, sanitize, mode/log select, security, reservations,
    /// cache flushes, diagnostics, firmware, and every command not known to be a query).
    Yes,
    /// ATA PASS-THROUGH: the ATA command inside decides (`ata_pass_through::is_read_only`,
    /// consulted by [`super::changes_state`]).
    AtaInside,
}

/// How long a command may take on a healthy drive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeoutClass {
    /// Queries answered from controller memory.
    Quick,
    /// Medium access of a bounded size (reads, writes, cache flush).
    Io,
    /// Operations that may run for hours without IMMED (FORMAT UNIT, SANITIZE, WRITE SAME of
    /// the whole medium, extended self-test in the foreground).
    Long,
}

impl TimeoutClass {
    /// The timeout sgctl uses when the caller has no better one: 30 s for queries and I/O (as
    /// sg3_utils' default), 4 h for the long operations (they are sent with IMMED when the
    /// drive supports it, and then complete at once).
    pub fn default_timeout(self) -> Duration {
        match self {
            TimeoutClass::Quick | TimeoutClass::Io => Duration::from_secs(30),
            TimeoutClass::Long => Duration::from_secs(4 * 3600),
        }
    }
}

/// One table entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Opcode {
    /// Operation code (CDB byte 0).
    pub code: u8,
    /// Service action (byte 1 bits 4-0; bytes 8-9 of a variable-length CDB), for the entries
    /// of one service action; `None` for the opcode as a whole.
    pub sa: Option<u16>,
    /// Name, as `sg_opcodes` prints it.
    pub name: &'static str,
    /// CDB length in bytes (from the opcode group, SPC-6 4.2.5.1; 32 for the variable-length
    /// service actions; 0 for the variable-length opcode as a whole).
    pub cdb_len: u8,
    /// Data direction.
    pub dir: Dir,
    /// Whether it may change state.
    pub changes: Changes,
    /// Timeout class.
    pub timeout: TimeoutClass,
}

impl Opcode {
    /// The timeout of this command's class ([`TimeoutClass::default_timeout`]).
    pub fn default_timeout(&self) -> Duration {
        self.timeout.default_timeout()
    }
}

const fn op(
    code: u8,
    sa: Option<u16>,
    name: &'static str,
    dir: Dir,
    changes: Changes,
    timeout: TimeoutClass,
) -> Opcode {
    let cdb_len = match (code, sa) {
        (0x7f, Some(_)) => 32,
        (0x7f, None) => 0,
        _ => group_len(code) as u8,
    };
    Opcode {
        code,
        sa,
        name,
        cdb_len,
        dir,
        changes,
        timeout,
    }
}

/// CDB length from the opcode group (SPC-6 4.2.5.1), as the kernel's `scsi_command_size`:
/// groups 0 → 6, 1 and 2 → 10, 4 → 16, 5 → 12; group 3 is the variable-length CDB (0x7f: 8 +
/// ADDITIONAL CDB LENGTH, byte 7) or reserved (10); the vendor-specific groups 6 and 7 count
/// as 10, as the kernel's `COMMAND_SIZE` does.
pub const fn cdb_len(code: u8, byte7: Option<u8>) -> usize {
    match (code >> 5, byte7) {
        (3, Some(b)) if code == 0x7f => 8 + b as usize,
        (3, None) if code == 0x7f => 8,
        _ => group_len(code),
    }
}

const fn group_len(code: u8) -> usize {
    match code >> 5 {
        0 => 6,
        4 => 16,
        5 => 12,
        _ => 10,
    }
}

use Changes::{AtaInside, No, Yes};
use Dir::{AtaTDir, In, None as NoData, Out, OutIfBytchk};
use TimeoutClass::{Io, Long, Quick};

/// Operation codes sgctl's CDB builders use (the entries below hold the rest).
pub mod code {
    /// TEST UNIT READY.
    pub(crate) const TEST_UNIT_READY: u8 = 0x00;
    /// REQUEST SENSE.
    pub(crate) const REQUEST_SENSE: u8 = 0x03;
    /// FORMAT UNIT.
    pub const FORMAT_UNIT: u8 = 0x04;
    /// INQUIRY.
    pub const INQUIRY: u8 = 0x12;
    /// FORMAT WITH PRESET.
    pub const FORMAT_WITH_PRESET: u8 = 0x38;
    /// SEND DIAGNOSTIC.
    pub(crate) const SEND_DIAGNOSTIC: u8 = 0x1d;
    /// MODE SELECT(6).
    pub const MODE_SELECT_6: u8 = 0x15;
    /// MODE SENSE(6).
    pub(crate) const MODE_SENSE_6: u8 = 0x1a;
    /// READ CAPACITY(10).
    pub(crate) const READ_CAPACITY_10: u8 = 0x25;
    /// READ(10).
    pub const READ_10: u8 = 0x28;
    /// WRITE(10).
    pub const WRITE_10: u8 = 0x2a;
    /// SANITIZE.
    pub const SANITIZE: u8 = 0x48;
    /// LOG SELECT.
    pub(crate) const LOG_SELECT: u8 = 0x4c;
    /// LOG SENSE.
    pub(crate) const LOG_SENSE: u8 = 0x4d;
    /// MODE SELECT(10).
    pub(crate) const MODE_SELECT_10: u8 = 0x55;
    /// MODE SENSE(10).
    pub(crate) const MODE_SENSE_10: u8 = 0x5a;
    /// PERSISTENT RESERVE IN.
    pub(crate) const PERSISTENT_RESERVE_IN: u8 = 0x5e;
    /// PERSISTENT RESERVE OUT.
    pub const PERSISTENT_RESERVE_OUT: u8 = 0x5f;
    /// ATA PASS-THROUGH(16).
    pub(crate) const ATA_PASS_THROUGH_16: u8 = 0x85;
    /// READ(16).
    pub const READ_16: u8 = 0x88;
    /// WRITE(16).
    pub const WRITE_16: u8 = 0x8a;
    /// SERVICE ACTION IN(16) (READ CAPACITY(16) is service action 0x10).
    pub(crate) const SERVICE_ACTION_IN_16: u8 = 0x9e;
    /// READ CAPACITY(16) service action.
    pub const SA_READ_CAPACITY_16: u16 = 0x10;
    /// REPORT LUNS.
    pub(crate) const REPORT_LUNS: u8 = 0xa0;
    /// ATA PASS-THROUGH(12).
    pub(crate) const ATA_PASS_THROUGH_12: u8 = 0xa1;
    /// SECURITY PROTOCOL IN.
    pub(crate) const SECURITY_PROTOCOL_IN: u8 = 0xa2;
    /// MAINTENANCE IN (REPORT SUPPORTED OPERATION CODES is service action 0x0c).
    pub(crate) const MAINTENANCE_IN: u8 = 0xa3;
    /// REPORT SUPPORTED OPERATION CODES service action.
    pub(crate) const SA_REPORT_SUPPORTED_OPCODES: u16 = 0x0c;
    /// SECURITY PROTOCOL OUT.
    pub(crate) const SECURITY_PROTOCOL_OUT: u8 = 0xb5;
}

/// The table, ordered by (code, service action); an opcode's service-action entries come
/// before its entry as a whole (`sa: None`), which covers the service actions not listed.
pub(crate) static OPCODES: &[Opcode] = &[
    op(0x00, None, "Test Unit Ready", NoData, No, Quick),
    op(0x01, None, "Rezero Unit", NoData, Yes, Long),
    op(0x03, None, "Request Sense", In, No, Quick),
    op(0x04, None, "Format Unit", Out, Yes, Long),
    op(0x07, None, "Reassign Blocks", Out, Yes, Long),
    op(0x08, None, "Read(6)", In, No, Io),
    op(0x0a, None, "Write(6)", Out, Yes, Io),
    op(0x0b, None, "Seek(6)", NoData, Yes, Io),
    op(0x12, None, "Inquiry", In, No, Quick),
    op(0x15, None, "Mode select(6)", Out, Yes, Quick),
    op(0x16, None, "Reserve(6)", NoData, Yes, Quick),
    op(0x17, None, "Release(6)", NoData, Yes, Quick),
    op(0x18, None, "Copy", Out, Yes, Long),
    op(0x1a, None, "Mode sense(6)", In, No, Quick),
    op(0x1b, None, "Start stop unit", NoData, Yes, Long),
    op(0x1c, None, "Receive diagnostic results", In, No, Quick),
    op(0x1d, None, "Send diagnostic", Out, Yes, Long),
    op(
        0x1e,
        None,
        "Prevent allow medium removal",
        NoData,
        Yes,
        Quick,
    ),
    op(0x25, None, "Read capacity(10)", In, No, Quick),
    op(0x28, None, "Read(10)", In, No, Io),
    op(0x2a, None, "Write(10)", Out, Yes, Io),
    op(0x2b, None, "Seek(10)", NoData, Yes, Io),
    op(0x2e, None, "Write and verify(10)", Out, Yes, Io),
    op(0x2f, None, "Verify(10)", OutIfBytchk, No, Long),
    op(0x34, None, "Pre-fetch(10)", NoData, Yes, Io),
    op(0x35, None, "Synchronize cache(10)", NoData, Yes, Io),
    op(0x37, None, "Read defect data(10)", In, No, Quick),
    op(0x38, None, "Format with preset", NoData, Yes, Long),
    op(0x39, None, "Compare", Out, Yes, Io),
    op(0x3b, None, "Write buffer", Out, Yes, Long),
    op(0x3c, None, "Read buffer(10)", In, No, Io),
    op(0x3e, None, "Read long(10)", In, No, Io),
    op(0x3f, None, "Write long(10)", Out, Yes, Io),
    op(0x41, None, "Write same(10)", Out, Yes, Long),
    op(0x42, None, "Unmap", Out, Yes, Io),
    op(0x48, Some(0x01), "Sanitize, overwrite", Out, Yes, Long),
    op(0x48, Some(0x02), "Sanitize, block erase", NoData, Yes, Long),
    op(
        0x48,
        Some(0x03),
        "Sanitize, cryptographic erase",
        NoData,
        Yes,
        Long,
    ),
    op(
        0x48,
        Some(0x1f),
        "Sanitize, exit failure mode",
        NoData,
        Yes,
        Long,
    ),
    op(0x48, None, "Sanitize", Out, Yes, Long),
    op(0x4c, None, "Log select", Out, Yes, Quick),
    op(0x4d, None, "Log sense", In, No, Quick),
    op(0x55, None, "Mode select(10)", Out, Yes, Quick),
    op(0x56, None, "Reserve(10)", Out, Yes, Quick),
    op(0x57, None, "Release(10)", Out, Yes, Quick),
    op(0x5a, None, "Mode sense(10)", In, No, Quick),
    op(0x5e, None, "Persistent reserve in", In, No, Quick),
    op(0x5f, None, "Persistent reserve out", Out, Yes, Quick),
    op(0x7f, Some(0x0009), "Read(32)", In, No, Io),
    op(0x7f, Some(0x000a), "Verify(32)", OutIfBytchk, No, Long),
    op(0x7f, Some(0x000b), "Write(32)", Out, Yes, Io),
    op(0x7f, Some(0x000c), "Write and verify(32)", Out, Yes, Io),
    op(0x7f, Some(0x000d), "Write same(32)", Out, Yes, Long),
    op(0x7f, Some(0x000e), "Orwrite(32)", Out, Yes, Io),
    op(0x7f, Some(0x0011), "Write scattered(32)", Out, Yes, Io),
    op(0x7f, None, "Variable length", In, Yes, Io),
    op(0x83, Some(0x00), "Extended copy(LID1)", Out, Yes, Long),
    op(0x83, Some(0x01), "Extended copy", Out, Yes, Long),
    op(0x83, Some(0x10), "Populate token", Out, Yes, Long),
    op(0x83, Some(0x11), "Write using token", Out, Yes, Long),
    op(0x83, Some(0x1c), "Copy operation abort", Out, Yes, Quick),
    op(0x83, None, "Third party copy out", Out, Yes, Long),
    op(0x84, Some(0x00), "Receive copy status(LID1)", In, No, Quick),
    op(0x84, Some(0x01), "Receive copy data(LID1)", In, No, Quick),
    op(
        0x84,
        Some(0x03),
        "Receive copy operating parameters",
        In,
        No,
        Quick,
    ),
    op(
        0x84,
        Some(0x04),
        "Receive copy failure details(LID1)",
        In,
        No,
        Quick,
    ),
    op(0x84, Some(0x05), "Receive copy status", In, No, Quick),
    op(0x84, Some(0x06), "Receive copy data", In, No, Quick),
    op(
        0x84,
        Some(0x07),
        "Receive ROD token information",
        In,
        No,
        Quick,
    ),
    op(0x84, Some(0x08), "Report all ROD tokens", In, No, Quick),
    op(0x84, None, "Third party copy in", In, No, Quick),
    op(0x85, None, "ATA pass-through(16)", AtaTDir, AtaInside, Long),
    op(0x86, None, "Access control in", In, No, Quick),
    op(0x87, None, "Access control out", Out, Yes, Quick),
    op(0x88, None, "Read(16)", In, No, Io),
    op(0x89, None, "Compare and write", Out, Yes, Io),
    op(0x8a, None, "Write(16)", Out, Yes, Io),
    op(0x8e, None, "Write and verify(16)", Out, Yes, Io),
    op(0x8f, None, "Verify(16)", OutIfBytchk, No, Long),
    op(0x90, None, "Pre-fetch(16)", NoData, Yes, Io),
    op(0x91, None, "Synchronize cache(16)", NoData, Yes, Io),
    op(0x93, None, "Write same(16)", Out, Yes, Long),
    op(0x9e, Some(0x10), "Read capacity(16)", In, No, Quick),
    op(0x9e, Some(0x11), "Read long(16)", In, No, Io),
    op(0x9e, Some(0x12), "Get LBA status(16)", In, No, Quick),
    op(0x9e, Some(0x13), "Report referrals", In, No, Quick),
    op(
        0x9e,
        Some(0x17),
        "Get physical element status",
        In,
        No,
        Quick,
    ),
    op(
        0x9e,
        Some(0x18),
        "Remove element and truncate",
        NoData,
        Yes,
        Long,
    ),
    op(0x9e, None, "Service action in(16)", In, Yes, Quick),
    op(0x9f, Some(0x11), "Write long(16)", Out, Yes, Io),
    op(0x9f, None, "Service action out(16)", Out, Yes, Quick),
    op(0xa0, None, "Report luns", In, No, Quick),
    op(0xa1, None, "ATA pass-through(12)", AtaTDir, AtaInside, Long),
    op(0xa2, None, "Security protocol in", In, No, Quick),
    op(
        0xa3,
        Some(0x05),
        "Report identifying information",
        In,
        No,
        Quick,
    ),
    op(0xa3, Some(0x0a), "Report target port groups", In, No, Quick),
    op(0xa3, Some(0x0b), "Report aliases", In, No, Quick),
    op(
        0xa3,
        Some(0x0c),
        "Report supported operation codes",
        In,
        No,
        Quick,
    ),
    op(
        0xa3,
        Some(0x0d),
        "Report supported task management functions",
        In,
        No,
        Quick,
    ),
    op(0xa3, Some(0x0e), "Report priority", In, No, Quick),
    op(0xa3, Some(0x0f), "Report timestamp", In, No, Quick),
    op(0xa3, None, "Maintenance in", In, Yes, Quick),
    op(
        0xa4,
        Some(0x06),
        "Set identifying information",
        Out,
        Yes,
        Quick,
    ),
    op(0xa4, Some(0x0a), "Set target port groups", Out, Yes, Quick),
    op(0xa4, Some(0x0f), "Set timestamp", Out, Yes, Quick),
    op(0xa4, None, "Maintenance out", Out, Yes, Quick),
    op(0xa8, None, "Read(12)", In, No, Io),
    op(0xaa, None, "Write(12)", Out, Yes, Io),
    op(0xae, None, "Write and verify(12)", Out, Yes, Io),
    op(0xaf, None, "Verify(12)", OutIfBytchk, No, Long),
    op(0xb5, None, "Security protocol out", Out, Yes, Quick),
    op(0xb7, None, "Read defect data(12)", In, No, Quick),
];

/// The entry for `code` with service action `sa`: the entry of that service action, else the
/// opcode's entry as a whole. `None` for an opcode not in the table.
pub fn find(code: u8, sa: Option<u16>) -> Option<&'static Opcode> {
    let mut whole = None;
    for o in OPCODES.iter().filter(|o| o.code == code) {
        match o.sa {
            Some(s) if Some(s) == sa => return Some(o),
            Some(_) => {}
            None => whole = Some(o),
        }
    }
    whole
}

/// The service action field of a CDB: bytes 8-9 of a variable-length CDB, else byte 1 bits
/// 4-0 (meaningful only for the opcodes that have service actions; [`find`] falls back to the
/// opcode as a whole for the others). Missing bytes read as zero.
pub fn service_action(cdb: &[u8]) -> u16 {
    match cdb.first() {
        Some(0x7f) => u16::from_be_bytes([
            cdb.get(8).copied().unwrap_or(0),
            cdb.get(9).copied().unwrap_or(0),
        ]),
        _ => u16::from(cdb.get(1).map(|b| b & 0x1f).unwrap_or(0)),
    }
}

/// The entry of the command in `cdb`; `None` when empty or not in the table.
pub fn lookup(cdb: &[u8]) -> Option<&'static Opcode> {
    let code = *cdb.first()?;
    find(code, Some(service_action(cdb)))
}

/// The name of the command in `cdb`, or `None` when not in the table.
pub fn name(cdb: &[u8]) -> Option<&'static str> {
    lookup(cdb).map(|o| o.name)
}

/// Whether `cdb` moves data from the initiator to the device, its fields decided (VERIFY's
/// BYTCHK, ATA PASS-THROUGH's T_DIR). Unknown opcodes count as data-in.
pub fn is_data_out(cdb: &[u8]) -> bool {
    let Some(o) = lookup(cdb) else {
        return false;
    };
    match o.dir {
        Dir::Out => true,
        Dir::None | Dir::In => false,
        Dir::OutIfBytchk => {
            let at = if o.code == 0x7f { 10 } else { 1 };
            cdb.get(at).is_some_and(|b| b & 0x06 != 0)
        }
        Dir::AtaTDir => cdb.get(2).is_some_and(|b| b & 0x08 == 0 && b & 0x03 != 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_ordered_unique_and_consistent() {
        for w in OPCODES.windows(2) {
            let key = |o: &Opcode| (o.code, o.sa.map_or(u32::MAX, u32::from));
            assert!(
                key(&w[0]) < key(&w[1]),
                "{} before {}",
                w[0].name,
                w[1].name
            );
        }
        for o in OPCODES {
            // Lookup by CDB finds the entry itself.
            let mut cdb = [0u8; 32];
            cdb[0] = o.code;
            if o.sa.is_none() && o.code != 0x7f {
                // The entry as a whole covers the service actions without their own entry
                // (THIRD-PARTY COPY OUT lists service action 0): look it up with one of those.
                let listed = |sa: u16| OPCODES.iter().any(|p| p.code == o.code && p.sa == Some(sa));
                cdb[1] = (0..0x20u8).find(|&sa| !listed(sa.into())).unwrap_or(0);
            }
            if let Some(sa) = o.sa {
                if o.code == 0x7f {
                    cdb[7] = 0x18;
                    cdb[8..10].copy_from_slice(&sa.to_be_bytes());
                } else {
                    assert!(sa <= 0x1f, "{}: SA fits byte 1 bits 4-0", o.name);
                    cdb[1] = sa as u8;
                }
            }
            let len = if o.cdb_len == 0 { 8 } else { o.cdb_len.into() };
            assert_eq!(lookup(&cdb[..len.max(10)]), Some(o), "{}", o.name);
            // The length follows the opcode group.
            if o.code == 0x7f {
                assert_eq!(cdb_len(o.code, Some(cdb[7])), len.max(8), "{}", o.name);
            } else {
                assert_eq!(usize::from(o.cdb_len), cdb_len(o.code, None), "{}", o.name);
            }
            // Names are unique, non-empty and say their length where the standard does.
            assert!(!o.name.is_empty());
            assert_eq!(OPCODES.iter().filter(|p| p.name == o.name).count(), 1);
            for n in ["6", "10", "12", "16", "32"] {
                if o.name.ends_with(&format!("({n})")) {
                    assert_eq!(o.cdb_len.to_string(), n, "{}", o.name);
                }
            }
            // A query moves no data out; a command that sends data changes state unless it
            // only compares it (VERIFY with BYTCHK).
            if o.changes == Changes::No {
                assert!(
                    matches!(o.dir, Dir::In | Dir::None | Dir::OutIfBytchk),
                    "{}",
                    o.name
                );
            }
            if o.dir == Dir::Out {
                assert_eq!(o.changes, Changes::Yes, "{}", o.name);
            }
            if o.timeout == TimeoutClass::Long {
                assert!(o.default_timeout() > Duration::from_secs(3600));
            }
        }
    }

    #[test]
    fn service_action_fallback() {
        assert_eq!(name(&[0x9e, 0x10]), Some("Read capacity(16)"));
        assert_eq!(name(&[0x9e, 0x1c]), Some("Service action in(16)"));
        assert_eq!(
            name(&[0xa3, 0xec]),
            Some("Report supported operation codes")
        );
        assert_eq!(name(&[0x12, 0x01]), Some("Inquiry"));
        assert_eq!(name(&[0x83, 0x00]), Some("Extended copy(LID1)"));
        assert_eq!(name(&[0x83, 0x10]), Some("Populate token"));
        assert_eq!(name(&[0x83, 0x02]), Some("Third party copy out"));
        assert_eq!(name(&[0x84, 0x07]), Some("Receive ROD token information"));
        assert_eq!(name(&[0x48, 0x82]), Some("Sanitize, block erase"));
        assert_eq!(find(0x48, None).map(|o| o.name), Some("Sanitize"));
        assert_eq!(name(&[0xc0]), None);
        assert_eq!(name(&[]), None);
        let mut r32 = [0u8; 32];
        r32[0] = 0x7f;
        r32[7] = 0x18;
        r32[9] = 0x09;
        assert_eq!(name(&r32), Some("Read(32)"));
        assert_eq!(name(&r32[..8]), Some("Variable length"));
    }

    #[test]
    fn direction_and_state() {
        assert!(is_data_out(&[0x2a]));
        assert!(!is_data_out(&[0x2f, 0x00]));
        assert!(is_data_out(&[0x2f, 0x02]));
        assert!(!is_data_out(&[0x85, 0, 0x0e]), "T_DIR=1: data-in");
        assert!(is_data_out(&[0x85, 0, 0x06]), "T_DIR=0, T_LENGTH=2");
    }
}
