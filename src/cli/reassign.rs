//! `sgctl reassign DEVICE LBA... --confirm SERIAL|WWN [--dry-run]`: REASSIGN BLOCKS
//! ([`sgctl::scsi::reassign`]), behind the safety gate, with the grown defect list's count
//! read before and after.

use super::{Ctx, Report};
use serde::Serialize;
use sgctl::cmd::{run_out, run_query};
use sgctl::error::Error;
use sgctl::ops::gate;
use sgctl::scsi::read_defect::{self, DefectFormat, ReadDefectData10Cdb};
use sgctl::scsi::reassign;
use sgctl::transport::{Transport, DEFAULT_TIMEOUT};
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `sgctl reassign`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = "\
REASSIGN BLOCKS (SBC-5 5.33) asks the drive to move each logical block to a spare and add
its old location to the grown defect list (GLIST). The drive keeps the data it can still
read; a block it cannot read comes back with unspecified data. Use it on blocks that a
read reported as MEDIUM ERROR (03/11) and the drive did not reallocate itself.

Every LBA is checked against READ CAPACITY first (one beyond the last is refused, nothing
sent). Descriptors are 4 bytes unless an LBA needs 8 (LONGLBA); the list length is 2
bytes unless the list needs 4 (LONGLIST), as sg_reassign chooses. The command goes through
the safety gate: no path of the drive may be in use and --confirm SERIAL|WWN must name it
(or type it on a terminal). The grown defect list's count is read before and after; audit
start and end records go to --audit-log, else $SGCTL_AUDIT_LOG, else
/var/log/sgctl/audit.jsonl. --dry-run prints the CDB and parameter list and sends nothing.

Compare: sg_reassign --address=LBA,LBA DEV; sg_reassign --grown DEV.

Examples:
  sgctl reassign /dev/sg3 3000 3001 --confirm ZA1B2C3D
  sgctl reassign /dev/sg3 0x1000 --dry-run
  sgctl defects /dev/sg3 --count")]
pub(crate) struct ReassignArgs {
    /// Device address.
    pub device: String,
    /// Logical block addresses (decimal or 0x-hex).
    #[arg(required = true, value_name = "LBA", value_parser = parse_lba)]
    pub lbas: Vec<u64>,
    /// Serial number or WWN naming the drive.
    #[arg(long = "confirm", value_name = "SERIAL|WWN")]
    pub confirm: Vec<String>,
    /// Print the REASSIGN BLOCKS CDB and parameter list, send nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Audit log [default: $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl].
    #[arg(long, value_name = "FILE")]
    pub audit_log: Option<PathBuf>,
}

fn parse_lba(s: &str) -> Result<u64, String> {
    let r = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16),
        None => s.parse(),
    };
    r.map_err(|_| format!("bad LBA {s:?}: decimal or 0x-hex"))
}

#[derive(Debug, Serialize)]
struct Out {
    lbas: Vec<u64>,
    cdb: String,
    parameter_list: String,
    dry_run: bool,
    sent: bool,
    grown_before: Option<u64>,
    grown_after: Option<u64>,
    job_id: Option<String>,
    audit_log: Option<String>,
}

/// The grown defect list's entry count (READ DEFECT DATA(10) header), `None` when the drive
/// does not answer it.
fn grown_count(t: &mut dyn Transport) -> Option<u64> {
    let cdb = ReadDefectData10Cdb::new(DefectFormat::LongBlock, 4)
        .glist(true)
        .build();
    let mut buf = [0u8; 4];
    let n = run_query(t, &cdb, &mut buf, DEFAULT_TIMEOUT).ok()?;
    read_defect::parse(&buf[..n.min(4)], false)
        .ok()
        .map(|l| l.count)
}

/// Runs `sgctl reassign`.
pub(crate) fn run(ctx: &mut Ctx, args: ReassignArgs) -> anyhow::Result<Report> {
    let dev = args.device.as_str();
    let (cdb, params) = reassign::build(&args.lbas)?;
    let mut t =
        sgctl::device::open(dev, sgctl::device::OpenOptions::traced(ctx.verbose))?.transport;
    let cap = sgctl::ops::query::read_capacity16(t.as_mut())?;
    if let Some(&bad) = args.lbas.iter().find(|&&l| l >= cap.blocks()) {
        return Err(Error::InvalidArgument(format!(
            "LBA {bad} is beyond the drive's last LBA {} (READ CAPACITY); nothing was sent",
            cap.blocks().saturating_sub(1)
        ))
        .into());
    }
    let id = sgctl::ops::query::identity(t.as_mut())?;
    let name = gate::DriveName {
        serial: id.serial.clone(),
        wwn: id.wwn.clone(),
    };
    let host = sgctl::discover::DiscoverHost;
    let grown_before = grown_count(t.as_mut());
    let mut out = Out {
        lbas: args.lbas.clone(),
        cdb: sgctl::bytes::spaced_hex(&cdb),
        parameter_list: sgctl::bytes::spaced_hex(&params),
        dry_run: args.dry_run,
        sent: false,
        grown_before,
        grown_after: None,
        job_id: None,
        audit_log: None,
    };
    if args.dry_run {
        gate::check_not_in_use(&host, dev)?;
        if !args.confirm.is_empty() && !args.confirm.iter().any(|c| name.matches(c)) {
            return Err(Error::from(sgctl::error::Refusal::NotNamed {
                address: dev.into(),
                drive: name.describe(),
            })
            .into());
        }
        let text = format!(
            "dry run: would send REASSIGN BLOCKS cdb {} with parameter list {}\n",
            out.cdb, out.parameter_list
        );
        return Ok(Report::new(Some(dev), &out, text));
    }
    let audit = sgctl::ops::audit::AuditLog::resolve(args.audit_log.as_deref());
    let confirmation = gate::Confirmation {
        tokens: args.confirm.clone(),
        interactive: !ctx.json && std::io::IsTerminal::is_terminal(&std::io::stdin()),
    };
    let mut prompter = super::prompt::WordedPrompter::new(
        "sgctl: reassign moves the listed blocks to spares for good (the grown defect \
             list only grows); a block the drive cannot read keeps no data.",
    );
    let rec = gate::clear(
        &host,
        gate::GateRequest {
            job: "reassign",
            address: dev,
            name: &name,
            confirmation: &confirmation,
            audit,
        },
        &mut prompter,
    )?;
    let started = rec.start(serde_json::json!({
        "lbas": args.lbas,
        "cdb": out.cdb,
        "parameter_list": out.parameter_list,
        "grown_before": grown_before,
        "drive": {"serial": id.serial, "wwn": id.wwn},
    }))?;
    // A drive reads and rewrites each block; sg_reassign allows the default long timeout.
    let r = run_out(t.as_mut(), &cdb, &params, Duration::from_secs(120))
        .map_err(|e| super::fetch::unsupported(e, "the drive does not support REASSIGN BLOCKS"));
    let grown_after = if r.is_ok() {
        grown_count(t.as_mut())
    } else {
        None
    };
    let end = started.end(
        if r.is_ok() { "success" } else { "failure" },
        serde_json::json!({
            "error": r.as_ref().err().map(|e| e.to_string()),
            "grown_after": grown_after,
        }),
    );
    r?;
    end?;
    out.sent = true;
    out.grown_after = grown_after;
    out.job_id = Some(rec.job_id.clone());
    out.audit_log = Some(rec.audit_path().display().to_string());
    let count = |c: Option<u64>| c.map_or("unknown".to_string(), |n| n.to_string());
    let text = format!(
        "{dev}: REASSIGN BLOCKS sent for {} block{}; grown defect list {} -> {}\n  audit record {} in {}\n",
        args.lbas.len(),
        if args.lbas.len() == 1 { "" } else { "s" },
        count(grown_before),
        count(grown_after),
        rec.job_id,
        rec.audit_path().display()
    );
    Ok(Report::new(Some(dev), &out, text))
}
