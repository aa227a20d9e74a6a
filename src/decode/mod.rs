//! Saved responses decoded without a drive: the parser, the text rendering (sg3_utils' look)
//! and the exit status of each kind of data `sgctl decode --as KIND` reads. The renderers of
//! decoded pages live here too ([`text`], [`vpd_text`], `ses_text`): the commands that fetch a
//! page from a drive print it with the same functions.

pub(crate) mod ses_text;
pub mod text;
pub mod vpd_text;

use crate::bytes::ParseError;
use crate::scsi::{inquiry, mode, read_capacity, report_luns, rsoc, vpd};
use crate::ses;

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

/// Where [`decode_into`] hands the decoded value, its text rendering and its exit status.
/// `sgctl decode` builds the `--json` envelope's report; the fuzz targets serialize to a sink
/// instead (the same `Serialize` impls run, without building a `serde_json::Value`).
pub trait DecodeOut {
    /// What [`decode_into`] returns.
    type Out;
    /// Takes the decoded value, its text and the exit status.
    fn out<T: serde::Serialize>(self, data: &T, text: String, exit: u8) -> Self::Out;
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
            let txt = ses_text::config(&d.page) + &vpd_text::problems(&d.problems);
            out.out(&d, txt, problems_exit(&d.problems))
        }
        Kind::SesStatus => {
            let (c, mut problems) = ses_config(bytes, "ses-status")?;
            let p = ses_page(bytes, ses::page::ENCLOSURE_STATUS, "ses-status")?;
            let mut d = ses::decode_status(&c, p)?;
            problems.append(&mut d.problems);
            d.problems = problems;
            let txt = ses_text::status(&d.page) + &vpd_text::problems(&d.problems);
            out.out(&d, txt, problems_exit(&d.problems))
        }
        Kind::SesElementDesc => {
            let (c, mut problems) = ses_config(bytes, "ses-element-desc")?;
            let p = ses_page(bytes, ses::page::ELEMENT_DESCRIPTOR, "ses-element-desc")?;
            let mut d = ses::decode_element_desc(&c, p)?;
            problems.append(&mut d.problems);
            d.problems = problems;
            let txt = ses_text::element_desc(&d.page) + &vpd_text::problems(&d.problems);
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
            let txt = ses_text::addl_status(&d.page) + &vpd_text::problems(&d.problems);
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
