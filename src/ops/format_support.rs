//! What a drive says it will accept from FORMAT UNIT, read before formatting: the Supported
//! Block Lengths and Protection Types VPD page (0xB4, SBC-4 6.6.7), the Format Presets VPD page
//! (0xB8, SBC-5 6.6.5), REPORT SUPPORTED OPERATION CODES for FORMAT UNIT (SPC-5 6.35), the
//! current geometry (READ CAPACITY(16)) and the Format Status log page (0x08, SBC-4 6.4.5).
//! Every read is read-only; a page is fetched only when the drive lists it (VPD 0x00, log page
//! 0x00).
//!
//! [`check`] is the preflight of `sgctl format`: a block length or protection type the drive
//! does not list in VPD 0xB4 is refused before any command that changes the drive.
//! `diagnose` turns an ILLEGAL REQUEST to a length the drive does not list into a diagnosis.

use crate::cmd::log_sense;
use crate::cmd::run_query;
use crate::error::{Error, Result};
use crate::logpage::counters::{format_status, FormatStatus};
use crate::ops::query::{self, Capacity, Support};
use crate::scsi::log_sense::PageControl;
use crate::scsi::vpd::block_lengths::{self, SupportedBlockLengths};
use crate::scsi::vpd::format_presets::{self, FormatPresets};
use crate::sense::SenseKey;
use crate::transport::{Transport, DEFAULT_TIMEOUT};
use serde::Serialize;

/// RSOC's word on FORMAT UNIT (opcode 0x04).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct FormatUnitSupport {
    /// Supported / not supported / unknown (no RSOC).
    pub support: Support,
    /// Recommended command timeout, seconds, when the drive reports timeouts (RCTD).
    pub recommended_timeout_s: Option<u32>,
}

/// Current geometry from READ CAPACITY(16).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Geometry {
    /// Logical block length, bytes.
    pub block_len: u32,
    /// Protection type (0 = none).
    pub pi_type: u8,
    /// P_I_EXPONENT.
    pub pi_interval_exponent: u8,
    /// Logical blocks.
    pub blocks: u64,
    /// Bytes.
    pub capacity_bytes: u64,
}

impl From<Capacity> for Geometry {
    fn from(c: Capacity) -> Geometry {
        Geometry {
            block_len: c.block_len,
            pi_type: if c.prot_en { c.p_type + 1 } else { 0 },
            pi_interval_exponent: c.p_i_exponent,
            blocks: c.blocks(),
            capacity_bytes: c.bytes(),
        }
    }
}

/// Everything `sgctl format --list-supported` shows.
#[derive(Debug, Clone, Serialize)]
pub struct FormatSupport {
    /// VPD 0xB4, when the drive lists it.
    pub block_lengths: Option<SupportedBlockLengths>,
    /// VPD 0xB8, when the drive lists it.
    pub format_presets: Option<FormatPresets>,
    /// RSOC for FORMAT UNIT.
    pub format_unit: FormatUnitSupport,
    /// READ CAPACITY(16), unless it failed (then a note says why).
    pub current: Option<Geometry>,
    /// Log page 0x08, when the drive lists it.
    pub format_status: Option<FormatStatus>,
    /// Pages not listed, reads that failed, problems in the pages.
    pub notes: Vec<String>,
}

/// The VPD pages the drive lists (page 0x00); empty when it has none.
fn vpd_list(t: &mut dyn Transport) -> Vec<u8> {
    query::vpd(t, 0x00)
        .map(|b| b.get(4..).map(<[u8]>::to_vec).unwrap_or_default())
        .unwrap_or_default()
}

/// VPD 0xB4 when listed (decoded as far as the bytes go; problems go to `notes`).
fn read_block_lengths(
    t: &mut dyn Transport,
    listed: &[u8],
    notes: &mut Vec<String>,
) -> Result<Option<SupportedBlockLengths>> {
    if !listed.contains(&0xb4) {
        notes.push(
            "the drive does not list VPD page 0xB4 (supported block lengths and protection \
             types): it does not say which lengths FORMAT UNIT accepts"
                .into(),
        );
        return Ok(None);
    }
    let raw = query::vpd(t, 0xb4)?;
    let mut problems = Vec::new();
    let p = block_lengths::decode(&raw, &mut problems)?;
    notes.extend(problems.into_iter().map(|p| format!("VPD 0xB4: {p}")));
    Ok(Some(p))
}

/// VPD 0xB8 alone (read-only), `None` when the drive does not list the page: what
/// `format --preset` checks its identifier against before anything is sent.
pub fn presets(t: &mut dyn Transport) -> Result<Option<FormatPresets>> {
    if !vpd_list(t).contains(&0xb8) {
        return Ok(None);
    }
    let raw = query::vpd(t, 0xb8)?;
    Ok(Some(format_presets::decode(&raw, &mut Vec::new())?))
}

/// Reads everything (read-only commands only).
pub fn read(t: &mut dyn Transport) -> Result<FormatSupport> {
    let mut notes = Vec::new();
    let listed = vpd_list(t);
    let block_lengths = read_block_lengths(t, &listed, &mut notes)?;
    let format_presets = if listed.contains(&0xb8) {
        let raw = query::vpd(t, 0xb8)?;
        let mut problems = Vec::new();
        let p = format_presets::decode(&raw, &mut problems)?;
        notes.extend(problems.into_iter().map(|p| format!("VPD 0xB8: {p}")));
        Some(p)
    } else {
        None
    };
    let format_unit = match rsoc_format_unit(t) {
        Ok((support, recommended_timeout_s)) => FormatUnitSupport {
            support,
            recommended_timeout_s,
        },
        Err(e) => {
            notes.push(format!("REPORT SUPPORTED OPERATION CODES failed: {e}"));
            FormatUnitSupport {
                support: Support::Unknown,
                recommended_timeout_s: None,
            }
        }
    };
    let current = match query::read_capacity16(t) {
        Ok(c) => Some(Geometry::from(c)),
        Err(e) => {
            notes.push(format!("READ CAPACITY(16) failed: {e}"));
            None
        }
    };
    let format_status = read_format_status(t, &mut notes);
    Ok(FormatSupport {
        block_lengths,
        format_presets,
        format_unit,
        current,
        format_status,
        notes,
    })
}

/// REPORT SUPPORTED OPERATION CODES, reporting option 1 (FORMAT UNIT has no service action),
/// RCTD=1. A drive without RSOC (ILLEGAL REQUEST) gives [`Support::Unknown`].
fn rsoc_format_unit(t: &mut dyn Transport) -> Result<(Support, Option<u32>)> {
    use crate::scsi::rsoc;
    let cdb = rsoc::ReportSupportedOpcodesCdb::new(64)
        .options(rsoc::ReportingOptions::OpCode(0x04))
        .rctd(true)
        .build();
    let mut buf = [0u8; 64];
    let n = match run_query(t, &cdb, &mut buf, DEFAULT_TIMEOUT) {
        Ok(n) => n,
        Err(Error::Sense(s)) if s.key == SenseKey::IllegalRequest => {
            return Ok((Support::Unknown, None))
        }
        Err(e) => return Err(e),
    };
    let one = rsoc::parse_one(&buf[..n.min(64)])?;
    let support = match one.support {
        rsoc::Support::Standard | rsoc::Support::Vendor => Support::Supported,
        rsoc::Support::NotSupported => Support::NotSupported,
        _ => Support::Unknown,
    };
    Ok((support, one.timeouts.map(|t| t.recommended_seconds)))
}

/// Log page 0x08 when log page 0x00 lists it.
fn read_format_status(t: &mut dyn Transport, notes: &mut Vec<String>) -> Option<FormatStatus> {
    let listed = log_sense::fetch(t, 0x00, 0, PageControl::Cumulative, 0)
        .ok()
        .and_then(|f| crate::logpage::parse(&f.data).ok())
        .map(|p| crate::logpage::supported::decode(&p, &mut Vec::new()))
        .map(|s| {
            s.pages
                .iter()
                .any(|p| p.page_code == 0x08 && p.subpage_code == 0)
        })
        .unwrap_or(false);
    if !listed {
        notes.push("the drive does not list the Format Status log page (0x08)".into());
        return None;
    }
    match log_sense::fetch(t, 0x08, 0, PageControl::Cumulative, 0) {
        Ok(f) => match crate::logpage::parse(&f.data) {
            Ok(p) => Some(format_status(&p, notes)),
            Err(e) => {
                notes.push(format!("Format Status log page: {e}"));
                None
            }
        },
        Err(e) => {
            notes.push(format!("Format Status log page could not be read: {e}"));
            None
        }
    }
}

/// The lengths listed, as words ("520, 528").
pub(crate) fn lengths_list(bl: &SupportedBlockLengths) -> String {
    bl.lengths()
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Preflight: `Some(reason)` when VPD 0xB4 does not list `block_len` or does not list
/// protection type `pi` at that length.
pub fn check(bl: &SupportedBlockLengths, block_len: u32, pi: u8) -> Option<String> {
    let Some(d) = bl.find(block_len) else {
        return Some(format!(
            "the drive does not list logical block length {block_len} (VPD 0xB4 lists {})",
            lengths_list(bl)
        ));
    };
    let types = d.protection_types();
    if !types.contains(&pi) {
        let t = types
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        return Some(format!(
            "the drive does not list protection type {pi} at {block_len}-byte blocks (VPD 0xB4 \
             lists types {})",
            if t.is_empty() { "none".into() } else { t }
        ));
    }
    None
}

/// The preflight [`crate::ops::jobs::format::FormatJob`] runs: reads VPD 0x00 and, when
/// listed, 0xB4. `Ok(None)` when the drive does not list 0xB4 (nothing to check against).
pub fn preflight(t: &mut dyn Transport) -> Result<Option<SupportedBlockLengths>> {
    let listed = vpd_list(t);
    read_block_lengths(t, &listed, &mut Vec::new())
}

/// A drive that answers ILLEGAL REQUEST (INVALID FIELD IN PARAMETER LIST or IN CDB) to a
/// length its VPD 0xB4 does not list has firmware locked to the listed sizes: say so, with
/// the drive's answer, instead of the bare sense code. `e` is what
/// [`crate::ops::format::start`] returned: the sense itself, or the refusal it already
/// worded from ILLEGAL REQUEST 24h/26h ([`Error::Unsupported`]).
pub(crate) fn diagnose(e: Error, bl: Option<&SupportedBlockLengths>, block_len: u32) -> Error {
    let Some(bl) = bl else {
        return e;
    };
    if bl.find(block_len).is_some() {
        return e;
    }
    let answer = match &e {
        Error::Sense(s) if s.key == SenseKey::IllegalRequest && matches!(s.asc, 0x24 | 0x26) => {
            s.summary()
        }
        Error::Unsupported(m) => m.clone(),
        _ => return e,
    };
    Error::Unsupported(format!(
        "this drive's firmware lists only {}: vendor-locked sizes (a drive locked by its array \
         vendor is not formatted to other sizes by FORMAT UNIT); {block_len}-byte blocks were \
         refused: {answer}",
        lengths_list(bl)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(descs: &[(u32, u8, u8)]) -> SupportedBlockLengths {
        block_lengths::parse(&block_lengths::build(descs)).unwrap()
    }

    #[test]
    fn check_lengths_and_types() {
        let bl = page(&[(512, 0x07, 0x07), (520, 0, 1), (528, 0, 1)]);
        assert_eq!(check(&bl, 512, 2), None);
        assert_eq!(check(&bl, 520, 0), None);
        let r = check(&bl, 4096, 0).unwrap();
        assert!(r.contains("4096") && r.contains("512, 520, 528"), "{r}");
        let r = check(&bl, 520, 1).unwrap();
        assert!(
            r.contains("protection type 1") && r.contains("types 0"),
            "{r}"
        );
        let r = check(&bl, 512, 3).unwrap();
        assert!(r.contains("types 0, 1, 2"), "{r}");
    }

    #[test]
    fn diagnosis_only_for_illegal_request_to_an_unlisted_length() {
        let bl = page(&[(520, 0, 1), (528, 0, 1)]);
        let sense = |key: u8, asc: u8| {
            let raw = [0x70, 0, key, 0, 0, 0, 0, 10, 0, 0, 0, 0, asc, 0, 0, 0, 0, 0];
            Error::Sense(Box::new(crate::sense::Sense::parse(&raw).unwrap()))
        };
        let e = diagnose(sense(5, 0x26), Some(&bl), 512);
        let m = e.to_string();
        assert!(
            m.contains("this drive's firmware lists only 520, 528: vendor-locked sizes"),
            "{m}"
        );
        assert!(m.contains("26/00"), "{m}");
        assert!(matches!(e, Error::Unsupported(_)));
        let e = diagnose(Error::Unsupported("refused (26/00)".into()), Some(&bl), 512);
        assert!(e.to_string().contains("lists only 520, 528"), "{e}");
        // A listed length, another sense key, or no page: the error as it was.
        assert!(matches!(
            diagnose(sense(5, 0x26), Some(&bl), 520),
            Error::Sense(_)
        ));
        assert!(matches!(
            diagnose(sense(3, 0x31), Some(&bl), 512),
            Error::Sense(_)
        ));
        assert!(matches!(
            diagnose(sense(5, 0x26), None, 512),
            Error::Sense(_)
        ));
    }
}
