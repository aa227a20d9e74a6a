//! The target's link to the media model ([`crate::sim::media`], the FTL): service
//! times of READ/WRITE/UNMAP, wear from FORMAT UNIT and SANITIZE, and the counters the log
//! pages report (NAND bytes written, average erase count → percentage used endurance).
//!
//! The FTL keeps an L2P table per 4 KiB unit, so it is built for at most [`MEDIA_MAX_BYTES`] of
//! user capacity (and at least [`MEDIA_MIN_BYTES`], the smallest geometry the profiles allow).
//! A larger drive *folds* its LBAs onto it (LBA modulo the FTL's capacity): timing and write
//! amplification stay those of a drive with that much flash, and wear is scaled by
//! FTL capacity / drive capacity so that erase counts per drive byte stay right. The FTL is
//! rebuilt on every open (pre-aged with the persisted average erase count) rather than saved:
//! its tables would dwarf the sparse state file.

use crate::sim::drive::Drive;
use crate::sim::media::{profiles, Ftl, Stats};
use crate::sim::profile::Profile;

/// Largest FTL built, bytes of user capacity.
pub const MEDIA_MAX_BYTES: u64 = 1 << 30;
/// Smallest FTL built.
pub const MEDIA_MIN_BYTES: u64 = 64 << 20;
/// Service time when no media model could be built, ns.
pub const FALLBACK_NS: u64 = 50_000;

/// Work the drive state asks the media model to do when a long operation completes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum MediaOp {
    /// Every block erased once (BLOCK ERASE, a full FORMAT, one OVERWRITE pass).
    EraseAll,
    /// Every mapping dropped (fast format).
    TrimAll,
}

/// The FTL of an open drive and the counters already accounted.
#[derive(Default)]
pub struct Medium {
    ftl: Option<Ftl>,
    tried: bool,
    last_nand: u64,
    /// The FTL's block-erase counter already turned into wear.
    last_erases: u64,
    /// Drive bytes per FTL byte is 1/scale: wear increments are multiplied by it.
    scale: f64,
}

impl Medium {
    fn ftl(&mut self, p: &Profile, d: &Drive) -> Option<&mut Ftl> {
        if !self.tried {
            self.tried = true;
            let drive_bytes = d.capacity_bytes.max(1);
            let bytes = drive_bytes.clamp(MEDIA_MIN_BYTES, MEDIA_MAX_BYTES);
            if let Ok(mp) = profiles::by_name(p.name) {
                if let Ok(mut f) = mp.build(bytes) {
                    f.set_wear(d.wear_pe.round().clamp(0.0, f64::from(u32::MAX)) as u32);
                    let _ = f.set_block_len(d.lb_len);
                    (self.last_nand, self.last_erases) = f.wear_tally();
                    self.scale = f.user_bytes() as f64 / drive_bytes as f64;
                    self.ftl = Some(f);
                }
            }
        }
        let f = self.ftl.as_mut()?;
        if f.block_len() != d.lb_len {
            let _ = f.set_block_len(d.lb_len);
        }
        Some(f)
    }

    /// Folds a request onto the FTL's LBA range.
    fn fold(f: &Ftl, lba: u64, blocks: u64) -> (u64, u32) {
        let count = f.lba_count().max(1);
        let n = blocks.min(count) as u32;
        let span = count - u64::from(n) + 1;
        let l = if lba + u64::from(n) <= count {
            lba
        } else {
            lba % span
        };
        (l, n)
    }

    /// Moves the FTL's new NAND writes and erases into the persisted drive counters.
    fn account(&mut self, d: &mut Drive) {
        let Some(f) = self.ftl.as_ref() else {
            return;
        };
        // O(1) per command: the FTL's counters, not its per-block statistics (walking every
        // block on every command cost ~200 µs per command in a debug build, the TCMU path's
        // bottleneck under emulation). One erase raises one block's count by one, so the
        // average erase count moves by erases / blocks.
        let (nand, erases) = f.wear_tally();
        let dn = nand.saturating_sub(self.last_nand);
        let de = erases.saturating_sub(self.last_erases) as f64 / f.erase_blocks().max(1) as f64;
        self.last_nand = nand;
        self.last_erases = erases;
        d.stats.nand_bytes_written = d
            .stats
            .nand_bytes_written
            .saturating_add((dn as f64 / self.scale.max(1e-12)) as u64);
        d.wear_pe += de * self.scale;
        d.pe_cycles = f.pe_cycles();
    }

    /// Read service time (ns) for `blocks` at `lba`, submitted at `now`.
    pub fn read(&mut self, p: &Profile, d: &mut Drive, lba: u64, blocks: u64, now: u64) -> u64 {
        let t = match self.ftl(p, d) {
            Some(f) => {
                let (l, n) = Self::fold(f, lba, blocks);
                f.submit_read(l, n, now)
                    .map(|c| c.done_at.saturating_sub(now))
                    .unwrap_or(FALLBACK_NS)
            }
            None => FALLBACK_NS,
        };
        self.account(d);
        t
    }

    /// Write service time (ns).
    pub fn write(&mut self, p: &Profile, d: &mut Drive, lba: u64, blocks: u64, now: u64) -> u64 {
        let t = match self.ftl(p, d) {
            Some(f) => {
                let (l, n) = Self::fold(f, lba, blocks);
                f.submit_write(l, n, now)
                    .map(|c| c.done_at.saturating_sub(now))
                    .unwrap_or(FALLBACK_NS)
            }
            None => FALLBACK_NS,
        };
        self.account(d);
        t
    }

    /// UNMAP service time (ns).
    pub fn trim(&mut self, p: &Profile, d: &mut Drive, lba: u64, blocks: u64, now: u64) -> u64 {
        let t = match self.ftl(p, d) {
            Some(f) => {
                let (l, n) = Self::fold(f, lba, blocks);
                f.trim(l, n, now)
                    .map(|c| c.done_at.saturating_sub(now))
                    .unwrap_or(FALLBACK_NS)
            }
            None => FALLBACK_NS,
        };
        self.account(d);
        t
    }

    /// Applies the media work of completed long operations.
    pub fn apply(&mut self, p: &Profile, d: &mut Drive) {
        let ops = std::mem::take(&mut d.media_ops);
        // The erases are the operation's own work: they start with it (a FORMAT UNIT or
        // SANITIZE is reported complete once its media work is done, so a drive that finished
        // one is not still erasing — and its first writes do not queue behind the erases).
        let now = d.media_ops_since_ns.min(d.now_ns);
        for op in ops {
            if let Some(f) = self.ftl(p, d) {
                match op {
                    MediaOp::EraseAll => {
                        f.erase_all(now);
                    }
                    MediaOp::TrimAll => {
                        f.trim_all(now);
                    }
                }
            }
            self.account(d);
        }
    }

    /// Media statistics of the FTL of this open drive, if built.
    pub fn stats(&mut self, p: &Profile, d: &Drive) -> Option<Stats> {
        self.ftl(p, d).map(|f| f.stats())
    }
}
