//! `sgctl sim bench`: measures the media model of virtual drives on the virtual clock —
//! fresh-out-of-box versus steady state versus extra over-provisioning — beside the datasheet
//! and review figures. A benchmark of the model, not of the host.

use std::fmt::Write as _;

use anyhow::Context as _;
use serde::Serialize;

use super::{Ctx, Report};
use sgctl::sim::media::bench::{bench_profile, BenchConfig, ProfileBench};
use sgctl::sim::media::profiles::{self, MediaProfile, PROFILES};

/// Arguments of `sgctl sim bench`.
#[derive(Debug, clap::Args)]
pub(crate) struct BenchArgs {
    /// Profiles to measure (default: all).
    pub profiles: Vec<String>,
    /// Extra over-provisioning for the third measurement, in percent of user capacity.
    #[arg(long, default_value_t = 20.0, value_parser = super::num::percent)]
    pub op_extra: f64,
    /// Simulated user capacity per drive in GiB (a scaled-down drive; the model's behaviour does
    /// not depend on it).
    #[arg(long, default_value_t = 8.0, value_parser = super::num::gib)]
    pub capacity_gib: f64,
    /// Queue depth (outstanding commands).
    #[arg(long, default_value_t = 32)]
    pub qd: u32,
    /// Random seed; results are deterministic for a seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Most steady-state rounds (¼ capacity each).
    #[arg(long, default_value_t = 25)]
    pub max_rounds: u32,
}

#[derive(Serialize)]
struct Row<'a> {
    #[serde(flatten)]
    bench: &'a ProfileBench,
    description: &'a str,
    datasheet_read_iops: Option<u32>,
    datasheet_write_iops: Option<u32>,
    datasheet_seq_read_mb_s: Option<u32>,
    datasheet_seq_write_mb_s: Option<u32>,
    review: &'a str,
}

/// Runs `sgctl sim bench`.
pub(crate) fn run(ctx: &mut Ctx, args: BenchArgs) -> anyhow::Result<Report> {
    if !(args.capacity_gib.is_finite() && args.capacity_gib > 0.0 && args.capacity_gib <= 256.0) {
        anyhow::bail!(sgctl::Error::InvalidArgument(
            "--capacity-gib must be in (0, 256]".into()
        ));
    }
    if !(0.0..90.0).contains(&args.op_extra) {
        anyhow::bail!(sgctl::Error::InvalidArgument(
            "--op-extra must be in [0, 90) percent".into()
        ));
    }
    if args.qd == 0 || args.qd > 1024 {
        anyhow::bail!(sgctl::Error::InvalidArgument(
            "--qd must be in 1..=1024".into()
        ));
    }
    let selected: Vec<&MediaProfile> = if args.profiles.is_empty() {
        PROFILES.iter().collect()
    } else {
        args.profiles
            .iter()
            .map(|n| profiles::by_name(n).map_err(|e| sgctl::Error::InvalidArgument(e.to_string())))
            .collect::<Result<_, _>>()?
    };
    let cfg = BenchConfig {
        user_bytes: (args.capacity_gib * (1u64 << 30) as f64) as u64,
        queue_depth: args.qd,
        op_extra: args.op_extra / 100.0,
        seed: args.seed,
        max_rounds: args.max_rounds,
    };
    let mut results = Vec::new();
    for p in &selected {
        super::output::err_line(&format!("sgctl: sim bench: {} ...", p.name));
        let t = std::time::Instant::now();
        let cpu0 = cpu_seconds();
        let r = bench_profile(p, &cfg).with_context(|| format!("benchmarking {}", p.name))?;
        let wall = t.elapsed().as_secs_f64().max(1e-9);
        // The machine may be shared: rate per CPU second when /proc says, else per wall second.
        let (secs, what) = match (cpu0, cpu_seconds()) {
            (Some(a), Some(b)) if b > a => (b - a, "CPU"),
            _ => (wall, "wall"),
        };
        super::output::err_line(&format!(
            "sgctl: sim bench: {} done in {wall:.1} s wall, {secs:.1} s {what}: {:.2} M commands \
             and {:.2} M NAND 4 KiB programs simulated per {what} second",
            p.name,
            r.simulated_commands as f64 / secs / 1e6,
            r.simulated_nand_writes as f64 / secs / 1e6,
        ));
        results.push(r);
    }
    let text = render(&selected, &results, &cfg);
    let rows: Vec<Row> = selected
        .iter()
        .zip(&results)
        .map(|(p, b)| Row {
            bench: b,
            description: p.description,
            datasheet_read_iops: p.reference.read_iops,
            datasheet_write_iops: p.reference.write_iops,
            datasheet_seq_read_mb_s: p.reference.seq_read_mb_s,
            datasheet_seq_write_mb_s: p.reference.seq_write_mb_s,
            review: p.reference.review,
        })
        .collect();
    if !ctx.json && results.iter().any(|r| !r.steady_state.reached) {
        ctx.warn("steady state not reached for some profile (marked *): last 5 rounds reported");
    }
    Ok(Report::new(
        None,
        &serde_json::json!({ "profiles": rows }),
        text,
    ))
}

/// User + system CPU time of this process from /proc/self/stat (Linux; clock ticks at the
/// usual USER_HZ of 100).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = f.get(11)?.parse().ok()?;
    let stime: f64 = f.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

fn opt_k(v: Option<u32>) -> String {
    v.map_or_else(|| "-".to_string(), |v| k(f64::from(v)))
}

fn opt(v: Option<u32>) -> String {
    v.map_or_else(|| "-".to_string(), |v| v.to_string())
}

fn k(v: f64) -> String {
    format!("{:.1}k", v / 1000.0)
}

fn render(ps: &[&MediaProfile], rs: &[ProfileBench], cfg: &BenchConfig) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Media model, virtual clock: {:.1} GiB user capacity per drive, QD{}, 4 KiB random IOPS, \
         128 KiB sequential MB/s; +OP = {:.0} % of capacity left unused",
        cfg.user_bytes as f64 / (1u64 << 30) as f64,
        cfg.queue_depth,
        cfg.op_extra * 100.0
    );
    let _ = writeln!(
        s,
        "{:<12} {:>8} {:>8} {:>8} {:>8} {:>5} {:>8} {:>5} {:>6} {:>9} {:>7}",
        "profile",
        "rd FOB",
        "rd SS",
        "wr FOB",
        "wr SS",
        "WA",
        "wr SS+OP",
        "WA",
        "OP gain",
        "seq R/W",
        "SS lat"
    );
    for (p, r) in ps.iter().zip(rs) {
        let ss = &r.steady_state;
        let op = &r.steady_state_op;
        let star = |b: bool| if b { "" } else { "*" };
        let _ = writeln!(
            s,
            "{:<12} {:>8} {:>8} {:>8} {:>8} {:>5.2} {:>8} {:>5.2} {:>+6.0}% {:>4.0}/{:<4.0} {:>5.0}us",
            p.name,
            k(r.fob_random_read.iops),
            k(r.ss_random_read.iops),
            k(r.fob_random_write.iops),
            format!("{}{}", star(ss.reached), k(ss.average)),
            ss.write_amplification,
            format!("{}{}", star(op.reached), k(op.average)),
            op.write_amplification,
            (op.average / ss.average.max(1.0) - 1.0) * 100.0,
            r.seq_read.mb_per_s,
            r.seq_write.mb_per_s,
            ss.mean_latency_us,
        );
        let f = &p.reference;
        let _ = writeln!(
            s,
            "{:<12} {:>8} {:>8} {:>8} {:>8} {:>5} {:>8} {:>5} {:>7} {:>4}/{:<4}",
            "  datasheet",
            opt_k(f.read_iops),
            "",
            "",
            opt_k(f.write_iops),
            "",
            "",
            "",
            "",
            opt(f.seq_read_mb_s),
            opt(f.seq_write_mb_s),
        );
        let _ = writeln!(s, "  review: {}", f.review);
    }
    let _ = writeln!(
        s,
        "rd/wr = random read/write; SS = PTS steady state (5-round window, * = not reached); \
         WA = NAND/host writes over the window; SS lat = mean write latency at steady state"
    );
    s
}
