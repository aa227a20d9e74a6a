//! The per-drive job record: what the audit log's end record points to and what
//! `--certificate` writes. Data first (JSON); [`JobRecord::render_text`] is a view of it.
//!
//! Contents follow what a sanitization certificate needs (NIST SP 800-88 Rev. 2 records, with
//! the field list of the Rev. 1 Appendix G sample certificate; IEEE 2883-2022): drive identity, method and category,
//! times, tool and host, verification — plus the sense trail so a reviewer can see what the
//! drive said. Sampled data never goes in: only SHA-256 hashes.

use crate::host::PathInfo;
use crate::ops::gate::PlannedCommand;
use crate::ops::poll::TrailEntry;
use crate::ops::query::{Capacity, Identity};
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
    pub(crate) fn of_error(e: &crate::Error) -> Outcome {
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
    /// SPC-6 WRITE BUFFER in a download-microcode mode (a firmware download, not a
    /// sanitization).
    Microcode(crate::scsi::write_buffer::Mode),
}

impl JobMethod {
    /// The method recorded as `name` (SANITIZE and TCG methods; None otherwise).
    pub(crate) fn from_name(name: &str) -> Option<JobMethod> {
        crate::scsi::sanitize::ServiceAction::ALL
            .into_iter()
            .map(JobMethod::Sanitize)
            .chain([
                JobMethod::FormatUnit,
                JobMethod::TcgErase,
                JobMethod::TcgRevert,
            ])
            .find(|m| m.name() == name)
    }

    /// The recorded name: `FORMAT UNIT`, `CRYPTOGRAPHIC ERASE`, ...
    pub fn name(self) -> &'static str {
        match self {
            JobMethod::FormatUnit => "FORMAT UNIT",
            JobMethod::Sanitize(sa) => sa.name(),
            JobMethod::TcgErase => "TCG CRYPTOGRAPHIC ERASE (Enterprise SSC Erase)",
            JobMethod::TcgRevert => "TCG PSID REVERT (cryptographic erase of all bands)",
            JobMethod::Ata(m) => m.name(),
            JobMethod::Microcode(m) => microcode_name(m),
        }
    }
}

/// The recorded name of a download-microcode mode: `WRITE BUFFER mode 0Eh (...)`.
fn microcode_name(m: crate::scsi::write_buffer::Mode) -> &'static str {
    use crate::scsi::write_buffer::Mode;
    match m {
        Mode::Save => "WRITE BUFFER mode 05h (download microcode, save, and activate)",
        Mode::OffsetsSave => {
            "WRITE BUFFER mode 07h (download microcode with offsets, save, and activate)"
        }
        Mode::OffsetsEventsDefer => {
            "WRITE BUFFER mode 0Dh (download microcode with offsets, select activation events, save, and defer activate)"
        }
        Mode::OffsetsDefer => {
            "WRITE BUFFER mode 0Eh (download microcode with offsets, save, and defer activate)"
        }
        Mode::Activate => "WRITE BUFFER mode 0Fh (activate deferred microcode)",
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
    /// A purge technique applied to part of the drive only (some TCG bands): the drive as a
    /// whole is not sanitized ([`Scope`] says which blocks were).
    PurgeOfPart,
    /// Not a sanitization method.
    None,
}

impl Category {
    /// From its name (`purge`, `clear`; anything else is [`Category::None`]).
    pub(crate) fn from_name(s: &str) -> Category {
        match s {
            "purge" => Category::Purge,
            "clear" => Category::Clear,
            "purge_of_part" => Category::PurgeOfPart,
            _ => Category::None,
        }
    }

    /// `purge`, `clear`, `none`.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Purge => "purge",
            Category::Clear => "clear",
            Category::PurgeOfPart => "purge_of_part",
            Category::None => "none",
        }
    }
}

/// Drive identity as recorded.
#[derive(Debug, Clone, Default, Serialize, serde::Deserialize)]
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

/// One TCG band in a record's [`Scope`], with the LBAs it covered when erased.
#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq)]
pub struct BandExtent {
    /// Band number (0 = the global range: every LBA no other band covers).
    pub band: u16,
    /// RangeStart (LBA), when the band table could be read.
    pub range_start: Option<u64>,
    /// RangeLength (blocks), when the band table could be read.
    pub range_length: Option<u64>,
}

/// What a job sanitized: the whole logical unit, or some TCG bands (docs/records.md).
#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq, Default)]
#[serde(default)]
pub struct Scope {
    /// True only when every LBA of the logical unit was in scope.
    pub whole_drive: bool,
    /// `logical_unit` or `tcg_bands`.
    pub kind: String,
    /// The erased bands (kind `tcg_bands`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bands: Vec<BandExtent>,
    /// Blocks in scope, when known.
    pub blocks_in_scope: Option<u64>,
    /// Blocks of the logical unit.
    pub blocks_total: Option<u64>,
    /// `blocks_in_scope / blocks_total`, 0..=1, when known.
    pub fraction_of_capacity: Option<f64>,
    /// The scope in words.
    pub description: String,
    /// The LBA extents in scope (`(start, length)`), used to place validation reads.
    #[serde(skip)]
    pub extents: Vec<(u64, u64)>,
}

impl Scope {
    /// The whole logical unit of `blocks` blocks (None when unknown).
    pub fn logical_unit(blocks: Option<u64>) -> Scope {
        Scope {
            whole_drive: true,
            kind: "logical_unit".into(),
            bands: vec![],
            blocks_in_scope: blocks,
            blocks_total: blocks,
            fraction_of_capacity: blocks.map(|_| 1.0),
            description: "the whole logical unit (every LBA)".into(),
            extents: blocks.map(|b| vec![(0, b)]).unwrap_or_default(),
        }
    }

    /// TCG bands `erased` of a drive of `total` blocks; `table` is the band table read before
    /// the erase (`(band, start, length)` for bands 0..=MaxRanges) when it could be read.
    /// Band 0, the global range, covers every LBA no other band covers (TCG Enterprise SSC
    /// 1.01 §4.3.6); a band of length 0 covers nothing. Whole drive only when the erased
    /// bands cover every LBA; unknown coverage is never whole, except every band 0..=MaxRanges
    /// (the global range takes what the others leave).
    pub fn tcg_bands(
        erased: &[u16],
        table: Option<&[(u16, u64, u64)]>,
        total: Option<u64>,
        all_bands: bool,
    ) -> Scope {
        let find = |n: u16| table.and_then(|t| t.iter().find(|b| b.0 == n).copied());
        let bands: Vec<BandExtent> = erased
            .iter()
            .map(|&n| {
                let row = find(n);
                BandExtent {
                    band: n,
                    range_start: row.map(|r| r.1),
                    range_length: row.map(|r| r.2),
                }
            })
            .collect();
        let mut extents: Vec<(u64, u64)> = Vec::new();
        let mut known = table.is_some() && total.is_some();
        if let (Some(t), Some(total)) = (table, total) {
            // Extents of bands 1..: clipped to the drive, in LBA order.
            let mut others: Vec<(u64, u64, u16)> = t
                .iter()
                .filter(|b| b.0 != 0 && b.2 > 0 && b.1 < total)
                .map(|b| (b.1, b.2.min(total - b.1), b.0))
                .collect();
            others.sort_unstable();
            for &(s, l, n) in &others {
                if erased.contains(&n) {
                    extents.push((s, l));
                }
            }
            if erased.contains(&0) {
                // The global range: the gaps between the other bands.
                let mut at = 0u64;
                for &(s, l, _) in &others {
                    if s > at {
                        extents.push((at, s - at));
                    }
                    at = at.max(s.saturating_add(l));
                }
                if at < total {
                    extents.push((at, total - at));
                }
            }
            extents.sort_unstable();
            // Merge overlaps (overlapping bands are a drive's error; count each LBA once).
            let mut merged: Vec<(u64, u64)> = Vec::new();
            for (s, l) in extents {
                match merged.last_mut() {
                    Some(m) if s <= m.0 + m.1 => {
                        let end = (m.0 + m.1).max(s + l);
                        m.1 = end - m.0;
                    }
                    _ => merged.push((s, l)),
                }
            }
            extents = merged;
        } else {
            known = false;
        }
        let covered = known.then(|| crate::ops::validate::total(&extents));
        let whole = match (covered, total) {
            (Some(c), Some(t)) => t > 0 && c >= t,
            _ => all_bands && erased.contains(&0),
        };
        let fraction = match (covered, total) {
            (Some(c), Some(t)) if t > 0 => Some(c as f64 / t as f64),
            _ if whole => Some(1.0),
            _ => None,
        };
        let names = erased
            .iter()
            .map(u16::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let description = if whole {
            format!("the whole drive: TCG bands {names} together cover every LBA")
        } else {
            let ranges = bands
                .iter()
                .map(|b| match (b.range_start, b.range_length) {
                    (Some(s), Some(l)) if b.band != 0 && l > 0 => {
                        format!("band {}: LBA {s}..={}", b.band, s + l - 1)
                    }
                    (Some(_), Some(_)) if b.band != 0 => format!("band {}: empty", b.band),
                    _ if b.band == 0 => "band 0: the global range".to_string(),
                    _ => format!("band {}: range unknown", b.band),
                })
                .collect::<Vec<_>>()
                .join("; ");
            format!(
                "PART of the drive: TCG band{} {names} ({ranges}){}; the rest of the drive was \
                 NOT sanitized",
                if erased.len() == 1 { "" } else { "s" },
                fraction
                    .map(|f| format!(", {:.1} % of the capacity", f * 100.0))
                    .unwrap_or_else(|| ", share of the capacity unknown".into())
            )
        };
        Scope {
            whole_drive: whole,
            kind: "tcg_bands".into(),
            bands,
            blocks_in_scope: covered.or(if whole { total } else { None }),
            blocks_total: total,
            fraction_of_capacity: fraction,
            description,
            extents: if whole && !known {
                total.map(|t| vec![(0, t)]).unwrap_or_default()
            } else {
                extents
            },
        }
    }
}

impl Scope {
    /// A PSID revert. Enterprise (`bands` = 0..=MaxRanges as read before the revert, `table`
    /// the band table then): `ThisSP.RevertSP` returns the Locking SP to its factory state and
    /// replaces the media key of every band, so the scope is every band and it is the whole
    /// drive when those bands cover every LBA (band 0, the global range, takes what the others
    /// leave). Opal (`bands` None): `AdminSP.Revert` replaces the keys of the global range and
    /// every locking range when the Locking SP was active (`locking_active`, Level 0
    /// LockingEnabled); on a drive whose Locking SP was never activated the protocol gives no
    /// evidence that any key was replaced, so the scope is not called the whole drive and only
    /// the validation's reads show what happened.
    pub(crate) fn tcg_revert(
        bands: Option<&[u16]>,
        table: Option<&[(u16, u64, u64)]>,
        total: Option<u64>,
        locking_active: bool,
    ) -> Scope {
        match bands {
            Some(b) => {
                let mut s = Scope::tcg_bands(b, table, total, true);
                let names = b.iter().map(u16::to_string).collect::<Vec<_>>().join(", ");
                s.description = if s.whole_drive {
                    format!(
                        "the whole drive: the PSID revert replaced the media key of every band \
                         ({names}), and together they cover every LBA"
                    )
                } else {
                    format!(
                        "the PSID revert replaced the media key of bands {names}; {}",
                        s.description
                    )
                };
                s
            }
            None if locking_active => {
                let mut s = Scope::logical_unit(total);
                s.description = "the whole logical unit: the PSID revert replaced the media key \
                                 of the global range and of every locking range (the Locking SP \
                                 was active)"
                    .into();
                s
            }
            None => Scope {
                whole_drive: false,
                kind: "logical_unit".into(),
                bands: vec![],
                blocks_in_scope: None,
                blocks_total: total,
                fraction_of_capacity: None,
                description: "NOT ESTABLISHED as the whole drive: the Locking SP was never \
                              activated (Level 0 LockingEnabled = 0), so the revert gives no \
                              evidence that a media key was replaced; only the validation reads \
                              show whether data is gone"
                    .into(),
                extents: total.map(|t| vec![(0, t)]).unwrap_or_default(),
            },
        }
    }
}

/// The IEEE 2883 description of a record: its category, or `not sanitized` when the job did
/// not succeed.
pub fn describe(category: Option<Category>, success: bool) -> String {
    match (category, success) {
        (Some(Category::Purge), true) => "purge (IEEE 2883-2022)".into(),
        (Some(Category::Clear), true) => "clear (IEEE 2883-2022)".into(),
        (Some(c), false) => format!("not sanitized (a {} was attempted)", c.as_str()),
        _ => "not sanitized".into(),
    }
}

/// Verification in the sense of NIST SP 800-88 Rev. 2: the evidence that the technique
/// completed (not whether data is gone: that is [`crate::ops::validate::Validation`]).
#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq, Default)]
#[serde(default)]
pub struct TechniqueVerification {
    /// The drive accepted the command(s) (GOOD status).
    pub command_accepted: bool,
    /// The highest progress the drive reported, percent (None: no progress reported).
    pub progress_max_percent: Option<f64>,
    /// The drive reported the operation ended, without a failure (SANITIZE: no 31/03).
    pub completed_without_failure: bool,
    /// TCG method status of the erase calls (`SUCCESS`), for TCG methods.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tcg_method_status: Option<String>,
    /// The drive was READY afterwards (REQUEST SENSE clean / medium readable).
    pub ready_after: Option<bool>,
    /// `completed`, `not_completed` or `unknown` (watching stopped).
    pub result: String,
}

/// One sampled block in the verification.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Sample {
    /// LBA.
    pub lba: u64,
    /// SHA-256 of the block before (hex), or why it could not be read.
    pub before_sha256: Option<String>,
    /// SHA-256 after, or None when unreadable after (e.g. MEDIUM ERROR after block erase).
    pub after_sha256: Option<String>,
    /// What the sample shows.
    pub outcome: SampleOutcome,
}

/// What one sampled block shows (serialized in snake_case: `changed`, `unreadable_after`, ...).
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum SampleOutcome {
    /// Its contents changed: the purge reached it.
    Changed,
    /// Readable before, unreadable after (e.g. MEDIUM ERROR after a block erase).
    UnreadableAfter,
    /// The same contents before and after: the purge did not reach it.
    Survived,
    /// Uniform before and unchanged: nothing to tell.
    InconclusiveBlank,
    /// Unreadable before: nothing to compare.
    UnreadableBefore,
}

impl SampleOutcome {
    /// Whether the sample shows that the purge worked.
    pub fn conclusive(self) -> bool {
        matches!(
            self,
            SampleOutcome::Changed | SampleOutcome::UnreadableAfter
        )
    }
}

/// The verification's verdict (serialized `passed`, `inconclusive`, `failed`: certificates
/// carry this word).
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum VerifyResult {
    /// Nothing survived and at least one sample shows the purge.
    Passed,
    /// Nothing survived, but no sample could show the purge (e.g. all blank before).
    #[default]
    Inconclusive,
    /// A sample survived.
    Failed,
}

impl std::fmt::Display for VerifyResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            VerifyResult::Passed => "passed",
            VerifyResult::Inconclusive => "inconclusive",
            VerifyResult::Failed => "failed",
        })
    }
}

/// Verification result: only hashes, never data.
#[derive(Debug, Clone, Serialize, PartialEq, Default)]
pub struct Verification {
    /// Samples.
    pub samples: Vec<Sample>,
    /// Count of samples whose content survived the purge.
    pub survived: usize,
    /// Samples that show the purge worked (changed, or unreadable after).
    pub conclusive: usize,
    /// Pass = nothing survived.
    pub passed: bool,
    /// The verdict.
    pub result: VerifyResult,
    /// What the result does and does not show.
    pub note: Option<String>,
}

/// One change of path during a job (`ops::jobs::failover`).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct PathSwitch {
    /// When.
    pub time: String,
    /// The path that went away (`/dev/sg2`).
    pub from: String,
    /// The path the job went on through (`/dev/sg3`).
    pub to: String,
    /// The command that failed on `from` and was sent again on `to`.
    pub command: String,
    /// How `from` failed (`/dev/sg2: SG_IO: ENODEV (device gone)`).
    pub reason: String,
}

/// The geometry a job read back from the drive after it (READ CAPACITY(16)).
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
pub struct VerifiedState {
    /// Logical block length in bytes (protection information not counted).
    pub logical_block_length: u32,
    /// T10 protection type: 0 none, 1-3.
    pub protection_type: u8,
    /// P_I_EXPONENT: 2^E protection intervals per logical block.
    pub pi_exponent: u8,
    /// Number of logical blocks.
    pub blocks: u64,
    /// Capacity in bytes (blocks x logical block length).
    pub capacity_bytes: u64,
}

impl VerifiedState {
    /// From READ CAPACITY(16) data.
    pub fn of(c: &crate::ops::query::Capacity) -> VerifiedState {
        VerifiedState {
            logical_block_length: c.block_len,
            protection_type: if c.prot_en { c.p_type + 1 } else { 0 },
            pi_exponent: c.p_i_exponent,
            blocks: c.blocks(),
            capacity_bytes: c.bytes(),
        }
    }

    /// One line: `800166076320 bytes, 1538780916 blocks of 520 bytes, PI type 1`.
    pub fn render(&self) -> String {
        format!(
            "{} bytes, {} blocks of {} bytes, {}",
            self.capacity_bytes,
            self.blocks,
            self.logical_block_length,
            match (self.protection_type, self.pi_exponent) {
                (0, _) => "no PI".to_string(),
                (t, 0) => format!("PI type {t}"),
                (t, e) => format!("PI type {t}, {} PI intervals per block", 1u32 << e.min(15)),
            }
        )
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
    /// The enclosure and slot the drive sat in (`/sys/class/enclosure`), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enclosure: Option<crate::host::SlotRef>,
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
    /// Paths the job moved to when its path went away, in order; none usually.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub path_switches: Vec<PathSwitch>,
    /// What was sanitized: the whole logical unit or some TCG bands.
    pub scope: Option<Scope>,
    /// Evidence the technique completed (NIST SP 800-88 Rev. 2 "verification").
    pub technique_verification: Option<TechniqueVerification>,
    /// The content check: plan, coverage, seed, result (Rev. 2 "validation").
    pub validation: Option<crate::ops::validate::Validation>,
    /// The sampled blocks of the validation, hashed before and after.
    pub verification: Option<Verification>,
    /// Checks after the job (format: READ CAPACITY(16) after).
    pub after: Value,
    /// The drive's state as the job verified it afterwards (format: the new geometry read
    /// back with READ CAPACITY(16)); `drive` is the state before the job.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verified_state: Option<VerifiedState>,
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
    /// The fields an auditor expects (SP 800-88 Rev. 2, Rev. 1 Appendix G template): filled
    /// when a certificate is written ([`crate::ops::record_fields`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sanitization_record: Option<crate::ops::record_fields::RecordFields>,
    /// VPD B1h MEDIUM ROTATION RATE as read before the job (for the media type).
    #[serde(skip)]
    pub rotation_rate: Option<u16>,
    /// What `sgctl wait` needs to finish the job when it stops early (the validation's
    /// before-hashes); written to the audit end record of a job that did not succeed.
    #[serde(skip)]
    pub resume: Option<Value>,
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
            host: crate::host::hostname(),
            parameters: Value::Null,
            after: Value::Null,
            ..JobRecord::default()
        }
    }

    /// Records the method and its category in both standards.
    pub(crate) fn set_method(&mut self, m: JobMethod, c: Category) {
        self.method = Some(m);
        self.nist_sp_800_88_category = Some(c);
        self.ieee_2883_category = Some(c);
    }

    /// Records the scope; a purge of part of the drive is recorded as
    /// [`Category::PurgeOfPart`], never as a purge of the drive.
    pub(crate) fn set_scope(&mut self, s: Scope) {
        if !s.whole_drive {
            for c in [
                &mut self.nist_sp_800_88_category,
                &mut self.ieee_2883_category,
            ] {
                if *c == Some(Category::Purge) {
                    *c = Some(Category::PurgeOfPart);
                }
            }
        }
        self.scope = Some(s);
    }

    /// Blocks of the drive, from the recorded capacity.
    pub fn blocks_total(&self) -> Option<u64> {
        match (self.drive.capacity_bytes, self.drive.logical_block_length) {
            (Some(c), Some(b)) if b > 0 => Some(c / u64::from(b)),
            _ => None,
        }
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
            "{} {} on {} — {}{}",
            self.tool,
            self.job,
            self.device,
            self.outcome.as_str().to_uppercase(),
            if self.scope.as_ref().is_some_and(|x| !x.whole_drive) {
                " — PARTIAL SCOPE, not a purge of the drive"
            } else {
                ""
            }
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
                "  {}{c} bytes ({} byte blocks)",
                if self.verified_state.is_some() {
                    "before:       "
                } else {
                    "capacity:     "
                },
                d.logical_block_length.unwrap_or(0)
            );
        }
        if let Some(v) = &self.verified_state {
            let _ = writeln!(
                s,
                "  now:          {} (read back with READ CAPACITY(16))",
                v.render()
            );
        }
        if let Some(m) = &self.method {
            let none = |c: Option<Category>| matches!(c, None | Some(Category::None));
            if none(self.nist_sp_800_88_category) && none(self.ieee_2883_category) {
                let _ = writeln!(
                    s,
                    "  method:       {m} (not a sanitization: no NIST SP 800-88 or IEEE 2883 category)"
                );
            } else {
                let _ = writeln!(
                    s,
                    "  method:       {m} (NIST SP 800-88: {}, IEEE 2883: {})",
                    self.nist_sp_800_88_category.map_or("-", Category::as_str),
                    self.ieee_2883_category.map_or("-", Category::as_str)
                );
            }
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
        if let Some(sc) = &self.scope {
            let _ = writeln!(
                s,
                "  scope:        {}{}",
                if sc.whole_drive { "" } else { "PARTIAL — " },
                sc.description
            );
        }
        if let Some(tv) = &self.technique_verification {
            let _ = writeln!(
                s,
                "  verification: technique {} (accepted: {}, ended without failure: {}{}{}{})",
                tv.result.replace('_', " ").to_uppercase(),
                yes(tv.command_accepted),
                yes(tv.completed_without_failure),
                tv.progress_max_percent
                    .map(|p| format!(", last progress reported {p:.1}% before completion"))
                    .unwrap_or_default(),
                tv.tcg_method_status
                    .as_deref()
                    .map(|m| format!(", TCG method status {m}"))
                    .unwrap_or_default(),
                tv.ready_after
                    .map(|r| format!(", ready after: {}", yes(r)))
                    .unwrap_or_default()
            );
        }
        match (&self.validation, &self.verification) {
            (Some(va), v) => {
                let _ = writeln!(
                    s,
                    "  validation:   {} — plan {}{}, {} blocks {}{}{}",
                    va.result.replace('_', " ").to_uppercase(),
                    va.plan,
                    va.seed
                        .as_deref()
                        .map(|x| format!(" (seed {x})"))
                        .unwrap_or_default(),
                    va.blocks_sampled,
                    if va.result == "not_run" {
                        "planned, not read back"
                    } else {
                        "compared"
                    },
                    va.coverage_percent
                        .map(|c| format!(
                            ", {} blocks read after = {c:.4} % of the blocks in scope",
                            va.blocks_read_after
                        ))
                        .unwrap_or_default(),
                    v.as_ref()
                        .map(|v| format!(
                            "; {} survived, {} show the purge",
                            v.survived, v.conclusive
                        ))
                        .unwrap_or_default()
                );
                if let Some(n) = v.as_ref().and_then(|v| v.note.as_ref()) {
                    let _ = writeln!(s, "                {n}");
                }
            }
            (None, Some(v)) => {
                let _ = writeln!(
                    s,
                    "  validation:   {} — {} samples, {} survived, {} show the purge",
                    v.result.to_string().to_uppercase(),
                    v.samples.len(),
                    v.survived,
                    v.conclusive
                );
                if let Some(n) = &v.note {
                    let _ = writeln!(s, "                {n}");
                }
            }
            (None, None) => {}
        }
        if let Some(f) = self
            .sanitization_record
            .as_ref()
            .and_then(|f| serde_json::to_value(f).ok())
        {
            let _ = writeln!(s, "  record (NIST SP 800-88 Rev. 2):");
            for (label, value) in crate::report::certificate::sanitization_rows(&f) {
                let _ = writeln!(s, "    {:<31}{value}", format!("{}:", label.to_lowercase()));
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

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

/// The files of a certificate at `path`: `path` (JSON), `path.txt`, `path.html` and `path.pdf`.
pub(crate) fn certificate_paths(path: &std::path::Path) -> Vec<std::path::PathBuf> {
    let beside = |ext: &str| {
        let mut p = path.as_os_str().to_owned();
        p.push(ext);
        std::path::PathBuf::from(p)
    };
    vec![
        path.to_path_buf(),
        beside(".txt"),
        beside(".html"),
        beside(".pdf"),
    ]
}

/// Writes the certificate: `path` gets the JSON document, `path.txt` the text rendering,
/// `path.html` the printable certificate ([`crate::report::certificate`]) and `path.pdf` the
/// PDF/A certificate with the JSON attached ([`crate::report::pdf`]). Existing files are
/// replaced (the benchmark's own report directory); a job's certificate goes through
/// [`write_certificate_to`].
pub(crate) fn write_certificate(
    path: &std::path::Path,
    records: &[JobRecord],
) -> crate::Result<()> {
    write_certificate_to(path, records, None, crate::files::Replace::Always)
}

/// `write_certificate`, with an Ed25519 signature block when `signer` is given
/// (see [`crate::ops::sign`]; `sgctl certificate verify` checks it); existing files are refused.
pub fn write_certificate_signed(
    path: &std::path::Path,
    records: &[JobRecord],
    signer: Option<&crate::ops::sign::CertSigner>,
) -> crate::Result<()> {
    write_certificate_to(path, records, signer, crate::files::Replace::Never)
}

/// [`write_certificate_signed`], replacing existing files when `replace` says so. Each file is
/// written through [`crate::files::write_atomic`] (no symlink followed, mode 0644, `fsync`,
/// atomic rename): a full file system is an error, never a partial certificate.
pub(crate) fn write_certificate_to(
    path: &std::path::Path,
    records: &[JobRecord],
    signer: Option<&crate::ops::sign::CertSigner>,
    replace: crate::files::Replace,
) -> crate::Result<()> {
    write_certificate_with(path, records, signer, replace, |_| Ok(())).map(|_| ())
}

/// What [`write_certificate_with`] made the certificate of: each record's JSON value and its
/// hash (the signed one), in the records' order, and the certificate file's bytes.
pub(crate) struct CertificateParts<'a> {
    /// `serde_json::to_value` of each record, as the certificate lists them.
    pub values: &'a [Value],
    /// The SHA-256 of each record's compact JSON ([`crate::ops::sign::record_hashes`]).
    pub hashes: &'a [String],
    /// The certificate file as written.
    pub json: &'a [u8],
}

/// [`write_certificate_to`], running `beside` on the finished certificate (its records'
/// values and hashes, its JSON bytes) while the HTML and PDF are rendered; its result comes
/// back with the records' values. The files are written in the same order and are the same
/// bytes as without it; `beside` is for work that needs the certificate (the batch manifest),
/// not for writing files.
pub(crate) fn write_certificate_with<T: Send>(
    path: &std::path::Path,
    records: &[JobRecord],
    signer: Option<&crate::ops::sign::CertSigner>,
    replace: crate::files::Replace,
    beside: impl FnOnce(&CertificateParts<'_>) -> crate::Result<T> + Send,
) -> crate::Result<(T, Vec<Value>)> {
    let ctx = || format!("certificate {}", path.display());
    let json_err = |e: serde_json::Error| crate::Error::io(ctx(), std::io::Error::other(e));
    // Per-drive work (each record's JSON value, its text, its hash) spread over the cores;
    // the results keep the records' order, so the files are the same bytes as one thread's.
    let values: Vec<Value> =
        crate::ops::par::try_map(records, |r| serde_json::to_value(r)).map_err(json_err)?;
    let hashes = crate::ops::sign::record_hashes(&values)?;
    let title = crate::report::certificate::document_title(
        records
            .iter()
            .map(|r| (r.job.as_str(), r.method.map_or("-", JobMethod::name))),
    );
    let mut doc = serde_json::json!({ "title": title, "certificates": values });
    let mut text = format!("{title}\n\n");
    text.push_str(&crate::ops::par::map(records, |r| r.render_text() + "\n").concat());
    if let Some(s) = signer {
        doc["signature"] = s.sign_hashes(hashes.clone())?;
        let _ = writeln!(
            text,
            "signed: ed25519 key {} (check: sgctl certificate verify {})",
            crate::ops::sign::fingerprint(&s.public()),
            crate::escape::escape(&path.display().to_string())
        );
    }
    let put = |p: &std::path::Path, bytes: &[u8]| {
        crate::files::write_atomic(p, bytes, crate::files::MODE_PUBLIC, replace)
    };
    let paths = certificate_paths(path);
    let json = serde_json::to_vec_pretty(&doc).map_err(json_err)?;
    put(&paths[0], &json)?;
    // The renderings read the finished document and nothing else: the HTML, the PDF (the
    // slowest, one page per drive) and `beside` are made at the same time.
    let (d, j) = (&doc, &json);
    let (html, pdf, extra) = std::thread::scope(|s| {
        let html = s.spawn(|| crate::report::certificate::render(d));
        let parts = CertificateParts {
            values: d["certificates"].as_array().map_or(&[][..], Vec::as_slice),
            hashes: &hashes,
            json: j,
        };
        let extra = s.spawn(move || beside(&parts));
        let pdf = pdf_of(path, d, j, &hashes);
        let html = html.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
        let extra = extra
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        (html, pdf, extra)
    });
    put(&paths[1], text.as_bytes())?;
    put(&paths[2], html.as_bytes())?;
    put_pdf(path, &pdf?, replace)?;
    let extra = extra?;
    // The records' values go back to the caller (the command's report) without a copy.
    let values = match doc {
        Value::Object(mut m) => match m.remove("certificates") {
            Some(Value::Array(v)) => v,
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    Ok((extra, values))
}

/// Writes `path.pdf` again from the certificate at `path` as it is on disk (after a
/// countersignature was appended): the PDF/A certificate with the file's bytes attached.
pub(crate) fn write_pdf(path: &std::path::Path, doc: &Value) -> crate::Result<()> {
    let json = std::fs::read(path)
        .map_err(|e| crate::Error::io(format!("certificate {}", path.display()), e))?;
    write_pdf_of(path, doc, &json, crate::files::Replace::Always)
}

/// Writes `path.pdf` for the document `doc` whose JSON bytes (as written at `path`) are
/// `json` ([`crate::report::pdf`]).
fn write_pdf_of(
    path: &std::path::Path,
    doc: &Value,
    json: &[u8],
    replace: crate::files::Replace,
) -> crate::Result<()> {
    // The hashes the signature covers (the same function computes them for an unsigned file).
    let recs = doc
        .get("certificates")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let hashes = crate::ops::sign::record_hashes(recs).unwrap_or_default();
    put_pdf(path, &pdf_of(path, doc, json, &hashes)?, replace)
}

/// The PDF/A certificate of `doc` (written at `path` as `json`; `hashes`: its records').
fn pdf_of(
    path: &std::path::Path,
    doc: &Value,
    json: &[u8],
    hashes: &[String],
) -> crate::Result<Vec<u8>> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "certificate.json".into());
    crate::report::pdf::render(doc, json, &name, hashes, crate::ops::par::threads())
}

/// Writes `pdf` as `path.pdf`.
fn put_pdf(
    path: &std::path::Path,
    pdf: &[u8],
    replace: crate::files::Replace,
) -> crate::Result<()> {
    let mut p = path.as_os_str().to_owned();
    p.push(".pdf");
    crate::files::write_atomic(
        std::path::Path::new(&p),
        pdf,
        crate::files::MODE_PUBLIC,
        replace,
    )
}

#[cfg(test)]
mod text_tests {
    use super::*;

    #[test]
    fn a_job_that_sanitizes_nothing_claims_no_category_and_its_file_is_titled_so() {
        let mut r = JobRecord::new("firmware", "sim:px02smf080");
        r.set_method(
            JobMethod::Microcode(crate::scsi::write_buffer::Mode::OffsetsSave),
            Category::None,
        );
        let t = r.render_text();
        assert!(!t.contains("800-88: none"), "{t}");
        assert!(t.contains("not a sanitization"), "{t}");
        let mut s = JobRecord::new("sanitize", "sim:px02smf080");
        s.set_method(
            JobMethod::Sanitize(crate::scsi::sanitize::ServiceAction::CryptoErase),
            Category::Purge,
        );
        assert!(s.render_text().contains("NIST SP 800-88: purge"));
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("cert.json");
        write_certificate_to(&path, &[r], None, crate::files::Replace::Always)
            .unwrap_or_else(|e| panic!("{e}"));
        let txt = std::fs::read_to_string(dir.path().join("cert.json.txt"))
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(txt.starts_with("Record of Firmware Download\n"), "{txt}");
        assert_eq!(
            crate::report::certificate::document_title([("format", "FORMAT UNIT"); 2]),
            "Record of Format"
        );
        assert_eq!(
            crate::report::certificate::document_title([("sanitize", "CRYPTOGRAPHIC ERASE")]),
            "Certificate of Sanitization"
        );
    }

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

#[cfg(test)]
mod scope_tests {
    use super::*;

    /// A revert covers every band; with the global range among them that is every LBA. An
    /// Opal drive whose Locking SP was never activated is not called a purge of the drive.
    #[test]
    fn revert_scope_is_whole_only_when_established() {
        let table = [(0u16, 0u64, 0u64), (1, 64, 1024), (2, 5000, 0)];
        let s = Scope::tcg_revert(Some(&[0, 1, 2]), Some(&table), Some(10_000), true);
        assert!(s.whole_drive, "{s:?}");
        assert_eq!(s.blocks_in_scope, Some(10_000));
        assert_eq!(s.extents, vec![(0, 10_000)]);
        assert!(s.description.contains("PSID revert"), "{}", s.description);
        // Band table unreadable: still every band including the global range.
        let s = Scope::tcg_revert(Some(&[0, 1, 2]), None, Some(10_000), true);
        assert!(s.whole_drive && s.extents == vec![(0, 10_000)], "{s:?}");
        // Opal, Locking SP active: the logical unit.
        let s = Scope::tcg_revert(None, None, Some(10_000), true);
        assert!(s.whole_drive && s.kind == "logical_unit");
        // Opal, Locking SP never activated: not established, recorded as a purge of part,
        // the validation reads placed over the whole logical unit.
        let s = Scope::tcg_revert(None, None, Some(10_000), false);
        assert!(!s.whole_drive && s.fraction_of_capacity.is_none());
        assert!(s.description.starts_with("NOT ESTABLISHED"));
        assert_eq!(s.extents, vec![(0, 10_000)]);
        let mut r = JobRecord::default();
        r.set_method(JobMethod::TcgRevert, Category::Purge);
        r.set_scope(s);
        assert_eq!(r.nist_sp_800_88_category, Some(Category::PurgeOfPart));
    }
}
