//! Media model of the virtual SSD: NAND geometry, a page-mapped FTL with greedy garbage
//! collection, wear, and a virtual-clock timing model (see docs/sim-media.md).
//!
//! # Contract (for the SCSI target model in `sim/src/sim/`)
//!
//! * Build a drive with [`profiles::by_name`]`(name)?.build(user_bytes)` (capacity scaled as the
//!   `sim:` options say) or `Ftl::new``(geometry, timing, op_fraction)`. Names:
//!   `px02smf080`, `px03snf080`, `mk4001grzb`, `hk4e`, `exarray`, `exarraylock`.
//! * LBAs are in units of `Ftl::block_len` (default 512; call `Ftl::set_block_len` after
//!   FORMAT UNIT changes it). The FTL maps 4 KiB units; `Ftl::lba_count` is the capacity.
//!   Out-of-range requests return [`MediaError::OutOfRange`] (map it to ILLEGAL REQUEST
//!   21/00 LBA OUT OF RANGE); nothing here panics on host input.
//! * Time is a virtual clock in nanoseconds (`u64`). Every call takes the submission time
//!   `now` and returns a [`Completion`] whose `done_at >= now` is when the command completes,
//!   given everything queued before it (controller, host link, channels, dies, write buffer,
//!   garbage collection). Calls must be made in non-decreasing `now` order; a command's
//!   latency is `done_at - now`. A real-time front end sleeps until `done_at`.
//!   - `Ftl::submit_write``(lba, blocks, now)`: WRITE(10/16). Completes when the data is in
//!     the power-loss-protected write buffer; may trigger garbage collection.
//!   - `Ftl::submit_read``(lba, blocks, now)`: READ(10/16).
//!   - `Ftl::trim``(lba, blocks, now)` / `Ftl::trim_all`: UNMAP (whole 4 KiB units only).
//!   - `Ftl::erase_all``(now)`: SANITIZE BLOCK ERASE (every block gains one erase; all data
//!     unmapped). Its `done_at` is the erase duration for IMMED progress reporting.
//!   - `Ftl::is_mapped``(lba)`: whether the LBA holds written data (LBPRZ reads, GET LBA STATUS).
//! * The FTL keeps no user data: the target model stores the bytes; this model only decides
//!   where they live and how long it takes.
//! * `Ftl::stats` gives the counters for LOG SENSE: host bytes written/read (pages 0x02/0x03
//!   "total bytes processed"), NAND bytes written, write amplification, erase counts
//!   min/avg/max and [`Stats::percentage_used_endurance`] (page 0x11 parameter 0001; clamp to
//!   255 for the one-byte field). `Ftl::set_wear` pre-ages a drive (ex-array profile).
//! * `Ftl` is `Serialize`/`Deserialize`, so a state file can carry it.

pub mod bench;
pub(crate) mod ftl;
pub(crate) mod geometry;
pub mod profiles;

pub(crate) use ftl::Ftl;
pub use geometry::{Geometry, Timing, MIN_BLOCKS_PER_DIE, UNIT_BYTES};
pub use profiles::MediaProfile;

use serde::{Deserialize, Serialize};

/// When a submitted command completes, in virtual nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Completion {
    /// Completion time (ns on the caller's virtual clock).
    pub done_at: u64,
}

/// Errors of the media model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MediaError {
    /// The request runs past the last LBA.
    #[error("LBA range {lba}+{blocks} beyond capacity of {lba_count} blocks")]
    OutOfRange {
        /// First LBA of the request.
        lba: u64,
        /// Number of blocks requested.
        blocks: u32,
        /// Capacity in logical blocks.
        lba_count: u64,
    },
    /// Geometry, profile or capacity parameters that cannot work.
    #[error("bad media geometry: {0}")]
    BadGeometry(String),
    /// Garbage collection found nothing to reclaim (cannot happen with a valid geometry).
    #[error("no free flash blocks left")]
    NoSpace,
    /// No media profile of that name.
    #[error("unknown media profile {0:?}")]
    UnknownProfile(String),
}

/// Media statistics (cumulative since the drive was built).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// READ, WRITE and UNMAP commands served.
    pub commands: u64,
    /// Bytes the host wrote (WRITE commands, logical bytes).
    pub host_write_bytes: u64,
    /// Bytes the host read.
    pub host_read_bytes: u64,
    /// 4 KiB units the host wrote (partial units count whole).
    pub host_write_units: u64,
    /// Mapped 4 KiB units the host unmapped.
    pub host_trim_units: u64,
    /// Bytes programmed to NAND (host data + garbage-collection copies).
    pub nand_write_bytes: u64,
    /// Bytes read from NAND (host reads + garbage-collection reads).
    pub nand_read_bytes: u64,
    /// Bytes copied by garbage collection.
    pub gc_copy_bytes: u64,
    /// Block erases (garbage collection and sanitize).
    pub block_erases: u64,
    /// NAND units written / host units written (0 before the first write).
    pub write_amplification: f64,
    /// Fewest erases of any block.
    pub erase_count_min: u32,
    /// Mean erases per block.
    pub erase_count_avg: f64,
    /// Most erases of any block.
    pub erase_count_max: u32,
    /// Rated P/E cycles.
    pub pe_cycles: u32,
    /// Mean erase count as a percentage of the rating (may exceed 100).
    pub percentage_used_endurance: u32,
    /// Bytes currently mapped.
    pub mapped_bytes: u64,
    /// User capacity.
    pub user_bytes: u64,
    /// Raw flash capacity.
    pub raw_bytes: u64,
}

#[cfg(test)]
mod tests;
