//! `sgctl selftest DEVICE [--short|--extended [--foreground] | --abort]`: start, abort and
//! follow the drive's own self-tests (SEND DIAGNOSTIC, Self-Test Results log page 10h).

use super::{Ctx, Report};
use serde::Serialize;
use sgctl::logpage::selftest::SelfTestEntry;
use sgctl::ops::gate;
use sgctl::ops::selftest::{self, Status};
use sgctl::scsi::send_diagnostic::{SelfTest, SendDiagnosticCdb};
use std::fmt::Write as _;
use std::path::PathBuf;

/// Arguments of `sgctl selftest`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = "\
Without an action, shows whether a self-test is running (and how far it is, from REQUEST
SENSE) and the results of the last twenty (Self-Test Results log page 10h: test, result,
self-test number, power-on hours, first failing LBA, sense key/ASC/ASCQ). `sgctl health`
shows the last one too.

--short / --extended send SEND DIAGNOSTIC with SELF-TEST CODE 001b / 010b (SPC-6 6.42): the
test runs in the background, the drive stays usable and the command returns at once; run
`sgctl selftest DEVICE` again to follow it. An extended test reads the whole medium (VPD 86h
says how many minutes it takes). --abort (100b) stops a background test; the log records it
as \"aborted by SEND DIAGNOSTIC\".

--foreground (101b / 110b) holds the drive until the test ends: every other command gets NOT
READY 04/09, so it goes through the safety gate like a format: no path of the drive may be in
use and --confirm SERIAL|WWN must name the drive (or type it on a terminal). A failing
foreground test ends in CHECK CONDITION (3E/03, exit 4).

Starting or aborting a test writes a start and an end record to the audit log (--audit-log,
else $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl). --dry-run prints the CDB and sends
nothing. A test already running is not started over (exit 6).

Compare: sg_senddiag --test=1 (background short), sg_senddiag --test=4 (abort),
smartctl -t short|long, sg_logs --page=0x10.

Examples:
  sgctl selftest /dev/sg3                  status and the last results
  sgctl selftest /dev/sg3 --short          start a background short self-test
  sgctl selftest /dev/sg3 --abort
  sgctl selftest /dev/sg3 --extended --foreground --confirm ZA1B2C3D")]
pub(crate) struct SelftestArgs {
    /// Device address.
    pub device: String,
    /// Start a short self-test (background unless --foreground).
    #[arg(long, group = "action")]
    pub short: bool,
    /// Start an extended self-test (the whole medium; background unless --foreground).
    #[arg(long, group = "action")]
    pub extended: bool,
    /// Abort the background self-test in progress.
    #[arg(long, group = "action")]
    pub abort: bool,
    /// Run the test in the foreground: the command ends when the test does and the drive
    /// serves nothing else meanwhile (needs --confirm).
    #[arg(long)]
    pub foreground: bool,
    /// With --foreground: serial number or WWN naming the drive.
    #[arg(long = "confirm", value_name = "SERIAL|WWN")]
    pub confirm: Vec<String>,
    /// Print the SEND DIAGNOSTIC CDB, send nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Audit log [default: $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl].
    #[arg(long, value_name = "FILE")]
    pub audit_log: Option<PathBuf>,
}

#[derive(Debug, Serialize)]
struct ActionData<'a> {
    action: SelfTest,
    cdb: String,
    dry_run: bool,
    sent: bool,
    job_id: Option<String>,
    audit_log: Option<String>,
    /// Status read after the command (not on a dry run).
    status: Option<&'a Status>,
}

/// Runs `sgctl selftest`.
pub(crate) fn run(ctx: &mut Ctx, args: SelftestArgs) -> anyhow::Result<Report> {
    let test = match (args.short, args.extended, args.abort, args.foreground) {
        (false, false, false, false) => None,
        (true, _, _, false) => Some(SelfTest::BackgroundShort),
        (true, _, _, true) => Some(SelfTest::ForegroundShort),
        (_, true, _, false) => Some(SelfTest::BackgroundExtended),
        (_, true, _, true) => Some(SelfTest::ForegroundExtended),
        (_, _, true, false) => Some(SelfTest::AbortBackground),
        (_, _, true, true) => {
            return Err(sgctl::Error::InvalidArgument(
                "--foreground goes with --short or --extended (a foreground test cannot be \
                 aborted: it ends with its command)"
                    .into(),
            )
            .into())
        }
        (false, false, false, true) => {
            return Err(sgctl::Error::InvalidArgument(
                "--foreground goes with --short or --extended".into(),
            )
            .into())
        }
    };
    let dev = args.device.as_str();
    if test.is_none() && (args.dry_run || !args.confirm.is_empty()) {
        return Err(sgctl::Error::InvalidArgument(
            "--dry-run and --confirm go with --short, --extended or --abort".into(),
        )
        .into());
    }
    let mut t =
        sgctl::device::open(dev, sgctl::device::OpenOptions::traced(ctx.verbose))?.transport;
    let Some(test) = test else {
        let st = selftest::status(t.as_mut())?;
        for p in &st.problems {
            ctx.warn(p.clone());
        }
        let text = render_status(dev, &st);
        return Ok(Report::new(Some(dev), &st, text));
    };
    let host = sgctl::discover::DiscoverHost;
    let mut prompter = super::prompt::WordedPrompter::new(
        "sgctl: a foreground self-test holds the drive until it ends (an extended one for \
             as long as it takes to read the whole medium); no other command is served \
             meanwhile. User data is not touched.",
    );
    start(ctx, &args, test, t.as_mut(), &host, &mut prompter)
}

/// Starts or aborts a test: status first (a running test is not started over; there is
/// nothing to abort when none runs), then the records and SEND DIAGNOSTIC.
fn start(
    ctx: &mut Ctx,
    args: &SelftestArgs,
    test: SelfTest,
    t: &mut dyn sgctl::transport::Transport,
    host: &dyn sgctl::host::HostView,
    prompter: &mut dyn gate::Prompter,
) -> anyhow::Result<Report> {
    let dev = args.device.as_str();
    let cdb = SendDiagnosticCdb::new().self_test_code(test.code()).build();
    let planned = gate::PlannedCommand::new("SEND DIAGNOSTIC", &cdb, &[]);
    let before = selftest::status(t)?;
    if test != SelfTest::AbortBackground {
        if let Some(r) = &before.running {
            return Err(sgctl::Error::from(sgctl::error::Refusal::SelfTestRunning {
                address: dev.into(),
                progress: r.progress_percent,
            })
            .into());
        }
    } else if before.running.is_none() {
        ctx.warn("no self-test is reported running; the abort is sent anyway");
    }
    let id = sgctl::ops::query::identity(t)?;
    let name = gate::DriveName {
        serial: id.serial.clone(),
        wwn: id.wwn.clone(),
    };
    if args.dry_run {
        if test.is_foreground() {
            gate::check_not_in_use(host, dev)?;
        }
        if !args.confirm.is_empty() && !args.confirm.iter().any(|c| name.matches(c)) {
            return Err(sgctl::Error::from(sgctl::error::Refusal::NotNamed {
                address: dev.into(),
                drive: name.describe(),
            })
            .into());
        }
        let data = ActionData {
            action: test,
            cdb: sgctl::bytes::spaced_hex(&cdb),
            dry_run: true,
            sent: false,
            job_id: None,
            audit_log: None,
            status: None,
        };
        return Ok(Report::new(
            Some(dev),
            &data,
            format!(
                "dry run: would send {} ({})\n",
                planned.render(),
                test.name()
            ),
        ));
    }
    let audit = sgctl::ops::audit::AuditLog::resolve(args.audit_log.as_deref());
    let rec = if test.is_foreground() {
        let confirmation = gate::Confirmation {
            tokens: args.confirm.clone(),
            interactive: !ctx.json && std::io::IsTerminal::is_terminal(&std::io::stdin()),
        };
        gate::clear(
            host,
            gate::GateRequest {
                job: "selftest",
                address: dev,
                name: &name,
                confirmation: &confirmation,
                audit,
            },
            prompter,
        )?
    } else {
        gate::record_only(host, "selftest", dev, &name, audit)?
    };
    let started = rec.start(serde_json::json!({
        "action": test,
        "cdb": sgctl::bytes::spaced_hex(&cdb),
        "drive": {"serial": id.serial, "wwn": id.wwn},
    }))?;
    let timeout = selftest::timeout_for(test, before.extended_self_test_minutes);
    let r = selftest::send(t, &rec, test, timeout);
    let after = if r.is_ok() {
        selftest::status(t).ok()
    } else {
        None
    };
    let outcome = if r.is_ok() { "success" } else { "failure" };
    let last = after.as_ref().and_then(Status::last_finished);
    let end = started.end(
        outcome,
        serde_json::json!({
            "error": r.as_ref().err().map(|e| e.to_string()),
            "running": after.as_ref().map(|s| s.running.is_some()),
            "last_result": last.map(|e| e.result.clone()),
        }),
    );
    r?;
    end?;
    let mut text = match test {
        SelfTest::AbortBackground => format!("{dev}: background self-test aborted\n"),
        t if t.is_foreground() => format!(
            "{dev}: {} ended: {}\n",
            t.name(),
            last.map(|e| e.result.as_str())
                .unwrap_or("no result in the log page")
        ),
        t => format!(
            "{dev}: {} started; `sgctl selftest {dev}` shows its progress\n",
            t.name()
        ),
    };
    let _ = writeln!(
        text,
        "  sent {}; audit record {} in {}",
        planned.render(),
        rec.job_id,
        rec.audit_path().display()
    );
    if let Some(st) = &after {
        text.push_str(&render_status(dev, st));
    }
    let data = ActionData {
        action: test,
        cdb: sgctl::bytes::spaced_hex(&cdb),
        dry_run: false,
        sent: true,
        job_id: Some(rec.job_id.clone()),
        audit_log: Some(rec.audit_path().display().to_string()),
        status: after.as_ref(),
    };
    Ok(Report::new(Some(dev), &data, text))
}

/// One line per log entry, plus the running test.
pub(crate) fn render_status(dev: &str, st: &Status) -> String {
    let mut o = String::new();
    match &st.running {
        Some(r) => {
            let _ = writeln!(
                o,
                "{dev}: {} in progress{}",
                r.self_test.as_deref().unwrap_or("self-test"),
                r.progress_percent
                    .map(|p| format!(", {p:.1}% done"))
                    .unwrap_or_default()
            );
        }
        None => {
            let _ = writeln!(o, "{dev}: no self-test running");
        }
    }
    if let Some(m) = st.extended_self_test_minutes {
        let _ = writeln!(o, "  an extended self-test takes about {m} min (VPD 86h)");
    }
    match &st.results {
        None => {
            let _ = writeln!(o, "  the drive has no Self-Test Results log page (10h)");
        }
        Some(r) if r.entries.is_empty() => {
            let _ = writeln!(o, "  Self-Test Results log: no self-test recorded");
        }
        Some(r) => {
            let _ = writeln!(
                o,
                "  Self-Test Results log: {} entries, {} failed",
                r.entries.len(),
                r.failed_entries
            );
            let _ = writeln!(
                o,
                "  {:>2}  {:<22} {:<40} {:>3} {:>8}  {:<18} sense",
                "#", "test", "result", "no.", "hours", "first failure LBA"
            );
            for e in &r.entries {
                let _ = writeln!(o, "  {}", entry_line(e));
            }
        }
    }
    o
}

fn entry_line(e: &SelfTestEntry) -> String {
    let lba = e
        .first_failure_lba
        .map(|l| format!("0x{l:x}"))
        .unwrap_or_else(|| "-".into());
    let hours = e
        .power_on_hours
        .map(|h| h.to_string())
        .unwrap_or_else(|| "-".into());
    let sense = if e.sense_key == 0 && e.asc == 0 && e.ascq == 0 {
        "-".to_string()
    } else {
        format!("{:X}/{:02X}/{:02X}", e.sense_key, e.asc, e.ascq)
    };
    format!(
        "{:>2}  {:<22} {:<40} {:>3} {:>8}  {:<18} {sense}",
        e.parameter_code, e.self_test, e.result, e.self_test_number, hours, lba
    )
}
