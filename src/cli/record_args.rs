//! The certificate's auditor fields as flags (`--site FILE` and one flag per field), shared by
//! every destructive command through [`super::erase::SafetyArgs`]. The fields and where each
//! comes from: [`sgctl::ops::record_fields`], docs/records.md.

use sgctl::error::{Invalid, Result};
use sgctl::ops::record_fields::{check_text, Destination, Person, RecordInputs, RecordOptions};
use std::path::PathBuf;

/// Certificate fields (NIST SP 800-88 Rev. 2 records; Rev. 1 Appendix G template).
#[derive(Debug, Clone, Default, clap::Args)]
#[command(next_help_heading = "Certificate fields (SP 800-88 Rev. 2 record)")]
pub(crate) struct RecordArgs {
    /// Site file (TOML) with the fields that do not change per drive: destination,
    /// sanitized_by/validated_by, classification, backup, [asset_tags]; flags override it.
    #[arg(long, value_name = "FILE")]
    pub site: Option<PathBuf>,
    /// Property number: TAG for the only drive of the job, or SERIAL=TAG (repeat per drive;
    /// SERIAL may be a WWN).
    #[arg(long, value_name = "[SERIAL=]TAG")]
    pub asset_tag: Vec<String>,
    /// Where the drive goes after sanitization.
    #[arg(long, value_enum, value_name = "WHERE")]
    pub destination: Option<Destination>,
    /// Title or position of the operator (who sanitizes).
    #[arg(long, value_name = "TEXT")]
    pub operator_title: Option<String>,
    /// Organisation of the operator.
    #[arg(long, value_name = "TEXT")]
    pub operator_organisation: Option<String>,
    /// Location of the operator (site, room).
    #[arg(long, value_name = "TEXT")]
    pub operator_location: Option<String>,
    /// Phone or e-mail of the operator.
    #[arg(long, value_name = "TEXT")]
    pub operator_contact: Option<String>,
    /// Who validates the result (the second person; they sign with `sgctl certificate
    /// countersign`).
    #[arg(long, value_name = "NAME")]
    pub validator: Option<String>,
    /// Title or position of the validator.
    #[arg(long, value_name = "TEXT")]
    pub validator_title: Option<String>,
    /// Organisation of the validator.
    #[arg(long, value_name = "TEXT")]
    pub validator_organisation: Option<String>,
    /// Location of the validator.
    #[arg(long, value_name = "TEXT")]
    pub validator_location: Option<String>,
    /// Phone or e-mail of the validator.
    #[arg(long, value_name = "TEXT")]
    pub validator_contact: Option<String>,
    /// Confidentiality categorization before sanitization (optional).
    #[arg(long, value_name = "TEXT")]
    pub classification_before: Option<String>,
    /// Confidentiality categorization after sanitization (optional).
    #[arg(long, value_name = "TEXT")]
    pub classification_after: Option<String>,
    /// Whether and where the data was backed up (optional).
    #[arg(long, value_name = "TEXT")]
    pub data_backup: Option<String>,
    /// Enclosure slot of the only drive of the job (e.g. "enclosure 0 slot 3").
    #[arg(long, value_name = "TEXT")]
    pub enclosure_slot: Option<String>,
}

impl RecordArgs {
    /// The site file overlaid with the flags; every bad value is listed.
    pub(crate) fn resolve(&self) -> Result<RecordOptions> {
        let mut inputs = match &self.site {
            Some(p) => RecordInputs::load_site(p)?,
            None => RecordInputs::default(),
        };
        let mut problems = Vec::new();
        let mut t = |flag: &str, v: &Option<String>| -> Option<String> {
            v.as_deref()
                .and_then(|s| check_text(flag, s).map_err(|e| problems.push(e)).ok())
        };
        let mut flags = RecordInputs {
            destination: self.destination,
            sanitized_by: Person {
                name: None,
                title: t("--operator-title", &self.operator_title),
                organisation: t("--operator-organisation", &self.operator_organisation),
                location: t("--operator-location", &self.operator_location),
                contact: t("--operator-contact", &self.operator_contact),
            },
            validated_by: Person {
                name: t("--validator", &self.validator),
                title: t("--validator-title", &self.validator_title),
                organisation: t("--validator-organisation", &self.validator_organisation),
                location: t("--validator-location", &self.validator_location),
                contact: t("--validator-contact", &self.validator_contact),
            },
            classification_before: t("--classification-before", &self.classification_before),
            classification_after: t("--classification-after", &self.classification_after),
            data_backup: t("--data-backup", &self.data_backup),
            enclosure_slot: t("--enclosure-slot", &self.enclosure_slot),
            ..RecordInputs::default()
        };
        for a in &self.asset_tag {
            match a.split_once('=') {
                Some((drive, tag)) => {
                    let d = check_text("--asset-tag SERIAL", drive);
                    let g = check_text("--asset-tag TAG", tag);
                    match (d, g) {
                        (Ok(d), Ok(g)) => {
                            flags.asset_tags.insert(d, g);
                        }
                        (d, g) => problems.extend(d.err().into_iter().chain(g.err())),
                    }
                }
                None => match check_text("--asset-tag", a) {
                    Ok(v) if flags.asset_tag.is_none() => flags.asset_tag = Some(v),
                    Ok(_) => problems
                        .push("--asset-tag TAG given twice: use SERIAL=TAG for each drive".into()),
                    Err(e) => problems.push(e),
                },
            }
        }
        if !problems.is_empty() {
            return Err(Invalid::BadReport {
                path: "certificate fields".into(),
                reason: problems.join("; "),
            }
            .into());
        }
        inputs.overlay(&flags);
        Ok(RecordOptions {
            inputs,
            ..RecordOptions::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_override_the_site_file_and_bad_values_are_listed() {
        let d = tempfile::tempdir().unwrap();
        let site = d.path().join("site.toml");
        std::fs::write(
            &site,
            "destination = \"reuse\"\n[sanitized_by]\ntitle = \"Admin\"\nlocation = \"DC1\"\n",
        )
        .unwrap();
        let a = RecordArgs {
            site: Some(site),
            destination: Some(Destination::Recycle),
            operator_title: Some("Lead".into()),
            asset_tag: vec!["S1=IT-1".into(), "IT-2".into()],
            ..RecordArgs::default()
        };
        let o = a.resolve().unwrap().inputs;
        assert_eq!(o.destination, Some(Destination::Recycle));
        assert_eq!(o.sanitized_by.title.as_deref(), Some("Lead"));
        assert_eq!(o.sanitized_by.location.as_deref(), Some("DC1"));
        assert_eq!(o.asset_tags.get("S1").map(String::as_str), Some("IT-1"));
        assert_eq!(o.asset_tag.as_deref(), Some("IT-2"));

        let bad = RecordArgs {
            validator: Some(" ".into()),
            asset_tag: vec!["=x".into(), "a".into(), "b".into()],
            ..RecordArgs::default()
        };
        let e = bad.resolve().unwrap_err().to_string();
        assert!(e.contains("--validator: empty"), "{e}");
        assert!(e.contains("--asset-tag SERIAL: empty"), "{e}");
        assert!(e.contains("given twice"), "{e}");
    }
}
