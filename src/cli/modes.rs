//! `sgctl modes DEVICE [--page P] [--subpage S] [--pc PC] [--six] [--llbaa]`: MODE SENSE with
//! the header, block descriptors and decoded pages (0x01, 0x08, 0x0A, 0x19, 0x1C);
//! `--get PAGE.FIELD` and `--set PAGE.FIELD=VALUE [--save]` read and change named fields as
//! sdparm does ([`sgctl::ops::mode_set`]).

use super::{fetch, Ctx, Report};
use sgctl::decode::text;
use sgctl::error::Error;
use sgctl::scsi::mode::{self, HeaderKind, PageControl};

/// Page control values on the command line.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub(crate) enum Pc {
    /// Current values.
    Current,
    /// Changeable values (mask).
    Changeable,
    /// Default values.
    Default,
    /// Saved values.
    Saved,
}

/// Arguments of `sgctl modes`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = "\
--page, --get and --set name pages as sdparm does, from one table (docs/cli-conventions.md):
rw (01h read-write error recovery, also rw-err), dr (02h), ve (07h), ca (08h caching, also
cache), co (0Ah control), coe (0Ah/01h), atag, cdla, cdlb, iohi, bop (0Ah/02h-06h), pl (18h),
pp (19h), pcd, spc (19h/01h-02h), po (1Ah power condition, also power), ps (1Ah/01h), ie (1Ch
informational exceptions, also iec), bc (1Ch/01h), lbp (1Ch/02h), or their long names
(caching, informational-exceptions, power-condition, ...), or a number, or `all`.
--get and --set take PAGE.FIELD, or FIELD alone when only one page has it; fields are named
on rw, ca, co, po and ie.
Fields, among others: ca.WCE (write cache enable), ca.RCD (read cache disable), ca.DRA;
ie.DEXCPT (1 = failure prediction not reported), ie.EWASC, ie.TEST, ie.MRIE (method of
reporting: 0 none, 2 unit attention, 3 conditional recovered error, 4 unconditional recovered
error, 5 no sense, 6 only on REQUEST SENSE), ie.INTT (interval timer, 100 ms), ie.REPC
(report count); po.IDLE_A, po.IACT (idle_a timer, 100 ms), po.STANDBY_Z, po.SZCT (standby_z
timer, 100 ms), po.IDLE_B/IBCT, po.IDLE_C/ICCT, po.STANDBY_Y/SYCT; co.D_SENSE, co.GLTSD;
rw.AWRE, rw.ARRE, rw.RRC, rw.WRC. An unknown name lists the page's fields.

--set reads the page's current values and its changeable-values mask (MODE SENSE PC=0 and
PC=1) first, refuses a field the drive does not let change (exit 7) before anything is sent,
writes the current page with only the named fields changed (MODE SELECT(10), PF=1; SP=1 with
--save so the value survives a power cycle), reads the page back and compares (exit 5 when
the drive did not take the value). Each MODE SELECT has start and end records in the audit
log (--audit-log, else $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl); --dry-run prints
the CDB and parameter list and sends nothing. A value the page already holds is not sent
again unless --save.

Examples:
  sgctl modes /dev/sg3 --get WCE --get ie.MRIE
  sgctl modes /dev/sg3 --set ca.WCE=0 --save          (sdparm --set=WCE=0 --save)
  sgctl modes /dev/sg3 --set ie.DEXCPT=0 --set ie.MRIE=6
  sgctl modes /dev/sg3 --set po.STANDBY_Z=1 --set po.SZCT=36000 --dry-run")]
pub(crate) struct ModesArgs {
    /// Device address.
    pub device: String,
    /// Page: sdparm abbreviation or name (ca, cache, caching, ie, co, control, po, power,
    /// rw, rw-err, ...; see --help), a number (0x08, 8, 08h), or `all` [default: all].
    #[arg(long, short, value_name = "PAGE", value_parser = parse_page_arg)]
    pub page: Option<(u8, Option<u8>)>,
    /// Subpage code (default 0; 0xff with all pages).
    #[arg(long, value_parser = super::opcodes::parse_num::<u8>)]
    pub subpage: Option<u8>,
    /// Page control.
    #[arg(long, value_enum, default_value = "current")]
    pub pc: Pc,
    /// Use MODE SENSE(6) instead of (10).
    #[arg(long)]
    pub six: bool,
    /// Accept long LBA block descriptors (MODE SENSE(10) LLBAA).
    #[arg(long)]
    pub llbaa: bool,
    /// Disable block descriptors (DBD).
    #[arg(long)]
    pub dbd: bool,
    /// Show a field: current value, whether it is changeable, default and saved values
    /// (repeatable).
    #[arg(long, value_name = "PAGE.FIELD", conflicts_with = "set")]
    pub get: Vec<String>,
    /// Change a field (repeatable): only changeable fields, the rest of the page as it is.
    #[arg(long, value_name = "PAGE.FIELD=VALUE")]
    pub set: Vec<String>,
    /// With --set: save the new values (SP=1) so they survive a power cycle.
    #[arg(long, requires = "set")]
    pub save: bool,
    /// With --set: print the MODE SELECT CDB and parameter list, send nothing.
    #[arg(long, requires = "set")]
    pub dry_run: bool,
    /// With --set: audit log [default: $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl].
    #[arg(long, value_name = "FILE", requires = "set")]
    pub audit_log: Option<std::path::PathBuf>,
}

/// `--page`: a name from the one mode page table, `all`, or a number up to 0x3f.
fn parse_page_arg(s: &str) -> Result<(u8, Option<u8>), String> {
    sgctl::scsi::mode::fields::page_arg(s)
}

/// Runs `sgctl modes`.
pub(crate) fn run(ctx: &mut Ctx, args: ModesArgs) -> anyhow::Result<Report> {
    if !args.set.is_empty() {
        return super::modes_set::set(ctx, &args);
    }
    if !args.get.is_empty() {
        return super::modes_set::get(ctx, &args);
    }
    let page = args.page.map_or(mode::ALL_PAGES, |p| p.0);
    if page > 0x3f {
        return Err(Error::InvalidArgument(format!("mode page 0x{page:x} is above 0x3f")).into());
    }
    let named_sub = args.page.and_then(|p| p.1);
    let sub = args
        .subpage
        .or(named_sub)
        .unwrap_or(if page == mode::ALL_PAGES {
            mode::ALL_SUBPAGES
        } else {
            0
        });
    let (pc, pc_name) = match args.pc {
        Pc::Current => (PageControl::Current, "current"),
        Pc::Changeable => (PageControl::Changeable, "changeable"),
        Pc::Default => (PageControl::Default, "default"),
        Pc::Saved => (PageControl::Saved, "saved"),
    };
    let mut t = sgctl::device::open(
        &args.device,
        sgctl::device::OpenOptions::traced(ctx.verbose),
    )?
    .transport;
    let (raw, kind) = sense_with_fallback(t.as_mut(), &args, pc, page, sub)?;
    let dev = Some(args.device.as_str());
    if ctx.hex {
        return Ok(fetch::hex_report(dev, &raw));
    }
    let m = mode::decode(&raw, kind).map_err(Error::Parse)?;
    let txt = text::mode(&m, Some(pc_name)) + &sgctl::decode::vpd_text::problems(&m.problems);
    let r = Report::new(dev, &m, txt);
    Ok(super::vpd::with_problems(ctx, r, !m.problems.is_empty()))
}

/// MODE SENSE; when the default "all pages, all subpages" is rejected (older devices do not
/// know subpages) asks again for the pages without subpages, as sdparm does.
fn sense_with_fallback(
    t: &mut dyn sgctl::transport::Transport,
    args: &ModesArgs,
    pc: PageControl,
    page: u8,
    sub: u8,
) -> sgctl::Result<(Vec<u8>, HeaderKind)> {
    let r = sense(t, args, pc, page, sub);
    if matches!(r, Err(Error::Unsupported(_))) && args.subpage.is_none() && sub == 0xff {
        return sense(t, args, pc, page, 0);
    }
    r
}

/// One MODE SENSE (6) or (10), re-issued with the full length when the first allocation was
/// too small for MODE DATA LENGTH.
fn sense(
    t: &mut dyn sgctl::transport::Transport,
    args: &ModesArgs,
    pc: PageControl,
    page: u8,
    sub: u8,
) -> sgctl::Result<(Vec<u8>, HeaderKind)> {
    let what = format!("mode page 0x{page:02x},0x{sub:02x} is not supported by the device");
    if args.six {
        let cdb = mode::ModeSense6Cdb::new(page, 252)
            .subpage_code(sub)
            .pc(pc)
            .dbd(args.dbd)
            .build();
        let r = fetch::data_in(t, &cdb, 252).map_err(|e| fetch::unsupported(e, &what))?;
        return Ok((r, HeaderKind::Six));
    }
    let cdb = mode::ModeSense10Cdb::new(page, 4096)
        .subpage_code(sub)
        .pc(pc)
        .dbd(args.dbd)
        .llbaa(args.llbaa)
        .build();
    let r = fetch::data_in(t, &cdb, 4096).map_err(|e| fetch::unsupported(e, &what))?;
    let want = r
        .get(..2)
        .map(|b| usize::from(u16::from_be_bytes([b[0], b[1]])) + 2)
        .unwrap_or(0);
    if want > 4096 {
        let alloc = u16::try_from(want).unwrap_or(u16::MAX);
        let cdb = mode::ModeSense10Cdb::new(page, alloc)
            .subpage_code(sub)
            .pc(pc)
            .dbd(args.dbd)
            .llbaa(args.llbaa)
            .build();
        return Ok((
            fetch::data_in(t, &cdb, usize::from(alloc))?,
            HeaderKind::Ten,
        ));
    }
    Ok((r, HeaderKind::Ten))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sgctl::sense::{build_fixed, SenseKey};
    use sgctl::transport::{Completion, DataBuf, Transport};
    use std::time::Duration;

    /// A device that rejects subpage 0xFF with 24/00 and answers a minimal MODE SENSE(10).
    struct NoSubpages(Vec<Vec<u8>>);

    impl Transport for NoSubpages {
        fn execute(
            &mut self,
            cdb: &[u8],
            data: DataBuf<'_>,
            _: Duration,
        ) -> sgctl::Result<Completion> {
            self.0.push(cdb.to_vec());
            if cdb[3] == 0xff {
                return Ok(Completion::check_condition(build_fixed(
                    SenseKey::IllegalRequest,
                    0x24,
                    0,
                )));
            }
            let resp = [0u8, 6, 0, 0, 0, 0, 0, 0];
            if let DataBuf::In(b) = data {
                b[..8].copy_from_slice(&resp);
                return Ok(Completion {
                    resid: b.len() - 8,
                    ..Completion::good()
                });
            }
            Ok(Completion::good())
        }
        fn address(&self) -> String {
            "mock".into()
        }
    }

    #[test]
    fn all_subpages_rejected_falls_back_to_subpage_0() {
        let args = ModesArgs {
            device: "mock".into(),
            page: None,
            subpage: None,
            pc: Pc::Current,
            six: false,
            llbaa: false,
            dbd: false,
            get: vec![],
            set: vec![],
            save: false,
            dry_run: false,
            audit_log: None,
        };
        let mut t = NoSubpages(vec![]);
        let (raw, kind) =
            sense_with_fallback(&mut t, &args, PageControl::Current, 0x3f, 0xff).unwrap();
        assert_eq!((raw.len(), kind), (8, HeaderKind::Ten));
        assert_eq!(t.0.len(), 2);
        assert_eq!((t.0[0][3], t.0[1][3]), (0xff, 0x00));
        // An explicit --subpage is not second-guessed.
        let explicit = ModesArgs {
            subpage: Some(0xff),
            ..args
        };
        let mut t = NoSubpages(vec![]);
        assert!(matches!(
            sense_with_fallback(&mut t, &explicit, PageControl::Current, 0x3f, 0xff),
            Err(Error::Unsupported(_))
        ));
        assert_eq!(t.0.len(), 1);
    }
}
