//! 0x19 general statistics and performance, subpages 0x01-0x1F group statistics and 0x20
//! cache memory statistics (SPC-5 7.3.x).
//!
//! Offsets from protocols.md §E.3 and sg3_utils `src/sg_logs.c` `show_stats_perform_pages`,
//! `show_cache_stats_page`. Fields past the end of a short parameter decode as null.

use super::{unknown_param, LogPage, LogParam};
use serde::Serialize;

/// Time interval descriptor: interval = integer × 10^-exponent seconds.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct TimeInterval {
    /// Bytes 4-7: negative exponent.
    pub exponent: Option<u64>,
    /// Bytes 8-11: integer.
    pub integer: Option<u64>,
    /// The interval in seconds, when both are present.
    pub seconds: Option<f64>,
}

fn time_interval(p: &LogParam) -> TimeInterval {
    let exponent = p.be_at(4, 4);
    let integer = p.be_at(8, 4);
    let seconds = match (exponent, integer) {
        (Some(e), Some(i)) if e <= 30 => Some(i as f64 * 10f64.powi(-(e as i32))),
        _ => None,
    };
    TimeInterval {
        exponent,
        integer,
        seconds,
    }
}

/// Parameter 0001 of page 0x19/0x00.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct GeneralStats {
    /// 4-11.
    pub read_commands: Option<u64>,
    /// 12-19.
    pub write_commands: Option<u64>,
    /// 20-27.
    pub logical_blocks_received: Option<u64>,
    /// 28-35.
    pub logical_blocks_transmitted: Option<u64>,
    /// 36-43.
    pub read_command_processing_intervals: Option<u64>,
    /// 44-51.
    pub write_command_processing_intervals: Option<u64>,
    /// 52-59.
    pub weighted_read_write_commands: Option<u64>,
    /// 60-67.
    pub weighted_read_write_processing: Option<u64>,
}

/// Parameter 0004 of page 0x19/0x00: force unit access statistics.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct FuaStats {
    /// 4-11.
    pub read_fua_commands: Option<u64>,
    /// 12-19.
    pub write_fua_commands: Option<u64>,
    /// 20-27.
    pub read_fua_nv_commands: Option<u64>,
    /// 28-35.
    pub write_fua_nv_commands: Option<u64>,
    /// 36-43.
    pub read_fua_processing_intervals: Option<u64>,
    /// 44-51.
    pub write_fua_processing_intervals: Option<u64>,
    /// 52-59.
    pub read_fua_nv_processing_intervals: Option<u64>,
    /// 60-67.
    pub write_fua_nv_processing_intervals: Option<u64>,
}

/// SPC-5 general statistics and performance page (0x19/0x00).
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct GeneralStatistics {
    /// Parameter 0001.
    pub statistics: Option<GeneralStats>,
    /// Parameter 0002 bytes 4-11: idle time intervals.
    pub idle_time_intervals: Option<u64>,
    /// Parameter 0003.
    pub time_interval: Option<TimeInterval>,
    /// Parameter 0004.
    pub fua_statistics: Option<FuaStats>,
}

fn q(p: &LogParam, off: usize) -> Option<u64> {
    p.be_at(off, 8)
}

/// Decodes 0x19/0x00.
pub fn general_statistics(p: &LogPage, notes: &mut Vec<String>) -> GeneralStatistics {
    let mut g = GeneralStatistics::default();
    for prm in &p.params {
        match prm.code {
            1 => {
                g.statistics = Some(GeneralStats {
                    read_commands: q(prm, 4),
                    write_commands: q(prm, 12),
                    logical_blocks_received: q(prm, 20),
                    logical_blocks_transmitted: q(prm, 28),
                    read_command_processing_intervals: q(prm, 36),
                    write_command_processing_intervals: q(prm, 44),
                    weighted_read_write_commands: q(prm, 52),
                    weighted_read_write_processing: q(prm, 60),
                })
            }
            2 => g.idle_time_intervals = q(prm, 4),
            3 => g.time_interval = Some(time_interval(prm)),
            4 => {
                g.fua_statistics = Some(FuaStats {
                    read_fua_commands: q(prm, 4),
                    write_fua_commands: q(prm, 12),
                    read_fua_nv_commands: q(prm, 20),
                    write_fua_nv_commands: q(prm, 28),
                    read_fua_processing_intervals: q(prm, 36),
                    write_fua_processing_intervals: q(prm, 44),
                    read_fua_nv_processing_intervals: q(prm, 52),
                    write_fua_nv_processing_intervals: q(prm, 60),
                })
            }
            _ => unknown_param(notes, "general statistics and performance page", prm),
        }
    }
    g
}

/// Parameter 0001 of a group statistics subpage (0x19/0x01-0x1F).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub(crate) struct GroupStatistics {
    /// Subpage = group number.
    pub group: u8,
    /// 4-11.
    pub read_commands: Option<u64>,
    /// 12-19.
    pub write_commands: Option<u64>,
    /// 20-27.
    pub logical_blocks_received: Option<u64>,
    /// 28-35.
    pub logical_blocks_transmitted: Option<u64>,
    /// 36-43.
    pub read_command_processing_intervals: Option<u64>,
    /// 44-51.
    pub write_command_processing_intervals: Option<u64>,
    /// 52-59.
    pub read_fua_commands: Option<u64>,
    /// 60-67.
    pub write_fua_commands: Option<u64>,
    /// 68-75.
    pub read_fua_nv_commands: Option<u64>,
    /// 76-83.
    pub write_fua_nv_commands: Option<u64>,
    /// 84-91.
    pub read_fua_processing_intervals: Option<u64>,
    /// 92-99.
    pub write_fua_processing_intervals: Option<u64>,
    /// 100-107.
    pub read_fua_nv_processing_intervals: Option<u64>,
    /// 108-115.
    pub write_fua_nv_processing_intervals: Option<u64>,
}

/// Decodes 0x19/0x01-0x1F.
pub(crate) fn group_statistics(p: &LogPage, notes: &mut Vec<String>) -> GroupStatistics {
    let mut g = GroupStatistics {
        group: p.subpage_code,
        ..Default::default()
    };
    for prm in &p.params {
        if prm.code != 1 {
            unknown_param(notes, "group statistics and performance page", prm);
            continue;
        }
        g = GroupStatistics {
            group: p.subpage_code,
            read_commands: q(prm, 4),
            write_commands: q(prm, 12),
            logical_blocks_received: q(prm, 20),
            logical_blocks_transmitted: q(prm, 28),
            read_command_processing_intervals: q(prm, 36),
            write_command_processing_intervals: q(prm, 44),
            read_fua_commands: q(prm, 52),
            write_fua_commands: q(prm, 60),
            read_fua_nv_commands: q(prm, 68),
            write_fua_nv_commands: q(prm, 76),
            read_fua_processing_intervals: q(prm, 84),
            write_fua_processing_intervals: q(prm, 92),
            read_fua_nv_processing_intervals: q(prm, 100),
            write_fua_nv_processing_intervals: q(prm, 108),
        };
    }
    g
}

/// SPC-5 cache memory statistics page (0x19/0x20).
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub(crate) struct CacheStatistics {
    /// 0001.
    pub read_cache_memory_hits: Option<u64>,
    /// 0002.
    pub reads_to_cache_memory: Option<u64>,
    /// 0003.
    pub write_cache_memory_hits: Option<u64>,
    /// 0004.
    pub writes_from_cache_memory: Option<u64>,
    /// 0005: time from last hard reset (in time intervals).
    pub time_from_last_hard_reset: Option<u64>,
    /// 0006.
    pub time_interval: Option<TimeInterval>,
}

/// Decodes 0x19/0x20.
pub(crate) fn cache_statistics(p: &LogPage, notes: &mut Vec<String>) -> CacheStatistics {
    let mut c = CacheStatistics::default();
    for prm in &p.params {
        match prm.code {
            1 => c.read_cache_memory_hits = prm.uint(),
            2 => c.reads_to_cache_memory = prm.uint(),
            3 => c.write_cache_memory_hits = prm.uint(),
            4 => c.writes_from_cache_memory = prm.uint(),
            5 => c.time_from_last_hard_reset = prm.uint(),
            6 => c.time_interval = Some(time_interval(prm)),
            _ => unknown_param(notes, "cache memory statistics page", prm),
        }
    }
    c
}
