//! `sgctl readcap DEVICE [--16|--10]`: READ CAPACITY. By default the 16-byte form, falling
//! back to the 10-byte form when the device rejects it (as the Linux sd driver does).

use super::{fetch, Ctx, Report};
use sgctl::decode::text;
use sgctl::error::Error;
use sgctl::scsi::read_capacity as rc;

/// Arguments of `sgctl readcap`.
#[derive(Debug, clap::Args)]
pub(crate) struct ReadcapArgs {
    /// Device address.
    pub device: String,
    /// Only READ CAPACITY (16).
    #[arg(long = "16", conflicts_with = "ten")]
    pub sixteen: bool,
    /// Only READ CAPACITY (10).
    #[arg(long = "10")]
    pub ten: bool,
}

/// Runs `sgctl readcap`.
pub(crate) fn run(ctx: &mut Ctx, args: ReadcapArgs) -> anyhow::Result<Report> {
    let mut t = sgctl::device::open(
        &args.device,
        sgctl::device::OpenOptions::traced(ctx.verbose),
    )?
    .transport;
    let dev = Some(args.device.as_str());
    if !args.ten {
        match fetch::data_in(t.as_mut(), &rc::ReadCapacity16Cdb::new(32).build(), 32) {
            Ok(raw) => {
                if ctx.hex {
                    return Ok(fetch::hex_report(dev, &raw));
                }
                let r = rc::parse16(&raw).map_err(Error::Parse)?;
                return Ok(Report::new(dev, &r, text::readcap16(&r)));
            }
            Err(e) => {
                let e = fetch::unsupported(e, "READ CAPACITY(16) is not supported");
                if args.sixteen || !matches!(e, Error::Unsupported(_)) {
                    return Err(e.into());
                }
                if ctx.verbose > 0 {
                    super::output::err_line(&format!("    {e}; trying READ CAPACITY(10)"));
                }
            }
        }
    }
    let raw = fetch::data_in(t.as_mut(), &rc::ReadCapacity10Cdb::new().build(), 8)?;
    if ctx.hex {
        return Ok(fetch::hex_report(dev, &raw));
    }
    let r = rc::parse10(&raw).map_err(Error::Parse)?;
    Ok(Report::new(dev, &r, text::readcap10(&r)))
}
