//! High-level jobs: safety gate → plan → execute with progress → verify → report.

// --- format and sanitize (issue 7) ---
pub mod fleet;
pub mod format;
pub mod jobs;
pub mod logs;
#[cfg(test)]
pub(crate) mod mockdrive;
pub mod poll;
pub mod query;
pub mod record;
// --- persistent reservations (issue 17) ---
pub mod reservations;
pub mod safety;
pub mod sanitize;
pub mod tcg_erase;
pub mod validate;

// --- health and logs (issue 6) ---
pub mod health;

// --- signed records (issue 16) ---
pub mod audit_chain;
pub mod closeout;
pub mod sign;
// --- SATA behind SAT (issue 19) ---
pub mod ata_sanitize;

// --- one job per drive (issue 15) ---
pub mod lock;
