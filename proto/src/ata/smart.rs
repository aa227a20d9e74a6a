//! SMART READ DATA (B0h/D0h) and SMART READ THRESHOLDS (B0h/D1h): the 512-byte structures
//! of ATA-8 ACS / ACS-4 Annex (obsolete in ACS-4 but what every drive still answers and what
//! smartctl `-A` shows): 30 attribute entries of 12 bytes from byte 2, off-line and self-test
//! status at 362/363, checksum at 511. Attribute names are the common ones smartmontools'
//! `ataprint.cpp`/drivedb use for SSDs; a drive's vendor may mean something else.

use crate::bytes::{ParseError, ParseResult};
use serde::Serialize;

/// One attribute with its threshold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Attribute {
    /// Attribute ID.
    pub id: u8,
    /// Common name.
    pub name: &'static str,
    /// Flags word (bit 0 pre-failure, bit 1 online).
    pub flags: u16,
    /// Bit 0 of flags: a pre-failure attribute (value ≤ threshold predicts failure).
    pub prefailure: bool,
    /// Normalized current value.
    pub value: u8,
    /// Worst value seen.
    pub worst: u8,
    /// Threshold (from SMART READ THRESHOLDS; None without it).
    pub thresh: Option<u8>,
    /// Raw value (48 bits, little endian bytes 5-10).
    pub raw: u64,
    /// "FAILING_NOW" when value ≤ threshold (threshold ≠ 0), "In_the_past" when worst ≤ threshold.
    pub when_failed: String,
}

/// Decoded SMART data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SmartData {
    /// Bytes 0-1: data structure revision.
    pub revision: u16,
    /// Attributes (ID ≠ 0).
    pub attributes: Vec<Attribute>,
    /// Byte 362: off-line data collection status.
    pub offline_status: u8,
    /// Byte 363 bits 7-4: self-test execution status (0 = completed without error, 15 =
    /// in progress), bits 3-0: percent remaining / 10.
    pub self_test_status: u8,
    /// Bytes 372-373 short, 373 extended self-test polling time (minutes; 0xFF: see 375-376).
    pub short_test_minutes: u8,
    /// Extended self-test polling minutes.
    pub extended_test_minutes: u16,
    /// Checksum of the 512 bytes is 0.
    pub checksum_valid: bool,
}

/// Common attribute names (smartmontools' default names).
pub fn attribute_name(id: u8) -> &'static str {
    match id {
        1 => "Raw_Read_Error_Rate",
        5 => "Reallocated_Sector_Ct",
        9 => "Power_On_Hours",
        12 => "Power_Cycle_Count",
        167 => "SSD_Protect_Mode",
        168 => "SATA_PHY_Error_Count",
        169 => "Bad_Block_Rate",
        170 => "Bad_Blk_Ct_Erl_Lat",
        173 => "MaxAvgErase_Ct",
        174 => "Unexpect_Power_Loss_Ct",
        175 => "Program_Fail_Count_Chip",
        177 => "Wear_Leveling_Count",
        187 => "Reported_Uncorrect",
        192 => "Power-Off_Retract_Count",
        194 => "Temperature_Celsius",
        196 => "Reallocated_Event_Count",
        197 => "Current_Pending_Sector",
        198 => "Offline_Uncorrectable",
        199 => "UDMA_CRC_Error_Count",
        231 => "SSD_Life_Left",
        233 => "Media_Wearout_Indicator",
        241 => "Total_LBAs_Written",
        242 => "Total_LBAs_Read",
        _ => "Unknown_Attribute",
    }
}

fn checksum_ok(b: &[u8]) -> bool {
    b[..512].iter().fold(0u8, |a, x| a.wrapping_add(*x)) == 0
}

/// Parses SMART READ DATA, with SMART READ THRESHOLDS when given (matched by attribute ID).
pub fn parse(data: &[u8], thresholds: Option<&[u8]>) -> ParseResult<SmartData> {
    if data.len() < 512 {
        return Err(ParseError::new(
            "SMART READ DATA",
            format!("{} bytes, need 512", data.len()),
        ));
    }
    let th = thresholds.filter(|t| t.len() >= 512);
    let thresh_of = |id: u8| -> Option<u8> {
        let t = th?;
        (0..30)
            .map(|i| 2 + 12 * i)
            .find(|&o| t[o] == id)
            .map(|o| t[o + 1])
    };
    let mut attributes = Vec::new();
    for i in 0..30 {
        let e = &data[2 + 12 * i..2 + 12 * (i + 1)];
        if e[0] == 0 {
            continue;
        }
        let flags = u16::from_le_bytes([e[1], e[2]]);
        let raw = (0..6).fold(0u64, |a, k| a | u64::from(e[5 + k]) << (8 * k));
        let thresh = thresh_of(e[0]);
        let when_failed = match thresh {
            Some(t) if t != 0 && e[3] <= t => "FAILING_NOW",
            Some(t) if t != 0 && e[4] <= t => "In_the_past",
            _ => "",
        };
        attributes.push(Attribute {
            id: e[0],
            name: attribute_name(e[0]),
            flags,
            prefailure: flags & 1 != 0,
            value: e[3],
            worst: e[4],
            thresh,
            raw,
            when_failed: when_failed.to_string(),
        });
    }
    let ext = u16::from_le_bytes([data[375], data[376]]);
    Ok(SmartData {
        revision: u16::from_le_bytes([data[0], data[1]]),
        attributes,
        offline_status: data[362],
        self_test_status: data[363],
        short_test_minutes: data[372],
        extended_test_minutes: if data[373] == 0xFF {
            ext
        } else {
            u16::from(data[373])
        },
        checksum_valid: checksum_ok(data),
    })
}

impl SmartData {
    /// The attribute with `id`.
    pub fn get(&self, id: u8) -> Option<&Attribute> {
        self.attributes.iter().find(|a| a.id == id)
    }

    /// A pre-failure attribute at or below its threshold.
    pub fn failing(&self) -> Vec<&Attribute> {
        self.attributes
            .iter()
            .filter(|a| a.prefailure && a.when_failed == "FAILING_NOW")
            .collect()
    }
}

/// SMART RETURN STATUS (B0h/DAh) result from LBA mid/high (ACS-4 7.48.8): 4Fh/C2h = no
/// threshold exceeded, F4h/2Ch = threshold exceeded; anything else is not a valid answer.
pub(crate) fn return_status(lba: u64) -> Option<bool> {
    match ((lba >> 8) & 0xFF, (lba >> 16) & 0xFF) {
        (0x4F, 0xC2) => Some(false),
        (0xF4, 0x2C) => Some(true),
        _ => None,
    }
}

/// Builds a 512-byte SMART structure from (id, flags, value, worst, raw) entries, or a
/// thresholds structure from (id, threshold) when `thresholds`; checksum sealed. The simulator
/// and tests use it.
pub fn build(revision: u16, entries: &[(u8, u16, u8, u8, u64)], tail: &[(usize, u8)]) -> Vec<u8> {
    let mut b = vec![0u8; 512];
    b[0..2].copy_from_slice(&revision.to_le_bytes());
    for (i, &(id, flags, value, worst, raw)) in entries.iter().take(30).enumerate() {
        let o = 2 + 12 * i;
        b[o] = id;
        b[o + 1..o + 3].copy_from_slice(&flags.to_le_bytes());
        b[o + 3] = value;
        b[o + 4] = worst;
        b[o + 5..o + 11].copy_from_slice(&raw.to_le_bytes()[..6]);
    }
    for &(off, v) in tail {
        if off < 511 {
            b[off] = v;
        }
    }
    let sum = b[..511].iter().fold(0u8, |a, x| a.wrapping_add(*x));
    b[511] = 0u8.wrapping_sub(sum);
    b
}

/// Builds a SMART READ THRESHOLDS structure.
pub fn build_thresholds(revision: u16, entries: &[(u8, u8)]) -> Vec<u8> {
    let mut b = vec![0u8; 512];
    b[0..2].copy_from_slice(&revision.to_le_bytes());
    for (i, &(id, t)) in entries.iter().take(30).enumerate() {
        b[2 + 12 * i] = id;
        b[3 + 12 * i] = t;
    }
    let sum = b[..511].iter().fold(0u8, |a, x| a.wrapping_add(*x));
    b[511] = 0u8.wrapping_sub(sum);
    b
}
