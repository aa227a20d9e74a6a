//! ATA logs read with READ LOG EXT (2Fh) / SMART READ LOG (B0h/D5h), ACS-4 clause 9:
//! the General Purpose Log Directory (00h), Device Statistics (04h, every page), the
//! Extended and SMART self-test logs (07h, 06h), the NCQ Command Error log (10h) and the
//! Current Device Internal Status log (24h header). All structures are little endian.

use crate::bytes::{ParseError, ParseResult};
use serde::Serialize;

/// ACS-4 Table 203 log addresses sgctl reads.
pub mod address {
    /// Log directory.
    pub const DIRECTORY: u8 = 0x00;
    /// Device Statistics.
    pub const DEVICE_STATISTICS: u8 = 0x04;
    /// SMART self-test log (SMART READ LOG only).
    pub const SMART_SELF_TEST: u8 = 0x06;
    /// Extended SMART self-test log (GPL).
    pub const EXT_SELF_TEST: u8 = 0x07;
    /// NCQ Command Error log.
    pub const NCQ_COMMAND_ERROR: u8 = 0x10;
    /// Current Device Internal Status data log.
    pub const CURRENT_DEVICE_INTERNAL_STATUS: u8 = 0x24;
}

/// Name of a log address (ACS-4 Table 203).
pub fn log_name(a: u8) -> &'static str {
    match a {
        0x00 => "Log Directory",
        0x01 => "Summary SMART Error log",
        0x02 => "Comprehensive SMART Error log",
        0x03 => "Extended Comprehensive SMART Error log",
        0x04 => "Device Statistics",
        0x06 => "SMART Self-Test log",
        0x07 => "Extended SMART Self-Test log",
        0x08 => "Power Conditions",
        0x09 => "Selective Self-Test log",
        0x0A => "Device Statistics Notification",
        0x0C => "Pending Defects",
        0x0D => "LPS Mis-alignment",
        0x10 => "NCQ Command Error",
        0x11 => "SATA Phy Event Counters",
        0x13 => "SATA NCQ Send and Receive",
        0x18 => "Command Duration Limits",
        0x24 => "Current Device Internal Status",
        0x25 => "Saved Device Internal Status",
        0x30 => "IDENTIFY DEVICE data",
        0x80..=0x9F => "Host Specific",
        0xA0..=0xDF => "Device Vendor Specific",
        0xE0 => "SCT Command/Status",
        0xE1 => "SCT Data Transfer",
        _ => "Reserved",
    }
}

fn need(b: &[u8], n: usize, what: &'static str) -> ParseResult<()> {
    if b.len() < n {
        Err(ParseError::new(
            what,
            format!("{} bytes, need {n}", b.len()),
        ))
    } else {
        Ok(())
    }
}

fn le(b: &[u8], off: usize, n: usize) -> u64 {
    (0..n).fold(0u64, |a, i| {
        a | u64::from(b.get(off + i).copied().unwrap_or(0)) << (8 * i)
    })
}

/// One entry of the log directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DirectoryEntry {
    /// Log address.
    pub address: u8,
    /// Name.
    pub name: &'static str,
    /// Number of 512-byte pages.
    pub pages: u16,
}

/// The General Purpose Log Directory (ACS-4 9.2): word 0 version, word n = pages of log n.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Directory {
    /// Word 0: logging version (0001h).
    pub version: u16,
    /// Logs with at least one page.
    pub logs: Vec<DirectoryEntry>,
}

impl Directory {
    /// Pages of log `a` (0: not supported).
    pub fn pages(&self, a: u8) -> u16 {
        self.logs
            .iter()
            .find(|e| e.address == a)
            .map_or(0, |e| e.pages)
    }
}

/// Parses log 00h.
pub fn parse_directory(b: &[u8]) -> ParseResult<Directory> {
    need(b, 512, "GPL directory")?;
    let logs = (1..=255u8)
        .filter_map(|a| {
            let pages = le(b, 2 * usize::from(a), 2) as u16;
            (pages != 0).then(|| DirectoryEntry {
                address: a,
                name: log_name(a),
                pages,
            })
        })
        .collect();
    Ok(Directory {
        version: le(b, 0, 2) as u16,
        logs,
    })
}

/// One Device Statistics value (ACS-4 9.5: a qword, flags in byte 7).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Statistic {
    /// Log page.
    pub page: u8,
    /// Byte offset in the page.
    pub offset: u16,
    /// ACS-4 name.
    pub name: &'static str,
    /// Value (None when VALID=0).
    pub value: Option<i64>,
    /// Flags: bit 7 supported, 6 valid, 5 normalized, 4 supports DSN, 3 monitored condition
    /// met.
    pub flags: u8,
    /// Bit 5: the value is normalized.
    pub normalized: bool,
    /// Bit 3: the monitored condition is met (a DSN threshold was crossed).
    pub monitored_condition_met: bool,
}

/// A decoded page of the Device Statistics log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StatisticsPage {
    /// Page number.
    pub page: u8,
    /// Name.
    pub name: &'static str,
    /// Header revision.
    pub revision: u16,
    /// Supported statistics.
    pub statistics: Vec<Statistic>,
}

/// Device Statistics page names (ACS-4 Table 230).
pub(crate) fn statistics_page_name(p: u8) -> &'static str {
    match p {
        0 => "List of Supported Device Statistics Pages",
        1 => "General Statistics",
        2 => "Free-Fall Statistics",
        3 => "Rotating Media Statistics",
        4 => "General Errors Statistics",
        5 => "Temperature Statistics",
        6 => "Transport Statistics",
        7 => "Solid State Device Statistics",
        8 => "Zoned Device Statistics",
        0xFF => "Vendor Specific Statistics",
        _ => "Reserved",
    }
}

/// Statistic names (ACS-4 Tables 231-239) and whether the value is a signed byte
/// (temperatures).
pub fn statistic_name(page: u8, offset: u16) -> (&'static str, bool) {
    let n = match (page, offset) {
        (1, 0x08) => "Lifetime Power-On Resets",
        (1, 0x10) => "Power-on Hours",
        (1, 0x18) => "Logical Sectors Written",
        (1, 0x20) => "Number of Write Commands",
        (1, 0x28) => "Logical Sectors Read",
        (1, 0x30) => "Number of Read Commands",
        (1, 0x38) => "Date and Time TimeStamp",
        (1, 0x40) => "Pending Error Count",
        (1, 0x48) => "Workload Utilization",
        (1, 0x50) => "Utilization Usage Rate",
        (1, 0x58) => "Resource Availability",
        (1, 0x60) => "Random Write Resources Used",
        (2, 0x08) => "Number of Free-Fall Events Detected",
        (2, 0x10) => "Overlimit Shock Events",
        (3, 0x08) => "Spindle Motor Power-on Hours",
        (3, 0x10) => "Head Flying Hours",
        (3, 0x18) => "Head Load Events",
        (3, 0x20) => "Number of Reallocated Logical Sectors",
        (3, 0x28) => "Read Recovery Attempts",
        (3, 0x30) => "Number of Mechanical Start Failures",
        (3, 0x38) => "Number of Realloc. Candidate Logical Sectors",
        (3, 0x40) => "Number of High Priority Unload Events",
        (4, 0x08) => "Number of Reported Uncorrectable Errors",
        (4, 0x10) => "Resets Between Cmd Acceptance and Completion",
        (4, 0x18) => "Physical Element Status Changed",
        (5, 0x08) => "Current Temperature",
        (5, 0x10) => "Average Short Term Temperature",
        (5, 0x18) => "Average Long Term Temperature",
        (5, 0x20) => "Highest Temperature",
        (5, 0x28) => "Lowest Temperature",
        (5, 0x30) => "Highest Average Short Term Temperature",
        (5, 0x38) => "Lowest Average Short Term Temperature",
        (5, 0x40) => "Highest Average Long Term Temperature",
        (5, 0x48) => "Lowest Average Long Term Temperature",
        (5, 0x50) => "Time in Over-Temperature",
        (5, 0x58) => "Specified Maximum Operating Temperature",
        (5, 0x60) => "Time in Under-Temperature",
        (5, 0x68) => "Specified Minimum Operating Temperature",
        (6, 0x08) => "Number of Hardware Resets",
        (6, 0x10) => "Number of ASR Events",
        (6, 0x18) => "Number of Interface CRC Errors",
        (7, 0x08) => "Percentage Used Endurance Indicator",
        _ => "Unknown statistic",
    };
    // Temperature statistics (except the two "time in" counters) are signed 8-bit values.
    let signed = page == 5 && !matches!(offset, 0x50 | 0x60);
    (n, signed)
}

/// Parses one page (512 bytes) of log 04h. Page 0 is the list and has no statistics.
pub fn parse_statistics_page(b: &[u8]) -> ParseResult<StatisticsPage> {
    need(b, 512, "Device Statistics page")?;
    let page = b[2];
    let mut statistics = Vec::new();
    if page != 0 {
        for off in (8..512).step_by(8) {
            let flags = b[off + 7];
            if flags & 0x80 == 0 {
                continue;
            }
            let (name, signed) = statistic_name(page, off as u16);
            let raw = le(b, off, 6);
            let value = (flags & 0x40 != 0).then(|| match (page, off) {
                _ if signed => i64::from(b[off] as i8),
                // 32-bit counter; one-byte percentage.
                (1, 0x08) => le(b, off, 4) as i64,
                (7, 0x08) => i64::from(b[off]),
                _ => raw as i64,
            });
            statistics.push(Statistic {
                page,
                offset: off as u16,
                name,
                value,
                flags,
                normalized: flags & 0x20 != 0,
                monitored_condition_met: flags & 0x08 != 0,
            });
        }
    }
    Ok(StatisticsPage {
        page,
        name: statistics_page_name(page),
        revision: le(b, 0, 2) as u16,
        statistics,
    })
}

/// Page 0 of log 04h: the pages the device supports (byte 8 = count, bytes 9.. = numbers).
pub(crate) fn parse_statistics_list(b: &[u8]) -> ParseResult<Vec<u8>> {
    need(b, 512, "Device Statistics page 0")?;
    let n = usize::from(b[8]).min(512 - 9);
    Ok(b[9..9 + n].to_vec())
}

/// Finds a statistic in decoded pages.
pub fn find_stat(pages: &[StatisticsPage], page: u8, offset: u16) -> Option<i64> {
    pages
        .iter()
        .find(|p| p.page == page)?
        .statistics
        .iter()
        .find(|s| s.offset == offset)?
        .value
}

/// One self-test log entry (both logs).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SelfTestEntry {
    /// Test number (content of LBA 7:0 of SMART EXECUTE OFF-LINE IMMEDIATE): 1 short,
    /// 2 extended, 3 conveyance, 4 selective; +128 captive.
    pub test: u8,
    /// Test in words.
    pub test_name: &'static str,
    /// Self-test execution status (bits 7-4): 0 completed without error, 1 aborted by host,
    /// 2 interrupted by reset, 3 fatal error, 4 unknown failure, 5 electrical, 6 servo/seek,
    /// 7 read failure, 8 handling damage, 15 in progress.
    pub status: u8,
    /// Status in words.
    pub status_name: &'static str,
    /// Power-on hours at completion (life timestamp).
    pub power_on_hours: u16,
    /// LBA of the first failure.
    pub failing_lba: Option<u64>,
    /// A failed test (status 3..=8).
    pub failed: bool,
}

fn test_name(t: u8) -> &'static str {
    match t & 0x7F {
        1 => "Short offline",
        2 => "Extended offline",
        3 => "Conveyance offline",
        4 => "Selective offline",
        0 => "Offline",
        _ => "Vendor",
    }
}

/// Self-test execution status name (ACS-4 Table 128).
pub(crate) fn self_test_status_name(s: u8) -> &'static str {
    match s {
        0 => "Completed without error",
        1 => "Aborted by host",
        2 => "Interrupted (host reset)",
        3 => "Fatal or unknown error",
        4 => "Completed: unknown failure",
        5 => "Completed: electrical failure",
        6 => "Completed: servo/seek failure",
        7 => "Completed: read failure",
        8 => "Completed: handling damage",
        15 => "Self-test routine in progress",
        _ => "Reserved",
    }
}

fn entry(test: u8, status_byte: u8, hours: u16, lba: u64, lba_max: u64) -> SelfTestEntry {
    let status = status_byte >> 4;
    let failed = (3..=8).contains(&status);
    SelfTestEntry {
        test,
        test_name: test_name(test),
        status,
        status_name: self_test_status_name(status),
        power_on_hours: hours,
        failing_lba: (failed && lba != lba_max).then_some(lba),
        failed,
    }
}

/// Parses the Extended SMART self-test log (07h) page: byte 0 revision, 2-3 index of the
/// most recent descriptor (1-based, 0 = empty), 19 descriptors of 26 bytes from byte 4.
/// Returns the entries most recent first.
pub fn parse_ext_self_test(b: &[u8]) -> ParseResult<Vec<SelfTestEntry>> {
    need(b, 512, "Extended SMART self-test log")?;
    let index = le(b, 2, 2) as usize;
    if index == 0 {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for k in 0..19 {
        // Walk backwards from the most recent, wrapping inside the page.
        let i = (index + 19 - 1 - k) % 19;
        let d = &b[4 + 26 * i..4 + 26 * (i + 1)];
        if d.iter().all(|&x| x == 0) {
            continue;
        }
        out.push(entry(
            d[0],
            d[1],
            le(d, 2, 2) as u16,
            le(d, 5, 6),
            0xFFFF_FFFF_FFFF,
        ));
    }
    Ok(out)
}

/// Parses the SMART self-test log (06h): 21 descriptors of 24 bytes from byte 2, index of
/// the most recent at byte 508.
pub fn parse_smart_self_test(b: &[u8]) -> ParseResult<Vec<SelfTestEntry>> {
    need(b, 512, "SMART self-test log")?;
    let index = usize::from(b[508]);
    if index == 0 || index > 21 {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for k in 0..21 {
        let i = (index + 21 - 1 - k) % 21;
        let d = &b[2 + 24 * i..2 + 24 * (i + 1)];
        if d.iter().all(|&x| x == 0) {
            continue;
        }
        out.push(entry(
            d[0],
            d[1],
            le(d, 2, 2) as u16,
            le(d, 5, 4),
            0xFFFF_FFFF,
        ));
    }
    Ok(out)
}

/// Builds one Extended self-test log page from entries oldest first (simulator, tests).
pub fn build_ext_self_test(entries: &[(u8, u8, u16, u64)]) -> Vec<u8> {
    let mut b = vec![0u8; 512];
    b[0] = 1;
    let tail = &entries[entries.len().saturating_sub(19)..];
    for (i, &(test, status, hours, lba)) in tail.iter().enumerate() {
        let o = 4 + 26 * i;
        b[o] = test;
        b[o + 1] = status << 4;
        b[o + 2..o + 4].copy_from_slice(&hours.to_le_bytes());
        b[o + 5..o + 11].copy_from_slice(&lba.to_le_bytes()[..6]);
    }
    b[2..4].copy_from_slice(&(tail.len() as u16).to_le_bytes());
    b
}

/// The NCQ Command Error log (10h, ACS-4 9.13).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NcqError {
    /// Byte 0 bit 7 NQ: the error was on a non-queued command (the rest is then invalid).
    pub non_queued: bool,
    /// Byte 0 bits 4-0: tag of the failed NCQ command.
    pub tag: u8,
    /// STATUS.
    pub status: u8,
    /// ERROR.
    pub error: u8,
    /// LBA (47:0).
    pub lba: u64,
    /// COUNT.
    pub count: u16,
    /// Sense key / ASC / ASCQ (bytes 14-16).
    pub sense: (u8, u8, u8),
    /// Nothing recorded (all zero).
    pub empty: bool,
}

/// Parses log 10h.
pub fn parse_ncq_error(b: &[u8]) -> ParseResult<NcqError> {
    need(b, 512, "NCQ Command Error log")?;
    Ok(NcqError {
        non_queued: b[0] & 0x80 != 0,
        tag: b[0] & 0x1F,
        status: b[2],
        error: b[3],
        lba: le(b, 4, 3) | le(b, 8, 3) << 24,
        count: le(b, 12, 2) as u16,
        sense: (b[14], b[15], b[16]),
        empty: b[..256].iter().all(|&x| x == 0),
    })
}

/// Header of the Current Device Internal Status log (24h, ACS-4 9.7.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InternalStatus {
    /// Byte 0: log address (24h).
    pub log_address: u8,
    /// Bytes 4-7: organization ID (IEEE OUI of the vendor).
    pub organization_id: u32,
    /// Bytes 8-9, 10-11, 12-13: last log page of data areas 1-3.
    pub area_last_page: [u16; 3],
    /// Byte 382: saved data is available.
    pub saved_data_available: bool,
    /// Byte 383: saved data generation number.
    pub saved_data_generation: u8,
}

/// Parses page 0 of log 24h.
pub fn parse_internal_status(b: &[u8]) -> ParseResult<InternalStatus> {
    need(b, 512, "Current Device Internal Status log")?;
    Ok(InternalStatus {
        log_address: b[0],
        organization_id: le(b, 4, 4) as u32,
        area_last_page: [le(b, 8, 2) as u16, le(b, 10, 2) as u16, le(b, 12, 2) as u16],
        saved_data_available: b[382] & 1 != 0,
        saved_data_generation: b[383],
    })
}
