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
use crate::sim::media::{profiles, Ftl, UNIT_BYTES};
use crate::sim::profile::Profile;

/// Largest FTL built, bytes of user capacity.
pub(crate) const MEDIA_MAX_BYTES: u64 = 1 << 30;
/// Smallest FTL built.
pub(crate) const MEDIA_MIN_BYTES: u64 = 64 << 20;
/// Service time when no media model could be built, ns.
pub(crate) const FALLBACK_NS: u64 = 50_000;

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
pub(crate) struct Medium {
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

    /// Folds a request onto the FTL's LBA range. The fold moves a request by a whole number
    /// of 4 KiB mapping units, so a request keeps its offset inside its unit: an aligned 4 KiB
    /// I/O of a large drive is an aligned 4 KiB I/O of the FTL, not a misaligned one that
    /// spans two units (a read of two pages, a read-modify-write) — which made a drive larger
    /// than the FTL several times slower than a small one.
    fn fold(f: &Ftl, lba: u64, blocks: u64) -> (u64, u32) {
        let count = f.lba_count().max(1);
        let n = blocks.min(count);
        if lba.saturating_add(n) <= count {
            return (lba, n as u32);
        }
        // LBAs per period that keeps the byte offset inside a unit: m × block length is a
        // multiple of 4 KiB (8 LBAs of 512 bytes, 512 of 520, 1 of 4096).
        let bl = u64::from(f.block_len().max(1));
        let m = UNIT_BYTES / gcd(UNIT_BYTES, bl);
        let period = count / m * m;
        if period == 0 {
            return (lba % (count - n + 1), n as u32);
        }
        let mut l = lba % period;
        if l + n > count {
            // Straddles the end: move back by whole periods of m LBAs.
            let over = (l + n - count).div_ceil(m) * m;
            l = l.saturating_sub(over).min(count - n);
        }
        (l, n as u32)
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
    pub(crate) fn read(
        &mut self,
        p: &Profile,
        d: &mut Drive,
        lba: u64,
        blocks: u64,
        now: u64,
    ) -> u64 {
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
    pub(crate) fn write(
        &mut self,
        p: &Profile,
        d: &mut Drive,
        lba: u64,
        blocks: u64,
        now: u64,
    ) -> u64 {
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
    pub(crate) fn trim(
        &mut self,
        p: &Profile,
        d: &mut Drive,
        lba: u64,
        blocks: u64,
        now: u64,
    ) -> u64 {
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
    pub(crate) fn apply(&mut self, p: &Profile, d: &mut Drive) {
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
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A drive larger than the FTL folds its LBAs onto it by whole 4 KiB units: an aligned
    /// 4 KiB request stays aligned (the old fold, LBA modulo `count − n + 1`, moved every
    /// request beyond the FTL's capacity off its unit boundary, so each 4 KiB read touched two
    /// pages and each 4 KiB write was a read-modify-write of two units).
    #[test]
    fn fold_keeps_requests_inside_their_units() {
        let mut f = profiles::by_name("px02smf080")
            .unwrap()
            .build(MEDIA_MIN_BYTES)
            .unwrap();
        for (bl, blocks) in [(512u32, 8u64), (512, 256), (520, 8), (4096, 1), (4096, 32)] {
            f.set_block_len(bl).unwrap();
            let count = f.lba_count();
            let m = UNIT_BYTES / gcd(UNIT_BYTES, u64::from(bl));
            let mut x = 0x9e37_79b9_7f4a_7c15u64;
            for i in 0..5000u64 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                // LBAs up to 64 times the FTL's capacity, aligned as the host aligns them.
                let lba =
                    (x >> 20) % (64 * count) / blocks * blocks + if i % 7 == 0 { 1 } else { 0 };
                let (l, n) = Medium::fold(&f, lba, blocks);
                assert_eq!(u64::from(n), blocks);
                assert!(l + blocks <= count, "{lba} -> {l} (+{blocks}) past {count}");
                assert_eq!(l % m, lba % m, "block length {bl}: LBA {lba} folded to {l}");
            }
        }
        // Requests inside the FTL's range are not moved; one as large as the FTL starts at 0.
        f.set_block_len(512).unwrap();
        assert_eq!(Medium::fold(&f, 1000, 8), (1000, 8));
        let count = f.lba_count();
        assert_eq!(Medium::fold(&f, 5 * count, count), (0, count as u32));
    }
}
