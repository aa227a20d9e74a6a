//! High-level jobs: safety gate → plan → execute with progress → verify → report.

// --- format and sanitize (issue 7) ---
pub mod safety;
