//! The fields of a certificate of sanitization an auditor expects beyond the drive and the job
//! itself: NIST SP 800-88 Rev. 2 (sanitization program and records, with post-sanitization
//! destination tracking and trust in the vendor's cryptographic erase) with the field list of the
//! Rev. 1 Appendix G sample certificate that auditors still copy, and IEEE 2883-2022 for the
//! Clear/Purge description. docs/records.md says, field by field, where each value comes from.
//!
//! The fields are kept in one section of the record (`sanitization_record`, [`RecordFields`]):
//! the job's own facts (method, category, times, verification) stay where they were.
//!
//! Inputs that do not change per drive come from a site file (TOML, [`parse_site`]) and every
//! one of them is also a command-line flag ([`RecordInputs::overlay`]); the drive's own facts
//! (media type, crypto-erase evidence) and the host's (DMI serial/UUID) are read, never typed.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The standards the record follows, as printed on every certificate.
pub(crate) const STANDARDS: &str = "NIST SP 800-88 Rev. 2 (September 2025): sanitization records; \
IEEE 2883-2022: Clear/Purge techniques; fields after the Rev. 1 Appendix G sample certificate";

/// A site file is read up to this size (bytes); a larger one is refused.
pub(crate) const SITE_FILE_MAX: u64 = 64 * 1024;
/// Longest accepted text field (characters).
pub(crate) const FIELD_MAX: usize = 256;
/// Most property numbers a site file may map (`[asset_tags]`).
pub(crate) const ASSET_TAGS_MAX: usize = 10_000;

/// Where the host's DMI identity is read.
pub(crate) const DMI_DIR: &str = "/sys/class/dmi/id";

/// A person who signs for a step (Rev. 1 Appendix G: name, position/title, location, contact;
/// organisation as auditors ask for it).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Person {
    /// Name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Position or title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Organisation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub organisation: Option<String>,
    /// Location (site, building, room).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// Phone or e-mail.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contact: Option<String>,
}

impl Person {
    /// No field given.
    pub fn is_empty(&self) -> bool {
        self.name.is_none()
            && self.title.is_none()
            && self.organisation.is_none()
            && self.location.is_none()
            && self.contact.is_none()
    }

    /// Fields of `over` that are given replace this person's.
    pub fn overlay(&mut self, over: &Person) {
        for (mine, theirs) in [
            (&mut self.name, &over.name),
            (&mut self.title, &over.title),
            (&mut self.organisation, &over.organisation),
            (&mut self.location, &over.location),
            (&mut self.contact, &over.contact),
        ] {
            if theirs.is_some() {
                mine.clone_from(theirs);
            }
        }
    }

    /// `name, title, organisation, location, contact` (the given ones), or `-`.
    pub fn line(&self) -> String {
        let parts: Vec<&str> = [
            &self.name,
            &self.title,
            &self.organisation,
            &self.location,
            &self.contact,
        ]
        .iter()
        .filter_map(|x| x.as_deref())
        .collect();
        if parts.is_empty() {
            "-".into()
        } else {
            parts.join(", ")
        }
    }
}

/// Where the drive goes after sanitization (SP 800-88 Rev. 2 destination tracking; Rev. 1
/// Appendix G "Post-Sanitization Destination").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Destination {
    /// Back into service inside the organisation.
    Reuse,
    /// Sold or returned (leaves the organisation's control).
    Resale,
    /// To a recycler.
    Recycle,
    /// To destruction.
    Destroy,
}

impl Destination {
    /// `reuse`, `resale`, `recycle`, `destroy`.
    pub fn as_str(self) -> &'static str {
        match self {
            Destination::Reuse => "reuse",
            Destination::Resale => "resale",
            Destination::Recycle => "recycle",
            Destination::Destroy => "destroy",
        }
    }

    fn from_name(s: &str) -> Option<Destination> {
        Some(match s {
            "reuse" => Destination::Reuse,
            "resale" => Destination::Resale,
            "recycle" => Destination::Recycle,
            "destroy" => Destination::Destroy,
            _ => return None,
        })
    }
}

/// The inputs of the record that people supply: a site file overlaid with flags.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecordInputs {
    /// Property numbers by drive serial number or WWN (site file `[asset_tags]`, or
    /// `--asset-tag SERIAL=TAG`).
    pub asset_tags: BTreeMap<String, String>,
    /// A property number for the only drive of the job (`--asset-tag TAG`).
    pub asset_tag: Option<String>,
    /// Post-sanitization destination.
    pub destination: Option<Destination>,
    /// Who sanitizes (the operator).
    pub sanitized_by: Person,
    /// Who validates (the second person; `certificate countersign` signs for them).
    pub validated_by: Person,
    /// Pre-sanitization confidentiality categorization (optional).
    pub classification_before: Option<String>,
    /// Post-sanitization confidentiality categorization (optional).
    pub classification_after: Option<String>,
    /// Whether and where the data was backed up (optional).
    pub data_backup: Option<String>,
    /// Enclosure slot of the only drive of the job, when the admin knows it.
    pub enclosure_slot: Option<String>,
}

impl RecordInputs {
    /// Fields given in `over` replace these (flags over the site file).
    pub fn overlay(&mut self, over: &RecordInputs) {
        for (k, v) in &over.asset_tags {
            self.asset_tags.insert(k.clone(), v.clone());
        }
        for (mine, theirs) in [
            (&mut self.asset_tag, &over.asset_tag),
            (&mut self.classification_before, &over.classification_before),
            (&mut self.classification_after, &over.classification_after),
            (&mut self.data_backup, &over.data_backup),
            (&mut self.enclosure_slot, &over.enclosure_slot),
        ] {
            if theirs.is_some() {
                mine.clone_from(theirs);
            }
        }
        if over.destination.is_some() {
            self.destination = over.destination;
        }
        self.sanitized_by.overlay(&over.sanitized_by);
        self.validated_by.overlay(&over.validated_by);
    }

    /// The property number of a drive: by serial, then WWN, then the single `--asset-tag`
    /// when the job has one drive.
    pub fn asset_tag_for(&self, serial: &str, wwn: Option<&str>, drives: usize) -> Option<String> {
        self.asset_tags
            .get(serial)
            .or_else(|| wwn.and_then(|w| self.asset_tags.get(w)))
            .cloned()
            .or_else(|| self.asset_tag.clone().filter(|_| drives == 1))
    }

    /// The inputs from a site file, `--site FILE` (bounded read; every problem listed).
    pub fn load_site(path: &Path) -> Result<RecordInputs> {
        use std::io::Read;
        let ctx = || format!("site file {}", path.display());
        let f = std::fs::File::open(path).map_err(|e| Error::io(ctx(), e))?;
        let mut buf = Vec::new();
        f.take(SITE_FILE_MAX + 1)
            .read_to_end(&mut buf)
            .map_err(|e| Error::io(ctx(), e))?;
        if buf.len() as u64 > SITE_FILE_MAX {
            return Err(bad_site(
                path,
                &[format!("larger than {SITE_FILE_MAX} bytes")],
            ));
        }
        let text = std::str::from_utf8(&buf)
            .map_err(|e| bad_site(path, &[format!("not UTF-8 text: {e}")]))?;
        parse_site(text).map_err(|p| bad_site(path, &p))
    }
}

fn bad_site(path: &Path, problems: &[String]) -> Error {
    crate::error::Invalid::BadReport {
        path: format!("site file {}", path.display()),
        reason: problems.join("; "),
    }
    .into()
}

/// Checks one text value: at most `FIELD_MAX` characters, no control characters, not blank.
pub fn check_text(what: &str, s: &str) -> std::result::Result<String, String> {
    let t = s.trim();
    if t.is_empty() {
        return Err(format!("{what}: empty"));
    }
    if t.chars().count() > FIELD_MAX {
        return Err(format!("{what}: longer than {FIELD_MAX} characters"));
    }
    if t.chars().any(char::is_control) {
        return Err(format!("{what}: contains a control character"));
    }
    Ok(t.to_string())
}

const PERSON_KEYS: [&str; 5] = ["name", "title", "organisation", "location", "contact"];
const TOP_KEYS: [&str; 8] = [
    "destination",
    "classification_before",
    "classification_after",
    "data_backup",
    "asset_tag",
    "sanitized_by",
    "validated_by",
    "asset_tags",
];

/// Parses a site file. Every problem is listed (unknown keys, wrong types, overlong or empty
/// values, an unknown destination), each with its key, so a fleet run fails once, not per fix.
///
/// ```toml
/// destination = "recycle"            # reuse | resale | recycle | destroy
/// classification_before = "Confidential"
/// classification_after = "Unclassified"
/// data_backup = "none"
///
/// [sanitized_by]
/// name = "J. Admin"
/// title = "Storage administrator"
/// organisation = "Example Corp IT"
/// location = "DC1, room 3"
/// contact = "+1 555 0100"
///
/// [validated_by]
/// name = "R. Auditor"
///
/// [asset_tags]                       # serial number or WWN = property number
/// S3Z1NX0K123456 = "IT-004711"
/// ```
pub fn parse_site(text: &str) -> std::result::Result<RecordInputs, Vec<String>> {
    let table: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| vec![format!("not TOML: {}", e.message())])?;
    let mut p = Vec::new();
    let mut out = RecordInputs::default();
    let text_of = |key: &str, v: &toml::Value, p: &mut Vec<String>| -> Option<String> {
        match v.as_str() {
            Some(s) => check_text(key, s).map_err(|e| p.push(e)).ok(),
            None => {
                p.push(format!("{key}: must be a string"));
                None
            }
        }
    };
    for (k, v) in &table {
        match k.as_str() {
            "destination" => {
                if let Some(s) = text_of(k, v, &mut p) {
                    match Destination::from_name(&s) {
                        Some(d) => out.destination = Some(d),
                        None => p.push(format!(
                            "destination: \"{}\" is none of reuse, resale, recycle, destroy",
                            s.escape_debug()
                        )),
                    }
                }
            }
            "classification_before" => out.classification_before = text_of(k, v, &mut p),
            "classification_after" => out.classification_after = text_of(k, v, &mut p),
            "data_backup" => out.data_backup = text_of(k, v, &mut p),
            "asset_tag" => out.asset_tag = text_of(k, v, &mut p),
            "sanitized_by" | "validated_by" => {
                let Some(t) = v.as_table() else {
                    p.push(format!("{k}: must be a table ([{k}])"));
                    continue;
                };
                let mut person = Person::default();
                for (pk, pv) in t {
                    let key = format!("{k}.{pk}");
                    let val = match pk.as_str() {
                        "name" => &mut person.name,
                        "title" => &mut person.title,
                        "organisation" | "organization" => &mut person.organisation,
                        "location" => &mut person.location,
                        "contact" => &mut person.contact,
                        _ => {
                            p.push(format!(
                                "{key}: unknown key (known: {})",
                                PERSON_KEYS.join(", ")
                            ));
                            continue;
                        }
                    };
                    *val = text_of(&key, pv, &mut p);
                }
                if k == "sanitized_by" {
                    out.sanitized_by = person;
                } else {
                    out.validated_by = person;
                }
            }
            "asset_tags" => {
                let Some(t) = v.as_table() else {
                    p.push("asset_tags: must be a table ([asset_tags])".into());
                    continue;
                };
                if t.len() > ASSET_TAGS_MAX {
                    p.push(format!("asset_tags: more than {ASSET_TAGS_MAX} entries"));
                    continue;
                }
                for (drive, tag) in t {
                    let key = format!("asset_tags.{drive}");
                    if let Err(e) = check_text(&key, drive) {
                        p.push(e);
                        continue;
                    }
                    if let Some(tag) = text_of(&key, tag, &mut p) {
                        out.asset_tags.insert(drive.trim().to_string(), tag);
                    }
                }
            }
            _ => p.push(format!(
                "{}: unknown key (known: {})",
                k.escape_debug(),
                TOP_KEYS.join(", ")
            )),
        }
    }
    if p.is_empty() {
        Ok(out)
    } else {
        Err(p)
    }
}

/// Media type from VPD B1h MEDIUM ROTATION RATE (SBC-4 6.6.2): 0001h non-rotating (solid
/// state), 0401h..FFFEh the nominal rpm of a rotating (magnetic) medium, 0000h not reported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MediaType {
    /// `flash (non-rotating)`, `magnetic (rotating)`, or `not reported`.
    pub kind: String,
    /// The MEDIUM ROTATION RATE field as read (None: no VPD B1h).
    pub rotation_rate: Option<u16>,
    /// Where the value comes from.
    pub source: &'static str,
}

impl MediaType {
    /// From the MEDIUM ROTATION RATE field.
    pub fn of(rotation_rate: Option<u16>) -> MediaType {
        let kind = match rotation_rate {
            Some(1) => "flash (non-rotating)".to_string(),
            Some(r @ 0x0401..=0xfffe) => format!("magnetic (rotating, {r} rpm)"),
            Some(0) | None => "not reported".into(),
            Some(r) => format!("not reported (reserved value {r:#06x})"),
        };
        MediaType {
            kind,
            rotation_rate,
            source: "VPD page B1h (Block Device Characteristics) MEDIUM ROTATION RATE",
        }
    }
}

/// The computer the drive came from (Rev. 1 Appendix G "Media Source").
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct MediaSource {
    /// Host name.
    pub host: String,
    /// DMI system serial number (`product_serial`, readable as root).
    pub system_serial: Option<String>,
    /// DMI system UUID (`product_uuid`, readable as root).
    pub system_uuid: Option<String>,
    /// DMI system vendor.
    pub system_vendor: Option<String>,
    /// DMI product name.
    pub system_product: Option<String>,
    /// Enclosure slot of the drive, when known (`--enclosure-slot`).
    pub enclosure_slot: Option<String>,
}

/// Values firmware leaves in DMI when the vendor did not fill the field.
fn dmi_placeholder(s: &str) -> bool {
    let l = s.to_ascii_lowercase();
    l.is_empty()
        || [
            "to be filled by o.e.m.",
            "default string",
            "not specified",
            "system serial number",
            "none",
            "0",
            "00000000-0000-0000-0000-000000000000",
            "03000200-0400-0500-0006-000700080009",
        ]
        .contains(&l.as_str())
}

/// Reads one DMI attribute: at most 256 bytes, trimmed; None when unreadable (not root) or a
/// placeholder.
pub(crate) fn read_dmi(dir: &Path, name: &str) -> Option<String> {
    use std::io::Read;
    let f = std::fs::File::open(dir.join(name)).ok()?;
    let mut buf = Vec::new();
    f.take(256).read_to_end(&mut buf).ok()?;
    let s = String::from_utf8_lossy(&buf).trim().to_string();
    (!dmi_placeholder(&s) && !s.chars().any(char::is_control)).then_some(s)
}

/// The enclosure slot the kernel's SES driver links to a SCSI device: the NAME of an
/// `enclosure_device:NAME` entry in `SYSFS/bus/scsi/devices/HCTL/` (the first path that has one).
pub fn enclosure_slot(sysfs: &Path, hctls: &[&str]) -> Option<String> {
    hctls.iter().find_map(|h| {
        let dir = sysfs.join("bus/scsi/devices").join(h);
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .ok()?
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                e.file_name()
                    .to_str()
                    .and_then(|n| n.strip_prefix("enclosure_device:"))
                    .map(str::to_string)
            })
            .filter(|n| !n.is_empty() && n.len() <= FIELD_MAX && !n.chars().any(char::is_control))
            .collect();
        names.sort();
        names.into_iter().next()
    })
}

impl MediaSource {
    /// This host, its DMI identity read from `dmi_dir` (`DMI_DIR`).
    pub fn read(dmi_dir: &Path, enclosure_slot: Option<String>) -> MediaSource {
        MediaSource {
            host: crate::host::hostname(),
            system_serial: read_dmi(dmi_dir, "product_serial"),
            system_uuid: read_dmi(dmi_dir, "product_uuid"),
            system_vendor: read_dmi(dmi_dir, "sys_vendor"),
            system_product: read_dmi(dmi_dir, "product_name"),
            enclosure_slot,
        }
    }
}

/// The TCG Level 0 Supported Data Removal Mechanism descriptor (feature 0404h), as read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DataRemovalDescriptor {
    /// A removal operation is being processed.
    pub processing: bool,
    /// The last removal operation was interrupted.
    pub interrupted: bool,
    /// The Supported Data Removal Mechanism byte (raw).
    pub supported_mechanisms_bitmap: u8,
    /// The bits decoded (TCG Storage Feature Set: Supported Data Removal Mechanism).
    pub supported_mechanisms: Vec<String>,
}

impl DataRemovalDescriptor {
    /// From the decoded descriptor fields.
    pub fn new(processing: bool, interrupted: bool, bitmap: u8) -> DataRemovalDescriptor {
        let supported_mechanisms = (0..8u8)
            .filter(|b| bitmap & (1 << b) != 0)
            .map(|b| {
                match b {
                    0 => "overwrite data erase",
                    1 => "block erase",
                    2 => "cryptographic erase",
                    5 => "vendor specific erase",
                    _ => return format!("bit {b} (reserved)"),
                }
                .to_string()
            })
            .collect();
        DataRemovalDescriptor {
            processing,
            interrupted,
            supported_mechanisms_bitmap: bitmap,
            supported_mechanisms,
        }
    }
}

/// The drive's own evidence for a cryptographic erase (SP 800-88 Rev. 2 asks programs to
/// establish trust in the vendor's implementation). Read-only commands, sent before the job.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CryptoEraseEvidence {
    /// TCG Level 0 discovery: `absent` (no TCG), the SSC names found, or `unreadable: ...`.
    pub tcg_level0: String,
    /// The Supported Data Removal Mechanism descriptor, when the drive has one.
    pub tcg_data_removal: Option<DataRemovalDescriptor>,
    /// SANITIZE CRYPTOGRAPHIC ERASE per REPORT SUPPORTED OPERATION CODES: `supported`,
    /// `not_supported`, `unknown`.
    pub sanitize_crypto_erase: String,
}

/// Reads the crypto-erase evidence (TCG Level 0 discovery, RSOC for SANITIZE service action 3).
pub(crate) fn read_crypto_evidence(t: &mut dyn crate::transport::Transport) -> CryptoEraseEvidence {
    use crate::tcg::level0::Feature;
    let mut ev = CryptoEraseEvidence::default();
    match crate::cmd::tcg::discover(t) {
        Ok((l0, _, _)) => {
            let sscs: Vec<String> = l0
                .features
                .iter()
                .filter_map(|f| match f {
                    Feature::Ssc(s) => Some(s.ssc.name().to_string()),
                    _ => None,
                })
                .collect();
            ev.tcg_level0 = if sscs.is_empty() {
                "present (no SSC)".into()
            } else {
                format!("present: {}", sscs.join(", "))
            };
            ev.tcg_data_removal = l0.features.iter().find_map(|f| match f {
                Feature::DataRemoval {
                    processing,
                    interrupted,
                    supported_mechanisms,
                } => Some(DataRemovalDescriptor::new(
                    *processing,
                    *interrupted,
                    *supported_mechanisms,
                )),
                _ => None,
            });
        }
        Err(crate::tcg::TcgError::NotTcg(_)) => ev.tcg_level0 = "absent".into(),
        Err(e) => ev.tcg_level0 = format!("unreadable: {e}"),
    }
    ev.sanitize_crypto_erase = match crate::ops::query::rsoc_one(t, 0x48, 0x03) {
        Ok((crate::ops::query::Support::Supported, _)) => "supported",
        Ok((crate::ops::query::Support::NotSupported, _)) => "not_supported",
        _ => "unknown",
    }
    .into();
    ev
}

/// The record's auditor section (`sanitization_record` in the JSON).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RecordFields {
    /// The standards followed (`STANDARDS`).
    pub standards: String,
    /// Organizationally assigned property number (`--asset-tag`).
    pub property_number: Option<String>,
    /// Media type, from the drive.
    pub media_type: Option<MediaType>,
    /// The computer the drive came from.
    pub media_source: MediaSource,
    /// Sanitization description: `clear`/`purge` per IEEE 2883-2022 (from the method and scope).
    pub description: Option<String>,
    /// Post-sanitization destination.
    pub post_sanitization_destination: Option<Destination>,
    /// Who sanitized.
    pub sanitized_by: Person,
    /// Who validates (filled by the site file/flags; signed by `certificate countersign`).
    pub validated_by: Person,
    /// Pre-sanitization confidentiality categorization (optional).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub classification_before: Option<String>,
    /// Post-sanitization confidentiality categorization (optional).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub classification_after: Option<String>,
    /// Data backup (optional).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_backup: Option<String>,
    /// The drive's own crypto-erase evidence (cryptographic erase methods only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crypto_erase_evidence: Option<CryptoEraseEvidence>,
}

/// Options for filling the section in a job: the people's inputs and where DMI is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordOptions {
    /// Site file overlaid with flags.
    pub inputs: RecordInputs,
    /// DMI directory (`DMI_DIR`).
    pub dmi_dir: PathBuf,
    /// The sysfs root where enclosure slots are looked up (`/sys`).
    pub sysfs: PathBuf,
}

impl Default for RecordOptions {
    fn default() -> Self {
        RecordOptions {
            inputs: RecordInputs::default(),
            dmi_dir: PathBuf::from(DMI_DIR),
            sysfs: PathBuf::from("/sys"),
        }
    }
}

impl RecordFields {
    /// The section for one drive: people's inputs, the drive's rotation rate, the host, the
    /// enclosure slot (`--enclosure-slot` for a job on one drive, else what sysfs links to one of
    /// the drive's `hctls`).
    pub fn new(
        o: &RecordOptions,
        drive: &crate::ops::record::DriveInfo,
        rotation_rate: Option<u16>,
        operator: Option<&str>,
        drives: usize,
        hctls: &[&str],
    ) -> RecordFields {
        let i = &o.inputs;
        let mut sanitized_by = i.sanitized_by.clone();
        if sanitized_by.name.is_none() {
            sanitized_by.name = operator.map(str::to_string);
        }
        RecordFields {
            standards: STANDARDS.into(),
            property_number: i.asset_tag_for(&drive.serial, drive.wwn.as_deref(), drives),
            media_type: Some(MediaType::of(rotation_rate)),
            media_source: MediaSource::read(
                &o.dmi_dir,
                i.enclosure_slot
                    .clone()
                    .filter(|_| drives == 1)
                    .or_else(|| enclosure_slot(&o.sysfs, hctls)),
            ),
            description: None,
            post_sanitization_destination: i.destination,
            sanitized_by,
            validated_by: i.validated_by.clone(),
            classification_before: i.classification_before.clone(),
            classification_after: i.classification_after.clone(),
            data_backup: i.data_backup.clone(),
            crypto_erase_evidence: None,
        }
    }
}

/// The IEEE 2883 description of a record: its category, or `not sanitized` when the job did
/// not succeed.
pub fn describe(category: Option<crate::ops::record::Category>, success: bool) -> String {
    use crate::ops::record::Category;
    match (category, success) {
        (Some(Category::Purge), true) => "purge (IEEE 2883-2022)".into(),
        (Some(Category::Clear), true) => "clear (IEEE 2883-2022)".into(),
        (Some(c), false) => format!("not sanitized (a {} was attempted)", c.as_str()),
        _ => "not sanitized".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const SITE: &str = r#"
destination = "recycle"
classification_before = "Confidential"
data_backup = "none"
[sanitized_by]
name = "J. Admin"
title = "Storage administrator"
organisation = "Example Corp IT"
location = "DC1"
contact = "+1 555 0100"
[validated_by]
name = "R. Auditor"
[asset_tags]
DEMO0001 = "IT-004711"
"#;

    #[test]
    fn site_file_parses_and_flags_win() {
        let mut s = parse_site(SITE).unwrap();
        assert_eq!(s.destination, Some(Destination::Recycle));
        assert_eq!(
            s.sanitized_by.title.as_deref(),
            Some("Storage administrator")
        );
        assert_eq!(
            s.asset_tag_for("DEMO0001", None, 3).as_deref(),
            Some("IT-004711")
        );
        let flags = RecordInputs {
            destination: Some(Destination::Destroy),
            sanitized_by: Person {
                name: Some("K. Other".into()),
                ..Person::default()
            },
            asset_tag: Some("ONE".into()),
            ..RecordInputs::default()
        };
        s.overlay(&flags);
        assert_eq!(s.destination, Some(Destination::Destroy));
        assert_eq!(s.sanitized_by.name.as_deref(), Some("K. Other"));
        assert_eq!(s.sanitized_by.location.as_deref(), Some("DC1"));
        // A single --asset-tag names the only drive of a job, never one of many.
        assert_eq!(s.asset_tag_for("X", None, 1).as_deref(), Some("ONE"));
        assert_eq!(s.asset_tag_for("X", None, 2), None);
    }

    #[test]
    fn every_problem_is_listed() {
        let bad = "destination = \"shred\"\ncolour = 1\n[sanitized_by]\nname = 5\nrank = \"x\"\n\
                   [asset_tags]\nA = \"\"\n";
        let p = parse_site(bad).unwrap_err();
        assert_eq!(p.len(), 5, "{p:?}");
        assert!(p.iter().any(|x| x.starts_with("destination: \"shred\"")));
        assert!(p.iter().any(|x| x.starts_with("colour: unknown key")));
        assert!(p.iter().any(|x| x == "sanitized_by.name: must be a string"));
        assert!(p
            .iter()
            .any(|x| x.starts_with("sanitized_by.rank: unknown")));
        assert!(p.iter().any(|x| x == "asset_tags.A: empty"));
        let long = format!("data_backup = \"{}\"", "x".repeat(FIELD_MAX + 1));
        assert!(parse_site(&long).unwrap_err()[0].contains("longer than"));
        assert!(
            parse_site("data_backup = \"a\\u0007b\"").unwrap_err()[0].contains("control character")
        );
        assert!(parse_site("= nope").unwrap_err()[0].starts_with("not TOML"));
    }

    #[test]
    fn site_file_is_bounded() {
        let d = tempfile::tempdir().unwrap();
        let big = d.path().join("big.toml");
        std::fs::write(&big, "#".repeat(SITE_FILE_MAX as usize + 1)).unwrap();
        let e = RecordInputs::load_site(&big).unwrap_err().to_string();
        assert!(e.contains("larger than"), "{e}");
        let ok = d.path().join("ok.toml");
        std::fs::write(&ok, SITE).unwrap();
        assert!(RecordInputs::load_site(&ok).is_ok());
        let missing = RecordInputs::load_site(&d.path().join("none.toml")).unwrap_err();
        assert!(missing.to_string().contains("none.toml"));
    }

    #[test]
    fn media_type_from_rotation_rate() {
        assert_eq!(MediaType::of(Some(1)).kind, "flash (non-rotating)");
        assert_eq!(
            MediaType::of(Some(7200)).kind,
            "magnetic (rotating, 7200 rpm)"
        );
        assert_eq!(MediaType::of(Some(0)).kind, "not reported");
        assert_eq!(MediaType::of(None).kind, "not reported");
        assert!(MediaType::of(Some(2)).kind.contains("reserved"));
    }

    #[test]
    fn dmi_is_read_and_placeholders_dropped() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("product_serial"), "CZ1234ABCD\n").unwrap();
        std::fs::write(
            d.path().join("product_uuid"),
            "00000000-0000-0000-0000-000000000000\n",
        )
        .unwrap();
        std::fs::write(d.path().join("sys_vendor"), "To Be Filled By O.E.M.\n").unwrap();
        let m = MediaSource::read(d.path(), Some("enclosure 0 slot 3".into()));
        assert_eq!(m.system_serial.as_deref(), Some("CZ1234ABCD"));
        assert_eq!(m.system_uuid, None);
        assert_eq!(m.system_vendor, None);
        assert_eq!(m.system_product, None);
        assert_eq!(m.enclosure_slot.as_deref(), Some("enclosure 0 slot 3"));
    }

    #[test]
    fn enclosure_slot_from_the_ses_link() {
        let d = tempfile::tempdir().unwrap();
        let dev = d.path().join("bus/scsi/devices/2:0:5:0");
        std::fs::create_dir_all(&dev).unwrap();
        std::fs::write(dev.join("vendor"), "X").unwrap();
        assert_eq!(enclosure_slot(d.path(), &["2:0:5:0"]), None);
        std::os::unix::fs::symlink("/nowhere", dev.join("enclosure_device:Slot 07")).unwrap();
        assert_eq!(
            enclosure_slot(d.path(), &["1:0:0:0", "2:0:5:0"]).as_deref(),
            Some("Slot 07")
        );
    }

    #[test]
    fn data_removal_bits() {
        let d = DataRemovalDescriptor::new(false, false, 0b0000_0101);
        assert_eq!(
            d.supported_mechanisms,
            ["overwrite data erase", "cryptographic erase"]
        );
        let d = DataRemovalDescriptor::new(false, false, 0x80);
        assert_eq!(d.supported_mechanisms, ["bit 7 (reserved)"]);
    }

    fn text() -> impl Strategy<Value = String> {
        "[ -~]{1,40}".prop_filter("not blank", |s| !s.trim().is_empty())
    }

    proptest! {
        /// Any text either parses or lists its problems; it never panics.
        #[test]
        fn arbitrary_site_text_never_panics(s in "\\PC{0,400}") {
            match parse_site(&s) {
                Ok(_) => {}
                Err(p) => prop_assert!(!p.is_empty()),
            }
        }

        /// A site file written from valid values reads back as those values.
        #[test]
        fn written_site_reads_back(name in text(), org in text(), tag in text(),
                                   serial in "[A-Z0-9]{4,20}", d in 0usize..4) {
            let dest = ["reuse", "resale", "recycle", "destroy"][d];
            let mut t = toml::Table::new();
            t.insert("destination".into(), dest.into());
            let mut person = toml::Table::new();
            person.insert("name".into(), name.clone().into());
            person.insert("organisation".into(), org.clone().into());
            t.insert("sanitized_by".into(), person.into());
            let mut tags = toml::Table::new();
            tags.insert(serial.clone(), tag.clone().into());
            t.insert("asset_tags".into(), tags.into());
            let text = toml::to_string(&t).unwrap();
            let back = parse_site(&text).unwrap();
            prop_assert_eq!(back.destination.map(Destination::as_str), Some(dest));
            prop_assert_eq!(back.sanitized_by.name, Some(name.trim().to_string()));
            prop_assert_eq!(back.sanitized_by.organisation, Some(org.trim().to_string()));
            prop_assert_eq!(back.asset_tags.get(&serial).cloned(), Some(tag.trim().to_string()));
        }
    }
}
