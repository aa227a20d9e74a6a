//! Placeholder service times, used until the media model (src/sim/media/, "media" helper)
//! lands: a per-command cost from the datasheet IOPS plus the transfer at the sequential
//! rate. No FTL, no garbage collection, no steady state — do not benchmark with this.

use crate::sim::profile::Profile;

/// Service time of a command without media access, ns.
pub const COMMAND_NS: u64 = 20_000;

/// Service time of a read of `bytes`, ns.
pub fn read_ns(p: &Profile, bytes: u64) -> u64 {
    1_000_000_000 / u64::from(p.perf.rand_read_iops.max(1))
        + bytes.saturating_mul(1000) / u64::from(p.perf.seq_read_mbs.max(1))
}

/// Service time of a write of `bytes`, ns.
pub fn write_ns(p: &Profile, bytes: u64) -> u64 {
    1_000_000_000 / u64::from(p.perf.rand_write_iops.max(1))
        + bytes.saturating_mul(1000) / u64::from(p.perf.seq_write_mbs.max(1))
}

/// NAND bytes programmed for `bytes` of host writes (write amplification 1 here).
pub fn nand_bytes(bytes: u64) -> u64 {
    bytes
}
