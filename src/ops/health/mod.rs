//! `sgctl health`: one normalized health report per drive, judged against qualification rules,
//! with a smartctl-like exit bit mask.
//!
//! Sources per field are named in the struct docs; all come from the log page decoders in
//! [`crate::logpage`], READ CAPACITY and READ DEFECT DATA.

pub mod ata;
pub mod prom;
pub mod read;
pub mod rules;
pub mod smartctl;

use crate::error::{Error, Result};
use crate::logpage::{self, environment, sas, selftest, supported::PageId, LogPage};
use crate::scsi::log_sense::PageControl;
use crate::transport::Transport;
use read::{is_unsupported, read_page};
use rules::{Bound, Rule};
use serde::Serialize;
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Exit status bits of `sgctl health` (OR-ed over all drives). Documented in
/// `sgctl health --help` and the README.
pub mod bits {
    /// The command line or the rules file could not be parsed.
    pub const USAGE: u8 = 1 << 0;
    /// A device could not be opened.
    pub const OPEN_FAILED: u8 = 1 << 1;
    /// A command failed, a listed page could not be read, or a drive timed out.
    pub(crate) const COMMAND_FAILED: u8 = 1 << 2;
    /// A drive is failing: informational exception 5D/xx (failure prediction), temperature at
    /// or above its trip/critical limit, or endurance used at 100% or more.
    pub const FAILING: u8 = 1 << 3;
    /// A qualification rule (`--max`, `--min`, `--rules`) was breached.
    pub const RULE_BREACHED: u8 = 1 << 4;
    /// The self-test log has failed entries.
    pub const SELF_TEST_ERRORS: u8 = 1 << 5;
    /// Uncorrected read/write/verify errors are non-zero.
    pub(crate) const ERROR_COUNTERS: u8 = 1 << 6;
    /// A warning: informational exception 0B/xx or temperature over the operating limit.
    pub const WARNING: u8 = 1 << 7;
}

/// The exit bit mask text, as a literal so `sgctl health --help` can `concat!` it into its
/// constant help text. (Exported for the binary's `--help`; not part of the documented API.)
#[doc(hidden)]
#[macro_export]
macro_rules! exit_help_text {
    () => {
        "\
EXIT STATUS (bit mask, OR-ed over all drives; 0 = every drive read and healthy):
  bit 0 (1)    command line or rules file could not be parsed
  bit 1 (2)    a device could not be opened
  bit 2 (4)    a command failed, a listed log page could not be read, or a drive timed out
  bit 3 (8)    FAILING: informational exception 5D/xx (failure predicted, incl. the 5D/FF
               test), temperature at/over its trip or critical limit, or endurance used >= 100%
  bit 4 (16)   a qualification rule (--max/--min/--rules) was breached
  bit 5 (32)   the self-test log has failed entries
  bit 6 (64)   uncorrected read/write/verify errors are non-zero
  bit 7 (128)  warning: informational exception 0B/xx or temperature over the operating limit
So `failing` is bit 3 and `could not read` is bits 1-2; scripts test them separately."
    };
}

/// Help text for the bit mask (also in the README).
pub const EXIT_HELP: &str = exit_help_text!();

/// Overall state of one drive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum State {
    /// Read and healthy.
    Ok,
    /// Read; warnings (IE 0B/xx, temperature over operating limit, rule breached, error counts).
    Warning,
    /// Read; failure predicted or a hard limit reached.
    Failing,
    /// Could not be opened or read.
    Unreadable,
}

/// Wear, write rate and projection.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Endurance {
    /// Page 0x11 parameter 0001: percentage used endurance indicator.
    pub used_percent: Option<u8>,
    /// Page 0x15 parameter 0000 accumulated power-on minutes / 60.
    pub power_on_hours: Option<f64>,
    /// Bytes written: page 0x02 parameter 0005, else page 0x19 logical blocks received × block length.
    pub bytes_written: Option<u64>,
    /// Where `bytes_written` came from.
    pub bytes_written_source: Option<String>,
    /// READ CAPACITY: blocks × block length.
    pub capacity_bytes: Option<u64>,
    /// bytes_written / capacity / (power_on_hours / 24).
    pub drive_writes_per_day: Option<f64>,
    /// (100 − used) × power_on_hours / used / 24: days left at the observed wear rate, counting
    /// powered-on time only (for a drive powered 24/7 this is calendar days).
    pub remaining_days: Option<f64>,
    /// Today + remaining_days (UTC, YYYY-MM-DD).
    pub projected_wear_out_date: Option<String>,
    /// Why there is no projection, when there is none.
    pub projection_note: Option<String>,
}

/// Temperature against its limits.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct TemperatureHealth {
    /// Page 0x0D parameter 0000, else page 0x2F byte 6.
    pub current_c: Option<i16>,
    /// Page 0x0D parameter 0001 (reference/trip), else page 0x2F byte 7 (vendor).
    pub drive_trip_c: Option<i16>,
    /// Page 0x0D/0x02 high critical limit trigger.
    pub high_critical_limit_c: Option<i16>,
    /// Page 0x0D/0x02 high operating limit trigger.
    pub high_operating_limit_c: Option<i16>,
    /// Page 0x0D/0x01 lifetime maximum.
    pub lifetime_max_c: Option<i16>,
}

/// Defect counts.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct Defects {
    /// READ DEFECT DATA(10) grown list entries.
    pub grown: Option<u64>,
    /// Page 0x15/0x01 pending defect count.
    pub pending: Option<u64>,
    /// Page 0x15 medium scan entries (defects found by background scan).
    pub background_scan_entries: Option<u64>,
    /// Page 0x08 parameter 0003 total new blocks reassigned.
    pub new_blocks_reassigned: Option<u64>,
}

/// Error counters.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct ErrorCounts {
    /// Page 0x03 parameter 0006.
    pub read_uncorrected: Option<u64>,
    /// Page 0x02 parameter 0006.
    pub write_uncorrected: Option<u64>,
    /// Page 0x05 parameter 0006.
    pub verify_uncorrected: Option<u64>,
    /// Page 0x06 parameter 0000.
    pub non_medium: Option<u64>,
    /// SATA interface CRC errors (ATA Device Statistics page 06h, else SMART 199); SATA
    /// drives behind a SATL only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interface_crc: Option<u64>,
}

impl ErrorCounts {
    /// Sum of the uncorrected counters present.
    pub(crate) fn total_uncorrected(&self) -> Option<u64> {
        let v = [
            self.read_uncorrected,
            self.write_uncorrected,
            self.verify_uncorrected,
        ];
        if v.iter().all(Option::is_none) {
            None
        } else {
            Some(v.iter().flatten().fold(0u64, |a, b| a.saturating_add(*b)))
        }
    }
}

/// Self-test summary.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct SelfTestHealth {
    /// Most recent entry.
    pub last: Option<selftest::SelfTestEntry>,
    /// Entries in the log.
    pub entries: usize,
    /// Failed entries.
    pub failed_entries: usize,
}

/// Informational exception state (page 0x2F).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct IeHealth {
    /// IE ASC.
    pub asc: u8,
    /// IE ASCQ.
    pub ascq: u8,
    /// ASC/ASCQ description.
    pub description: String,
    /// ASC 0x5D: failure predicted (5D/FF: the test condition from mode page 0x1C TEST).
    pub failure_predicted: bool,
    /// ASC 0x0B: warning.
    pub warning: bool,
}

/// Per-phy link error counters (page 0x18).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct PhyHealth {
    /// Relative target port (1 = A, 2 = B).
    pub relative_target_port: u16,
    /// Phy identifier.
    pub phy_identifier: u8,
    /// Negotiated rate in words.
    pub negotiated_rate: String,
    /// SAS address of this phy.
    pub sas_address: String,
    /// Attached SAS address.
    pub attached_sas_address: String,
    /// Counters.
    pub invalid_dword_count: Option<u64>,
    /// Counters.
    pub running_disparity_error_count: Option<u64>,
    /// Counters.
    pub loss_of_dword_synchronization: Option<u64>,
    /// Counters.
    pub phy_reset_problem: Option<u64>,
}

/// Start-stop and load cycles (page 0x0E).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct Cycles {
    /// Accumulated start-stop cycles.
    pub start_stop: Option<u64>,
    /// Specified over lifetime.
    pub start_stop_specified: Option<u64>,
    /// Accumulated load-unload cycles.
    pub load_unload: Option<u64>,
    /// Specified over lifetime.
    pub load_unload_specified: Option<u64>,
}

/// One rule's outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RuleResult {
    /// Metric.
    pub metric: String,
    /// Max or min.
    pub bound: Bound,
    /// Limit.
    pub limit: f64,
    /// Measured value (None: the drive does not report it; the rule is not evaluated).
    pub value: Option<f64>,
    /// True when breached.
    pub breached: bool,
}

/// The normalized report for one drive.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct DriveHealth {
    /// Device address.
    pub device: String,
    /// INQUIRY vendor.
    pub vendor: Option<String>,
    /// INQUIRY product.
    pub model: Option<String>,
    /// INQUIRY revision.
    pub revision: Option<String>,
    /// VPD 0x80 serial.
    pub serial: Option<String>,
    /// LU name (NAA from VPD 0x83), lowercase hex.
    pub wwn: Option<String>,
    /// Overall state.
    pub state: State,
    /// Why the state is not ok.
    pub reasons: Vec<String>,
    /// This drive's exit bits (see [`bits`]).
    pub exit_bits: u8,
    /// Wear and projection.
    pub endurance: Endurance,
    /// Temperature.
    pub temperature: TemperatureHealth,
    /// Defects.
    pub defects: Defects,
    /// Error counters.
    pub errors: ErrorCounts,
    /// Self-test log.
    pub self_test: SelfTestHealth,
    /// Informational exceptions (None if page 0x2F is not supported).
    pub informational_exception: Option<IeHealth>,
    /// SAS phys of both ports.
    pub sas_phys: Vec<PhyHealth>,
    /// Cycle counters.
    pub cycles: Cycles,
    /// Rule outcomes.
    pub rules: Vec<RuleResult>,
    /// Pages the drive lists.
    pub supported_pages: Vec<PageId>,
    /// Errors (open failure, failed commands, unreadable pages).
    pub read_errors: Vec<String>,
    /// Decoding notes (malformed or unknown parameters).
    pub notes: Vec<String>,
    /// Enclosure logical identifier of the drive's slot (`/sys/class/enclosure`), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enclosure: Option<String>,
    /// The drive's slot in that enclosure, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slot: Option<u32>,
    /// Where each figure came from, for drives whose report is filled from the ATA side
    /// (SATA behind a SATL): field → source (log, page, offset or SMART attribute).
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub sources: std::collections::BTreeMap<String, String>,
    /// The log pages as read (the supported list first), for `--hex`.
    #[serde(skip)]
    pub raw_pages: Vec<LogPage>,
    /// What was read of the drive's identity and the ATA side, for `--json=smartctl`
    /// ([`smartctl`]).
    #[serde(skip)]
    pub source: smartctl::Sources,
}

impl DriveHealth {
    /// An empty report for `device`.
    pub fn new(device: &str) -> DriveHealth {
        DriveHealth {
            device: device.to_string(),
            vendor: None,
            model: None,
            revision: None,
            serial: None,
            wwn: None,
            state: State::Ok,
            reasons: vec![],
            exit_bits: 0,
            endurance: Endurance::default(),
            temperature: TemperatureHealth::default(),
            defects: Defects::default(),
            errors: ErrorCounts::default(),
            self_test: SelfTestHealth::default(),
            informational_exception: None,
            sas_phys: vec![],
            cycles: Cycles::default(),
            rules: vec![],
            supported_pages: vec![],
            read_errors: vec![],
            notes: vec![],
            enclosure: None,
            slot: None,
            sources: Default::default(),
            raw_pages: vec![],
            source: Default::default(),
        }
    }

    /// A report for a drive that could not be reached at all.
    pub fn unreadable(device: &str, bit: u8, error: String) -> DriveHealth {
        let mut h = DriveHealth::new(device);
        h.state = State::Unreadable;
        h.exit_bits = bit;
        h.reasons.push(error.clone());
        h.read_errors.push(error);
        h
    }

    /// The value of a rule metric (see [`rules::METRICS`]).
    pub fn metric(&self, name: &str) -> Option<f64> {
        let f = |v: Option<u64>| v.map(|x| x as f64);
        let phys = |g: fn(&PhyHealth) -> Option<u64>| {
            let v: Vec<u64> = self.sas_phys.iter().filter_map(g).collect();
            if v.is_empty() {
                None
            } else {
                Some(v.iter().sum::<u64>() as f64)
            }
        };
        match name {
            "endurance_used" => self.endurance.used_percent.map(f64::from),
            "remaining_days" => self.endurance.remaining_days,
            "drive_writes_per_day" => self.endurance.drive_writes_per_day,
            "temperature_c" => self.temperature.current_c.map(f64::from),
            "lifetime_max_temperature_c" => self.temperature.lifetime_max_c.map(f64::from),
            "grown_defects" => f(self.defects.grown),
            "pending_defects" => f(self.defects.pending),
            "uncorrected_errors" => f(self.errors.total_uncorrected()),
            "non_medium_errors" => f(self.errors.non_medium),
            "interface_crc_errors" => f(self.errors.interface_crc),
            "self_test_failures" => {
                if self.supported_pages.iter().any(|p| p.page_code == 0x10)
                    || self.sources.contains_key("self_test")
                {
                    Some(self.self_test.failed_entries as f64)
                } else {
                    None
                }
            }
            "invalid_dwords" => phys(|p| p.invalid_dword_count),
            "running_disparity_errors" => phys(|p| p.running_disparity_error_count),
            "loss_of_dword_sync" => phys(|p| p.loss_of_dword_synchronization),
            "phy_reset_problems" => phys(|p| p.phy_reset_problem),
            "start_stop_cycles" => f(self.cycles.start_stop),
            "load_unload_cycles" => f(self.cycles.load_unload),
            "power_on_hours" => self.endurance.power_on_hours,
            _ => None,
        }
    }
}

/// Pages `health` reads (when the drive lists them).
const HEALTH_PAGES: &[(u8, u8)] = &[
    (0x02, 0),
    (0x03, 0),
    (0x05, 0),
    (0x06, 0),
    (0x08, 0),
    (0x0d, 0),
    (0x0d, 1),
    (0x0d, 2),
    (0x0e, 0),
    (0x10, 0),
    (0x11, 0),
    (0x15, 0),
    (0x15, 1),
    (0x18, 0),
    (0x19, 0),
    (0x2f, 0),
];

/// Reads everything `health` needs from one drive. Never fails: what cannot be read is
/// recorded in `read_errors` (and later turns into exit bit 2).
pub fn collect(t: &mut dyn Transport, device: &str, now: SystemTime) -> DriveHealth {
    let mut h = DriveHealth::new(device);
    match read::identity(t) {
        Ok(id) => {
            h.source.identity = Some(id.clone());
            h.vendor = Some(id.vendor);
            h.model = Some(id.model);
            h.revision = Some(id.firmware).filter(|r| !r.is_empty());
            h.serial = Some(id.serial).filter(|s| !s.is_empty());
            // Health spells the LU designator as smartctl does (`0x5000…`).
            h.wwn = id.wwn.map(|w| match id.lu_name.as_deref() {
                Some(n) if n.starts_with("naa.") || n.starts_with("eui.") => format!("0x{w}"),
                _ => w,
            });
        }
        Err(e) => {
            h.read_errors.push(format!("INQUIRY: {e}"));
            return h;
        }
    }
    let supported = match read::supported_pages(t) {
        Ok((s, lists)) => {
            h.raw_pages = lists;
            s
        }
        Err(e) => {
            h.read_errors
                .push(format!("LOG SENSE supported pages: {e}"));
            return h;
        }
    };
    h.supported_pages = supported.clone();
    let mut pages: Vec<LogPage> = Vec::new();
    for &(pg, sub) in HEALTH_PAGES {
        if !supported
            .iter()
            .any(|p| p.page_code == pg && p.subpage_code == sub)
        {
            continue;
        }
        match read_page(t, pg, sub, PageControl::Cumulative, 0) {
            Ok(p) => {
                for pr in &p.problems {
                    h.notes.push(format!("page 0x{pg:02x},0x{sub:02x}: {pr}"));
                }
                pages.push(p);
            }
            Err(e) => h
                .read_errors
                .push(format!("LOG SENSE page 0x{pg:02x},0x{sub:02x}: {e}")),
        }
    }
    let capacity = match read::capacity(t) {
        Ok((blocks, len)) => Some((blocks, len)),
        Err(e) => {
            h.read_errors.push(format!("READ CAPACITY: {e}"));
            None
        }
    };
    h.source.capacity = capacity;
    match read::grown_defects(t) {
        Ok(g) => h.defects.grown = g,
        Err(e) if is_unsupported(&e) => {}
        Err(e) => h.read_errors.push(format!("READ DEFECT DATA: {e}")),
    }
    fill_from_pages(&mut h, &pages, capacity, now);
    h.raw_pages.extend(pages);
    // SATA behind a SATL: the ATA side has what the SCSI translation lacks.
    if crate::cmd::ata::is_behind_satl(t, h.vendor.as_deref()) {
        let a = ata::read(t, &mut h);
        ata::fill(&mut h, &a, capacity, now);
        h.source.ata_identify = a.identify.clone();
        h.source.ata_smart = a.smart.clone();
        h.source.ata_threshold_exceeded = a.threshold_exceeded;
    }
    h
}

fn find(pages: &[LogPage], pg: u8, sub: u8) -> Option<&LogPage> {
    pages
        .iter()
        .find(|p| p.page_code == pg && p.subpage_code == sub)
}

/// Derives the report fields from decoded pages (pure; unit-tested with fixtures).
pub(crate) fn fill_from_pages(
    h: &mut DriveHealth,
    pages: &[LogPage],
    capacity: Option<(u64, u32)>,
    now: SystemTime,
) {
    let mut notes = Vec::new();
    let n = &mut notes;
    use logpage::{counters, stats};
    if let Some(p) = find(pages, 0x11, 0) {
        h.endurance.used_percent =
            counters::solid_state_media(p, n).percentage_used_endurance_indicator;
    }
    if let Some(p) = find(pages, 0x15, 0) {
        let b = selftest::background_scan(p, n);
        if let Some(s) = &b.status {
            h.endurance.power_on_hours = s.accumulated_power_on_minutes.map(|m| m as f64 / 60.0);
        }
        h.defects.background_scan_entries = Some(b.medium_scan_entries.len() as u64);
    }
    if let Some(p) = find(pages, 0x15, 1) {
        h.defects.pending = selftest::pending_defects(p, n).pending_defect_count;
    }
    if let Some(p) = find(pages, 0x08, 0) {
        h.defects.new_blocks_reassigned = counters::format_status(p, n).total_new_blocks_reassigned;
    }
    for (pg, slot) in [
        (0x03u8, &mut h.errors.read_uncorrected),
        (0x02, &mut h.errors.write_uncorrected),
        (0x05, &mut h.errors.verify_uncorrected),
    ] {
        if let Some(p) = find(pages, pg, 0) {
            *slot = counters::error_counters(p, n).total_uncorrected_errors;
        }
    }
    if let Some(p) = find(pages, 0x06, 0) {
        h.errors.non_medium = counters::non_medium(p, n).non_medium_error_count;
    }
    let block_len = capacity.map(|c| u64::from(c.1));
    h.endurance.capacity_bytes = capacity.map(|(b, l)| b.saturating_mul(u64::from(l)));
    if let Some(w) =
        find(pages, 0x02, 0).and_then(|p| counters::error_counters(p, n).bytes_processed)
    {
        h.endurance.bytes_written = Some(w);
        h.endurance.bytes_written_source =
            Some("page 0x02 parameter 0005 (total bytes processed)".into());
    } else if let (Some(p), Some(bl)) = (find(pages, 0x19, 0), block_len) {
        if let Some(lb) = stats::general_statistics(p, n)
            .statistics
            .and_then(|s| s.logical_blocks_received)
        {
            h.endurance.bytes_written = Some(lb.saturating_mul(bl));
            h.endurance.bytes_written_source =
                Some("page 0x19 logical blocks received × logical block length".into());
        }
    }
    project(&mut h.endurance, now);

    if let Some(p) = find(pages, 0x0d, 0) {
        let t = environment::temperature(p, n);
        h.temperature.current_c = t.current_c.map(i16::from);
        h.temperature.drive_trip_c = t.drive_trip_c.map(i16::from);
    }
    if let Some(p) = find(pages, 0x0d, 1) {
        let e = environment::env_reporting(p, n);
        h.temperature.lifetime_max_c = e
            .temperature
            .first()
            .and_then(|t| t.lifetime_max_c)
            .map(i16::from);
        if h.temperature.current_c.is_none() {
            h.temperature.current_c = e
                .temperature
                .first()
                .and_then(|t| t.temperature_c)
                .map(i16::from);
        }
    }
    if let Some(p) = find(pages, 0x0d, 2) {
        let l = environment::env_limits(p, n);
        if let Some(t) = l.temperature.first() {
            h.temperature.high_critical_limit_c = t.high_critical_trigger_c.map(i16::from);
            h.temperature.high_operating_limit_c = t.high_operating_trigger_c.map(i16::from);
        }
    }
    if let Some(p) = find(pages, 0x2f, 0) {
        let ie = environment::informational_exceptions(p, n);
        if h.temperature.current_c.is_none() {
            h.temperature.current_c = ie.most_recent_temperature_c.map(i16::from);
        }
        if h.temperature.drive_trip_c.is_none() {
            h.temperature.drive_trip_c = ie.vendor_trip_temperature_c.map(i16::from);
        }
        if let (Some(asc), Some(ascq)) = (ie.asc, ie.ascq) {
            h.informational_exception = Some(IeHealth {
                asc,
                ascq,
                description: ie.description.unwrap_or_default(),
                failure_predicted: asc == 0x5d,
                warning: asc == 0x0b,
            });
        }
    }
    if let Some(p) = find(pages, 0x10, 0) {
        let r = selftest::self_test_results(p, n);
        h.self_test = SelfTestHealth {
            last: r.entries.first().cloned(),
            entries: r.entries.len(),
            failed_entries: r.failed_entries,
        };
    }
    if let Some(p) = find(pages, 0x18, 0) {
        for port in sas::protocol_port(p, n).ports {
            for phy in port.phys {
                h.sas_phys.push(PhyHealth {
                    relative_target_port: port.relative_target_port,
                    phy_identifier: phy.phy_identifier,
                    negotiated_rate: phy.negotiated_logical_link_rate_str,
                    sas_address: phy.sas_address,
                    attached_sas_address: phy.attached_sas_address,
                    invalid_dword_count: phy.invalid_dword_count,
                    running_disparity_error_count: phy.running_disparity_error_count,
                    loss_of_dword_synchronization: phy.loss_of_dword_synchronization,
                    phy_reset_problem: phy.phy_reset_problem,
                });
            }
        }
    }
    if let Some(p) = find(pages, 0x0e, 0) {
        let s = environment::start_stop(p, n);
        h.cycles = Cycles {
            start_stop: s.accumulated_start_stop_cycles,
            start_stop_specified: s.specified_cycle_count_over_device_lifetime,
            load_unload: s.accumulated_load_unload_cycles,
            load_unload_specified: s.specified_load_unload_count_over_device_lifetime,
        };
    }
    h.notes.extend(notes);
}

/// Days since 1970-01-01 → (year, month, day) (H. Hinnant's civil_from_days).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// UTC date `days` days after `now`.
pub(crate) fn date_after(now: SystemTime, days: f64) -> String {
    let secs = now
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0) as f64;
    let day = ((secs + days * 86_400.0) / 86_400.0).floor() as i64;
    let (y, m, d) = civil_from_days(day);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Computes drive writes per day and the wear-out projection from the observed rate.
pub(crate) fn project(e: &mut Endurance, now: SystemTime) {
    let poh = e.power_on_hours.filter(|h| *h > 0.0);
    if let (Some(w), Some(cap), Some(h)) = (e.bytes_written, e.capacity_bytes, poh) {
        if cap > 0 {
            e.drive_writes_per_day = Some(w as f64 / cap as f64 / (h / 24.0));
        }
    }
    let (used, h) = match (e.used_percent, poh) {
        (Some(u), Some(h)) => (u, h),
        (None, _) => {
            e.projection_note = Some("no endurance indicator (page 0x11 not reported)".into());
            return;
        }
        (_, None) => {
            e.projection_note = Some(if e.power_on_hours.is_some() {
                "no power-on time accumulated yet: no rate to project".into()
            } else {
                "no power-on time (page 0x15 not reported)".into()
            });
            return;
        }
    };
    if used == 0 {
        e.projection_note =
            Some("no measurable wear yet (endurance indicator 0%): no rate to project".into());
        return;
    }
    let remaining_hours = f64::from(100u8.saturating_sub(used)) * h / f64::from(used);
    let days = remaining_hours / 24.0;
    e.remaining_days = Some(days);
    e.projected_wear_out_date = Some(date_after(now, days));
}

/// Judges a collected report: state, reasons, rules, exit bits.
pub fn assess(h: &mut DriveHealth, rules: &[Rule]) {
    // Idempotent: start from the bits only an unreadable row carries (open failure, timeout).
    let mut bits_set = if h.state == State::Unreadable {
        h.exit_bits & (bits::OPEN_FAILED | bits::COMMAND_FAILED)
    } else {
        0
    };
    h.reasons.clear();
    let mut failing = Vec::new();
    let mut warnings = Vec::new();
    if !h.read_errors.is_empty() && bits_set & bits::OPEN_FAILED == 0 {
        bits_set |= bits::COMMAND_FAILED;
    }
    if let Some(ie) = &h.informational_exception {
        if ie.failure_predicted {
            failing.push(format!(
                "informational exception {:02X}/{:02X}: {}",
                ie.asc, ie.ascq, ie.description
            ));
        } else if ie.warning {
            warnings.push(format!(
                "informational exception {:02X}/{:02X}: {}",
                ie.asc, ie.ascq, ie.description
            ));
        }
    }
    let t = &h.temperature;
    // The WARNING bit: temperature over the operating limit (set where it is found, not
    // read back from the message).
    let mut over_operating_limit = false;
    if let Some(cur) = t.current_c {
        let hard = [
            ("trip", t.drive_trip_c),
            ("high critical limit", t.high_critical_limit_c),
        ];
        if let Some((name, lim)) = hard
            .iter()
            .find_map(|(n, l)| l.filter(|l| cur >= *l).map(|l| (*n, l)))
        {
            failing.push(format!(
                "temperature {cur} °C at or above its {name} ({lim} °C)"
            ));
        } else if let Some(lim) = t.high_operating_limit_c.filter(|l| cur > *l) {
            over_operating_limit = true;
            warnings.push(format!(
                "temperature {cur} °C above the operating limit ({lim} °C)"
            ));
        }
    }
    if let Some(u) = h.endurance.used_percent.filter(|u| *u >= 100) {
        failing.push(format!("endurance used {u}% (rated life reached)"));
    }
    if h.self_test.failed_entries > 0 {
        bits_set |= bits::SELF_TEST_ERRORS;
        warnings.push(format!(
            "{} failed self-test(s) in the log",
            h.self_test.failed_entries
        ));
    }
    if let Some(u) = h.errors.total_uncorrected().filter(|u| *u > 0) {
        bits_set |= bits::ERROR_COUNTERS;
        warnings.push(format!("{u} uncorrected read/write/verify error(s)"));
    }
    h.rules = rules
        .iter()
        .map(|r| {
            let value = h.metric(&r.metric);
            RuleResult {
                metric: r.metric.clone(),
                bound: r.bound,
                limit: r.limit,
                value,
                breached: value.is_some_and(|v| r.breached_by(v)),
            }
        })
        .collect();
    for r in h.rules.iter().filter(|r| r.breached) {
        bits_set |= bits::RULE_BREACHED;
        warnings.push(format!(
            "rule {} {} {}: measured {}",
            r.metric,
            if r.bound == Bound::Max { "<=" } else { ">=" },
            r.limit,
            r.value.map(|v| format!("{v:.2}")).unwrap_or_default()
        ));
    }
    if !failing.is_empty() {
        bits_set |= bits::FAILING;
    }
    if h.informational_exception
        .as_ref()
        .is_some_and(|i| i.warning)
        || over_operating_limit
    {
        bits_set |= bits::WARNING;
    }
    h.state = if h.state == State::Unreadable || h.vendor.is_none() {
        State::Unreadable
    } else if !failing.is_empty() {
        State::Failing
    } else if !warnings.is_empty() || !h.read_errors.is_empty() {
        State::Warning
    } else {
        State::Ok
    };
    for e in &h.read_errors {
        if !h.reasons.contains(e) {
            h.reasons.push(e.clone());
        }
    }
    h.reasons.extend(failing);
    h.reasons.extend(warnings);
    h.exit_bits = bits_set;
}

/// Opens a device address (the CLI passes [`crate::device::open`]; tests pass fakes).
pub type Opener = Arc<dyn Fn(&str) -> Result<Box<dyn Transport>> + Send + Sync>;

/// Reads many drives in parallel (one thread each) and waits at most `timeout` for all of
/// them together; a drive that has not answered by then gets an "timed out" row (exit bit 2)
/// and its thread is left behind so it cannot stall the report.
pub fn check_many(
    devices: &[String],
    rules: &[Rule],
    timeout: Duration,
    open: Opener,
) -> Vec<DriveHealth> {
    let (tx, rx) = mpsc::channel::<(usize, DriveHealth)>();
    let now = SystemTime::now();
    for (i, dev) in devices.iter().enumerate() {
        let txc = tx.clone();
        let dev = dev.clone();
        let open = Arc::clone(&open);
        let spawned = std::thread::Builder::new()
            .name(format!("health-{i}"))
            .spawn(move || {
                let h = match open(&dev) {
                    Ok(mut t) => collect(t.as_mut(), &dev, now),
                    Err(e) => {
                        DriveHealth::unreadable(&dev, bits::OPEN_FAILED, format!("open: {e}"))
                    }
                };
                let _ = txc.send((i, h));
            });
        if let Err(e) = spawned {
            let _ = tx.send((
                i,
                DriveHealth::unreadable(
                    devices[i].as_str(),
                    bits::COMMAND_FAILED,
                    format!("thread: {e}"),
                ),
            ));
        }
    }
    drop(tx);
    let mut out: Vec<Option<DriveHealth>> = vec![None; devices.len()];
    let deadline = Instant::now() + timeout;
    while out.iter().any(Option::is_none) {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok((i, h)) => out[i] = Some(h),
            Err(_) => break,
        }
    }
    out.into_iter()
        .zip(devices)
        .map(|(h, dev)| {
            let mut h = h.unwrap_or_else(|| {
                DriveHealth::unreadable(
                    dev,
                    bits::COMMAND_FAILED,
                    format!("timed out: no answer within {} s", timeout.as_secs_f64()),
                )
            });
            assess(&mut h, rules);
            h
        })
        .collect()
}

/// Fills [`DriveHealth::enclosure`] and [`DriveHealth::slot`] from the enclosures under
/// `sysroot` (one read of `/sys/class/enclosure` for every drive); virtual drives and drives
/// in no enclosure are left without.
pub fn label_slots(drives: &mut [DriveHealth], sysroot: &std::path::Path) {
    use crate::discover::enclosure;
    let encs = enclosure::enclosures(sysroot);
    if encs.is_empty() {
        return;
    }
    let slots = enclosure::slots_by_device(&encs);
    for d in drives {
        let place = enclosure::hctl_of_node(sysroot, &d.device).and_then(|h| slots.get(&h));
        if let Some(s) = place {
            d.enclosure = Some(s.enclosure_key().to_string());
            d.slot = s.slot;
        }
    }
}

/// SCSI disks for `--all`: `/dev/sgN` whose sysfs peripheral type is 0 (direct access),
/// read from `sysroot` (`/` normally). A missing `/sys/class/scsi_generic` means no disks.
pub fn all_disks(sysroot: &std::path::Path) -> Result<Vec<String>> {
    let dir = sysroot.join("sys/class/scsi_generic");
    let rd = match std::fs::read_dir(&dir) {
        Ok(rd) => rd,
        // No sg driver loaded (or no SCSI subsystem at all): no disks, as `scan` reports it.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io(format!("{}", dir.display()), e)),
    };
    let mut v: Vec<(u32, String)> = Vec::new();
    for ent in rd.flatten() {
        let name = ent.file_name().to_string_lossy().into_owned();
        let Some(n) = name.strip_prefix("sg").and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        let ty = std::fs::read_to_string(ent.path().join("device/type")).unwrap_or_default();
        if ty.trim() == "0" {
            v.push((n, format!("/dev/{name}")));
        }
    }
    v.sort();
    Ok(v.into_iter().map(|(_, d)| d).collect())
}

#[cfg(test)]
mod tests;
