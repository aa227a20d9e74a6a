//! `sgctl scan`: every SCSI drive with all its paths.

use super::{Ctx, Report};
use sgctl::discover::enclosure::Enclosure;
use sgctl::discover::{self, Drive, IdentMode, ScanOptions};
use std::path::PathBuf;

/// List SCSI drives grouped by logical unit, with every path (sg/sd/bsg, H:C:T:L, SAS target
/// port, relative port, HBA phy, link rate), identity, capacity and in-use state.
#[derive(Debug, clap::Args)]
pub(crate) struct ScanArgs {
    /// Read this directory instead of / (a captured tree with sys/, proc/ and optionally
    /// replay/sgN/*.bin; nothing is sent to devices then).
    #[arg(long, value_name = "DIR")]
    pub sysroot: Option<PathBuf>,
    /// The per-device discovery deadline.
    #[command(flatten)]
    pub timeout: super::paths::DiscoveryTimeout,
    /// Do not send commands even on the live system: use the kernel's cached INQUIRY/VPD copies.
    #[arg(long, conflicts_with = "live")]
    pub no_io: bool,
    /// Ask every device itself (INQUIRY, VPD, READ CAPACITY over SG_IO) instead of reading the
    /// kernel's copies first: slower, but a device that no longer answers shows up with an
    /// error in its row (exit 8). By default the scan sends commands only for what sysfs lacks.
    #[arg(long)]
    pub live: bool,
    /// Print only the device addresses, one a line (every path of every drive), from the
    /// kernel's copies without sending a command: what the shell completions offer for DEVICE.
    #[arg(long, conflicts_with = "live")]
    pub names: bool,
}

impl ScanArgs {
    /// The discovery options these arguments mean.
    pub(crate) fn options(&self, verbose: u8) -> ScanOptions {
        ScanOptions {
            sysroot: self.sysroot.clone().unwrap_or_else(|| PathBuf::from("/")),
            timeout: self.timeout.get(),
            verbose,
            mode: if self.no_io {
                IdentMode::Files
            } else if self.live {
                IdentMode::Live
            } else {
                IdentMode::Auto
            },
        }
    }
}

/// Runs `sgctl scan`.
pub(crate) fn run(ctx: &mut Ctx, args: ScanArgs) -> anyhow::Result<Report> {
    if args.names {
        return names(ctx, &args);
    }
    let opts = args.options(ctx.verbose);
    let scan = discover::scan(&opts)?;
    let mut t = discover::Phases::start();
    let mut text = String::new();
    if scan.drives.is_empty() {
        // One warning per line: stderr escapes a newline inside a message.
        ctx.warn(format!(
            "no SCSI devices found in {}/sys/class/scsi_device (no SCSI HBA or the kernel has no \
             SCSI subsystem)",
            scan.sysroot.trim_end_matches('/')
        ));
        ctx.warn(
            "virtual drives are not in sysfs; name one directly, e.g. `sgctl inquiry sim:px02smf080` \
             or `sgctl paths sim:px02smf080` (`sgctl sim list` shows the profiles)",
        );
        if !ctx.json {
            text = String::new();
        }
    } else {
        text = render(&scan.drives);
    }
    if !scan.enclosures.is_empty() {
        text.push('\n');
        text.push_str(&render_enclosures(&scan.enclosures));
    }
    let enc_problems: usize = scan.enclosures.iter().map(|e| e.problems.len()).sum();
    if enc_problems > 0 {
        ctx.warn(format!(
            "{enc_problems} problem(s) reading /sys/class/enclosure (see the enclosures)"
        ));
    }
    let failed = scan.drives.iter().filter(|d| d.has_errors()).count();
    let exit = if failed > 0 {
        ctx.warn(format!(
            "{failed} of {} drive(s) had errors (see their rows)",
            scan.drives.len()
        ));
        sgctl::exit::PARTIAL
    } else {
        sgctl::exit::OK
    };
    t.mark("text");
    let report = Report::new(None, &scan, text).with_exit(exit);
    t.mark("JSON value");
    Ok(report)
}

/// `scan --names`: the addresses a DEVICE argument takes, one a line, nothing sent to a
/// device (the kernel's cached copies); an empty list when there are none (exit 0, so a
/// completion stays quiet).
fn names(ctx: &mut Ctx, args: &ScanArgs) -> anyhow::Result<Report> {
    let mut opts = args.options(ctx.verbose);
    opts.mode = IdentMode::Files;
    let list: Vec<String> = match discover::scan(&opts) {
        Ok(scan) => {
            let mut v: Vec<String> = scan
                .drives
                .iter()
                .flat_map(|d| d.paths.iter().map(|p| p.address.clone()))
                .filter(|a| !a.is_empty())
                .collect();
            v.sort();
            v.dedup();
            v
        }
        Err(_) => Vec::new(),
    };
    let mut text = list.join("\n");
    if !text.is_empty() {
        text.push('\n');
    }
    Ok(Report::new(None, &list, text))
}

fn size(bytes: u64) -> String {
    const U: [&str; 6] = ["B", "kB", "MB", "GB", "TB", "PB"];
    let mut v = bytes as f64;
    let mut i = 0;
    while v >= 1000.0 && i < U.len() - 1 {
        v /= 1000.0;
        i += 1;
    }
    if i == 0 {
        format!("{bytes} B")
    } else {
        format!("{v:.1} {}", U[i])
    }
}

fn opt<T: ToString>(v: &Option<T>) -> String {
    v.as_ref().map(T::to_string).unwrap_or_else(|| "-".into())
}

fn rotation(r: Option<u16>) -> String {
    match r {
        None | Some(0) => "-".into(),
        Some(1) => "ssd".into(),
        Some(n) => format!("{n}rpm"),
    }
}

/// `enclosure 0x5006… slot 3 (VENDOR PRODUCT, "SLOT 03")`.
pub(crate) fn slot_line(s: &sgctl::host::SlotRef) -> String {
    let slot = s.slot.map_or_else(|| "-".to_string(), |n| n.to_string());
    let who: Vec<&str> = [s.vendor.as_deref(), s.product.as_deref()]
        .into_iter()
        .flatten()
        .collect();
    format!(
        "enclosure {} slot {slot} ({}{:?})",
        s.enclosure_key(),
        if who.is_empty() {
            String::new()
        } else {
            format!("{}, ", who.join(" "))
        },
        s.component
    )
}

/// The enclosures of a scan: one line each, then each component with its device and LEDs,
/// then problems.
pub(crate) fn render_enclosures(encs: &[Enclosure]) -> String {
    let mut out = String::new();
    for e in encs {
        out.push_str(&format!(
            "enclosure {} via {} ({} {}, {}) {} component(s)\n",
            opt(&e.id),
            e.name,
            opt(&e.vendor),
            opt(&e.product),
            opt(&e.sg),
            e.components_declared
                .map_or_else(|| e.components.len().to_string(), |n| n.to_string()),
        ));
        for c in &e.components {
            let flag = |b: Option<bool>| match b {
                Some(true) => "on",
                Some(false) => "off",
                None => "-",
            };
            out.push_str(&format!(
                "  slot {:<3} {:<12} {:<14} {:<8} locate {:<3} fault {:<3} {:?}\n",
                opt(&c.slot),
                opt(&c.kind),
                opt(&c.status),
                opt(&c.device),
                flag(c.locate),
                flag(c.fault),
                c.name,
            ));
        }
        for p in &e.problems {
            out.push_str(&format!("  problem: {p}\n"));
        }
    }
    out
}

/// The human table: one line per drive, one indented line per path, then problems.
pub(crate) fn render(drives: &[Drive]) -> String {
    let mut rows: Vec<[String; 10]> = vec![[
        "LU NAME".into(),
        "VENDOR".into(),
        "MODEL".into(),
        "SERIAL".into(),
        "FW".into(),
        "CAPACITY".into(),
        "LBS".into(),
        "PI".into(),
        "ROT".into(),
        "IN USE".into(),
    ]];
    for d in drives {
        rows.push([
            opt(&d.lu_name),
            opt(&d.vendor),
            opt(&d.model),
            opt(&d.serial),
            opt(&d.firmware),
            d.capacity_bytes.map(size).unwrap_or_else(|| "-".into()),
            opt(&d.logical_block_size),
            d.protection_type
                .map(|t| {
                    if t == 0 {
                        "-".into()
                    } else {
                        format!("type{t}")
                    }
                })
                .unwrap_or_else(|| "-".into()),
            rotation(d.rotation_rate),
            if d.in_use.is_empty() {
                "no".into()
            } else {
                "YES".into()
            },
        ]);
    }
    let mut w = [0usize; 10];
    for r in &rows {
        for (i, c) in r.iter().enumerate() {
            w[i] = w[i].max(c.chars().count());
        }
    }
    let line = |r: &[String; 10]| {
        let mut s = String::new();
        for (i, c) in r.iter().enumerate() {
            if i + 1 == r.len() {
                s.push_str(c);
            } else {
                s.push_str(&format!("{c:<width$}  ", width = w[i]));
            }
        }
        s.trim_end().to_string() + "\n"
    };
    let mut out = line(&rows[0]);
    for (d, r) in drives.iter().zip(rows.iter().skip(1)) {
        out.push_str(&line(r));
        for p in &d.paths {
            out.push_str(&format!(
                "  path {:<9} {:<9} {:<8} port {:<18} rel {:<2} phy {:<8} {}{}{}{}\n",
                opt(&p.sg),
                opt(&p.block),
                opt(&p.hctl),
                opt(&p.target_port),
                opt(&p.relative_port),
                opt(&p.hba_phy),
                opt(&p.link_rate),
                match p.state.as_deref() {
                    Some("running") | None => String::new(),
                    Some(s) => format!("  [{s}]"),
                },
                p.enclosure
                    .as_ref()
                    .map(|s| format!("  slot {} via {}", s.short(), s.enclosure_device))
                    .unwrap_or_default(),
                p.error
                    .as_ref()
                    .map(|e| format!("  ERROR: {e}"))
                    .unwrap_or_default(),
            ));
        }
        if let Some(s) = &d.enclosure {
            out.push_str(&format!("  {}\n", slot_line(s)));
        }
        for u in &d.in_use {
            out.push_str(&format!("  in use: {u}\n"));
        }
        for e in &d.errors {
            out.push_str(&format!("  error: {e}\n"));
        }
    }
    out
}
