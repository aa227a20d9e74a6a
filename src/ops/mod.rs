//! High-level jobs: safety gate → plan → execute with progress → verify → report.

// --- format and sanitize ---
pub mod fleet;
pub mod format;
pub mod format_support;
pub mod jobs;
pub mod logs;
#[cfg(test)]
pub(crate) mod mockdrive;
pub mod poll;
pub mod query;
pub mod record;
// --- persistent reservations ---
pub mod reservations;
pub mod safety;
pub mod sanitize;
pub mod tcg_erase;

// --- health and logs ---
pub mod health;

// --- signed records ---
pub mod audit_chain;
pub mod sign;
// --- SATA behind SAT ---
pub mod ata_sanitize;

// --- one job per drive ---
pub mod lock;
