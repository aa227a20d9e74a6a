//! `sgctl modes DEVICE [--page P] [--subpage S] [--pc PC] [--six] [--llbaa]`: MODE SENSE with
//! the header, block descriptors and decoded pages (0x01, 0x08, 0x0A, 0x19, 0x1C).

use super::{fetch, text, Ctx, Report};
use crate::error::Error;
use crate::scsi::mode::{self, HeaderKind, PageControl};

/// Page control values on the command line.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum Pc {
    /// Current values.
    Current,
    /// Changeable values (mask).
    Changeable,
    /// Default values.
    Default,
    /// Saved values.
    Saved,
}

/// Arguments of `sgctl modes`.
#[derive(Debug, clap::Args)]
pub struct ModesArgs {
    /// Device address.
    pub device: String,
    /// Page code (number; default 0x3f = all pages).
    #[arg(long, short, value_parser = super::opcodes::parse_num::<u8>)]
    pub page: Option<u8>,
    /// Subpage code (default 0; 0xff with all pages).
    #[arg(long, value_parser = super::opcodes::parse_num::<u8>)]
    pub subpage: Option<u8>,
    /// Page control.
    #[arg(long, value_enum, default_value = "current")]
    pub pc: Pc,
    /// Use MODE SENSE(6) instead of (10).
    #[arg(long)]
    pub six: bool,
    /// Accept long LBA block descriptors (MODE SENSE(10) LLBAA).
    #[arg(long)]
    pub llbaa: bool,
    /// Disable block descriptors (DBD).
    #[arg(long)]
    pub dbd: bool,
}

/// Runs `sgctl modes`.
pub fn run(ctx: &mut Ctx, args: ModesArgs) -> anyhow::Result<Report> {
    let page = args.page.unwrap_or(mode::ALL_PAGES);
    if page > 0x3f {
        return Err(Error::InvalidArgument(format!("mode page 0x{page:x} is above 0x3f")).into());
    }
    let sub = args.subpage.unwrap_or(if page == mode::ALL_PAGES {
        mode::ALL_SUBPAGES
    } else {
        0
    });
    let (pc, pc_name) = match args.pc {
        Pc::Current => (PageControl::Current, "current"),
        Pc::Changeable => (PageControl::Changeable, "changeable"),
        Pc::Default => (PageControl::Default, "default"),
        Pc::Saved => (PageControl::Saved, "saved"),
    };
    let mut t = fetch::open(ctx, &args.device)?;
    let what = format!("mode page 0x{page:02x},0x{sub:02x} is not supported by the device");
    let (raw, kind) = if args.six {
        let cdb = mode::cdb_sense6(args.dbd, pc, page, sub, 252);
        let r = fetch::data_in(t.as_mut(), &cdb, 252).map_err(|e| fetch::unsupported(e, &what))?;
        (r, HeaderKind::Six)
    } else {
        let mut alloc: u16 = 4096;
        let cdb = mode::cdb_sense10(args.llbaa, args.dbd, pc, page, sub, alloc);
        let mut r =
            fetch::data_in(t.as_mut(), &cdb, 4096).map_err(|e| fetch::unsupported(e, &what))?;
        let want = r
            .get(..2)
            .map(|b| usize::from(u16::from_be_bytes([b[0], b[1]])) + 2)
            .unwrap_or(0);
        if want > usize::from(alloc) {
            alloc = u16::try_from(want).unwrap_or(u16::MAX);
            let cdb = mode::cdb_sense10(args.llbaa, args.dbd, pc, page, sub, alloc);
            r = fetch::data_in(t.as_mut(), &cdb, usize::from(alloc))?;
        }
        (r, HeaderKind::Ten)
    };
    let dev = Some(args.device.as_str());
    if ctx.hex {
        return Ok(fetch::hex_report(dev, &raw));
    }
    let m = mode::parse(&raw, kind).map_err(Error::Parse)?;
    Ok(Report::new(dev, &m, text::mode(&m, Some(pc_name))))
}
