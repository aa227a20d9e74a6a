//! The `sgctl` command line. Each subcommand lives in its own file with an `Args` struct and a
//! `run` function returning a [`Report`]; this file only wires them together.

pub(crate) mod advice;
#[cfg(test)]
mod conventions;
pub(crate) mod device_completion;
pub(crate) mod gen_docs;
pub(crate) mod num;
pub(crate) mod output;
pub(crate) mod prompt;
pub(crate) mod signals;
pub(crate) mod tcg;
pub(crate) mod tcg_jobs;

// --- format and sanitize ---
pub(crate) mod erase;
pub(crate) mod format;
pub(crate) mod sanitize;
pub(crate) mod wait;

// --- health and logs ---
pub(crate) mod defects;
pub(crate) mod firmware;
pub(crate) mod health;
pub(crate) mod health_smartctl;
pub(crate) mod logs;
pub(crate) mod power;
pub(crate) mod reassign;
pub(crate) mod selftest;

// --- foundation: identification and query commands ---
pub(crate) mod decode;
pub(crate) mod fetch;
pub(crate) mod inquiry;
pub(crate) mod luns;
pub(crate) mod modes;
pub(crate) mod modes_set;
pub(crate) mod opcodes;
pub(crate) mod readcap;
pub(crate) mod sense;
pub(crate) mod tur;
pub(crate) mod vpd;

// --- virtual drive (the `sim` feature) ---
#[cfg(feature = "sim")]
pub(crate) mod sim;
#[cfg(feature = "sim")]
pub(crate) mod sim_bench;
// --- TCMU serving ---
#[cfg(feature = "sim")]
pub(crate) mod sim_serve;

// --- benchmark engine ---
pub(crate) mod bench;
// --- SATA behind SAT ---
pub(crate) mod ata;
pub(crate) mod ata_jobs;
// --- benchmark suites ---
pub(crate) mod bench_suite;

// --- discovery ---
pub(crate) mod led;
pub(crate) mod paths;
pub(crate) mod scan;

// --- persistent reservations ---
pub(crate) mod reservations;
// --- signed records ---
pub(crate) mod audit;
pub(crate) mod certificate;
pub(crate) mod record_args;

use clap::{Parser, Subcommand};
pub(crate) use output::{Ctx, Report};

/// Device address help, shown after the subcommand list together with [`sgctl::exit::TABLE`].
pub(crate) const ADDRESS_HELP: &str = "\
DEVICE ADDRESSES:
  /dev/sgN            SCSI generic node (SG_IO v3)
  /dev/sdX            block node (SG_IO v3 through the block layer; filtered without CAP_SYS_RAWIO)
  /dev/bsg/H:C:T:L    bsg node (sg_io_v4)
  sim:PROFILE[?opts]  built-in virtual SAS SSD (try `sgctl sim list`), e.g.
                      sim:px02smf080  or  sim:exarray?state=/tmp/d.json&capacity_gib=1";

/// The full after-help text.
pub(crate) fn after_help() -> String {
    format!("{ADDRESS_HELP}\n\n{}", sgctl::exit::TABLE)
}

/// The whole command line as clap sees it: what `main` parses and what `xtask gen-docs` renders
/// into the man pages and shell completions.
pub(crate) fn command() -> clap::Command {
    hint_values(<Cli as clap::CommandFactory>::command().after_help(after_help()))
}

/// The value-hint convention of docs/cli-conventions.md, applied to the whole tree: a value
/// that is neither a path (clap marks `PathBuf` values as paths) nor one of a fixed list is
/// `ValueHint::Other`, so shell completions stop offering file names for `--rw`, `--max`,
/// a device address and the like. A hint a definition sets itself is kept.
fn hint_values(cmd: clap::Command) -> clap::Command {
    let names: Vec<String> = cmd
        .get_arguments()
        .filter(|a| {
            matches!(
                a.get_action(),
                clap::ArgAction::Set | clap::ArgAction::Append
            ) && a.get_value_hint() == clap::ValueHint::Unknown
                && a.get_possible_values().is_empty()
        })
        .map(|a| a.get_id().to_string())
        .collect();
    let mut cmd = cmd;
    for n in names {
        cmd = cmd.mut_arg(n, |a| a.value_hint(clap::ValueHint::Other));
    }
    cmd.mut_subcommands(hint_values)
}

/// sgctl: manage, health-check, format and sanitize SAS/SCSI drives.
#[derive(Debug, Parser)]
#[command(name = "sgctl", version, about, long_about = None, arg_required_else_help = true)]
pub(crate) struct Cli {
    /// Print one JSON document instead of text: sgctl's envelope + data, or with
    /// `--json=smartctl` (health only) smartctl's key names and layout.
    #[arg(
        long,
        global = true,
        value_name = "FORMAT",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "sgctl",
        value_enum
    )]
    pub json: Option<output::JsonFormat>,
    /// Print each CDB and the response/sense bytes on stderr (repeat for more).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,
    /// Dump the raw response in hex instead of decoding it.
    #[arg(long, global = true)]
    pub hex: bool,
    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands. Each block belongs to one feature area; add new commands inside its block.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    // --- foundation: identification and raw commands ---
    /// Standard INQUIRY data (vendor, product, revision, PROTECT, MultiP) and serial number.
    Inquiry(inquiry::InquiryArgs),
    /// A VPD page (default: the list of supported pages).
    Vpd(vpd::VpdArgs),
    /// READ CAPACITY (16), or (10): size, block lengths, protection, provisioning.
    Readcap(readcap::ReadcapArgs),
    /// REPORT SUPPORTED OPERATION CODES: the commands the device implements.
    Opcodes(opcodes::OpcodesArgs),
    /// TEST UNIT READY (exit 0 when ready, 4 with the sense data when not).
    Tur(tur::TurArgs),
    /// REQUEST SENSE: current sense data (progress of a format or sanitize).
    Sense(sense::SenseArgs),
    /// REPORT LUNS with each LUN decoded.
    Luns(luns::LunsArgs),
    /// MODE SENSE: header, block descriptors and decoded mode pages.
    Modes(modes::ModesArgs),
    /// Decode a saved response (sg3_utils --inhex format) without the device.
    Decode(decode::DecodeArgs),
    // --- virtual drive ---
    /// Virtual drives: list profiles, show state, inject faults, benchmark the media model.
    #[cfg(feature = "sim")]
    Sim(sim::SimArgs),
    // --- discovery ---
    /// List SCSI drives grouped by logical unit with all their paths.
    Scan(scan::ScanArgs),
    /// Show every path of the drive a device belongs to.
    Paths(paths::PathsArgs),
    /// Switch the locate (identify) LED of a drive's enclosure slot on or off.
    Locate(led::LedArgs),
    /// Switch the fault LED of a drive's enclosure slot on or off.
    Fault(led::LedArgs),
    // --- TCMU serving is `sim serve` ---

    // --- health and logs ---
    /// Read and decode log pages (LOG SENSE), like sg_logs.
    Logs(logs::LogsArgs),
    /// Health report per drive: endurance and projection, temperature, defects, errors,
    /// self-tests, failure prediction, SAS phys; rules and an exit bit mask.
    Health(health::HealthArgs),
    /// Self-tests: start short/extended (background or foreground), abort, show progress and
    /// the Self-Test Results log.
    Selftest(selftest::SelftestArgs),
    /// READ DEFECT DATA: the grown (or primary) defect list, count and entries.
    Defects(defects::DefectsArgs),
    /// START STOP UNIT with power conditions (active, idle, standby, stop, start) and the
    /// power condition REQUEST SENSE reports.
    Power(power::PowerArgs),
    /// REASSIGN BLOCKS: move blocks to spares (grown defect list), behind the safety gate.
    Reassign(reassign::ReassignArgs),
    /// Download microcode (WRITE BUFFER modes 5, 7, 0xd, 0xe; activation 0Fh) behind the
    /// safety gate, the new revision verified.
    Firmware(firmware::FirmwareArgs),
    // --- format and sanitize ---
    /// Format drives: block size, protection type, capacity (verified; destroys data).
    Format(format::FormatArgs),
    /// Sanitize drives: crypto/block erase or overwrite (verified, recorded; destroys data).
    Sanitize(sanitize::SanitizeArgs),
    /// Watch a running format or sanitize until it ends.
    Wait(wait::WaitArgs),
    // --- benchmark ---
    /// Benchmark a drive: `bench run` issues one workload (like a fio job) through io_uring,
    /// sg or the virtual drive and reports IOPS, latency percentiles, CPU per I/O.
    Bench(bench::BenchArgs),
    // --- TCG ---
    /// TCG Storage: Level 0 discovery, Enterprise bands (lock, unlock, crypto erase), ownership, PSID revert.
    Tcg(tcg::TcgArgs),
    // --- persistent reservations ---
    /// SCSI-3 persistent reservations: keys, holder, type, per target port (read-only).
    Reservations(reservations::ReservationsArgs),
    // --- signed records ---
    /// Audit log: verify the hash chain (changed, removed or reordered records).
    Audit(audit::AuditArgs),
    /// Certificates: verify the Ed25519 signature; create a signing key.
    Certificate(certificate::CertificateArgs),
    // --- SATA behind SAT ---
    /// ATA side of a SATA drive behind a SATL: IDENTIFY, SMART, logs (ATA PASS-THROUGH).
    Ata(ata::AtaArgs),
}

/// Runs the parsed command. A virtual drive whose state file could not be saved when its last
/// handle went away (a full or read-only file system) did not keep what the command did: the
/// command then fails (exit 1) with the save's error, whatever it reported.
pub(crate) fn run(ctx: &mut Ctx, cmd: Command) -> anyhow::Result<Report> {
    let r = dispatch(ctx, cmd);
    #[cfg(feature = "sim")]
    {
        let failed = sgctl::sim::take_save_failures();
        if let Some(first) = failed.first() {
            let e = sgctl::Error::io(
                "the virtual drive's state was not saved",
                std::io::Error::other(first.clone()),
            );
            return match r {
                Ok(_) => Err(anyhow::anyhow!(e)),
                Err(orig) => Err(orig.context(e.to_string())),
            };
        }
    }
    r
}

fn dispatch(ctx: &mut Ctx, cmd: Command) -> anyhow::Result<Report> {
    if ctx.json_format == output::JsonFormat::Smartctl && !matches!(cmd, Command::Health(_)) {
        return Err(sgctl::Error::InvalidArgument(
            "--json=smartctl is the layout of `sgctl health` only; use --json for this command"
                .into(),
        )
        .into());
    }
    match cmd {
        // --- foundation ---
        Command::Inquiry(a) => inquiry::run(ctx, a),
        Command::Vpd(a) => vpd::run(ctx, a),
        Command::Readcap(a) => readcap::run(ctx, a),
        Command::Opcodes(a) => opcodes::run(ctx, a),
        Command::Tur(a) => tur::run(ctx, a),
        Command::Sense(a) => sense::run(ctx, a),
        Command::Luns(a) => luns::run(ctx, a),
        Command::Modes(a) => modes::run(ctx, a),
        Command::Decode(a) => decode::run(ctx, a),
        // --- virtual drive ---
        #[cfg(feature = "sim")]
        Command::Sim(a) => sim::run(ctx, a),
        // --- discovery ---
        Command::Scan(a) => scan::run(ctx, a),
        Command::Paths(a) => paths::run(ctx, a),
        Command::Locate(a) => led::run(ctx, sgctl::ops::led::Led::Locate, a),
        Command::Fault(a) => led::run(ctx, sgctl::ops::led::Led::Fault, a),
        // --- health and logs ---
        Command::Logs(a) => logs::run(ctx, a),
        Command::Health(a) => health::run(ctx, a),
        Command::Selftest(a) => selftest::run(ctx, a),
        Command::Defects(a) => defects::run(ctx, a),
        Command::Power(a) => power::run(ctx, a),
        Command::Reassign(a) => reassign::run(ctx, a),
        Command::Firmware(a) => firmware::run(ctx, a),
        // --- format and sanitize ---
        Command::Format(a) => format::run(ctx, a),
        Command::Sanitize(a) => sanitize::run(ctx, a),
        Command::Wait(a) => wait::run(ctx, a),
        // --- benchmark ---
        Command::Bench(a) => bench::run(ctx, a),
        // --- TCG ---
        Command::Tcg(a) => tcg::run(ctx, a),
        Command::Reservations(a) => reservations::run(ctx, a),
        // --- signed records ---
        Command::Audit(a) => audit::run(ctx, a),
        Command::Certificate(a) => certificate::run(ctx, a),
        // --- SATA behind SAT ---
        Command::Ata(a) => ata::run(ctx, a),
    }
}
