//! `sgctl audit verify FILE`: checks the hash chain of an audit log (the chain is
//! described in [`sgctl::ops::audit::chain`]).

use crate::cli::{Ctx, Report};
use sgctl::error::Error;
use sgctl::ops::audit::chain;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Audit log tools.
#[derive(Debug, clap::Args)]
pub(crate) struct AuditArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: AuditCommand,
}

/// `sgctl audit` subcommands.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum AuditCommand {
    /// Check that no record of an audit log was changed, removed, inserted or reordered.
    #[command(after_help = "\
Each record carries prev_sha256 (SHA-256 of the previous line) and record_sha256 (of its own
contents). Problems are reported with their line number; the exit status is 5 when any is
found. A chain cannot show records cut off its end by itself: keep the printed head elsewhere
and pass it back with --head.

EXAMPLES:
  sgctl audit verify /var/log/sgctl/audit.jsonl
  sgctl audit verify --head 3f1c...e0 /var/log/sgctl/audit.jsonl")]
    Verify(VerifyArgs),
}

/// `sgctl audit verify`.
#[derive(Debug, clap::Args)]
pub(crate) struct VerifyArgs {
    /// The audit log (JSON Lines).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// A head printed by an earlier verify: it must still be in the log (detects records
    /// removed from the end).
    #[arg(long, value_name = "SHA256", value_parser = parse_head)]
    pub head: Option<String>,
}

/// `--head`: 64 hex digits (a SHA-256 as `verify` prints it). Anything else is a bad argument
/// (exit 2), not a log that was tampered with.
fn parse_head(s: &str) -> Result<String, String> {
    let t = s.trim();
    if t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(t.to_ascii_lowercase())
    } else {
        Err(format!(
            "'{}' is not a SHA-256 head (64 hex digits, as `audit verify` prints it)",
            sgctl::escape::escape(&t.chars().take(80).collect::<String>())
        ))
    }
}

/// Runs `sgctl audit`.
pub(crate) fn run(_ctx: &mut Ctx, args: AuditArgs) -> anyhow::Result<Report> {
    let AuditCommand::Verify(a) = args.command;
    let content = std::fs::read(&a.file)
        .map_err(|e| Error::io(format!("audit log {}", a.file.display()), e))?;
    let v = chain::verify(&content, a.head.as_deref());
    let open = sgctl::ops::closeout::open_jobs(&content);
    let mut text = String::new();
    for p in &v.problems {
        let _ = writeln!(text, "TAMPERED {}", p.message);
    }
    for j in &open {
        let _ = writeln!(
            text,
            "NOT ENDED job {} ({} on {}{}, start at line {}): {}; finish it with `sgctl wait {}`",
            j.job_id,
            j.job,
            j.device,
            j.serial
                .as_deref()
                .map(|s| format!(", serial {s}"))
                .unwrap_or_default(),
            j.line,
            if j.state == "interrupted" {
                "interrupted, not finished since"
            } else {
                "no end record"
            },
            j.device
        );
    }
    let _ = writeln!(
        text,
        "{}: {} records ({} chained, {} before chaining), head {}: {}",
        a.file.display(),
        v.records,
        v.chained,
        v.legacy,
        v.head.as_deref().unwrap_or("-"),
        if v.ok() {
            "intact".to_string()
        } else {
            format!("{} problems", v.problems.len())
        }
    );
    if !open.is_empty() {
        let _ = writeln!(
            text,
            "{} job{} never ended (listed above)",
            open.len(),
            if open.len() == 1 { "" } else { "s" }
        );
    }
    let mut data = serde_json::to_value(&v).unwrap_or_default();
    if let Some(m) = data.as_object_mut() {
        m.insert(
            "open_jobs".into(),
            serde_json::to_value(&open).unwrap_or_default(),
        );
    }
    let exit = if v.ok() {
        sgctl::exit::OK
    } else {
        sgctl::exit::CHECK_FAILED
    };
    Ok(Report::new(None, &data, text).with_exit(exit))
}
