//! The commands the virtual drive implements: one table ([`COMMANDS`]) holding each command's
//! CDB length, CDB usage map (REPORT SUPPORTED OPERATION CODES reports it and the target
//! rejects any bit outside it), timeouts, processing flags and handler.

pub(crate) mod alua;
pub mod ata;
pub(crate) mod capacity;
pub(crate) mod defect;
pub(crate) mod diag;
pub mod firmware;
pub mod format;
pub mod inquiry;
pub mod log;
pub(crate) mod misc;
pub mod mode;
pub(crate) mod pi;
pub(crate) mod pr;
pub mod reassign;
pub mod rw;
pub mod sanitize;
pub(crate) mod verify;
pub(crate) mod write_same;

use crate::sim::profile::Profile;
use crate::sim::sense::SimSense;
use crate::sim::Shared;

/// FORMAT UNIT operation code.
pub const FORMAT_UNIT: u8 = 0x04;
/// Variable-length CDB operation code (SPC-5 4.2.5.3): 16-bit service action in bytes 8-9,
/// CONTROL in byte 1.
pub const VARIABLE_LENGTH: u8 = 0x7F;

/// Per-command state while a command runs.
pub struct CmdCtx<'a> {
    /// The drive.
    pub(crate) sh: &'a mut Shared,
    /// Relative target port of the I_T nexus (1 or 2).
    pub port: u16,
    /// The CDB as received (at least the command's length; validated).
    pub cdb: &'a [u8],
    /// Data-out bytes the initiator supplied.
    pub out: &'a [u8],
    /// Size of the initiator's data-in buffer.
    pub in_len: usize,
    /// The initiator's data-in buffer, for a handler that builds its data in place (READ):
    /// it sets [`in_place`](Self::in_place) and returns no bytes. Bytes written here count
    /// only with a good status (as returned bytes do).
    pub in_buf: Option<&'a mut [u8]>,
    /// Bytes the handler wrote at the start of [`in_buf`](Self::in_buf).
    pub in_place: Option<usize>,
    /// Service time to charge, ns.
    pub service_ns: u64,
    /// A blocking long operation: the command completes after this much drive time.
    pub wait_ns: u64,
    /// A host (transport) status to return instead of a SCSI status.
    pub host_status: u16,
    /// A SCSI status other than GOOD without sense (RESERVATION CONFLICT); 0 = as the result
    /// says.
    pub status: u8,
    /// CHECK CONDITION to return after the data-in bytes were transferred (ATA PASS-THROUGH
    /// with CK_COND=1: data and the ATA Status Return descriptor, SAT-4 12.2.2.5).
    pub check_with_data: Option<SimSense>,
}

impl CmdCtx<'_> {
    /// Big-endian field of `n` bytes at CDB offset `off`.
    pub fn be(&self, off: usize, n: usize) -> u64 {
        be(self.cdb, off, n)
    }

    /// The parameter list of `len` bytes the CDB announces. Bytes the initiator did not send
    /// read as zero (the transfer ended early).
    pub(crate) fn param_list(&self, len: usize) -> Vec<u8> {
        let mut v = vec![0u8; len];
        let n = len.min(self.out.len());
        v[..n].copy_from_slice(&self.out[..n]);
        v
    }

    /// The initiator sent fewer data-out bytes than the CDB announced: the SAS transfer
    /// cannot complete, the HBA reports DID_ERROR (K-status 0x07).
    pub(crate) fn short_data_out(&self, needed: usize) -> bool {
        self.out.len() < needed
    }
}

/// Big-endian field of `n` (≤ 8) bytes at `off`; missing bytes read as zero.
pub fn be(b: &[u8], off: usize, n: usize) -> u64 {
    let mut v = 0u64;
    for i in 0..n.min(8) {
        v = (v << 8) | u64::from(b.get(off + i).copied().unwrap_or(0));
    }
    v
}

/// Truncates a response to the allocation length.
pub fn alloc(mut v: Vec<u8>, alloc_len: u64) -> Vec<u8> {
    v.truncate(usize::try_from(alloc_len).unwrap_or(usize::MAX));
    v
}

/// How the common processing treats a command.
#[derive(Debug, Clone, Copy)]
pub struct Flags {
    /// Reports pending unit attentions and deferred errors.
    pub ua: bool,
    /// Gets NOT READY while FORMAT UNIT / SANITIZE run.
    pub not_ready: bool,
    /// Fails with 31/00 or 31/03 while the medium is unusable.
    pub medium: bool,
    /// Leaves a MODE SELECT block descriptor pending (query commands).
    pub keeps_pending: bool,
}

const EXEMPT: Flags = Flags {
    ua: false,
    not_ready: false,
    medium: false,
    keeps_pending: true,
};
const QUERY: Flags = Flags {
    ua: true,
    not_ready: true,
    medium: false,
    keeps_pending: true,
};
const QUERY_MEDIUM: Flags = Flags {
    ua: true,
    not_ready: true,
    medium: true,
    keeps_pending: true,
};
const CONFIG: Flags = Flags {
    ua: true,
    not_ready: true,
    medium: false,
    keeps_pending: false,
};
const MEDIUM: Flags = Flags {
    ua: true,
    not_ready: true,
    medium: true,
    keeps_pending: false,
};
/// FORMAT UNIT / SANITIZE check the medium state themselves.
const LONG_OP: Flags = Flags {
    ua: true,
    not_ready: true,
    medium: false,
    keeps_pending: false,
};

/// One supported command.
pub struct CmdDef {
    /// Operation code.
    pub opcode: u8,
    /// Service action (byte 1 bits 4-0), for opcodes that have them.
    pub sa: Option<u8>,
    /// T10 name.
    pub name: &'static str,
    /// CDB length.
    pub len: usize,
    /// CDB usage data (SPC-5 6.35.3): byte 0 = opcode, SA bits = SA value, other bits set =
    /// field used.
    pub usage: fn(&Profile) -> Vec<u8>,
    /// Whether the profile has the command.
    pub supported: fn(&Profile) -> bool,
    /// Nominal and recommended command timeouts in seconds (RSOC timeouts descriptor).
    pub timeouts: fn(&Profile) -> (u32, u32),
    /// Processing flags.
    pub flags: Flags,
    /// The handler.
    pub handler: fn(&mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense>,
}

fn always(_: &Profile) -> bool {
    true
}
fn sas_only(p: &Profile) -> bool {
    !p.sata
}
fn quick(_: &Profile) -> (u32, u32) {
    (1, 30)
}
fn io_timeouts(_: &Profile) -> (u32, u32) {
    (1, 30)
}
fn has_presets(p: &Profile) -> bool {
    !p.presets.is_empty()
}
fn has_unmap(p: &Profile) -> bool {
    p.lbpme
}
fn has_sed(p: &Profile) -> bool {
    p.sed.is_some()
}
fn has_sanitize(p: &Profile) -> bool {
    p.sanitize.any()
}
fn has_overwrite(p: &Profile) -> bool {
    p.sanitize.overwrite
}
fn has_block_erase(p: &Profile) -> bool {
    p.sanitize.block_erase
}
fn sata(p: &Profile) -> bool {
    p.sata
}
/// ATA PASS-THROUGH: processed during a sanitize (the ATA side decides what it accepts).
const ATA_PT: Flags = Flags {
    ua: true,
    not_ready: false,
    medium: false,
    keeps_pending: true,
};
fn has_crypto_erase(p: &Profile) -> bool {
    p.sanitize.crypto_erase
}

// CONTROL byte usage: NACA (bit 2). Kept at the end of each map.
const C: u8 = 0x04;

/// Protection type 2 formats possible (Extended INQUIRY SPT 001b, 010b, 101b, 111b): the
/// 32-byte READ/WRITE/VERIFY exist.
fn has_type2(p: &Profile) -> bool {
    p.protect && matches!(p.spt, 1 | 2 | 5 | 7)
}

/// VERIFY byte 1 (byte 10 in VERIFY(32)): VRPROTECT (7-5) with PI support, DPO (4), BYTCHK
/// (2-1).
fn verify_byte1(p: &Profile) -> u8 {
    if p.protect {
        0xF6
    } else {
        0x16
    }
}

/// WRITE SAME byte 1: WRPROTECT (7-5) with PI support, UNMAP (3) with logical block
/// provisioning; ANCHOR (4) is not supported (ANC_SUP=0).
fn write_same_byte1(p: &Profile) -> u8 {
    (if p.protect { 0xE0 } else { 0 }) | if p.lbpme { 0x08 } else { 0 }
}

/// CDB usage data of a 32-byte READ/WRITE/VERIFY (SBC-4 5.16, 5.48, 5.35): 1 CONTROL,
/// 7 ADDITIONAL CDB LENGTH, 8-9 SERVICE ACTION, 10 flags, 12-19 LBA, 20-23 EXPECTED INITIAL
/// LOGICAL BLOCK REFERENCE TAG, 24-25 EXPECTED LOGICAL BLOCK APPLICATION TAG, 26-27 LOGICAL
/// BLOCK APPLICATION TAG MASK, 28-31 TRANSFER / VERIFICATION LENGTH.
fn usage32(sa: u8, flags: u8) -> Vec<u8> {
    let mut u = vec![0u8; 32];
    u[0] = VARIABLE_LENGTH;
    u[1] = C;
    u[7] = 0xFF;
    u[9] = sa;
    u[10] = flags;
    for b in &mut u[12..32] {
        *b = 0xFF;
    }
    u
}

fn rw_byte1(p: &Profile) -> u8 {
    // RDPROTECT/WRPROTECT (7-5) only with PI support; DPO (4), FUA (3).
    if p.protect {
        0xF8
    } else {
        0x18
    }
}

/// The command table. Order matters only for `REPORT SUPPORTED OPERATION CODES` (reported in
/// this order).
pub static COMMANDS: &[CmdDef] = &[
    CmdDef {
        opcode: 0x00,
        sa: None,
        name: "TEST UNIT READY",
        len: 6,
        usage: |_| vec![0x00, 0, 0, 0, 0, C],
        supported: always,
        timeouts: quick,
        flags: QUERY_MEDIUM,
        handler: misc::test_unit_ready,
    },
    CmdDef {
        opcode: 0x03,
        sa: None,
        name: "REQUEST SENSE",
        len: 6,
        usage: |_| vec![0x03, 0x01, 0, 0, 0xFF, C],
        supported: always,
        timeouts: quick,
        flags: EXEMPT,
        handler: misc::request_sense,
    },
    CmdDef {
        opcode: 0x04,
        sa: None,
        name: "FORMAT UNIT",
        len: 6,
        usage: |p| {
            vec![
                0x04,
                if p.protect { 0xFF } else { 0x3F },
                0,
                0,
                if p.fast_format { 0x03 } else { 0 },
                C,
            ]
        },
        supported: always,
        timeouts: format::timeouts,
        flags: LONG_OP,
        handler: format::format_unit,
    },
    CmdDef {
        opcode: 0x07,
        sa: None,
        name: "REASSIGN BLOCKS",
        len: 6,
        // Byte 1: LONGLBA (1), LONGLIST (0).
        usage: |_| vec![0x07, 0x03, 0, 0, 0, C],
        supported: sas_only,
        timeouts: io_timeouts,
        flags: MEDIUM,
        handler: reassign::reassign_blocks,
    },
    CmdDef {
        opcode: 0x12,
        sa: None,
        name: "INQUIRY",
        len: 6,
        usage: |_| vec![0x12, 0x01, 0xFF, 0xFF, 0xFF, C],
        supported: always,
        timeouts: quick,
        flags: EXEMPT,
        handler: inquiry::inquiry,
    },
    CmdDef {
        opcode: 0x15,
        sa: None,
        name: "MODE SELECT(6)",
        len: 6,
        usage: |_| vec![0x15, 0x11, 0, 0, 0xFF, C],
        supported: always,
        timeouts: quick,
        flags: CONFIG,
        handler: mode::mode_select,
    },
    CmdDef {
        opcode: 0x1A,
        sa: None,
        name: "MODE SENSE(6)",
        len: 6,
        usage: |_| vec![0x1A, 0x08, 0xFF, 0xFF, 0xFF, C],
        supported: always,
        timeouts: quick,
        flags: QUERY,
        handler: mode::mode_sense,
    },
    CmdDef {
        opcode: 0x1B,
        sa: None,
        name: "START STOP UNIT",
        len: 6,
        usage: |_| vec![0x1B, 0x01, 0, 0x0F, 0xF7, C],
        supported: always,
        timeouts: quick,
        flags: CONFIG,
        handler: misc::start_stop_unit,
    },
    CmdDef {
        opcode: 0x1D,
        sa: None,
        name: "SEND DIAGNOSTIC",
        len: 6,
        usage: |_| vec![0x1D, 0xF7, 0, 0xFF, 0xFF, C],
        supported: always,
        timeouts: diag::timeouts,
        flags: MEDIUM,
        handler: diag::send_diagnostic,
    },
    CmdDef {
        opcode: 0x25,
        sa: None,
        name: "READ CAPACITY(10)",
        len: 10,
        usage: |_| vec![0x25, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0x01, C],
        supported: always,
        timeouts: quick,
        flags: QUERY_MEDIUM,
        handler: capacity::read_capacity10,
    },
    CmdDef {
        opcode: 0x28,
        sa: None,
        name: "READ(10)",
        len: 10,
        usage: |p| vec![0x28, rw_byte1(p), 0xFF, 0xFF, 0xFF, 0xFF, 0, 0xFF, 0xFF, C],
        supported: always,
        timeouts: io_timeouts,
        flags: MEDIUM,
        handler: rw::read,
    },
    CmdDef {
        opcode: 0x2A,
        sa: None,
        name: "WRITE(10)",
        len: 10,
        usage: |p| vec![0x2A, rw_byte1(p), 0xFF, 0xFF, 0xFF, 0xFF, 0, 0xFF, 0xFF, C],
        supported: always,
        timeouts: io_timeouts,
        flags: MEDIUM,
        handler: rw::write,
    },
    CmdDef {
        opcode: 0x2F,
        sa: None,
        name: "VERIFY(10)",
        len: 10,
        usage: |p| {
            vec![
                0x2F,
                verify_byte1(p),
                0xFF,
                0xFF,
                0xFF,
                0xFF,
                0,
                0xFF,
                0xFF,
                C,
            ]
        },
        supported: always,
        timeouts: io_timeouts,
        flags: MEDIUM,
        handler: verify::verify,
    },
    CmdDef {
        opcode: 0x35,
        sa: None,
        name: "SYNCHRONIZE CACHE(10)",
        len: 10,
        usage: |_| vec![0x35, 0x02, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0xFF, 0xFF, C],
        supported: always,
        timeouts: io_timeouts,
        flags: MEDIUM,
        handler: rw::synchronize_cache,
    },
    CmdDef {
        opcode: 0x37,
        sa: None,
        name: "READ DEFECT DATA(10)",
        len: 10,
        usage: |_| vec![0x37, 0, 0x1F, 0, 0, 0, 0, 0xFF, 0xFF, C],
        supported: sas_only,
        timeouts: quick,
        flags: QUERY,
        handler: defect::read_defect_data10,
    },
    CmdDef {
        opcode: 0x38,
        sa: None,
        name: "FORMAT WITH PRESET",
        len: 10,
        // Byte 1: IMMED (7), FMTMAXLBA (6); bytes 2-5 PRESET IDENTIFIER.
        usage: |_| vec![0x38, 0xC0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, C],
        supported: has_presets,
        timeouts: format::timeouts,
        flags: LONG_OP,
        handler: format::format_with_preset,
    },
    CmdDef {
        opcode: 0x3B,
        sa: None,
        name: "WRITE BUFFER",
        len: 10,
        // Byte 1: MODE SPECIFIC (7-5), MODE (4-0); BUFFER ID; BUFFER OFFSET (3-5);
        // PARAMETER LIST LENGTH (6-8).
        usage: |_| vec![0x3B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, C],
        supported: sas_only,
        timeouts: |_| (30, 120),
        flags: CONFIG,
        handler: firmware::write_buffer,
    },
    CmdDef {
        opcode: 0x3C,
        sa: None,
        name: "READ BUFFER(10)",
        len: 10,
        // Byte 1: MODE (4-0); BUFFER ID; BUFFER OFFSET (3-5); ALLOCATION LENGTH (6-8).
        usage: |_| vec![0x3C, 0x1F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, C],
        supported: sas_only,
        timeouts: quick,
        flags: QUERY,
        handler: firmware::read_buffer,
    },
    CmdDef {
        opcode: 0x41,
        sa: None,
        name: "WRITE SAME(10)",
        len: 10,
        usage: |p| {
            vec![
                0x41,
                write_same_byte1(p),
                0xFF,
                0xFF,
                0xFF,
                0xFF,
                0,
                0xFF,
                0xFF,
                C,
            ]
        },
        supported: sas_only,
        timeouts: io_timeouts,
        flags: MEDIUM,
        handler: write_same::write_same,
    },
    CmdDef {
        opcode: 0x42,
        sa: None,
        name: "UNMAP",
        len: 10,
        usage: |_| vec![0x42, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, C],
        supported: has_unmap,
        timeouts: io_timeouts,
        flags: MEDIUM,
        handler: rw::unmap,
    },
    CmdDef {
        opcode: 0x48,
        sa: Some(0x01),
        name: "SANITIZE (OVERWRITE)",
        len: 10,
        usage: |_| vec![0x48, 0xA1, 0, 0, 0, 0, 0, 0xFF, 0xFF, C],
        supported: has_overwrite,
        timeouts: sanitize::timeouts_overwrite,
        flags: LONG_OP,
        handler: sanitize::sanitize,
    },
    CmdDef {
        opcode: 0x48,
        sa: Some(0x02),
        name: "SANITIZE (BLOCK ERASE)",
        len: 10,
        usage: |_| vec![0x48, 0xA2, 0, 0, 0, 0, 0, 0xFF, 0xFF, C],
        supported: has_block_erase,
        timeouts: sanitize::timeouts_block_erase,
        flags: LONG_OP,
        handler: sanitize::sanitize,
    },
    CmdDef {
        opcode: 0x48,
        sa: Some(0x03),
        name: "SANITIZE (CRYPTOGRAPHIC ERASE)",
        len: 10,
        usage: |_| vec![0x48, 0xA3, 0, 0, 0, 0, 0, 0xFF, 0xFF, C],
        supported: has_crypto_erase,
        timeouts: sanitize::timeouts_crypto_erase,
        flags: LONG_OP,
        handler: sanitize::sanitize,
    },
    CmdDef {
        opcode: 0x48,
        sa: Some(0x1F),
        name: "SANITIZE (EXIT FAILURE MODE)",
        len: 10,
        usage: |_| vec![0x48, 0xBF, 0, 0, 0, 0, 0, 0xFF, 0xFF, C],
        supported: has_sanitize,
        timeouts: quick,
        flags: LONG_OP,
        handler: sanitize::sanitize,
    },
    CmdDef {
        opcode: 0x4C,
        sa: None,
        name: "LOG SELECT",
        len: 10,
        usage: |_| vec![0x4C, 0x03, 0xFF, 0xFF, 0, 0, 0, 0xFF, 0xFF, C],
        supported: always,
        timeouts: quick,
        flags: CONFIG,
        handler: log::log_select,
    },
    CmdDef {
        opcode: 0x4D,
        sa: None,
        name: "LOG SENSE",
        len: 10,
        usage: |_| vec![0x4D, 0x01, 0xFF, 0xFF, 0, 0xFF, 0xFF, 0xFF, 0xFF, C],
        supported: always,
        timeouts: quick,
        flags: QUERY,
        handler: log::log_sense,
    },
    CmdDef {
        opcode: 0x55,
        sa: None,
        name: "MODE SELECT(10)",
        len: 10,
        usage: |_| vec![0x55, 0x11, 0, 0, 0, 0, 0, 0xFF, 0xFF, C],
        supported: always,
        timeouts: quick,
        flags: CONFIG,
        handler: mode::mode_select,
    },
    CmdDef {
        opcode: 0x5A,
        sa: None,
        name: "MODE SENSE(10)",
        len: 10,
        usage: |_| vec![0x5A, 0x18, 0xFF, 0xFF, 0, 0, 0, 0xFF, 0xFF, C],
        supported: always,
        timeouts: quick,
        flags: QUERY,
        handler: mode::mode_sense,
    },
    CmdDef {
        opcode: 0x5E,
        sa: Some(0x00),
        name: "PERSISTENT RESERVE IN (READ KEYS)",
        len: 10,
        usage: |_| vec![0x5E, 0x00, 0, 0, 0, 0, 0, 0xFF, 0xFF, C],
        supported: sas_only,
        timeouts: quick,
        flags: QUERY,
        handler: pr::pr_in,
    },
    CmdDef {
        opcode: 0x5E,
        sa: Some(0x01),
        name: "PERSISTENT RESERVE IN (READ RESERVATION)",
        len: 10,
        usage: |_| vec![0x5E, 0x01, 0, 0, 0, 0, 0, 0xFF, 0xFF, C],
        supported: sas_only,
        timeouts: quick,
        flags: QUERY,
        handler: pr::pr_in,
    },
    CmdDef {
        opcode: 0x5E,
        sa: Some(0x02),
        name: "PERSISTENT RESERVE IN (REPORT CAPABILITIES)",
        len: 10,
        usage: |_| vec![0x5E, 0x02, 0, 0, 0, 0, 0, 0xFF, 0xFF, C],
        supported: sas_only,
        timeouts: quick,
        flags: QUERY,
        handler: pr::pr_in,
    },
    CmdDef {
        opcode: 0x5E,
        sa: Some(0x03),
        name: "PERSISTENT RESERVE IN (READ FULL STATUS)",
        len: 10,
        usage: |_| vec![0x5E, 0x03, 0, 0, 0, 0, 0, 0xFF, 0xFF, C],
        supported: sas_only,
        timeouts: quick,
        flags: QUERY,
        handler: pr::pr_in,
    },
    CmdDef {
        opcode: 0x5F,
        sa: Some(0x00),
        name: "PERSISTENT RESERVE OUT (REGISTER)",
        len: 10,
        usage: |_| vec![0x5F, 0x00, 0xFF, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, C],
        supported: sas_only,
        timeouts: quick,
        flags: CONFIG,
        handler: pr::pr_out,
    },
    CmdDef {
        opcode: 0x5F,
        sa: Some(0x01),
        name: "PERSISTENT RESERVE OUT (RESERVE)",
        len: 10,
        usage: |_| vec![0x5F, 0x01, 0xFF, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, C],
        supported: sas_only,
        timeouts: quick,
        flags: CONFIG,
        handler: pr::pr_out,
    },
    CmdDef {
        opcode: 0x5F,
        sa: Some(0x02),
        name: "PERSISTENT RESERVE OUT (RELEASE)",
        len: 10,
        usage: |_| vec![0x5F, 0x02, 0xFF, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, C],
        supported: sas_only,
        timeouts: quick,
        flags: CONFIG,
        handler: pr::pr_out,
    },
    CmdDef {
        opcode: 0x5F,
        sa: Some(0x03),
        name: "PERSISTENT RESERVE OUT (CLEAR)",
        len: 10,
        usage: |_| vec![0x5F, 0x03, 0xFF, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, C],
        supported: sas_only,
        timeouts: quick,
        flags: CONFIG,
        handler: pr::pr_out,
    },
    CmdDef {
        opcode: 0x5F,
        sa: Some(0x04),
        name: "PERSISTENT RESERVE OUT (PREEMPT)",
        len: 10,
        usage: |_| vec![0x5F, 0x04, 0xFF, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, C],
        supported: sas_only,
        timeouts: quick,
        flags: CONFIG,
        handler: pr::pr_out,
    },
    CmdDef {
        opcode: 0x5F,
        sa: Some(0x05),
        name: "PERSISTENT RESERVE OUT (PREEMPT AND ABORT)",
        len: 10,
        usage: |_| vec![0x5F, 0x05, 0xFF, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, C],
        supported: sas_only,
        timeouts: quick,
        flags: CONFIG,
        handler: pr::pr_out,
    },
    CmdDef {
        opcode: 0x5F,
        sa: Some(0x06),
        name: "PERSISTENT RESERVE OUT (REGISTER AND IGNORE EXISTING KEY)",
        len: 10,
        usage: |_| vec![0x5F, 0x06, 0xFF, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, C],
        supported: sas_only,
        timeouts: quick,
        flags: CONFIG,
        handler: pr::pr_out,
    },
    CmdDef {
        opcode: VARIABLE_LENGTH,
        sa: Some(0x09),
        name: "READ(32)",
        len: 32,
        usage: |p| usage32(0x09, rw_byte1(p)),
        supported: has_type2,
        timeouts: io_timeouts,
        flags: MEDIUM,
        handler: rw::read,
    },
    CmdDef {
        opcode: VARIABLE_LENGTH,
        sa: Some(0x0A),
        name: "VERIFY(32)",
        len: 32,
        usage: |p| usage32(0x0A, verify_byte1(p)),
        supported: has_type2,
        timeouts: io_timeouts,
        flags: MEDIUM,
        handler: verify::verify,
    },
    CmdDef {
        opcode: VARIABLE_LENGTH,
        sa: Some(0x0B),
        name: "WRITE(32)",
        len: 32,
        usage: |p| usage32(0x0B, rw_byte1(p)),
        supported: has_type2,
        timeouts: io_timeouts,
        flags: MEDIUM,
        handler: rw::write,
    },
    CmdDef {
        opcode: VARIABLE_LENGTH,
        sa: Some(0x0D),
        name: "WRITE SAME(32)",
        len: 32,
        // SBC-4 5.52: byte 10 WRPROTECT, ANCHOR (not supported), UNMAP, NDOB (bit 0).
        usage: |p| usage32(0x0D, write_same_byte1(p) | 0x01),
        supported: has_type2,
        timeouts: io_timeouts,
        flags: MEDIUM,
        handler: write_same::write_same,
    },
    CmdDef {
        opcode: 0x85,
        sa: None,
        name: "ATA PASS-THROUGH(16)",
        len: 16,
        usage: |_| {
            let mut u = vec![0xFF; 16];
            u[0] = 0x85;
            u[15] = C;
            u
        },
        supported: sata,
        timeouts: ata::timeouts,
        flags: ATA_PT,
        handler: ata::ata_pass_through,
    },
    CmdDef {
        opcode: 0x88,
        sa: None,
        name: "READ(16)",
        len: 16,
        usage: |p| {
            let mut u = vec![0xFF; 16];
            u[0] = 0x88;
            u[1] = rw_byte1(p);
            u[14] = 0;
            u[15] = C;
            u
        },
        supported: always,
        timeouts: io_timeouts,
        flags: MEDIUM,
        handler: rw::read,
    },
    CmdDef {
        opcode: 0x8A,
        sa: None,
        name: "WRITE(16)",
        len: 16,
        usage: |p| {
            let mut u = vec![0xFF; 16];
            u[0] = 0x8A;
            u[1] = rw_byte1(p);
            u[14] = 0;
            u[15] = C;
            u
        },
        supported: always,
        timeouts: io_timeouts,
        flags: MEDIUM,
        handler: rw::write,
    },
    CmdDef {
        opcode: 0x8F,
        sa: None,
        name: "VERIFY(16)",
        len: 16,
        usage: |p| {
            let mut u = vec![0xFF; 16];
            u[0] = 0x8F;
            u[1] = verify_byte1(p);
            u[14] = 0;
            u[15] = C;
            u
        },
        supported: always,
        timeouts: io_timeouts,
        flags: MEDIUM,
        handler: verify::verify,
    },
    CmdDef {
        opcode: 0x91,
        sa: None,
        name: "SYNCHRONIZE CACHE(16)",
        len: 16,
        usage: |_| {
            let mut u = vec![0xFF; 16];
            u[0] = 0x91;
            u[1] = 0x02;
            u[14] = 0;
            u[15] = C;
            u
        },
        supported: always,
        timeouts: io_timeouts,
        flags: MEDIUM,
        handler: rw::synchronize_cache,
    },
    CmdDef {
        opcode: 0x93,
        sa: None,
        name: "WRITE SAME(16)",
        len: 16,
        usage: |p| {
            let mut u = vec![0xFF; 16];
            u[0] = 0x93;
            u[1] = write_same_byte1(p) | 0x01; // NDOB
            u[14] = 0;
            u[15] = C;
            u
        },
        supported: sas_only,
        timeouts: io_timeouts,
        flags: MEDIUM,
        handler: write_same::write_same,
    },
    CmdDef {
        opcode: 0x9E,
        sa: Some(0x10),
        name: "READ CAPACITY(16)",
        len: 16,
        usage: |_| {
            let mut u = vec![0xFF; 16];
            u[0] = 0x9E;
            u[1] = 0x10;
            u[14] = 0x01;
            u[15] = C;
            u
        },
        supported: always,
        timeouts: quick,
        flags: QUERY_MEDIUM,
        handler: capacity::read_capacity16,
    },
    CmdDef {
        opcode: 0x9E,
        sa: Some(0x12),
        name: "GET LBA STATUS(16)",
        len: 16,
        usage: |_| {
            let mut u = vec![0xFF; 16];
            u[0] = 0x9E;
            u[1] = 0x12;
            u[14] = 0;
            u[15] = C;
            u
        },
        supported: has_unmap,
        timeouts: quick,
        flags: QUERY_MEDIUM,
        handler: capacity::get_lba_status,
    },
    CmdDef {
        opcode: 0xA0,
        sa: None,
        name: "REPORT LUNS",
        len: 12,
        usage: |_| vec![0xA0, 0, 0xFF, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, C],
        supported: always,
        timeouts: quick,
        flags: EXEMPT,
        handler: misc::report_luns,
    },
    CmdDef {
        opcode: 0xA1,
        sa: None,
        name: "ATA PASS-THROUGH(12)",
        len: 12,
        usage: |_| {
            let mut u = vec![0xFF; 12];
            u[0] = 0xA1;
            u[10] = 0;
            u[11] = C;
            u
        },
        supported: sata,
        timeouts: ata::timeouts,
        flags: ATA_PT,
        handler: ata::ata_pass_through,
    },
    CmdDef {
        opcode: 0xA2,
        sa: None,
        name: "SECURITY PROTOCOL IN",
        len: 12,
        usage: |_| {
            vec![
                0xA2, 0xFF, 0xFF, 0xFF, 0x80, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, C,
            ]
        },
        supported: has_sed,
        timeouts: quick,
        flags: CONFIG,
        handler: misc::security_protocol_in,
    },
    CmdDef {
        opcode: 0xA3,
        sa: Some(0x0A),
        name: "REPORT TARGET PORT GROUPS",
        len: 12,
        usage: |_| vec![0xA3, 0xEA, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, C],
        supported: sas_only,
        timeouts: quick,
        flags: QUERY,
        handler: alua::report_target_port_groups,
    },
    CmdDef {
        opcode: 0xA3,
        sa: Some(0x0C),
        name: "REPORT SUPPORTED OPERATION CODES",
        len: 12,
        usage: |_| {
            vec![
                0xA3, 0x0C, 0x87, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0, C,
            ]
        },
        supported: sas_only,
        timeouts: quick,
        flags: QUERY,
        handler: misc::report_supported_operation_codes,
    },
    CmdDef {
        opcode: 0xB5,
        sa: None,
        name: "SECURITY PROTOCOL OUT",
        len: 12,
        usage: |_| {
            vec![
                0xB5, 0xFF, 0xFF, 0xFF, 0x80, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, C,
            ]
        },
        supported: has_sed,
        timeouts: quick,
        flags: CONFIG,
        handler: misc::security_protocol_out,
    },
    CmdDef {
        opcode: 0xB7,
        sa: None,
        name: "READ DEFECT DATA(12)",
        len: 12,
        usage: |_| {
            vec![
                0xB7, 0x1F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0, C,
            ]
        },
        supported: sas_only,
        timeouts: quick,
        flags: QUERY,
        handler: defect::read_defect_data12,
    },
];
