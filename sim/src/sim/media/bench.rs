//! SNIA-PTS-like measurement of a media profile on the virtual clock (used by `sgctl sim bench`).
//!
//! Per profile: PURGE (sanitize block erase) → fresh-out-of-box 4 KiB random write IOPS (a short
//! run on the empty drive) → PURGE → WIPC (128 KiB sequential writes, 2 × capacity; the first
//! pass gives the sequential write rate) → 128 KiB sequential read and 4 KiB random read →
//! WDPC: rounds of 4 KiB random writes (¼ capacity each) until the PTS steady-state criterion
//! holds over 5 rounds (≥ 2 × capacity written, at most 25 rounds) → random read again. Then the
//! same flash with `op_extra` of the capacity left unused (purged, preconditioned, WDPC).
//! Everything runs at the configured queue depth with a closed loop: a new command is submitted
//! when one completes. Results are virtual-clock figures of the model, not host measurements.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use serde::Serialize;

use super::geometry::UNIT_BYTES;
use super::{Ftl, MediaError, MediaProfile};

/// Benchmark settings.
#[derive(Debug, Clone, Copy)]
pub struct BenchConfig {
    /// Simulated user capacity in bytes.
    pub user_bytes: u64,
    /// Outstanding commands.
    pub queue_depth: u32,
    /// Extra over-provisioning as a fraction of user capacity (0.2 = +20 %).
    pub op_extra: f64,
    /// Random seed (results are deterministic for a seed).
    pub seed: u64,
    /// Most WDPC rounds.
    pub max_rounds: u32,
}

/// One closed-loop run.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Run {
    /// Commands completed.
    pub ops: u64,
    /// Bytes transferred.
    pub bytes: u64,
    /// Virtual duration in ns.
    pub duration_ns: u64,
    /// Commands per second.
    pub iops: f64,
    /// MB/s (10^6 bytes per second).
    pub mb_per_s: f64,
    /// Mean completion latency in µs.
    pub mean_latency_us: f64,
}

/// The SNIA PTS steady-state test over the last 5 rounds.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct SteadyState {
    /// Whether the criterion held (else the last 5 rounds are reported, "not SS").
    pub reached: bool,
    /// Rounds run.
    pub rounds: u32,
    /// Mean IOPS over the window.
    pub average: f64,
    /// max − min over the window, as a fraction of the average (limit 0.20).
    pub data_excursion: f64,
    /// |least-squares slope| × 4 as a fraction of the average (limit 0.10).
    pub slope_excursion: f64,
    /// Write amplification over the window.
    pub write_amplification: f64,
    /// Mean 4 KiB write latency over the window, µs.
    pub mean_latency_us: f64,
}

/// Results for one profile.
#[derive(Debug, Clone, Serialize)]
pub struct ProfileBench {
    /// Profile name.
    pub profile: String,
    /// Simulated user capacity in bytes.
    pub user_bytes: u64,
    /// Raw flash in bytes.
    pub raw_bytes: u64,
    /// Queue depth.
    pub queue_depth: u32,
    /// Fresh-out-of-box 4 KiB random write.
    pub fob_random_write: Run,
    /// 128 KiB sequential write, first WIPC pass.
    pub seq_write: Run,
    /// 128 KiB sequential read after WIPC.
    pub seq_read: Run,
    /// 4 KiB random read after WIPC.
    pub fob_random_read: Run,
    /// WDPC 4 KiB random write IOPS per round.
    pub round_iops: Vec<f64>,
    /// Steady state of 4 KiB random write.
    pub steady_state: SteadyState,
    /// 4 KiB random read at steady state.
    pub ss_random_read: Run,
    /// Extra over-provisioning used (fraction of user capacity).
    pub op_extra: f64,
    /// Steady state with the extra over-provisioning.
    pub steady_state_op: SteadyState,
    /// Erase-count spread and endurance used after the whole run (first drive).
    pub erase_count_min: u32,
    /// Mean erase count.
    pub erase_count_avg: f64,
    /// Largest erase count.
    pub erase_count_max: u32,
    /// Commands simulated (both drives), for the simulator's own speed.
    pub simulated_commands: u64,
    /// 4 KiB NAND programs simulated (host data + GC copies, both drives).
    pub simulated_nand_writes: u64,
}

/// SplitMix64: small, fast, deterministic.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
}

/// One command of a workload.
#[derive(Debug, Clone, Copy)]
pub struct Io {
    /// Write (true) or read.
    pub write: bool,
    /// First LBA (the bench uses 4096-byte blocks).
    pub lba: u64,
    /// Blocks.
    pub blocks: u32,
}

/// Runs `n` commands from `next` with `qd` outstanding, starting at `*now`; advances `*now`
/// to the last completion.
pub(crate) fn run_qd(
    ftl: &mut Ftl,
    now: &mut u64,
    qd: u32,
    n: u64,
    mut next: impl FnMut() -> Io,
) -> Result<Run, MediaError> {
    let start = *now;
    let mut heap: BinaryHeap<Reverse<u64>> = BinaryHeap::with_capacity(qd as usize + 1);
    let mut submitted = 0u64;
    let mut bytes = 0u64;
    let mut lat_sum = 0u128;
    let mut end = start;
    let bl = u64::from(ftl.block_len());
    let mut submit = |ftl: &mut Ftl, at: u64, heap: &mut BinaryHeap<Reverse<u64>>| {
        let io = next();
        let c = if io.write {
            ftl.submit_write(io.lba, io.blocks, at)?
        } else {
            ftl.submit_read(io.lba, io.blocks, at)?
        };
        bytes += u64::from(io.blocks) * bl;
        lat_sum += u128::from(c.done_at - at);
        heap.push(Reverse(c.done_at));
        Ok::<(), MediaError>(())
    };
    while submitted < n.min(u64::from(qd.max(1))) {
        submit(ftl, start, &mut heap)?;
        submitted += 1;
    }
    while let Some(Reverse(t)) = heap.pop() {
        end = end.max(t);
        if submitted < n {
            submit(ftl, t, &mut heap)?;
            submitted += 1;
        }
    }
    *now = end;
    let dur = (end - start).max(1);
    let secs = dur as f64 / 1e9;
    Ok(Run {
        ops: submitted,
        bytes,
        duration_ns: dur,
        iops: submitted as f64 / secs,
        mb_per_s: bytes as f64 / secs / 1e6,
        mean_latency_us: lat_sum as f64 / submitted.max(1) as f64 / 1e3,
    })
}

/// PTS steady-state test on the last 5 values: range ≤ 20 % and |slope| × 4 ≤ 10 % of the mean.
pub fn steady_state_window(values: &[f64]) -> Option<(bool, f64, f64, f64)> {
    if values.len() < 5 {
        return None;
    }
    let w = &values[values.len() - 5..];
    let mean = w.iter().sum::<f64>() / 5.0;
    if mean <= 0.0 {
        return Some((false, mean, f64::INFINITY, f64::INFINITY));
    }
    let (min, max) = w
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    // Least squares over x = 0..4 (x̄ = 2, Σ(x − x̄)² = 10).
    let slope = w
        .iter()
        .enumerate()
        .map(|(i, &v)| (i as f64 - 2.0) * (v - mean))
        .sum::<f64>()
        / 10.0;
    let data = (max - min) / mean;
    let slope_exc = (slope * 4.0).abs() / mean;
    Some((data <= 0.20 && slope_exc <= 0.10, mean, data, slope_exc))
}

fn random_4k(units: u64, write: bool, rng: &mut Rng) -> impl FnMut() -> Io + '_ {
    move || Io {
        write,
        lba: rng.below(units),
        blocks: 1,
    }
}

fn sequential(units: u64, write: bool, blocks: u32) -> impl FnMut() -> Io {
    let mut next = 0u64;
    move || {
        let b = u64::from(blocks).min(units - next % units) as u32;
        let io = Io {
            write,
            lba: next % units,
            blocks: b,
        };
        next = (next + u64::from(b)) % units;
        io
    }
}

/// Purge, then sequential 128 KiB fill of 2 × capacity (WIPC). Returns the first pass.
fn purge_and_fill(ftl: &mut Ftl, now: &mut u64, qd: u32) -> Result<Run, MediaError> {
    *now = ftl.erase_all(*now).done_at;
    let units = ftl.user_units();
    let per = 32u64; // 128 KiB
    let cmds = units.div_ceil(per);
    let first = run_qd(ftl, now, qd, cmds, sequential(units, true, per as u32))?;
    run_qd(ftl, now, qd, cmds, sequential(units, true, per as u32))?;
    Ok(first)
}

/// WDPC rounds of 4 KiB random writes until steady state.
fn wdpc(
    ftl: &mut Ftl,
    now: &mut u64,
    cfg: &BenchConfig,
    rng: &mut Rng,
) -> Result<(Vec<f64>, SteadyState), MediaError> {
    let units = ftl.user_units();
    let per_round = (units / 4).max(1);
    let min_rounds = 8; // 2 × capacity of random writes first
    let mut iops = Vec::new();
    let mut marks = Vec::new(); // (nand units, host units, latency) after each round
    let mut lats = Vec::new();
    let mut result = SteadyState::default();
    for round in 1..=cfg.max_rounds.max(min_rounds) {
        let before = ftl.stats();
        let r = run_qd(
            ftl,
            now,
            cfg.queue_depth,
            per_round,
            random_4k(units, true, rng),
        )?;
        let after = ftl.stats();
        iops.push(r.iops);
        lats.push(r.mean_latency_us);
        marks.push((
            after.nand_write_bytes - before.nand_write_bytes,
            after.host_write_units * UNIT_BYTES - before.host_write_units * UNIT_BYTES,
        ));
        if round < min_rounds {
            continue;
        }
        if let Some((ok, mean, data, slope)) = steady_state_window(&iops) {
            let w = &marks[marks.len() - 5..];
            let nand: u64 = w.iter().map(|m| m.0).sum();
            let host: u64 = w.iter().map(|m| m.1).sum();
            result = SteadyState {
                reached: ok,
                rounds: round,
                average: mean,
                data_excursion: data,
                slope_excursion: slope,
                write_amplification: nand as f64 / host.max(1) as f64,
                mean_latency_us: lats[lats.len() - 5..].iter().sum::<f64>() / 5.0,
            };
            if ok {
                break;
            }
        }
    }
    Ok((iops, result))
}

/// Measures one profile.
pub fn bench_profile(p: &MediaProfile, cfg: &BenchConfig) -> Result<ProfileBench, MediaError> {
    let qd = cfg.queue_depth.max(1);
    let mut rng = Rng::new(cfg.seed);
    let mut ftl = p.build(cfg.user_bytes)?;
    ftl.set_block_len(UNIT_BYTES as u32)?;
    let units = ftl.user_units();
    let mut now = ftl.erase_all(0).done_at;

    // FOB random write on the empty drive, inside the spare area (no garbage collection yet):
    // a warm-up that lets the write buffer fill, then a fixed-size window.
    let spare = ftl.geometry().raw_units() - units;
    let warm = (16 * p.timing.write_buffer_bytes / UNIT_BYTES).min(spare / 4);
    run_qd(
        &mut ftl,
        &mut now,
        qd,
        warm,
        random_4k(units, true, &mut rng),
    )?;
    let window = (spare / 2).min(1 << 18).max(qd.into());
    let fob_w = run_qd(
        &mut ftl,
        &mut now,
        qd,
        window,
        random_4k(units, true, &mut rng),
    )?;
    let seq_w = purge_and_fill(&mut ftl, &mut now, qd)?;
    // Reads start once the writes have drained, and are counted independently of capacity.
    now = ftl.idle_at();
    let seq_r = run_qd(
        &mut ftl,
        &mut now,
        qd,
        1 << 14,
        sequential(units, false, 32),
    )?;
    let reads = 1 << 17;
    now = ftl.idle_at();
    let fob_r = run_qd(
        &mut ftl,
        &mut now,
        qd,
        reads,
        random_4k(units, false, &mut rng),
    )?;
    let (round_iops, ss) = wdpc(&mut ftl, &mut now, cfg, &mut rng)?;
    now = ftl.idle_at();
    let ss_r = run_qd(
        &mut ftl,
        &mut now,
        qd,
        reads,
        random_4k(units, false, &mut rng),
    )?;
    let st = ftl.stats();
    drop(ftl);

    let mut op = p.build_with_extra_op(cfg.user_bytes, cfg.op_extra)?;
    op.set_block_len(UNIT_BYTES as u32)?;
    let mut now = 0;
    purge_and_fill(&mut op, &mut now, qd)?;
    let (_, ss_op) = wdpc(&mut op, &mut now, cfg, &mut rng)?;
    let st_op = op.stats();

    Ok(ProfileBench {
        profile: p.name.to_string(),
        user_bytes: units * UNIT_BYTES,
        raw_bytes: st.raw_bytes,
        queue_depth: qd,
        fob_random_write: fob_w,
        seq_write: seq_w,
        seq_read: seq_r,
        fob_random_read: fob_r,
        round_iops,
        steady_state: ss,
        ss_random_read: ss_r,
        op_extra: cfg.op_extra,
        steady_state_op: ss_op,
        erase_count_min: st.erase_count_min,
        erase_count_avg: st.erase_count_avg,
        erase_count_max: st.erase_count_max,
        simulated_commands: st.commands + st_op.commands,
        simulated_nand_writes: (st.nand_write_bytes + st_op.nand_write_bytes) / UNIT_BYTES,
    })
}
