//! `logs` and `health` against the in-process virtual drive (`sim:`), through the same
//! Transport byte boundary as SG_IO: the simulator's pages must decode without problems (it
//! implements protocols.md §E.3), its counters must move as it is written and `health` must
//! follow, a rule breach must flip the exit bits, and an informational exception must be failing.

use sgctl::cmd::{run_out, run_query};
use sgctl::logpage;
use sgctl::ops::health::{self, bits, read, rules, State};
use sgctl::scsi::log_sense::PageControl;
use sgctl::transport::{Transport, DEFAULT_TIMEOUT};
use std::time::{Duration, SystemTime};

const SPEC: &str = "px03snf080?capacity_blocks=16384&serial=HSIM1";

fn open(spec: &str) -> sgctl::sim::SimDevice {
    sgctl::sim::open(spec).expect("open sim")
}

/// Writes `mib` MiB sequentially from LBA 0 (wrapping) with WRITE(16), 1 MiB per command.
fn write_mib(t: &mut dyn Transport, mib: u64, block_len: u32, blocks: u64) {
    let per = (1 << 20) / u64::from(block_len);
    let buf = vec![0xa5u8; 1 << 20];
    let mut lba = 0u64;
    for _ in 0..mib {
        if lba + per > blocks {
            lba = 0;
        }
        let mut cdb = [0u8; 16];
        cdb[0] = 0x8a;
        cdb[2..10].copy_from_slice(&lba.to_be_bytes());
        cdb[10..14].copy_from_slice(&(per as u32).to_be_bytes());
        run_out(t, &cdb, &buf, DEFAULT_TIMEOUT).expect("WRITE(16)");
        lba += per;
    }
}

fn collect(t: &mut dyn Transport) -> health::DriveHealth {
    let mut h = health::collect(t, "sim", SystemTime::now());
    health::assess(&mut h, &[]);
    h
}

#[test]
fn every_sim_page_decodes_cleanly() {
    let mut d = open(SPEC);
    let all = read::read_all(&mut d, PageControl::Cumulative).unwrap();
    assert!(all.errors.is_empty(), "{:?}", all.errors);
    assert!(all.pages.len() >= 10, "only {} pages", all.pages.len());
    for p in &all.pages {
        let dp = logpage::decode(p);
        assert!(
            dp.problems.is_empty(),
            "page 0x{:02x},0x{:02x}: {:?}",
            p.page_code,
            p.subpage_code,
            dp.problems
        );
        assert!(
            !dp.decoded.is_null(),
            "no decoder for 0x{:02x}",
            p.page_code
        );
    }
    // Both SAS ports of the dual-ported profile, one phy each.
    let sas = all.pages.iter().find(|p| p.page_code == 0x18).unwrap();
    let s = logpage::sas::protocol_port(sas, &mut Vec::new());
    assert_eq!(s.ports.len(), 2);
    assert!(s.ports.iter().all(|p| p.phys.len() == 1));
    // 20 self-test parameters, all empty on a new drive.
    let st = all.pages.iter().find(|p| p.page_code == 0x10).unwrap();
    assert_eq!(st.params.len(), 20);
}

#[test]
fn health_follows_a_write_workload() {
    let mut d = open(SPEC);
    let clock = d.clock();
    clock.advance(Duration::from_secs(3600)); // one hour powered on before the workload
    let h0 = collect(&mut d);
    assert_eq!(h0.state, State::Ok, "{:?}", h0.reasons);
    let cap = h0.endurance.capacity_bytes.unwrap();
    let (blocks, bl) = read::capacity(&mut d).unwrap();
    assert_eq!(cap, blocks * u64::from(bl));
    let w0 = h0.endurance.bytes_written.unwrap();
    let u0 = h0.endurance.used_percent.unwrap();

    // Enough full-drive writes to wear the flash by more than 1% of its rated 3000 cycles
    // (measured with this profile and size: 1% after about 50 drive writes, because the
    // media model erases blocks only once the over-provisioned space is used up).
    let drive_mib = cap >> 20;
    let mib = drive_mib * 60;
    write_mib(&mut d, mib, bl, blocks);
    clock.advance(Duration::from_secs(3600));
    let h1 = collect(&mut d);
    // Page 0x02 parameter 5 counts exactly the bytes we sent.
    assert_eq!(h1.endurance.bytes_written.unwrap() - w0, mib << 20);
    let u1 = h1.endurance.used_percent.unwrap();
    assert!(u1 > u0, "endurance {u0}% -> {u1}% after {mib} MiB");
    assert!(h1.endurance.power_on_hours.unwrap() >= 2.0);
    assert!(
        h1.endurance.drive_writes_per_day.unwrap()
            > h0.endurance.drive_writes_per_day.unwrap_or(0.0)
    );
    let r1 = h1
        .endurance
        .remaining_days
        .expect("a projection once wear is measurable");
    assert!(h1.endurance.projected_wear_out_date.is_some());

    // More writes at the same rate: less life left.
    write_mib(&mut d, drive_mib * 70, bl, blocks);
    clock.advance(Duration::from_secs(60));
    let h2 = collect(&mut d);
    assert!(h2.endurance.used_percent.unwrap() > u1);
    assert!(h2.endurance.remaining_days.unwrap() < r1);

    // A qualification rule just under the measured wear flips bit 4.
    let u2 = h2.endurance.used_percent.unwrap();
    let rule = rules::parse_flag(rules::Bound::Max, &format!("endurance_used={}", u2 - 1)).unwrap();
    let mut h = health::collect(&mut d, "sim", SystemTime::now());
    health::assess(&mut h, &[rule]);
    assert_eq!(h.exit_bits, bits::RULE_BREACHED, "{:?}", h.reasons);
    let rule = rules::parse_flag(rules::Bound::Max, &format!("endurance_used={u2}")).unwrap();
    health::assess(&mut h, &[rule]);
    assert_eq!(h.exit_bits, 0);
}

/// Sets or clears the TEST bit of the informational exceptions control mode page (0x1C) with
/// MODE SENSE(10)/MODE SELECT(10).
fn set_ie_test(t: &mut dyn Transport, on: bool) {
    let mut buf = vec![0u8; 64];
    let cdb = [0x5a, 0x08, 0x1c, 0, 0, 0, 0, 0, 64, 0]; // DBD=1, PC=0 current, page 0x1C
    let n = run_query(t, &cdb, &mut buf, DEFAULT_TIMEOUT).unwrap();
    buf.truncate(n);
    let bd_len = usize::from(u16::from_be_bytes([buf[6], buf[7]]));
    let pg = 8 + bd_len;
    assert_eq!(buf[pg] & 0x3f, 0x1c);
    let plen = usize::from(buf[pg + 1]) + 2;
    let mut pl = buf[..pg + plen].to_vec();
    pl[0] = 0;
    pl[1] = 0; // MODE DATA LENGTH is reserved in MODE SELECT
    pl[pg] &= 0x3f; // PS is reserved
    if on {
        pl[pg + 2] |= 0x04;
    } else {
        pl[pg + 2] &= !0x04;
    }
    let len = (pl.len() as u16).to_be_bytes();
    let cdb = [0x55, 0x10, 0, 0, 0, 0, 0, len[0], len[1], 0]; // PF=1
    run_out(t, &cdb, &pl, DEFAULT_TIMEOUT).unwrap();
}

#[test]
fn informational_exception_test_is_failing() {
    let mut d = open(SPEC);
    let h = collect(&mut d);
    assert_eq!(h.exit_bits, 0, "{:?}", h.reasons);
    set_ie_test(&mut d, true);
    let h = collect(&mut d);
    let ie = h.informational_exception.as_ref().unwrap();
    assert_eq!((ie.asc, ie.ascq), (0x5d, 0xff));
    assert_eq!(h.state, State::Failing);
    assert_eq!(h.exit_bits & bits::FAILING, bits::FAILING);
    set_ie_test(&mut d, false);
    let h = collect(&mut d);
    assert_eq!(h.exit_bits, 0, "{:?}", h.reasons);
}

#[test]
fn cli_health_and_logs_on_a_virtual_drive() {
    let exe = env!("CARGO_BIN_EXE_sgctl");
    let out = std::process::Command::new(exe)
        .args(["--json", "health", &format!("sim:{SPEC}")])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["data"]["drives"][0]["serial"], "HSIM1");
    assert_eq!(
        v["data"]["drives"][0]["sas_phys"].as_array().unwrap().len(),
        2
    );
    let out = std::process::Command::new(exe)
        .args(["--json", "logs", &format!("sim:{SPEC}")])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["data"]["pages"].as_array().unwrap().len() >= 10);
    // A rule breach flips the exit status of the CLI too.
    let out = std::process::Command::new(exe)
        .args(["health", &format!("sim:{SPEC}"), "--max", "temperature_c=1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(16));
}

/// SEND DIAGNOSTIC with a SELF-TEST CODE (SPC-5 6.42): 2 = background extended.
fn self_test(t: &mut dyn Transport, code: u8) {
    run_out(t, &[0x1d, code << 5, 0, 0, 0, 0], &[], DEFAULT_TIMEOUT).expect("SEND DIAGNOSTIC");
}

#[test]
fn failed_self_test_is_reported() {
    let mut d = open(&format!("{SPEC}&medium_error=777"));
    let h = collect(&mut d);
    assert_eq!(h.self_test.entries, 0);
    assert_eq!(h.exit_bits & bits::SELF_TEST_ERRORS, 0);
    // A background short self-test passes; a background extended one reads the whole medium
    // and stops at the injected medium error.
    self_test(&mut d, 1);
    d.clock().advance(Duration::from_secs(60));
    self_test(&mut d, 2);
    d.clock().advance(Duration::from_secs(600));
    let h = collect(&mut d);
    assert_eq!(h.self_test.entries, 2, "{:?}", h.self_test);
    assert_eq!(h.self_test.failed_entries, 1);
    let last = h.self_test.last.as_ref().unwrap();
    assert_eq!(last.self_test, "background extended");
    assert!(last.failed);
    assert_eq!(last.first_failure_lba, Some(777));
    assert_eq!((last.sense_key, last.asc, last.ascq), (3, 0x11, 0));
    assert_eq!(h.exit_bits & bits::SELF_TEST_ERRORS, bits::SELF_TEST_ERRORS);
    assert!(
        h.reasons.iter().any(|r| r.contains("failed self-test")),
        "{:?}",
        h.reasons
    );
}
