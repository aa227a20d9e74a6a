//! Health of a SATA drive behind a SATL, from the ATA side: the SCSI view a SATL
//! offers is thin (SAT-4 translates few log pages), so the report's figures come from the ATA
//! Device Statistics log (04h), SMART READ DATA/THRESHOLDS, SMART RETURN STATUS and the
//! Extended self-test log (07h), read with ATA PASS-THROUGH. Each figure's source lands in
//! [`DriveHealth::sources`]; the rules, exit bits and Prometheus names are the SCSI report's.

use super::{DriveHealth, IeHealth, SelfTestHealth};
use crate::ata::{identify::Identify, log, smart::SmartData};
use crate::logpage::selftest::SelfTestEntry;
use crate::scsi::ata_pass_through::CdbSize;
use crate::transport::Transport;
use std::time::SystemTime;

/// What was read from the ATA side (pure input of [`fill`]).
#[derive(Debug, Clone, Default)]
pub struct AtaInputs {
    /// IDENTIFY DEVICE.
    pub identify: Option<Identify>,
    /// Device Statistics pages.
    pub statistics: Vec<log::StatisticsPage>,
    /// SMART data with thresholds.
    pub smart: Option<SmartData>,
    /// SMART RETURN STATUS: threshold exceeded.
    pub threshold_exceeded: Option<bool>,
    /// Self-test log entries, most recent first, and the log they came from.
    pub self_tests: Option<(Vec<log::SelfTestEntry>, u8)>,
}

/// Reads the ATA side. What cannot be read is recorded in `h.read_errors` (exit bit 2), except
/// logs the drive does not list.
pub fn read(t: &mut dyn Transport, h: &mut DriveHealth) -> AtaInputs {
    let mut a = AtaInputs::default();
    let size = CdbSize::Sixteen;
    match crate::cmd::ata::read_identify(t, size) {
        Ok(id) => a.identify = Some(id),
        // A SCSI device that lists VPD 0x89 but has no ATA PASS-THROUGH (scsi_debug does this)
        // is no SATA drive behind a SATL: its health comes from the SCSI side alone.
        Err(e)
            if super::read::is_unsupported(&e)
                && h.vendor.as_deref().map(str::trim) != Some("ATA") =>
        {
            return a;
        }
        Err(e) => {
            h.read_errors.push(format!("ATA IDENTIFY DEVICE: {e}"));
            return a;
        }
    }
    let Some(id) = a.identify.clone() else {
        return a;
    };
    let dir = if id.gpl_supported {
        match crate::cmd::ata::read_log_ext(t, log::address::DIRECTORY, 0, 1)
            .map_err(|e| e.to_string())
            .and_then(|b| log::parse_directory(&b).map_err(|e| e.to_string()))
        {
            Ok(d) => Some(d),
            Err(e) => {
                h.read_errors
                    .push(format!("ATA READ LOG EXT directory: {e}"));
                None
            }
        }
    } else {
        None
    };
    let listed = |addr: u8| dir.as_ref().is_some_and(|d| d.pages(addr) > 0);
    if listed(log::address::DEVICE_STATISTICS) {
        match crate::cmd::ata::read_device_statistics(t) {
            Ok((pages, _)) => a.statistics = pages,
            Err(e) => h
                .read_errors
                .push(format!("ATA Device Statistics log: {e}")),
        }
    }
    if id.smart_supported && id.smart_enabled {
        match crate::cmd::ata::read_smart_raw(t, size)
            .map_err(|e| e.to_string())
            .and_then(|(d, th)| crate::ata::smart::parse(&d, Some(&th)).map_err(|e| e.to_string()))
        {
            Ok(s) => a.smart = Some(s),
            Err(e) => h.read_errors.push(format!("ATA SMART READ DATA: {e}")),
        }
        match crate::cmd::ata::smart_return_status(t, size) {
            Ok(s) => a.threshold_exceeded = s,
            Err(e) => h.notes.push(format!("ATA SMART RETURN STATUS: {e}")),
        }
    }
    if listed(log::address::EXT_SELF_TEST) {
        match crate::cmd::ata::read_log_ext(t, log::address::EXT_SELF_TEST, 0, 1)
            .map_err(|e| e.to_string())
            .and_then(|b| log::parse_ext_self_test(&b).map_err(|e| e.to_string()))
        {
            Ok(v) => a.self_tests = Some((v, 0x07)),
            Err(e) => h
                .read_errors
                .push(format!("ATA Extended self-test log: {e}")),
        }
    }
    a
}

fn stat(a: &AtaInputs, page: u8, off: u16) -> Option<i64> {
    log::find_stat(&a.statistics, page, off)
}

fn src(h: &mut DriveHealth, field: &str, from: String) {
    h.sources.insert(field.to_string(), from);
}

fn devstat_source(page: u8, off: u16) -> String {
    format!(
        "ATA Device Statistics log 04h page {page:02X}h offset {off:03X}h ({})",
        log::statistic_name(page, off).0
    )
}

fn smart_source(id: u8) -> String {
    format!(
        "ATA SMART attribute {id} ({}) raw value",
        crate::ata::smart::attribute_name(id)
    )
}

/// Fills the report from the ATA inputs (pure; unit-tested). Device Statistics win over
/// SMART attributes (standard meaning vs vendor meaning); a figure neither has keeps the value
/// the SATL's SCSI translation gave, if any.
pub fn fill(h: &mut DriveHealth, a: &AtaInputs, capacity: Option<(u64, u32)>, now: SystemTime) {
    let Some(id) = &a.identify else {
        return;
    };
    let attr = |n: u8| a.smart.as_ref().and_then(|s| s.get(n)).map(|x| x.raw);
    src(
        h,
        "identity",
        "ATA IDENTIFY DEVICE words 10-46 (via ATA PASS-THROUGH)".into(),
    );
    h.model = Some(id.model.clone());
    h.serial = Some(id.serial_number.clone())
        .filter(|s| !s.is_empty())
        .or(h.serial.take());
    h.revision = Some(id.firmware_revision.clone());
    if h.wwn.is_none() {
        h.wwn = id.wwn.clone();
    }
    // Endurance.
    if let Some(v) = stat(a, 7, 0x08) {
        h.endurance.used_percent = Some(v.clamp(0, 255) as u8);
        src(h, "endurance.used_percent", devstat_source(7, 0x08));
    }
    if let Some(v) = stat(a, 1, 0x10) {
        h.endurance.power_on_hours = Some(v as f64);
        src(h, "endurance.power_on_hours", devstat_source(1, 0x10));
    } else if let Some(v) = attr(9) {
        // The low 32 bits: vendors put minutes/flags in the upper bytes.
        h.endurance.power_on_hours = Some((v & 0xFFFF_FFFF) as f64);
        src(h, "endurance.power_on_hours", smart_source(9));
    }
    let lss = u64::from(id.logical_sector_size.max(512));
    if let Some(v) = stat(a, 1, 0x18) {
        h.endurance.bytes_written = Some((v as u64).saturating_mul(lss));
        let s = format!("{} × logical sector size {lss}", devstat_source(1, 0x18));
        h.endurance.bytes_written_source = Some(s.clone());
        src(h, "endurance.bytes_written", s);
    } else if let Some(v) = attr(241) {
        h.endurance.bytes_written = Some(v.saturating_mul(512));
        let s = format!("{} × 512", smart_source(241));
        h.endurance.bytes_written_source = Some(s.clone());
        src(h, "endurance.bytes_written", s);
    }
    if h.endurance.capacity_bytes.is_none() {
        h.endurance.capacity_bytes = capacity
            .map(|(b, l)| b.saturating_mul(u64::from(l)))
            .or(Some(id.capacity_bytes));
    }
    // Recompute the projection with the ATA figures.
    h.endurance.drive_writes_per_day = None;
    h.endurance.remaining_days = None;
    h.endurance.projected_wear_out_date = None;
    h.endurance.projection_note = None;
    super::project(&mut h.endurance, now);
    if h.endurance.used_percent.is_none() {
        h.endurance.projection_note =
            Some("no endurance indicator (Device Statistics page 07h not reported)".into());
    }
    // Temperature.
    if let Some(v) = stat(a, 5, 0x08) {
        h.temperature.current_c = Some(v as i16);
        src(h, "temperature.current_c", devstat_source(5, 0x08));
    } else if let Some(v) = attr(194) {
        h.temperature.current_c = Some((v & 0xFF) as i16);
        src(
            h,
            "temperature.current_c",
            format!("{} byte 0", smart_source(194)),
        );
    }
    if let Some(v) = stat(a, 5, 0x20) {
        h.temperature.lifetime_max_c = Some(v as i16);
        src(h, "temperature.lifetime_max_c", devstat_source(5, 0x20));
    }
    if let Some(v) = stat(a, 5, 0x58) {
        h.temperature.high_operating_limit_c = Some(v as i16);
        src(
            h,
            "temperature.high_operating_limit_c",
            devstat_source(5, 0x58),
        );
        if h.temperature.drive_trip_c.is_none() {
            h.temperature.drive_trip_c = Some(v as i16);
        }
    }
    // Defects.
    if let Some(v) = stat(a, 3, 0x20) {
        h.defects.grown = Some(v as u64);
        src(h, "defects.grown", devstat_source(3, 0x20));
    } else if let Some(v) = attr(5) {
        h.defects.grown = Some(v & 0xFFFF_FFFF);
        src(h, "defects.grown", smart_source(5));
    }
    if let Some(v) = attr(197) {
        h.defects.pending = Some(v & 0xFFFF_FFFF);
        src(h, "defects.pending", smart_source(197));
    } else if let Some(v) = stat(a, 1, 0x40) {
        h.defects.pending = Some(v as u64);
        src(h, "defects.pending", devstat_source(1, 0x40));
    }
    // Errors.
    if let Some(v) = stat(a, 4, 0x08) {
        h.errors.read_uncorrected = Some(v as u64);
        src(h, "errors.read_uncorrected", devstat_source(4, 0x08));
    } else if let Some(v) = attr(187) {
        h.errors.read_uncorrected = Some(v & 0xFFFF_FFFF);
        src(h, "errors.read_uncorrected", smart_source(187));
    }
    if let Some(v) = stat(a, 6, 0x18) {
        h.errors.interface_crc = Some(v as u64);
        src(h, "errors.interface_crc", devstat_source(6, 0x18));
    } else if let Some(v) = attr(199) {
        h.errors.interface_crc = Some(v & 0xFFFF_FFFF);
        src(h, "errors.interface_crc", smart_source(199));
    }
    if let Some(v) = stat(a, 1, 0x08) {
        h.cycles.start_stop = Some(v as u64);
        src(h, "cycles.start_stop", devstat_source(1, 0x08));
    } else if let Some(v) = attr(12) {
        h.cycles.start_stop = Some(v & 0xFFFF_FFFF);
        src(h, "cycles.start_stop", smart_source(12));
    }
    // Self-tests.
    if let Some((entries, addr)) = &a.self_tests {
        let mapped: Vec<SelfTestEntry> = entries
            .iter()
            .enumerate()
            .map(|(i, e)| SelfTestEntry {
                parameter_code: (i + 1) as u16,
                self_test_code: e.test,
                self_test: e.test_name.to_string(),
                result_code: e.status,
                result: e.status_name.to_string(),
                failed: e.failed,
                self_test_number: e.test,
                power_on_hours: Some(u64::from(e.power_on_hours)),
                first_failure_lba: e.failing_lba,
                sense_key: 0,
                asc: 0,
                ascq: 0,
            })
            .collect();
        h.self_test = SelfTestHealth {
            last: mapped.first().cloned(),
            entries: mapped.len(),
            failed_entries: mapped.iter().filter(|e| e.failed).count(),
        };
        src(
            h,
            "self_test",
            format!("ATA {} ({addr:02X}h)", log::log_name(*addr)),
        );
    }
    // Failure prediction: SMART RETURN STATUS, and pre-fail attributes at their threshold.
    let failing: Vec<String> = a
        .smart
        .as_ref()
        .map(|s| {
            s.failing()
                .iter()
                .map(|x| format!("{} {}", x.id, x.name))
                .collect()
        })
        .unwrap_or_default();
    if a.threshold_exceeded == Some(true) || !failing.is_empty() {
        h.informational_exception = Some(IeHealth {
            asc: 0x5D,
            ascq: 0x00,
            description: if failing.is_empty() {
                "SMART RETURN STATUS: threshold exceeded".into()
            } else {
                format!("SMART threshold exceeded: {}", failing.join(", "))
            },
            failure_predicted: true,
            warning: false,
        });
        src(
            h,
            "informational_exception",
            "ATA SMART RETURN STATUS (LBA F4h/2Ch) and SMART READ DATA/THRESHOLDS".into(),
        );
    } else if a.threshold_exceeded == Some(false) {
        src(
            h,
            "informational_exception",
            "ATA SMART RETURN STATUS: no threshold exceeded (LBA 4Fh/C2h)".into(),
        );
        if h.informational_exception
            .as_ref()
            .is_some_and(|ie| ie.asc == 0x5D)
        {
            h.notes.push(
                "the SATL's informational exceptions page reports a failure prediction; \
                 SMART RETURN STATUS does not"
                    .into(),
            );
        }
    }
}
