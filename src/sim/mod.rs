//! Virtual drive (simtarget owns this file; placeholder until it lands).
pub mod tcg;
