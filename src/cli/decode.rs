//! `sgctl decode --inhex FILE --as KIND`: decodes a saved response without the drive. FILE is
//! ASCII hex as sg3_utils' `--inhex` reads it (whitespace or comma separated bytes, `#`
//! comments, optional hexdump offsets); `-` reads stdin. For `vpd` the page code comes from
//! the data itself.

use super::{text, vpd_text, Ctx, Report};
use crate::bytes::{parse_inhex, ParseError};
use crate::error::Error;
use crate::scsi::{inquiry, mode, read_capacity, report_luns, rsoc, vpd};
use crate::ses;
use std::io::Read;

/// What the bytes are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    /// Standard INQUIRY data.
    Inquiry,
    /// A VPD page (page code from byte 1).
    Vpd,
    /// READ CAPACITY (10) data.
    Readcap10,
    /// READ CAPACITY (16) data.
    Readcap16,
    /// Sense data (fixed or descriptor; REQUEST SENSE data).
    Sense,
    /// REPORT SUPPORTED OPERATION CODES, all commands.
    Opcodes,
    /// REPORT SUPPORTED OPERATION CODES, one command.
    Opcode,
    /// MODE SENSE(10) data (add --six for MODE SENSE(6)).
    Mode,
    /// REPORT LUNS data.
    Luns,
    /// A LOG SENSE page (page code from byte 0; decoded as `sgctl logs` does).
    Logpage,
    /// SES Configuration page (01h). The file may hold several pages back to back, as
    /// `sg_ses --page=all -HHH` captures them and `sg_ses --inhex` reads them.
    SesConfig,
    /// SES Enclosure Status page (02h); needs the Configuration page (01h) in the same file.
    SesStatus,
    /// SES Element Descriptor page (07h); needs the Configuration page in the same file.
    SesElementDesc,
    /// SES Additional Element Status page (0Ah); needs the Configuration page in the same file.
    SesAddlStatus,
}

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
pub struct DecodeArgs {
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
fn read_hex(path: &str) -> crate::Result<Vec<u8>> {
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
pub fn decode(bytes: &[u8], kind: Kind, six: bool) -> crate::Result<Report> {
    decode_into(bytes, kind, six, ToReport)
}

/// Where [`decode_into`] hands the decoded value, its text rendering and its exit status.
/// [`decode`] builds the `--json` envelope's [`Report`]; the fuzz targets serialize to a sink
/// instead (the same `Serialize` impls run, without building a `serde_json::Value`).
pub trait DecodeOut {
    /// What [`decode_into`] returns.
    type Out;
    /// Takes the decoded value, its text and the exit status.
    fn out<T: serde::Serialize>(self, data: &T, text: String, exit: u8) -> Self::Out;
}

/// [`DecodeOut`] into a [`Report`] (`sgctl decode`).
pub struct ToReport;

impl DecodeOut for ToReport {
    type Out = Report;
    fn out<T: serde::Serialize>(self, data: &T, text: String, exit: u8) -> Report {
        Report::new(None, data, text).with_exit(exit)
    }
}

/// Decodes `bytes` as `kind`: the parser, the text renderer and the exit status of
/// `sgctl decode --as KIND`, handed to `out`.
pub fn decode_into<O: DecodeOut>(
    bytes: &[u8],
    kind: Kind,
    six: bool,
    out: O,
) -> crate::Result<O::Out> {
    Ok(match kind {
        Kind::Inquiry => {
            let i = inquiry::parse_best(bytes)?;
            let txt = text::inquiry(&i) + &vpd_text::problems(&i.problems);
            out.out(&i, txt, problems_exit(&i.problems))
        }
        Kind::Vpd => {
            let p = vpd::decode_best(bytes)?;
            out.out(&p, vpd_text::decoded(&p), problems_exit(&p.problems))
        }
        Kind::Readcap10 => {
            let r = read_capacity::parse10(bytes)?;
            out.out(&r, text::readcap10(&r), crate::exit::OK)
        }
        Kind::Readcap16 => {
            let r = read_capacity::parse16(bytes)?;
            out.out(&r, text::readcap16(&r), crate::exit::OK)
        }
        Kind::Sense => {
            let s = crate::sense::Sense::parse(bytes)?;
            let txt = text::sense(&s) + &vpd_text::problems(&s.problems);
            out.out(&s, txt, problems_exit(&s.problems))
        }
        Kind::Opcodes => {
            let a = rsoc::decode_all(bytes)?;
            let txt = text::opcodes_all(&a) + &vpd_text::problems(&a.problems);
            out.out(&a, txt, problems_exit(&a.problems))
        }
        Kind::Opcode => {
            let o = rsoc::decode_one(bytes)?;
            // The opcode is not in the response, but CDB usage byte 0 echoes it.
            let op = o.cdb_usage_bytes.first().copied().unwrap_or(0);
            let txt = text::opcodes_one(&o, op, None) + &vpd_text::problems(&o.problems);
            out.out(&o, txt, problems_exit(&o.problems))
        }
        Kind::Mode => {
            let k = if six {
                mode::HeaderKind::Six
            } else {
                mode::HeaderKind::Ten
            };
            let m = mode::decode(bytes, k)?;
            let txt = text::mode(&m, None) + &vpd_text::problems(&m.problems);
            out.out(&m, txt, problems_exit(&m.problems))
        }
        Kind::Luns => {
            let r = report_luns::parse(bytes)?;
            out.out(&r, text::luns(&r, 0), crate::exit::OK)
        }
        Kind::Logpage => {
            // The page code comes from byte 0; the decoder is the health area's
            // (crate::logpage), shared with `sgctl logs`.
            let p = crate::logpage::parse(bytes)?;
            let d = crate::logpage::decode(&p);
            let txt = crate::logpage::text::render(&d, false);
            let exit = if d.inconsistent {
                crate::exit::DECODE_PROBLEMS
            } else {
                crate::exit::OK
            };
            out.out(&d, txt, exit)
        }
        Kind::SesConfig => {
            let c = ses_page(bytes, ses::page::CONFIGURATION, "ses-config")?;
            let d = ses::decode_config(c)?;
            let txt = super::ses_text::config(&d.page) + &vpd_text::problems(&d.problems);
            out.out(&d, txt, problems_exit(&d.problems))
        }
        Kind::SesStatus => {
            let (c, mut problems) = ses_config(bytes, "ses-status")?;
            let p = ses_page(bytes, ses::page::ENCLOSURE_STATUS, "ses-status")?;
            let mut d = ses::decode_status(&c, p)?;
            problems.append(&mut d.problems);
            d.problems = problems;
            let txt = super::ses_text::status(&d.page) + &vpd_text::problems(&d.problems);
            out.out(&d, txt, problems_exit(&d.problems))
        }
        Kind::SesElementDesc => {
            let (c, mut problems) = ses_config(bytes, "ses-element-desc")?;
            let p = ses_page(bytes, ses::page::ELEMENT_DESCRIPTOR, "ses-element-desc")?;
            let mut d = ses::decode_element_desc(&c, p)?;
            problems.append(&mut d.problems);
            d.problems = problems;
            let txt = super::ses_text::element_desc(&d.page) + &vpd_text::problems(&d.problems);
            out.out(&d, txt, problems_exit(&d.problems))
        }
        Kind::SesAddlStatus => {
            let (c, mut problems) = ses_config(bytes, "ses-addl-status")?;
            let p = ses_page(
                bytes,
                ses::page::ADDITIONAL_ELEMENT_STATUS,
                "ses-addl-status",
            )?;
            let mut d = ses::decode_addl_status(&c, p)?;
            problems.append(&mut d.problems);
            d.problems = problems;
            let txt = super::ses_text::addl_status(&d.page) + &vpd_text::problems(&d.problems);
            out.out(&d, txt, problems_exit(&d.problems))
        }
    })
}

/// The first page with `code` among the SES pages in `bytes`; a parse error naming what is
/// missing when there is none.
fn ses_page<'a>(bytes: &'a [u8], code: u8, kind: &str) -> crate::Result<&'a [u8]> {
    let pages = ses::split_pages(bytes);
    pages
        .iter()
        .find(|p| p.0 == code)
        .map(|p| p.1)
        .ok_or_else(|| {
            let found: Vec<String> = pages.iter().map(|p| format!("{:02x}h", p.0)).collect();
            ParseError::new(
                "SES pages",
                format!(
                    "--as {kind} needs page {code:02x}h ({}); the input holds {}",
                    ses::page_name(code),
                    if found.is_empty() {
                        "no complete page header".to_string()
                    } else {
                        found.join(", ")
                    }
                ),
            )
            .into()
        })
}

/// The Configuration page that lays out the other SES pages, with its problems prefixed.
fn ses_config(bytes: &[u8], kind: &str) -> crate::Result<(ses::Config, Vec<String>)> {
    let c = ses_page(bytes, ses::page::CONFIGURATION, kind)?;
    let d = ses::decode_config(c)?;
    let problems = d
        .problems
        .into_iter()
        .map(|p| format!("configuration page: {p}"))
        .collect();
    Ok((d.page, problems))
}

/// Exit status of a best-effort decode: 9 when it found problems.
pub fn problems_exit(problems: &[String]) -> u8 {
    if problems.is_empty() {
        crate::exit::OK
    } else {
        crate::exit::DECODE_PROBLEMS
    }
}

/// Runs `sgctl decode`.
pub fn run(ctx: &mut Ctx, args: DecodeArgs) -> anyhow::Result<Report> {
    let bytes = read_hex(&args.inhex)?;
    if ctx.hex {
        return Ok(super::fetch::hex_report(None, &bytes));
    }
    let r = decode(&bytes, args.kind, args.six)?;
    if r.exit == crate::exit::DECODE_PROBLEMS {
        ctx.warn("the response is inconsistent: decoded as far as the bytes go (see problems)");
    }
    Ok(r)
}
