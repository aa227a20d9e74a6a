//! `sgctl logs DEVICE [--page P[,SUB]] [--pc ...]`: LOG SENSE, decoded like sg_logs.

use super::{Ctx, Report};
use crate::logpage::{self, text, DecodedPage};
use crate::ops::health::read::{self, PageError};
use crate::scsi::log_sense::PageControl;
use anyhow::{anyhow, bail, Context};
use serde::Serialize;
use std::path::PathBuf;

/// Read and decode log pages.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Without --page, lists the supported pages (0x00/0xFF, else 0x00) and decodes every one.
Vendor pages (0x30-0x3E) are listed with their code and shown in hex.
--hex prints the raw pages; --json carries both the decode and the hex of every page.
--reset (LOG SELECT PCR=1) clears the drive's counters: it is destructive and needs the
safety gate (issue 7), which is not on main yet, so it is refused for now.")]
pub struct LogsArgs {
    /// Device address (/dev/sgN, /dev/sdX, /dev/bsg/H:C:T:L, sim:PROFILE).
    #[arg(required_unless_present = "inhex")]
    pub device: Option<String>,
    /// Page to read: P or P,SUB; numbers are decimal or 0x-prefixed hex (e.g. 0x0d,0x01).
    #[arg(long, short = 'p', value_name = "P[,SUB]")]
    pub page: Option<String>,
    /// Page control: current (= cumulative), threshold, default (= default cumulative),
    /// default-threshold.
    #[arg(long, default_value = "current", value_name = "PC")]
    pub pc: String,
    /// Parameter pointer: first parameter code to return.
    #[arg(long, default_value_t = 0, value_name = "CODE")]
    pub param_pointer: u16,
    /// Reset the log counters with LOG SELECT (PCR=1). Destructive; see below.
    #[arg(long)]
    pub reset: bool,
    /// Decode LOG SENSE responses from a file (sg3_utils --inhex format: hex bytes, '#'
    /// comments; several pages back to back) instead of a device.
    #[arg(long, value_name = "FILE")]
    pub inhex: Option<PathBuf>,
}

/// Parses a decimal or 0x-hex number.
fn num(s: &str) -> anyhow::Result<u8> {
    let s = s.trim();
    let v = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u8::from_str_radix(h, 16)
    } else {
        s.parse::<u8>()
    };
    v.map_err(|_| anyhow!("'{s}' is not a page number (decimal or 0x hex, 0..255)"))
}

/// Parses `P` or `P,SUB`.
pub fn parse_page_arg(s: &str) -> anyhow::Result<(u8, u8)> {
    let (p, sub) = match s.split_once(',') {
        Some((p, sub)) => (num(p)?, num(sub)?),
        None => (num(s)?, 0),
    };
    if p > 0x3f {
        bail!("page code 0x{p:02x} is out of range (0..0x3f)");
    }
    Ok((p, sub))
}

#[derive(Debug, Serialize)]
struct LogsData {
    supported_pages: Vec<logpage::supported::PageId>,
    pages: Vec<DecodedPage>,
    errors: Vec<PageError>,
}

fn render(data: &LogsData, hex_only: bool) -> String {
    let mut out = String::new();
    for p in &data.pages {
        out.push_str(&text::render(p, hex_only));
        out.push('\n');
    }
    for e in &data.errors {
        out.push_str(&format!(
            "page 0x{:02x},0x{:02x}: could not be read: {}\n",
            e.page_code, e.subpage_code, e.error
        ));
    }
    out
}

/// Runs `sgctl logs`.
pub fn run(ctx: &mut Ctx, args: LogsArgs) -> anyhow::Result<Report> {
    let pc = PageControl::parse(&args.pc).ok_or_else(|| {
        crate::Error::InvalidArgument(format!(
            "--pc '{}': use current, cumulative, threshold, default or default-threshold",
            args.pc
        ))
    })?;
    let want = args.page.as_deref().map(parse_page_arg).transpose()?;
    if args.reset {
        return Err(crate::Error::Unsupported(
            "--reset (LOG SELECT PCR=1) is not available yet: resetting counters destroys the \
             drive's history and must go through the safety gate (confirmation naming the drive), \
             which is not on main yet"
                .into(),
        )
        .into());
    }
    let data = if let Some(path) = &args.inhex {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let bytes = crate::bytes::parse_inhex(&text).map_err(crate::Error::Parse)?;
        let mut pages = Vec::new();
        for b in logpage::split_pages(&bytes) {
            let p = logpage::parse(b).map_err(crate::Error::Parse)?;
            if want.is_none_or(|(pg, sub)| pg == p.page_code && sub == p.subpage_code) {
                pages.push(logpage::decode(&p));
            }
        }
        LogsData {
            supported_pages: vec![],
            pages,
            errors: vec![],
        }
    } else {
        let dev = args.device.as_deref().unwrap_or_default();
        let mut t = crate::device::open(dev)?;
        match want {
            Some((pg, sub)) => {
                let p = read::read_page(t.as_mut(), pg, sub, pc, args.param_pointer)?;
                LogsData {
                    supported_pages: vec![],
                    pages: vec![logpage::decode(&p)],
                    errors: vec![],
                }
            }
            None => {
                let all = read::read_all(t.as_mut(), pc)?;
                LogsData {
                    supported_pages: all.supported,
                    pages: all.pages.iter().map(logpage::decode).collect(),
                    errors: all.errors,
                }
            }
        }
    };
    let text = render(&data, ctx.hex);
    let exit = if data.errors.is_empty() {
        crate::exit::OK
    } else {
        for e in &data.errors {
            ctx.warn(format!(
                "page 0x{:02x},0x{:02x}: {}",
                e.page_code, e.subpage_code, e.error
            ));
        }
        crate::exit::PARTIAL
    };
    Ok(Report::new(args.device.as_deref(), &data, text).with_exit(exit))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_args() {
        assert_eq!(parse_page_arg("0x0d,0x01").unwrap(), (0x0d, 1));
        assert_eq!(parse_page_arg("47").unwrap(), (0x2f, 0));
        assert_eq!(parse_page_arg("0x19,32").unwrap(), (0x19, 0x20));
        assert!(parse_page_arg("0x40").is_err());
        assert!(parse_page_arg("temp").is_err());
    }
}
