//! `sgctl defects DEVICE [--grown|--primary|--both] [--format F] [--count]`: READ DEFECT
//! DATA (10), or (12) when the list is longer than (10) can carry, decoded in every address
//! descriptor format ([`sgctl::scsi::read_defect`]).

use super::{Ctx, Report};
use serde::Serialize;
use sgctl::cmd::run_query;
use sgctl::error::Error;
use sgctl::scsi::read_defect::{
    self, Defect, DefectFormat, DefectList, ReadDefectData10Cdb, ReadDefectData12Cdb,
};
use sgctl::transport::{Transport, DEFAULT_TIMEOUT};
use std::fmt::Write as _;

/// The largest list read (16 MiB of descriptors: two million long-block entries); a longer
/// one is reported with its count and the entries that fit.
const MAX_LIST: u32 = 16 << 20;

/// Address descriptor formats on the command line.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub(crate) enum Format {
    /// Short block (4-byte LBA).
    Short,
    /// Long block (8-byte LBA).
    Long,
    /// Bytes from index (cylinder, head, bytes from index).
    Index,
    /// Physical sector (cylinder, head, sector).
    Physical,
}

/// Arguments of `sgctl defects`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = "\
READ DEFECT DATA (SBC-5 5.20, 5.21) asks for the grown list (GLIST: blocks the drive
reassigned in service; a growing count is a failing drive) by default, the primary list
(PLIST: the factory's) with --primary, both with --both. The drive answers in the format it
prefers when it does not keep the one asked for; the answer's format is the one shown.
--count reads only the header (like sg_reassign --grown). (10) is used unless the list is
longer than it can carry, then (12). Read-only.

Compare: sg_reassign --grown, smartctl -x (\"Elements in grown defect list\"), sginfo -G.

Examples:
  sgctl defects /dev/sg3 --count
  sgctl defects /dev/sg3 --grown --format long
  sgctl --json defects /dev/sg3 --both --format physical")]
pub(crate) struct DefectsArgs {
    /// Device address.
    pub device: String,
    /// The grown list (default).
    #[arg(long, group = "list")]
    pub grown: bool,
    /// The primary (factory) list.
    #[arg(long, group = "list")]
    pub primary: bool,
    /// Both lists.
    #[arg(long, group = "list")]
    pub both: bool,
    /// Address descriptor format to ask for.
    #[arg(long, value_enum, default_value = "long")]
    pub format: Format,
    /// Only the number of entries (header only).
    #[arg(long)]
    pub count: bool,
}

#[derive(Debug, Serialize)]
struct Out {
    requested: &'static str,
    command: &'static str,
    list: DefectList,
}

fn query(t: &mut dyn Transport, cdb: &[u8], len: usize) -> sgctl::Result<Vec<u8>> {
    let mut buf = vec![0u8; len];
    let n = run_query(t, cdb, &mut buf, DEFAULT_TIMEOUT)
        .map_err(|e| super::fetch::unsupported(e, "READ DEFECT DATA is not supported"))?;
    buf.truncate(n.min(len));
    Ok(buf)
}

/// Runs `sgctl defects`.
pub(crate) fn run(ctx: &mut Ctx, args: DefectsArgs) -> anyhow::Result<Report> {
    let format = match args.format {
        Format::Short => DefectFormat::ShortBlock,
        Format::Long => DefectFormat::LongBlock,
        Format::Index => DefectFormat::BytesFromIndex,
        Format::Physical => DefectFormat::PhysicalSector,
    };
    let (primary, grown, requested) = if args.both {
        (true, true, "both")
    } else if args.primary {
        (true, false, "primary")
    } else {
        (false, true, "grown")
    };
    let cdb10 = |alloc| {
        ReadDefectData10Cdb::new(format, alloc)
            .plist(primary)
            .glist(grown)
            .build()
    };
    let cdb12 = |alloc| {
        ReadDefectData12Cdb::new(format, alloc)
            .plist(primary)
            .glist(grown)
            .build()
    };
    let dev = args.device.as_str();
    let mut t =
        sgctl::device::open(dev, sgctl::device::OpenOptions::traced(ctx.verbose))?.transport;
    // Header first: the length the device has.
    let head = query(t.as_mut(), &cdb10(4), 4)?;
    let len = read_defect::list_length(&head, false).ok_or_else(|| {
        Error::Parse(sgctl::bytes::ParseError::new(
            "READ DEFECT DATA",
            "short header",
        ))
    })?;
    let (buf, twelve) = if args.count {
        (head, false)
    } else if len + 4 <= 0xFFFF {
        let alloc = (len + 4) as u16;
        (query(t.as_mut(), &cdb10(alloc), usize::from(alloc))?, false)
    } else {
        // (10)'s 16-bit length may be the list's length cut (or saturated): ask (12).
        let h12 = query(t.as_mut(), &cdb12(8), 8)?;
        let l12 = read_defect::list_length(&h12, true).unwrap_or(0);
        let alloc = u32::try_from(l12 + 8).unwrap_or(u32::MAX).min(MAX_LIST + 8);
        (query(t.as_mut(), &cdb12(alloc), alloc as usize)?, true)
    };
    let mut list = read_defect::parse(&buf, twelve)?;
    if args.count {
        // Header only: the descriptors were not asked for.
        list.problems.clear();
    }
    for p in &list.problems {
        ctx.warn(p.clone());
    }
    let mut text = String::new();
    let lists = match (list.plist_valid, list.glist_valid) {
        (true, true) => "primary and grown lists",
        (true, false) => "primary list",
        (false, true) => "grown list",
        (false, false) => "no list (neither PLISTV nor GLISTV set)",
    };
    let _ = writeln!(
        text,
        "{dev}: {lists}, {} format: {} entr{}",
        list.format_name,
        list.count,
        if list.count == 1 { "y" } else { "ies" }
    );
    if format != list.format && !args.count {
        let _ = writeln!(
            text,
            "  (asked for {} format; the drive answered in {})",
            format.name(),
            list.format_name
        );
    }
    for d in &list.defects {
        let _ = match d {
            Defect::Lba { lba } => writeln!(text, "  0x{lba:x}"),
            Defect::Chs {
                cylinder,
                head,
                position,
                mads,
            } => writeln!(
                text,
                "  cylinder {cylinder:>8}  head {head:>3}  {} {position:>10}{}",
                if matches!(
                    list.format,
                    DefectFormat::PhysicalSector | DefectFormat::ExtendedPhysicalSector
                ) {
                    "sector"
                } else {
                    "bytes from index"
                },
                if *mads { "  MADS" } else { "" }
            ),
            Defect::Vendor { value } => writeln!(text, "  0x{value:08x} (vendor specific)"),
        };
    }
    let inconsistent = !list.problems.is_empty();
    let out = Out {
        requested,
        command: if twelve {
            "READ DEFECT DATA(12)"
        } else {
            "READ DEFECT DATA(10)"
        },
        list,
    };
    let r = Report::new(Some(dev), &out, text);
    Ok(if inconsistent {
        r.with_exit(sgctl::exit::DECODE_PROBLEMS)
    } else {
        r
    })
}
