//! `sgctl sense DEVICE [--desc]`: REQUEST SENSE (SPC-6 6.39): the device's current sense data
//! (progress of a format/sanitize, a pending deferred error, "no sense").

use super::{fetch, Ctx, Report};
use sgctl::decode::text;
use sgctl::error::Error;
use sgctl::scsi::request_sense;

/// Arguments of `sgctl sense`.
#[derive(Debug, clap::Args)]
pub(crate) struct SenseArgs {
    /// Device address.
    pub device: String,
    /// Ask for descriptor format sense data (DESC=1).
    #[arg(long)]
    pub desc: bool,
}

/// Runs `sgctl sense`.
pub(crate) fn run(ctx: &mut Ctx, args: SenseArgs) -> anyhow::Result<Report> {
    let mut t = sgctl::device::open(
        &args.device,
        sgctl::device::OpenOptions::traced(ctx.verbose),
    )?
    .transport;
    let alloc = request_sense::ALLOCATION;
    let raw = fetch::data_in(
        t.as_mut(),
        &request_sense::RequestSenseCdb::new(alloc)
            .desc(args.desc)
            .build(),
        usize::from(alloc),
    )?;
    let dev = Some(args.device.as_str());
    if ctx.hex {
        return Ok(fetch::hex_report(dev, &raw));
    }
    let s = request_sense::parse(&raw).map_err(Error::Parse)?;
    let txt = text::sense(&s) + &sgctl::decode::vpd_text::problems(&s.problems);
    let r = Report::new(dev, &s, txt);
    Ok(super::vpd::with_problems(ctx, r, !s.problems.is_empty()))
}
