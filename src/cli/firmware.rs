//! `sgctl firmware DEVICE... --image FILE [--mode MODE] [--chunk SIZE] [--activate]
//! [--expect-revision REV] --confirm SERIAL|WWN`: a microcode download with WRITE BUFFER
//! ([`sgctl::ops::jobs::firmware`]), behind the safety gate, through the job runner (audit
//! records, `--dry-run`, `--certificate`).

use crate::cli::erase::{run_jobs, SafetyArgs};
use crate::cli::{Ctx, Report};
use sgctl::error::Error;
use sgctl::ops::jobs::firmware::{FirmwareJob, FirmwareOptions, MAX_IMAGE_BYTES};
use sgctl::scsi::write_buffer::{ActivationEvents, Mode};
use std::path::PathBuf;
use std::sync::Arc;

/// A `--mode` value: a mode, or `auto`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ModeArg(pub Option<Mode>);

fn parse_mode(s: &str) -> Result<ModeArg, String> {
    let l = s.trim().to_ascii_lowercase();
    let m = match l.as_str() {
        "auto" => return Ok(ModeArg(None)),
        "5" | "05h" | "5h" | "0x5" | "0x05" | "dmc_save" => Mode::Save,
        "7" | "07h" | "7h" | "0x7" | "0x07" | "dmc_offs_save" => Mode::OffsetsSave,
        "13" | "0dh" | "dh" | "0xd" | "0x0d" | "dmc_offs_ev_defer" => Mode::OffsetsEventsDefer,
        "14" | "0eh" | "eh" | "0xe" | "0x0e" | "dmc_offs_defer" => Mode::OffsetsDefer,
        _ => {
            return Err(format!(
                "{s:?}: auto, 5, 7, 0xd or 0xe (or sg_write_buffer's dmc_save, dmc_offs_save, \
                 dmc_offs_ev_defer, dmc_offs_defer); activation (0Fh) is --activate"
            ))
        }
    };
    Ok(ModeArg(Some(m)))
}

fn parse_chunk(s: &str) -> Result<u32, String> {
    let n = super::num::size(s)?;
    u32::try_from(n)
        .ok()
        .filter(|&n| (1..=sgctl::scsi::write_buffer::MAX_24).contains(&n))
        .ok_or_else(|| format!("{s}: a segment is 1 byte to 16 MiB - 1"))
}

/// Mode 0Dh's activation events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Event {
    /// PO_ACT: the next power on.
    PowerOn,
    /// HR_ACT: the next hard reset.
    HardReset,
    /// VSE_ACT: a vendor specific event.
    Vendor,
}

/// Arguments of `sgctl firmware`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = "\
Downloads microcode with WRITE BUFFER (SPC-6 6.50). A wrong or damaged image can leave a drive
unusable, so the download goes through the safety gate: no path of the drive may be in use
(both SAS ports are checked), --confirm SERIAL|WWN must name it (or type it on a terminal),
one job per drive at a time, and audit start and end records go to --audit-log, else
$SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl. Two addresses of the same drive (its two
ports) download once.

Modes (--mode; sg_write_buffer's names work too):
  5    (dmc_save)           the whole image in one command, saved and activated
  7    (dmc_offs_save)      segments at offsets, saved and activated after the last
  0xd  (dmc_offs_ev_defer)  segments, saved; activated by --events or --activate (0Fh)
  0xe  (dmc_offs_defer)     segments, saved; activated by --activate (0Fh), a power on or
                            a hard reset
  auto                      the first of 7, 0xe, 5, 0xd the drive lists in its Extended
                            INQUIRY page (DM_MD bits); a drive that lists none needs --mode
A mode the drive's Extended INQUIRY page does not list is refused unless --force.

Before anything is sent: the image (at most 32 MiB, a regular file, not a symbolic link) is
checked against the drive's microcode buffer (READ BUFFER descriptor: capacity and offset
boundary), the segment size (--chunk, default 64 KiB or the buffer) against the offset
boundary, and the 24-bit fields of the CDB. An image in the virtual drive's format
(SGCTLFW1 header: model, revision, length, CRC-32) is checked for its model and CRC and
its revision becomes the expected one.

Afterwards INQUIRY reads the revision running, compared with --expect-revision (or the
image's own); TEST UNIT READY shows readiness and the unit attention reporting the change
(3F/01 MICROCODE HAS BEEN CHANGED). A download cut short leaves the drive's old revision
running: the record says at which segment it stopped and what the drive reports.

--activate without --image sends only mode 0Fh (activate deferred microcode).
--dry-run lists the CDBs and sends nothing; -v traces each one.

Compare: sg_write_buffer --mode=dmc_offs_save --bpw=65536 --in=FILE DEV;
sg_read_buffer --mode=desc DEV.

Examples:
  sgctl firmware /dev/sg3 --image FW.bin --mode 7 --expect-revision 0205 --confirm ZA1B2C3D
  sgctl firmware /dev/sg3 --image FW.bin --mode 0xe --dry-run
  sgctl firmware /dev/sg3 --activate --confirm ZA1B2C3D")]
pub(crate) struct FirmwareArgs {
    /// Drives to update (several run in parallel, capped per HBA; each needs its --confirm).
    #[arg(value_name = "DEVICE", required = true)]
    pub devices: Vec<String>,
    /// The microcode image.
    #[arg(long, value_name = "FILE", required_unless_present = "activate")]
    pub image: Option<PathBuf>,
    /// Download mode: auto, 5, 7, 0xd, 0xe.
    #[arg(long, value_name = "MODE", default_value = "auto", value_parser = parse_mode)]
    pub mode: ModeArg,
    /// Segment size for modes 7, 0xd, 0xe (512, 64k, 1MiB); a multiple of the drive's offset
    /// boundary [default: 64 KiB, or the buffer's capacity when smaller].
    #[arg(long, value_name = "SIZE", value_parser = parse_chunk)]
    pub chunk: Option<u32>,
    /// After a deferred download (0xd, 0xe), activate it (WRITE BUFFER mode 0Fh); without
    /// --image, activate what an earlier deferred download saved.
    #[arg(long)]
    pub activate: bool,
    /// Mode 0xd: the events that activate the saved microcode.
    #[arg(long, value_name = "EVENT", value_delimiter = ',', value_enum)]
    pub events: Vec<Event>,
    /// The revision the drive must report afterwards (INQUIRY PRODUCT REVISION LEVEL);
    /// otherwise the record shows what it reports.
    #[arg(long, value_name = "REV")]
    pub expect_revision: Option<String>,
    /// BUFFER ID of the microcode buffer.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub buffer_id: u8,
    /// Safety options (--force also sends a mode the drive does not list).
    #[command(flatten)]
    pub safety: SafetyArgs,
}

/// Runs `sgctl firmware`.
pub(crate) fn run(ctx: &mut Ctx, args: FirmwareArgs) -> anyhow::Result<Report> {
    if !args.events.is_empty() && args.mode.0 != Some(Mode::OffsetsEventsDefer) {
        return Err(Error::InvalidArgument("--events goes with --mode 0xd".into()).into());
    }
    if args.image.is_none() && (args.chunk.is_some() || args.mode.0.is_some()) {
        return Err(Error::InvalidArgument(
            "--mode and --chunk describe a download: give --image (--activate alone sends mode 0Fh)"
                .into(),
        )
        .into());
    }
    // The image first, before any drive is opened: a regular file, size checked before it
    // is read.
    let image = match &args.image {
        Some(p) => Some(Arc::new(sgctl::files::read_input(
            p,
            "firmware image",
            MAX_IMAGE_BYTES,
        )?)),
        None => None,
    };
    let opts = FirmwareOptions {
        image,
        image_path: args
            .image
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default(),
        mode: args.mode.0,
        events: ActivationEvents {
            power_on: args.events.contains(&Event::PowerOn),
            hard_reset: args.events.contains(&Event::HardReset),
            vendor_specific: args.events.contains(&Event::Vendor),
        },
        chunk: args.chunk,
        buffer_id: args.buffer_id,
        activate: args.activate,
        expect_revision: args.expect_revision.clone(),
        force: args.safety.force,
    };
    let params = serde_json::json!({
        "image": opts.image_path,
        "mode": args.mode.0.map(|m| format!("{:02X}h", m.code())).unwrap_or_else(|| "auto".into()),
        "chunk": args.chunk,
        "activate": args.activate,
        "expect_revision": args.expect_revision,
        "buffer_id": args.buffer_id,
    });
    let (devices, same) = one_address_per_drive(ctx, &args.devices);
    let mut report = run_jobs(ctx, &devices, &args.safety, params, || {
        Box::new(FirmwareJob::new(opts.clone()))
    })?;
    if !same.is_empty() {
        let mut text = String::new();
        for (a, b) in &same {
            text.push_str(&format!(
                "{}: the same drive as {} (another path): downloaded once, through {}\n",
                sgctl::escape::escape(a),
                sgctl::escape::escape(b),
                sgctl::escape::escape(b)
            ));
        }
        report.text = text + &report.text;
        if let Some(o) = report.data.as_object_mut() {
            o.insert(
                "same_drive".into(),
                serde_json::json!(same
                    .iter()
                    .map(|(a, b)| serde_json::json!({"address": a, "same_as": b}))
                    .collect::<Vec<_>>()),
            );
        }
    }
    Ok(report)
}

/// The addresses kept, and each dropped one with the address kept in its place.
type Kept = (Vec<String>, Vec<(String, String)>);

/// Keeps the first address of each drive: two paths of one logical unit (its two SAS ports,
/// its sg and sd nodes) get one download. Drives are told apart by the lock key (LU name,
/// else serial; a virtual drive by its state file). Returns the addresses kept and, for each
/// one dropped, the address kept in its place.
fn one_address_per_drive(ctx: &Ctx, addresses: &[String]) -> Kept {
    if addresses.len() < 2 {
        return (addresses.to_vec(), vec![]);
    }
    let mut seen: Vec<(String, String)> = Vec::new();
    let mut kept = Vec::new();
    let mut same = Vec::new();
    for a in addresses {
        let key = match sgctl::device::open(a, sgctl::device::OpenOptions::traced(ctx.verbose))
            .map(|o| o.transport)
        {
            Ok(mut t) => {
                let mut ro = sgctl::ops::gate::ReadOnly::new(sgctl::ops::gate::ByRef(t.as_mut()));
                sgctl::ops::query::identity(&mut ro).ok().and_then(|id| {
                    sgctl::ops::gate::lock::key_for(
                        a,
                        &sgctl::ops::gate::DriveName {
                            serial: id.serial,
                            wwn: id.wwn,
                        },
                    )
                })
            }
            // The runner reports the address that cannot be opened.
            Err(_) => None,
        };
        match key {
            Some(k) => match seen.iter().find(|(s, _)| *s == k) {
                Some((_, first)) => same.push((a.clone(), first.clone())),
                None => {
                    seen.push((k, a.clone()));
                    kept.push(a.clone());
                }
            },
            None => kept.push(a.clone()),
        }
    }
    (kept, same)
}
