//! The figures of a capacity-scaled virtual drive, measured through its `sim:` address (the
//! SCSI target, its LBA folding onto the media model, the bench engine's closed loop), so that
//! a drive simulated at `capacity_gib=N` can be checked against the same profile at another
//! size: 4 KiB random read IOPS after a sequential fill, and steady-state 4 KiB random write
//! IOPS after the SNIA PTS steady-state test. docs/sim-media.md ("Capacity independence")
//! shows them per profile and size; `cargo run --release -p xtask -- sim-capacity` prints them.
//!
//! Every step is on the drive's virtual clock (an hour of drive time takes what the model needs
//! to compute it) and deterministic for the seed. The writes carry one constant byte, so the
//! drive's block store stays one run however much is written: memory does not grow with the
//! capacity measured.

use super::engine::{BenchError, Engine};
use super::sim::SimEngine;
use super::workload::{BlockSplit, DataPattern, Limit, Rw, Workload};
use crate::sim::media::bench::steady_state_window;
use std::time::Duration;

/// Queue depth of every step (the datasheets' and reviews' 4 KiB random figures are QD32).
pub const QD: u32 = 32;
/// Random 4 KiB reads measured.
pub const READS: u64 = 1 << 16;
/// Fewest steady-state rounds (¼ capacity each: twice the capacity written first, as PTS WDPC).
pub const MIN_ROUNDS: u32 = 8;
/// Most steady-state rounds.
pub const MAX_ROUNDS: u32 = 25;

/// What one profile at one capacity measured.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct CapacityFigures {
    /// The `sim:` address measured.
    pub address: String,
    /// User capacity, bytes.
    pub capacity_bytes: u64,
    /// 4 KiB random read IOPS at QD32 after a sequential 128 KiB fill of the whole drive.
    pub read_iops: f64,
    /// Mean 4 KiB random write IOPS at QD32 over the last 5 rounds.
    pub ss_write_iops: f64,
    /// Rounds of ¼ capacity run.
    pub rounds: u32,
    /// Whether the PTS steady-state criterion held over the last 5 rounds.
    pub steady: bool,
}

fn base(rw: Rw, bs: u32, limit: Limit) -> Workload {
    Workload {
        rw,
        read_pct: if rw == Rw::RandRead || rw == Rw::Read {
            100
        } else {
            0
        },
        bs: BlockSplit::single(bs),
        qd: QD,
        limit,
        // One interval per run: the time series is not looked at.
        log_interval: Duration::from_secs(1 << 20),
        pattern: DataPattern::Bytes(vec![0xa5]),
        seed: 0x5eed,
        ..Workload::default()
    }
}

/// Measures `sim:PROFILE?capacity_gib=GIB`: sequential 128 KiB fill of the whole drive, 4 KiB
/// random read ([`READS`] commands once the writes have drained), then rounds of 4 KiB random
/// writes of ¼ capacity each until the PTS steady-state test holds over the last 5 (at least
/// [`MIN_ROUNDS`], at most [`MAX_ROUNDS`]).
pub fn measure(profile: &str, capacity_gib: f64) -> Result<CapacityFigures, BenchError> {
    let address = format!("sim:{profile}?capacity_gib={capacity_gib}");
    let mut e = SimEngine::open(&address, true)?;
    let cap = e.capacity_bytes();
    let drain = |e: &SimEngine| e.device().clock().advance(Duration::from_secs(1));
    // 4 KiB and 128 KiB on 512-byte blocks; 8 and 256 blocks of another length (a 520-byte
    // drive: 4160 and 133,120 bytes).
    let bl = e.block_len().max(1);
    let (small, large) = (8 * bl, 256 * bl);
    let fill = base(
        Rw::Write,
        large,
        Limit::Bytes(cap / u64::from(large) * u64::from(large)),
    );
    e.run(&fill, &mut |_| {})?;
    drain(&e);
    let read = e.run(
        &base(Rw::RandRead, small, Limit::Bytes(READS * u64::from(small))),
        &mut |_| {},
    )?;
    drain(&e);
    let per_round = (cap / 4 / u64::from(small)).max(1) * u64::from(small);
    let mut iops = Vec::new();
    let (mut ss, mut steady) = (0.0, false);
    for round in 1..=MAX_ROUNDS {
        let mut w = base(Rw::RandWrite, small, Limit::Bytes(per_round));
        w.seed = 0x5eed + u64::from(round);
        iops.push(e.run(&w, &mut |_| {})?.iops);
        if round < MIN_ROUNDS {
            continue;
        }
        if let Some((ok, mean, _, _)) = steady_state_window(&iops) {
            (ss, steady) = (mean, ok);
            if ok {
                break;
            }
        }
    }
    Ok(CapacityFigures {
        address,
        capacity_bytes: cap,
        read_iops: read.iops,
        ss_write_iops: ss,
        rounds: iops.len() as u32,
        steady,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The figures of a drive simulated at 1.5 GiB (larger than the media model's FTL, so its
    /// LBAs fold onto it) are those at 0.5 GiB within ±10 %, for the Toshiba eMLC and SLC
    /// profiles (docs/sim-media.md has every profile from 1 to 64 GiB, from
    /// `cargo run --release -p xtask -- sim-capacity`). The old fold moved 4 KiB requests off
    /// their unit boundaries: px02smf080 at 4 GiB read 37k and wrote 19.6k IOPS against
    /// 116k / 30k at 1 GiB.
    #[test]
    fn figures_do_not_depend_on_the_simulated_capacity() {
        for p in ["px02smf080", "mk4001grzb"] {
            let a = measure(p, 0.5).unwrap();
            let b = measure(p, 1.5).unwrap();
            assert!(a.steady && b.steady, "{a:?} {b:?}");
            for (what, x, y) in [
                ("4K random read", a.read_iops, b.read_iops),
                (
                    "steady-state 4K random write",
                    a.ss_write_iops,
                    b.ss_write_iops,
                ),
            ] {
                assert!(
                    (y / x - 1.0).abs() <= 0.10,
                    "{p} {what}: {x:.0} IOPS at 0.5 GiB, {y:.0} at 1.5 GiB"
                );
            }
        }
    }
}
