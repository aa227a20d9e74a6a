//! SCSI commands: one command per file, each a pure CDB builder plus response parser.

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
