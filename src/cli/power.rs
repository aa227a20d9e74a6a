//! `sgctl power DEVICE [--active|--idle[=a|b|c]|--standby[=z|y]|--stop|--start|--timers]`:
//! START STOP UNIT with power conditions, and the power condition REQUEST SENSE reports.

use super::{Ctx, Report};
use serde::Serialize;
use sgctl::cmd::{run_none, run_query};
use sgctl::ops::gate;
use sgctl::scsi::request_sense;
use sgctl::scsi::start_stop::{power_state_from_sense, PowerRequest, StartStopUnitCdb};
use sgctl::transport::{Transport, DEFAULT_TIMEOUT};
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `sgctl power`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = "\
Without an action, shows the power condition REQUEST SENSE reports (5E/xx: idle or standby
and whether by command or timer; 04/02: stopped). The actions send START STOP UNIT (SBC-5
5.27) with a POWER CONDITION: --active, --idle (idle_a; =b, =c for deeper idle), --standby
(standby_z; =y), --timers (LU_CONTROL: the Power Condition mode page's timers take over, see
`sgctl modes DEV --get po.SZCT`), --start, --stop. A command that needs the medium brings an
idle or standby drive back to active by itself; a stopped drive answers NOT READY 04/02 until
--start, so --stop goes through the safety gate: no path of the drive may be in use and
--confirm SERIAL|WWN must name it (or type it on a terminal).

Every action writes start and end records to the audit log (--audit-log, else
$SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl); --dry-run prints the CDB and sends
nothing. Compare: sg_start --stop, sg_start --pc=3, sdparm --command=stop.

Examples:
  sgctl power /dev/sg3
  sgctl power /dev/sg3 --standby
  sgctl power /dev/sg3 --stop --confirm ZA1B2C3D
  sgctl power /dev/sg3 --start")]
pub(crate) struct PowerArgs {
    /// Device address.
    pub device: String,
    /// Active power condition.
    #[arg(long, group = "action")]
    pub active: bool,
    /// Idle power condition: a (default), b or c.
    #[arg(long, group = "action", value_name = "a|b|c", num_args = 0..=1, default_missing_value = "a")]
    pub idle: Option<String>,
    /// Standby power condition: z (default) or y.
    #[arg(long, group = "action", value_name = "z|y", num_args = 0..=1, default_missing_value = "z")]
    pub standby: Option<String>,
    /// Hand power management back to the mode page's timers (LU_CONTROL).
    #[arg(long, group = "action")]
    pub timers: bool,
    /// Start the unit (START=1).
    #[arg(long, group = "action")]
    pub start: bool,
    /// Stop the unit (START=0): medium access fails until --start (needs --confirm).
    #[arg(long, group = "action")]
    pub stop: bool,
    /// Return at once (IMMED=1) instead of when the condition is reached.
    #[arg(long)]
    pub immed: bool,
    /// With --stop: serial number or WWN naming the drive.
    #[arg(long = "confirm", value_name = "SERIAL|WWN")]
    pub confirm: Vec<String>,
    /// Print the START STOP UNIT CDB, send nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Audit log [default: $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl].
    #[arg(long, value_name = "FILE")]
    pub audit_log: Option<PathBuf>,
}

#[derive(Debug, Serialize)]
struct State {
    power_condition: String,
    sense_key: String,
    asc: u8,
    ascq: u8,
}

#[derive(Debug, Serialize)]
struct ActionData {
    action: &'static str,
    cdb: String,
    dry_run: bool,
    sent: bool,
    job_id: Option<String>,
    audit_log: Option<String>,
    after: Option<State>,
}

/// REQUEST SENSE and what it says of the power condition.
fn state(t: &mut dyn Transport) -> sgctl::Result<State> {
    let mut buf = vec![0u8; usize::from(request_sense::ALLOCATION)];
    let n = run_query(
        t,
        &request_sense::RequestSenseCdb::new(request_sense::ALLOCATION).build(),
        &mut buf,
        DEFAULT_TIMEOUT,
    )?;
    let s = request_sense::parse(&buf[..n.min(buf.len())])?;
    let pc = power_state_from_sense(s.asc, s.ascq)
        .map(str::to_string)
        .unwrap_or_else(|| {
            if s.asc == 0 && s.ascq == 0 {
                "active (no low power condition reported)".into()
            } else {
                format!("not reported ({})", s.summary())
            }
        });
    Ok(State {
        power_condition: pc,
        sense_key: format!("{:?}", s.key),
        asc: s.asc,
        ascq: s.ascq,
    })
}

fn request(args: &PowerArgs) -> anyhow::Result<Option<PowerRequest>> {
    let bad = |v: &str, what: &str| {
        sgctl::Error::InvalidArgument(format!(
            "{what} '{v}': use {}",
            if what == "--idle" {
                "a, b or c"
            } else {
                "z or y"
            }
        ))
    };
    Ok(if args.active {
        Some(PowerRequest::Active)
    } else if let Some(v) = &args.idle {
        Some(PowerRequest::Idle(match v.to_ascii_lowercase().as_str() {
            "a" => 0,
            "b" => 1,
            "c" => 2,
            _ => return Err(bad(v, "--idle").into()),
        }))
    } else if let Some(v) = &args.standby {
        Some(PowerRequest::Standby(
            match v.to_ascii_lowercase().as_str() {
                "z" => 0,
                "y" => 1,
                _ => return Err(bad(v, "--standby").into()),
            },
        ))
    } else if args.timers {
        Some(PowerRequest::LuControl)
    } else if args.start {
        Some(PowerRequest::Start)
    } else if args.stop {
        Some(PowerRequest::Stop)
    } else {
        None
    })
}

/// Runs `sgctl power`.
pub(crate) fn run(ctx: &mut Ctx, args: PowerArgs) -> anyhow::Result<Report> {
    let req = request(&args)?;
    let dev = args.device.as_str();
    let mut t =
        sgctl::device::open(dev, sgctl::device::OpenOptions::traced(ctx.verbose))?.transport;
    let Some(req) = req else {
        let st = state(t.as_mut())?;
        let text = format!("{dev}: {}\n", st.power_condition);
        return Ok(Report::new(Some(dev), &st, text));
    };
    let c = StartStopUnitCdb::new(req).immed(args.immed).build();
    let planned = gate::PlannedCommand::new("START STOP UNIT", &c, &[]);
    let id = sgctl::ops::query::identity(t.as_mut())?;
    let name = gate::DriveName {
        serial: id.serial.clone(),
        wwn: id.wwn.clone(),
    };
    let host = sgctl::discover::DiscoverHost;
    let gated = req == PowerRequest::Stop;
    if args.dry_run {
        if gated {
            gate::check_not_in_use(&host, dev)?;
        }
        if !args.confirm.is_empty() && !args.confirm.iter().any(|c| name.matches(c)) {
            return Err(sgctl::Error::from(sgctl::error::Refusal::NotNamed {
                address: dev.into(),
                drive: name.describe(),
            })
            .into());
        }
        let data = ActionData {
            action: req.name(),
            cdb: sgctl::bytes::spaced_hex(&c),
            dry_run: true,
            sent: false,
            job_id: None,
            audit_log: None,
            after: None,
        };
        return Ok(Report::new(
            Some(dev),
            &data,
            format!(
                "dry run: would send {} ({})\n",
                planned.render(),
                req.name()
            ),
        ));
    }
    let audit = sgctl::ops::audit::AuditLog::resolve(args.audit_log.as_deref());
    let rec = if gated {
        let confirmation = gate::Confirmation {
            tokens: args.confirm.clone(),
            interactive: !ctx.json && std::io::IsTerminal::is_terminal(&std::io::stdin()),
        };
        let mut prompter = super::prompt::WordedPrompter::new(
            "sgctl: power --stop stops the drive: it serves no reads or writes until \
             `sgctl power DEV --start`. User data is not touched.",
        );
        gate::clear(
            &host,
            gate::GateRequest {
                job: "power",
                address: dev,
                name: &name,
                confirmation: &confirmation,
                audit,
            },
            &mut prompter,
        )?
    } else {
        gate::record_only(&host, "power", dev, &name, audit)?
    };
    let started = rec.start(serde_json::json!({
        "action": req.name(),
        "cdb": sgctl::bytes::spaced_hex(&c),
        "drive": {"serial": id.serial, "wwn": id.wwn},
    }))?;
    // Spinning a disk up or down takes tens of seconds; two minutes is sg_start's order.
    let r = run_none(t.as_mut(), &c, Duration::from_secs(120)).map_err(|e| {
        super::fetch::unsupported(
            e,
            &format!("the drive does not support START STOP UNIT {}", req.name()),
        )
    });
    let after = if r.is_ok() {
        state(t.as_mut()).ok()
    } else {
        None
    };
    let end = started.end(
        if r.is_ok() { "success" } else { "failure" },
        serde_json::json!({
            "error": r.as_ref().err().map(|e| e.to_string()),
            "power_condition": after.as_ref().map(|s| s.power_condition.clone()),
        }),
    );
    r?;
    end?;
    let text = format!(
        "{dev}: {} sent ({}); now {}\n  audit record {} in {}\n",
        req.name(),
        planned.render(),
        after
            .as_ref()
            .map(|s| s.power_condition.as_str())
            .unwrap_or("unknown"),
        rec.job_id,
        rec.audit_path().display()
    );
    let data = ActionData {
        action: req.name(),
        cdb: sgctl::bytes::spaced_hex(&c),
        dry_run: false,
        sent: true,
        job_id: Some(rec.job_id.clone()),
        audit_log: Some(rec.audit_path().display().to_string()),
        after,
    };
    Ok(Report::new(Some(dev), &data, text))
}
