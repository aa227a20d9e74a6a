//! `sgctl vpd DEVICE [--page P]`: a VPD page by number or sg_vpd acronym (`di`, `bl`, ...);
//! without `--page` the Supported VPD Pages list; `--page all` decodes every supported page.

use super::{fetch, Ctx, Report};
use sgctl::decode::vpd_text;
use sgctl::error::Error;
use sgctl::scsi::vpd;

/// Arguments of `sgctl vpd`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "PAGES: sv 0x00, sn 0x80, iod 0x81, aod 0x82, di 0x83, sii 0x84, mna 0x85, \
ei 0x86, mpp 0x87, sp 0x88, ai 0x89, pc 0x8a, dc 0x8b, cfa 0x8c, psm 0x8d, tpc 0x8f, pslu 0x90, \
pspo 0x91, sfs 0x92, bl 0xb0, bdc 0xb1, lbpv 0xb2, ref 0xb3, sbl 0xb4, bdce 0xb5, zbdc 0xb6, \
ble 0xb7, fp 0xb8, cpr 0xb9 are decoded; on a tape drive or medium changer 0xb0-0xb5 are the \
SSC pages sad, mas, tas, adsn, dtde, lbpro. Any other page is shown in hex with its name. `all` \
decodes every page the device lists in page 0x00.\n\nA page whose lengths do not add up is \
decoded as far as the bytes go (like sg_vpd) and its problems are listed (`problems` in JSON); \
the exit status is then 9."
)]
pub(crate) struct VpdArgs {
    /// Device address.
    pub device: String,
    /// Page: number (0x83, 131, 83h), sg_vpd acronym (di), or `all`.
    #[arg(long, short)]
    pub page: Option<String>,
}

/// Resolves `--page`; `None` means all.
pub(crate) fn resolve_page(p: Option<&str>) -> sgctl::Result<Option<u8>> {
    match p {
        None => Ok(Some(0)),
        Some(s) if s.eq_ignore_ascii_case("all") => Ok(None),
        Some(s) => vpd::page_from_str(s).map(Some).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "unknown VPD page '{s}' (use a number such as 0x83 or an acronym such as di)"
            ))
        }),
    }
}

/// Runs `sgctl vpd`.
pub(crate) fn run(ctx: &mut Ctx, args: VpdArgs) -> anyhow::Result<Report> {
    let page = resolve_page(args.page.as_deref())?;
    let mut t = sgctl::device::open(
        &args.device,
        sgctl::device::OpenOptions::traced(ctx.verbose),
    )?
    .transport;
    let dev = Some(args.device.as_str());
    let Some(page) = page else {
        let list = vpd::supported::parse(&fetch::vpd(t.as_mut(), 0)?)?;
        let mut pages = Vec::new();
        let mut txt = String::new();
        let mut problems = false;
        for code in list.pages {
            let raw = match fetch::vpd(t.as_mut(), code) {
                Ok(r) => r,
                Err(e) => {
                    ctx.warn(format!("VPD page 0x{code:02x}: {e}"));
                    continue;
                }
            };
            if ctx.hex {
                txt.push_str(&format!(
                    "VPD page 0x{code:02x}:\n{}",
                    sgctl::bytes::hexdump(&raw)
                ));
                pages.push(serde_json::json!({"page_code": code, "hex": sgctl::bytes::hex(&raw)}));
                continue;
            }
            match vpd::decode_best(&raw) {
                Ok(p) => {
                    problems |= !p.problems.is_empty();
                    txt.push_str(&vpd_text::decoded(&p));
                    pages.push(serde_json::to_value(&p).unwrap_or_default());
                }
                Err(e) => ctx.warn(format!("VPD page 0x{code:02x}: {e}")),
            }
        }
        let r = Report::new(dev, &serde_json::json!({ "pages": pages }), txt);
        return Ok(with_problems(ctx, r, problems));
    };
    // An unlisted page is not asked for: the drive would reject it with ILLEGAL REQUEST and
    // count that as a non-medium error (a read-only command must leave the counters alone).
    if page != 0 {
        let listed = sgctl::cmd::probe::vpd_pages(t.as_mut())?;
        if !listed.contains(&page) {
            return Err(Error::Unsupported(format!(
                "VPD page 0x{page:02x} ({}) is not in the device's Supported VPD Pages list \
                 [{}]; not asked for",
                vpd::page_name(page),
                listed
                    .iter()
                    .map(|p| format!("{p:02x}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            ))
            .into());
        }
    }
    let raw = fetch::vpd(t.as_mut(), page)?;
    if ctx.hex {
        return Ok(fetch::hex_report(dev, &raw));
    }
    let p = vpd::decode_best(&raw).map_err(Error::Parse)?;
    let r = Report::new(dev, &p, vpd_text::decoded(&p));
    Ok(with_problems(ctx, r, !p.problems.is_empty()))
}

/// Exit status 9 (and a warning) when a decoded response had problems.
pub(crate) fn with_problems(ctx: &mut Ctx, r: Report, problems: bool) -> Report {
    if problems {
        ctx.warn("the response is inconsistent: decoded as far as the bytes go (see problems)");
        r.with_exit(sgctl::exit::DECODE_PROBLEMS)
    } else {
        r
    }
}
