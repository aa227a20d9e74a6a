//! `sgctl modes DEVICE --get PAGE.FIELD` and `--set PAGE.FIELD=VALUE [--save]`: named mode
//! page fields read and changed as sdparm does (the flow: [`sgctl::ops::mode_set`]).

use super::modes::ModesArgs;
use super::{Ctx, Report};
use serde::Serialize;
use sgctl::error::Error;
use sgctl::ops::gate;
use sgctl::ops::mode_set::{self, Change};
use sgctl::scsi::mode::fields::{find_field, page_label, Field};
use sgctl::scsi::mode::PageControl;
use std::fmt::Write as _;

fn parse_value(s: &str) -> Option<u64> {
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

/// Parses `PAGE.FIELD=VALUE`.
pub(crate) fn parse_set(s: &str) -> Result<Change, Error> {
    let (name, value) = s.split_once('=').ok_or_else(|| {
        Error::InvalidArgument(format!("--set {s}: write PAGE.FIELD=VALUE, e.g. ca.WCE=0"))
    })?;
    let field = find_field(name.trim()).map_err(Error::InvalidArgument)?;
    let value = parse_value(value.trim())
        .ok_or_else(|| Error::InvalidArgument(format!("--set {s}: '{value}' is not a number")))?;
    if value > field.max() {
        return Err(Error::InvalidArgument(format!(
            "--set {s}: {} holds 0..={}",
            field.acronym,
            field.max()
        )));
    }
    Ok(Change { field, value })
}

#[derive(Debug, Serialize)]
struct SetData {
    dry_run: bool,
    save: bool,
    pages: Vec<mode_set::PagePlan>,
    sent: usize,
    job_id: Option<String>,
    audit_log: Option<String>,
}

/// `--set`.
pub(crate) fn set(ctx: &mut Ctx, args: &ModesArgs) -> anyhow::Result<Report> {
    let changes = args
        .set
        .iter()
        .map(|s| parse_set(s))
        .collect::<Result<Vec<_>, _>>()?;
    for (i, a) in changes.iter().enumerate() {
        if changes[..i].iter().any(|b| b.field == a.field) {
            return Err(
                Error::InvalidArgument(format!("--set names {} twice", a.field.acronym)).into(),
            );
        }
    }
    let dev = args.device.as_str();
    let mut t =
        sgctl::device::open(dev, sgctl::device::OpenOptions::traced(ctx.verbose))?.transport;
    let plans = mode_set::plan(t.as_mut(), &changes, args.save)?;
    let render = |p: &mode_set::PagePlan| -> String {
        let ch: Vec<String> = p
            .changes
            .iter()
            .map(|c| format!("{} {} -> {}", c.field, c.old, c.new))
            .collect();
        ch.join(", ")
    };
    if args.dry_run {
        let mut text = String::new();
        for p in &plans {
            let _ = writeln!(
                text,
                "dry run: {}: {}\n  would send MODE SELECT(10) cdb: {}\n  parameter list: {}",
                p.label,
                render(p),
                sgctl::bytes::spaced_hex(&p.cdb),
                sgctl::bytes::spaced_hex(&p.parameter_list)
            );
        }
        let data = SetData {
            dry_run: true,
            save: args.save,
            pages: plans,
            sent: 0,
            job_id: None,
            audit_log: None,
        };
        return Ok(Report::new(Some(dev), &data, text));
    }
    let todo: Vec<&mode_set::PagePlan> =
        plans.iter().filter(|p| !p.unchanged || args.save).collect();
    if todo.is_empty() {
        let mut text = String::new();
        for p in &plans {
            let _ = writeln!(
                text,
                "{dev}: {}: {} (already; nothing sent)",
                p.label,
                render(p)
            );
        }
        let data = SetData {
            dry_run: false,
            save: args.save,
            pages: plans,
            sent: 0,
            job_id: None,
            audit_log: None,
        };
        return Ok(Report::new(Some(dev), &data, text));
    }
    let id = sgctl::ops::query::identity(t.as_mut())?;
    let name = gate::DriveName {
        serial: id.serial.clone(),
        wwn: id.wwn.clone(),
    };
    let host = sgctl::discover::DiscoverHost;
    let rec = gate::record_only(
        &host,
        "mode-select",
        dev,
        &name,
        sgctl::ops::audit::AuditLog::resolve(args.audit_log.as_deref()),
    )?;
    let started = rec.start(serde_json::json!({
        "save": args.save,
        "pages": &todo,
        "drive": {"serial": id.serial, "wwn": id.wwn},
    }))?;
    let mut sent = 0usize;
    let mut r: sgctl::Result<Vec<String>> = Ok(Vec::new());
    for p in &todo {
        if let Err(e) = mode_set::send(t.as_mut(), &rec, p) {
            r = Err(e);
            break;
        }
        sent += 1;
    }
    if r.is_ok() {
        r = mode_set::verify(t.as_mut(), &plans, &changes);
    }
    let outcome = match &r {
        Ok(bad) if bad.is_empty() => "success",
        _ => "failure",
    };
    let end = started.end(
        outcome,
        serde_json::json!({
            "sent": sent,
            "error": r.as_ref().err().map(|e| e.to_string()),
            "mismatches": r.as_ref().ok(),
        }),
    );
    let bad = r?;
    end?;
    let mut text = String::new();
    for p in &plans {
        let _ = writeln!(
            text,
            "{dev}: {}: {}{}",
            p.label,
            render(p),
            if args.save { " (saved)" } else { "" }
        );
    }
    let _ = writeln!(
        text,
        "  {sent} MODE SELECT(10) sent; audit record {} in {}",
        rec.job_id,
        rec.audit_path().display()
    );
    let data = SetData {
        dry_run: false,
        save: args.save,
        pages: plans,
        sent,
        job_id: Some(rec.job_id.clone()),
        audit_log: Some(rec.audit_path().display().to_string()),
    };
    if !bad.is_empty() {
        for b in &bad {
            ctx.warn(b.clone());
        }
        return Ok(Report::new(Some(dev), &data, text).with_exit(sgctl::exit::CHECK_FAILED));
    }
    Ok(Report::new(Some(dev), &data, text))
}

#[derive(Debug, Serialize)]
struct GetField {
    field: String,
    page: u8,
    subpage: u8,
    description: &'static str,
    current: Option<u64>,
    changeable: Option<bool>,
    default: Option<u64>,
    saved: Option<u64>,
}

/// (page, subpage, page control) of a page read once for several fields.
type PageKey = (u8, u8, u8);

/// `--get`: current, changeable, default and saved values of each field.
pub(crate) fn get(ctx: &mut Ctx, args: &ModesArgs) -> anyhow::Result<Report> {
    let fields = args
        .get
        .iter()
        .map(|s| find_field(s.trim()).map_err(Error::InvalidArgument))
        .collect::<Result<Vec<Field>, _>>()?;
    let dev = args.device.as_str();
    let mut t =
        sgctl::device::open(dev, sgctl::device::OpenOptions::traced(ctx.verbose))?.transport;
    let mut cache: Vec<(PageKey, Option<Vec<u8>>)> = Vec::new();
    let mut out = Vec::new();
    for f in &fields {
        let mut val = |pc: PageControl, t: &mut dyn sgctl::transport::Transport| {
            let key = (f.page, f.subpage, pc as u8);
            if let Some((_, v)) = cache.iter().find(|(k, _)| *k == key) {
                return Ok::<_, Error>(v.clone());
            }
            let v = match mode_set::read_page(t, f.page, f.subpage, pc) {
                Ok(v) => Some(v),
                // Saved/default values a drive does not keep are "-", not an error.
                Err(Error::Unsupported(_)) if pc != PageControl::Current => None,
                Err(e) => return Err(e),
            };
            cache.push((key, v.clone()));
            Ok(v)
        };
        let cur = match val(PageControl::Current, t.as_mut()) {
            Ok(v) => v,
            Err(Error::Unsupported(m)) => {
                ctx.warn(m);
                None
            }
            Err(e) => return Err(e.into()),
        };
        let (cha, def, sav) = if cur.is_some() {
            (
                val(PageControl::Changeable, t.as_mut())?,
                val(PageControl::Default, t.as_mut())?,
                val(PageControl::Saved, t.as_mut())?,
            )
        } else {
            (None, None, None)
        };
        out.push(GetField {
            field: format!(
                "{}.{}",
                page_label(f.page, f.subpage)
                    .split(' ')
                    .next()
                    .unwrap_or(""),
                f.acronym
            ),
            page: f.page,
            subpage: f.subpage,
            description: f.description,
            current: cur.as_deref().and_then(|p| f.get(p)),
            changeable: cha.as_deref().and_then(|p| f.changeable(p)),
            default: def.as_deref().and_then(|p| f.get(p)),
            saved: sav.as_deref().and_then(|p| f.get(p)),
        });
    }
    let opt = |v: Option<u64>| v.map(|v| v.to_string()).unwrap_or_else(|| "-".into());
    let mut text = String::new();
    for g in &out {
        let _ = writeln!(
            text,
            "{:<14} {:>10}  [changeable: {}, default: {}, saved: {}]  {}",
            g.field,
            opt(g.current),
            match g.changeable {
                Some(true) => "y",
                Some(false) => "n",
                None => "-",
            },
            opt(g.default),
            opt(g.saved),
            g.description
        );
    }
    // Exit 7 when no field's page is there at all.
    let exit = if out.iter().all(|g| g.current.is_none()) {
        sgctl::exit::UNSUPPORTED
    } else {
        sgctl::exit::OK
    };
    Ok(Report::new(Some(dev), &out, text).with_exit(exit))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_syntax() {
        let c = parse_set("ca.WCE=0").unwrap();
        assert_eq!((c.field.page, c.field.acronym, c.value), (0x08, "WCE", 0));
        let c = parse_set("ie.INTT=0x10").unwrap();
        assert_eq!(c.value, 16);
        assert!(parse_set("WCE").is_err());
        assert!(parse_set("WCE=2").is_err());
        assert!(parse_set("ca.WCE=x").is_err());
        assert!(parse_set("ca.MRIE=1").is_err());
    }
}
