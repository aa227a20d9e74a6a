//! `sgctl locate DEV --on|--off` and `sgctl fault DEV --on|--off`: a drive slot's LEDs.

use super::{Ctx, Report};
use serde::Serialize;
use sgctl::discover::{self, IdentMode, ScanOptions};
use sgctl::ops::led::{self, Led, LedChange};
use std::path::PathBuf;
use std::time::Duration;

const AFTER_HELP: &str = "\
The slot is found from the drive's paths and /sys/class/enclosure (the kernel's ses driver):
every enclosure component linked to a path of the drive is written (a dual-ported drive behind
two expanders has one in each; both drive the same LED). A component already in the requested
state is not written. Each change is appended to the audit log.

Where no kernel enclosure holds the drive (no ses driver), the enclosure services devices
(peripheral type 0Dh, found by a scan, or named with --enclosure-device) are asked over SG_IO:
the slot whose Additional Element Status lists one of the drive's SAS addresses is changed
with an Enclosure Control page (SES-4), and the status page is read back to check the LED.
--dry-run prints the control page it would send.

Exit status: 0 done (or already so), 2 usage, 3 no such device, 4 the enclosure refused the
write (or still reports the old state), 6 refused (the attribute is not a regular file, or a
symlink), 7 no enclosure holds the drive, 1 the audit record could not be written.

Examples:
  sgctl locate /dev/sdq --on          light the slot's locate LED
  sgctl fault naa.5000c50000a00003 --off --json
  sgctl locate /dev/sg7 --on --dry-run   show the component(s) it would write
  sgctl locate /dev/sdq --on --enclosure-device /dev/sg9   through that SES device's pages";

/// Switch a drive slot's LED on or off.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
#[command(group(clap::ArgGroup::new("state").required(true).args(["on", "off"])))]
pub(crate) struct LedArgs {
    /// /dev/sgN, /dev/sdX, /dev/bsg/H:C:T:L, H:C:T:L or an LU name (naa.…).
    pub device: String,
    /// Switch the LED on.
    #[arg(long, conflicts_with = "off")]
    pub on: bool,
    /// Switch the LED off.
    #[arg(long)]
    pub off: bool,
    /// Show what would be written; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Audit log [default: $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl].
    #[arg(long, value_name = "FILE")]
    pub audit_log: Option<PathBuf>,
    /// Read this directory instead of / (a sysfs tree; see `sgctl scan --sysroot`).
    #[arg(long, value_name = "DIR")]
    pub sysroot: Option<PathBuf>,
    /// Drive the LED with SES pages through this enclosure services device (repeatable; a
    /// `sim:enclosure` address, or /dev/sgN where the ses driver is not loaded) instead of
    /// /sys/class/enclosure.
    #[arg(long, value_name = "ADDR")]
    pub enclosure_device: Vec<String>,
    /// The per-device discovery deadline.
    #[command(flatten)]
    pub timeout: super::paths::DiscoveryTimeout,
}

#[derive(Serialize)]
struct LedData {
    led: Led,
    requested: &'static str,
    dry_run: bool,
    lu_name: Option<String>,
    serial: Option<String>,
    changes: Vec<LedChange>,
    audit_log: Option<String>,
}

/// Runs `sgctl locate` / `sgctl fault`.
pub(crate) fn run(ctx: &mut Ctx, which: Led, args: LedArgs) -> anyhow::Result<Report> {
    let on = args.on;
    let root = args.sysroot.clone().unwrap_or_else(|| PathBuf::from("/"));
    let opts = ScanOptions {
        sysroot: root.clone(),
        timeout: args.timeout.get(),
        verbose: ctx.verbose,
        mode: IdentMode::Auto,
    };
    // One scan finds the drive's paths and, should no kernel enclosure link it, the
    // enclosure services devices to ask.
    let (drive, scan) = discover::paths_and_scan(&args.device, &opts)?;
    let paths: Vec<_> = drive
        .paths
        .iter()
        .map(discover::DrivePath::to_path_info)
        .collect();
    let mut data = LedData {
        led: which,
        requested: if on { "on" } else { "off" },
        dry_run: args.dry_run,
        lu_name: drive.lu_name.clone(),
        serial: drive.serial.clone(),
        changes: Vec::new(),
        audit_log: None,
    };
    let timeout = args.timeout.get();
    let backends = if args.enclosure_device.is_empty() {
        match led::components_of(&root, &paths) {
            Ok(c) => led::sysfs_backends(&c),
            Err(e) => {
                // Not through a tree someone else made: its device nodes are not this host's.
                let ses = if root == std::path::Path::new("/")
                    && !sgctl::device::is_virtual_address(&args.device)
                {
                    let devices = scan
                        .as_ref()
                        .map(sgctl::ops::led::ses::ses_device_addresses)
                        .unwrap_or_default();
                    ses_search(ctx, &devices, &drive, timeout)
                } else {
                    Vec::new()
                };
                if ses.is_empty() {
                    let why = if sgctl::device::is_virtual_address(&args.device) {
                        "a virtual drive sits in no enclosure (name its virtual enclosure with \
                         --enclosure-device sim:enclosure?...)"
                            .to_string()
                    } else {
                        e.to_string()
                    };
                    ctx.warn(format!("{}: {why}", args.device));
                    return Ok(Report::new(Some(&args.device), &data, String::new())
                        .with_exit(sgctl::exit::UNSUPPORTED));
                }
                ses
            }
        }
    } else {
        let ses = ses_search(ctx, &args.enclosure_device, &drive, timeout);
        if ses.is_empty() {
            ctx.warn(format!(
                "{}: no enclosure holds the drive: none of the {} enclosure services device(s) \
                 named lists its SAS address(es) in a slot",
                args.device,
                args.enclosure_device.len()
            ));
            return Ok(Report::new(Some(&args.device), &data, String::new())
                .with_exit(sgctl::exit::UNSUPPORTED));
        }
        ses
    };
    data.changes = led::apply(&backends, which, on, args.dry_run);
    let written = data.changes.iter().any(|c| c.written);
    let failed: Vec<&LedChange> = data.changes.iter().filter(|c| c.error.is_some()).collect();
    let mut exit = sgctl::exit::OK;
    if !failed.is_empty() {
        let refused = failed.iter().all(|c| {
            c.error
                .as_deref()
                .is_some_and(|e| e.contains("symbolic link") || e.contains("regular file"))
        });
        exit = if refused {
            sgctl::exit::REFUSED
        } else {
            sgctl::exit::COMMAND
        };
    }
    if !args.dry_run && (written || !failed.is_empty()) {
        let audit = sgctl::ops::audit::AuditLog::resolve(args.audit_log.as_deref());
        let rec = led::audit_record(
            which,
            on,
            &args.device,
            drive.serial.as_deref(),
            drive.lu_name.as_deref(),
            &data.changes,
        );
        match audit.append(&rec) {
            Ok(()) => data.audit_log = Some(audit.path().display().to_string()),
            Err(e) => {
                ctx.warn(format!(
                    "the LED was changed but its audit record could not be written: {e}"
                ));
                if exit == sgctl::exit::OK {
                    exit = sgctl::exit::OTHER;
                }
            }
        }
    }
    let text = render(&args.device, &data);
    Ok(Report::new(Some(&args.device), &data, text).with_exit(exit))
}

/// The SES backends of the slots in `devices` holding `drive` (matched by the target port
/// SAS addresses its paths report); devices that could not be read are warned about.
fn ses_search(
    ctx: &mut Ctx,
    devices: &[String],
    drive: &discover::Drive,
    timeout: Duration,
) -> Vec<(sgctl::host::SlotRef, Box<dyn led::LedBackend>)> {
    let Some(found) = led::ses_search(drive, devices, timeout) else {
        return Vec::new();
    };
    for e in found.errors {
        ctx.warn(e);
    }
    found.backends
}

fn state(b: Option<bool>) -> &'static str {
    match b {
        Some(true) => "on",
        Some(false) => "off",
        None => "unknown",
    }
}

fn render(device: &str, d: &LedData) -> String {
    let mut out = String::new();
    for c in &d.changes {
        let what = if let Some(e) = &c.error {
            format!("FAILED: {e}")
        } else if d.dry_run {
            format!(
                "is {}; would {}",
                state(c.before),
                if c.before == Some(d.requested == "on") {
                    "leave it".to_string()
                } else if let Some(p) = &c.planned_page {
                    format!("send to {} the Enclosure Control page {p}", c.target)
                } else {
                    format!("write {}", c.target)
                }
            )
        } else if c.written {
            format!("{} -> {}", state(c.before), state(c.after))
        } else {
            format!("already {}", state(c.before))
        };
        out.push_str(&format!(
            "{device}: {} {}: {} via {}: {what}\n",
            d.led.attribute(),
            d.requested,
            super::scan::slot_line(&c.enclosure),
            c.enclosure.enclosure_device,
        ));
    }
    if let Some(a) = &d.audit_log {
        out.push_str(&format!("audit record in {a}\n"));
    }
    out
}
