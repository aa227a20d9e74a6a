//! SPC-6 7.7.18 SCSI Feature Sets VPD page (0x92): the feature sets (SPC-6 table "SCSI feature
//! set codes", SBC-4 and ZBC-2 annexes) the logical unit claims, two bytes each from byte 8.

use crate::bytes::ParseResult;
use serde::Serialize;

/// Decoded page 0x92.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ScsiFeatureSets {
    /// Feature set codes in page order, with their names.
    pub feature_sets: Vec<FeatureSet>,
}

/// One feature set code.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FeatureSet {
    /// The two-byte code.
    pub code: u16,
    /// Its name (`SBC Reserved` and the like for an unassigned code of a known standard).
    pub name: String,
}

/// The name of a feature set code, as sg_vpd prints it.
pub(crate) fn feature_set_name(code: u16) -> String {
    let known = match code {
        0x0001 => "Discovery 2016",
        0x0101 => "SBC Base 2016",
        0x0102 => "SBC Base 2010",
        0x0103 => "Basic provisioning 2016",
        0x0104 => "Drive maintenance 2016",
        0x0300 => "Host Aware 2020",
        0x0301 => "Host Managed 2020",
        0x0302 => "Domains and Realms 2020",
        _ => "",
    };
    if !known.is_empty() {
        return known.to_string();
    }
    match code >> 8 {
        0 => "SPC Reserved".into(),
        1 => "SBC Reserved".into(),
        2 => "SSC Reserved".into(),
        3 => "ZBC Reserved".into(),
        _ => "Reserved".into(),
    }
}

/// Decodes page 0x92 (8 bytes are mandatory); an odd trailing byte is a problem.
pub fn decode(buf: &[u8], problems: &mut Vec<String>) -> ParseResult<ScsiFeatureSets> {
    let (_, b) = super::body(buf, 0x92, "SCSI feature sets VPD page", problems)?;
    b.need(8)?;
    let chunks = b.rest(8).chunks_exact(2);
    if !chunks.remainder().is_empty() {
        problems.push("odd byte after the last two-byte feature set code".into());
    }
    let feature_sets = chunks
        .map(|c| {
            let code = u16::from_be_bytes([c[0], c[1]]);
            FeatureSet {
                code,
                name: feature_set_name(code),
            }
        })
        .collect();
    Ok(ScsiFeatureSets { feature_sets })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_names() {
        let mut pr = Vec::new();
        let p = decode(
            &[0, 0x92, 0, 11, 0, 0, 0, 0, 0, 1, 1, 2, 3, 3, 0x12],
            &mut pr,
        )
        .unwrap();
        let names: Vec<_> = p.feature_sets.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["Discovery 2016", "SBC Base 2010", "ZBC Reserved"]);
        assert_eq!(pr.len(), 1);
        assert_eq!(feature_set_name(0x0200), "SSC Reserved");
        assert_eq!(feature_set_name(0x1234), "Reserved");
    }
}
