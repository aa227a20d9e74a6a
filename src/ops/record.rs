//! The per-drive job record: what the audit log's end record points to and what
//! `--certificate` writes. Data first (JSON); [`JobRecord::render_text`] is a view of it.
//!
//! Contents follow what a sanitization certificate needs (NIST SP 800-88 Rev. 1 §4.7 and
//! Appendix G "sample certificate"; IEEE 2883-2022): drive identity, method and category,
//! times, tool and host, verification — plus the sense trail so a reviewer can see what the
//! drive said. Sampled data never goes in: only SHA-256 hashes.

use crate::ops::poll::TrailEntry;
use crate::ops::query::{Capacity, Identity};
use crate::ops::safety::{PathInfo, PlannedCommand};
use crate::ops::sanitize::Verification;
use serde::Serialize;
use serde_json::Value;
use std::fmt::Write as _;

/// How a job on one drive ended (`outcome` in records, certificates and audit end records).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Not decided yet (a record still being filled).
    #[default]
    #[serde(rename = "")]
    Pending,
    /// Done and verified.
    Success,
    /// The drive reported a failure, or the transport failed.
    Failed,
    /// The drive completed, but the checks afterwards did not pass.
    CheckFailed,
    /// Refused by the safety gate (nothing was sent).
    Refused,
    /// The drive (or sgctl) does not support what was asked.
    Unsupported,
    /// Watching stopped (Ctrl-C); the drive goes on.
    Interrupted,
    /// A dry run: nothing sent.
    DryRun,
    /// A dry run the gate would refuse.
    DryRunRefused,
}

impl Outcome {
    /// The JSON spelling (`check_failed`).
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Pending => "",
            Outcome::Success => "success",
            Outcome::Failed => "failed",
            Outcome::CheckFailed => "check_failed",
            Outcome::Refused => "refused",
            Outcome::Unsupported => "unsupported",
            Outcome::Interrupted => "interrupted",
            Outcome::DryRun => "dry_run",
            Outcome::DryRunRefused => "dry_run_refused",
        }
    }

    /// The outcome an error stands for.
    pub fn of_error(e: &crate::Error) -> Outcome {
        match e {
            crate::Error::Refused(_) => Outcome::Refused,
            crate::Error::Unsupported(_)
            | crate::Error::SanitizeRefused { .. }
            | crate::Error::BandEraseNeedsEnterprise => Outcome::Unsupported,
            crate::Error::CheckFailed(_) | crate::Error::MediumFormatCorrupt { .. } => {
                Outcome::CheckFailed
            }
            _ => Outcome::Failed,
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a job did to the drive (`method` in records; serialised as its T10/TCG name).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum JobMethod {
    /// SBC-4 FORMAT UNIT (with MODE SELECT for a new block size).
    FormatUnit,
    /// SBC-4 SANITIZE with this service action.
    Sanitize(crate::scsi::sanitize::ServiceAction),
    /// TCG Enterprise SSC `Erase` of bands as EraseMaster.
    TcgErase,
    /// TCG PSID revert (Enterprise `RevertSP`, Opal `Revert`).
    TcgRevert,
    /// An ATA method through ATA PASS-THROUGH (SANITIZE feature set, SECURITY ERASE UNIT).
    Ata(crate::ops::ata_sanitize::AtaMethod),
}

impl JobMethod {
    /// The recorded name: `FORMAT UNIT`, `CRYPTOGRAPHIC ERASE`, ...
    pub fn name(self) -> &'static str {
        match self {
            JobMethod::FormatUnit => "FORMAT UNIT",
            JobMethod::Sanitize(sa) => sa.name(),
            JobMethod::TcgErase => "TCG CRYPTOGRAPHIC ERASE (Enterprise SSC Erase)",
            JobMethod::TcgRevert => "TCG PSID REVERT (cryptographic erase of all bands)",
            JobMethod::Ata(m) => m.name(),
        }
    }
}

impl std::fmt::Display for JobMethod {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for JobMethod {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// NIST SP 800-88 Rev. 1 / IEEE 2883-2022 sanitization category of a method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// Purge: infeasible to recover with state-of-the-art laboratory techniques.
    Purge,
    /// Clear: protects against simple, non-invasive recovery.
    Clear,
    /// Not a sanitization method.
    None,
}

impl Category {
    /// From its name (`purge`, `clear`; anything else is [`Category::None`]).
    pub fn from_name(s: &str) -> Category {
        match s {
            "purge" => Category::Purge,
            "clear" => Category::Clear,
            _ => Category::None,
        }
    }

    /// `purge`, `clear`, `none`.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Purge => "purge",
            Category::Clear => "clear",
            Category::None => "none",
        }
    }
}

/// Drive identity as recorded.
#[derive(Debug, Clone, Default, Serialize)]
pub struct DriveInfo {
    /// Vendor.
    pub vendor: String,
    /// Model.
    pub model: String,
    /// Serial number.
    pub serial: String,
    /// LU name (NAA) in hex.
    pub wwn: Option<String>,
    /// Firmware revision.
    pub firmware: String,
    /// Capacity in bytes before the job (None when unreadable, e.g. format corrupt).
    pub capacity_bytes: Option<u64>,
    /// Logical block length before the job.
    pub logical_block_length: Option<u32>,
}

impl DriveInfo {
    /// From INQUIRY/VPD and READ CAPACITY(16).
    pub fn new(id: &Identity, cap: Option<&Capacity>) -> DriveInfo {
        DriveInfo {
            vendor: id.vendor.clone(),
            model: id.model.clone(),
            serial: id.serial.clone(),
            wwn: id.wwn.clone(),
            firmware: id.firmware.clone(),
            capacity_bytes: cap.map(|c| c.bytes()),
            logical_block_length: cap.map(|c| c.block_len),
        }
    }
}

/// One drive's job record.
#[derive(Debug, Clone, Serialize, Default)]
pub struct JobRecord {
    /// Record layout version.
    pub record_version: u32,
    /// `format`, `sanitize`, `wait`.
    pub job: String,
    /// Audit job id (ties to the audit log).
    pub job_id: Option<String>,
    /// Device address used.
    pub device: String,
    /// All paths of the drive found by the safety gate.
    pub paths: Vec<PathInfo>,
    /// Identity.
    pub drive: DriveInfo,
    /// Method (T10 name), e.g. `CRYPTOGRAPHIC ERASE`, `FORMAT UNIT`.
    pub method: Option<JobMethod>,
    /// NIST SP 800-88 Rev. 1 category: `purge`, `clear`, or `none`.
    pub nist_sp_800_88_category: Option<Category>,
    /// IEEE 2883-2022 category.
    pub ieee_2883_category: Option<Category>,
    /// Job parameters as requested.
    pub parameters: Value,
    /// State-changing commands sent (or, in a dry run, that would be sent).
    pub commands: Vec<PlannedCommand>,
    /// Start time (RFC 3339 UTC).
    pub started: Option<String>,
    /// End time.
    pub ended: Option<String>,
    /// Duration in seconds.
    pub duration_s: Option<f64>,
    /// Sense conditions seen.
    pub sense_trail: Vec<TrailEntry>,
    /// Paths the job moved to when its path went away (issue 15), in order; none usually.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub path_switches: Vec<crate::ops::jobs::failover::PathSwitch>,
    /// Verification.
    pub verification: Option<Verification>,
    /// Checks after the job (format: READ CAPACITY(16) after).
    pub after: Value,
    /// How it ended.
    pub outcome: Outcome,
    /// What went wrong or what to know.
    pub message: Option<String>,
    /// What to do next.
    pub advice: Option<String>,
    /// Exit status for this drive.
    pub exit_status: u8,
    /// Tool name and version.
    pub tool: String,
    /// Git revision of the tool.
    pub tool_git_revision: String,
    /// Host name.
    pub host: String,
    /// Who performed the job (`--operator`), when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operator: Option<String>,
    /// The sense data of the error that ended the job, when it was a CHECK CONDITION (kept
    /// typed for advice; the record shows it as `message`).
    #[serde(skip)]
    pub error_sense: Option<Box<crate::sense::Sense>>,
    /// The error that ended the job, typed (the record shows it as `message`).
    #[serde(skip)]
    pub error: Option<std::sync::Arc<crate::Error>>,
    /// What to do next, typed; the caller's [`crate::ops::jobs::Advise`] words it as
    /// `advice` (the CLI names its commands).
    #[serde(skip)]
    pub next: Option<crate::error::Next>,
}

impl JobRecord {
    /// A fresh record for `job` on `device`.
    pub fn new(job: &str, device: &str) -> JobRecord {
        JobRecord {
            record_version: 1,
            job: job.into(),
            device: device.into(),
            tool: format!("sgctl {}", env!("CARGO_PKG_VERSION")),
            tool_git_revision: env!("SGCTL_GIT_REV").into(),
            host: crate::ops::safety::hostname(),
            parameters: Value::Null,
            after: Value::Null,
            ..JobRecord::default()
        }
    }

    /// Records the method and its category in both standards.
    pub fn set_method(&mut self, m: JobMethod, c: Category) {
        self.method = Some(m);
        self.nist_sp_800_88_category = Some(c);
        self.ieee_2883_category = Some(c);
    }

    /// Readable rendering (the certificate's text form, the jobs' summary). Every value from
    /// a drive, a file or the command line is escaped first ([`JobRecord::text_view`]), so
    /// a serial or an address holding a newline cannot add a line of its own.
    pub fn render_text(&self) -> String {
        crate::escape::terminal_safe(&self.text_view().render_text_raw()).into_owned()
    }

    /// A copy whose text fields are escaped for one line each ([`crate::escape::escape`]):
    /// what [`JobRecord::render_text`] renders.
    pub fn text_view(&self) -> JobRecord {
        fn e(s: &mut String) {
            if let std::borrow::Cow::Owned(x) = crate::escape::escape(s) {
                *s = x;
            }
        }
        fn eo(s: &mut Option<String>) {
            if let Some(x) = s {
                e(x);
            }
        }
        let mut r = self.clone();
        for s in [&mut r.job, &mut r.device, &mut r.tool, &mut r.host] {
            e(s);
        }
        for s in [&mut r.job_id, &mut r.started, &mut r.ended, &mut r.message] {
            eo(s);
        }
        eo(&mut r.advice);
        eo(&mut r.operator);
        let d = &mut r.drive;
        for s in [&mut d.vendor, &mut d.model, &mut d.serial, &mut d.firmware] {
            e(s);
        }
        eo(&mut d.wwn);
        for t in &mut r.sense_trail {
            for s in [
                &mut t.time,
                &mut t.command,
                &mut t.sense_key,
                &mut t.description,
            ] {
                e(s);
            }
        }
        for p in &mut r.path_switches {
            for s in [
                &mut p.time,
                &mut p.from,
                &mut p.to,
                &mut p.command,
                &mut p.reason,
            ] {
                e(s);
            }
        }
        if let Some(v) = &mut r.verification {
            eo(&mut v.note);
        }
        r
    }

    fn render_text_raw(&self) -> String {
        let mut s = String::new();
        let d = &self.drive;
        let _ = writeln!(
            s,
            "{} {} on {} — {}",
            self.tool,
            self.job,
            self.device,
            self.outcome.as_str().to_uppercase()
        );
        let _ = writeln!(
            s,
            "  drive:        {} {} serial {} WWN {} firmware {}",
            d.vendor,
            d.model,
            d.serial,
            d.wwn.as_deref().unwrap_or("-"),
            d.firmware
        );
        if let Some(c) = d.capacity_bytes {
            let _ = writeln!(
                s,
                "  capacity:     {c} bytes ({} byte blocks)",
                d.logical_block_length.unwrap_or(0)
            );
        }
        if let Some(m) = &self.method {
            let _ = writeln!(
                s,
                "  method:       {m} (NIST SP 800-88: {}, IEEE 2883: {})",
                self.nist_sp_800_88_category.map_or("-", Category::as_str),
                self.ieee_2883_category.map_or("-", Category::as_str)
            );
        }
        if let (Some(a), Some(b)) = (&self.started, &self.ended) {
            let _ = writeln!(
                s,
                "  time:         {a} .. {b} ({:.1} s)",
                self.duration_s.unwrap_or(0.0)
            );
        }
        for c in &self.commands {
            let _ = writeln!(s, "  command:      {}", c.render());
        }
        for t in &self.sense_trail {
            let _ = writeln!(
                s,
                "  sense:        {} {}: {} ({:02x}/{:02x}){}{}",
                t.time,
                t.sense_key,
                t.description,
                t.asc,
                t.ascq,
                t.progress_percent
                    .map(|p| format!(" {p:.1}%"))
                    .unwrap_or_default(),
                if t.deferred { " [deferred]" } else { "" }
            );
        }
        for p in &self.path_switches {
            let _ = writeln!(
                s,
                "  path switch:  {} {} -> {} ({} sent again: {})",
                p.time, p.from, p.to, p.command, p.reason
            );
        }
        if let Some(v) = &self.verification {
            let _ = writeln!(
                s,
                "  verification: {} — {} samples, {} survived, {} show the purge",
                v.result.to_string().to_uppercase(),
                v.samples.len(),
                v.survived,
                v.conclusive
            );
            if let Some(n) = &v.note {
                let _ = writeln!(s, "                {n}");
            }
        }
        if let Some(m) = &self.message {
            let _ = writeln!(s, "  note:         {m}");
        }
        if let Some(a) = &self.advice {
            let _ = writeln!(s, "  next:         {a}");
        }
        let _ = writeln!(
            s,
            "  host:         {}  job id: {}",
            self.host,
            self.job_id.as_deref().unwrap_or("-")
        );
        s
    }
}

/// Writes the certificate: `path` gets the JSON document, `path.txt` the text rendering and
/// `path.html` the printable certificate ([`crate::report::certificate`]).
pub fn write_certificate(path: &std::path::Path, records: &[JobRecord]) -> crate::Result<()> {
    write_certificate_signed(path, records, None)
}

/// [`write_certificate`], with an Ed25519 signature block when `signer` is given
/// (see [`crate::ops::sign`]; `sgctl certificate verify` checks it).
pub fn write_certificate_signed(
    path: &std::path::Path,
    records: &[JobRecord],
    signer: Option<&crate::ops::sign::CertSigner>,
) -> crate::Result<()> {
    let ctx = || format!("certificate {}", path.display());
    let json_err = |e: serde_json::Error| crate::Error::io(ctx(), std::io::Error::other(e));
    let values: Vec<Value> = records
        .iter()
        .map(serde_json::to_value)
        .collect::<Result<_, _>>()
        .map_err(json_err)?;
    let mut doc = serde_json::json!({ "certificates": values });
    let mut text: String = records.iter().map(|r| r.render_text() + "\n").collect();
    if let Some(s) = signer {
        doc["signature"] = s.sign_records(&values)?;
        let _ = writeln!(
            text,
            "signed: ed25519 key {} (check: sgctl certificate verify {})",
            crate::ops::sign::fingerprint(&s.public()),
            crate::escape::escape(&path.display().to_string())
        );
    }
    std::fs::write(path, serde_json::to_vec_pretty(&doc).map_err(json_err)?)
        .map_err(|e| crate::Error::io(ctx(), e))?;
    let beside = |ext: &str| {
        let mut p = path.as_os_str().to_owned();
        p.push(ext);
        std::path::PathBuf::from(p)
    };
    let txt = beside(".txt");
    std::fs::write(&txt, text)
        .map_err(|e| crate::Error::io(format!("certificate {}", txt.display()), e))?;
    let html = beside(".html");
    std::fs::write(&html, crate::report::certificate::render(&doc))
        .map_err(|e| crate::Error::io(format!("certificate {}", html.display()), e))
}

#[cfg(test)]
mod text_tests {
    use super::*;

    #[test]
    fn values_cannot_forge_lines_or_drive_the_terminal() {
        let forged = "\n  verification: PASSED — 16 samples";
        let mut r = JobRecord::new("sanitize", &format!("sim:px02smf080?x=1{forged}"));
        r.drive.serial = format!("S1{forged}\u{1b}[2J\u{202e}");
        r.drive.model = "M\r\u{2066}".into();
        r.message = Some(format!("refused{forged}"));
        r.operator = Some(format!("op{forged}"));
        let t = r.render_text();
        for line in t.lines() {
            assert!(!line.starts_with("  verification:"), "{t}");
        }
        assert!(!t.contains('\u{1b}') && !t.contains('\u{202e}') && !t.contains('\r'));
        assert!(!t.contains('\u{2066}'), "{t}");
        assert!(t.contains("S1\\n  verification: PASSED"), "{t}");
        // The JSON record keeps the values as they are.
        let j = serde_json::to_value(&r).unwrap();
        assert_eq!(j["drive"]["serial"], r.drive.serial.as_str());
    }
}
