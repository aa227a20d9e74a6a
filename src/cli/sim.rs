//! `sgctl sim ...`: list the virtual drive profiles, show a virtual drive's state, inject
//! faults into a state-file drive between invocations; `sim bench` is the media model's
//! (src/cli/sim_bench.rs).

use crate::cli::{Ctx, Report};
use anyhow::Context;
use sgctl::sim::{self, profile, Fault};
use std::time::Duration;

/// Virtual drives (`sim:` addresses).
#[derive(Debug, clap::Args)]
pub(crate) struct SimArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: SimCommand,
}

/// `sgctl sim` subcommands.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum SimCommand {
    /// List the drive profiles usable as `sim:PROFILE`.
    List,
    /// Show a virtual drive's state (format, protection, clock, wear).
    Info(InfoArgs),
    /// Inject faults into a virtual drive (persisted when the address has `state=FILE`).
    Fault(FaultArgs),
    /// Benchmark the media model of virtual drives (FOB vs steady state vs extra OP).
    Bench(super::sim_bench::BenchArgs),
    /// Serve a virtual drive to this kernel as a real SCSI disk (TCMU + tcm_loop; root).
    Serve(super::sim_serve::ServeArgs),
}

/// `sgctl sim info`.
#[derive(Debug, clap::Args)]
pub(crate) struct InfoArgs {
    /// A `sim:` address, e.g. `sim:px02smf080?state=/tmp/d.json`.
    pub device: String,
}

/// `sgctl sim fault`.
#[derive(Debug, clap::Args)]
pub(crate) struct FaultArgs {
    /// A `sim:` address with `state=FILE` (without one the fault would be lost on exit).
    pub device: String,
    /// Power cycle the drive now (UA 29/00; a format in progress is lost, a sanitize resumes).
    #[arg(long)]
    pub power_cycle: bool,
    /// Reset the logical unit now (UA 29/03).
    #[arg(long)]
    pub lu_reset: bool,
    /// The next N commands time out.
    #[arg(long, value_name = "N")]
    pub timeout: Option<u32>,
    /// The next N commands get BUSY status.
    #[arg(long, value_name = "N")]
    pub busy: Option<u32>,
    /// The next N commands fail with DID_NO_CONNECT (path lost).
    #[arg(long, value_name = "N")]
    pub disconnect: Option<u32>,
    /// Reads of LBA fail with MEDIUM ERROR 11/00 until it is rewritten (repeatable).
    #[arg(long, value_name = "LBA")]
    pub medium_error: Vec<u64>,
    /// The next FORMAT UNIT fails (31/01, then 31/00).
    #[arg(long)]
    pub fail_format: bool,
    /// The next SANITIZE fails (31/03).
    #[arg(long)]
    pub fail_sanitize: bool,
    /// The next SANITIZE (or ATA erase) reports success and erases nothing: a drive whose
    /// erase claim is false (validation must catch it).
    #[arg(long)]
    pub noop_sanitize: bool,
    /// Run this many degrees C hotter (negative: cooler) from now on.
    #[arg(long, value_name = "DEGREES", allow_hyphen_values = true)]
    pub heat: Option<i16>,
    /// Wear the flash to PERCENT of its rated P/E cycles (endurance used).
    #[arg(long, value_name = "PCT", value_parser = super::num::percent_whole)]
    pub wear: Option<u8>,
    /// Remove pending faults first.
    #[arg(long)]
    pub clear: bool,
    /// Move the drive's clock forward by DURATION (90, 90s, 2h) (finishes long operations early).
    #[arg(long, value_name = "DURATION", value_parser = super::num::span_seconds)]
    pub advance: Option<f64>,
}

/// Runs `sgctl sim`.
pub(crate) fn run(ctx: &mut Ctx, args: SimArgs) -> anyhow::Result<Report> {
    match args.command {
        SimCommand::Bench(a) => super::sim_bench::run(ctx, a),
        SimCommand::Serve(a) => super::sim_serve::run(ctx, a),
        SimCommand::List => Ok(list()),
        SimCommand::Info(a) => info(&a.device),
        SimCommand::Fault(a) => fault(ctx, a),
    }
}

fn spec(device: &str) -> anyhow::Result<&str> {
    sgctl::device::classify_address(device)
        .virtual_spec()
        .map(|v| v.as_str())
        .with_context(|| format!("{device}: not a sim: address"))
}

fn list() -> Report {
    let mut text = String::from("PROFILE      BLOCKS    PI   SANITIZE        SED   DESCRIPTION\n");
    for p in profile::PROFILES {
        let san = [
            (p.sanitize.overwrite, "ow"),
            (p.sanitize.block_erase, "be"),
            (p.sanitize.crypto_erase, "ce"),
        ]
        .iter()
        .filter(|(b, _)| *b)
        .map(|(_, n)| *n)
        .collect::<Vec<_>>()
        .join(",");
        let pi: String = sgctl::sim::cmd::format::supported_types(p)
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(",");
        text.push_str(&format!(
            "{:<12} {:<9} {:<4} {:<15} {:<5} {}\n",
            p.name,
            p.default_block_len,
            if pi.is_empty() { "-".into() } else { pi },
            if san.is_empty() { "-".into() } else { san },
            if p.sed.is_some() { "yes" } else { "no" },
            p.summary
        ));
    }
    text.push_str(
        "\nAddress: sim:PROFILE[?state=FILE&serial=S&capacity_gib=N&clock=real|virtual&...]\n",
    );
    Report::new(None, &profile::PROFILES, text)
}

fn info(device: &str) -> anyhow::Result<Report> {
    let dev = sim::open(spec(device)?)?;
    let i = dev.info();
    let text = format!(
        "profile {}  serial {}  LU name {}\nformat: {} x {} bytes, protection type {}{}{}\n\
         operation: {}\nclock: {:.1} s ({})  temperature {} C  endurance used {} %\n\
         host bytes written {}  blocks stored {}\n",
        // A state file is anyone's to edit: its strings are data, escaped for one line.
        sgctl::escape::escape(&i.profile),
        sgctl::escape::escape(&i.serial),
        sgctl::escape::escape(&i.lu_name.to_string()),
        i.logical_blocks,
        i.logical_block_length,
        i.protection_type,
        if i.format_corrupt {
            ", MEDIUM FORMAT CORRUPTED"
        } else {
            ""
        },
        if i.sanitize_failed {
            ", SANITIZE FAILED"
        } else {
            ""
        },
        i.operation
            .as_ref()
            .map(|(n, p)| format!("{} {p:.1}%", sgctl::escape::escape(&n.to_string())))
            .unwrap_or_else(|| "none".into()),
        i.clock_seconds,
        i.clock,
        i.temperature_c,
        i.endurance_used_percent,
        i.host_bytes_written,
        i.stored_blocks,
    );
    // The label, as printed on a real drive's case (the PSID only there).
    let l = &i.label;
    let mut text = text;
    text.push_str(&format!(
        "label: {} {}  FW {}  S/N {}  WWN {}\n",
        sgctl::escape::escape(&l.vendor),
        sgctl::escape::escape(&l.model),
        sgctl::escape::escape(&l.firmware),
        sgctl::escape::escape(&l.serial),
        sgctl::escape::escape(&l.wwn.to_string())
    ));
    if let Some(p) = &l.psid {
        text.push_str(&format!(
            "       PSID {}  (`sgctl tcg revert DEVICE --psid-file FILE` with it restores factory state)\n",
            sgctl::escape::escape(&p.to_string())
        ));
    }
    Ok(Report::new(Some(device), &i, text))
}

fn fault(ctx: &mut Ctx, a: FaultArgs) -> anyhow::Result<Report> {
    let spec = spec(&a.device)?;
    let (_, opts) = sim::parse_spec(spec)?;
    if opts.state.is_none() {
        ctx.warn("no state=FILE in the address: the fault only lasts for this invocation");
    }
    let dev = sim::open(spec)?;
    let mut done = Vec::new();
    if a.clear {
        dev.inject(Fault::Clear);
        done.push("clear".to_string());
    }
    if a.power_cycle {
        dev.inject(Fault::PowerCycle);
        done.push("power cycle".into());
    }
    if a.lu_reset {
        dev.inject(Fault::LuReset);
        done.push("LU reset".into());
    }
    if let Some(n) = a.timeout {
        dev.inject(Fault::Timeout(n));
        done.push(format!("timeout x{n}"));
    }
    if let Some(n) = a.busy {
        dev.inject(Fault::Busy(n));
        done.push(format!("busy x{n}"));
    }
    if let Some(n) = a.disconnect {
        dev.inject(Fault::Disconnect(n));
        done.push(format!("disconnect x{n}"));
    }
    for l in &a.medium_error {
        dev.inject(Fault::MediumError(*l));
        done.push(format!("medium error at LBA {l}"));
    }
    if a.fail_format {
        dev.inject(Fault::FailFormat);
        done.push("fail next format".into());
    }
    if a.fail_sanitize {
        dev.inject(Fault::FailSanitize);
        done.push("fail next sanitize".into());
    }
    if a.noop_sanitize {
        dev.inject(Fault::NoopSanitize);
        done.push("next sanitize erases nothing".into());
    }
    if let Some(c) = a.heat {
        dev.inject(Fault::Heat(c));
        done.push(format!("heat {c:+} C"));
    }
    if let Some(w) = a.wear {
        dev.inject(Fault::Wear(w));
        done.push(format!("wear {w} %"));
    }
    if let Some(s) = a.advance {
        let d = Duration::try_from_secs_f64(s).map_err(|_| {
            sgctl::Error::InvalidArgument(format!("--advance {s}: not a number of seconds"))
        })?;
        dev.clock().advance(d);
        done.push(format!("clock +{s} s"));
    }
    if done.is_empty() {
        anyhow::bail!("nothing to do: give at least one fault option (see --help)");
    }
    dev.save()?;
    let text = format!("{}: {}\n", a.device, done.join(", "));
    Ok(Report::new(
        Some(&a.device),
        &serde_json::json!({ "applied": done }),
        text,
    ))
}
