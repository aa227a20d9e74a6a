//! `sgctl bench pts DEVICE --test ...` and `sgctl bench review DEVICE`: the SNIA
//! PTS tests and the reviewers' tests, with purge, write-cache handling, steady state,
//! progress, Ctrl-C safety and `--resume`. The session is [`sgctl::bench::suite::session`];
//! this file turns the flags into its options and words its outcome.

use super::{Ctx, Report};
use sgctl::bench::report::suite::Report as BenchReport;
use sgctl::bench::suite::defs::TestId;
use sgctl::bench::suite::purge::{PurgeMethod, PurgeRecord};
use sgctl::bench::suite::runner::{is_interrupted, Progress};
use sgctl::bench::suite::session::{self, SuiteEnv, SuiteKind, SuiteOptions, SuiteOutcome};
use sgctl::bench::suite::{review, steady};
use sgctl::bench::EngineKind;
use sgctl::discover::DiscoverHost;
use sgctl::error::Error;
use sgctl::ops::audit::AuditLog;
use std::fmt::Write as _;
use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};

/// Options both suites take.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct SuiteArgs {
    /// The drive (destroyed: every test writes the whole ActiveRange).
    #[arg(value_name = "DEVICE", required_unless_present = "enclosure")]
    pub device: Option<String>,
    /// Instead of DEVICE: the disk the kernel places in enclosure ID, slot SLOT (as `sgctl
    /// scan` shows them); refused when ID[:SLOTS] names no disk or more than one.
    #[arg(long, value_name = "ID[:SLOT]", conflicts_with = "device")]
    pub enclosure: Option<String>,
    /// Root for the sysfs lookup of --enclosure (tests use a fake tree).
    #[arg(long, default_value = "/", hide = true)]
    pub sysroot: PathBuf,
    /// Purge method before each test, named as `sanitize --method`: auto (block > crypto >
    /// overwrite > format: a block erase returns the flash to its fresh-out-of-box state),
    /// crypto, block, overwrite, format, or none (the report then says NOT PURGED).
    #[arg(long, value_enum, default_value = "auto")]
    pub purge: PurgeMethod,
    /// Serial number or WWN naming the drive.
    #[arg(long = "confirm", value_name = "SERIAL|WWN")]
    pub confirm: Vec<String>,
    /// Threads (TC, what `bench run` calls --jobs); TOIO = TC × QD.
    #[arg(long, visible_alias = "jobs", default_value_t = 1)]
    pub tc: u32,
    /// Queue depth per thread (QD).
    #[arg(long, default_value_t = 32)]
    pub qd: u32,
    /// ActiveRange in percent of the capacity (PTS-E: 100; a smaller one is reported).
    #[arg(long, value_name = "PCT", default_value_t = 100.0, value_parser = super::num::percent_positive)]
    pub active_range: f64,
    /// Most WDPC rounds before "steady state not reached".
    #[arg(long, default_value_t = steady::DEFAULT_MAX_ROUNDS)]
    pub max_rounds: u32,
    /// Report directory (report.json, purge certificates) [default: ./sgctl-bench-SERIAL-TIME].
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
    /// Continue the run saved in DIR from its last completed round (same drive only; a sim:
    /// drive needs the run's state=FILE).
    #[arg(long, value_name = "DIR", conflicts_with = "report")]
    pub resume: Option<PathBuf>,
    /// Engine (as `bench run --engine`).
    #[arg(long, value_enum, default_value = "auto")]
    pub engine: super::bench::EngineArg,
    /// Drive seconds per PTS second (0 < F ≤ 1): short rounds for a trial run. On a
    /// capacity-scaled sim: drive the default is its capacity over the profile's.
    #[arg(long, value_name = "F", value_parser = super::num::fraction_positive)]
    pub time_scale: Option<f64>,
    /// Write cache during the run.
    #[arg(long, value_enum, default_value = "disabled")]
    pub write_cache: WriteCacheArg,
    /// Audit log [default: $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl].
    #[arg(long, value_name = "FILE")]
    pub audit_log: Option<PathBuf>,
    /// Progress as JSON Lines on stderr.
    #[arg(long)]
    pub progress_json: bool,
    /// Hold the CPUs' idle wake-up latency at most US microseconds for the whole run (a PM
    /// QoS request on /dev/cpu_dma_latency, root only; 0: idle CPUs poll), as `bench run
    /// --cpu-latency` does; the report's notes name the limit. Not on a sim: drive.
    #[arg(long, value_name = "US")]
    pub cpu_latency: Option<u32>,
}

/// `--write-cache` of the suites.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum WriteCacheArg {
    /// WCE=0 for the run (PTS-E).
    Disabled,
    /// WCE=1 for the run (PTS-C).
    Enabled,
    /// Left as the drive has it.
    Unchanged,
}

impl WriteCacheArg {
    /// The session's typed value: `Some(enabled)`, or `None` to leave it.
    fn want(self) -> Option<bool> {
        match self {
            WriteCacheArg::Disabled => Some(false),
            WriteCacheArg::Enabled => Some(true),
            WriteCacheArg::Unchanged => None,
        }
    }
}

/// `--test` of `bench pts`: a PTS test, or all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum TestArg {
    /// IOPS.
    Iops,
    /// Throughput.
    Tp,
    /// Latency.
    Lat,
    /// Write saturation.
    Wsat,
    /// Host idle recovery.
    Hir,
    /// Cross-stimulus recovery.
    Xsr,
    /// Enterprise composite workload.
    Ecw,
    /// Demand intensity / response-time histogram.
    Dirth,
    /// Every test, in the order above.
    All,
}

impl TestArg {
    /// The tests this names.
    fn tests(self) -> Vec<TestId> {
        match self {
            TestArg::Iops => vec![TestId::Iops],
            TestArg::Tp => vec![TestId::Tp],
            TestArg::Lat => vec![TestId::Lat],
            TestArg::Wsat => vec![TestId::Wsat],
            TestArg::Hir => vec![TestId::Hir],
            TestArg::Xsr => vec![TestId::Xsr],
            TestArg::Ecw => vec![TestId::Ecw],
            TestArg::Dirth => vec![TestId::Dirth],
            TestArg::All => TestId::ALL.to_vec(),
        }
    }
}

/// `--part` of `bench review`, named as the report names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum PartArg {
    /// FOB 4K random write until steady state: the write cliff.
    #[value(name = "write_cliff")]
    WriteCliff,
    /// 4K random read and write at QD 1..256.
    #[value(name = "qd_sweep")]
    QdSweep,
    /// 4K/8K random, 128K sequential at QD32.
    Basics,
    /// Database, email, file and web server mixes at QD 1..256.
    Profiles,
    /// The over-provisioning experiment (FORMAT UNIT to a smaller capacity and back).
    Op,
}

impl PartArg {
    /// The part's name in the report ([`review::PARTS`]).
    fn name(self) -> &'static str {
        match self {
            PartArg::WriteCliff => "write_cliff",
            PartArg::QdSweep => "qd_sweep",
            PartArg::Basics => "basics",
            PartArg::Profiles => "profiles",
            PartArg::Op => "op",
        }
    }
}

/// `sgctl bench pts`.
#[derive(Debug, clap::Args)]
#[command(after_help = PTS_HELP)]
pub(crate) struct PtsArgs {
    /// Tests (comma-separated or repeated; what each does is below).
    #[arg(
        long = "test",
        value_enum,
        value_delimiter = ',',
        required_unless_present = "resume"
    )]
    pub tests: Vec<TestArg>,
    /// Common options.
    #[command(flatten)]
    pub common: SuiteArgs,
}

/// `sgctl bench review`.
#[derive(Debug, clap::Args)]
#[command(after_help = REVIEW_HELP)]
pub(crate) struct ReviewArgs {
    /// Parts to run [default: all, in this order].
    #[arg(long = "part", value_enum, value_delimiter = ',')]
    pub parts: Vec<PartArg>,
    /// Over-provisioning experiment: capacity left unused, percent.
    #[arg(long, default_value_t = 20.0, value_parser = super::num::percent)]
    pub op_extra: f64,
    /// Common options.
    #[command(flatten)]
    pub common: SuiteArgs,
}

const PTS_HELP: &str = "\
SNIA PTS-E 1.1 / PTS 2.0 tests. Each test: PURGE (the same job as `sgctl sanitize`/`format`,
certificate in the report directory) -> WIPC (2 x capacity of 128 KiB sequential writes; TP
with its own block size) -> WDPC rounds until steady state (5-round window: data excursion
<= 20 % and slope excursion <= 10 % of the average, at most --max-rounds) -> the tables.
  iops   7 R/W mixes x 8 block sizes (56 cells of 1 min), tracking 4K random write
  tp     128 KiB and 1024 KiB sequential read/write
  lat    TC1/QD1, 0.5/4/8 KiB x 100/0, 65/35, 0/100: ART, MRT, 5 9s
  wsat   4K random write from FOB until 4 x capacity or 24 h
  hir    host idle recovery: 5-s bursts with 5..50 s idle, 1800 s baselines
  xsr    8 h SEQ 1024K W -> 6 h RND 8K W -> 8 h SEQ 1024K W (TC1/QD32)
  ecw    JEDEC JESD219 mix, TC x QD sweep, Max/Mid/Min IOPS histograms
  dirth  4K random write TC x QD sweep, Max/Mid/Min IOPS histograms
The write cache is disabled (WCE=0 in the Caching mode page, read back) and restored at the
end, also after an error or Ctrl-C. Ctrl-C keeps the completed rounds in DIR/report.json;
`--resume DIR` continues the saved tests with the saved settings (refused on another drive,
and refused with exit 2 when --test names another set, or on a sim: drive without
state=FILE, which would be a fresh drive). On a sim: drive scaled down with
capacity_gib the durations scale with the capacity, so each round writes the drive as often.
EXAMPLES:
  sgctl bench pts 'sim:px02smf080?capacity_gib=1' --test iops --confirm <SERIAL>
  sgctl bench pts /dev/sdb --test iops,tp,lat --purge crypto --confirm <SERIAL> --report r1
  sgctl bench pts /dev/sdb --resume r1
EXIT STATUS: 0 done; 1 interrupted (resume with --resume DIR); 2 bad option; 4 the device
failed; 6 refused (in use, --confirm, --resume of another drive); 7 purge method not
supported (the message lists the methods the drive has).";

const REVIEW_HELP: &str = "\
What enterprise SSD reviews show: write_cliff (purge, FOB 4K random write at QD32, then
rounds of 1/4 capacity with 1-second samples until steady state), qd_sweep (4K random read
and write, QD 1..256, 5 min each, average and 99.99 % latency, the knee), basics (4K/8K
random, 128K sequential at QD32), profiles (database 8K 67/33, email 32K 68/32, file server,
web server; QD 1..256), op (FORMAT UNIT to 100 - --op-extra % of the capacity, FOB -> steady
state again, the gain, then FORMAT UNIT back to the full capacity — also after Ctrl-C).";

/// Runs `sgctl bench pts`.
pub(crate) fn run_pts(ctx: &mut Ctx, a: PtsArgs) -> anyhow::Result<Report> {
    let mut tests: Vec<TestId> = Vec::new();
    for t in a.tests.iter().flat_map(|t| t.tests()) {
        if !tests.contains(&t) {
            tests.push(t);
        }
    }
    let names: Vec<String> = tests.iter().map(|t| t.name().to_string()).collect();
    let given = !names.is_empty();
    run_suite(ctx, &a.common, SuiteKind::Pts, names, given, 0.0)
}

/// Runs `sgctl bench review`.
pub(crate) fn run_review(ctx: &mut Ctx, a: ReviewArgs) -> anyhow::Result<Report> {
    let parts: Vec<String> = if a.parts.is_empty() {
        review::PARTS.iter().map(|p| p.to_string()).collect()
    } else {
        a.parts.iter().map(|p| p.name().to_string()).collect()
    };
    if !(0.0..90.0).contains(&a.op_extra) {
        return Err(Error::InvalidArgument("--op-extra must be in [0, 90)".into()).into());
    }
    run_suite(
        ctx,
        &a.common,
        SuiteKind::Review,
        parts,
        !a.parts.is_empty(),
        a.op_extra,
    )
}

/// The drive of a bench command: DEVICE, or the one disk `--enclosure ID:SLOT` names.
pub(super) fn device_of(
    device: Option<&str>,
    enclosure: Option<&str>,
    sysroot: &Path,
) -> Result<String, Error> {
    match (device, enclosure) {
        (Some(d), _) => Ok(d.to_string()),
        (None, Some(e)) => super::erase::resolve_one(e, sysroot),
        // clap requires one of them; said plainly should it ever not.
        (None, None) => Err(Error::InvalidArgument(
            "name the drive: DEVICE or --enclosure ID:SLOT".into(),
        )),
    }
}

fn run_suite(
    ctx: &mut Ctx,
    a: &SuiteArgs,
    suite: SuiteKind,
    parts: Vec<String>,
    parts_given: bool,
    op_extra: f64,
) -> anyhow::Result<Report> {
    let opts = SuiteOptions {
        device: device_of(a.device.as_deref(), a.enclosure.as_deref(), &a.sysroot)?,
        suite,
        parts,
        parts_given,
        op_extra,
        purge: a.purge,
        confirm: a.confirm.clone(),
        tc: a.tc,
        qd: a.qd,
        active_range: a.active_range,
        max_rounds: a.max_rounds,
        report: a.report.clone(),
        resume: a.resume.clone(),
        engine: EngineKind::from(a.engine),
        time_scale: a.time_scale,
        write_cache: a.write_cache.want(),
        cpu_latency: a.cpu_latency,
        verbose: ctx.verbose,
    };
    let purge_progress = |p: f64| super::output::err_line(&format!("sgctl: bench: purge {p:.0} %"));
    let env = SuiteEnv {
        host: &DiscoverHost,
        prompter: &mut super::prompt::TtyPrompter::default(),
        interactive: !ctx.json && std::io::stdin().is_terminal(),
        audit: AuditLog::resolve(a.audit_log.as_deref()),
        progress: Progress::new(a.progress_json, false),
        purge_progress: &purge_progress,
    };
    let SuiteOutcome {
        report,
        dir,
        result,
        cleanup,
    } = session::run(&opts, env)?;
    let addr = opts.device;
    for c in &cleanup {
        ctx.warn(c.clone());
    }

    // The exit status is the error's own (one mapping: `From<BenchError> for Error`), so a
    // device that failed mid-run exits 4 and says so without being called a failed check.
    let exit = match &result {
        Ok(()) if cleanup.is_empty() => sgctl::exit::OK,
        Ok(()) => sgctl::exit::OTHER,
        Err(e) if is_interrupted(e) => sgctl::exit::OTHER,
        Err(e) => e.exit_code(),
    };
    if let Err(e) = result {
        let device_failed = matches!(e, Error::DeviceFailed(_));
        if !is_interrupted(&e) && !device_failed && exit != sgctl::exit::OTHER {
            // Refusals and unsupported methods after the gate: the report is saved; say so.
            ctx.warn(format!("report saved in {}", dir.display()));
            return Err(anyhow::Error::from(e));
        }
        ctx.warn(if is_interrupted(&e) {
            format!(
                "interrupted: completed rounds saved; continue with --resume {}",
                dir.display()
            )
        } else {
            format!("{e}; report saved in {}", dir.display())
        });
    }
    // The terminal summary is computed from the report document by the function `bench run`
    // and `bench compare` use (sgctl::bench::report::summary).
    let mut text =
        sgctl::bench::report::summary::text(&serde_json::to_value(&report).unwrap_or_default());
    let _ = writeln!(
        text,
        "\nreport: {} ({})",
        BenchReport::path(&dir).display(),
        report.state
    );
    let data = summary(&report, &dir);
    Ok(Report::new(Some(&addr), &data, text).with_exit(exit))
}

/// The `--json` data: where the report is and each test's results (series left in the file).
fn summary(r: &BenchReport, dir: &Path) -> serde_json::Value {
    let tests: Vec<serde_json::Value> = r
        .tests
        .iter()
        .map(|t| {
            let purge: Vec<&PurgeRecord> =
                t.stages.iter().filter_map(|s| s.purge.as_ref()).collect();
            let mut res = t.results.clone();
            if let Some(o) = res.as_object_mut() {
                o.remove("series");
                if let Some(ws) = o.get_mut("wait_states").and_then(|w| w.as_array_mut()) {
                    for w in ws {
                        if let Some(w) = w.as_object_mut() {
                            w.remove("burst_iops");
                            w.remove("baseline_iops");
                        }
                    }
                }
                o.remove("segments");
            }
            serde_json::json!({"test": t.test, "state": t.state,
                "purge": purge.iter().map(|p| &p.status).collect::<Vec<_>>(),
                "results": res, "notes": t.notes})
        })
        .collect();
    serde_json::json!({
        "report_dir": dir, "report_file": BenchReport::path(dir), "report_format": r.format,
        "report_version": r.version, "state": r.state, "complete": r.complete,
        "header": r.header, "settings": r.settings, "write_cache": r.write_cache,
        "notes": r.notes, "tests": tests,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum as _;

    #[test]
    fn parts_and_tests_are_named_as_the_report_names_them() {
        let parts: Vec<&str> = PartArg::value_variants().iter().map(|p| p.name()).collect();
        assert_eq!(parts, review::PARTS);
        for p in PartArg::value_variants() {
            let v = p.to_possible_value().map(|v| v.get_name().to_string());
            assert_eq!(v.as_deref(), Some(p.name()));
        }
        for t in TestArg::value_variants() {
            let v = t.to_possible_value().map(|v| v.get_name().to_string());
            let v = v.as_deref().unwrap_or_default();
            match t.tests().as_slice() {
                [one] => assert_eq!(one.name(), v),
                all => assert_eq!((v, all), ("all", &TestId::ALL[..])),
            }
        }
    }
}
