//! `sgctl format DEVICE... --block-size N [--pi T] [--pi-interval-exponent E]
//! [--capacity BLOCKS|PCT%] [--fast] [--recover] [--force]` and
//! `sgctl format DEVICE --list-supported` (read-only).

use crate::cli::erase::{run_jobs, SafetyArgs};
use crate::cli::{Ctx, Report};
use sgctl::error::Error;
use sgctl::ops::format::{CapacityRequest, FormatOptions};
use sgctl::ops::format_support::{self, FormatSupport};
use sgctl::ops::jobs::format::FormatJob;
use sgctl::ops::query::Support;
use sgctl::scsi::format_unit::ProtectionType;

/// Format drives: change logical block size, protection (PI) type and capacity, verified
/// afterwards with READ CAPACITY(16). Destroys all data; passes the safety gate.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
The drive keeps formatting if sgctl is interrupted (Ctrl-C); watch it again with `sgctl wait DEVICE`.
A drive that ends up with another block size, protection or capacity than requested is a failure (exit 5).
A block size or PI type the drive does not list (VPD 0xB4) is refused before anything is sent (exit 7);
`--list-supported` shows what it lists, `--force` sends the format anyway.
`--preset ID` sends FORMAT WITH PRESET instead of MODE SELECT and FORMAT UNIT; an ID the drive does not
list in VPD 0xB8 is refused before anything is sent (exit 7), --force or not.
Audit records go to --audit-log, else $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl.")]
pub(crate) struct FormatArgs {
    /// Drives to format (several run in parallel, capped per HBA).
    #[arg(value_name = "DEVICE", required_unless_present_any = ["all_matching", "enclosure"])]
    pub devices: Vec<String>,
    /// Also every disk found by `sgctl scan` whose vendor/model/serial/firmware/LU name
    /// contains all words of FILTER (each still needs its --confirm).
    #[arg(long, value_name = "FILTER")]
    pub all_matching: Option<String>,
    /// Also every disk the kernel places in enclosure ID (logical identifier, as `sgctl scan`
    /// shows it), optionally only slots SLOTS (`0-11`, `3`, `0-3,8`); with --all-matching,
    /// the disks matching both (each still needs its --confirm).
    #[arg(long, value_name = "ID[:SLOTS]")]
    pub enclosure: Option<String>,
    /// Show what the drive says it accepts (VPD 0xB4 block lengths and PI types, VPD 0xB8
    /// format presets, RSOC for FORMAT UNIT), its current geometry and the Format Status log
    /// page; read-only, sends no FORMAT UNIT.
    #[arg(long, conflicts_with_all = ["block_size", "recover", "all_matching", "enclosure"])]
    pub list_supported: bool,
    /// New logical block size in bytes (512, 520, 4096, ...). Optional only with --recover.
    #[arg(long, value_name = "BYTES")]
    pub block_size: Option<u32>,
    /// Protection information type (0 = none, the default). With --recover and neither
    /// --block-size nor --pi: what the interrupted format asked for (its audit start record).
    #[arg(long, value_name = "0|1|2|3", value_parser = clap::value_parser!(u8).range(0..=3))]
    pub pi: Option<u8>,
    /// Protection interval exponent (types 2 and 3): 2^E PI intervals per logical block.
    #[arg(long, value_name = "E", default_value_t = 0)]
    pub pi_interval_exponent: u8,
    /// Capacity: a number of logical blocks, or a percentage of the current capacity ("80%").
    #[arg(long, value_name = "BLOCKS|PCT%")]
    pub capacity: Option<CapacityRequest>,
    /// Fast format (FFMT=1): unwritten blocks read back with unspecified data.
    #[arg(long)]
    pub fast: bool,
    /// Recover a drive reporting "medium format corrupted" (31/00) by formatting it again.
    #[arg(long)]
    pub recover: bool,
    /// FORMAT WITH PRESET (SBC-5 5.9): format to one of the presets the drive lists in its
    /// Format Presets VPD page (0xB8, see --list-supported); an identifier it does not list
    /// is refused before anything is sent. Verified against the preset's block length,
    /// protection type and designed capacity.
    #[arg(
        long,
        value_name = "ID",
        conflicts_with_all = ["block_size", "pi", "capacity", "fast", "recover", "list_supported"]
    )]
    pub preset: Option<u32>,
    /// Safety options.
    #[command(flatten)]
    pub safety: SafetyArgs,
}

/// Runs `sgctl format`.
pub(crate) fn run(ctx: &mut Ctx, args: FormatArgs) -> anyhow::Result<Report> {
    if args.list_supported {
        return list_supported(ctx, &args.devices);
    }
    if args.block_size.is_none() && !args.recover && args.preset.is_none() {
        return Err(Error::InvalidArgument(
            "--block-size is required (or --preset, or --recover)".into(),
        )
        .into());
    }
    let opts = FormatOptions {
        block_size: args.block_size,
        protection: ProtectionType::from_number(args.pi.unwrap_or(0))?,
        pi_exponent: args.pi_interval_exponent,
        capacity: args.capacity.unwrap_or(CapacityRequest::Max),
        fast: args.fast,
        recover: args.recover,
        preset: args.preset,
    };
    let params = serde_json::to_value(&opts).unwrap_or_default();
    let devices = crate::cli::erase::resolve_devices(
        &args.devices,
        args.all_matching.as_deref(),
        args.enclosure.as_deref(),
    )?;
    // --recover with no geometry restores what the interrupted format asked for.
    let recover_from =
        (args.recover && args.block_size.is_none() && args.pi.is_none()).then(|| {
            sgctl::ops::audit::AuditLog::resolve(args.safety.audit_log.as_deref())
                .path()
                .to_path_buf()
        });
    run_jobs(
        ctx,
        &devices,
        &args.safety,
        params,
        || match &recover_from {
            Some(a) => Box::new(
                FormatJob::recovering(opts.clone(), a.clone()).with_force(args.safety.force),
            ),
            None => Box::new(FormatJob::new(opts.clone()).with_force(args.safety.force)),
        },
    )
}

/// `--list-supported`: one device, read-only.
fn list_supported(ctx: &mut Ctx, devices: &[String]) -> anyhow::Result<Report> {
    let [dev] = devices else {
        return Err(Error::InvalidArgument("--list-supported takes one DEVICE".into()).into());
    };
    let mut t =
        sgctl::device::open(dev, sgctl::device::OpenOptions::traced(ctx.verbose))?.transport;
    let s = format_support::read(t.as_mut())?;
    let text = list_text(&s);
    Ok(Report::new(Some(dev), &s, text))
}

fn list_text(s: &FormatSupport) -> String {
    use std::fmt::Write;
    let mut t = String::new();
    match &s.block_lengths {
        Some(bl) => {
            t.push_str("Block lengths the drive lists (VPD 0xB4):\n");
            if bl.descriptors.is_empty() {
                t.push_str("  none\n");
            }
            for d in &bl.descriptors {
                let types: Vec<String> = d.protection_types().iter().map(u8::to_string).collect();
                let _ = writeln!(
                    t,
                    "  {:>5} bytes  PI types {}{}",
                    d.logical_block_length,
                    if types.is_empty() {
                        "none".into()
                    } else {
                        types.join(",")
                    },
                    if d.p_i_i_sup == Some(true) {
                        "  (PI interval exponent supported)"
                    } else {
                        ""
                    }
                );
            }
        }
        None => t.push_str("Block lengths the drive lists (VPD 0xB4): not reported\n"),
    }
    match &s.format_presets {
        Some(fp) if !fp.presets.is_empty() => {
            t.push_str("Format presets (VPD 0xB8):\n");
            for p in &fp.presets {
                let pi = p
                    .protection_type()
                    .map_or_else(|| "invalid".to_string(), |v| v.to_string());
                let _ = writeln!(
                    t,
                    "  preset 0x{:x}: {}, {} bytes, PI type {}, {} blocks",
                    p.preset_identifier,
                    sgctl::scsi::vpd::format_presets::schema_name(p.schema_type.unwrap_or(0)),
                    p.logical_block_length.unwrap_or(0),
                    pi,
                    p.designed_last_lba.map_or(0, |l| l.saturating_add(1))
                );
            }
        }
        _ => t.push_str("Format presets (VPD 0xB8): none\n"),
    }
    let sup = match s.format_unit.support {
        Support::Supported => "supported",
        Support::NotSupported => "not supported",
        Support::Unknown => "unknown (no REPORT SUPPORTED OPERATION CODES answer)",
    };
    let _ = write!(t, "FORMAT UNIT (RSOC): {sup}");
    if let Some(s) = s.format_unit.recommended_timeout_s {
        let _ = write!(t, ", recommended timeout {s} s");
    }
    t.push('\n');
    match &s.current {
        Some(g) => {
            let _ = writeln!(
                t,
                "Current format (READ CAPACITY 16): {} bytes, PI type {}, {} blocks ({} bytes)",
                g.block_len, g.pi_type, g.blocks, g.capacity_bytes
            );
        }
        None => t.push_str("Current format (READ CAPACITY 16): unknown\n"),
    }
    if let Some(f) = &s.format_status {
        t.push_str("Last format (Format Status log page 0x08):\n");
        let n = |v: Option<u64>| v.map_or_else(|| "unknown".to_string(), |v| v.to_string());
        let _ = writeln!(
            t,
            "  parameter list sent: {}",
            f.format_data_out.as_deref().unwrap_or("unknown")
        );
        let _ = writeln!(
            t,
            "  grown defects during certification: {}",
            n(f.grown_defects_during_certification)
        );
        let _ = writeln!(
            t,
            "  blocks reassigned during format: {}",
            n(f.total_blocks_reassigned_during_format)
        );
        let _ = writeln!(
            t,
            "  new blocks reassigned: {}",
            n(f.total_new_blocks_reassigned)
        );
        let _ = writeln!(
            t,
            "  power-on minutes since format: {}",
            n(f.power_on_minutes_since_format)
        );
    }
    for note in &s.notes {
        let _ = writeln!(t, "note: {note}");
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::erase::testenv;
    use sgctl::exit;
    use sgctl::ops::jobs::Job;

    fn job(bs: u32, pi: u8) -> impl FnMut() -> Box<dyn Job> {
        move || -> Box<dyn Job> {
            Box::new(FormatJob::new(FormatOptions {
                block_size: Some(bs),
                protection: ProtectionType::from_number(pi).unwrap(),
                pi_exponent: 0,
                capacity: CapacityRequest::Max,
                fast: false,
                recover: false,
                preset: None,
            }))
        }
    }

    #[test]
    fn format_success_substitution_and_refused_pi() {
        let dir = tempfile::tempdir().unwrap();
        let drives = testenv::drives(&["a", "b", "c"]);
        drives["mock:b"].st().substitute_block = Some(528);
        drives["mock:c"].st().supported_pi = vec![0];
        let sa = testenv::safety(dir.path(), &["SER-a", "SER-b", "SER-c"], false);
        let r = testenv::run(&drives, &[], &sa, job(4096, 1));
        assert_eq!(r.exit, exit::PARTIAL);
        let d = r.data["drives"].as_array().unwrap();
        assert_eq!(d[0]["outcome"], "success");
        assert_eq!(d[0]["after"]["after"]["block_len"], 4096);
        assert_eq!(d[1]["outcome"], "check_failed");
        assert_eq!(d[1]["exit_status"], exit::CHECK_FAILED);
        assert!(d[1]["message"].as_str().unwrap().contains("528"));
        assert_eq!(d[2]["outcome"], "unsupported");
        assert_eq!(d[2]["exit_status"], exit::UNSUPPORTED);
        assert!(r.text.contains("1 of 3 drives succeeded"), "{}", r.text);
        // Audit: start+end per executed drive (all three passed the gate), then the batch
        // manifest's record.
        let lines = testenv::audit_lines(dir.path());
        assert_eq!(lines.len(), 7);
        assert_eq!(lines[6]["event"], "manifest");
    }

    #[test]
    fn format_dry_run_prints_mode_select_and_format_unit() {
        let dir = tempfile::tempdir().unwrap();
        let drives = testenv::drives(&["a"]);
        let sa = testenv::safety(dir.path(), &[], true);
        let r = testenv::run(&drives, &[], &sa, job(4096, 2));
        assert_eq!(r.exit, exit::OK);
        assert!(r.text.contains("would send MODE SELECT(10)"), "{}", r.text);
        assert!(
            r.text.contains("cdb: 04 d8 00 00 00 00  data: 00 02 00 00"),
            "{}",
            r.text
        );
        assert!(drives["mock:a"]
            .st()
            .log
            .iter()
            .all(|c| !sgctl::ops::gate::is_state_changing(c)));
        assert_eq!(drives["mock:a"].st().lb_len, 512);
    }
}
