//! `sgctl logs DEVICE [--page P[,SUB]] [--pc ...]`: LOG SENSE, decoded like sg_logs.

use super::{Ctx, Report};
use anyhow::{bail, Context};
use serde::Serialize;
use sgctl::logpage::{self, text, DecodedPage};
use sgctl::ops::gate;
use sgctl::ops::health::read::{self, PageError};
use sgctl::scsi::log_select::LogSelectCdb;
use sgctl::scsi::log_sense::PageControl;
use std::path::PathBuf;

/// Read and decode log pages.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Without --page, lists the supported pages (0x00/0xFF, else 0x00) and decodes every one.
Vendor pages (0x30-0x3E) are listed with their code and shown in hex.
--hex prints the raw pages; --json carries both the decode and the hex of every page.
--reset sends LOG SELECT with PCR=1: the drive sets the parameters of every page (or of
--page only) back to their defaults. No user data is touched, but the counters' history is
lost, so it goes through the safety gate like the erase commands: every path of the drive
must be unused (not mounted, no holders), --confirm SERIAL|WWN must name the drive (or type it
on a terminal), and a start/end record goes to the audit log. --dry-run prints the CDB and
sends nothing.

EXIT STATUS: 0 every page decoded; 8 some pages could not be read (the others are shown);
9 a page is inconsistent (a length that overruns the page, a parameter shorter than its
layout): decoded as far as the bytes go, the problems listed under the page (parameter codes
the standard does not define are listed too, without exit 9).")]
pub(crate) struct LogsArgs {
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
    /// With --reset: serial number or WWN naming the drive.
    #[arg(long = "confirm", value_name = "SERIAL|WWN", requires = "reset")]
    pub confirm: Vec<String>,
    /// With --reset: print the LOG SELECT CDB, send nothing.
    #[arg(long, requires = "reset")]
    pub dry_run: bool,
    /// With --reset: audit log [default: $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl].
    #[arg(long, value_name = "FILE", requires = "reset")]
    pub audit_log: Option<PathBuf>,
    /// Decode LOG SENSE responses from a file (sg3_utils --inhex format: hex bytes, '#'
    /// comments; several pages back to back) instead of a device.
    #[arg(long, value_name = "FILE")]
    pub inhex: Option<PathBuf>,
}

/// Parses `P` or `P,SUB` (page code 0..0x3f, subpage 0..0xff); a bad value is a usage error.
pub(crate) fn parse_page_arg(s: &str) -> anyhow::Result<(u8, u8)> {
    let bad = |e: String| sgctl::Error::InvalidArgument(format!("--page: {e}"));
    let (p, sub) = match s.split_once(',') {
        Some((p, sub)) => (p, Some(sub)),
        None => (s, None),
    };
    let p = super::num::code(p, "a page code", 0x3f).map_err(bad)?;
    let sub = match sub {
        Some(x) => super::num::code(x, "a subpage code", 0xff).map_err(bad)?,
        None => 0,
    };
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
pub(crate) fn run(ctx: &mut Ctx, args: LogsArgs) -> anyhow::Result<Report> {
    let pc = PageControl::parse(&args.pc).ok_or_else(|| {
        sgctl::Error::InvalidArgument(format!(
            "--pc '{}': use current, cumulative, threshold, default or default-threshold",
            args.pc
        ))
    })?;
    let want = args.page.as_deref().map(parse_page_arg).transpose()?;
    if args.reset {
        let dev = args
            .device
            .as_deref()
            .ok_or_else(|| sgctl::Error::InvalidArgument("--reset needs a DEVICE".into()))?;
        if args.inhex.is_some() {
            bail!("--reset and --inhex are exclusive");
        }
        let mut t =
            sgctl::device::open(dev, sgctl::device::OpenOptions::traced(ctx.verbose))?.transport;
        let host = sgctl::discover::DiscoverHost;
        let mut prompter = super::prompt::WordedPrompter::new(
            "sgctl: logs --reset clears the drive's log counters (error counters, statistics, \
             self-test and scan history may be lost; user data is not touched).",
        );
        return reset(ctx, &args, pc, want, t.as_mut(), &host, &mut prompter);
    }
    let data = if let Some(path) = &args.inhex {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let bytes = sgctl::bytes::parse_inhex(&text).map_err(sgctl::Error::Parse)?;
        let mut pages = Vec::new();
        for b in logpage::split_pages(&bytes) {
            let p = logpage::parse(b).map_err(sgctl::Error::Parse)?;
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
        let mut t =
            sgctl::device::open(dev, sgctl::device::OpenOptions::traced(ctx.verbose))?.transport;
        match want {
            Some((pg, sub)) => {
                // An unlisted page is not asked for: the drive would reject it with ILLEGAL
                // REQUEST and count that as a non-medium error.
                if !sgctl::logpage::LogPage::is_list_page(pg, sub) {
                    let (listed, _) = read::supported_pages(t.as_mut())?;
                    if !listed
                        .iter()
                        .any(|p| p.page_code == pg && p.subpage_code == sub)
                    {
                        return Err(sgctl::Error::Unsupported(format!(
                            "log page 0x{pg:02x},0x{sub:02x} is not in the device's supported \
                             log pages list; not asked for (`sgctl logs DEVICE --page 0` lists them)"
                        ))
                        .into());
                    }
                }
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
        // Pages decoded as far as their bytes go (a length that overruns, a parameter cut
        // short): listed under each page, exit 9. A parameter code the standard does not
        // define is listed too, but is no inconsistency.
        if data.pages.iter().any(|p| p.inconsistent) {
            ctx.warn("a log page is inconsistent: decoded as far as the bytes go (see problems)");
            sgctl::exit::DECODE_PROBLEMS
        } else {
            sgctl::exit::OK
        }
    } else {
        for e in &data.errors {
            ctx.warn(format!(
                "page 0x{:02x},0x{:02x}: {}",
                e.page_code, e.subpage_code, e.error
            ));
        }
        sgctl::exit::PARTIAL
    };
    Ok(Report::new(args.device.as_deref(), &data, text).with_exit(exit))
}

#[derive(Debug, Serialize)]
struct ResetData {
    cdb: String,
    dry_run: bool,
    sent: bool,
    job_id: Option<String>,
    audit_log: Option<String>,
}

/// `--reset`: LOG SELECT PCR=1 through the safety gate.
fn reset(
    ctx: &mut Ctx,
    args: &LogsArgs,
    pc: PageControl,
    page: Option<(u8, u8)>,
    t: &mut dyn sgctl::transport::Transport,
    host: &dyn sgctl::host::HostView,
    prompter: &mut dyn gate::Prompter,
) -> anyhow::Result<Report> {
    let dev = args.device.as_deref().unwrap_or_default();
    let (pg, sub) = page.unwrap_or((0, 0));
    let cmd = LogSelectCdb::new(pc)
        .pcr(true)
        .page_code(pg)
        .subpage_code(sub);
    let cdb = cmd.build();
    let planned = gate::PlannedCommand::new("LOG SELECT (PCR=1)", &cdb, &[]);
    let id = read::identity(t)?;
    if args.dry_run {
        gate::check_not_in_use(host, dev)?;
        // A `--confirm` naming another drive is refused as in the real run.
        let name = gate::DriveName {
            serial: id.serial.clone(),
            wwn: id.wwn.clone(),
        };
        if !args.confirm.is_empty() && !args.confirm.iter().any(|c| name.matches(c)) {
            return Err(sgctl::Error::from(sgctl::error::Refusal::NotNamed {
                address: dev.into(),
                drive: name.describe(),
            })
            .into());
        }
        let data = ResetData {
            cdb: sgctl::bytes::spaced_hex(&cdb),
            dry_run: true,
            sent: false,
            job_id: None,
            audit_log: None,
        };
        return Ok(Report::new(
            Some(dev),
            &data,
            format!("dry run: would send {}\n", planned.render()),
        ));
    }
    let name = gate::DriveName {
        serial: id.serial.clone(),
        wwn: id.wwn.clone(),
    };
    let confirmation = gate::Confirmation {
        tokens: args.confirm.clone(),
        interactive: !ctx.json && std::io::IsTerminal::is_terminal(&std::io::stdin()),
    };
    let cleared = gate::clear(
        host,
        gate::GateRequest {
            job: "log-reset",
            address: dev,
            name: &name,
            confirmation: &confirmation,
            audit: sgctl::ops::audit::AuditLog::resolve(args.audit_log.as_deref()),
        },
        prompter,
    )?;
    cleared.session(
        serde_json::json!({"cdb": sgctl::bytes::spaced_hex(&cdb), "serial": id.serial}),
        || sgctl::ops::logs::send_reset(t, &cleared, &cmd),
        |r| {
            let outcome = if r.is_ok() { "success" } else { "failure" };
            let error = r.as_ref().err().map(|e| e.to_string());
            (outcome, serde_json::json!({ "error": error }))
        },
    )?;
    let data = ResetData {
        cdb: sgctl::bytes::spaced_hex(&cdb),
        dry_run: false,
        sent: true,
        job_id: Some(cleared.job_id.clone()),
        audit_log: Some(cleared.audit_path().display().to_string()),
    };
    Ok(Report::new(
        Some(dev),
        &data,
        format!(
            "{dev}: log parameters reset ({}); audit record {} in {}\n",
            planned.render(),
            cleared.job_id,
            cleared.audit_path().display()
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    use sgctl::transport::{Completion, DataBuf, Transport};
    use std::time::Duration;

    /// Answers INQUIRY/VPD 0x00 (listing 0x80)/VPD 0x80 as serial "S123", accepts LOG SELECT; records every CDB.
    #[derive(Default)]
    struct Drive {
        cdbs: Vec<Vec<u8>>,
    }

    impl Transport for Drive {
        fn execute(
            &mut self,
            cdb: &[u8],
            data: DataBuf<'_>,
            _t: Duration,
        ) -> sgctl::Result<Completion> {
            self.cdbs.push(cdb.to_vec());
            let answer: Vec<u8> = match (cdb[0], cdb[1] & 1, cdb[2]) {
                (0x12, 0, _) => {
                    let mut d = vec![0u8; 36];
                    d[2] = 6;
                    d[3] = 2;
                    d[4] = 31; // ADDITIONAL LENGTH: the shared INQUIRY parser checks it
                    d[8..16].copy_from_slice(b"TOSHIBA ");
                    d[16..32].copy_from_slice(b"PX03SNF040      ");
                    d
                }
                (0x12, 1, 0x00) => vec![0, 0x00, 0, 2, 0x00, 0x80],
                (0x12, 1, 0x80) => b"\x00\x80\x00\x04S123".to_vec(),
                (0x4c, _, _) => vec![],
                _ => {
                    return Ok(Completion::check_condition(sgctl::sense::build_fixed(
                        sgctl::sense::SenseKey::IllegalRequest,
                        0x24,
                        0,
                    )))
                }
            };
            if let DataBuf::In(b) = data {
                let n = answer.len().min(b.len());
                b[..n].copy_from_slice(&answer[..n]);
                return Ok(Completion {
                    resid: b.len() - n,
                    ..Completion::good()
                });
            }
            Ok(Completion::good())
        }
        fn address(&self) -> String {
            "sim:test".into()
        }
    }

    struct Nobody;
    impl gate::Prompter for Nobody {
        fn ask(&mut self, _q: &str) -> Option<String> {
            None
        }
    }

    fn args(extra: &[&str]) -> LogsArgs {
        #[derive(clap::Parser)]
        struct P {
            #[command(flatten)]
            a: LogsArgs,
        }
        let mut v = vec!["logs", "sim:test", "--reset"];
        v.extend_from_slice(extra);
        <P as clap::Parser>::parse_from(v).a
    }

    fn sent_log_select(d: &Drive) -> Vec<Vec<u8>> {
        d.cdbs.iter().filter(|c| c[0] == 0x4c).cloned().collect()
    }

    #[test]
    fn reset_goes_through_the_gate() {
        let host = sgctl::host::LinuxHost::default();
        let dir = tempfile::tempdir().unwrap();
        let audit = dir.path().join("audit.jsonl");
        let audit_s = audit.to_str().unwrap();
        let mut ctx = Ctx::default();

        // Dry run: CDB shown, nothing sent.
        let mut d = Drive::default();
        let a = args(&["--dry-run"]);
        let r = reset(
            &mut ctx,
            &a,
            PageControl::Cumulative,
            None,
            &mut d,
            &host,
            &mut Nobody,
        )
        .unwrap();
        assert!(
            r.text.contains("4c 02 40 00 00 00 00 00 00 00"),
            "{}",
            r.text
        );
        assert!(sent_log_select(&d).is_empty());

        // No confirmation / wrong confirmation: refused, nothing sent.
        let mut d = Drive::default();
        let a = args(&["--audit-log", audit_s]);
        let e = reset(
            &mut ctx,
            &a,
            PageControl::Cumulative,
            None,
            &mut d,
            &host,
            &mut Nobody,
        )
        .unwrap_err();
        assert!(crate::cli::advice::chain(&e).contains("--confirm"), "{e}");
        let a = args(&["--confirm", "S999", "--audit-log", audit_s]);
        let e = reset(
            &mut ctx,
            &a,
            PageControl::Cumulative,
            None,
            &mut d,
            &host,
            &mut Nobody,
        )
        .unwrap_err();
        assert_eq!(
            e.downcast_ref::<sgctl::Error>().unwrap().exit_code(),
            sgctl::exit::REFUSED
        );
        assert!(sent_log_select(&d).is_empty());
        assert!(!audit.exists());

        // Confirmed: one LOG SELECT PCR=1 (page 0x0d only), start and end records.
        let a = args(&["--confirm", "S123", "--audit-log", audit_s]);
        let r = reset(
            &mut ctx,
            &a,
            PageControl::Cumulative,
            Some((0x0d, 0)),
            &mut d,
            &host,
            &mut Nobody,
        )
        .unwrap();
        assert_eq!(
            sent_log_select(&d),
            vec![vec![0x4c, 0x02, 0x4d, 0, 0, 0, 0, 0, 0, 0]]
        );
        assert_eq!(r.data["sent"], true);
        let log = std::fs::read_to_string(&audit).unwrap();
        let lines: Vec<serde_json::Value> = log
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0]["event"], "start");
        assert_eq!(lines[0]["job"], "log-reset");
        assert_eq!(lines[1]["outcome"], "success");
    }

    #[test]
    fn page_args() {
        assert_eq!(parse_page_arg("0x0d,0x01").unwrap(), (0x0d, 1));
        assert_eq!(parse_page_arg("47").unwrap(), (0x2f, 0));
        assert_eq!(parse_page_arg("0x19,32").unwrap(), (0x19, 0x20));
        assert!(parse_page_arg("0x40").is_err());
        assert!(parse_page_arg("temp").is_err());
    }
}
