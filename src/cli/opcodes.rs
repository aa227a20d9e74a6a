//! `sgctl opcodes DEVICE [--opcode OP [--sa SA]] [--timeouts]`: REPORT SUPPORTED OPERATION
//! CODES, all commands or one.

use super::{fetch, Ctx, Report};
use sgctl::decode::text;
use sgctl::error::Error;
use sgctl::scsi::rsoc::{self, ReportingOptions};

/// Arguments of `sgctl opcodes`.
#[derive(Debug, clap::Args)]
pub(crate) struct OpcodesArgs {
    /// Device address.
    pub device: String,
    /// Describe only this operation code (hex with 0x, or decimal).
    #[arg(long, value_parser = parse_num::<u8>)]
    pub opcode: Option<u8>,
    /// With --opcode: this service action.
    #[arg(long, requires = "opcode", value_parser = parse_num::<u16>)]
    pub sa: Option<u16>,
    /// Ask for command timeouts descriptors (RCTD).
    #[arg(long, short = 'T')]
    pub timeouts: bool,
}

/// Parses `0x48`, `48h` or `72` (see [`super::num::int`]).
pub(crate) fn parse_num<T: TryFrom<u64>>(s: &str) -> Result<T, String> {
    super::num::int(s)
}

/// Runs `sgctl opcodes`.
pub(crate) fn run(ctx: &mut Ctx, args: OpcodesArgs) -> anyhow::Result<Report> {
    let mut t = sgctl::device::open(
        &args.device,
        sgctl::device::OpenOptions::traced(ctx.verbose),
    )?
    .transport;
    let dev = Some(args.device.as_str());
    let what = "REPORT SUPPORTED OPERATION CODES is not supported by the device";
    match args.opcode {
        None => {
            let alloc: u32 = 8192;
            let mut rctd = args.timeouts;
            let cdb = rsoc::ReportSupportedOpcodesCdb::new(alloc)
                .rctd(rctd)
                .build();
            let mut first =
                fetch::data_in(t.as_mut(), &cdb, 8192).map_err(|e| fetch::unsupported(e, what));
            if rctd && matches!(first, Err(Error::Unsupported(_))) {
                // Some devices implement RSOC but not RCTD: list the commands without timeouts.
                ctx.warn("the device rejected RCTD=1; command timeouts are not reported");
                rctd = false;
                let cdb = rsoc::ReportSupportedOpcodesCdb::new(alloc)
                    .rctd(rctd)
                    .build();
                first =
                    fetch::data_in(t.as_mut(), &cdb, 8192).map_err(|e| fetch::unsupported(e, what));
            }
            let mut raw = first?;
            let want = raw
                .get(..4)
                .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]).saturating_add(4))
                .unwrap_or(0);
            if want > alloc {
                let alloc = want.min(0x10_0000);
                let cdb = rsoc::ReportSupportedOpcodesCdb::new(alloc)
                    .rctd(rctd)
                    .build();
                raw = fetch::data_in(t.as_mut(), &cdb, alloc as usize)?;
            }
            if ctx.hex {
                return Ok(fetch::hex_report(dev, &raw));
            }
            let all = rsoc::decode_all(&raw).map_err(Error::Parse)?;
            let txt = text::opcodes_all(&all) + &sgctl::decode::vpd_text::problems(&all.problems);
            let r = Report::new(dev, &all, txt);
            Ok(super::vpd::with_problems(ctx, r, !all.problems.is_empty()))
        }
        Some(op) => {
            let opts = match args.sa {
                Some(sa) => ReportingOptions::OpCodeSa(op, sa),
                None => ReportingOptions::OpCode(op),
            };
            let cdb = rsoc::ReportSupportedOpcodesCdb::new(512)
                .options(opts)
                .rctd(args.timeouts)
                .build();
            let raw =
                fetch::data_in(t.as_mut(), &cdb, 512).map_err(|e| fetch::unsupported(e, what))?;
            if ctx.hex {
                return Ok(fetch::hex_report(dev, &raw));
            }
            let one = rsoc::decode_one(&raw).map_err(Error::Parse)?;
            let txt = text::opcodes_one(&one, op, args.sa)
                + &sgctl::decode::vpd_text::problems(&one.problems);
            let r = Report::new(dev, &one, txt);
            Ok(super::vpd::with_problems(ctx, r, !one.problems.is_empty()))
        }
    }
}
