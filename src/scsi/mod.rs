//! SCSI commands: one command per file, each a pure CDB builder plus response parser.

// --- format and sanitize (issue 7) ---
pub mod format_unit;
pub mod read_write;
pub mod sanitize;

// --- TCG (issue 8) ---
pub mod security_protocol;
