//! `sgctl luns DEVICE [--select N]`: REPORT LUNS with each LUN decoded (SAM-6 4.7).

use super::{fetch, Ctx, Report};
use sgctl::decode::text;
use sgctl::error::Error;
use sgctl::scsi::report_luns;

/// Arguments of `sgctl luns`.
#[derive(Debug, clap::Args)]
pub(crate) struct LunsArgs {
    /// Device address.
    pub device: String,
    /// SELECT REPORT: 0 all LUs, 1 well-known LUs only, 2 all including well-known.
    #[arg(long, default_value_t = 0)]
    pub select: u8,
}

/// Runs `sgctl luns`.
pub(crate) fn run(ctx: &mut Ctx, args: LunsArgs) -> anyhow::Result<Report> {
    let mut t = sgctl::device::open(
        &args.device,
        sgctl::device::OpenOptions::traced(ctx.verbose),
    )?
    .transport;
    let mut alloc: u32 = 8192;
    let mut raw = fetch::data_in(
        t.as_mut(),
        &report_luns::ReportLunsCdb::new(alloc)
            .select_report(args.select)
            .build(),
        alloc as usize,
    )
    .map_err(|e| fetch::unsupported(e, "REPORT LUNS is not supported by the device"))?;
    let want = raw
        .get(..4)
        .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]).saturating_add(8))
        .unwrap_or(0);
    if want > alloc {
        alloc = want.min(0x10_0000);
        raw = fetch::data_in(
            t.as_mut(),
            &report_luns::ReportLunsCdb::new(alloc)
                .select_report(args.select)
                .build(),
            alloc as usize,
        )?;
    }
    let dev = Some(args.device.as_str());
    if ctx.hex {
        return Ok(fetch::hex_report(dev, &raw));
    }
    let r = report_luns::parse(&raw).map_err(Error::Parse)?;
    Ok(Report::new(dev, &r, text::luns(&r, args.select)))
}
