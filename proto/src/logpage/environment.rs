//! Environment and wear pages: 0x0D temperature (+0x01 environmental reporting, +0x02 limits),
//! 0x0E start-stop cycle counter (+0x01 utilization), 0x2F informational exceptions.
//!
//! Offsets from protocols.md §E.3 and sg3_utils `src/sg_logs.c`
//! (`show_temperature_page`, `show_environmental_reporting_page`,
//! `show_environmental_limits_page`, `show_start_stop_page`, `show_ie_page`).

use super::{short_param, unknown_param, LogPage, ParamView};
use serde::Serialize;

/// 0x0D temperature byte: 0xFF means "not available" (SPC-5 7.3.21).
fn temp_u8(v: Option<u8>) -> Option<u8> {
    v.filter(|t| *t != 0xff)
}

/// SPC-5 temperature page (0x0D).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct Temperature {
    /// 0000 byte 5: current temperature, °C (None if 0xFF).
    pub current_c: Option<u8>,
    /// 0001 byte 5: reference (drive trip) temperature, °C.
    pub drive_trip_c: Option<u8>,
    /// Vendor parameters (0x8000+), raw.
    pub vendor_parameters: Vec<ParamView>,
}

/// Decodes 0x0D.
pub fn temperature(p: &LogPage, notes: &mut Vec<String>) -> Temperature {
    let mut t = Temperature::default();
    for prm in &p.params {
        match prm.code {
            0 | 1 => {
                if prm.raw.len() < 6 {
                    short_param(notes, "temperature page", prm, 6);
                }
                let v = temp_u8(prm.u8_at(5));
                if prm.code == 0 {
                    t.current_c = v;
                } else {
                    t.drive_trip_c = v;
                }
            }
            0x8000.. => t.vendor_parameters.push(prm.into()),
            _ => unknown_param(notes, "temperature page", prm),
        }
    }
    t
}

/// Signed environmental temperature: -128 (0x80) means "not available" (sg_logs `temperature_str`).
fn temp_i8(v: Option<u8>) -> Option<i8> {
    v.map(|b| b as i8).filter(|t| *t != -128)
}

/// Relative humidity: 255 means not available, >100 reserved (sg_logs `humidity_str`).
fn humidity(v: Option<u8>) -> Option<u8> {
    v.filter(|h| *h <= 100)
}

/// One temperature report of the environmental reporting page (parameters 0x0000-0x00FF).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct TemperatureReport {
    /// Parameter code.
    pub parameter_code: u16,
    /// OTV: other temperature valid (byte 4 bit 0).
    pub other_valid: bool,
    /// Byte 5 current temperature.
    pub temperature_c: Option<i8>,
    /// Byte 6.
    pub lifetime_max_c: Option<i8>,
    /// Byte 7.
    pub lifetime_min_c: Option<i8>,
    /// Byte 8.
    pub max_since_power_on_c: Option<i8>,
    /// Byte 9.
    pub min_since_power_on_c: Option<i8>,
    /// Byte 10 (only if OTV).
    pub max_other_c: Option<i8>,
    /// Byte 11 (only if OTV).
    pub min_other_c: Option<i8>,
}

/// One relative humidity report (parameters 0x0100-0x01FF).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct HumidityReport {
    /// Parameter code.
    pub parameter_code: u16,
    /// ORHV (byte 4 bit 0).
    pub other_valid: bool,
    /// Byte 5, percent.
    pub relative_humidity: Option<u8>,
    /// Byte 6.
    pub lifetime_max: Option<u8>,
    /// Byte 7.
    pub lifetime_min: Option<u8>,
    /// Byte 8.
    pub max_since_power_on: Option<u8>,
    /// Byte 9.
    pub min_since_power_on: Option<u8>,
    /// Byte 10 (only if ORHV).
    pub max_other: Option<u8>,
    /// Byte 11 (only if ORHV).
    pub min_other: Option<u8>,
}

/// SPC-5 environmental reporting page (0x0D/0x01).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct EnvReporting {
    /// Temperature reports.
    pub temperature: Vec<TemperatureReport>,
    /// Relative humidity reports.
    pub relative_humidity: Vec<HumidityReport>,
}

/// Decodes 0x0D/0x01.
pub fn env_reporting(p: &LogPage, notes: &mut Vec<String>) -> EnvReporting {
    let mut e = EnvReporting::default();
    for prm in &p.params {
        if prm.code >= 0x200 {
            unknown_param(notes, "environmental reporting page", prm);
            continue;
        }
        if prm.raw.len() < 12 {
            short_param(notes, "environmental reporting page", prm, 12);
            continue;
        }
        let other = prm.u8_at(4).is_some_and(|b| b & 1 != 0);
        if prm.code < 0x100 {
            e.temperature.push(TemperatureReport {
                parameter_code: prm.code,
                other_valid: other,
                temperature_c: temp_i8(prm.u8_at(5)),
                lifetime_max_c: temp_i8(prm.u8_at(6)),
                lifetime_min_c: temp_i8(prm.u8_at(7)),
                max_since_power_on_c: temp_i8(prm.u8_at(8)),
                min_since_power_on_c: temp_i8(prm.u8_at(9)),
                max_other_c: temp_i8(prm.u8_at(10)).filter(|_| other),
                min_other_c: temp_i8(prm.u8_at(11)).filter(|_| other),
            });
        } else {
            e.relative_humidity.push(HumidityReport {
                parameter_code: prm.code,
                other_valid: other,
                relative_humidity: humidity(prm.u8_at(5)),
                lifetime_max: humidity(prm.u8_at(6)),
                lifetime_min: humidity(prm.u8_at(7)),
                max_since_power_on: humidity(prm.u8_at(8)),
                min_since_power_on: humidity(prm.u8_at(9)),
                max_other: humidity(prm.u8_at(10)).filter(|_| other),
                min_other: humidity(prm.u8_at(11)).filter(|_| other),
            });
        }
    }
    e
}

/// Temperature limits (environmental limits page parameters 0x0000-0x00FF), °C;
/// None = no limit (-128).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct TemperatureLimits {
    /// Parameter code.
    pub parameter_code: u16,
    /// Byte 4.
    pub high_critical_trigger_c: Option<i8>,
    /// Byte 5.
    pub high_critical_reset_c: Option<i8>,
    /// Byte 6.
    pub low_critical_reset_c: Option<i8>,
    /// Byte 7.
    pub low_critical_trigger_c: Option<i8>,
    /// Byte 8.
    pub high_operating_trigger_c: Option<i8>,
    /// Byte 9.
    pub high_operating_reset_c: Option<i8>,
    /// Byte 10.
    pub low_operating_reset_c: Option<i8>,
    /// Byte 11.
    pub low_operating_trigger_c: Option<i8>,
}

/// Relative humidity limits (parameters 0x0100-0x01FF), percent; None = no limit.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct HumidityLimits {
    /// Parameter code.
    pub parameter_code: u16,
    /// Byte 4.
    pub high_critical_trigger: Option<u8>,
    /// Byte 5.
    pub high_critical_reset: Option<u8>,
    /// Byte 6.
    pub low_critical_reset: Option<u8>,
    /// Byte 7.
    pub low_critical_trigger: Option<u8>,
    /// Byte 8.
    pub high_operating_trigger: Option<u8>,
    /// Byte 9.
    pub high_operating_reset: Option<u8>,
    /// Byte 10.
    pub low_operating_reset: Option<u8>,
    /// Byte 11.
    pub low_operating_trigger: Option<u8>,
}

/// SPC-5 environmental limits page (0x0D/0x02).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct EnvLimits {
    /// Temperature limits.
    pub temperature: Vec<TemperatureLimits>,
    /// Humidity limits.
    pub relative_humidity: Vec<HumidityLimits>,
}

/// Decodes 0x0D/0x02.
pub fn env_limits(p: &LogPage, notes: &mut Vec<String>) -> EnvLimits {
    let mut e = EnvLimits::default();
    for prm in &p.params {
        if prm.code >= 0x200 {
            unknown_param(notes, "environmental limits page", prm);
            continue;
        }
        if prm.raw.len() < 12 {
            short_param(notes, "environmental limits page", prm, 12);
            continue;
        }
        let t = |o| temp_i8(prm.u8_at(o));
        let h = |o| humidity(prm.u8_at(o));
        if prm.code < 0x100 {
            e.temperature.push(TemperatureLimits {
                parameter_code: prm.code,
                high_critical_trigger_c: t(4),
                high_critical_reset_c: t(5),
                low_critical_reset_c: t(6),
                low_critical_trigger_c: t(7),
                high_operating_trigger_c: t(8),
                high_operating_reset_c: t(9),
                low_operating_reset_c: t(10),
                low_operating_trigger_c: t(11),
            });
        } else {
            e.relative_humidity.push(HumidityLimits {
                parameter_code: prm.code,
                high_critical_trigger: h(4),
                high_critical_reset: h(5),
                low_critical_reset: h(6),
                low_critical_trigger: h(7),
                high_operating_trigger: h(8),
                high_operating_reset: h(9),
                low_operating_reset: h(10),
                low_operating_trigger: h(11),
            });
        }
    }
    e
}

/// Year and week as ASCII digits (0x0E parameters 0001/0002).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct YearWeek {
    /// 4 ASCII digits (e.g. "2017"); None if blank/not digits.
    pub year: Option<String>,
    /// 2 ASCII digits.
    pub week: Option<String>,
}

fn year_week(v: &[u8]) -> Option<YearWeek> {
    if v.len() < 6 {
        return None;
    }
    let digits = |s: &[u8]| {
        if s.iter().all(u8::is_ascii_digit) {
            Some(String::from_utf8_lossy(s).into_owned())
        } else {
            None
        }
    };
    Some(YearWeek {
        year: digits(&v[0..4]),
        week: digits(&v[4..6]),
    })
}

/// SBC-4 start-stop cycle counter page (0x0E). smartctl names where they overlap.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct StartStop {
    /// 0001 date of manufacture.
    pub date_of_manufacture: Option<YearWeek>,
    /// 0002 accounting date.
    pub accounting_date: Option<YearWeek>,
    /// 0003 specified cycle count over device lifetime.
    pub specified_cycle_count_over_device_lifetime: Option<u64>,
    /// 0004 accumulated start-stop cycles.
    pub accumulated_start_stop_cycles: Option<u64>,
    /// 0005 specified load-unload count over device lifetime.
    pub specified_load_unload_count_over_device_lifetime: Option<u64>,
    /// 0006 accumulated load-unload cycles.
    pub accumulated_load_unload_cycles: Option<u64>,
}

/// Decodes 0x0E.
pub fn start_stop(p: &LogPage, notes: &mut Vec<String>) -> StartStop {
    let mut s = StartStop::default();
    for prm in &p.params {
        match prm.code {
            1 => s.date_of_manufacture = year_week(prm.value()),
            2 => s.accounting_date = year_week(prm.value()),
            3 => s.specified_cycle_count_over_device_lifetime = prm.uint(),
            4 => s.accumulated_start_stop_cycles = prm.uint(),
            5 => s.specified_load_unload_count_over_device_lifetime = prm.uint(),
            6 => s.accumulated_load_unload_cycles = prm.uint(),
            _ => unknown_param(notes, "start-stop cycle counter page", prm),
        }
    }
    s
}

/// SBC-4 utilization page (0x0E/0x01).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct Utilization {
    /// 0000: workload utilization, in units of 0.01 % of the rated workload (2 bytes).
    pub workload_utilization_hundredths_percent: Option<u64>,
    /// 0001: utilization usage rate based on date and time, percent (1 byte).
    pub utilization_usage_rate_percent: Option<u8>,
}

/// Decodes 0x0E/0x01.
pub(crate) fn utilization(p: &LogPage, notes: &mut Vec<String>) -> Utilization {
    let mut u = Utilization::default();
    for prm in &p.params {
        match prm.code {
            0 => u.workload_utilization_hundredths_percent = prm.be_at(4, 2),
            1 => u.utilization_usage_rate_percent = prm.u8_at(4),
            _ => unknown_param(notes, "utilization page", prm),
        }
    }
    u
}

/// SPC-5 informational exceptions page (0x2F), parameter 0000.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct InformationalExceptions {
    /// Byte 4: IE ASC (0 = no exception).
    pub asc: Option<u8>,
    /// Byte 5: IE ASCQ.
    pub ascq: Option<u8>,
    /// Description of ASC/ASCQ.
    pub description: Option<String>,
    /// Byte 6: most recent temperature reading, °C (None if 0xFF or absent).
    pub most_recent_temperature_c: Option<u8>,
    /// Byte 7 (IBM/HGST extension, sg_logs prints it as the trip point when present).
    pub vendor_trip_temperature_c: Option<u8>,
    /// Byte 8 (some vendors: maximum temperature).
    pub vendor_max_temperature_c: Option<u8>,
    /// True when ASC is 0x5D (failure prediction threshold exceeded; 5D/FF is the test/false one).
    pub failure_predicted: bool,
    /// Other parameters, raw.
    pub other_parameters: Vec<ParamView>,
}

/// Decodes 0x2F.
pub fn informational_exceptions(p: &LogPage, notes: &mut Vec<String>) -> InformationalExceptions {
    let mut ie = InformationalExceptions::default();
    for prm in &p.params {
        if prm.code != 0 {
            if prm.code < 0x8000 {
                unknown_param(notes, "informational exceptions page", prm);
            }
            ie.other_parameters.push(prm.into());
            continue;
        }
        if prm.raw.len() < 6 {
            short_param(notes, "informational exceptions page", prm, 6);
        }
        ie.asc = prm.u8_at(4);
        ie.ascq = prm.u8_at(5);
        ie.most_recent_temperature_c = temp_u8(prm.u8_at(6));
        ie.vendor_trip_temperature_c = temp_u8(prm.u8_at(7));
        ie.vendor_max_temperature_c = temp_u8(prm.u8_at(8));
    }
    if let (Some(a), Some(q)) = (ie.asc, ie.ascq) {
        ie.description = Some(crate::sense::asc_description(a, q));
        ie.failure_predicted = a == 0x5d;
    }
    ie
}
