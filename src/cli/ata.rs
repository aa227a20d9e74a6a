//! `sgctl ata identify|smart|logs DEVICE`: the ATA side of a SATA drive behind a SATL (an HBA's
//! SCSI/ATA translation, libata), reached with ATA PASS-THROUGH like `smartctl -d sat`,
//! `hdparm` and `sg_sat_identify`. `--inhex` decodes saved bytes (support bundles).

use super::{Ctx, Report};
use anyhow::{bail, Context};
use serde::Serialize;
use sgctl::ata::{identify, log, smart};
use sgctl::bytes::{hexdump, parse_inhex};
use sgctl::scsi::ata_pass_through::CdbSize;
use std::fmt::Write as _;
use std::path::PathBuf;

/// ATA commands through SAT ATA PASS-THROUGH.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
The drive must be an ATA device behind a SCSI/ATA Translation Layer: INQUIRY vendor \"ATA\",
VPD page 0x89 (SAS HBAs with SATA drives, libata, USB bridges with SAT). Each command is sent
as ATA PASS-THROUGH(16) (85h) by default, as smartctl -d sat and sg_sat_identify do; --cdb 12
uses ATA PASS-THROUGH(12) (A1h) for 28-bit commands, --cdb 32 the (32) form (7Fh/1FF0h).
ATA errors are shown with their registers (ABRT, UNC, IDNF, ICRC, DF).

--inhex FILE decodes saved bytes instead of a device (hex as sg3_utils writes it, '#'
comments): 512 bytes of IDENTIFY DEVICE data; 512 bytes of SMART READ DATA optionally followed
by 512 of SMART READ THRESHOLDS; for logs, --log ADDR names the log the pages belong to.
--hex prints the raw sectors.

EXAMPLES:
  sgctl ata identify /dev/sg2          model, serial, capacity, security and sanitize state
  sgctl ata smart sim:hk4e --json      attributes with thresholds, self-assessment
  sgctl ata logs /dev/sg2              directory, device statistics (all pages), self-tests,
                                       NCQ command error, current device internal status
  sgctl ata logs --log 0x04 --inhex devstat.hex")]
pub(crate) struct AtaArgs {
    /// What to read.
    #[command(subcommand)]
    pub what: AtaCommand,
}

/// `sgctl ata` subcommands.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum AtaCommand {
    /// IDENTIFY DEVICE: identity, capacity, sector sizes, features, Security and Sanitize words.
    Identify(Common),
    /// SMART READ DATA and THRESHOLDS: attributes, self-assessment (SMART RETURN STATUS).
    Smart(Common),
    /// Logs (READ LOG EXT): directory, Device Statistics, self-test, NCQ error, internal status.
    Logs(LogsArgs),
}

/// Arguments every `ata` subcommand takes.
#[derive(Debug, clap::Args)]
pub(crate) struct Common {
    /// Device address (/dev/sgN, /dev/sdX, /dev/bsg/H:C:T:L, sim:PROFILE).
    #[arg(required_unless_present = "inhex")]
    pub device: Option<String>,
    /// ATA PASS-THROUGH CDB size: 12, 16 or 32.
    #[arg(long, default_value_t = 16, value_parser = parse_cdb_size)]
    pub cdb: u8,
    /// Decode bytes from a file instead of a device.
    #[arg(long, value_name = "FILE")]
    pub inhex: Option<PathBuf>,
}

/// `sgctl ata logs` arguments.
#[derive(Debug, clap::Args)]
pub(crate) struct LogsArgs {
    /// Device, CDB size and --inhex.
    #[command(flatten)]
    pub common: Common,
    /// Only this log address (00h directory, 04h device statistics, 06h/07h self-test, 10h
    /// NCQ command error, 24h current device internal status); decimal or 0x hex.
    #[arg(long, value_name = "ADDR")]
    pub log: Option<String>,
}

fn parse_cdb_size(s: &str) -> Result<u8, String> {
    match s {
        "12" => Ok(12),
        "16" => Ok(16),
        "32" => Ok(32),
        _ => Err(format!("'{s}': ATA PASS-THROUGH comes as 12, 16 or 32")),
    }
}

fn cdb_size(n: u8) -> CdbSize {
    match n {
        12 => CdbSize::Twelve,
        32 => CdbSize::ThirtyTwo,
        _ => CdbSize::Sixteen,
    }
}

fn read_hex(path: &PathBuf) -> anyhow::Result<Vec<u8>> {
    let s = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    Ok(parse_inhex(&s).map_err(sgctl::Error::Parse)?)
}

/// Opens `dev` and checks that it is an ATA device behind a SATL.
fn open_satl(ctx: &Ctx, dev: &str) -> anyhow::Result<Box<dyn sgctl::Transport>> {
    let mut t =
        sgctl::device::open(dev, sgctl::device::OpenOptions::traced(ctx.verbose))?.transport;
    let inq = super::fetch::standard_inquiry(t.as_mut()).ok();
    let vendor = inq.as_ref().and_then(|b| {
        sgctl::scsi::inquiry::parse(b)
            .ok()
            .map(|i| i.t10_vendor_identification)
    });
    if !sgctl::cmd::ata::is_behind_satl(t.as_mut(), vendor.as_deref()) {
        return Err(sgctl::Error::Unsupported(format!(
            "{dev} is not an ATA device behind a SATL (INQUIRY vendor {:?}, no VPD page 0x89); \
             use `sgctl logs`/`sgctl health` for SCSI drives",
            vendor.unwrap_or_default()
        ))
        .into());
    }
    Ok(t)
}

/// Runs `sgctl ata`.
pub(crate) fn run(ctx: &mut Ctx, args: AtaArgs) -> anyhow::Result<Report> {
    match args.what {
        AtaCommand::Identify(c) => run_identify(ctx, c),
        AtaCommand::Smart(c) => run_smart(ctx, c),
        AtaCommand::Logs(l) => run_logs(ctx, l),
    }
}

fn yn(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

/// Text rendering of IDENTIFY (hdparm -I / smartctl -i vocabulary).
pub(crate) fn render_identify(id: &identify::Identify) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "Model Number:       {}", id.model);
    let _ = writeln!(o, "Serial Number:      {}", id.serial_number);
    let _ = writeln!(o, "Firmware Revision:  {}", id.firmware_revision);
    if let Some(w) = &id.wwn {
        let _ = writeln!(o, "LU WWN Device Id:   {w}");
    }
    let _ = writeln!(
        o,
        "User capacity:      {} sectors, {} bytes",
        id.user_addressable_sectors, id.capacity_bytes
    );
    let _ = writeln!(
        o,
        "Sector sizes:       {} bytes logical, {} bytes physical",
        id.logical_sector_size, id.physical_sector_size
    );
    let rot = match id.rotation_rate {
        0 => "not reported".to_string(),
        1 => "Solid State Device".to_string(),
        r => format!("{r} rpm"),
    };
    let _ = writeln!(o, "Rotation rate:      {rot}");
    if let Some(v) = &id.major_version {
        let _ = writeln!(o, "ATA version:        {v}");
    }
    if !id.sata_speeds.is_empty() {
        let _ = writeln!(o, "SATA speeds:        {}", id.sata_speeds.join(", "));
    }
    if let Some(q) = id.queue_depth {
        let _ = writeln!(o, "NCQ queue depth:    {q}");
    }
    let _ = writeln!(
        o,
        "SMART:              supported {}, enabled {}",
        yn(id.smart_supported),
        yn(id.smart_enabled)
    );
    let _ = writeln!(o, "GPL (READ LOG EXT): {}", yn(id.gpl_supported));
    let _ = writeln!(
        o,
        "TRIM:               {}{}",
        yn(id.trim_supported),
        if id.trim_read_zeroes {
            " (deterministic, reads zeroes)"
        } else {
            ""
        }
    );
    let _ = writeln!(
        o,
        "Write cache:        {}",
        if id.write_cache_enabled {
            "enabled"
        } else {
            "disabled"
        }
    );
    let s = &id.security;
    let _ = writeln!(o, "Security:           {}", id.security_state());
    if s.supported {
        let _ = writeln!(
            o,
            "  erase unit:       normal {}, enhanced {}",
            s.normal_erase_minutes
                .map_or("time not reported".into(), |m| format!("{m} min")),
            if s.enhanced_erase_supported {
                s.enhanced_erase_minutes
                    .map_or("supported".into(), |m| format!("{m} min"))
            } else {
                "not supported".into()
            }
        );
        let _ = writeln!(
            o,
            "  master password:  capability {}",
            if s.master_password_maximum {
                "Maximum"
            } else {
                "High"
            }
        );
    }
    let z = &id.sanitize;
    if z.supported {
        let mut m = Vec::new();
        if z.crypto_scramble {
            m.push("CRYPTO SCRAMBLE EXT");
        }
        if z.block_erase {
            m.push("BLOCK ERASE EXT");
        }
        if z.overwrite {
            m.push("OVERWRITE EXT");
        }
        let _ = writeln!(o, "Sanitize:           {}", m.join(", "));
    } else {
        let _ = writeln!(o, "Sanitize:           not supported");
    }
    for p in &id.problems {
        let _ = writeln!(o, "note: {p}");
    }
    o
}

fn run_identify(ctx: &mut Ctx, c: Common) -> anyhow::Result<Report> {
    let raw = match &c.inhex {
        Some(p) => read_hex(p)?,
        None => {
            let dev = c.device.as_deref().unwrap_or_default();
            let mut t = open_satl(ctx, dev)?;
            sgctl::cmd::ata::read_identify_raw(t.as_mut(), cdb_size(c.cdb))?
        }
    };
    let id = identify::parse(&raw).map_err(sgctl::Error::Parse)?;
    let text = if ctx.hex {
        hexdump(&raw)
    } else {
        render_identify(&id)
    };
    Ok(Report::new(c.device.as_deref(), &id, text))
}

#[derive(Debug, Serialize)]
struct SmartReport {
    /// SMART RETURN STATUS: true = a threshold is exceeded (None: not asked / not answered).
    threshold_exceeded: Option<bool>,
    smart: smart::SmartData,
}

fn render_smart(r: &SmartReport) -> String {
    let mut o = String::new();
    let verdict = match r.threshold_exceeded {
        Some(false) => "PASSED",
        Some(true) => "FAILED!",
        None => "unknown (SMART RETURN STATUS not answered)",
    };
    let _ = writeln!(o, "SMART overall-health self-assessment: {verdict}");
    let _ = writeln!(
        o,
        "SMART data revision {}, self-test status 0x{:02x}{}",
        r.smart.revision,
        r.smart.self_test_status,
        if r.smart.checksum_valid {
            ""
        } else {
            " (checksum mismatch)"
        }
    );
    let _ = writeln!(
        o,
        "ID# ATTRIBUTE_NAME            FLAG   VALUE WORST THRESH TYPE     WHEN_FAILED RAW_VALUE"
    );
    for a in &r.smart.attributes {
        let _ = writeln!(
            o,
            "{:>3} {:<25} 0x{:04x} {:>5} {:>5} {:>6} {:<8} {:<11} {}",
            a.id,
            a.name,
            a.flags,
            a.value,
            a.worst,
            a.thresh.map_or("-".into(), |t| t.to_string()),
            if a.prefailure { "Pre-fail" } else { "Old_age" },
            if a.when_failed.is_empty() {
                "-"
            } else {
                &a.when_failed
            },
            a.raw
        );
    }
    o
}

fn run_smart(ctx: &mut Ctx, c: Common) -> anyhow::Result<Report> {
    let (data, th, status) = match &c.inhex {
        Some(p) => {
            let b = read_hex(p)?;
            let th = (b.len() >= 1024).then(|| b[512..1024].to_vec());
            (b, th, None)
        }
        None => {
            let dev = c.device.as_deref().unwrap_or_default();
            let mut t = open_satl(ctx, dev)?;
            let size = cdb_size(c.cdb);
            let (d, th) = sgctl::cmd::ata::read_smart_raw(t.as_mut(), size)?;
            let st = match sgctl::cmd::ata::smart_return_status(t.as_mut(), size) {
                Ok(s) => s,
                Err(e) => {
                    ctx.warn(format!("SMART RETURN STATUS: {e}"));
                    None
                }
            };
            (d, Some(th), st)
        }
    };
    let s = smart::parse(&data, th.as_deref()).map_err(sgctl::Error::Parse)?;
    let r = SmartReport {
        threshold_exceeded: status,
        smart: s,
    };
    let text = if ctx.hex {
        hexdump(&data)
    } else {
        render_smart(&r)
    };
    let exit = if r.threshold_exceeded == Some(true) || !r.smart.failing().is_empty() {
        sgctl::exit::CHECK_FAILED
    } else {
        sgctl::exit::OK
    };
    Ok(Report::new(c.device.as_deref(), &r, text).with_exit(exit))
}

/// Everything `ata logs` decodes.
#[derive(Debug, Default, Serialize)]
pub(crate) struct AtaLogs {
    /// Log 00h.
    pub directory: Option<log::Directory>,
    /// Log 04h pages 1...
    pub device_statistics: Vec<log::StatisticsPage>,
    /// Log 07h (or 06h).
    pub self_test: Option<Vec<log::SelfTestEntry>>,
    /// Log 10h.
    pub ncq_command_error: Option<log::NcqError>,
    /// Log 24h.
    pub current_device_internal_status: Option<log::InternalStatus>,
    /// Logs that could not be read.
    pub errors: Vec<String>,
}

/// The logs `ata logs --log` decodes: from a device (read through the GPL directory) and from
/// `--inhex` (06h, the SMART self-test log, is read by SMART READ LOG, so only from a file).
const DEVICE_LOGS: [u8; 5] = [0x00, 0x04, 0x07, 0x10, 0x24];
const INHEX_LOGS: [u8; 6] = [0x00, 0x04, 0x06, 0x07, 0x10, 0x24];

/// Parses `--log ADDR`: a number 0..255 that sgctl decodes from where it reads (anything else
/// is a usage error, exit 2, never an empty success).
fn parse_addr(s: &str, inhex: bool) -> anyhow::Result<u8> {
    let v = super::num::code(s, "a log address", 0xff)
        .map_err(|e| sgctl::Error::InvalidArgument(format!("--log: {e}")))?;
    let known: &[u8] = if inhex { &INHEX_LOGS } else { &DEVICE_LOGS };
    if !known.contains(&v) {
        let list: Vec<String> = known.iter().map(|a| format!("{a:02x}h")).collect();
        return Err(sgctl::Error::InvalidArgument(format!(
            "--log {v:#04x} ({}): sgctl reads and decodes logs {} here",
            log::log_name(v),
            list.join(", ")
        ))
        .into());
    }
    Ok(v)
}

/// Decodes the pages of log `addr` into `out`.
fn decode_log(out: &mut AtaLogs, addr: u8, bytes: &[u8]) -> anyhow::Result<()> {
    let pages: Vec<&[u8]> = bytes.chunks(512).filter(|c| c.len() == 512).collect();
    if pages.is_empty() {
        bail!(
            "log 0x{addr:02x}: need at least one 512-byte page, got {} bytes",
            bytes.len()
        );
    }
    match addr {
        0x00 => out.directory = Some(log::parse_directory(pages[0])?),
        0x04 => {
            for p in pages {
                if p[2] != 0 {
                    out.device_statistics.push(log::parse_statistics_page(p)?);
                }
            }
        }
        0x06 => out.self_test = Some(log::parse_smart_self_test(pages[0])?),
        0x07 => out.self_test = Some(log::parse_ext_self_test(pages[0])?),
        0x10 => out.ncq_command_error = Some(log::parse_ncq_error(pages[0])?),
        0x24 => out.current_device_internal_status = Some(log::parse_internal_status(pages[0])?),
        a => bail!(
            "log 0x{a:02x} ({}) has no decoder; use --hex",
            log::log_name(a)
        ),
    }
    Ok(())
}

/// Reads the logs from a device (those the directory lists).
pub(crate) fn read_logs(
    t: &mut dyn sgctl::Transport,
    only: Option<u8>,
) -> anyhow::Result<(AtaLogs, Vec<u8>)> {
    let mut out = AtaLogs::default();
    let mut raw = Vec::new();
    let dir_raw = sgctl::cmd::ata::read_log_ext(t, log::address::DIRECTORY, 0, 1)?;
    let dir = log::parse_directory(&dir_raw)?;
    if only.is_none_or(|a| a == 0) {
        raw.extend_from_slice(&dir_raw);
    }
    for addr in [0x04u8, 0x07, 0x10, 0x24] {
        if only.is_some_and(|a| a != addr) {
            continue;
        }
        if dir.pages(addr) == 0 {
            if only.is_some() {
                // The one log asked for is not there: not supported by the device (exit 7).
                return Err(sgctl::Error::Unsupported(format!(
                    "log 0x{addr:02x} ({}) is not in the drive's GPL directory",
                    log::log_name(addr)
                ))
                .into());
            }
            continue;
        }
        let r = if addr == 0x04 {
            sgctl::cmd::ata::read_device_statistics(t).map(|(pages, raws)| {
                out.device_statistics = pages;
                raws.concat()
            })
        } else {
            sgctl::cmd::ata::read_log_ext(t, addr, 0, 1)
        };
        match r {
            Ok(b) => {
                if addr != 0x04 {
                    decode_log(&mut out, addr, &b)?;
                }
                raw.extend_from_slice(&b);
            }
            Err(e) => out
                .errors
                .push(format!("log 0x{addr:02x} ({}): {e}", log::log_name(addr))),
        }
    }
    if only.is_none_or(|a| a == 0) {
        out.directory = Some(dir);
    }
    Ok((out, raw))
}

fn render_logs(l: &AtaLogs) -> String {
    let mut o = String::new();
    if let Some(d) = &l.directory {
        let _ = writeln!(o, "General Purpose Log Directory (version {}):", d.version);
        for e in &d.logs {
            let _ = writeln!(
                o,
                "  0x{:02x} {:<40} {:>5} page(s)",
                e.address, e.name, e.pages
            );
        }
    }
    for p in &l.device_statistics {
        let _ = writeln!(o, "Device Statistics page 0x{:02x}: {}", p.page, p.name);
        for s in &p.statistics {
            let v = s.value.map_or("(not valid)".into(), |v| v.to_string());
            let _ = writeln!(
                o,
                "  0x{:03x} {:<46} {:>14}{}",
                s.offset,
                s.name,
                v,
                if s.normalized { " (normalized)" } else { "" }
            );
        }
    }
    if let Some(st) = &l.self_test {
        let _ = writeln!(
            o,
            "Self-test log: {} entr{}",
            st.len(),
            if st.len() == 1 { "y" } else { "ies" }
        );
        for (i, e) in st.iter().enumerate() {
            let _ = writeln!(
                o,
                "  #{:<2} {:<18} {:<34} {:>6} h {}",
                i + 1,
                e.test_name,
                e.status_name,
                e.power_on_hours,
                e.failing_lba.map_or("-".into(), |l| l.to_string())
            );
        }
    }
    if let Some(n) = &l.ncq_command_error {
        if n.empty || n.non_queued {
            let _ = writeln!(o, "NCQ Command Error log: no NCQ error recorded");
        } else {
            let _ = writeln!(
                o,
                "NCQ Command Error log: tag {} STATUS 0x{:02x} ERROR 0x{:02x} LBA {} count {} sense {:x}/{:02x}/{:02x}",
                n.tag, n.status, n.error, n.lba, n.count, n.sense.0, n.sense.1, n.sense.2
            );
        }
    }
    if let Some(s) = &l.current_device_internal_status {
        let _ = writeln!(
            o,
            "Current Device Internal Status: organization 0x{:06x}, data area last pages {:?}, saved data {}",
            s.organization_id,
            s.area_last_page,
            if s.saved_data_available { "available" } else { "none" }
        );
    }
    for e in &l.errors {
        let _ = writeln!(o, "{e}");
    }
    o
}

fn run_logs(ctx: &mut Ctx, a: LogsArgs) -> anyhow::Result<Report> {
    let inhex = a.common.inhex.is_some();
    let only = a.log.as_deref().map(|s| parse_addr(s, inhex)).transpose()?;
    let (logs, raw) = match &a.common.inhex {
        Some(p) => {
            let Some(addr) = only else {
                bail!("--inhex needs --log ADDR: the file holds the pages of one log");
            };
            let b = read_hex(p)?;
            let mut out = AtaLogs::default();
            decode_log(&mut out, addr, &b)?;
            (out, b)
        }
        None => {
            let dev = a.common.device.as_deref().unwrap_or_default();
            let mut t = open_satl(ctx, dev)?;
            read_logs(t.as_mut(), only)?
        }
    };
    let text = if ctx.hex {
        hexdump(&raw)
    } else {
        render_logs(&logs)
    };
    let exit = if logs.errors.is_empty() {
        sgctl::exit::OK
    } else {
        for e in &logs.errors {
            ctx.warn(e.clone());
        }
        sgctl::exit::PARTIAL
    };
    Ok(Report::new(a.common.device.as_deref(), &logs, text).with_exit(exit))
}
