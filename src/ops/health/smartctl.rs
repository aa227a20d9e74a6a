//! The health report in smartctl's own JSON key names and layout (`sgctl --json=smartctl
//! health`), so that jq filters and exporters written for `smartctl -j -x` read sgctl's output
//! unchanged.
//!
//! Every key below is one smartctl 7.3 prints, with its type and the condition under which
//! smartctl prints it; the names come from smartmontools' sources (the `jglb[...]` assignments):
//!
//! | key | smartmontools source | sgctl source |
//! |---|---|---|
//! | `device` {`name`,`info_name`,`type`,`protocol`} | smartctl.cpp (`js_device_info`) | the address; `sat`/`ATA` when the ATA side answered |
//! | `scsi_vendor`, `scsi_product`, `scsi_model_name`, `scsi_revision` | scsiprint.cpp `scsiGetDriveInfo` | INQUIRY |
//! | `user_capacity` {`blocks`,`bytes`}, `logical_block_size`, `physical_block_size`, `scsi_protection_type` | scsiprint.cpp `scsiGetDriveInfo` | READ CAPACITY |
//! | `rotation_rate` (1 "non-rotating" printed as 0) | scsiprint.cpp `scsiGetDriveInfo`, ataprint.cpp | VPD B1h / IDENTIFY word 217 |
//! | `logical_unit_id` (`0x` + NAA hex), `serial_number` | scsiprint.cpp `scsiGetDriveInfo` | VPD 83h, 80h |
//! | `device_type` {`scsi_terminology`,`scsi_value`,`name`} | scsiprint.cpp `scsiGetDriveInfo` | INQUIRY byte 0 |
//! | `smart_status` {`passed`, `scsi` {`asc`,`ascq`,`ie_string`}} | scsiprint.cpp `scsiGetSmartData` | log page 2Fh (ASC 5Dh or 0Bh: not passed) |
//! | `temperature` {`current`,`drive_trip`} | scsiprint.cpp `scsiPrintTemp` | log page 0Dh |
//! | `temperature.current`, `scsi_temperature.drive_trip` | scsiprint.cpp `scsiGetSmartData` | log page 2Fh, when there is no page 0Dh |
//! | `scsi_environmental_reports` {`temperature_N`,`relative_humidity_N`} | scsiprint.cpp `scsiPrintEnviroReporting` | log page 0Dh/01h |
//! | `power_on_time` {`hours`,`minutes`} | scsiprint.cpp `scsiPrintBackgroundResults` | log page 15h parameter 0 |
//! | `scsi_percentage_used_endurance_indicator` | scsiprint.cpp `scsiPrintSSMedia` | log page 11h parameter 1 |
//! | `scsi_start_stop_cycle_counter` {…} | scsiprint.cpp `scsiGetStartStopData` | log page 0Eh |
//! | `scsi_grown_defect_list` | scsiprint.cpp `scsiPrintGrownDefectListLen` | READ DEFECT DATA |
//! | `scsi_error_counter_log` {`read`,`write`,`verify`} {…} | scsiprint.cpp `scsiPrintErrorCounterLog` | log pages 03h, 02h, 05h |
//! | `scsi_pending_defects` {`count`} | scsiprint.cpp `scsiPrintPendingDefectsLPage` | log page 15h/01h |
//! | `scsi_format_status` {…} | scsiprint.cpp `scsiPrintFormatStatus` | log page 08h |
//! | `model_name`, `serial_number`, `firmware_version`, `wwn` {`naa`,`oui`,`id`} | ataprint.cpp `print_drive_info` | ATA IDENTIFY DEVICE |
//! | `smart_support` {`available`,`enabled`}, `smart_status` {`passed`} | ataprint.cpp | IDENTIFY words 82/85, SMART RETURN STATUS |
//! | `ata_smart_attributes` {`revision`,`table`[…]} | ataprint.cpp `PrintSmartAttribWithThres` | SMART READ DATA / THRESHOLDS |
//! | `power_on_time.hours`, `power_cycle_count`, `temperature.current` | ataprint.cpp (attributes 9, 12, 194/190) | SMART attributes |
//!
//! Keys scsiprint.cpp names by a printed label reach its JSON through json.cpp's key rule
//! (lowercase, other characters `_`, see [`key`]), and are spelt so here.
//!
//! smartctl's rules are kept where they decide whether a key is there: the verify row of the
//! error counter log only when one of its counters is non-zero, start-stop counters only when
//! not all FFh, `physical_block_size` only when it differs from the logical size. For SCSI,
//! smartctl 7.3 names the model `scsi_model_name`; sgctl prints that and `model_name` (the key
//! ATA and NVMe reports use) with the same value. What sgctl does not read (the IEC mode page
//! behind `smart_support` for SCSI, SAS phy pages, the self-test log in smartctl's layout) is
//! left out, not guessed.

use super::DriveHealth;
use crate::ata::{identify::Identify, smart::SmartData};
use crate::logpage::{counters, environment, selftest, LogPage};
use serde_json::{json, Map, Value};

/// What `health` read beyond its own report, kept for this layout.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Sources {
    /// The identity (INQUIRY, VPD 80h/83h/B1h, READ CAPACITY(16)).
    pub identity: Option<crate::ops::health::read::Identity>,
    /// READ CAPACITY: (number of logical blocks, block length).
    pub capacity: Option<(u64, u32)>,
    /// ATA IDENTIFY DEVICE, for a SATA drive behind a SATL.
    pub ata_identify: Option<Identify>,
    /// SMART READ DATA with thresholds.
    pub ata_smart: Option<SmartData>,
    /// SMART RETURN STATUS: threshold exceeded.
    pub ata_threshold_exceeded: Option<bool>,
}

/// smartctl's names of the SCSI peripheral device types (scsiprint.cpp `peripheral_dt_arr`).
const PERIPHERAL: &[&str] = &[
    "disk",
    "tape",
    "printer",
    "processor",
    "optical disk(4)",
    "CD/DVD",
    "scanner",
    "optical disk(7)",
    "medium changer",
    "communications",
    "graphics(10)",
    "graphics(11)",
    "storage array",
    "enclosure",
    "simplified disk",
    "optical card reader",
    "reserved [0x10]",
    "object based storage",
    "automation/driver interface",
    "security manager device",
    "host managed zoned block device",
];

fn page(h: &DriveHealth, pg: u8, sub: u8) -> Option<&LogPage> {
    h.raw_pages
        .iter()
        .find(|p| p.page_code == pg && p.subpage_code == sub)
}

/// True when the drive was read through its ATA side (SATA behind a SATL): smartctl's `sat`
/// device type and ATA layout.
pub(crate) fn is_ata(h: &DriveHealth) -> bool {
    h.source.ata_identify.is_some()
}

/// One drive in smartctl's layout (without the `json_format_version` and tool objects the
/// caller adds).
pub fn drive(h: &DriveHealth) -> Map<String, Value> {
    let mut m = Map::new();
    let ata = is_ata(h);
    m.insert(
        "device".into(),
        if ata {
            json!({"name": h.device, "info_name": format!("{} [SAT]", h.device),
                   "type": "sat", "protocol": "ATA"})
        } else {
            json!({"name": h.device, "info_name": h.device, "type": "scsi", "protocol": "SCSI"})
        },
    );
    if ata {
        ata_fields(h, &mut m);
    } else {
        scsi_fields(h, &mut m);
    }
    m
}

fn trimmed(s: &str) -> String {
    s.trim().to_string()
}

fn scsi_fields(h: &DriveHealth, m: &mut Map<String, Value>) {
    let id = h.source.identity.as_ref();
    if let Some(id) = id {
        let vendor = trimmed(&id.vendor);
        let product = trimmed(&id.model);
        let model = if vendor.is_empty() || product.is_empty() {
            format!("{vendor}{product}")
        } else {
            format!("{vendor} {product}")
        };
        m.insert("scsi_vendor".into(), json!(vendor));
        m.insert("scsi_product".into(), json!(product));
        m.insert("model_name".into(), json!(model));
        m.insert("scsi_model_name".into(), json!(model));
        if !id.firmware.trim().is_empty() {
            m.insert("scsi_revision".into(), json!(trimmed(&id.firmware)));
        }
    }
    if let Some((blocks, len)) = h.source.capacity {
        m.insert(
            "user_capacity".into(),
            json!({"blocks": blocks, "bytes": blocks.saturating_mul(u64::from(len))}),
        );
        m.insert("logical_block_size".into(), json!(len));
        if let Some(pb) = id
            .and_then(|i| i.physical_block_size)
            .filter(|pb| *pb != u64::from(len))
        {
            m.insert("physical_block_size".into(), json!(pb));
        }
        if let Some(pt) = id.and_then(|i| i.protection_type).filter(|t| *t > 0) {
            m.insert("scsi_protection_type".into(), json!(pt));
        }
    }
    if let Some(r) = id.and_then(|i| i.rotation_rate) {
        m.insert("rotation_rate".into(), json!(if r == 1 { 0 } else { r }));
    }
    if let Some(naa) = id
        .and_then(|i| i.lu_name.as_deref())
        .and_then(|n| n.strip_prefix("naa."))
    {
        m.insert("logical_unit_id".into(), json!(format!("0x{naa}")));
    }
    if let Some(s) = id.map(|i| trimmed(&i.serial)).filter(|s| !s.is_empty()) {
        m.insert("serial_number".into(), json!(s));
    }
    if let Some(pdt) = id.map(|i| i.peripheral_type) {
        let mut d = json!({"scsi_terminology": "Peripheral Device Type [PDT]",
                           "scsi_value": pdt});
        if let Some(n) = PERIPHERAL.get(usize::from(pdt)) {
            d["name"] = json!(n);
        }
        m.insert("device_type".into(), d);
    }
    let mut notes = Vec::new();
    let n = &mut notes;
    // smart_status and, without page 0Dh, the temperature: page 2Fh (scsiGetSmartData).
    let temp_page = page(h, 0x0d, 0);
    if let Some(p) = page(h, 0x2f, 0) {
        let ie = environment::informational_exceptions(p, n);
        let asc = ie.asc.unwrap_or(0);
        let ascq = ie.ascq.unwrap_or(0);
        if asc == 0x5d || asc == 0x0b {
            m.insert(
                "smart_status".into(),
                json!({"passed": false, "scsi": {"asc": asc, "ascq": ascq,
                       "ie_string": ie.description.unwrap_or_default()}}),
            );
        } else {
            m.insert("smart_status".into(), json!({"passed": true}));
        }
        if temp_page.is_none() {
            if let Some(t) = ie.most_recent_temperature_c.filter(|t| *t != 255) {
                m.insert("temperature".into(), json!({"current": t}));
            }
            if let Some(t) = ie.vendor_trip_temperature_c.filter(|t| *t != 255) {
                m.insert("scsi_temperature".into(), json!({"drive_trip": t}));
            }
        }
    }
    if let Some(p) = temp_page {
        let t = environment::temperature(p, n);
        let mut o = Map::new();
        if let Some(c) = t.current_c.filter(|t| *t != 255) {
            o.insert("current".into(), json!(c));
        }
        if let Some(c) = t.drive_trip_c.filter(|t| *t != 255) {
            o.insert("drive_trip".into(), json!(c));
        }
        if !o.is_empty() {
            m.insert("temperature".into(), Value::Object(o));
        }
    }
    if let Some(p) = page(h, 0x0d, 1) {
        if let Some(o) = environmental_reports(p) {
            m.insert("scsi_environmental_reports".into(), o);
        }
    }
    if let Some(min) = page(h, 0x15, 0)
        .and_then(|p| selftest::background_scan(p, n).status)
        .and_then(|s| s.accumulated_power_on_minutes)
    {
        m.insert(
            "power_on_time".into(),
            json!({"hours": min / 60, "minutes": min % 60}),
        );
    }
    if let Some(u) = page(h, 0x11, 0)
        .and_then(|p| counters::solid_state_media(p, n).percentage_used_endurance_indicator)
    {
        m.insert("scsi_percentage_used_endurance_indicator".into(), json!(u));
    }
    if let Some(p) = page(h, 0x0e, 0) {
        let s = environment::start_stop(p, n);
        let mut o = Map::new();
        if let Some(d) = &s.date_of_manufacture {
            if let (Some(y), Some(w)) = (&d.year, &d.week) {
                o.insert("year_of_manufacture".into(), json!(y));
                o.insert("week_of_manufacture".into(), json!(w));
            }
        }
        // smartctl reads these as 4-byte counters and leaves out an all-FFh one. Its keys are
        // the page's labels run through smartmontools' json key rule ([`key`]):
        // "Accumulated start-stop cycles" → `accumulated_start_stop_cycles`.
        for (label, v) in [
            (
                "Specified cycle count over device lifetime",
                s.specified_cycle_count_over_device_lifetime,
            ),
            (
                "Accumulated start-stop cycles",
                s.accumulated_start_stop_cycles,
            ),
            (
                "Specified load-unload count over device lifetime",
                s.specified_load_unload_count_over_device_lifetime,
            ),
            (
                "Accumulated load-unload cycles",
                s.accumulated_load_unload_cycles,
            ),
        ] {
            if let Some(v) = v.filter(|v| *v != u64::from(u32::MAX)) {
                o.insert(key(label), json!(v));
            }
        }
        if !o.is_empty() {
            m.insert("scsi_start_stop_cycle_counter".into(), Value::Object(o));
        }
    }
    if let Some(g) = h.defects.grown {
        m.insert("scsi_grown_defect_list".into(), json!(g));
    }
    let mut log = Map::new();
    for (name, pg) in [("read", 0x03u8), ("write", 0x02), ("verify", 0x05)] {
        let Some(p) = page(h, pg, 0) else { continue };
        let e = counters::error_counters(p, n);
        let c = [
            e.errors_corrected_by_eccfast,
            e.errors_corrected_by_eccdelayed,
            e.errors_corrected_by_rereads_rewrites,
            e.total_errors_corrected,
            e.correction_algorithm_invocations,
            e.bytes_processed,
            e.total_uncorrected_errors,
        ]
        .map(|v| v.unwrap_or(0));
        // scsiPrintErrorCounterLog: the verify row only when it has a non-zero counter.
        if name == "verify" && c.iter().all(|v| *v == 0) {
            continue;
        }
        log.insert(
            name.into(),
            json!({
                "errors_corrected_by_eccfast": c[0],
                "errors_corrected_by_eccdelayed": c[1],
                "errors_corrected_by_rereads_rewrites": c[2],
                "total_errors_corrected": c[3],
                "correction_algorithm_invocations": c[4],
                "gigabytes_processed": format!("{:.3}", c[5] as f64 / 1e9),
                "total_uncorrected_errors": c[6],
            }),
        );
    }
    if !log.is_empty() {
        m.insert("scsi_error_counter_log".into(), Value::Object(log));
    }
    if let Some(c) =
        page(h, 0x15, 1).and_then(|p| selftest::pending_defects(p, n).pending_defect_count)
    {
        m.insert("scsi_pending_defects".into(), json!({"count": c}));
    }
    if let Some(p) = page(h, 0x08, 0) {
        let f = counters::format_status(p, n);
        let mut o = Map::new();
        for (k, v) in [
            (
                "grown_defects_during_cert",
                f.grown_defects_during_certification,
            ),
            (
                "blocks_reassigned_during_format",
                f.total_blocks_reassigned_during_format,
            ),
            (
                "total_new_block_since_format",
                f.total_new_blocks_reassigned,
            ),
            (
                "power_on_minutes_since_format",
                f.power_on_minutes_since_format,
            ),
        ] {
            if let Some(v) = v {
                o.insert(k.into(), json!(v));
            }
        }
        if !o.is_empty() {
            m.insert("scsi_format_status".into(), Value::Object(o));
        }
    }
}

/// Page 0Dh/01h in smartctl's layout (scsiprint.cpp `scsiPrintEnviroReporting`, which `-x`
/// prints instead of the temperature page): `temperature_N` for parameters below 100h,
/// `relative_humidity_N` below 200h, each 12 bytes long; a temperature of 80h is "unknown".
/// smartctl stops at the first parameter of another kind or length; so does this.
fn environmental_reports(p: &LogPage) -> Option<Value> {
    let mut o = Map::new();
    let (mut nt, mut nh) = (0, 0);
    for prm in &p.params {
        let b = &prm.raw;
        if b.len() != 12 {
            break;
        }
        if prm.code < 0x100 {
            nt += 1;
            let t = |i: usize| {
                if b[i] == 0x80 {
                    json!("unknown")
                } else {
                    json!(i64::from(b[i] as i8))
                }
            };
            let mut e = json!({
                "parameter_code": prm.code,
                "current": t(5),
                "lifetime_maximum": t(6),
                "lifetime_minimum": t(7),
                "maximum_since_power_on": t(8),
                "minimum_since_power_on": t(9),
            });
            if b[4] & 3 == 1 {
                e["maximum_other"] = t(10);
                e["minimum_other"] = t(11);
            }
            o.insert(format!("temperature_{nt}"), e);
        } else if prm.code < 0x200 {
            nh += 1;
            let mut e = json!({
                "parameter_code": prm.code,
                "current": b[5],
                "lifetime_maximum": b[6],
                "lifetime_minimum": b[7],
                "maximum_since_power_on": b[8],
                "minimum_since_power_on": b[9],
            });
            if b[4] & 3 == 1 {
                e["maximum_other"] = json!(b[10]);
                e["minimum_other"] = json!(b[11]);
            }
            o.insert(format!("relative_humidity_{nh}"), e);
        } else {
            break;
        }
    }
    (!o.is_empty()).then_some(Value::Object(o))
}

/// smartmontools' rule for object keys (json.cpp `str2key`): ASCII letters lowercased, every
/// character other than a-z, 0-9 and `_` replaced by `_`. scsiprint.cpp names several keys by
/// their printed labels ("Accumulated start-stop cycles", "Lifetime maximum"); this is how
/// they appear in its JSON.
pub fn key(label: &str) -> String {
    label
        .chars()
        .map(|c| match c.to_ascii_lowercase() {
            c @ ('a'..='z' | '0'..='9' | '_') => c,
            _ => '_',
        })
        .collect()
}

/// smartctl's flag letters of an ATA attribute (ataprint.cpp `get_attr_flags_string`):
/// P pre-failure, O online, S speed/performance, R error rate, C event count, K auto-keep;
/// a seventh character `+` when other bits are set.
fn attr_flags_string(f: u16) -> String {
    let mut s: String = [
        (0x01, 'P'),
        (0x02, 'O'),
        (0x04, 'S'),
        (0x08, 'R'),
        (0x10, 'C'),
        (0x20, 'K'),
    ]
    .iter()
    .map(|(b, c)| if f & b != 0 { *c } else { '-' })
    .collect();
    s.push(if f & !0x3f != 0 { '+' } else { ' ' });
    s
}

fn ata_fields(h: &DriveHealth, m: &mut Map<String, Value>) {
    let Some(id) = &h.source.ata_identify else {
        return;
    };
    m.insert("model_name".into(), json!(trimmed(&id.model)));
    if !id.serial_number.trim().is_empty() {
        m.insert("serial_number".into(), json!(trimmed(&id.serial_number)));
    }
    if let Some(w) = id
        .wwn
        .as_deref()
        .and_then(|w| u64::from_str_radix(w.trim_start_matches("0x"), 16).ok())
    {
        m.insert(
            "wwn".into(),
            json!({"naa": w >> 60, "oui": (w >> 36) & 0xff_ffff, "id": w & 0xf_ffff_ffff}),
        );
    }
    m.insert(
        "firmware_version".into(),
        json!(trimmed(&id.firmware_revision)),
    );
    m.insert(
        "user_capacity".into(),
        json!({"blocks": id.user_addressable_sectors, "bytes": id.capacity_bytes}),
    );
    m.insert("logical_block_size".into(), json!(id.logical_sector_size));
    m.insert("physical_block_size".into(), json!(id.physical_sector_size));
    if id.rotation_rate != 0 {
        m.insert(
            "rotation_rate".into(),
            json!(if id.rotation_rate == 1 {
                0
            } else {
                id.rotation_rate
            }),
        );
    }
    m.insert(
        "smart_support".into(),
        json!({"available": id.smart_supported, "enabled": id.smart_enabled}),
    );
    if let Some(x) = h.source.ata_threshold_exceeded {
        m.insert("smart_status".into(), json!({"passed": !x}));
    }
    let Some(s) = &h.source.ata_smart else {
        return;
    };
    let table: Vec<Value> = s
        .attributes
        .iter()
        .map(|a| {
            let mut e = json!({
                "id": a.id,
                "name": a.name,
                "value": a.value,
                "worst": a.worst,
            });
            if let Some(t) = a.thresh {
                e["thresh"] = json!(t);
                e["when_failed"] = json!(if t != 0 && a.value <= t {
                    "now"
                } else if t != 0 && a.worst <= t {
                    "past"
                } else {
                    ""
                });
            }
            e["flags"] = json!({
                "value": a.flags,
                "string": attr_flags_string(a.flags),
                "prefailure": a.flags & 0x01 != 0,
                "updated_online": a.flags & 0x02 != 0,
                "performance": a.flags & 0x04 != 0,
                "error_rate": a.flags & 0x08 != 0,
                "event_count": a.flags & 0x10 != 0,
                "auto_keep": a.flags & 0x20 != 0,
            });
            e["raw"] = json!({"value": a.raw, "string": a.raw.to_string()});
            e
        })
        .collect();
    m.insert(
        "ata_smart_attributes".into(),
        json!({"revision": s.revision, "table": table}),
    );
    let raw = |n: u8| s.attributes.iter().find(|a| a.id == n).map(|a| a.raw);
    // smartmontools' default attribute formats (atacmds.cpp, `-v 9,raw24(raw8),Power_On_Hours`,
    // `-v 12,raw48,Power_Cycle_Count`, `-v 194,tempminmax,Temperature_Celsius`): hours in the
    // low 24 bits, cycles in all 48, the temperature in the low byte. A drive whose drivedb
    // entry names another format is read with these defaults.
    if let Some(v) = raw(9) {
        m.insert("power_on_time".into(), json!({"hours": v & 0xff_ffff}));
    }
    if let Some(v) = raw(12) {
        m.insert("power_cycle_count".into(), json!(v));
    }
    // The temperature attribute's raw value: the current temperature in its low byte.
    if let Some(v) = raw(194).or_else(|| raw(190)) {
        m.insert("temperature".into(), json!({"current": v & 0xff}));
    }
}

#[cfg(test)]
mod tests;
