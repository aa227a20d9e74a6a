//! TCG inside the virtual drive.
pub mod tper;
