//! A SATA drive behind a SATL (the virtual HK4E) through ATA PASS-THROUGH, end to
//! end: the SATL's answers as hdparm/smartctl expect them (CK_COND data + registers), the
//! Security state machine, ATA sanitize with progress surviving a power cycle, `sgctl health`
//! from the ATA side following a workload, `sgctl sanitize --method auto` with verification,
//! and the refusal of a frozen drive with the advice.

use serde_json::Value;
use sgctl::ata::{self, SecurityBlock};
use sgctl::cmd::run_out;
use sgctl::ops::health;
use sgctl::scsi::ata_pass_through::{parse_registers, AtaCommand, CdbSize, Protocol};
use sgctl::scsi::read_write::{Read16Cdb, Write16Cdb};
use sgctl::transport::{check, DataBuf, Transport, DEFAULT_TIMEOUT};
use sgctl::Error;
use std::time::{Duration, SystemTime};

const SERIAL: &str = "SATA0001";

fn spec(state: &std::path::Path) -> String {
    format!(
        "hk4e?clock=virtual&capacity_blocks=16384&serial={SERIAL}&state={}",
        state.display()
    )
}

fn write_marker(t: &mut dyn Transport, lba: u64) {
    let data: Vec<u8> = (0..512u32)
        .map(|i| (i as u8) ^ (lba as u8) ^ 0x5a)
        .collect();
    let c = t
        .execute(
            &Write16Cdb::new(lba, 1).build(),
            DataBuf::Out(&data),
            DEFAULT_TIMEOUT,
        )
        .unwrap();
    check(&c).unwrap();
}

fn read_block(t: &mut dyn Transport, lba: u64) -> Vec<u8> {
    let mut b = vec![0u8; 512];
    let c = t
        .execute(
            &Read16Cdb::new(lba, 1).build(),
            DataBuf::In(&mut b),
            DEFAULT_TIMEOUT,
        )
        .unwrap();
    check(&c).unwrap();
    b
}

fn sgctl(args: &[&str], envs: &[(&str, &str)]) -> (i32, Value, String) {
    let mut c = crate::util::sgctl_cmd();
    c.arg("--json").args(args);
    for (k, v) in envs {
        c.env(k, v);
    }
    let out = c.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        serde_json::from_slice(&out.stdout).unwrap_or(Value::Null),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn ck_cond_returns_identify_data_and_registers_like_libata() {
    // hdparm sets CK_COND on every command: the SATL must return the 512 bytes AND a
    // CHECK CONDITION with RECOVERED ERROR 00/1D and the ATA Status Return descriptor.
    let mut d = sgctl::sim::open("hk4e?capacity_blocks=16384").unwrap();
    let c = AtaCommand::new(0xEC, Protocol::PioDataIn)
        .count(1)
        .ck_cond(true);
    let mut buf = vec![0u8; 512];
    let comp = d
        .execute(&c.cdb16(), DataBuf::In(&mut buf), DEFAULT_TIMEOUT)
        .unwrap();
    assert_eq!(comp.status, 0x02);
    assert_eq!(comp.resid, 0);
    assert_eq!(&comp.sense[..4], &[0x72, 0x01, 0x00, 0x1D]);
    let r = parse_registers(&comp.sense).unwrap();
    assert_eq!(r.status, 0x40);
    let id = ata::identify::parse(&buf).unwrap();
    assert_eq!(id.model, "TOSHIBA THNSN8800PCSE");
    assert_eq!(id.user_addressable_sectors, 16384);
    assert_eq!(id.checksum_valid, Some(true));
    // (12) gives the same bytes; an unknown ATA command is ABRT with registers.
    let twelve = sgctl::cmd::ata::read_identify_raw(&mut d, CdbSize::Twelve).unwrap();
    assert_eq!(twelve, buf);
    let bad = AtaCommand::new(0x99, Protocol::NonData);
    match sgctl::cmd::ata::run(
        &mut d,
        CdbSize::Sixteen,
        &bad,
        DataBuf::None,
        DEFAULT_TIMEOUT,
    ) {
        Err(Error::Ata(e)) => assert_eq!(e.kind.mnemonic(), "ABRT"),
        other => panic!("{other:?}"),
    }
    // A SAS profile has no ATA PASS-THROUGH at all.
    let mut sas = sgctl::sim::open("px02smf080?capacity_blocks=16384").unwrap();
    assert!(matches!(
        sgctl::cmd::ata::read_identify(&mut sas, CdbSize::Sixteen),
        Err(Error::Sense(_))
    ));
}

#[test]
fn security_state_machine() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("d.json");
    let pw = SecurityBlock::new(b"secret-pw", false, false);
    let wrong = SecurityBlock::new(b"wrong", false, false);
    {
        let mut d = sgctl::sim::open(&spec(&state)).unwrap();
        write_marker(&mut d, 7);
        sgctl::cmd::ata::security_out(
            &mut d,
            ata::cmd::SECURITY_SET_PASSWORD,
            &pw,
            sgctl::cmd::ata::TIMEOUT,
        )
        .unwrap();
        let id = sgctl::cmd::ata::read_identify(&mut d, CdbSize::Sixteen).unwrap();
        assert!(id.security.enabled && !id.security.locked && !id.security.frozen);
        sgctl::cmd::ata::security_none(&mut d, ata::cmd::SECURITY_FREEZE_LOCK).unwrap();
        assert!(
            sgctl::cmd::ata::read_identify(&mut d, CdbSize::Sixteen)
                .unwrap()
                .security
                .frozen
        );
        // Frozen: ERASE PREPARE / ERASE UNIT abort.
        assert!(matches!(
            sgctl::cmd::ata::security_none(&mut d, ata::cmd::SECURITY_ERASE_PREPARE),
            Err(Error::Ata(_))
        ));
        // Power cycle: frozen clears, the enabled drive locks.
        d.power_cycle();
        let id = sgctl::cmd::ata::read_identify(&mut d, CdbSize::Sixteen).unwrap();
        assert!(
            id.security.locked && !id.security.frozen,
            "{}",
            id.security_state()
        );
        assert!(matches!(
            sgctl::cmd::ata::security_out(
                &mut d,
                ata::cmd::SECURITY_UNLOCK,
                &wrong,
                sgctl::cmd::ata::TIMEOUT
            ),
            Err(Error::Ata(_))
        ));
        sgctl::cmd::ata::security_out(
            &mut d,
            ata::cmd::SECURITY_UNLOCK,
            &pw,
            sgctl::cmd::ata::TIMEOUT,
        )
        .unwrap();
        assert!(
            !sgctl::cmd::ata::read_identify(&mut d, CdbSize::Sixteen)
                .unwrap()
                .security
                .locked
        );
        // ERASE UNIT without a preceding ERASE PREPARE aborts.
        assert!(matches!(
            sgctl::cmd::ata::security_out(
                &mut d,
                ata::cmd::SECURITY_ERASE_UNIT,
                &pw,
                sgctl::cmd::ata::TIMEOUT
            ),
            Err(Error::Ata(_))
        ));
        sgctl::cmd::ata::security_none(&mut d, ata::cmd::SECURITY_ERASE_PREPARE).unwrap();
        let enhanced = SecurityBlock::new(b"secret-pw", false, true);
        sgctl::cmd::ata::security_out(
            &mut d,
            ata::cmd::SECURITY_ERASE_UNIT,
            &enhanced,
            Duration::from_secs(3600),
        )
        .unwrap();
        let id = sgctl::cmd::ata::read_identify(&mut d, CdbSize::Sixteen).unwrap();
        assert!(!id.security.enabled && !id.security.locked);
        assert!(read_block(&mut d, 7).iter().all(|&b| b == 0));
    }
    // The state file holds the drive's credential like flash would; it never reaches the
    // trace: ATA PASS-THROUGH data-out is redacted.
    assert!(sgctl::transport::trace::redact_data_out(&[
        0x85, 0x0B, 0x06
    ]));
}

#[test]
fn ata_sanitize_progress_survives_power_cycle() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("d.json");
    let mut d = sgctl::sim::open(&spec(&state)).unwrap();
    write_marker(&mut d, 3);
    sgctl::cmd::ata::sanitize(
        &mut d,
        ata::sanitize_fn::BLOCK_ERASE,
        0,
        ata::sanitize_fn::BLOCK_ERASE_KEY,
        DEFAULT_TIMEOUT,
    )
    .unwrap();
    d.clock().advance(Duration::from_secs(5));
    let s1 = sgctl::cmd::ata::sanitize_status(&mut d).unwrap();
    assert!(s1.in_progress && s1.progress > 0, "{s1:?}");
    // SCSI commands see NOT READY 04/1B meanwhile; IDENTIFY still works.
    let c = d
        .execute(
            &Read16Cdb::new(0, 1).build(),
            DataBuf::In(&mut [0u8; 512]),
            DEFAULT_TIMEOUT,
        )
        .unwrap();
    let s = sgctl::sense::Sense::parse(&c.sense).unwrap();
    assert_eq!((s.asc, s.ascq), (0x04, 0x1B));
    sgctl::cmd::ata::read_identify(&mut d, CdbSize::Sixteen).unwrap();
    d.power_cycle();
    let s2 = sgctl::cmd::ata::sanitize_status(&mut d).unwrap();
    assert!(
        s2.in_progress && s2.progress >= s1.progress,
        "{s1:?} -> {s2:?}"
    );
    d.clock().advance(Duration::from_secs(60));
    let s3 = sgctl::cmd::ata::sanitize_status(&mut d).unwrap();
    assert!(!s3.in_progress && s3.completed_without_error, "{s3:?}");
    assert!(read_block(&mut d, 3).iter().all(|&b| b == 0));
    // The wrong key is ABRT; SANITIZE FREEZE LOCK then refuses every sanitize.
    assert!(matches!(
        sgctl::cmd::ata::sanitize(
            &mut d,
            ata::sanitize_fn::BLOCK_ERASE,
            0,
            0x1234,
            DEFAULT_TIMEOUT
        ),
        Err(Error::Ata(_))
    ));
    sgctl::cmd::ata::sanitize(&mut d, ata::sanitize_fn::FREEZE_LOCK, 0, 0, DEFAULT_TIMEOUT)
        .unwrap();
    assert!(sgctl::cmd::ata::sanitize_status(&mut d).unwrap().frozen);
    // The SCSI SANITIZE the SATL translates aborts too.
    let c = d
        .execute(
            &[0x48, 0x82, 0, 0, 0, 0, 0, 0, 0, 0],
            DataBuf::None,
            DEFAULT_TIMEOUT,
        )
        .unwrap();
    assert_eq!(
        sgctl::sense::Sense::parse(&c.sense).unwrap().key.code(),
        0x0B
    );
}

/// Writes `mib` MiB with WRITE(16), wrapping over the drive.
fn write_mib(t: &mut dyn Transport, mib: u64, blocks: u64) {
    let per = (1u64 << 20) / 512;
    let buf = vec![0xa5u8; 1 << 20];
    let mut lba = 0;
    for _ in 0..mib {
        if lba + per > blocks {
            lba = 0;
        }
        let mut cdb = [0u8; 16];
        cdb[0] = 0x8a;
        cdb[2..10].copy_from_slice(&lba.to_be_bytes());
        cdb[10..14].copy_from_slice(&(per as u32).to_be_bytes());
        run_out(t, &cdb, &buf, DEFAULT_TIMEOUT).unwrap();
        lba += per;
    }
}

#[test]
fn health_from_the_ata_side_follows_a_workload() {
    let mut d = sgctl::sim::open("hk4e?clock=virtual&capacity_blocks=16384").unwrap();
    d.clock().advance(Duration::from_secs(3600));
    let mut h0 = health::collect(&mut d, "sim:hk4e", SystemTime::now());
    health::assess(&mut h0, &[]);
    assert!(h0.read_errors.is_empty(), "{:?}", h0.read_errors);
    assert_eq!(h0.endurance.power_on_hours, Some(1.0));
    assert!(h0.sources["endurance.used_percent"].contains("page 07h offset 008h"));
    assert!(h0.sources["endurance.bytes_written"].contains("Logical Sectors Written"));
    assert!(h0.sources["temperature.current_c"].contains("Current Temperature"));
    assert_eq!(h0.errors.interface_crc, Some(0));
    let w0 = h0.endurance.bytes_written.unwrap();
    let u0 = h0.endurance.used_percent.unwrap();
    // 8 MiB drive, MLC rated 10,000 P/E cycles with 28 % spare: 1 % of endurance is about
    // 100 drive writes plus the spare area. Write in steps of 40 drive writes until the
    // indicator moves; it must within 400.
    let mut mib = 0;
    let mut h1;
    loop {
        write_mib(&mut d, 8 * 40, 16384);
        mib += 8 * 40;
        d.clock().advance(Duration::from_secs(3600));
        h1 = health::collect(&mut d, "sim:hk4e", SystemTime::now());
        if h1.endurance.used_percent.unwrap() > u0 || mib >= 8 * 400 {
            break;
        }
    }
    health::assess(&mut h1, &[]);
    assert_eq!(h1.endurance.bytes_written.unwrap() - w0, mib << 20);
    assert!(h1.endurance.power_on_hours.unwrap() >= 2.0);
    eprintln!(
        "hk4e: endurance {u0}% -> {}% after {mib} MiB on an 8 MiB drive",
        h1.endurance.used_percent.unwrap()
    );
    let u1 = h1.endurance.used_percent.unwrap();
    assert!(u1 > u0, "endurance {u0}% -> {u1}%");
    assert!(h1.endurance.remaining_days.is_some());
    assert_eq!(h1.state, health::State::Ok, "{:?}", h1.reasons);
    // Same rules as SCSI drives: a limit under the measured wear breaks bit 4.
    let rule = health::rules::parse_flag(
        health::rules::Bound::Max,
        &format!("endurance_used={}", u1 - 1),
    )
    .unwrap();
    health::assess(&mut h1, &[rule]);
    assert_eq!(h1.exit_bits, health::bits::RULE_BREACHED);
}

#[test]
fn cli_ata_commands_and_inhex_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let addr = format!("sim:{}", spec(&dir.path().join("d.json")));
    let (rc, j, err) = sgctl(&["ata", "identify", &addr], &[]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(j["data"]["model"], "TOSHIBA THNSN8800PCSE");
    assert_eq!(j["data"]["serial_number"], SERIAL);
    assert_eq!(j["data"]["sanitize"]["block_erase"], true);
    let (rc, j, _) = sgctl(&["ata", "smart", &addr], &[]);
    assert_eq!(rc, 0);
    assert_eq!(j["data"]["threshold_exceeded"], false);
    let (rc, j, _) = sgctl(&["ata", "logs", &addr], &[]);
    assert_eq!(rc, 0);
    let pages: Vec<u64> = j["data"]["device_statistics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["page"].as_u64().unwrap())
        .collect();
    assert_eq!(pages, vec![1, 4, 5, 6, 7]);
    // --hex output decodes again with --inhex.
    let out = crate::util::sgctl_cmd()
        .args(["--hex", "ata", "identify", &addr])
        .output()
        .unwrap();
    let hex = dir.path().join("id.hex");
    std::fs::write(&hex, &out.stdout).unwrap();
    let (rc, j2, err) = sgctl(&["ata", "identify", "--inhex", hex.to_str().unwrap()], &[]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(j2["data"]["model"], "TOSHIBA THNSN8800PCSE");
    let fx = format!(
        "{}/fixtures/ata/samsung-870qvo-smart.hex",
        env!("CARGO_MANIFEST_DIR")
    );
    let (rc, j, _) = sgctl(&["ata", "smart", "--inhex", &fx], &[]);
    assert_eq!(rc, 0);
    assert_eq!(j["data"]["smart"]["attributes"][1]["raw"], 1379);
    // A SAS drive is refused with a clear message and exit 7.
    let (rc, _, err) = sgctl(&["ata", "identify", "sim:px02smf080"], &[]);
    assert_eq!(rc, 7, "{err}");
    assert!(err.contains("not an ATA device behind a SATL"), "{err}");
}

#[test]
fn sanitize_auto_purges_with_verification_and_frozen_is_refused_with_advice() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("d.json");
    let audit = dir.path().join("audit.jsonl");
    let addr = format!("sim:{}", spec(&state));
    {
        let mut d = sgctl::sim::open(&spec(&state)).unwrap();
        for lba in [0, 100, 5000, 16383] {
            write_marker(&mut d, lba);
        }
    }
    let audit_env = [("SGCTL_AUDIT_LOG", audit.to_str().unwrap())];
    let (rc, j, err) = sgctl(&["sanitize", "--support", &addr], &[]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(
        j["data"]["drives"][0]["auto_method"],
        "ATA SANITIZE BLOCK ERASE EXT"
    );
    let (rc, j, err) = sgctl(
        &[
            "sanitize",
            &addr,
            "--method",
            "auto",
            "--verify",
            "16",
            "--confirm",
            SERIAL,
        ],
        &audit_env,
    );
    assert_eq!(rc, 0, "{err}\n{j}");
    let rec = &j["data"]["jobs"][0];
    let rec = if rec.is_null() { &j["data"] } else { rec };
    let s = rec.to_string();
    assert!(s.contains("ATA SANITIZE BLOCK ERASE EXT"), "{s}");
    assert!(s.contains("\"purge\""), "{s}");
    assert!(s.contains("\"passed\""), "{s}");
    let audit_text = std::fs::read_to_string(&audit).unwrap();
    assert!(audit_text.contains(SERIAL), "{audit_text}");
    {
        let mut d = sgctl::sim::open(&spec(&state)).unwrap();
        assert!(read_block(&mut d, 100).iter().all(|&b| b == 0));
        // What a BIOS does at boot: freeze both feature sets.
        sgctl::cmd::ata::security_none(&mut d, ata::cmd::SECURITY_FREEZE_LOCK).unwrap();
        sgctl::cmd::ata::sanitize(&mut d, ata::sanitize_fn::FREEZE_LOCK, 0, 0, DEFAULT_TIMEOUT)
            .unwrap();
    }
    let (rc, j, err) = sgctl(
        &["sanitize", &addr, "--method", "auto", "--confirm", SERIAL],
        &audit_env,
    );
    assert_eq!(rc, 6, "{err}\n{j}");
    let all = format!("{err}{j}");
    assert!(all.contains("frozen"), "{all}");
    assert!(all.contains("Hot-plug") && all.contains("suspend"), "{all}");
    // An explicit security erase is refused the same way, and no password ever shows up.
    let (rc, j, err) = sgctl(
        &[
            "sanitize",
            &addr,
            "--method",
            "ata-security-erase",
            "--confirm",
            SERIAL,
        ],
        &[("SGCTL_ATA_PASSWORD", "hunter2-secret"), audit_env[0]],
    );
    assert_eq!(rc, 6, "{err}\n{j}");
    let audit_text = std::fs::read_to_string(&audit).unwrap();
    assert!(!format!("{err}{j}{audit_text}").contains("hunter2"));
}

/// The ATA path (a SATA drive behind a SATL) is validated by the same plans as SANITIZE:
/// `--validate full` hashes the quick sample before, compares it after and reads every block
/// back; a drive that reports the erase done but erased nothing (`noop_sanitize=1`) fails the
/// validation and exits 5.
#[test]
fn ata_sanitize_validate_full_and_an_erase_that_did_nothing() {
    use sgctl::ops::validate::{lbas, Plan};
    let seed = 0x5eed_u64;
    // The first drive of a run: the run's seed mixed with its index (src/cli/sanitize.rs).
    let drive_seed = seed ^ 0x9e37_79b9_7f4a_7c15;
    let sample = lbas(Plan::Full, &[(0, 16384)], drive_seed);
    for fault in ["", "&noop_sanitize=1"] {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("d.json");
        let audit = dir.path().join("audit.jsonl");
        {
            let mut d = sgctl::sim::open(&spec(&state)).unwrap();
            for &lba in &sample {
                write_marker(&mut d, lba);
            }
        }
        let addr = format!("sim:{}{fault}", spec(&state));
        let (rc, j, err) = sgctl(
            &[
                "sanitize",
                &addr,
                "--method",
                "auto",
                "--validate",
                "full",
                "--confirm",
                SERIAL,
            ],
            &[
                ("SGCTL_AUDIT_LOG", audit.to_str().unwrap()),
                (sgctl::ops::validate::SEED_ENV, "5eed"),
            ],
        );
        let rec = &j["data"]["drives"][0];
        let va = &rec["validation"];
        assert!(
            rec["method"].as_str().unwrap_or("").starts_with("ATA "),
            "{j}"
        );
        assert_eq!(va["plan"], "full", "{rec}");
        assert_eq!(va["seed"], format!("{drive_seed:016x}"));
        assert_eq!(va["blocks_sampled"], sample.len());
        assert_eq!(va["blocks_read_after"], 16384, "{va}");
        assert_eq!(va["full_read_unreadable"], 0);
        if fault.is_empty() {
            assert_eq!(rc, 0, "{err}\n{j}");
            assert_eq!(va["result"], "passed", "{rec}");
        } else {
            assert_eq!(rc, 5, "{err}\n{j}");
            assert_eq!(rec["outcome"], "check_failed");
            assert_eq!(va["result"], "failed", "{rec}");
            assert_eq!(rec["verification"]["survived"], sample.len());
        }
    }
}
