//! The command line of the destructive commands (`format`, `sanitize`, `tcg erase|revert`):
//! the safety flags, the real host and devices, progress bars or JSON Lines on stderr, and the
//! text of the summary. The jobs and their runner live in [`sgctl::ops::jobs`].

use super::prompt::TtyPrompter;
use crate::cli::{Ctx, Report};
use serde_json::json;
use sgctl::discover::DiscoverHost;
use sgctl::error::{Error, Result};
use sgctl::exit;
pub(crate) use sgctl::ops::jobs::JobEnv;
use sgctl::ops::jobs::{self, Job, JobEvent, JobOptions, ProgressSink, RunSummary};
use sgctl::ops::record::Outcome;
use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Options every destructive command takes.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct SafetyArgs {
    /// Serial number or WWN naming the drive (repeat once per drive). Without it sgctl asks
    /// you to type it when stdin is a terminal; there is no default.
    #[arg(long = "confirm", value_name = "SERIAL|WWN")]
    pub confirm: Vec<String>,
    /// Print the exact CDBs (hex) that would be sent; send nothing that changes the drive.
    #[arg(long)]
    pub dry_run: bool,
    /// Audit log, JSON Lines, one record before and one after each job
    /// [default: $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl].
    #[arg(long, value_name = "FILE")]
    pub audit_log: Option<PathBuf>,
    /// Write a certificate: FILE (JSON, one record per drive), FILE.txt (text), FILE.html and
    /// FILE.pdf (a printable certificate of sanitization; PDF/A with the JSON attached); several
    /// drives also get FILE.manifest.json and its PDF (docs/records.md).
    #[arg(long, value_name = "FILE")]
    pub certificate: Option<PathBuf>,
    /// Replace a certificate (FILE, FILE.txt, FILE.html, FILE.pdf, the manifest) that already
    /// exists. Without it an existing file refuses the job before anything is sent to a drive.
    /// With `format`, also send a block length or PI type the drive does not list in VPD 0xB4
    /// (the verification afterwards still catches a drive that formats to another size).
    #[arg(long)]
    pub force: bool,
    /// Who performs the job, recorded in the certificate [default: $SGCTL_OPERATOR].
    #[arg(long, value_name = "NAME")]
    pub operator: Option<String>,
    /// Sign the certificate with this Ed25519 key (PKCS#8 PEM, mode 0600; `sgctl certificate
    /// keygen`) [default: $SGCTL_SIGNING_KEY, else unsigned].
    #[arg(long, value_name = "FILE")]
    pub signing_key: Option<PathBuf>,
    /// At most N jobs at once on drives behind the same HBA.
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub max_per_hba: usize,
    /// Time between progress polls, a duration: 5, 5s, 500ms (virtual drives: the drive's clock is advanced instead).
    #[arg(long, value_name = "DURATION", default_value_t = 5.0, value_parser = super::num::poll_seconds)]
    pub poll_interval: f64,
    /// Progress as JSON Lines events on stderr (instead of progress bars).
    #[arg(long)]
    pub progress_json: bool,
    /// Go ahead although another initiator holds a persistent reservation on the drive
    /// (`sgctl reservations DEVICE` shows it; the drive itself may still refuse with
    /// RESERVATION CONFLICT).
    #[arg(long)]
    pub ignore_reservation: bool,
    /// After the jobs, light the locate LED of every drive that passed and the fault LED of
    /// every drive that did not (the enclosure slots the kernel knows, else the slot an
    /// enclosure services device lists the drive's SAS address in, as `sgctl locate` and
    /// `sgctl fault` do; each LED change is audited). Not on --dry-run.
    #[arg(long)]
    pub leds: bool,
    /// With --leds: the enclosure services devices to ask over SG_IO for drives no kernel
    /// enclosure holds (repeatable; /dev/sgN, or a `sim:enclosure` address for virtual drives)
    /// instead of those a scan finds.
    #[arg(long, value_name = "ADDR", requires = "leds")]
    pub enclosure_device: Vec<String>,
    /// The certificate's auditor fields.
    #[command(flatten)]
    pub record: crate::cli::record_args::RecordArgs,
}

impl SafetyArgs {
    /// The library's options for these flags.
    pub(crate) fn options(&self, parameters: serde_json::Value) -> JobOptions {
        JobOptions {
            confirm: self.confirm.clone(),
            dry_run: self.dry_run,
            audit_log: self.audit_log.clone(),
            certificate: self.certificate.clone(),
            operator: self
                .operator
                .clone()
                .or_else(|| std::env::var("SGCTL_OPERATOR").ok())
                .filter(|o| !o.trim().is_empty()),
            signing_key: self.signing_key.clone(),
            max_per_hba: self.max_per_hba,
            poll_interval: self.interval(),
            parameters,
            ignore_reservation: self.ignore_reservation,
            // Filled by `run_jobs_in` from `self.record` (reading the site file can fail).
            record: Default::default(),
            force: self.force,
        }
    }

    fn interval(&self) -> Duration {
        // In range when parsed (`num::poll_seconds`); a value set by code is clamped to the
        // same range, NaN to 0.
        Duration::try_from_secs_f64(self.poll_interval.clamp(0.0, 3600.0)).unwrap_or_default()
    }
}

/// Plans, gates and runs `job` on every address (real host, real devices).
pub(crate) fn run_jobs(
    ctx: &mut Ctx,
    addresses: &[String],
    sa: &SafetyArgs,
    params: serde_json::Value,
    make_job: impl FnMut() -> Box<dyn Job>,
) -> anyhow::Result<Report> {
    let host = DiscoverHost;
    let interrupted = Arc::new(AtomicBool::new(false));
    let interval = sa.interval();
    let verbose = ctx.verbose;
    let flag = interrupted.clone();
    let open = move |a: &str| jobs::open_for_job(a, verbose, interval, flag.clone());
    let mut prompter = TtyPrompter::default();
    // Ctrl-C, SIGTERM and SIGHUP stop watching (the drives go on); the records say
    // "interrupted".
    let _ = super::signals::register_stop_signals(&interrupted);
    let bars = Progress::new(ctx.json || sa.progress_json, sa.progress_json);
    let env = JobEnv {
        host: &host,
        open: &open,
        prompter: &mut prompter,
        interactive: std::io::stdin().is_terminal(),
        interrupted,
        progress: &bars,
        advise: None,
    };
    run_jobs_in(ctx, env, addresses, sa, params, make_job)
}

/// [`run_jobs`] with an explicit environment (its `advise` is replaced by the CLI's advice).
pub(crate) fn run_jobs_in(
    ctx: &mut Ctx,
    mut env: JobEnv<'_>,
    addresses: &[String],
    sa: &SafetyArgs,
    params: serde_json::Value,
    make_job: impl FnMut() -> Box<dyn Job>,
) -> anyhow::Result<Report> {
    env.advise = Some(&crate::cli::advice::CliAdvice);
    let mut opts = sa.options(params);
    // A bad site file or field fails here, before any drive is touched.
    opts.record = sa.record.resolve()?;
    let summary = jobs::run(env, addresses, &opts, make_job)?;
    let leds = (sa.leds && !summary.dry_run).then(|| {
        let named = sa.enclosure_device.clone();
        let virtual_drives = !named.is_empty();
        // One scan of the host for every drive's fallback: its SES devices and the drives'
        // paths both come from it.
        let host = sgctl::discover::HostScan::new(sgctl::discover::ScanOptions::default());
        let devices: Box<dyn FnOnce() -> Vec<String> + '_> = if named.is_empty() {
            Box::new(|| {
                host.scan()
                    .map(|s| sgctl::ops::led::ses::ses_device_addresses(&s))
                    .unwrap_or_default()
            })
        } else {
            Box::new(move || named)
        };
        sgctl::ops::led::light_after_purge(
            std::path::Path::new("/"),
            &summary.records,
            Some(&sgctl::ops::audit::AuditLog::at(summary.audit_log.clone())),
            Some(sgctl::ops::led::SesFallback {
                devices,
                host: &host,
                timeout: std::time::Duration::from_secs(10),
                virtual_drives,
            }),
        )
    });
    let mut report = finish_report(ctx, summary);
    if let Some(leds) = leds {
        if let (Some(obj), Ok(v)) = (report.data.as_object_mut(), serde_json::to_value(&leds)) {
            obj.insert("leds".into(), v);
        }
        for l in &leds {
            match &l.error {
                Some(e) => ctx.warn(format!(
                    "{}: {} LED not set: {e}",
                    l.device,
                    l.led.attribute()
                )),
                None => report.text.push_str(&format!(
                    "{}: {} LED on ({})\n",
                    l.device,
                    l.led.attribute(),
                    l.changes
                        .first()
                        .map(|c| crate::cli::scan::slot_line(&c.enclosure))
                        .unwrap_or_default()
                )),
            }
        }
    }
    Ok(report)
}

/// True when a scanned drive matches `--all-matching FILTER`: every whitespace-separated word
/// of FILTER must occur (case-insensitively) in the drive's vendor, model, serial, firmware or
/// LU name. Only disks (peripheral type 0) match.
pub(crate) fn drive_matches(d: &sgctl::discover::Drive, filter: &str) -> bool {
    if d.peripheral_type != Some(0) {
        return false;
    }
    let hay = [&d.vendor, &d.model, &d.serial, &d.firmware, &d.lu_name]
        .iter()
        .filter_map(|x| x.as_deref())
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    let words: Vec<String> = filter.split_whitespace().map(str::to_lowercase).collect();
    !words.is_empty() && words.iter().all(|w| hay.contains(w.as_str()))
}

/// `--enclosure ID[:SLOTS]`: an enclosure logical identifier (`0x5006…` or without `0x`,
/// as `sgctl scan` shows it) and optionally slots (`3`, `0-11`, `0-3,8,10-11`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PlaceSelector {
    /// Logical identifier, normalised (`0x` and 16 lower-case hex digits).
    pub id: String,
    /// Inclusive slot ranges; empty = every slot.
    pub slots: Vec<(u32, u32)>,
}

impl PlaceSelector {
    /// Parses `ID[:SLOTS]`.
    pub(crate) fn parse(s: &str) -> Result<PlaceSelector> {
        let bad = |why: &str| {
            Error::InvalidArgument(format!(
                "--enclosure {s:?}: {why} (expected ID[:SLOTS], e.g. 0x500605b0000272bf:0-11; \
                 `sgctl scan` lists the enclosures)"
            ))
        };
        let (id, slots) = match s.split_once(':') {
            Some((i, r)) => (i, Some(r)),
            None => (s, None),
        };
        let hex = id
            .strip_prefix("0x")
            .or_else(|| id.strip_prefix("0X"))
            .unwrap_or(id);
        if hex.is_empty() || hex.len() > 16 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(bad("the identifier is not up to 16 hex digits"));
        }
        let n = u64::from_str_radix(hex, 16).map_err(|_| bad("bad identifier"))?;
        let mut ranges = Vec::new();
        if let Some(r) = slots {
            for part in r.split(',') {
                let num = |x: &str| {
                    x.trim()
                        .parse::<u32>()
                        .map_err(|_| bad("a slot is not a number"))
                };
                let (a, b) = match part.split_once('-') {
                    Some((a, b)) => (num(a)?, num(b)?),
                    None => {
                        let a = num(part)?;
                        (a, a)
                    }
                };
                if a > b {
                    return Err(bad("a slot range runs backwards"));
                }
                ranges.push((a, b));
            }
        }
        Ok(PlaceSelector {
            id: format!("{n:#018x}"),
            slots: ranges,
        })
    }

    /// The selector as the user would write it, normalised (`0x…:0-3,8`).
    pub(crate) fn text(&self) -> String {
        let slots: Vec<String> = self
            .slots
            .iter()
            .map(|(a, b)| {
                if a == b {
                    a.to_string()
                } else {
                    format!("{a}-{b}")
                }
            })
            .collect();
        if slots.is_empty() {
            self.id.clone()
        } else {
            format!("{}:{}", self.id, slots.join(","))
        }
    }

    /// True for a disk (peripheral type 0) the kernel places in this enclosure and one of the
    /// slots.
    pub(crate) fn holds(&self, d: &sgctl::discover::Drive) -> bool {
        let Some(e) = d
            .enclosure
            .as_ref()
            .filter(|_| d.peripheral_type == Some(0))
        else {
            return false;
        };
        e.id.as_deref() == Some(self.id.as_str())
            && (self.slots.is_empty()
                || e.slot
                    .is_some_and(|s| self.slots.iter().any(|(a, b)| (*a..=*b).contains(&s))))
    }
}

/// The DEVICEs given, plus one address per scanned drive matching `--all-matching` and
/// `--enclosure` (both, when both are given).
pub(crate) fn resolve_devices(
    devices: &[String],
    all_matching: Option<&str>,
    enclosure: Option<&str>,
) -> Result<Vec<String>> {
    if all_matching.is_none() && enclosure.is_none() {
        return Ok(devices.to_vec());
    }
    let place = enclosure.map(PlaceSelector::parse).transpose()?;
    let scan = sgctl::discover::scan(&sgctl::discover::ScanOptions::default())?;
    select(&scan, devices, all_matching, place.as_ref())
}

/// [`resolve_devices`] over a scan already made.
pub(crate) fn select(
    scan: &sgctl::discover::Scan,
    devices: &[String],
    all_matching: Option<&str>,
    place: Option<&PlaceSelector>,
) -> Result<Vec<String>> {
    let mut out = devices.to_vec();
    let found: Vec<String> = scan
        .drives
        .iter()
        .filter(|d| all_matching.is_none_or(|f| drive_matches(d, f)))
        .filter(|d| place.is_none_or(|p| p.holds(d)))
        .filter_map(|d| d.paths.first().map(|p| p.address.clone()))
        .collect();
    if found.is_empty() {
        let mut what = Vec::new();
        if let Some(f) = all_matching {
            what.push(format!("--all-matching {f:?}"));
        }
        if let Some(p) = place {
            let known: Vec<String> = {
                let mut v: Vec<String> = scan
                    .enclosures
                    .iter()
                    .filter_map(|e| e.id.clone())
                    .collect();
                v.sort();
                v.dedup();
                v
            };
            what.push(format!(
                "--enclosure {} (enclosures known to the kernel: {})",
                p.text(),
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            ));
        }
        return Err(Error::InvalidArgument(format!(
            "{}: no disk matches (see `sgctl scan`)",
            what.join(" and ")
        )));
    }
    for a in found {
        if !out.contains(&a) {
            out.push(a);
        }
    }
    Ok(out)
}

/// `--enclosure ID:SLOT` of a command that runs on one drive (`bench run`, `pts`, `review`):
/// the address of the one disk the kernel places there. A selector naming no disk, or
/// several, is refused (a usage error listing what it names), never narrowed by guessing.
pub(crate) fn resolve_one(enclosure: &str, sysroot: &std::path::Path) -> Result<String> {
    let place = PlaceSelector::parse(enclosure)?;
    let scan = sgctl::discover::scan(&sgctl::discover::ScanOptions {
        sysroot: sysroot.to_path_buf(),
        ..Default::default()
    })?;
    select_one(&scan, &place)
}

/// [`resolve_one`] over a scan already made.
pub(crate) fn select_one(scan: &sgctl::discover::Scan, place: &PlaceSelector) -> Result<String> {
    let mut found = select(scan, &[], None, Some(place))?;
    if found.len() == 1 {
        return Ok(found.remove(0));
    }
    let named: Vec<String> = scan
        .drives
        .iter()
        .filter(|d| place.holds(d))
        .filter_map(|d| {
            let a = d.paths.first()?.address.clone();
            let slot = d.enclosure.as_ref().and_then(|e| e.slot);
            Some(match slot {
                Some(s) => format!("{a} in slot {s}"),
                None => a,
            })
        })
        .collect();
    Err(Error::InvalidArgument(format!(
        "--enclosure {enclosure}: {n} disks there ({list}); this command runs on one drive: \
         name one slot (ID:SLOT) or the device",
        enclosure = place.text(),
        n = found.len(),
        list = named.join(", "),
    )))
}

fn finish_report(ctx: &mut Ctx, mut s: RunSummary) -> Report {
    let values = s.record_values();
    let records = &s.records;
    let mut text = String::new();
    // The records' text (not printed under --json: the JSON carries them).
    for r in records.iter().filter(|_| !ctx.json) {
        // Values from the drive and the command line, escaped for one line each.
        let r = &r.text_view();
        if s.dry_run {
            text.push_str(&format!(
                "{} ({} {} serial {}): dry run, nothing sent{}\n",
                r.device,
                r.drive.vendor,
                r.drive.model,
                r.drive.serial,
                r.message
                    .as_deref()
                    .map(|m| format!(" — {m}"))
                    .unwrap_or_default()
            ));
            for c in &r.commands {
                text.push_str(&format!("  would send {}\n", c.render()));
            }
        } else {
            text.push_str(&r.render_text());
        }
    }
    if records.len() > 1 {
        text.push_str(&format!(
            "\n{:<32} {:<20} {:<14} {:>9}  {}\n",
            "DEVICE", "SERIAL", "OUTCOME", "SECONDS", "EXIT"
        ));
        for r in records {
            let r = &r.text_view();
            text.push_str(&format!(
                "{:<32} {:<20} {:<14} {:>9.1}  {}\n",
                r.device,
                r.drive.serial,
                r.outcome.as_str(),
                r.duration_s.unwrap_or(0.0),
                r.exit_status
            ));
        }
        let ok = records.iter().filter(|r| r.exit_status == exit::OK).count();
        text.push_str(&format!("{ok} of {} drives succeeded\n", records.len()));
    }
    // A job that did not succeed says why in the JSON envelope's messages too (the text
    // shows it as the record's note).
    if ctx.json {
        for r in records {
            if let (Some(m), false) = (&r.message, r.outcome == Outcome::Success) {
                ctx.messages.push(if m.contains(&r.device) {
                    m.clone()
                } else {
                    format!("{}: {}: {m}", r.device, r.outcome.as_str())
                });
            }
        }
    }
    // Where the records went: the audit log (only jobs that passed the gate have records in
    // it; a dry run writes none), the certificate when asked for, and the key that signed it.
    let started = records.iter().any(|r| r.job_id.is_some());
    let written = (!s.dry_run && started).then(|| {
        let beside = |ext: &str| {
            s.certificate.as_ref().map(|c| {
                let mut p = c.as_os_str().to_owned();
                p.push(ext);
                std::path::PathBuf::from(p)
            })
        };
        text.push_str(&format!("audit log: {}\n", s.audit_log.display()));
        match (&s.certificate, &s.signed_by) {
            (Some(c), Some(fp)) => text.push_str(&format!(
                "certificate written to {} (and .txt, .html), signed by key {fp}\n",
                c.display()
            )),
            (Some(c), None) => text.push_str(&format!(
                "certificate written to {} (and .txt, .html), unsigned (--signing-key signs it)\n",
                c.display()
            )),
            (None, _) => text.push_str("no certificate written (--certificate FILE writes one)\n"),
        }
        json!({
            "audit_log": s.audit_log,
            "certificate": s.certificate,
            "certificate_text": beside(".txt"),
            "certificate_html": beside(".html"),
            "signed_by_key": s.signed_by,
        })
    });
    let device = (records.len() == 1).then(|| records[0].device.clone());
    // `{"dry_run", "drives", "records_written"}`, the records' values moved in, not copied.
    let mut data = serde_json::Map::new();
    data.insert("dry_run".into(), json!(s.dry_run));
    data.insert("drives".into(), serde_json::Value::Array(values));
    data.insert("records_written".into(), json!(written));
    Report {
        device,
        data: serde_json::Value::Object(data),
        text,
        exit: s.exit,
        document: None,
    }
}

/// Progress on stderr from the job layer's events: indicatif bars, JSON Lines, or nothing.
pub(crate) struct Progress {
    multi: Option<indicatif::MultiProgress>,
    json: bool,
    lines: Mutex<HashMap<String, Line>>,
}

/// One drive's progress display.
struct Line {
    bar: Option<indicatif::ProgressBar>,
    last: Option<f64>,
}

impl Progress {
    /// `hidden`: no bars (`--json`); `json`: JSON Lines events.
    pub(crate) fn new(hidden: bool, json: bool) -> Progress {
        Progress {
            multi: (!hidden).then(|| {
                indicatif::MultiProgress::with_draw_target(indicatif::ProgressDrawTarget::stderr())
            }),
            json,
            lines: Mutex::new(HashMap::new()),
        }
    }

    fn bar(&self, address: &str) -> Option<indicatif::ProgressBar> {
        self.multi.as_ref().map(|m| {
            let b = m.add(indicatif::ProgressBar::new(1000));
            let style = indicatif::ProgressStyle::with_template(
                "{prefix:30} [{bar:30}] {percent:>3}% {msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
            b.set_style(style.progress_chars("=> "));
            b.set_prefix(sgctl::escape::escape(address).into_owned());
            b
        })
    }
}

impl Progress {
    /// A line for `device` starts.
    pub(crate) fn begin(&self, device: &str) {
        let bar = self.bar(device);
        let mut lines = self.lines.lock().unwrap_or_else(|e| e.into_inner());
        lines.insert(device.to_string(), Line { bar, last: None });
    }

    /// A progress sample for `device` (a JSON Lines event only when the percent changed).
    pub(crate) fn sample(&self, device: &str, percent: Option<f64>, eta: Option<Duration>) {
        let mut lines = self.lines.lock().unwrap_or_else(|e| e.into_inner());
        let Some(l) = lines.get_mut(device) else {
            return;
        };
        if let Some(b) = &l.bar {
            if let Some(p) = percent {
                b.set_position((p * 10.0) as u64);
            }
            b.set_message(match eta {
                Some(e) => format!("ETA {}s", e.as_secs()),
                None => String::new(),
            });
        }
        if self.json && l.last != percent {
            l.last = percent;
            super::output::err_json(
                &json!({"event":"progress","device":device,"percent":percent,
                   "eta_s": eta.map(|e| e.as_secs())}),
            );
        }
    }

    /// The line of `device` ends with `outcome`.
    pub(crate) fn end(&self, device: &str, outcome: &str) {
        let lines = self.lines.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(b) = lines.get(device).and_then(|l| l.bar.as_ref()) {
            if outcome == Outcome::Success.as_str() {
                b.finish_with_message(outcome.to_string());
            } else {
                // The bar stays where the drive last reported (an interrupted format at 6 %
                // shows 6 %, not 100 %).
                b.abandon_with_message(outcome.to_string());
            }
        }
        if self.json {
            super::output::err_json(&json!({"event":"end","device":device,"outcome":outcome}));
        }
    }
}

impl ProgressSink for Progress {
    fn event(&self, e: &JobEvent<'_>) {
        match *e {
            JobEvent::Started { device } => self.begin(device),
            JobEvent::Progress {
                device,
                percent,
                eta,
            } => self.sample(device, percent, eta),
            JobEvent::Finished { device, outcome } => self.end(device, outcome.as_str()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sgctl::ops::record::Outcome;

    #[test]
    fn a_bar_that_did_not_succeed_keeps_its_percentage() {
        let p = Progress::new(false, false);
        for (dev, outcome, want) in [
            ("a", Outcome::Interrupted, 60),
            ("b", Outcome::Failed, 60),
            ("c", Outcome::Success, 1000),
        ] {
            p.begin(dev);
            p.sample(dev, Some(6.0), None);
            p.end(dev, outcome.as_str());
            let lines = p.lines.lock().unwrap();
            let bar = lines[dev].bar.as_ref().unwrap();
            assert_eq!(bar.position(), want, "{dev} {outcome:?}");
            assert_eq!(bar.message(), outcome.as_str());
        }
    }

    #[test]
    fn place_selector() {
        let p = PlaceSelector::parse("0x500605B0000272BF:0-1,3").unwrap();
        assert_eq!(p.id, "0x500605b0000272bf");
        assert_eq!(p.slots, [(0, 1), (3, 3)]);
        assert_eq!(
            PlaceSelector::parse("500605b0000272bf").unwrap().slots,
            Vec::<(u32, u32)>::new()
        );
        for bad in [
            "",
            "0x",
            "zz",
            "0x1:",
            "0x1:3-1",
            "0x1:a",
            "0x12345678901234567",
        ] {
            assert!(PlaceSelector::parse(bad).is_err(), "{bad}");
        }
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sysfs/ses-jbod");
        let scan = sgctl::discover::scan(&sgctl::discover::ScanOptions {
            sysroot: root,
            ..Default::default()
        })
        .unwrap();
        let pick = |s: &str, f: Option<&str>| {
            select(&scan, &[], f, Some(&PlaceSelector::parse(s).unwrap()))
        };
        // Disks only (not the SES devices), one address per drive (not per path).
        assert_eq!(
            pick("0x500605b0000272bf", None).unwrap(),
            ["/dev/sg1", "/dev/sg2", "/dev/sg3"]
        );
        assert_eq!(
            pick("0x500605b0000272bf:1-3", None).unwrap(),
            ["/dev/sg2", "/dev/sg3"]
        );
        assert_eq!(
            pick("0x500605b0000272bf:3", Some("sj0000a3")).unwrap(),
            ["/dev/sg3"]
        );
        let e = pick("0x500605b0000272bf:2", None).unwrap_err().to_string();
        assert!(e.contains("no disk matches") && e.contains(":2 ("), "{e}");
        let e = pick("0x1", None).unwrap_err().to_string();
        assert!(e.contains("known to the kernel: 0x500605b0000272bf"), "{e}");
        assert!(pick("0x500605b0000272bf:0", Some("seagate")).is_err());
    }

    /// `--enclosure` of a one-drive command (bench): exactly one disk, else a usage error that
    /// lists what the selector names (several) or the enclosures known (none).
    #[test]
    fn place_selector_for_one_drive() {
        let fix = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sysfs");
        let jbod = fix.join("ses-jbod");
        assert_eq!(
            resolve_one("500605b0000272bf:3", &jbod).unwrap(),
            "/dev/sg3"
        );
        assert_eq!(
            resolve_one("0x500605b0000272bf:1-2", &jbod).unwrap(),
            "/dev/sg2"
        );
        let e = resolve_one("0x500605b0000272bf:1-3", &jbod).unwrap_err();
        assert!(matches!(e, Error::InvalidArgument(_)), "{e:?}");
        let e = e.to_string();
        assert!(
            e.contains(
                "0x500605b0000272bf:1-3: 2 disks there (/dev/sg2 in slot 1, /dev/sg3 in slot 3)"
            ) && e.contains("runs on one drive"),
            "{e}"
        );
        let e = resolve_one("0x500605b0000272bf", &jbod)
            .unwrap_err()
            .to_string();
        assert!(e.contains("3 disks there"), "{e}");
        let e = resolve_one("0x500605b0000272bf:2", &jbod)
            .unwrap_err()
            .to_string();
        assert!(e.contains("no disk matches"), "{e}");
        // The captured TCMU tree: the kernel's enclosure links no slot to a device, so no slot
        // selects a disk (the SES device itself is never one).
        let tcmu = fix.join("tcmu-ses");
        for sel in ["0x5acde48e00000100:0", "0x5acde48e00000100"] {
            let e = resolve_one(sel, &tcmu).unwrap_err().to_string();
            assert!(
                e.contains("no disk matches")
                    && e.contains("known to the kernel: 0x5acde48e00000100"),
                "{e}"
            );
        }
        assert!(resolve_one("0xzz:1", &jbod).is_err());
    }

    #[test]
    fn all_matching_filter() {
        let mut d = sgctl::discover::Drive::default();
        d.vendor = Some("TOSHIBA".into());
        d.model = Some("PX02SMF080".into());
        d.serial = Some("X7R0A0AHT".into());
        d.lu_name = Some("naa.5000039594f8fb90".into());
        d.peripheral_type = Some(0);
        assert!(drive_matches(&d, "px02"));
        assert!(drive_matches(&d, "toshiba x7r0"));
        assert!(!drive_matches(&d, "toshiba seagate"));
        assert!(!drive_matches(&d, "   "));
        let mut enclosure = d.clone();
        enclosure.peripheral_type = Some(0x0d);
        assert!(!drive_matches(&enclosure, "px02"));
    }

    #[test]
    fn outcome_names_are_the_json_spelling() {
        assert_eq!(
            serde_json::to_value(Outcome::DryRunRefused).unwrap(),
            "dry_run_refused"
        );
        assert_eq!(serde_json::to_value(Outcome::Pending).unwrap(), "");
    }
}

/// Test support: mock drives by address and a fake host.
#[cfg(test)]
pub(crate) mod testenv {
    use super::*;
    use sgctl::host::{HostView, InUse, PathInfo};
    use sgctl::ops::gate::Prompter;
    use sgctl::ops::poll::PollConfig;
    use sgctl::testing::mockdrive::MockDrive;
    use sgctl::transport::Transport;
    use std::collections::HashMap;

    pub(crate) struct FakeHost {
        pub busy: Vec<String>,
    }

    impl HostView for FakeHost {
        fn paths_of(&self, address: &str) -> Result<Vec<PathInfo>> {
            Ok(vec![PathInfo {
                hctl: None,
                block: Some(address.trim_start_matches("mock:").into()),
                sg: None,
            }])
        }
        fn in_use(&self, paths: &[PathInfo]) -> Result<Vec<InUse>> {
            Ok(paths
                .iter()
                .filter_map(|p| p.block.clone())
                .filter(|b| self.busy.contains(b))
                .map(|b| InUse::Mounted {
                    device: format!("{b}1"),
                    mount_point: "/srv".into(),
                })
                .collect())
        }
    }

    pub(crate) struct NoTty;
    impl Prompter for NoTty {
        fn ask(&mut self, _: &str) -> Option<String> {
            None
        }
    }

    /// Drives `mock:a`, `mock:b`, ... with serials `SER-a`, `SER-b`, ...
    pub(crate) fn drives(names: &[&str]) -> HashMap<String, MockDrive> {
        names
            .iter()
            .map(|n| {
                let d = MockDrive::new();
                d.st().serial = format!("SER-{n}");
                (format!("mock:{n}"), d)
            })
            .collect()
    }

    pub(crate) fn safety(dir: &std::path::Path, confirm: &[&str], dry_run: bool) -> SafetyArgs {
        SafetyArgs {
            confirm: confirm.iter().map(|s| s.to_string()).collect(),
            dry_run,
            audit_log: Some(dir.join("audit.jsonl")),
            certificate: Some(dir.join("cert.json")),
            force: false,
            leds: false,
            enclosure_device: Vec::new(),
            operator: None,
            signing_key: None,
            max_per_hba: 4,
            poll_interval: 0.0,
            progress_json: false,
            ignore_reservation: false,
            record: Default::default(),
        }
    }

    pub(crate) fn run(
        drives: &HashMap<String, MockDrive>,
        busy: &[&str],
        sa: &SafetyArgs,
        make_job: impl FnMut() -> Box<dyn Job>,
    ) -> Report {
        let host = FakeHost {
            busy: busy.iter().map(|s| s.to_string()).collect(),
        };
        let open = |a: &str| -> Result<(Box<dyn Transport>, PollConfig)> {
            let d = drives.get(a).ok_or_else(|| Error::BadAddress {
                address: a.into(),
                reason: "no such mock".into(),
            })?;
            Ok((Box::new(d.clone()), PollConfig::immediate()))
        };
        let mut p = NoTty;
        let env = JobEnv {
            host: &host,
            open: &open,
            prompter: &mut p,
            interactive: false,
            interrupted: Arc::new(AtomicBool::new(false)),
            progress: &jobs::NoProgress,
            advise: None,
        };
        let mut addrs: Vec<String> = drives.keys().cloned().collect();
        addrs.sort();
        run_jobs_in(
            &mut Ctx::default(),
            env,
            &addrs,
            sa,
            serde_json::Value::Null,
            make_job,
        )
        .expect("run")
    }

    pub(crate) fn audit_lines(dir: &std::path::Path) -> Vec<serde_json::Value> {
        std::fs::read_to_string(dir.join("audit.jsonl"))
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).expect("json line"))
            .collect()
    }
}
