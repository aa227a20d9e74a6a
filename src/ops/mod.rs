//! High-level jobs: safety gate → plan → execute with progress → verify → report.

// --- format and sanitize ---
pub(crate) mod fleet;
pub mod format;
pub mod format_support;
pub mod jobs;
pub mod led;
pub mod led_ses;
pub mod logs;
pub mod mode_set;
pub(crate) mod par;
pub mod poll;
pub mod query;
pub mod record;
pub mod record_fields;
// --- persistent reservations ---
pub mod reservations;
// --- the safety gate (clear, Cleared, confirmation, dry run, the one-job-per-drive lock) ---
pub mod gate;
pub mod sanitize;
pub mod selftest;
pub mod session;
pub mod tcg_erase;
pub mod validate;

// --- health and logs ---
pub mod health;

// --- signed records ---
pub mod audit;
pub mod closeout;
pub mod countersign;
pub mod manifest;
pub mod sign;
// --- SATA behind SAT ---
pub mod ata_sanitize;
