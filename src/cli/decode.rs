//! `sgctl decode --inhex FILE --as KIND`: decodes a saved response without the drive. FILE is
//! ASCII hex as sg3_utils' `--inhex` reads it (whitespace or comma separated bytes, `#`
//! comments, optional hexdump offsets); `-` reads stdin. For `vpd` the page code comes from
//! the data itself.

use super::{Ctx, Report};
use sgctl::bytes::parse_inhex;
use sgctl::decode::{decode_into, DecodeOut, Kind};
use sgctl::error::Error;
use std::io::Read;

/// Arguments of `sgctl decode`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "EXIT STATUS: 0 decoded; 2 FILE unreadable or not hex; 4 the bytes do \
not decode as KIND (no header); 9 decoded as far as the bytes go, with problems listed \
(lengths that overrun, a page cut short, malformed descriptors; VPD pages, mode data, both RSOC forms, sense data, log pages, SES pages).

SES pages: the status, element descriptor and additional element status pages are laid out \
by the Configuration page, so FILE holds the Configuration page (01h) and the page asked for, \
back to back in any order (what `sg_ses --page=all -HHH` prints); `--as ses-config` needs only \
01h."
)]
pub(crate) struct DecodeArgs {
    /// File with the response in ASCII hex (`-` = stdin).
    #[arg(long, short = 'i')]
    pub inhex: String,
    /// How to decode the bytes.
    #[arg(long = "as", value_enum)]
    pub kind: Kind,
    /// With `--as mode`: the data came from MODE SENSE(6) (4-byte header).
    #[arg(long)]
    pub six: bool,
}

/// Reads and converts the hex file.
fn read_hex(path: &str) -> sgctl::Result<Vec<u8>> {
    let mut s = String::new();
    let r = if path == "-" {
        std::io::stdin().read_to_string(&mut s).map(|_| ())
    } else {
        std::fs::read(path).and_then(|b| {
            s = String::from_utf8(b).map_err(|_| {
                std::io::Error::new(std::io::ErrorKind::InvalidData, "not a text file")
            })?;
            Ok(())
        })
    };
    r.map_err(|e| Error::InvalidArgument(format!("cannot read {path}: {e}")))?;
    let bytes = parse_inhex(&s).map_err(|e| Error::InvalidArgument(format!("{path}: {e}")))?;
    if bytes.is_empty() {
        return Err(Error::InvalidArgument(format!(
            "{path}: no hex bytes found"
        )));
    }
    Ok(bytes)
}

/// Decodes `bytes` as `kind` into a report (no device).
pub(crate) fn decode(bytes: &[u8], kind: Kind, six: bool) -> sgctl::Result<Report> {
    decode_into(bytes, kind, six, ToReport)
}

/// [`DecodeOut`] into a [`Report`] (`sgctl decode`).
pub(crate) struct ToReport;

impl DecodeOut for ToReport {
    type Out = Report;
    fn out<T: serde::Serialize>(self, data: &T, text: String, exit: u8) -> Report {
        Report::new(None, data, text).with_exit(exit)
    }
}

/// Runs `sgctl decode`.
pub(crate) fn run(ctx: &mut Ctx, args: DecodeArgs) -> anyhow::Result<Report> {
    let bytes = read_hex(&args.inhex)?;
    if ctx.hex {
        return Ok(super::fetch::hex_report(None, &bytes));
    }
    let r = decode(&bytes, args.kind, args.six)?;
    if r.exit == sgctl::exit::DECODE_PROBLEMS {
        ctx.warn("the response is inconsistent: decoded as far as the bytes go (see problems)");
    }
    Ok(r)
}
