//! `sgctl health --prometheus`: node_exporter textfile-collector format
//! (`# HELP`, `# TYPE`, then `name{labels} value` lines; one file per scrape).
//!
//! Every series carries `device`, `serial` and `model` labels, and `enclosure` and `slot`
//! for a drive in an enclosure the kernel knows (`/sys/class/enclosure`). Metrics absent on a drive are
//! simply not emitted for it. Names are documented in [`METRICS`] (and the README).

use super::{DriveHealth, State};
use std::fmt::Write;

/// (name, type, help) of every metric emitted.
pub const METRICS: &[(&str, &str, &str)] = &[
    (
        "sgctl_health_read_ok",
        "gauge",
        "1 if the drive could be opened and read, else 0.",
    ),
    (
        "sgctl_health_state",
        "gauge",
        "Drive state: 0 ok, 1 warning, 2 failing, 3 unreadable.",
    ),
    (
        "sgctl_health_exit_bits",
        "gauge",
        "This drive's `sgctl health` exit bit mask.",
    ),
    (
        "sgctl_endurance_used_percent",
        "gauge",
        "Percentage used endurance indicator (log page 0x11 parameter 0x0001).",
    ),
    (
        "sgctl_endurance_remaining_days",
        "gauge",
        "Projected days until 100% endurance used at the observed wear rate.",
    ),
    (
        "sgctl_drive_writes_per_day",
        "gauge",
        "Bytes written / capacity / powered-on days.",
    ),
    (
        "sgctl_bytes_written_total",
        "counter",
        "Bytes written (log page 0x02 parameter 0x0005, or 0x19 LBs received x block length).",
    ),
    (
        "sgctl_capacity_bytes",
        "gauge",
        "Capacity from READ CAPACITY.",
    ),
    (
        "sgctl_power_on_hours",
        "counter",
        "Power-on hours (log page 0x15 accumulated power-on minutes / 60).",
    ),
    (
        "sgctl_temperature_celsius",
        "gauge",
        "Current temperature (log page 0x0D, else 0x2F).",
    ),
    (
        "sgctl_temperature_trip_celsius",
        "gauge",
        "Drive trip (reference) temperature.",
    ),
    (
        "sgctl_temperature_lifetime_max_celsius",
        "gauge",
        "Lifetime maximum temperature (log page 0x0D/0x01).",
    ),
    (
        "sgctl_grown_defects",
        "gauge",
        "Grown defect list entries (READ DEFECT DATA).",
    ),
    (
        "sgctl_pending_defects",
        "gauge",
        "Pending defect count (log page 0x15/0x01).",
    ),
    (
        "sgctl_uncorrected_errors_total",
        "counter",
        "Total uncorrected errors by direction (log pages 0x03/0x02/0x05 parameter 0x0006).",
    ),
    (
        "sgctl_non_medium_errors_total",
        "counter",
        "Non-medium error count (log page 0x06).",
    ),
    (
        "sgctl_self_test_failures",
        "gauge",
        "Failed entries in the self-test log (log page 0x10).",
    ),
    (
        "sgctl_informational_exception",
        "gauge",
        "1 when the informational exception ASC is non-zero; asc/ascq labels (log page 0x2F).",
    ),
    (
        "sgctl_failure_predicted",
        "gauge",
        "1 when the informational exception is 5D/xx (failure prediction threshold exceeded).",
    ),
    (
        "sgctl_sas_phy_invalid_dwords_total",
        "counter",
        "Invalid dword count per SAS phy (log page 0x18).",
    ),
    (
        "sgctl_sas_phy_running_disparity_errors_total",
        "counter",
        "Running disparity error count per SAS phy.",
    ),
    (
        "sgctl_sas_phy_loss_of_dword_sync_total",
        "counter",
        "Loss of dword synchronization count per SAS phy.",
    ),
    (
        "sgctl_sas_phy_reset_problems_total",
        "counter",
        "Phy reset problem count per SAS phy.",
    ),
    (
        "sgctl_start_stop_cycles_total",
        "counter",
        "Accumulated start-stop cycles (log page 0x0E).",
    ),
    (
        "sgctl_load_unload_cycles_total",
        "counter",
        "Accumulated load-unload cycles (log page 0x0E).",
    ),
];

/// Escapes a label value (backslash, double quote, newline).
fn esc(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

fn base_labels(h: &DriveHealth) -> String {
    let mut l = format!(
        "device=\"{}\",serial=\"{}\",model=\"{}\"",
        esc(&h.device),
        esc(h.serial.as_deref().unwrap_or("")),
        esc(h.model.as_deref().unwrap_or(""))
    );
    // Where the drive sits, for drives in an enclosure the kernel knows.
    if let Some(e) = &h.enclosure {
        l.push_str(&format!(",enclosure=\"{}\"", esc(e)));
        if let Some(s) = h.slot {
            l.push_str(&format!(",slot=\"{s}\""));
        }
    }
    l
}

fn samples(h: &DriveHealth, name: &str) -> Vec<(String, f64)> {
    let none = String::new();
    let one = |v: Option<f64>| v.map(|v| vec![(none.clone(), v)]).unwrap_or_default();
    let u = |v: Option<u64>| one(v.map(|x| x as f64));
    match name {
        "sgctl_health_read_ok" => one(Some(if h.state == State::Unreadable {
            0.0
        } else {
            1.0
        })),
        "sgctl_health_state" => one(Some(match h.state {
            State::Ok => 0.0,
            State::Warning => 1.0,
            State::Failing => 2.0,
            State::Unreadable => 3.0,
        })),
        "sgctl_health_exit_bits" => one(Some(f64::from(h.exit_bits))),
        "sgctl_endurance_used_percent" => one(h.endurance.used_percent.map(f64::from)),
        "sgctl_endurance_remaining_days" => one(h.endurance.remaining_days),
        "sgctl_drive_writes_per_day" => one(h.endurance.drive_writes_per_day),
        "sgctl_bytes_written_total" => u(h.endurance.bytes_written),
        "sgctl_capacity_bytes" => u(h.endurance.capacity_bytes),
        "sgctl_power_on_hours" => one(h.endurance.power_on_hours),
        "sgctl_temperature_celsius" => one(h.temperature.current_c.map(f64::from)),
        "sgctl_temperature_trip_celsius" => one(h.temperature.drive_trip_c.map(f64::from)),
        "sgctl_temperature_lifetime_max_celsius" => {
            one(h.temperature.lifetime_max_c.map(f64::from))
        }
        "sgctl_grown_defects" => u(h.defects.grown),
        "sgctl_pending_defects" => u(h.defects.pending),
        "sgctl_uncorrected_errors_total" => [
            ("read", h.errors.read_uncorrected),
            ("write", h.errors.write_uncorrected),
            ("verify", h.errors.verify_uncorrected),
        ]
        .iter()
        .filter_map(|(d, v)| v.map(|v| (format!(",direction=\"{d}\""), v as f64)))
        .collect(),
        "sgctl_non_medium_errors_total" => u(h.errors.non_medium),
        "sgctl_self_test_failures" => {
            if h.supported_pages.iter().any(|p| p.page_code == 0x10) {
                one(Some(h.self_test.failed_entries as f64))
            } else {
                vec![]
            }
        }
        "sgctl_informational_exception" => h
            .informational_exception
            .as_ref()
            .map(|ie| {
                vec![(
                    format!(",asc=\"0x{:02x}\",ascq=\"0x{:02x}\"", ie.asc, ie.ascq),
                    if ie.asc != 0 { 1.0 } else { 0.0 },
                )]
            })
            .unwrap_or_default(),
        "sgctl_failure_predicted" => one(h.informational_exception.as_ref().map(|ie| {
            if ie.failure_predicted {
                1.0
            } else {
                0.0
            }
        })),
        "sgctl_sas_phy_invalid_dwords_total"
        | "sgctl_sas_phy_running_disparity_errors_total"
        | "sgctl_sas_phy_loss_of_dword_sync_total"
        | "sgctl_sas_phy_reset_problems_total" => h
            .sas_phys
            .iter()
            .filter_map(|p| {
                let v = match name {
                    "sgctl_sas_phy_invalid_dwords_total" => p.invalid_dword_count,
                    "sgctl_sas_phy_running_disparity_errors_total" => {
                        p.running_disparity_error_count
                    }
                    "sgctl_sas_phy_loss_of_dword_sync_total" => p.loss_of_dword_synchronization,
                    _ => p.phy_reset_problem,
                }?;
                Some((
                    format!(
                        ",port=\"{}\",phy=\"{}\"",
                        p.relative_target_port, p.phy_identifier
                    ),
                    v as f64,
                ))
            })
            .collect(),
        "sgctl_start_stop_cycles_total" => u(h.cycles.start_stop),
        "sgctl_load_unload_cycles_total" => u(h.cycles.load_unload),
        _ => vec![],
    }
}

/// Renders all drives in textfile-collector format.
pub fn render(drives: &[DriveHealth]) -> String {
    let mut out = String::new();
    for (name, ty, help) in METRICS {
        let rows: Vec<(String, f64)> = drives
            .iter()
            .flat_map(|h| {
                let base = base_labels(h);
                samples(h, name)
                    .into_iter()
                    .map(move |(extra, v)| (format!("{base}{extra}"), v))
            })
            .collect();
        if rows.is_empty() {
            continue;
        }
        let _ = writeln!(out, "# HELP {name} {help}");
        let _ = writeln!(out, "# TYPE {name} {ty}");
        for (labels, v) in rows {
            let _ = writeln!(out, "{name}{{{labels}}} {v}");
        }
    }
    out
}
