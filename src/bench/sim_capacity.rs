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
pub(crate) const READS: u64 = 1 << 16;
/// Fewest steady-state rounds (¼ capacity each: twice the capacity written first, as PTS WDPC).
pub(crate) const MIN_ROUNDS: u32 = 8;
/// Most steady-state rounds.
pub(crate) const MAX_ROUNDS: u32 = 25;

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
/// random read (`READS` commands once the writes have drained), then rounds of 4 KiB random
/// writes of ¼ capacity each until the PTS steady-state test holds over the last 5 (at least
/// `MIN_ROUNDS`, at most `MAX_ROUNDS`).
pub fn measure(profile: &str, capacity_gib: f64) -> Result<CapacityFigures, BenchError> {
    let address = format!("sim:{profile}?capacity_gib={capacity_gib}");
    let e = SimEngine::open(&address, true)?;
    let mut e = if prepare(e.device(), &address)? {
        SimEngine::from_device(e.device().port(1), &address, true)?
    } else {
        e
    };
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

/// Readies a drive for the measurement as an admin readies a drive pulled from a storage
/// array before benchmarking it (docs/sim.md, the `exarray` profile): a SED that arrives
/// locked is reverted with the PSID from its label (`sgctl tcg revert --psid-file`), and a
/// drive formatted for an array (520-byte blocks, T10 PI) is formatted to 512-byte blocks
/// without PI (`sgctl format --block-size 512 --pi 0`), through the same jobs and gate as
/// those commands (their audit records go to a private directory removed afterwards: the
/// drive exists only in this process).
/// Returns whether anything was done (the caller reads the capacity again).
fn prepare(dev: &crate::sim::SimDevice, address: &str) -> Result<bool, BenchError> {
    use crate::ops::jobs::{self, format::FormatJob, tcg::TcgRevertJob, JobEnv, JobOptions};
    use crate::ops::poll::PollConfig;
    use crate::transport::Transport;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    let open_err = |e: crate::Error| BenchError::Open(e);
    let mut h = dev.port(1);
    let locked = crate::cmd::tcg::Tper::open(&mut h)
        .ok()
        .and_then(|t| t.level0.locking())
        .is_some_and(|(_, locked, _)| locked);
    let cap = crate::ops::query::read_capacity16(&mut h).map_err(open_err)?;
    let reformat = locked || cap.block_len != 512 || cap.prot_en;
    if !reformat {
        return Ok(false);
    }
    let label = dev.info().label;
    let interrupted = Arc::new(AtomicBool::new(false));
    let clock = dev.clock();
    let open = |_: &str| -> crate::Result<(Box<dyn Transport>, PollConfig)> {
        let mut poll = PollConfig::real(Duration::from_secs(1), interrupted.clone());
        let c = clock.clone();
        poll.sleep = Arc::new(move |d: Duration| c.advance(d.max(Duration::from_secs(1))));
        Ok((Box::new(dev.port(1)), poll))
    };
    // The audit records go to a private directory of this process, removed afterwards.
    let dir = PrivateDir::new().map_err(|e| BenchError::Os(format!("audit log directory: {e}")))?;
    let opts = JobOptions {
        confirm: vec![label.serial.clone()],
        audit_log: Some(dir.0.join("audit.jsonl")),
        poll_interval: Duration::from_secs(1),
        ..JobOptions::default()
    };
    let run = |make: &dyn Fn() -> Box<dyn jobs::Job>| -> Result<(), BenchError> {
        let env = JobEnv {
            host: &crate::discover::DiscoverHost,
            open: &open,
            prompter: &mut crate::ops::gate::NoPrompter,
            interactive: false,
            interrupted: interrupted.clone(),
            progress: &jobs::NoProgress,
            advise: None,
        };
        let sum = jobs::run(env, &[address.to_string()], &opts, make).map_err(open_err)?;
        match sum.records.first() {
            Some(r) if r.exit_status == crate::exit::OK => Ok(()),
            r => Err(BenchError::Unsupported(format!(
                "{address}: preparing the drive ({}) failed: {}",
                r.map_or("", |r| r.job.as_str()),
                r.and_then(|r| r.message.clone()).unwrap_or_default()
            ))),
        }
    };
    if locked {
        let psid = label.psid.clone().ok_or_else(|| {
            BenchError::Unsupported(format!("{address}: locked, and no PSID on the label"))
        })?;
        run(&|| {
            Box::new(TcgRevertJob::new(crate::tcg::Pin::new(
                psid.as_bytes().to_vec(),
            )))
        })?;
    }
    run(&|| {
        FormatJob::boxed(crate::ops::format::FormatOptions {
            block_size: Some(512),
            protection: crate::scsi::format_unit::ProtectionType::Type0,
            pi_exponent: 0,
            capacity: crate::ops::format::CapacityRequest::Max,
            fast: false,
            recover: false,
            preset: None,
        })
    })?;
    Ok(true)
}

/// A directory only this process created (mode 0700), removed with what it holds on drop.
struct PrivateDir(std::path::PathBuf);

impl PrivateDir {
    fn new() -> std::io::Result<PrivateDir> {
        use std::os::unix::fs::DirBuilderExt;
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos();
        let p = std::env::temp_dir().join(format!(
            "sgctl-sim-capacity-{}-{nanos:x}",
            std::process::id()
        ));
        // Fails if the name exists: nothing is written through someone else's path.
        std::fs::DirBuilder::new().mode(0o700).create(&p)?;
        Ok(PrivateDir(p))
    }
}

impl Drop for PrivateDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
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
    /// The ex-array drive ships locked (a SED owned by its array) with 520-byte blocks and
    /// PI type 2: its fill used to be refused (DATA PROTECT, 74/71, logical unit access not
    /// authorized). It is measured as an admin would use it: PSID revert, then 512-byte
    /// blocks without PI.
    #[test]
    fn an_ex_array_drive_is_reverted_and_formatted_before_it_is_measured() {
        let f = measure("exarray", 0.125).unwrap();
        assert_eq!(f.capacity_bytes, 128 << 20, "{f:?}");
        assert!(
            f.steady && f.read_iops > 20_000.0 && f.ss_write_iops > 5_000.0,
            "{f:?}"
        );
        // A drive that needs nothing is measured as it is.
        let d = crate::sim::open("px02smf080?capacity_gib=0.0625&clock=virtual").unwrap();
        assert!(!prepare(&d, "sim:px02smf080").unwrap());
    }

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
