//! Virtual drive (simtarget owns this file; placeholder until it lands).
//! [`media`]: NAND, FTL, garbage collection, timing (media helper).
pub mod media;
pub mod tcg;
