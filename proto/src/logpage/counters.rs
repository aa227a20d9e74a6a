//! Counter pages: 0x02/0x03/0x05 error counters, 0x06 non-medium errors, 0x08 format status,
//! 0x11 solid state media, 0x1A power condition transitions.
//!
//! Parameter codes from SPC-5 7.3 / SBC-4 6.4 as restated in protocols.md §E.3 (sources:
//! sg3_utils `src/sg_logs.c`, Seagate SCSI Commands Reference Manual Rev J p.332 for 0x08).
//! JSON names reuse smartctl's `scsi_error_counter_log` keys where they overlap.

use super::{short_param, unknown_param, LogPage, ParamView};
use serde::Serialize;

/// SPC-5 7.3.x write/read/verify error counter page (0x02/0x03/0x05).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct ErrorCounters {
    /// 0x02 write, 0x03 read, 0x05 verify.
    pub direction: &'static str,
    /// 0000 errors corrected without substantial delay.
    pub errors_corrected_by_eccfast: Option<u64>,
    /// 0001 errors corrected with possible delays.
    pub errors_corrected_by_eccdelayed: Option<u64>,
    /// 0002 total rewrites or rereads.
    pub errors_corrected_by_rereads_rewrites: Option<u64>,
    /// 0003 total errors corrected.
    pub total_errors_corrected: Option<u64>,
    /// 0004 total times correction algorithm processed.
    pub correction_algorithm_invocations: Option<u64>,
    /// 0005 total bytes processed.
    pub bytes_processed: Option<u64>,
    /// 0006 total uncorrected errors.
    pub total_uncorrected_errors: Option<u64>,
    /// Vendor-specific parameters (0x8000-0xFFFF).
    pub vendor_parameters: Vec<ParamView>,
}

/// Decodes 0x02/0x03/0x05.
pub fn error_counters(p: &LogPage, notes: &mut Vec<String>) -> ErrorCounters {
    let direction = match p.page_code {
        0x02 => "write",
        0x03 => "read",
        0x05 => "verify",
        _ => "unknown",
    };
    let mut c = ErrorCounters {
        direction,
        ..Default::default()
    };
    let page = format!("{direction} error counter page");
    for prm in &p.params {
        let v = prm.uint();
        if v.is_none() && prm.code < 0x8000 {
            notes.push(format!(
                "{page}: parameter 0x{:04x} is {} bytes wide, not a 1..8 byte counter",
                prm.code,
                prm.value().len()
            ));
        }
        match prm.code {
            0 => c.errors_corrected_by_eccfast = v,
            1 => c.errors_corrected_by_eccdelayed = v,
            2 => c.errors_corrected_by_rereads_rewrites = v,
            3 => c.total_errors_corrected = v,
            4 => c.correction_algorithm_invocations = v,
            5 => c.bytes_processed = v,
            6 => c.total_uncorrected_errors = v,
            0x8000.. => c.vendor_parameters.push(prm.into()),
            _ => unknown_param(notes, &page, prm),
        }
    }
    c
}

/// SPC-5 non-medium error page (0x06).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct NonMedium {
    /// 0000 non-medium error count.
    pub non_medium_error_count: Option<u64>,
    /// Vendor parameters.
    pub vendor_parameters: Vec<ParamView>,
}

/// Decodes 0x06.
pub fn non_medium(p: &LogPage, notes: &mut Vec<String>) -> NonMedium {
    let mut n = NonMedium::default();
    for prm in &p.params {
        match prm.code {
            0 => n.non_medium_error_count = prm.uint(),
            0x8000.. => n.vendor_parameters.push(prm.into()),
            _ => unknown_param(notes, "non-medium error page", prm),
        }
    }
    n
}

/// SBC-4 format status page (0x08). Counters that are all 0xFF mean "unknown" (None).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct FormatStatus {
    /// 0000 format data out (the last FORMAT UNIT parameter list), hex; None if all FF/absent.
    pub format_data_out: Option<String>,
    /// 0001 grown defects during certification.
    pub grown_defects_during_certification: Option<u64>,
    /// 0002 total blocks reassigned during format.
    pub total_blocks_reassigned_during_format: Option<u64>,
    /// 0003 total new blocks reassigned.
    pub total_new_blocks_reassigned: Option<u64>,
    /// 0004 power on minutes since format.
    pub power_on_minutes_since_format: Option<u64>,
}

fn unless_all_ff(v: &[u8]) -> Option<&[u8]> {
    if v.is_empty() || v.iter().all(|b| *b == 0xff) {
        None
    } else {
        Some(v)
    }
}

/// Decodes 0x08.
pub fn format_status(p: &LogPage, notes: &mut Vec<String>) -> FormatStatus {
    let mut f = FormatStatus::default();
    for prm in &p.params {
        let counter = unless_all_ff(prm.value()).and_then(|_| prm.uint());
        match prm.code {
            0 => f.format_data_out = unless_all_ff(prm.value()).map(crate::bytes::hex),
            1 => f.grown_defects_during_certification = counter,
            2 => f.total_blocks_reassigned_during_format = counter,
            3 => f.total_new_blocks_reassigned = counter,
            4 => f.power_on_minutes_since_format = counter,
            _ if prm.code >= 0x8000 => {}
            _ => unknown_param(notes, "format status page", prm),
        }
    }
    f
}

/// SBC-4 6.4.x solid state media page (0x11). SBC-4 defines parameter 0001 (percentage used
/// endurance indicator, byte 7); every other parameter the device returns is listed too,
/// decoded as an integer where it fits (smartctl shows only 0001).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct SolidStateMedia {
    /// 0001 byte 7: percentage used endurance indicator (may exceed 100).
    pub percentage_used_endurance_indicator: Option<u8>,
    /// Every other parameter (reserved or vendor), with its raw value.
    pub other_parameters: Vec<ParamView>,
}

/// Decodes 0x11.
pub fn solid_state_media(p: &LogPage, notes: &mut Vec<String>) -> SolidStateMedia {
    let mut s = SolidStateMedia::default();
    for prm in &p.params {
        match prm.code {
            1 => {
                if prm.raw.len() < 8 {
                    short_param(notes, "solid state media page", prm, 8);
                }
                s.percentage_used_endurance_indicator = prm.u8_at(7);
            }
            c => {
                if c < 0x8000 {
                    unknown_param(notes, "solid state media page", prm);
                }
                s.other_parameters.push(prm.into());
            }
        }
    }
    s
}

/// SPC-5 power condition transitions page (0x1A): accumulated transitions per state.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub(crate) struct PowerTransitions {
    /// 0001 accumulated transitions to active.
    pub transitions_to_active: Option<u64>,
    /// 0002 to idle_a.
    pub transitions_to_idle_a: Option<u64>,
    /// 0003 to idle_b.
    pub transitions_to_idle_b: Option<u64>,
    /// 0004 to idle_c.
    pub transitions_to_idle_c: Option<u64>,
    /// 0008 to standby_z.
    pub transitions_to_standby_z: Option<u64>,
    /// 0009 to standby_y.
    pub transitions_to_standby_y: Option<u64>,
}

/// Decodes 0x1A.
pub(crate) fn power_transitions(p: &LogPage, notes: &mut Vec<String>) -> PowerTransitions {
    let mut t = PowerTransitions::default();
    for prm in &p.params {
        let v = prm.uint();
        match prm.code {
            1 => t.transitions_to_active = v,
            2 => t.transitions_to_idle_a = v,
            3 => t.transitions_to_idle_b = v,
            4 => t.transitions_to_idle_c = v,
            8 => t.transitions_to_standby_z = v,
            9 => t.transitions_to_standby_y = v,
            _ => unknown_param(notes, "power condition transitions page", prm),
        }
    }
    t
}
