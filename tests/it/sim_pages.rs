//! Virtual drive: INQUIRY/VPD, MODE and LOG pages decoded with the project's own parsers
//! (scsi::*, logpage) — the layouts must be exact for them to decode without problems — and
//! log values that move as the drive is used.

use crate::sim_common::*;
use sgctl::logpage;
use sgctl::scsi::{inquiry, mode, read_capacity, vpd};
use sgctl::sim::SimDevice;
use sgctl::transport::Transport;
use std::time::Duration;

const PROFILES: [&str; 5] = ["px02smf080", "px03snf080", "mk4001grzb", "hk4e", "exarray"];

fn spec(p: &str) -> String {
    format!("{p}?clock=virtual&capacity_blocks=8192")
}

fn log_page(d: &mut SimDevice, page: u8, sub: u8) -> logpage::DecodedPage {
    let (c, b) = din(
        d,
        &[0x4D, 0, 0x40 | page, sub, 0, 0, 0, 0xFF, 0xFF, 0],
        65535,
    );
    good(&c);
    let p = logpage::parse(&b).unwrap();
    assert_eq!(be(&b[2..4]) as usize, b.len() - 4, "page {page:#x} length");
    logpage::decode(&p)
}

fn supported_log_pages(d: &mut SimDevice) -> Vec<u8> {
    let (c, b) = din(d, &[0x4D, 0, 0x40, 0, 0, 0, 0, 1, 0, 0], 256);
    good(&c);
    b[4..].to_vec()
}

#[test]
fn every_vpd_page_decodes_with_the_shared_parsers() {
    for p in PROFILES {
        let mut d = open(&spec(p));
        let (_, std) = din(&mut d, &inquiry::InquiryCdb::new(96).build(), 96);
        let s = inquiry::parse(&std).unwrap();
        assert_eq!(
            s.product_identification.trim(),
            sgctl::sim::profile::find(p).unwrap().product
        );
        let (_, list) = din(
            &mut d,
            &sgctl::scsi::inquiry::InquiryCdb::new(255)
                .evpd(true)
                .page_code(0)
                .build(),
            255,
        );
        for &page in &list[4..] {
            let (c, b) = din(
                &mut d,
                &sgctl::scsi::inquiry::InquiryCdb::new(0xFFFF)
                    .evpd(true)
                    .page_code(page)
                    .build(),
                0xFFFF,
            );
            good(&c);
            vpd::decode(&b).unwrap_or_else(|e| panic!("{p} VPD {page:#x}: {e}"));
        }
        let (_, rc) = din(
            &mut d,
            &read_capacity::ReadCapacity16Cdb::new(32).build(),
            32,
        );
        let rc = read_capacity::parse16(&rc).unwrap();
        assert_eq!(rc.lba_count, 8192); // capacity_blocks counts the profile's own block length
    }
}

#[test]
fn every_log_page_decodes_without_problems() {
    for p in PROFILES {
        let mut d = open(&spec(p));
        for page in supported_log_pages(&mut d) {
            let dp = log_page(&mut d, page, 0);
            assert!(
                dp.problems.is_empty(),
                "{p} page {page:#x}: {:?}",
                dp.problems
            );
            assert!(!dp.decoded.is_null(), "{p} page {page:#x} has a decoder");
        }
        let dp = log_page(&mut d, 0, 0xFF);
        assert!(dp.problems.is_empty(), "{:?}", dp.problems);
    }
}

#[test]
fn mode_pages_decode_and_select_changes_them() {
    let mut d = open(&spec("px02smf080"));
    for (cdb, kind) in [
        (
            mode::ModeSense6Cdb::new(0x3F, 255).build().to_vec(),
            mode::HeaderKind::Six,
        ),
        (
            mode::ModeSense10Cdb::new(0x3F, 1024)
                .pc(mode::PageControl::Changeable)
                .llbaa(true)
                .build()
                .to_vec(),
            mode::HeaderKind::Ten,
        ),
    ] {
        let (c, b) = din(&mut d, &cdb, 1024);
        good(&c);
        let m = mode::parse(&b, kind).unwrap();
        let codes: Vec<u8> = m.pages.iter().map(|p| p.page_code).collect();
        assert_eq!(codes, [0x01, 0x08, 0x0A, 0x19, 0x1A, 0x1C]);
        assert_eq!(m.block_descriptors.len(), 1);
    }
    // Set D_SENSE (control page byte 2 bit 2) with MODE SELECT(6), SP=0
    let (_, cur) = din(&mut d, &[0x1A, 0x08, 0x0A, 0, 255, 0], 255);
    let mut pl = cur.clone();
    pl[0] = 0;
    pl[4] &= 0x7F;
    pl[6] |= 0x04;
    good(&dout(&mut d, &[0x15, 0x10, 0, 0, pl.len() as u8, 0], &pl));
    // now autosense is descriptor format, and the other port hears of it (2A/01)
    let c = none(&mut d, &[0xC5, 0, 0, 0, 0, 0]);
    assert_eq!(c.sense[0], 0x72);
    let mut p2 = d.port(2);
    assert_eq!(kcq(&tur(&mut p2)), (6, 0x2A, 0x01));
    // not saved: a power cycle restores fixed format
    d.power_cycle();
    let _ = tur(&mut d);
    assert_eq!(none(&mut d, &[0xC5, 0, 0, 0, 0, 0]).sense[0], 0x70);
    // a bit that is not changeable (control page QERR, byte 3) is 26/00 at that byte
    let mut bad = pl.clone();
    bad[6] &= !0x04;
    bad[7] |= 0x02;
    let s = check(&dout(&mut d, &[0x15, 0x10, 0, 0, bad.len() as u8, 0], &bad));
    assert_eq!(s.asc, 0x26);
    assert!(matches!(
        s.sks,
        Some(sgctl::sense::SenseKeySpecific::FieldPointer {
            cd: false,
            field: 7,
            ..
        })
    ));
    // PS set in MODE SELECT is 26/00; a list cut inside the page is 1A/00
    let mut ps = pl.clone();
    ps[4] |= 0x80;
    assert_eq!(
        check(&dout(&mut d, &[0x15, 0x10, 0, 0, ps.len() as u8, 0], &ps)).asc,
        0x26
    );
    let short = &pl[..8];
    assert_eq!(
        kcq(&dout(&mut d, &[0x15, 0x10, 0, 0, 8, 0], short)),
        (5, 0x1A, 0)
    );
    // unsupported page in MODE SENSE: 24/00
    assert_eq!(
        kcq(&din(&mut d, &[0x1A, 0, 0x07, 0, 255, 0], 255).0),
        (5, 0x24, 0)
    );
}

#[test]
fn log_values_move_with_use() {
    let mut d = open("px03snf080?clock=virtual&capacity_blocks=8192");
    let w0 = log_page(&mut d, 0x02, 0).decoded["bytes_processed"]
        .as_u64()
        .unwrap();
    good(&write10(&mut d, 0, &[7u8; 512 * 64], 512));
    let w1 = log_page(&mut d, 0x02, 0).decoded["bytes_processed"]
        .as_u64()
        .unwrap();
    assert_eq!(w1 - w0, 512 * 64);
    let g = log_page(&mut d, 0x19, 0);
    assert_eq!(
        g.decoded["statistics"]["write_commands"].as_u64(),
        Some(1),
        "{}",
        g.decoded
    );
    // power-on time (page 0x15) follows the drive clock
    d.clock().advance(Duration::from_secs(3 * 3600));
    let bs = log_page(&mut d, 0x15, 0);
    let minutes = bs.decoded["status"]["accumulated_power_on_minutes"].as_u64();
    assert!(matches!(minutes, Some(m) if m >= 180), "{}", bs.decoded);
    // temperature rises under load, falls when idle
    let t_idle = log_page(&mut d, 0x0D, 0).decoded["current_c"]
        .as_u64()
        .unwrap();
    for i in 0..60 {
        good(&write10(&mut d, i * 128, &[i as u8; 512 * 128], 512));
        good(&read10(&mut d, i * 128, 128, 512).0);
    }
    // busy for the same stretch of time: let the activity show
    for _ in 0..2000 {
        good(&read10(&mut d, 0, 2048, 512).0);
    }
    let t_busy = log_page(&mut d, 0x0D, 0).decoded["current_c"]
        .as_u64()
        .unwrap();
    assert!(t_busy > t_idle, "{t_idle} -> {t_busy}");
    d.clock().advance(Duration::from_secs(3600));
    assert_eq!(
        log_page(&mut d, 0x0D, 0).decoded["current_c"]
            .as_u64()
            .unwrap(),
        t_idle
    );
    // endurance used comes from erase counts: block erases wear every block
    let e0 = log_page(&mut d, 0x11, 0).decoded["percentage_used_endurance_indicator"]
        .as_u64()
        .unwrap();
    for _ in 0..8 {
        let c = d
            .execute(
                &[0x48, 0x02, 0, 0, 0, 0, 0, 0, 0, 0],
                sgctl::DataBuf::None,
                Duration::from_secs(600),
            )
            .unwrap();
        good(&c);
    }
    let e1 = log_page(&mut d, 0x11, 0).decoded["percentage_used_endurance_indicator"]
        .as_u64()
        .unwrap();
    assert!(e1 > e0, "{e0} -> {e1}");
    // LOG SELECT PCR=1 resets the error counters
    good(&none(&mut d, &[0x4C, 0x02, 0x40, 0, 0, 0, 0, 0, 0, 0]));
    let w = log_page(&mut d, 0x02, 0).decoded["bytes_processed"]
        .as_u64()
        .unwrap();
    assert_eq!(w, 0);
    // PCR with a parameter list is 24/00
    assert_eq!(
        kcq(&dout(
            &mut d,
            &[0x4C, 0x02, 0x40, 0, 0, 0, 0, 0, 4, 0],
            &[2, 0, 0, 0]
        )),
        (5, 0x24, 0)
    );
}

#[test]
fn log_sense_cdb_handling() {
    let mut d = open(&spec("px02smf080"));
    // allocation length smaller than the page: truncated, page length still full
    let (c, b) = din(&mut d, &[0x4D, 0, 0x42, 0, 0, 0, 0, 0, 8, 0], 8);
    good(&c);
    assert_eq!(b.len(), 8);
    assert_eq!(be(&b[2..4]), 7 * 12);
    // parameter pointer: from code 5 on
    let (_, b) = din(&mut d, &[0x4D, 0, 0x42, 0, 0, 0, 5, 1, 0, 0], 256);
    assert_eq!(be(&b[4..6]), 5);
    assert_eq!(b.len(), 4 + 2 * 12);
    // pointer beyond the last code, unsupported page and subpage, SP=1: 24/00
    for cdb in [
        [0x4D, 0, 0x42, 0, 0, 0, 7, 1, 0, 0],
        [0x4D, 0, 0x47, 0, 0, 0, 0, 1, 0, 0],
        [0x4D, 0, 0x42, 3, 0, 0, 0, 1, 0, 0],
        [0x4D, 1, 0x42, 0, 0, 0, 0, 1, 0, 0],
    ] {
        assert_eq!(kcq(&din(&mut d, &cdb, 256).0), (5, 0x24, 0), "{cdb:02x?}");
    }
    // SAS port page: one parameter per port, code = relative port
    let dp = log_page(&mut d, 0x18, 0);
    let codes: Vec<u16> = dp.parameters.iter().map(|p| p.parameter_code).collect();
    assert_eq!(codes, [1, 2]);
}

#[test]
fn self_tests_are_logged() {
    let mut d = open(&spec("px02smf080"));
    let entries = |d: &mut SimDevice| log_page(d, 0x10, 0).decoded["entries"].clone();
    // background short: in progress (0xF), then passed
    good(&none(&mut d, &[0x1D, 0x20, 0, 0, 0, 0]));
    assert_eq!(entries(&mut d)[0]["result_code"].as_u64(), Some(0x0F));
    good(&tur(&mut d)); // background: other commands go on
    d.clock().advance(Duration::from_secs(31));
    let e = entries(&mut d);
    assert_eq!(
        (
            e[0]["self_test_code"].as_u64(),
            e[0]["result_code"].as_u64()
        ),
        (Some(1), Some(0))
    );
    // extended finds an injected medium error: result 7, first failure LBA, 03/11/00
    d.inject(sgctl::sim::Fault::MediumError(1234));
    good(&none(&mut d, &[0x1D, 0x40, 0, 0, 0, 0]));
    d.clock().advance(Duration::from_secs(121));
    let e = entries(&mut d);
    assert_eq!(e[0]["result_code"].as_u64(), Some(7));
    assert_eq!(e[0]["first_failure_lba"].as_u64(), Some(1234));
    assert_eq!(
        (e[0]["sense_key"].as_u64(), e[0]["asc"].as_u64()),
        (Some(3), Some(0x11))
    );
    // foreground extended: blocks, then HARDWARE ERROR 3E/03
    let c = d
        .execute(
            &[0x1D, 0xC0, 0, 0, 0, 0],
            sgctl::DataBuf::None,
            Duration::from_secs(600),
        )
        .unwrap();
    assert_eq!(kcq(&c), (4, 0x3E, 0x03));
    // abort (code 4) and power cycle end a background test with results 1 and 2
    good(&none(&mut d, &[0x1D, 0x40, 0, 0, 0, 0]));
    good(&none(&mut d, &[0x1D, 0x80, 0, 0, 0, 0]));
    good(&none(&mut d, &[0x1D, 0x20, 0, 0, 0, 0]));
    d.power_cycle();
    let _ = tur(&mut d);
    let e = entries(&mut d);
    assert_eq!(e[0]["result_code"].as_u64(), Some(2));
    assert_eq!(e[1]["result_code"].as_u64(), Some(1));
    // SELFTEST=1 with a code, reserved codes: 24/00
    assert_eq!(kcq(&none(&mut d, &[0x1D, 0x24, 0, 0, 0, 0])), (5, 0x24, 0));
    assert_eq!(kcq(&none(&mut d, &[0x1D, 0x60, 0, 0, 0, 0])), (5, 0x24, 0));
    good(&none(&mut d, &[0x1D, 0x04, 0, 0, 0, 0])); // default self-test
}

#[test]
fn format_status_page_records_the_last_format() {
    let mut d = open(&spec("px02smf080"));
    let f = log_page(&mut d, 0x08, 0).decoded;
    assert!(f["format_data_out"].is_null(), "{f}");
    let c = d
        .execute(
            &[0x04, 0x10, 0, 0, 0, 0],
            sgctl::DataBuf::Out(&[0, 0x80, 0, 0]),
            Duration::from_secs(600),
        )
        .unwrap();
    good(&c);
    d.clock().advance(Duration::from_secs(600));
    let f = log_page(&mut d, 0x08, 0).decoded;
    assert_eq!(f["format_data_out"].as_str(), Some("00800000"), "{f}");
    assert_eq!(f["power_on_minutes_since_format"].as_u64(), Some(10));
}

#[test]
fn heat_and_wear_raise_informational_exceptions() {
    let mut d = open(&spec("px02smf080"));
    let ie = |d: &mut SimDevice| log_page(d, 0x2F, 0).decoded;
    assert_eq!(ie(&mut d)["asc"].as_u64(), Some(0));
    d.inject(sgctl::sim::Fault::Heat(45));
    let v = ie(&mut d);
    assert_eq!(
        (v["asc"].as_u64(), v["ascq"].as_u64()),
        (Some(0x0B), Some(0x01))
    );
    assert_eq!(v["most_recent_temperature_c"].as_u64(), Some(75));
    assert_eq!(
        log_page(&mut d, 0x0D, 0).decoded["current_c"].as_u64(),
        Some(75)
    );
    // MRIE 4 (default) does not report through REQUEST SENSE; MRIE 6 does
    assert_eq!(request_sense(&mut d).asc, 0);
    let (_, cur) = din(&mut d, &[0x1A, 0x08, 0x1C, 0, 255, 0], 255);
    let mut pl = cur.clone();
    pl[0] = 0;
    pl[4] &= 0x7F;
    pl[7] = 6; // MRIE
    good(&dout(&mut d, &[0x15, 0x10, 0, 0, pl.len() as u8, 0], &pl));
    let s = request_sense(&mut d);
    assert_eq!((s.key.code(), s.asc, s.ascq), (0, 0x0B, 0x01));
    // worn out: endurance 100 % and 5D/73 (failure prediction)
    d.inject(sgctl::sim::Fault::Heat(0));
    d.inject(sgctl::sim::Fault::Wear(100));
    assert_eq!(
        log_page(&mut d, 0x11, 0).decoded["percentage_used_endurance_indicator"].as_u64(),
        Some(100)
    );
    let v = ie(&mut d);
    assert_eq!(
        (v["asc"].as_u64(), v["ascq"].as_u64()),
        (Some(0x5D), Some(0x73))
    );
    assert_eq!(v["failure_predicted"].as_bool(), Some(true));
}
