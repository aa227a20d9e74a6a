//! 0x10 self-test results, 0x15 background scan results, 0x15/0x01 pending defects.
//!
//! Offsets from protocols.md §E.3 (SBC-4 / SPC-5; sg3_utils `src/sg_logs.c`
//! `show_self_test_page`, `show_background_scan_results_page`, `show_pending_defects_page`).

use super::{short_param, unknown_param, LogPage};
use serde::Serialize;

/// One self-test log entry (parameters 0x0001-0x0014, 20 bytes each).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct SelfTestEntry {
    /// Parameter code (1 = most recent).
    pub parameter_code: u16,
    /// Byte 4 bits 7-5: self-test code.
    pub self_test_code: u8,
    /// Name of the test (background short/extended, foreground short/extended, ...).
    pub self_test: String,
    /// Byte 4 bits 3-0: result.
    pub result_code: u8,
    /// Result in words.
    pub result: String,
    /// True for results 4-7 (a segment failed) or 3 (unknown error).
    pub failed: bool,
    /// Byte 5: SELF-TEST NUMBER (SPC-5; sg_logs "self-test number"; protocols.md §E.3 calls
    /// it the segment number).
    pub self_test_number: u8,
    /// Bytes 6-7: accumulated power-on hours when the test ran.
    pub power_on_hours: Option<u64>,
    /// Bytes 8-15: LBA of first failure (None when all FF).
    pub first_failure_lba: Option<u64>,
    /// Byte 16 bits 3-0, 17, 18: sense key, ASC, ASCQ.
    pub sense_key: u8,
    /// ASC.
    pub asc: u8,
    /// ASCQ.
    pub ascq: u8,
}

/// SPC-5 self-test results page (0x10): the non-empty entries, most recent first.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct SelfTestResults {
    /// Non-empty entries.
    pub entries: Vec<SelfTestEntry>,
    /// Entries whose result is a failure.
    pub failed_entries: usize,
}

/// SPC-5 SELF-TEST CODE names (SEND DIAGNOSTIC).
pub(crate) fn self_test_name(code: u8) -> &'static str {
    match code {
        0 => "default",
        1 => "background short",
        2 => "background extended",
        4 => "aborted background",
        5 => "foreground short",
        6 => "foreground extended",
        _ => "reserved",
    }
}

/// SPC-5 self-test results values.
pub(crate) fn self_test_result(code: u8) -> &'static str {
    match code {
        0 => "completed without error",
        1 => "aborted by SEND DIAGNOSTIC",
        2 => "aborted other than by SEND DIAGNOSTIC",
        3 => "unknown error, unable to complete",
        4 => "completed, unknown segment failed",
        5 => "completed, first segment failed",
        6 => "completed, second segment failed",
        7 => "completed, another segment failed",
        0xf => "in progress",
        _ => "reserved",
    }
}

/// Decodes 0x10.
pub fn self_test_results(p: &LogPage, notes: &mut Vec<String>) -> SelfTestResults {
    let mut r = SelfTestResults::default();
    for prm in &p.params {
        if !(1..=0x14).contains(&prm.code) {
            unknown_param(notes, "self-test results page", prm);
            continue;
        }
        if prm.raw.len() < 20 {
            short_param(notes, "self-test results page", prm, 20);
            continue;
        }
        let b4 = prm.u8_at(4).unwrap_or(0);
        let hours = prm.be_at(6, 2);
        if b4 == 0 && hours == Some(0) {
            continue; // empty slot
        }
        let result_code = b4 & 0x0f;
        let lba = prm.be_at(8, 8).filter(|v| *v != u64::MAX);
        let e = SelfTestEntry {
            parameter_code: prm.code,
            self_test_code: b4 >> 5,
            self_test: self_test_name(b4 >> 5).into(),
            result_code,
            result: self_test_result(result_code).into(),
            failed: (3..=7).contains(&result_code),
            self_test_number: prm.u8_at(5).unwrap_or(0),
            power_on_hours: hours,
            first_failure_lba: lba,
            sense_key: prm.u8_at(16).unwrap_or(0) & 0x0f,
            asc: prm.u8_at(17).unwrap_or(0),
            ascq: prm.u8_at(18).unwrap_or(0),
        };
        if e.failed {
            r.failed_entries += 1;
        }
        r.entries.push(e);
    }
    r
}

/// Background scan status parameter 0000.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct BackgroundScanStatus {
    /// Bytes 4-7: accumulated power-on minutes.
    pub accumulated_power_on_minutes: Option<u64>,
    /// Byte 9: BMS status code.
    pub status_code: Option<u8>,
    /// Status in words.
    pub status: Option<String>,
    /// Bytes 10-11: number of background scans performed.
    pub number_of_background_scans_performed: Option<u64>,
    /// Bytes 12-13: scan progress, percent (value/65536).
    pub scan_progress_percent: Option<f64>,
    /// Bytes 14-15: number of background medium scans performed.
    pub number_of_background_medium_scans_performed: Option<u64>,
}

/// One medium scan parameter (0x0001-0x0800).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct MediumScanEntry {
    /// Parameter code.
    pub parameter_code: u16,
    /// Bytes 4-7: power-on minutes at detection.
    pub power_on_minutes: Option<u64>,
    /// Byte 8 bits 7-4: reassign status.
    pub reassign_status: u8,
    /// Byte 8 bits 3-0: sense key.
    pub sense_key: u8,
    /// Byte 9.
    pub asc: u8,
    /// Byte 10.
    pub ascq: u8,
    /// Bytes 16-23.
    pub lba: Option<u64>,
}

/// SBC-4 background scan results page (0x15).
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct BackgroundScan {
    /// Parameter 0000.
    pub status: Option<BackgroundScanStatus>,
    /// Medium scan entries.
    pub medium_scan_entries: Vec<MediumScanEntry>,
}

/// SBC-4 BMS STATUS values.
pub(crate) fn bms_status(code: u8) -> &'static str {
    match code {
        0 => "no background scans active",
        1 => "background medium scan is active",
        2 => "background pre-scan is active",
        3 => "halted due to fatal error",
        4 => "halted due to a vendor-specific pattern of errors",
        5 => "halted due to medium formatted without P-list",
        6 => "halted due to a vendor-specific cause",
        7 => "halted due to temperature out of allowed range",
        8 => "waiting until BMS interval timer expires",
        9 => "halted, waiting for the application client",
        10 => "halted, suspended by the application client",
        _ => "reserved",
    }
}

/// Decodes 0x15.
pub fn background_scan(p: &LogPage, notes: &mut Vec<String>) -> BackgroundScan {
    let mut b = BackgroundScan::default();
    for prm in &p.params {
        match prm.code {
            0 => {
                if prm.raw.len() < 16 {
                    short_param(notes, "background scan results page", prm, 16);
                }
                let code = prm.u8_at(9);
                b.status = Some(BackgroundScanStatus {
                    accumulated_power_on_minutes: prm.be_at(4, 4),
                    status_code: code,
                    status: code.map(|c| bms_status(c).to_string()),
                    number_of_background_scans_performed: prm.be_at(10, 2),
                    scan_progress_percent: prm.be_at(12, 2).map(|v| v as f64 * 100.0 / 65536.0),
                    number_of_background_medium_scans_performed: prm.be_at(14, 2),
                });
            }
            0x0001..=0x0800 => {
                if prm.raw.len() < 24 {
                    short_param(notes, "background scan results page", prm, 24);
                    continue;
                }
                let b8 = prm.u8_at(8).unwrap_or(0);
                b.medium_scan_entries.push(MediumScanEntry {
                    parameter_code: prm.code,
                    power_on_minutes: prm.be_at(4, 4),
                    reassign_status: b8 >> 4,
                    sense_key: b8 & 0x0f,
                    asc: prm.u8_at(9).unwrap_or(0),
                    ascq: prm.u8_at(10).unwrap_or(0),
                    lba: prm.be_at(16, 8),
                });
            }
            0x8000.. => {}
            _ => unknown_param(notes, "background scan results page", prm),
        }
    }
    b
}

/// One pending defect (parameters 0x0001-0xF000).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct PendingDefect {
    /// Parameter code.
    pub parameter_code: u16,
    /// Bytes 4-7: accumulated power-on hours at detection.
    pub power_on_hours: Option<u64>,
    /// Bytes 8-15: LBA.
    pub lba: Option<u64>,
}

/// SBC-4 pending defects page (0x15/0x01).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct PendingDefects {
    /// Parameter 0000 bytes 4-7: pending defect count.
    pub pending_defect_count: Option<u64>,
    /// The defects listed.
    pub defects: Vec<PendingDefect>,
}

/// Decodes 0x15/0x01.
pub fn pending_defects(p: &LogPage, notes: &mut Vec<String>) -> PendingDefects {
    let mut d = PendingDefects::default();
    for prm in &p.params {
        match prm.code {
            0 => d.pending_defect_count = prm.be_at(4, 4),
            0x0001..=0xf000 => {
                if prm.raw.len() < 16 {
                    short_param(notes, "pending defects page", prm, 16);
                    continue;
                }
                d.defects.push(PendingDefect {
                    parameter_code: prm.code,
                    power_on_hours: prm.be_at(4, 4),
                    lba: prm.be_at(8, 8),
                });
            }
            _ => unknown_param(notes, "pending defects page", prm),
        }
    }
    d
}
