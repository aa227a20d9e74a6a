//! `sgctl bench run DEVICE`: one workload, like one fio job, on any engine.
//! Workloads that write pass the safety gate first (in-use refusal, `--confirm` naming the
//! drive, audit records).

use std::fmt::Write as _;
use std::io::IsTerminal as _;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::{Ctx, Report};
use sgctl::bench::engine::EngineKind;
use sgctl::bench::run::{RunEnv, RunOptions};
use sgctl::bench::stats::{Interval, RunResult};
use sgctl::bench::workload::{
    parse_size, BlockSplit, DataPattern, Distribution, Limit, RangeSpec, Rw, Workload,
};
use sgctl::discover::DiscoverHost;
use sgctl::ops::audit::AuditLog;
use sgctl::Error;

/// `sgctl bench`.
#[derive(Debug, clap::Args)]
pub(crate) struct BenchArgs {
    /// What to run.
    #[command(subcommand)]
    pub command: BenchCommand,
}

/// Subcommands of `sgctl bench`.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum BenchCommand {
    /// Run one workload (like one fio job) and report IOPS, MB/s, latency percentiles, the
    /// time series, CPU per I/O and errors.
    #[command(after_help = RUN_HELP)]
    Run(RunArgs),
    /// SNIA PTS tests (IOPS, TP, LAT, WSAT, HIR, XSR, ECW, DIRTH): purge, precondition,
    /// rounds to steady state, report directory.
    Pts(super::bench_suite::PtsArgs),
    /// The reviewers' tests: write cliff, QD sweep, profiles, over-provisioning.
    Review(super::bench_suite::ReviewArgs),
    /// Two or more reports side by side: key figures with differences, charts overlaid.
    #[command(after_help = COMPARE_HELP)]
    Compare(CompareArgs),
}

const COMPARE_HELP: &str = "\
Reads report.json of `bench run --report DIR`, `bench pts` or `bench review` (a report
directory or the file itself). All reports must be of one kind (run with run, pts with pts,
review with review) and of the report version this sgctl writes; anything else is refused
with exit 2. So are reports of different workloads (a run's rw, block sizes, QD, jobs and
mix; a suite's tests, TC × QD and ActiveRange): the refusal lists each setting that differs;
--allow-different compares them anyway and says so in the output. The first report is the
baseline: every other report's figures are shown with their difference to it, absolute and in
percent, and whether the difference is beyond the run-to-run noise the reports let sgctl
estimate (the 95 % intervals of the rounds of a PTS measurement window, batch means of a
run's intervals), within it, or unmarked where no interval is known. A percentile its I/O
count does not support (fewer than 10 I/Os beyond it) is marked as having insufficient samples.

OUTPUT: the difference table on stdout (--json: the same as a document, format
sgctl-bench-compare); --html FILE writes one self-contained HTML file with the reports'
charts overlaid (one series per report, named by drive and label) and the table;
--report DIR writes DIR/compare.json and DIR/compare.html.

EXAMPLES:
  # the over-provisioning experiment: before and after
  sgctl bench compare before/ after/ --label 'OP 0%' --label 'OP +20%' --html op.html
  # two drives of one model, same workload
  sgctl bench run sim:mk4001grzb --rw randread --qd 32 --report a
  sgctl bench run sim:mk4001grzb?serial=X2 --rw randread --qd 32 --report b
  sgctl bench compare a b --json
  # PTS reports: the exceedance charts of the 4K random write cell
  sgctl bench compare pts-a pts-b --workload 0/100-4k --html pts.html

EXIT STATUS: 0 done; 2 a report is missing, unreadable, of another version or kind, or of
another workload (without --allow-different).";

/// Arguments of `sgctl bench compare`.
#[derive(Debug, clap::Args)]
pub(crate) struct CompareArgs {
    /// Report directories (or their report.json files); the first is the baseline.
    #[arg(required = true, num_args = 2.., value_name = "REPORT")]
    pub reports: Vec<std::path::PathBuf>,
    /// Name of each report in tables and legends, in order [default: its directory's name].
    #[arg(long, value_name = "NAME")]
    pub label: Vec<String>,
    /// Write the comparison as one self-contained HTML file.
    #[arg(long, value_name = "FILE")]
    pub html: Option<std::path::PathBuf>,
    /// Write DIR/compare.json and DIR/compare.html.
    #[arg(long, value_name = "DIR")]
    pub report: Option<std::path::PathBuf>,
    /// Compare reports of different workloads (the differences are listed) instead of
    /// refusing them.
    #[arg(long)]
    pub allow_different: bool,
    /// The cell whose latency exceedance the suites' charts overlay, by its label
    /// (`0/100-4k`, `100/0-8k`, `tc1-qd1`, ...) [default: each test's tracking cell].
    #[arg(long, value_name = "LABEL")]
    pub workload: Option<String>,
}

const RUN_HELP: &str = "\
ENGINES:
  uring  io_uring with O_DIRECT on a block node or file: registered buffers and files,
         one io_uring_enter per I/O as fio (--submit-batch N batches them), batched
         reaping, one ring per job thread (--iopoll, --sqpoll)
  sg     SCSI READ/WRITE(16) (READ/WRITE(32) on PI type 2) through /dev/sgN's asynchronous
         write()/read() interface, any logical block length (520, 528, 4104, 4160, ...)
  sim    a sim: virtual drive on its virtual clock (an hour of drive time in seconds)
  auto   uring on block nodes with a power-of-two block length, sg otherwise, sim on sim:

SAFETY: reads need no confirmation. A workload that writes destroys data: it passes the
safety gate (refused if any path is mounted, swap, held or the boot disk; --confirm must
name the drive's serial or WWN — for a non-SCSI block device or a file its kernel name or
path — and an audit record is written before and after).

EXAMPLES:
  sgctl bench run sim:hk4e --rw randwrite --qd 32 --runtime 60 --confirm HK4E0001
  sgctl bench run /dev/sdb --rw randread --bs 4k --qd 32 --jobs 2 --runtime 30 --json
  sgctl bench run /dev/sg3 --engine sg --bs 4160 --rw randread --qd 16
  # the disk in slot 7 of an enclosure (`sgctl scan` lists enclosures and slots)
  sgctl bench run --enclosure 0x500605b0000272bf:7 --rw randread --runtime 30
  sgctl bench run sim:px02smf080 --rw randrw --mix 70 --bssplit 4k/67:8k/33 \\
      --distribution zoned:50/5:30/15:20/80 --range 50% --runtime 600 --confirm ...

INTERRUPTING: Ctrl-C stops submitting, reaps what is outstanding and reports the partial
results (and --report), with the audit record ended \"interrupted\"; exit 1. A second
Ctrl-C exits at once (130).

EXIT STATUS: 0 done; 1 interrupted (partial results reported); 2 bad option; 3 cannot
open; 4 the device failed mid-run (the sense data and partial results are reported); 5
--verify found a bad block; 6 refused by the safety gate; 7 not supported (engine, block
length, IOPOLL...).";

/// `--rw`: fio's `rw=` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum RwArg {
    /// Sequential reads.
    Read,
    /// Sequential writes.
    Write,
    /// Random reads.
    #[value(name = "randread")]
    RandRead,
    /// Random writes.
    #[value(name = "randwrite")]
    RandWrite,
    /// Random reads and writes, --mix percent reads.
    #[value(name = "randrw", alias = "rw")]
    RandRw,
}

impl From<RwArg> for Rw {
    fn from(a: RwArg) -> Rw {
        match a {
            RwArg::Read => Rw::Read,
            RwArg::Write => Rw::Write,
            RwArg::RandRead => Rw::RandRead,
            RwArg::RandWrite => Rw::RandWrite,
            RwArg::RandRw => Rw::RandRw,
        }
    }
}

/// `--engine` of `bench run`, `pts` and `review`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum EngineArg {
    /// uring on a block node or file with a power-of-two block length, sg otherwise, sim on
    /// sim:.
    Auto,
    /// io_uring with O_DIRECT.
    #[value(alias = "io_uring")]
    Uring,
    /// SCSI READ/WRITE through /dev/sgN's asynchronous interface.
    Sg,
    /// A sim: virtual drive on its virtual clock.
    Sim,
}

impl From<EngineArg> for EngineKind {
    fn from(a: EngineArg) -> EngineKind {
        match a {
            EngineArg::Auto => EngineKind::Auto,
            EngineArg::Uring => EngineKind::Uring,
            EngineArg::Sg => EngineKind::Sg,
            EngineArg::Sim => EngineKind::Sim,
        }
    }
}

/// `--pattern`: `random`, `zeros` (or `zero`) or `hex:BYTES`. The messages follow clap's
/// "invalid value 'P' for '--pattern <PATTERN>': ".
fn pattern_arg(p: &str) -> Result<DataPattern, String> {
    match p {
        "random" => Ok(DataPattern::Random),
        "zeros" | "zero" => Ok(DataPattern::Zeros),
        p => match p.strip_prefix("hex:") {
            Some(h) if !h.is_empty() && h.len() % 2 == 0 && h.is_ascii() => (0..h.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&h[i..i + 2], 16))
                .collect::<Result<Vec<u8>, _>>()
                .map(DataPattern::Bytes)
                .map_err(|_| "bad hex (hex:BYTES takes pairs of hex digits)".to_string()),
            _ => Err("expected random, zeros or hex:BYTES (pairs of hex digits)".to_string()),
        },
    }
}

/// `--distribution`: `uniform`, `zoned:IO%/RANGE%:...` or `zipf:THETA`.
fn distribution_arg(s: &str) -> Result<Distribution, String> {
    Distribution::parse(s)
}

/// Arguments of `sgctl bench run`.
#[derive(Debug, clap::Args)]
pub(crate) struct RunArgs {
    /// Device: /dev/sdX, /dev/sgN, a file (O_DIRECT), /dev/loopN, or sim:PROFILE[?opts].
    #[arg(required_unless_present = "enclosure")]
    pub device: Option<String>,
    /// Instead of DEVICE: the disk the kernel places in enclosure ID, slot SLOT (as `sgctl
    /// scan` shows them); refused when ID[:SLOTS] names no disk or more than one.
    #[arg(long, value_name = "ID[:SLOT]", conflicts_with = "device")]
    pub enclosure: Option<String>,
    /// Root for the sysfs lookup of --enclosure (tests use a fake tree).
    #[arg(long, default_value = "/", hide = true)]
    pub sysroot: std::path::PathBuf,
    /// Access pattern (fio's rw=; `rw` is taken for randrw).
    #[arg(long, value_enum, default_value = "randread")]
    pub rw: RwArg,
    /// Read percent for randrw (fio rwmixread).
    #[arg(long, value_name = "READ_PCT", default_value_t = 50)]
    pub mix: u8,
    /// Block size (4096, 4k, 520, 8320...).
    #[arg(long, value_name = "SIZE", conflicts_with = "bssplit")]
    pub bs: Option<String>,
    /// Weighted block sizes, fio style: 4k/67:8k/10:16k/23.
    #[arg(long, value_name = "SPLIT")]
    pub bssplit: Option<String>,
    /// Outstanding I/Os per job.
    #[arg(long, default_value_t = 1)]
    pub qd: u32,
    /// Job threads (total outstanding = jobs × qd).
    #[arg(long, default_value_t = 1)]
    pub jobs: u32,
    /// Measure for this long (10, 10s, 500ms, 2m, 1h) [default: 10s].
    #[arg(long, value_name = "DURATION", conflicts_with = "bytes")]
    pub runtime: Option<String>,
    /// Transfer this many bytes in total instead (1g, 512m...).
    #[arg(long, value_name = "SIZE")]
    pub bytes: Option<String>,
    /// Warm-up before measuring (not counted).
    #[arg(long, value_name = "DURATION", default_value = "0")]
    pub ramp: String,
    /// ActiveRange: percent of capacity (50%) or OFFSET:LEN in bytes (1g:10g) [default: all].
    #[arg(long)]
    pub range: Option<String>,
    /// Offset distribution: uniform, zoned:50/5:30/15:20/80 (IO%/RANGE%...), zipf:THETA.
    #[arg(long, default_value = "uniform", value_parser = distribution_arg)]
    pub distribution: Distribution,
    /// Offset alignment [default: the smallest block size].
    #[arg(long, value_name = "SIZE")]
    pub align: Option<String>,
    /// Every written block carries its LBA, a sequence number and a checksum; reads check
    /// them (exit 5 on a bad block).
    #[arg(long)]
    pub verify: bool,
    /// Time-series interval.
    #[arg(long, value_name = "DURATION", default_value = "1s")]
    pub log_interval: String,
    /// Engine (ENGINES below).
    #[arg(long, value_enum, default_value = "auto")]
    pub engine: EngineArg,
    /// Write data: random (incompressible, unique per write), zeros, or hex:DEADBEEF.
    #[arg(long, default_value = "random", value_parser = pattern_arg)]
    pub pattern: DataPattern,
    /// Random seed for offsets and data.
    #[arg(long, default_value_t = 0x5eed)]
    pub seed: u64,
    /// io_uring: poll for completions (needs driver poll queues; refused when absent).
    #[arg(long)]
    pub iopoll: bool,
    /// io_uring: a kernel thread polls the submission queue.
    #[arg(long)]
    pub sqpoll: bool,
    /// io_uring: submit up to N queued I/Os per io_uring_enter. 1 (the default, as fio's
    /// iodepth_batch_submit) gives each I/O a call of its own; a larger N makes fewer system
    /// calls. Which is faster depends on the stack: docs/bench-engine.md, "One I/O per submit"
    /// and "Batched submission again".
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub submit_batch: u32,
    /// Hold the CPUs' idle wake-up latency at most US microseconds for the run (a PM QoS
    /// request on /dev/cpu_dma_latency, root only; 0: idle CPUs poll instead of sleeping).
    /// At low queue depth, waking a CPU from a deep idle state (or a virtual CPU that halts)
    /// can be most of each I/O's latency; cyclictest holds 0, tuned's latency-performance 1.
    #[arg(long, value_name = "US")]
    pub cpu_latency: Option<u32>,
    /// Count I/O errors and keep going instead of stopping at the first.
    #[arg(long)]
    pub continue_on_error: bool,
    /// Progress as JSON Lines on stderr (one object per interval).
    #[arg(long)]
    pub progress_json: bool,
    /// Serial or WWN naming the drive (writing workloads; a file's path, a block device's
    /// kernel name). Without it sgctl asks on a terminal.
    #[arg(long = "confirm", value_name = "SERIAL|WWN")]
    pub confirm: Vec<String>,
    /// Audit log [default: $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl].
    #[arg(long, value_name = "FILE")]
    pub audit_log: Option<std::path::PathBuf>,
    /// Also write DIR/report.json (drive identity, host, engine, settings, write cache, the
    /// whole result with its time series and latency histogram; docs/bench-report.md) and
    /// DIR/report.html (charts: IOPS, MB/s and latency against time, latency histogram and
    /// exceedance, the percentile table). Compare runs with `sgctl bench compare`.
    #[arg(long, value_name = "DIR")]
    pub report: Option<std::path::PathBuf>,
}

/// Parses `10`, `10s`, `500ms`, `2m`, `1h`, `1.5s` (see [`super::num::duration`]).
pub(crate) fn parse_duration(s: &str) -> Result<Duration, String> {
    super::num::duration(s)
}

fn usage(msg: String) -> anyhow::Error {
    Error::InvalidArgument(msg).into()
}

/// Builds the workload from the arguments; the range stays unresolved (needs capacity).
pub(crate) fn workload_of(a: &RunArgs) -> Result<(Workload, Option<RangeSpec>), String> {
    let rw = Rw::from(a.rw);
    let bs = match (&a.bs, &a.bssplit) {
        (_, Some(s)) => BlockSplit::parse(s)?,
        (Some(b), None) => {
            let v = parse_size(b).map_err(|e| format!("--bs: {e}"))?;
            let v = u32::try_from(v).map_err(|_| "--bs too large".to_string())?;
            let b = BlockSplit::single(v);
            b.validate().map_err(|e| format!("--bs: {e}"))?;
            b
        }
        (None, None) => BlockSplit::single(4096),
    };
    let limit = match (&a.runtime, &a.bytes) {
        (_, Some(b)) => Limit::Bytes(parse_size(b).map_err(|e| format!("--bytes: {e}"))?),
        (Some(r), None) => {
            Limit::Runtime(parse_duration(r).map_err(|e| format!("--runtime: {e}"))?)
        }
        (None, None) => Limit::Runtime(Duration::from_secs(10)),
    };
    let pattern = a.pattern.clone();
    if a.mix > 100 {
        return Err("--mix must be in 0..=100".into());
    }
    let align = match &a.align {
        Some(s) => Some(
            u32::try_from(parse_size(s).map_err(|e| format!("--align: {e}"))?)
                .map_err(|_| "--align too large".to_string())?,
        ),
        None => None,
    };
    let w = Workload {
        rw,
        read_pct: a.mix,
        bs,
        qd: a.qd,
        jobs: a.jobs,
        limit,
        ramp: parse_duration(&a.ramp).map_err(|e| format!("--ramp: {e}"))?,
        range: None,
        distribution: a.distribution.clone(),
        align,
        verify: a.verify,
        log_interval: parse_duration(&a.log_interval)
            .map_err(|e| format!("--log-interval: {e}"))?,
        pattern,
        seed: a.seed,
        iopoll: a.iopoll,
        sqpoll: a.sqpoll,
        submit_batch: a.submit_batch,
        continue_on_error: a.continue_on_error,
    };
    if w.submit_batch == 0 || w.submit_batch > 4096 {
        return Err("--submit-batch must be in 1..=4096".into());
    }
    if w.qd == 0 || w.qd > 4096 {
        return Err("--qd must be in 1..=4096".into());
    }
    if w.jobs == 0 || w.jobs > 256 {
        return Err("--jobs must be in 1..=256".into());
    }
    let range = a.range.as_deref().map(RangeSpec::parse).transpose()?;
    Ok((w, range))
}

#[derive(Serialize)]
struct RunData<'a> {
    workload: &'a Workload,
    #[serde(flatten)]
    result: &'a RunResult,
    job_id: Option<String>,
    audit_log: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    report_dir: Option<String>,
}

/// Runs `sgctl bench`.
pub(crate) fn run(ctx: &mut Ctx, args: BenchArgs) -> anyhow::Result<Report> {
    match args.command {
        BenchCommand::Run(a) => run_one(ctx, a),
        BenchCommand::Pts(a) => super::bench_suite::run_pts(ctx, a),
        BenchCommand::Review(a) => super::bench_suite::run_review(ctx, a),
        BenchCommand::Compare(a) => run_compare(a),
    }
}

fn run_compare(a: CompareArgs) -> anyhow::Result<Report> {
    use sgctl::bench::report::{compare, load, run::write_atomic};
    if a.label.len() > a.reports.len() {
        return Err(usage(format!(
            "{} --label for {} reports",
            a.label.len(),
            a.reports.len()
        )));
    }
    let reports = a
        .reports
        .iter()
        .map(|p| load::load(p).map_err(|e| usage(e.to_string())))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let opts = compare::Options {
        allow_different: a.allow_different,
        workload: a.workload.clone(),
    };
    let cmp = compare::compare_with(&reports, &a.label, &opts).map_err(|e| usage(e.0))?;
    let mut text = cmp.text();
    if a.html.is_some() || a.report.is_some() {
        let html = compare::html(&cmp, &reports);
        if let Some(f) = &a.html {
            write_atomic(f, html.as_bytes())?;
            let _ = writeln!(text, "\nHTML: {}", f.display());
        }
        if let Some(dir) = &a.report {
            std::fs::create_dir_all(dir)
                .map_err(|e| Error::io(format!("creating {}", dir.display()), e))?;
            let json = serde_json::to_vec(&cmp)?;
            write_atomic(&dir.join("compare.json"), &json)?;
            write_atomic(&dir.join("compare.html"), html.as_bytes())?;
            let _ = writeln!(
                text,
                "\nreport: {}/compare.json and compare.html",
                dir.display()
            );
        }
    }
    Ok(Report::new(None, &cmp, text))
}

fn run_one(ctx: &mut Ctx, a: RunArgs) -> anyhow::Result<Report> {
    let (workload, range) = workload_of(&a).map_err(usage)?;
    let engine = EngineKind::from(a.engine);
    let device =
        super::bench_suite::device_of(a.device.as_deref(), a.enclosure.as_deref(), &a.sysroot)?;
    let opts = RunOptions {
        device,
        workload,
        range,
        engine,
        cpu_latency: a.cpu_latency,
        confirm: a.confirm.clone(),
        report: a.report.clone(),
    };
    let mut prog = Progress::new(&opts.workload, a.progress_json);
    let env = RunEnv {
        host: &DiscoverHost,
        prompter: &mut super::prompt::TtyPrompter::default(),
        interactive: !ctx.json && std::io::stdin().is_terminal(),
        audit: AuditLog::resolve(a.audit_log.as_deref()),
        progress: &mut |i| prog.show(i),
    };
    let out = sgctl::bench::run::run(&opts, env);
    prog.done();
    let out = out.map_err(Error::from)?;
    let dev = &opts.device;
    // The summary printed is computed from the report document, by the function `bench
    // compare` and the suites use (sgctl::bench::report::summary).
    let mut text =
        sgctl::bench::report::summary::text(&serde_json::to_value(&out.report).unwrap_or_default());
    let report_dir = opts.report.as_ref().map(|d| d.display().to_string());
    if let Some(dir) = &report_dir {
        let _ = writeln!(text, "\nreport: {dir}/report.json and report.html");
    }
    let data = RunData {
        workload: &out.workload,
        result: &out.result,
        job_id: out.job_id.clone(),
        audit_log: out.audit_log.as_ref().map(|p| p.display().to_string()),
        report_dir,
    };
    let mut report = Report::new(Some(dev), &data, text);
    if let Some(e) = &out.failed {
        ctx.warn(format!(
            "the device failed mid-run; partial results above: {e}"
        ));
        report = report.with_exit(sgctl::exit::COMMAND);
    } else if out.interrupted {
        ctx.warn("interrupted (Ctrl-C): the results above are partial; the audit record says so");
        report = report.with_exit(sgctl::exit::OTHER);
    } else if out.verify_failed() {
        ctx.warn("--verify found bad blocks (listed above)");
        report = report.with_exit(sgctl::exit::CHECK_FAILED);
    }
    Ok(report)
}

/// The live line on stderr (a terminal) and/or JSON Lines (`--progress-json`).
struct Progress {
    tty: bool,
    json: bool,
    last: Option<Instant>,
    total_s: Option<f64>,
    shown: bool,
}

impl Progress {
    fn new(w: &Workload, json: bool) -> Progress {
        Progress {
            tty: std::io::stderr().is_terminal(),
            json,
            last: None,
            total_s: match w.limit {
                Limit::Runtime(d) => Some(d.as_secs_f64()),
                Limit::Bytes(_) => None,
            },
            shown: false,
        }
    }

    fn show(&mut self, i: &Interval) {
        if self.json {
            let v = serde_json::json!({ "event": "interval", "interval": i, "eta_s":
                self.total_s.map(|t| (t - i.t_s).max(0.0)) });
            super::output::err_json(&v);
        }
        if self.tty {
            // The simulator produces intervals faster than anyone can read them.
            if self
                .last
                .is_some_and(|l| l.elapsed() < Duration::from_millis(200))
            {
                return;
            }
            self.last = Some(Instant::now());
            let eta = self
                .total_s
                .map(|t| format!(", ETA {:.0}s", (t - i.t_s).max(0.0)))
                .unwrap_or_default();
            super::output::err_raw(&format!(
                "\r\x1b[Ksgctl: bench: {:.0}s: {:.0} IOPS, {:.1} MB/s, lat mean {:.1} us, p99 {:.1} us{eta}",
                i.t_s, i.iops, i.mbps, i.mean_lat_us, i.p99_lat_us
            ));
            self.shown = true;
        }
    }

    fn done(&mut self) {
        if self.shown {
            super::output::err_raw("\n");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum as _;
    use sgctl::bench::engine::BenchError;

    #[test]
    fn the_choices_are_the_names_the_bench_layer_reports() {
        // `--rw randread` is reported as "randread", `--engine uring` as "uring": the clap
        // names and the library's names are one list.
        for a in RwArg::value_variants() {
            let name = a.to_possible_value().map(|v| v.get_name().to_string());
            assert_eq!(name.as_deref(), Some(Rw::from(*a).name()));
        }
        for a in EngineArg::value_variants() {
            let name = a.to_possible_value().map(|v| v.get_name().to_string());
            assert_eq!(name.as_deref(), Some(EngineKind::from(*a).name()));
        }
        // fio's and the old spellings still parse.
        assert_eq!(RwArg::from_str("rw", false), Ok(RwArg::RandRw));
        assert_eq!(EngineArg::from_str("io_uring", false), Ok(EngineArg::Uring));
    }

    #[test]
    fn a_pattern_is_parsed_at_the_edge_without_panicking_on_multibyte_text() {
        assert_eq!(pattern_arg("random"), Ok(DataPattern::Random));
        assert_eq!(pattern_arg("zero"), Ok(DataPattern::Zeros));
        assert_eq!(
            pattern_arg("hex:DEADbeef"),
            Ok(DataPattern::Bytes(vec![0xde, 0xad, 0xbe, 0xef]))
        );
        // 4 bytes, an even count, but 'é' straddles the first pair: this used to panic.
        for bad in ["hex:aéa", "hex:éé", "hex:", "hex:abc", "hex:zz", "ones"] {
            assert!(pattern_arg(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn an_os_error_reads_once_and_exits_1() {
        let e = anyhow::Error::from(Error::from(BenchError::Os(
            "io_uring_enter: Timer expired (os error 62)".into(),
        )));
        assert_eq!(
            crate::cli::advice::chain(&e),
            "io_uring_enter: Timer expired (os error 62)"
        );
        let code = e.downcast_ref::<Error>().map(Error::exit_code);
        assert_eq!(code, Some(sgctl::exit::OTHER));
    }
}
