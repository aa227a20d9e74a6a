//! SCSI commands: one command per file, each a pure CDB builder plus response parser.

// --- the builder shape every CDB below follows ---
pub mod cdb;

// --- foundation: identification and query commands ---
pub mod inquiry;
pub mod mode;
pub mod opcodes;
pub mod persistent_reserve;
pub mod read_capacity;
pub mod report_luns;
pub mod request_sense;
pub mod rsoc;
pub mod tur;
pub mod vpd;

// --- format and sanitize ---
pub mod format_unit;
pub mod read_defect;
pub mod read_write;
pub mod reassign;
pub mod sanitize;
pub mod write_buffer;

// --- TCG ---
pub mod security_protocol;

// --- enclosure services (the pages: crate::ses) ---
pub mod diagnostic;

// --- health and logs ---
pub mod log_select;
pub mod log_sense;
pub mod send_diagnostic;
pub mod start_stop;

// --- SATA behind SAT ---
pub mod ata_pass_through;

/// Whether `cdb` may change the drive's state, by the opcode table ([`opcodes`]) and, for ATA
/// PASS-THROUGH, the ATA command inside (`ata_pass_through::is_read_only`). Unknown
/// opcodes (and empty CDBs) may.
pub fn changes_state(cdb: &[u8]) -> bool {
    match opcodes::lookup(cdb).map(|o| o.changes) {
        Some(opcodes::Changes::No) => false,
        Some(opcodes::Changes::AtaInside) => !ata_pass_through::is_read_only(cdb),
        Some(opcodes::Changes::Yes) | None => true,
    }
}

#[cfg(test)]
mod tests {
    use super::changes_state;

    #[test]
    fn state_by_table_and_ata_command() {
        assert!(
            !changes_state(&[0x2f, 0x02]),
            "VERIFY compares, writes nothing"
        );
        assert!(changes_state(&[0x9f, 0x11]));
        assert!(
            changes_state(&[0xa3, 0x1f]),
            "unknown MAINTENANCE IN action"
        );
        assert!(changes_state(&[0xee]));
        assert!(changes_state(&[]));
        // ATA PASS-THROUGH(16): IDENTIFY DEVICE (PIO data-in) reads; SECURITY ERASE UNIT not.
        let mut identify = [0u8; 16];
        identify[0] = 0x85;
        identify[1] = 4 << 1;
        identify[2] = 0x0e;
        identify[14] = 0xec;
        assert!(!changes_state(&identify));
        identify[14] = 0xf4;
        assert!(changes_state(&identify));
    }
}
