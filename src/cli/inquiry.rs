//! `sgctl inquiry DEVICE`: standard INQUIRY data (SPC-6 6.7.2), plus the unit serial number
//! from VPD page 0x80 when the device has one (as sg_inq prints it).

use super::{fetch, Ctx, Report};
use serde::Serialize;
use sgctl::decode::text;
use sgctl::scsi::{inquiry, vpd};

/// Arguments of `sgctl inquiry`.
#[derive(Debug, clap::Args)]
pub(crate) struct InquiryArgs {
    /// Device address (/dev/sgN, /dev/sdX, /dev/bsg/H:C:T:L, sim:PROFILE).
    pub device: String,
}

#[derive(Serialize)]
struct Out {
    #[serde(flatten)]
    standard: inquiry::StandardInquiry,
    unit_serial_number: Option<String>,
}

/// Runs `sgctl inquiry`.
pub(crate) fn run(ctx: &mut Ctx, args: InquiryArgs) -> anyhow::Result<Report> {
    let mut t = sgctl::device::open(
        &args.device,
        sgctl::device::OpenOptions::traced(ctx.verbose),
    )?
    .transport;
    let raw = fetch::standard_inquiry(t.as_mut())?;
    if ctx.hex {
        return Ok(fetch::hex_report(Some(&args.device), &raw));
    }
    let standard = inquiry::parse_best(&raw).map_err(sgctl::Error::Parse)?;
    // The serial number is optional: devices without page 0x80 still answer INQUIRY.
    let serial = match fetch::vpd(t.as_mut(), 0x80) {
        Ok(b) => vpd::serial::parse(&b).ok().map(|s| s.unit_serial_number),
        Err(e) => {
            if ctx.verbose > 0 {
                super::output::err_line(&format!("    no unit serial number: {e}"));
            }
            None
        }
    };
    let mut txt = text::inquiry(&standard);
    if let Some(s) = &serial {
        txt.push_str(&format!(" Unit serial number: {s}\n"));
    }
    txt.push_str(&sgctl::decode::vpd_text::problems(&standard.problems));
    let exit = sgctl::decode::problems_exit(&standard.problems);
    let out = Out {
        standard,
        unit_serial_number: serial,
    };
    Ok(Report::new(Some(&args.device), &out, txt).with_exit(exit))
}
