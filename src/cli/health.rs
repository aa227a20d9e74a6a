//! `sgctl health DEVICE... | --all`: normalized health per drive, rules, exit bit mask,
//! Prometheus textfile output.

use super::{Ctx, Report};
use serde::Serialize;
use sgctl::ops::health::{self, bits, rules, DriveHealth, State};
use std::fmt::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// `--help` text after the options: the exit bit mask and the rule metrics.
/// (A unit test checks it names every bit and every metric.)
pub(crate) const AFTER_HELP: &str = concat!(
    "\
RULES: --max METRIC=N / --min METRIC=N (repeatable), or --rules FILE with a TOML subset:
  [max]                      # or dotted keys: max.endurance_used = 80
  endurance_used = 80
  temperature_c = 70
  [min]
  remaining_days = 365
A rule whose metric the drive does not report is listed as not evaluated (no bit set).
METRICS: endurance_used, remaining_days, drive_writes_per_day, temperature_c,
  lifetime_max_temperature_c, grown_defects, pending_defects, uncorrected_errors,
  non_medium_errors, interface_crc_errors (SATA), self_test_failures, invalid_dwords,
  running_disparity_errors, loss_of_dword_sync, phy_reset_problems, start_stop_cycles,
  load_unload_cycles, power_on_hours
SATA DRIVES BEHIND A SATL (INQUIRY vendor \"ATA\", VPD 0x89): the figures come from the ATA side
(Device Statistics log 04h, else SMART attributes; SMART RETURN STATUS; self-test log 07h), read
with ATA PASS-THROUGH; `sources` in the report names the log page/offset or attribute of each.

PROJECTION: remaining_days = (100 - endurance_used) * power_on_hours / endurance_used / 24,
i.e. the wear rate observed so far, counting powered-on time (page 0x15 power-on minutes);
drive_writes_per_day = bytes written (page 0x02 param 5, else 0x19) / capacity / powered-on days.

",
    sgctl::exit_help_text!(),
    "

PROMETHEUS: --prometheus prints node_exporter textfile-collector format; metric names:
  sgctl_health_read_ok, sgctl_health_state, sgctl_health_exit_bits,
  sgctl_endurance_used_percent, sgctl_endurance_remaining_days, sgctl_drive_writes_per_day,
  sgctl_bytes_written_total, sgctl_capacity_bytes, sgctl_power_on_hours,
  sgctl_temperature_celsius, sgctl_temperature_trip_celsius,
  sgctl_temperature_lifetime_max_celsius, sgctl_grown_defects, sgctl_pending_defects,
  sgctl_uncorrected_errors_total{direction}, sgctl_non_medium_errors_total,
  sgctl_self_test_failures, sgctl_informational_exception{asc,ascq}, sgctl_failure_predicted,
  sgctl_sas_phy_invalid_dwords_total{port,phy}, sgctl_sas_phy_running_disparity_errors_total,
  sgctl_sas_phy_loss_of_dword_sync_total, sgctl_sas_phy_reset_problems_total,
  sgctl_start_stop_cycles_total, sgctl_load_unload_cycles_total
  (every series is labelled device, serial, model; enclosure and slot for a drive in an
  enclosure the kernel knows)"
);

/// Health report per drive.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub(crate) struct HealthArgs {
    /// Device addresses.
    #[arg(value_name = "DEVICE", required_unless_present_any = ["all", "enclosure"])]
    pub devices: Vec<String>,
    /// Every SCSI disk (/dev/sgN with peripheral type 0 in sysfs).
    #[arg(long, conflicts_with_all = ["devices", "enclosure"])]
    pub all: bool,
    /// Also every disk the kernel places in enclosure ID (logical identifier, as `sgctl scan`
    /// shows it), optionally only slots SLOTS (`0-11`, `3`, `0-3,8`).
    #[arg(long, value_name = "ID[:SLOTS]")]
    pub enclosure: Option<String>,
    /// Upper limit METRIC=N (repeatable).
    #[arg(long = "max", value_name = "METRIC=N")]
    pub max: Vec<String>,
    /// Lower limit METRIC=N (repeatable).
    #[arg(long = "min", value_name = "METRIC=N")]
    pub min: Vec<String>,
    /// Rules file (TOML subset, see below).
    #[arg(long, value_name = "FILE")]
    pub rules: Option<PathBuf>,
    /// Print node_exporter textfile-collector format instead of text.
    #[arg(long)]
    pub prometheus: bool,
    /// How long to wait for all drives together (a duration: 60, 60s, 2m); a drive still busy after that is reported as
    /// timed out (bit 2) and does not hold up the others.
    #[arg(long, default_value_t = 60.0, value_name = "DURATION", value_parser = super::num::timeout_seconds)]
    pub timeout: f64,
    /// Root for sysfs lookups of --all, --enclosure and the slot labels (tests use a fake tree).
    #[arg(long, default_value = "/", hide = true)]
    pub sysroot: PathBuf,
}

#[derive(Debug, Serialize)]
struct HealthData {
    drives: Vec<DriveHealth>,
    exit_bits: u8,
}

fn load_rules(args: &HealthArgs) -> sgctl::Result<Vec<rules::Rule>> {
    let mut out = Vec::new();
    if let Some(p) = &args.rules {
        let text =
            std::fs::read_to_string(p).map_err(|e| sgctl::Error::io(p.display().to_string(), e))?;
        out.extend(rules::parse_file(&text)?);
    }
    for m in &args.max {
        out.push(rules::parse_flag(rules::Bound::Max, m)?);
    }
    for m in &args.min {
        out.push(rules::parse_flag(rules::Bound::Min, m)?);
    }
    Ok(out)
}

fn opt<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map(|v| v.to_string()).unwrap_or_else(|| "-".into())
}

fn render_drive(h: &DriveHealth) -> String {
    let mut o = String::new();
    let state = match h.state {
        State::Ok => "OK",
        State::Warning => "WARNING",
        State::Failing => "FAILING",
        State::Unreadable => "UNREADABLE",
    };
    let _ = writeln!(
        o,
        "{}  {} {} {}  serial {}  state: {}  (exit bits 0x{:02x})",
        h.device,
        opt(h.vendor.as_deref()),
        opt(h.model.as_deref()),
        opt(h.revision.as_deref()),
        opt(h.serial.as_deref()),
        state,
        h.exit_bits
    );
    if let Some(e) = &h.enclosure {
        let slot = h.slot.map_or_else(|| "-".to_string(), |s| s.to_string());
        let _ = writeln!(o, "  enclosure {e} slot {slot}");
    }
    if h.state != State::Unreadable {
        let e = &h.endurance;
        let _ = writeln!(
            o,
            "  endurance used       {} %   power-on {} h   written {} bytes   DWPD {}",
            opt(e.used_percent),
            opt(e.power_on_hours.map(|v| format!("{v:.1}"))),
            opt(e.bytes_written),
            opt(e.drive_writes_per_day.map(|v| format!("{v:.3}")))
        );
        match (&e.projected_wear_out_date, e.remaining_days) {
            (Some(d), Some(r)) => {
                let _ = writeln!(
                    o,
                    "  projected wear-out   {d}  ({r:.0} days at the observed rate)"
                );
            }
            _ => {
                let _ = writeln!(
                    o,
                    "  projected wear-out   -  ({})",
                    opt(e.projection_note.as_deref())
                );
            }
        }
        let t = &h.temperature;
        let _ = writeln!(
            o,
            "  temperature          {} C  (trip {}, critical {}, operating {}, lifetime max {})",
            opt(t.current_c),
            opt(t.drive_trip_c),
            opt(t.high_critical_limit_c),
            opt(t.high_operating_limit_c),
            opt(t.lifetime_max_c)
        );
        let d = &h.defects;
        let _ = writeln!(
            o,
            "  defects              grown {}, pending {}, background scan {}",
            opt(d.grown),
            opt(d.pending),
            opt(d.background_scan_entries)
        );
        let er = &h.errors;
        let _ = writeln!(
            o,
            "  uncorrected errors   read {}, write {}, verify {};  non-medium {}",
            opt(er.read_uncorrected),
            opt(er.write_uncorrected),
            opt(er.verify_uncorrected),
            opt(er.non_medium)
        );
        if let Some(l) = &h.self_test.last {
            let failure = match (l.failed, l.first_failure_lba) {
                (true, Some(lba)) => format!(
                    " (LBA 0x{lba:x}, sense {:X}/{:02X}/{:02X})",
                    l.sense_key, l.asc, l.ascq
                ),
                _ => String::new(),
            };
            let _ = writeln!(
                o,
                "  self-test            last: {}, {}{failure} at {} h;  {} failed of {}",
                l.self_test,
                l.result,
                opt(l.power_on_hours),
                h.self_test.failed_entries,
                h.self_test.entries
            );
        }
        if let Some(ie) = &h.informational_exception {
            let _ = writeln!(
                o,
                "  info. exception      {:02X}/{:02X} {}",
                ie.asc, ie.ascq, ie.description
            );
        }
        for p in &h.sas_phys {
            let _ = writeln!(
                o,
                "  SAS port {} phy {}     {}  invalid dwords {}, disparity {}, loss of sync {}, reset problems {}",
                p.relative_target_port,
                p.phy_identifier,
                p.negotiated_rate,
                opt(p.invalid_dword_count),
                opt(p.running_disparity_error_count),
                opt(p.loss_of_dword_synchronization),
                opt(p.phy_reset_problem)
            );
        }
        if let Some(crc) = h.errors.interface_crc {
            let _ = writeln!(o, "  SATA link            interface CRC errors {crc}");
        }
        let c = &h.cycles;
        if c.start_stop.is_some() || c.load_unload.is_some() {
            let _ = writeln!(
                o,
                "  cycles               start-stop {} of {}, load-unload {} of {}",
                opt(c.start_stop),
                opt(c.start_stop_specified),
                opt(c.load_unload),
                opt(c.load_unload_specified)
            );
        }
        if !h.sources.is_empty() {
            let _ = writeln!(
                o,
                "  sources (SATA behind a SATL, read with ATA PASS-THROUGH):"
            );
            for (k, v) in &h.sources {
                let _ = writeln!(o, "    {k:<38} {v}");
            }
        }
        for r in &h.rules {
            let _ = writeln!(
                o,
                "  rule                 {} {} {}: {}",
                r.metric,
                if r.bound == rules::Bound::Max {
                    "<="
                } else {
                    ">="
                },
                r.limit,
                match (r.value, r.breached) {
                    (None, _) => "not reported by the drive; not evaluated".to_string(),
                    (Some(v), true) => format!("{v:.2} BREACHED"),
                    (Some(v), false) => format!("{v:.2} ok"),
                }
            );
        }
    }
    for r in &h.reasons {
        let _ = writeln!(o, "  ! {r}");
    }
    o
}

/// Runs `sgctl health`.
pub(crate) fn run(ctx: &mut Ctx, args: HealthArgs) -> anyhow::Result<Report> {
    let usage = |ctx: &mut Ctx, msg: String| {
        ctx.warn(msg);
        Ok(Report::new(None, &serde_json::Value::Null, String::new()).with_exit(bits::USAGE))
    };
    if args.prometheus && ctx.json {
        return usage(ctx, "--prometheus and --json are exclusive".into());
    }
    if !(args.timeout > 0.0 && args.timeout.is_finite()) {
        return usage(
            ctx,
            format!(
                "--timeout {}: must be a positive number of seconds",
                args.timeout
            ),
        );
    }
    let rules = match load_rules(&args) {
        Ok(r) => r,
        Err(e) => return usage(ctx, e.to_string()),
    };
    let devices = if args.all {
        match health::all_disks(&args.sysroot) {
            Ok(d) => {
                if d.is_empty() {
                    // As `scan`: a host without SCSI disks is a valid, empty result (a timer
                    // exporting metrics then writes an empty textfile, not an error).
                    ctx.warn(
                        "--all: no SCSI disk found under /sys/class/scsi_generic \
                         (virtual drives are not in sysfs: name them, e.g. sim:px02smf080)",
                    );
                }
                d
            }
            Err(e) => {
                ctx.warn(format!("--all: {e}"));
                return Ok(Report::new(None, &serde_json::Value::Null, String::new())
                    .with_exit(bits::OPEN_FAILED));
            }
        }
    } else if let Some(e) = &args.enclosure {
        let place = match crate::cli::erase::PlaceSelector::parse(e) {
            Ok(p) => p,
            Err(err) => return usage(ctx, err.to_string()),
        };
        let scan = sgctl::discover::scan(&sgctl::discover::ScanOptions {
            sysroot: args.sysroot.clone(),
            ..Default::default()
        })?;
        match crate::cli::erase::select(&scan, &args.devices, None, Some(&place)) {
            Ok(d) => d,
            Err(err) => return usage(ctx, err.to_string()),
        }
    } else {
        args.devices.clone()
    };
    let verbose = ctx.verbose;
    let opener: health::Opener = Arc::new(move |a: &str| {
        sgctl::device::open(a, sgctl::device::OpenOptions::traced(verbose)).map(|o| o.transport)
    });
    let drives = health::check_many(
        &devices,
        &rules,
        Duration::try_from_secs_f64(args.timeout).unwrap_or(Duration::from_secs(60)),
        opener,
    );
    let mut drives = drives;
    health::label_slots(&mut drives, &args.sysroot);
    let exit_bits = drives.iter().fold(0u8, |a, d| a | d.exit_bits);
    let text = if args.prometheus {
        health::prom::render(&drives)
    } else {
        drives
            .iter()
            .map(|h| {
                let mut o = render_drive(h);
                if ctx.hex {
                    // --hex: the log pages the report was computed from, as read.
                    for p in &h.raw_pages {
                        o.push_str(&sgctl::logpage::text::render(
                            &sgctl::logpage::decode(p),
                            true,
                        ));
                    }
                }
                o
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let device = (devices.len() == 1).then(|| devices[0].clone());
    let document = (ctx.json_format == super::output::JsonFormat::Smartctl)
        .then(|| super::health_smartctl::document(ctx, &drives));
    let data = HealthData { drives, exit_bits };
    let mut r = Report::new(device.as_deref(), &data, text).with_exit(exit_bits);
    r.document = document;
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_documents_every_bit_and_metric() {
        for (m, _) in rules::METRICS {
            assert!(AFTER_HELP.contains(m), "metric {m} missing from --help");
        }
        for (m, _, _) in health::prom::METRICS {
            assert!(
                AFTER_HELP.contains(m),
                "prometheus metric {m} missing from --help"
            );
        }
        for b in 0..8 {
            assert!(AFTER_HELP.contains(&format!("bit {b} ({})", 1u32 << b)));
        }
        assert!(AFTER_HELP.contains(health::EXIT_HELP));
    }
}
