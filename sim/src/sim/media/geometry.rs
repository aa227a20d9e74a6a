//! NAND geometry and timing parameters of a simulated drive.

use serde::{Deserialize, Serialize};

use super::MediaError;

/// The FTL's mapping unit: 4 KiB, the indirection granularity of enterprise SSDs of this era.
pub const UNIT_BYTES: u64 = 4096;

/// Every die keeps at least this many blocks when a drive is scaled down, so that the share of
/// open and reserved blocks (a few per die) stays small and write amplification does not depend
/// on the simulated capacity.
pub const MIN_BLOCKS_PER_DIE: u32 = 128;

/// Garbage collection keeps at least this many erased blocks per die for itself: it runs before
/// a host write would take the die's free-block count below this.
pub(crate) const GC_FREE_LOW: u32 = 2;

/// Fewest pages per block a scaled-down geometry may use.
pub(crate) const MIN_PAGES_PER_BLOCK: u32 = 8;

/// Physical layout of the NAND array.
///
/// A *block* here is a multi-plane block (one erase block in every plane of a die, erased and
/// programmed together); a *program unit* is one page in every plane of a die. Dies are the
/// independent units of parallelism; each channel is a bus shared by its dies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Geometry {
    /// Flash channels (buses) between controller and NAND.
    pub channels: u32,
    /// Dies (NAND targets/LUNs) on each channel.
    pub dies_per_channel: u32,
    /// Planes per die (programmed together as one multi-plane page).
    pub planes_per_die: u32,
    /// Pages per block in this (possibly scaled-down) geometry.
    pub pages_per_block: u32,
    /// Pages per block of the real part; the block erase time in [`Timing`] is for this size and
    /// is scaled in proportion when `pages_per_block` is smaller.
    pub nominal_pages_per_block: u32,
    /// Bytes in one page of one plane (a multiple of [`UNIT_BYTES`]).
    pub page_bytes: u32,
    /// Multi-plane blocks per die: the capacity knob.
    pub blocks_per_die: u32,
    /// Rated program/erase cycles per block (endurance).
    pub pe_cycles: u32,
    /// Bits stored per cell (1 SLC, 2 MLC): the pages of one word line sense with different
    /// numbers of read references, so their read times differ (`Geometry::read_ns`).
    #[serde(default = "mlc")]
    pub bits_per_cell: u8,
}

fn mlc() -> u8 {
    2
}

impl Geometry {
    /// Array read (sense) time of physical page `page` (pages of a block are numbered in
    /// program order), for a nominal `t_read` that is the mean over a block's pages.
    ///
    /// A word line of an `n`-bit cell holds `n` pages; reading the k-th of them senses the cell
    /// against 2^k read references (Gray coding: an MLC lower page needs one reference, the upper
    /// page two; Cai et al., "Error Characterization, Mitigation, and Recovery in Flash-Memory-
    /// Based Solid-State Drives", Proc. IEEE 105(9), 2017, §II). The time is a fixed part (bit-line
    /// precharge, transfer to the page register: a quarter of `t_read`) plus one step per
    /// reference, scaled so the mean over the pages is `t_read`: an MLC lower page reads in
    /// 0.75 × `t_read` and an upper page in 1.25 ×; SLC pages all in `t_read`.
    pub(crate) fn read_ns(&self, t_read: u64, page: u32) -> u64 {
        let n = u32::from(self.bits_per_cell.clamp(1, 4));
        if n == 1 {
            return t_read;
        }
        let refs = 1u64 << (page % n);
        let mean_refs = ((1u64 << n) - 1) as f64 / f64::from(n);
        let fixed = t_read as f64 / 4.0;
        let step = (t_read as f64 - fixed) / mean_refs;
        (fixed + step * refs as f64).round() as u64
    }

    /// Number of dies.
    pub(crate) fn dies(&self) -> u32 {
        self.channels * self.dies_per_channel
    }

    /// Mapping units in one program unit (a page in every plane of a die).
    pub(crate) fn units_per_program(&self) -> u32 {
        (self.page_bytes / UNIT_BYTES as u32) * self.planes_per_die
    }

    /// Mapping units in one block.
    pub(crate) fn units_per_block(&self) -> u32 {
        self.units_per_program() * self.pages_per_block
    }

    /// Total blocks.
    pub fn blocks(&self) -> u32 {
        self.dies() * self.blocks_per_die
    }

    /// Raw capacity in mapping units (user capacity + over-provisioning).
    pub(crate) fn raw_units(&self) -> u64 {
        self.blocks() as u64 * self.units_per_block() as u64
    }

    /// Raw capacity in bytes.
    pub(crate) fn raw_bytes(&self) -> u64 {
        self.raw_units() * UNIT_BYTES
    }

    /// Checks that the geometry is usable.
    pub fn validate(&self) -> Result<(), MediaError> {
        let bad = |m: &str| Err(MediaError::BadGeometry(m.to_string()));
        if self.channels == 0 || self.dies_per_channel == 0 || self.planes_per_die == 0 {
            return bad("channels, dies per channel and planes must be non-zero");
        }
        if self.page_bytes == 0 || u64::from(self.page_bytes) % UNIT_BYTES != 0 {
            return bad("page size must be a non-zero multiple of 4096");
        }
        if self.pages_per_block == 0 || self.nominal_pages_per_block == 0 {
            return bad("pages per block must be non-zero");
        }
        if self.blocks_per_die < 8 {
            return bad("need at least 8 blocks per die");
        }
        if !(1..=4).contains(&self.bits_per_cell) {
            return bad("bits per cell must be 1 to 4");
        }
        if self.pe_cycles == 0 {
            return bad("endurance (P/E cycles) must be non-zero");
        }
        // Physical slots are addressed with u32 (u32::MAX means "none").
        if self.raw_units() >= u64::from(u32::MAX) {
            return bad("raw capacity too large for the simulator (> 16 TiB)");
        }
        Ok(())
    }

    /// This geometry resized so that it holds `user_units` mapping units plus `op_fraction`
    /// spare (raw = user × (1 + op)). Channels, dies, planes, page size and per-page timing are
    /// kept; only the block count changes. When that would leave fewer than
    /// [`MIN_BLOCKS_PER_DIE`] blocks per die, blocks are made smaller (fewer pages; the erase
    /// time scales with them) so that a small simulated drive behaves like the full-size one.
    pub(crate) fn for_user_units(
        &self,
        user_units: u64,
        op_fraction: f64,
    ) -> Result<Geometry, MediaError> {
        if !(op_fraction.is_finite() && op_fraction > 0.0) {
            return Err(MediaError::BadGeometry(format!(
                "over-provisioning fraction must be > 0, got {op_fraction}"
            )));
        }
        let mut g = *self;
        g.nominal_pages_per_block = self.nominal_pages_per_block.max(1);
        let raw_wanted = (user_units as f64 * (1.0 + op_fraction)).ceil() as u64;
        let dies = u64::from(g.dies());
        let per_die = raw_wanted.div_ceil(dies.max(1));
        let upp = u64::from(g.units_per_program().max(1));
        // Pages per block such that the die has at least MIN_BLOCKS_PER_DIE blocks.
        let pages_per_die = per_die.div_ceil(upp);
        let max_ppb = (pages_per_die / u64::from(MIN_BLOCKS_PER_DIE)).max(1);
        let ppb = u64::from(g.nominal_pages_per_block)
            .min(max_ppb)
            .max(u64::from(MIN_PAGES_PER_BLOCK));
        g.pages_per_block = ppb as u32;
        let upb = ppb * upp;
        // Tiny drives: make room for the open block and the GC reserve on every die.
        let user_per_die = user_units.div_ceil(dies.max(1));
        let min_blocks = user_per_die.div_ceil(upb) + u64::from(GC_FREE_LOW) + 2;
        g.blocks_per_die = u32::try_from(per_die.div_ceil(upb).max(min_blocks))
            .map_err(|_| MediaError::BadGeometry("too many blocks".into()))?;
        g.validate()?;
        Ok(g)
    }
}

/// Service times and rates of a simulated drive. All times in nanoseconds, rates in bytes/s.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timing {
    /// Page read (array to page register), tR.
    pub t_read_ns: u64,
    /// Page program (multi-plane), tPROG.
    pub t_prog_ns: u64,
    /// Block erase for a block of `nominal_pages_per_block` pages, tBERS.
    pub t_erase_ns: u64,
    /// Bus rate of one flash channel.
    pub channel_bytes_per_s: u64,
    /// Host link payload rate (one SAS/SATA port).
    pub link_bytes_per_s: u64,
    /// Controller (firmware) occupancy per READ command: limits small-block read IOPS.
    pub cmd_read_ns: u64,
    /// Controller occupancy per WRITE command.
    pub cmd_write_ns: u64,
    /// Fixed latency added to every command (host interface, firmware pipeline) that does not
    /// occupy a shared resource: it sets queue-depth-1 latency, not throughput.
    pub cmd_latency_ns: u64,
    /// Power-loss-protected write buffer; writes complete once their data is in it.
    pub write_buffer_bytes: u64,
    /// Controller (firmware) occupancy per 4 KiB unit copied by garbage collection: the copy
    /// passes the controller's ECC engine (decode, correct, re-encode; copyback inside the die
    /// would carry bit errors forward) and the firmware remaps the unit. Shares the controller
    /// with host commands, so in steady state GC slows the host even where the dies keep up.
    #[serde(default)]
    pub gc_copy_ns: u64,
    /// Controller occupancy to retire the old copy of an overwritten 4 KiB unit: look up the
    /// old physical address, clear it in its block's valid-page bitmap, move the block in the
    /// GC victim index and journal the change for power-loss recovery. Only overwrites pay it
    /// (a fresh drive's writes hit unmapped units), so it is a steady-state cost per host write
    /// that does not depend on over-provisioning.
    #[serde(default)]
    pub overwrite_ns: u64,
}

impl Timing {
    /// Nanoseconds to move `bytes` at `rate` bytes/s (at least 1 ns for non-empty transfers).
    pub(crate) fn xfer_ns(bytes: u64, rate: u64) -> u64 {
        if bytes == 0 || rate == 0 {
            return 0;
        }
        ((u128::from(bytes) * 1_000_000_000u128).div_ceil(u128::from(rate)) as u64).max(1)
    }
}
