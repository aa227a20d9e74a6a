//! The ATA data structures of the virtual SATA drive, built from its live state so they follow
//! the workload like the SAS profiles' log pages do: IDENTIFY DEVICE (ACS-4 7.12, with the
//! Security word 128 and Sanitize word 59), SMART READ DATA/THRESHOLDS, and the logs READ LOG
//! EXT returns (directory 00h, Device Statistics 04h, Extended self-test 07h, NCQ error 10h,
//! Current Device Internal Status 24h). Word values for hk4e follow the THNSN8 datasheet where
//! it says (SATA 6 Gb/s, 4 KiB physical sectors, TRIM with zeroes, NCQ depth 32) and otherwise
//! what an ACS-3 SSD reports.

use crate::ata::identify::{put_ata_string, seal_checksum};
use crate::ata::log::address;
use crate::sim::drive::Drive;
use crate::sim::profile::Profile;

fn put(b: &mut [u8], word: usize, v: u16) {
    b[2 * word..2 * word + 2].copy_from_slice(&v.to_le_bytes());
}

/// IDENTIFY DEVICE data of the drive now.
pub fn identify(p: &Profile, d: &Drive) -> Vec<u8> {
    let mut b = vec![0u8; 512];
    let sectors = d.num_blocks;
    let s = &d.ata;
    put(&mut b, 0, 0x0040); // fixed device, ATA
    put(&mut b, 1, 16383);
    put(&mut b, 3, 16);
    put(&mut b, 6, 63);
    put_ata_string(&mut b, 10, 10, &d.serial);
    put_ata_string(&mut b, 23, 4, p.revision);
    put_ata_string(&mut b, 27, 20, p.ata_model);
    put(&mut b, 47, 0x8010); // READ/WRITE MULTIPLE: 16 sectors
    put(&mut b, 48, 0x4000); // no Trusted Computing feature set
    put(&mut b, 49, 0x2F00); // LBA, DMA, IORDY, standby timer values
    put(&mut b, 53, 0x0007);
    // Word 59: multiple sector setting valid (16) and the Sanitize feature set (bits 15-11).
    let sz = p.sanitize;
    let w59 = 0x0110
        | (u16::from(sz.any()) << 12)
        | (u16::from(sz.any()) << 11)
        | (u16::from(sz.crypto_erase) << 13)
        | (u16::from(sz.overwrite) << 14)
        | (u16::from(sz.block_erase) << 15);
    put(&mut b, 59, w59);
    let s28 = sectors.min(0x0FFF_FFFF) as u32;
    put(&mut b, 60, s28 as u16);
    put(&mut b, 61, (s28 >> 16) as u16);
    put(&mut b, 63, 0x0407);
    put(&mut b, 64, 0x0003);
    for w in 65..=68 {
        put(&mut b, w, 0x0078);
    }
    put(&mut b, 69, 0x4020); // deterministic read after TRIM, returns zeroes
    put(&mut b, 75, 0x001F); // queue depth 32
    put(&mut b, 76, 0x050E); // SATA 1.5/3/6 Gb/s, NCQ, phy event counters
    put(&mut b, 77, 0x0006); // current speed 6.0 Gb/s
    put(&mut b, 78, 0x0040);
    put(&mut b, 79, 0x0040);
    put(&mut b, 80, 0x07E0); // ATA/ATAPI-5 .. ACS-3
                             // 82/85: SMART, Security, power management, write cache, look-ahead, buffers, NOP.
    put(&mut b, 82, 0x706B);
    put(&mut b, 83, 0x7400); // 48-bit, FLUSH CACHE (EXT)
    put(&mut b, 84, 0x4163); // SMART error/self-test logs, GPL, FUA, WWN
    let wce = if d.mode.wce { 0x0020 } else { 0 };
    let sec_enabled = if s.enabled() { 0x0002 } else { 0 };
    put(&mut b, 85, 0x7049 | wce | sec_enabled);
    put(&mut b, 86, 0xB400);
    put(&mut b, 87, 0x4163);
    put(&mut b, 88, 0x407F); // UDMA 0-6 supported, UDMA6 selected
                             // Security erase times: extended format (bit 15), minutes/2 in 14:0.
                             // Normal erase writes every block (one overwrite pass); enhanced is a block erase (the
                             // durations sim/src/sim/cmd/ata.rs uses).
    let normal_min = p.overwrite_pass_secs().div_ceil(60).clamp(2, 0xFFFE);
    let enhanced_min = u64::from(p.block_erase_secs).div_ceil(60).clamp(2, 0xFFFE);
    put(&mut b, 89, 0x8000 | (normal_min / 2) as u16);
    put(&mut b, 90, 0x8000 | (enhanced_min / 2) as u16);
    put(&mut b, 92, 0xFFFE);
    for (i, w) in (100..104).enumerate() {
        put(&mut b, w, (sectors >> (16 * i)) as u16);
    }
    // Word 106: multiple logical per physical (bit 13), 2^n logical sectors per physical.
    let per = (p.physical_block_len / d.lb_len.max(1)).max(1);
    put(&mut b, 106, 0x6000 | per.trailing_zeros() as u16);
    let wwn = d.lu_naa;
    for i in 0..4 {
        put(&mut b, 108 + i, (wwn >> (48 - 16 * i)) as u16);
    }
    put(&mut b, 119, 0x4000);
    put(&mut b, 120, 0x4000);
    // Word 128: supported, enabled, locked, frozen, count expired, enhanced erase, master
    // capability.
    let w128 = 0x0001
        | sec_enabled
        | (u16::from(s.locked) << 2)
        | (u16::from(s.frozen) << 3)
        | (u16::from(s.attempts >= super::MAX_ATTEMPTS) << 4)
        | 0x0020
        | (u16::from(s.master_maximum) << 8);
    put(&mut b, 128, w128);
    put(&mut b, 168, 0x0003); // 2.5 inch
    put(&mut b, 169, 0x0001); // DATA SET MANAGEMENT TRIM
    put(&mut b, 217, 0x0001); // non-rotating
    put(&mut b, 222, 0x107F); // serial transport, SATA 1.0a .. 3.1
    seal_checksum(&mut b);
    b
}

/// Power-on hours.
fn hours(d: &Drive) -> u64 {
    d.power_on_minutes() / 60
}

/// Logical sectors written/read (512-byte units as ACS counts them: "logical sectors").
fn sectors_written(d: &Drive) -> u64 {
    d.stats.host_bytes_written / u64::from(d.lb_len.max(1))
}
fn sectors_read(d: &Drive) -> u64 {
    d.stats.host_bytes_read / u64::from(d.lb_len.max(1))
}

/// SMART READ DATA (attributes follow the drive's counters) and THRESHOLDS.
pub fn smart(p: &Profile, d: &Drive) -> (Vec<u8>, Vec<u8>) {
    let used = u64::from(d.endurance_used(p));
    let life_left = 100u64.saturating_sub(used).max(1) as u8;
    let t = d.temperature(p);
    let (tmin, tmax) = (
        d.ata.min_temp_c.unwrap_or(t).min(t),
        d.ata.max_temp_c.unwrap_or(t).max(t),
    );
    let pending = d.faults.medium_errors.len() as u64;
    let uncorrected = d.read_errors.uncorrected;
    let entries: Vec<(u8, u16, u8, u8, u64)> = vec![
        (1, 0x000B, 100, 100, 0),
        (5, 0x0033, 100, 100, 0),
        (9, 0x0032, 100, 100, hours(d)),
        (12, 0x0032, 100, 100, d.stats.start_stop_cycles),
        (173, 0x0032, life_left, life_left, d.wear_pe.round() as u64),
        (187, 0x0032, 100, 100, uncorrected),
        (
            194,
            0x0022,
            100u8.saturating_sub(t),
            100u8.saturating_sub(tmax),
            u64::from(t) | u64::from(tmin) << 16 | u64::from(tmax) << 32,
        ),
        (197, 0x0032, 100, 100, pending),
        (199, 0x0032, 100, 100, d.ata.crc_errors),
        (231, 0x0013, life_left, life_left, used),
        (241, 0x0032, 100, 100, sectors_written(d)),
        (242, 0x0032, 100, 100, sectors_read(d)),
    ];
    // Self-test status at byte 363 (0 = completed without error), polling minutes 372/373.
    let st = match d.self_test {
        Some(_) => 0xF0,
        None => d
            .self_tests
            .first()
            .map_or(0, |r| if r.result == 0 { 0 } else { 0x70 }),
    };
    let data = crate::ata::smart::build(
        0x0010,
        &entries,
        &[
            (362, 0x82),
            (363, st),
            (367, 0x7B), // off-line capabilities
            (368, 0x03), // SMART capabilities: autosave, save on standby
            (370, 0x01), // error logging supported
            (372, 1),
            (373, 2),
        ],
    );
    let th = crate::ata::smart::build_thresholds(0x0010, &[(1, 50), (5, 10), (173, 0), (231, 10)]);
    (data, th)
}

/// Log directory (log 00h): pages per log address.
pub fn directory() -> Vec<u8> {
    let mut b = vec![0u8; 512];
    b[0] = 1;
    for (a, n) in [
        (address::DEVICE_STATISTICS, 8u16),
        (address::EXT_SELF_TEST, 1),
        (address::NCQ_COMMAND_ERROR, 1),
        (address::CURRENT_DEVICE_INTERNAL_STATUS, 1),
    ] {
        b[2 * usize::from(a)..2 * usize::from(a) + 2].copy_from_slice(&n.to_le_bytes());
    }
    b
}

/// SMART log directory (SMART READ LOG 00h): only the SMART self-test log (06h).
pub(crate) fn smart_directory() -> Vec<u8> {
    let mut b = vec![0u8; 512];
    b[0] = 1;
    b[2 * usize::from(address::SMART_SELF_TEST)] = 1;
    b
}

/// Device Statistics pages this drive supports.
pub(crate) const STAT_PAGES: &[u8] = &[0, 1, 4, 5, 6, 7];

fn stat(b: &mut [u8], off: usize, v: u64) {
    let v = v & 0xFFFF_FFFF_FFFF;
    b[off..off + 6].copy_from_slice(&v.to_le_bytes()[..6]);
    b[off + 7] = 0xC0; // supported, valid
}

/// One page of the Device Statistics log (04h).
pub fn device_statistics(p: &Profile, d: &Drive, page: u8) -> Option<Vec<u8>> {
    if !STAT_PAGES.contains(&page) {
        return None;
    }
    let mut b = vec![0u8; 512];
    b[0] = 1;
    b[2] = page;
    match page {
        0 => {
            b[8] = STAT_PAGES.len() as u8;
            b[9..9 + STAT_PAGES.len()].copy_from_slice(STAT_PAGES);
        }
        1 => {
            stat(&mut b, 0x08, d.stats.start_stop_cycles + 1);
            stat(&mut b, 0x10, hours(d));
            stat(&mut b, 0x18, sectors_written(d));
            stat(&mut b, 0x20, d.stats.write_cmds);
            stat(&mut b, 0x28, sectors_read(d));
            stat(&mut b, 0x30, d.stats.read_cmds);
            stat(&mut b, 0x38, d.now_ns / 1_000_000);
        }
        4 => {
            stat(
                &mut b,
                0x08,
                d.read_errors.uncorrected + d.write_errors.uncorrected,
            );
            stat(&mut b, 0x10, 0);
        }
        5 => {
            let t = d.temperature(p);
            let tmax = d.ata.max_temp_c.unwrap_or(t).max(t);
            let tmin = d.ata.min_temp_c.unwrap_or(t).min(t);
            stat(&mut b, 0x08, u64::from(t));
            stat(&mut b, 0x20, u64::from(tmax));
            stat(&mut b, 0x28, u64::from(tmin));
            stat(&mut b, 0x50, 0);
            stat(&mut b, 0x58, u64::from(p.trip_temp_c));
            stat(&mut b, 0x60, 0);
            stat(&mut b, 0x68, 0);
        }
        6 => {
            stat(&mut b, 0x08, d.stats.start_stop_cycles + 1);
            stat(&mut b, 0x18, d.ata.crc_errors);
        }
        _ => {
            stat(&mut b, 0x08, u64::from(d.endurance_used(p)));
        }
    }
    Some(b)
}

/// Extended SMART self-test log (07h), from the drive's self-test results (SEND DIAGNOSTIC
/// through the SATL, or SMART EXECUTE OFF-LINE IMMEDIATE).
pub(crate) fn ext_self_test(d: &Drive) -> Vec<u8> {
    // d.self_tests is most recent first; the log wants oldest first.
    let entries: Vec<(u8, u8, u16, u64)> = d
        .self_tests
        .iter()
        .rev()
        .map(|r| {
            let test = match r.code {
                1 | 5 => 1,
                _ => 2,
            };
            let status = match r.result {
                0 => 0,
                1 | 2 => r.result,
                7 => 7,
                x => x.min(8),
            };
            let lba = if r.lba == u64::MAX {
                0xFFFF_FFFF_FFFF
            } else {
                r.lba
            };
            (test, status, r.hours, lba)
        })
        .collect();
    crate::ata::log::build_ext_self_test(&entries)
}

/// SMART self-test log (06h): same entries in the 24-byte SMART layout.
pub(crate) fn smart_self_test(d: &Drive) -> Vec<u8> {
    let mut b = vec![0u8; 512];
    b[0] = 1;
    let list: Vec<_> = d.self_tests.iter().rev().collect();
    let tail = &list[list.len().saturating_sub(21)..];
    for (i, r) in tail.iter().enumerate() {
        let o = 2 + 24 * i;
        b[o] = if r.code == 1 || r.code == 5 { 1 } else { 2 };
        b[o + 1] = r.result.min(8) << 4;
        b[o + 2..o + 4].copy_from_slice(&r.hours.to_le_bytes());
        let lba = if r.lba == u64::MAX {
            0xFFFF_FFFF
        } else {
            r.lba as u32
        };
        b[o + 5..o + 9].copy_from_slice(&lba.to_le_bytes());
    }
    b[508] = tail.len() as u8;
    let sum = b[..511].iter().fold(0u8, |a, x| a.wrapping_add(*x));
    b[511] = 0u8.wrapping_sub(sum);
    b
}

/// NCQ Command Error log (10h): nothing recorded (NQ=1 per ACS-4 when no NCQ error).
pub(crate) fn ncq_error() -> Vec<u8> {
    let mut b = vec![0u8; 512];
    b[0] = 0x80;
    let sum = b[..511].iter().fold(0u8, |a, x| a.wrapping_add(*x));
    b[511] = 0u8.wrapping_sub(sum);
    b
}

/// Current Device Internal Status log (24h) page 0: header only, no data areas.
pub(crate) fn internal_status(p: &Profile) -> Vec<u8> {
    let mut b = vec![0u8; 512];
    b[0] = 0x24;
    b[4..8].copy_from_slice(&p.oui.to_le_bytes());
    b
}
