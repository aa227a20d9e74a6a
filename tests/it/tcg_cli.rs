//! `sgctl tcg ...` end to end against the virtual drive (`sim:` with a state file, one process
//! per command as an admin would run them), plus in-process checks of the data path
//! (DATA PROTECT on locked bands, new key after erase) through the same SimDevice.

use sgctl::scsi::read_write::{Read16Cdb, Write16Cdb};
use sgctl::sense::{Sense, SenseKey};
use sgctl::sim::tcg::tper::psid_for;
use sgctl::transport::{check, DataBuf, Transport};
use std::path::PathBuf;
use std::process::Output;
use std::time::Duration;

const PIN: &str = "Zq7-Known-Test-PIN-4242";

/// A credential file as sgctl accepts it: the caller's, mode 0600.
pub(crate) fn private(p: &std::path::Path, b: &[u8]) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(p, b).unwrap();
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o600)).unwrap();
}

struct Env {
    dir: tempfile::TempDir,
    addr: String,
    serial: String,
    psid: String,
}

impl Env {
    fn new(profile: &str, serial: &str) -> Env {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("drive.json");
        let addr = format!(
            "sim:{profile}?state={}&serial={serial}&capacity_gib=1",
            state.display()
        );
        private(&dir.path().join("pin"), format!("{PIN}\n").as_bytes());
        private(&dir.path().join("wrong"), b"not-the-pin\n");
        Env {
            dir,
            addr,
            serial: serial.into(),
            psid: String::from_utf8(psid_for(serial)).unwrap(),
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn run(&self, args: &[&str]) -> Output {
        let out = crate::util::sgctl_cmd()
            .args(args)
            .env("SGCTL_AUDIT_LOG", self.path("audit.jsonl"))
            .env("TEST_PIN_VAR", PIN)
            .env("SGCTL_TEST_PSID", &self.psid)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert_no_secret(&out, args);
        out
    }

    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "sgctl {args:?} failed: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    fn json(&self, args: &[&str]) -> serde_json::Value {
        let mut a = vec!["--json"];
        a.extend_from_slice(args);
        serde_json::from_str(&self.ok(&a)).unwrap()
    }

    fn pin_file(&self) -> String {
        self.path("pin").display().to_string()
    }

    fn dev(&self) -> sgctl::sim::SimDevice {
        sgctl::sim::open(self.addr.strip_prefix("sim:").unwrap()).unwrap()
    }
}

/// The PIN never shows up in anything sgctl prints, in clear or hex.
fn assert_no_secret(out: &Output, args: &[&str]) {
    let hex: String = PIN.bytes().map(|b| format!("{b:02x}")).collect();
    let spaced: String = PIN
        .bytes()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ");
    for (name, s) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        let s = String::from_utf8_lossy(s).to_lowercase();
        for needle in [
            PIN.to_lowercase(),
            hex.clone(),
            spaced.clone(),
            "known-test".into(),
        ] {
            assert!(
                !s.contains(&needle),
                "{name} of sgctl {args:?} contains the PIN ({needle}):\n{s}"
            );
        }
    }
}

fn read_block(d: &mut dyn Transport, lba: u64) -> Result<Vec<u8>, Sense> {
    // The first command after a power cycle gets UNIT ATTENTION 29/00: retry once.
    match read_once(d, lba) {
        Err(s) if s.key == SenseKey::UnitAttention => read_once(d, lba),
        r => r,
    }
}

fn read_once(d: &mut dyn Transport, lba: u64) -> Result<Vec<u8>, Sense> {
    let mut buf = vec![0u8; 512];
    let c = d
        .execute(
            &Read16Cdb::new(lba, 1).build(),
            DataBuf::In(&mut buf),
            Duration::from_secs(5),
        )
        .unwrap();
    match check(&c) {
        Ok(()) => Ok(buf),
        Err(e) => Err(e.sense().cloned().expect("sense")),
    }
}

fn write_block(d: &mut dyn Transport, lba: u64, fill: u8) -> Result<(), Sense> {
    let buf = vec![fill; 512];
    let c = d
        .execute(
            &Write16Cdb::new(lba, 1).build(),
            DataBuf::Out(&buf),
            Duration::from_secs(5),
        )
        .unwrap();
    check(&c).map_err(|e| e.sense().cloned().expect("sense"))
}

fn is_locked_sense(s: &Sense) -> bool {
    s.key == SenseKey::DataProtect && s.asc == 0x74 && s.ascq == 0x71
}

#[test]
fn discover_enterprise_and_not_tcg() {
    let e = Env::new("px02smf080", "TCGD0001");
    let j = e.json(&["tcg", "discover", &e.addr]);
    assert_eq!(j["data"]["ssc"], "Enterprise SSC");
    assert_eq!(
        j["data"]["security_protocols"],
        serde_json::json!([0, 1, 2])
    );
    let feats = j["data"]["level0"]["features"].as_array().unwrap();
    assert!(feats
        .iter()
        .any(|f| f["feature"] == "ssc" && f["base_comid"] == 0x07FE));
    let text = e.ok(&["tcg", "discover", &e.addr]);
    assert!(text.contains("Enterprise SSC: base_comid=0x07fe"), "{text}");

    let plain = Env::new("px03snf080", "PLAIN001");
    let out = plain.run(&["tcg", "status", &plain.addr]);
    assert_eq!(out.status.code(), Some(7), "unsupported");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a TCG drive"), "{err}");
}

#[test]
fn ownership_bands_lock_erase_with_data_path() {
    let e = Env::new("px02smf080", "TCGE0001");
    let pf = e.pin_file();
    // Factory drive: bands readable, nothing locked.
    let j = e.json(&["tcg", "status", &e.addr, "--check-ownership"]);
    assert_eq!(j["data"]["sid_is_msid"], true);
    assert_eq!(j["data"]["bands"].as_array().unwrap().len(), 16);
    // Write something in what will be band 1.
    {
        let mut d = e.dev();
        write_block(&mut d, 100, 0xAB).unwrap();
    }
    let j = e.json(&["tcg", "take-ownership", &e.addr, "--new-pin-file", &pf]);
    assert_eq!(j["data"]["authorities"][0], "SID");
    let j = e.json(&["tcg", "status", &e.addr, "--check-ownership"]);
    assert_eq!(j["data"]["sid_is_msid"], false);
    // Band 1 = LBA 64..64+1024, locking enabled, relock at power cycle.
    e.ok(&[
        "tcg",
        "configure-band",
        &e.addr,
        "--band",
        "1",
        "--start",
        "64",
        "--length",
        "1024",
        "--lock-enabled",
        "--lock-on-reset",
        "--pin-file",
        &pf,
    ]);
    e.ok(&[
        "tcg",
        "lock",
        &e.addr,
        "--band",
        "1",
        "--pin-env",
        "TEST_PIN_VAR",
    ]);
    {
        let mut d = e.dev();
        let s = read_block(&mut d, 100).unwrap_err();
        assert!(is_locked_sense(&s), "{s:?}");
        assert!(is_locked_sense(&write_block(&mut d, 100, 1).unwrap_err()));
        // Outside the band: fine.
        read_block(&mut d, 10).unwrap();
    }
    let j = e.json(&["tcg", "bands", &e.addr]);
    assert_eq!(j["data"][1]["read_locked"], true);
    assert_eq!(j["data"][1]["range_start"], 64);
    // Wrong PIN: refused, nothing changes, the message names the authority only.
    let out = e.run(&[
        "tcg",
        "unlock",
        &e.addr,
        "--band",
        "1",
        "--pin-file",
        &e.path("wrong").display().to_string(),
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("wrong PIN for BandMaster1"), "{err}");
    e.ok(&["tcg", "unlock", &e.addr, "--band", "1", "--pin-file", &pf]);
    let before = {
        let mut d = e.dev();
        read_block(&mut d, 100).unwrap()
    };
    assert_eq!(before, vec![0xAB; 512]);
    // Relock, power cycle keeps it locked (LockOnReset), erase unlocks and rekeys.
    e.ok(&["tcg", "lock", &e.addr, "--band", "1", "--pin-file", &pf]);
    e.dev().power_cycle();
    assert!(is_locked_sense(&read_block(&mut e.dev(), 100).unwrap_err()));
    // Dry run: nothing changes.
    let j = e.json(&[
        "tcg",
        "erase",
        &e.addr,
        "--band",
        "1",
        "--pin-file",
        &pf,
        "--dry-run",
    ]);
    assert_eq!(j["data"]["drives"][0]["outcome"], "dry_run", "{j}");
    assert!(is_locked_sense(&read_block(&mut e.dev(), 100).unwrap_err()));
    // Without a confirmation and without a terminal: refused.
    let out = e.run(&["tcg", "erase", &e.addr, "--band", "1", "--pin-file", &pf]);
    assert_eq!(
        out.status.code(),
        Some(6),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let cert = e.path("cert.json");
    let j = e.json(&[
        "tcg",
        "erase",
        &e.addr,
        "--band",
        "1",
        "--pin-file",
        &pf,
        "--confirm",
        &e.serial,
        "--certificate",
        &cert.display().to_string(),
    ]);
    let rec = &j["data"]["drives"][0];
    assert_eq!(rec["outcome"], "success", "{j}");
    assert_eq!(
        rec["method"],
        "TCG CRYPTOGRAPHIC ERASE (Enterprise SSC Erase)"
    );
    // Band 1 covers LBAs 64..=1087 of 2097152: the record says so and never calls it a purge
    // of the drive (category, scope, text, HTML).
    assert_eq!(rec["nist_sp_800_88_category"], "purge_of_part");
    assert_eq!(rec["ieee_2883_category"], "purge_of_part");
    let sc = &rec["scope"];
    assert_eq!(sc["whole_drive"], false, "{sc}");
    assert_eq!(sc["kind"], "tcg_bands");
    assert_eq!(sc["bands"][0]["band"], 1);
    assert_eq!(sc["bands"][0]["range_start"], 64);
    assert_eq!(sc["bands"][0]["range_length"], 1024);
    assert_eq!(sc["blocks_in_scope"], 1024);
    assert_eq!(sc["blocks_total"], 2_097_152);
    let f = sc["fraction_of_capacity"].as_f64().unwrap();
    assert!((f - 1024.0 / 2_097_152.0).abs() < 1e-12, "{f}");
    assert!(sc["description"]
        .as_str()
        .unwrap()
        .contains("LBA 64..=1087"));
    // Validation ran by default, inside the band (locked before the erase: nothing to compare).
    assert_eq!(rec["validation"]["plan"], "quick", "{rec}");
    assert!(rec["verification"]["samples"]
        .as_array()
        .unwrap()
        .iter()
        .all(|x| (64..1088).contains(&x["lba"].as_u64().unwrap())));
    assert!(!rec["commands"].to_string().contains("MaxRanges"));
    let html = std::fs::read_to_string(e.path("cert.json.html")).unwrap();
    assert!(
        html.contains("PARTIAL SCOPE") && !html.contains("SANITIZED"),
        "{html}"
    );
    assert!(!html.contains("no --verify"));
    let txt = std::fs::read_to_string(e.path("cert.json.txt")).unwrap();
    assert!(
        txt.contains("PARTIAL SCOPE, not a purge of the drive"),
        "{txt}"
    );
    let after = read_block(&mut e.dev(), 100).unwrap();
    assert_ne!(after, before, "erased band must not read back the old data");
    // BandMaster1 is back to the MSID.
    e.ok(&["tcg", "lock", &e.addr, "--band", "1", "--msid"]);
    // Audit log and certificate exist and carry no PIN.
    let audit = std::fs::read_to_string(e.path("audit.jsonl")).unwrap();
    assert!(audit.contains("tcg-erase") && !audit.contains(PIN));
    let c = std::fs::read_to_string(&cert).unwrap();
    assert!(c.contains("TCG CRYPTOGRAPHIC ERASE") && !c.contains(PIN));
    // Every band, the global range included: every LBA, a purge of the drive.
    let all = e.path("all.json");
    let j = e.json(&[
        "tcg",
        "erase",
        &e.addr,
        "--all",
        "--pin-file",
        &pf,
        "--confirm",
        &e.serial,
        "--certificate",
        &all.display().to_string(),
    ]);
    let rec = &j["data"]["drives"][0];
    assert_eq!(rec["outcome"], "success", "{j}");
    assert_eq!(rec["scope"]["whole_drive"], true, "{rec}");
    assert_eq!(rec["scope"]["blocks_in_scope"], 2_097_152);
    assert_eq!(rec["nist_sp_800_88_category"], "purge");
    // The sampled blocks were never written (they read as zeros before and after): the
    // validation says it cannot tell, it does not claim a pass.
    assert_eq!(rec["validation"]["result"], "inconclusive", "{rec}");
    assert_eq!(rec["verification"]["survived"], 0);
    let html = std::fs::read_to_string(e.path("all.json.html")).unwrap();
    assert!(!html.contains("PARTIAL SCOPE") && html.contains("SANITIZED"));
}

#[test]
fn lockout_after_wrong_pins_until_power_cycle() {
    let e = Env::new("px02smf080", "TCGL0001");
    let wrong = e.path("wrong").display().to_string();
    for _ in 0..5 {
        let out = e.run(&["tcg", "lock", &e.addr, "--band", "0", "--pin-file", &wrong]);
        assert!(!out.status.success());
    }
    let out = e.run(&["tcg", "lock", &e.addr, "--band", "0", "--msid"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("authority locked out"), "{err}");
    e.dev().power_cycle();
    e.ok(&["tcg", "lock", &e.addr, "--band", "0", "--msid"]);
    e.ok(&["tcg", "unlock", &e.addr, "--band", "0", "--msid"]);
}

#[test]
fn pins_never_from_argv() {
    let e = Env::new("px02smf080", "TCGA0001");
    let out = e.run(&["tcg", "lock", &e.addr, "--band", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("never taken from the command line"));
    // There is no option that takes a PIN value.
    let out = crate::util::sgctl_cmd()
        .args(["tcg", "lock", &e.addr, "--pin", "x"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn traces_and_json_never_show_the_pin() {
    let e = Env::new("px02smf080", "TCGV0001");
    let pf = e.pin_file();
    // -vvv dumps every data buffer except SECURITY PROTOCOL OUT payloads.
    e.ok(&[
        "-vvv",
        "tcg",
        "take-ownership",
        &e.addr,
        "--new-pin-file",
        &pf,
    ]);
    e.ok(&[
        "-vvv",
        "--json",
        "tcg",
        "lock",
        &e.addr,
        "--band",
        "2",
        "--pin-file",
        &pf,
    ]);
    e.ok(&["-vvv", "tcg", "bands", &e.addr, "--pin-file", &pf]);
    let out = e.run(&["-vvv", "tcg", "unlock", &e.addr, "--band", "2", "--msid"]);
    assert!(!out.status.success());
}

#[test]
fn ex_array_drive_needs_psid_revert_before_format() {
    let e = Env::new("exarray", "EXA00001");
    // Shipped locked: reads fail with DATA PROTECT, Level 0 says locked.
    assert!(is_locked_sense(&read_block(&mut e.dev(), 0).unwrap_err()));
    let j = e.json(&["tcg", "status", &e.addr]);
    assert_eq!(j["data"]["locked"], true);
    // FORMAT UNIT is refused while the array's lock holds.
    let out = e.run(&[
        "format",
        &e.addr,
        "--fast",
        "--block-size",
        "512",
        "--confirm",
        &e.serial,
        "--poll-interval",
        "1",
    ]);
    assert!(!out.status.success(), "format of a locked drive must fail");
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("Access denied"), "{text}");
    assert!(
        text.contains("sgctl tcg revert"),
        "advice for a locked SED missing: {text}"
    );
    // The MSID does not open it.
    let out = e.run(&["tcg", "unlock", &e.addr, "--band", "0", "--msid"]);
    assert!(!out.status.success());
    // A wrong PSID is refused and not echoed.
    private(&e.path("badpsid"), b"QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ");
    let out = e.run(&[
        "tcg",
        "revert",
        &e.addr,
        "--psid-file",
        &e.path("badpsid").display().to_string(),
        "--confirm",
        &e.serial,
    ]);
    assert!(!out.status.success());
    assert!(!String::from_utf8_lossy(&out.stderr).contains("QQQQ"));
    assert!(!String::from_utf8_lossy(&out.stdout).contains("QQQQ"));
    let out = e.run(&[
        "--json",
        "tcg",
        "revert",
        &e.addr,
        "--psid-env",
        "SGCTL_TEST_PSID",
        "--confirm",
        &e.serial,
    ]);
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    assert!(!text.contains(&e.psid), "the PSID leaked: {text}");
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        j["data"]["drives"][0]["method"],
        "TCG PSID REVERT (cryptographic erase of all bands)"
    );
    assert_eq!(j["data"]["drives"][0]["after"]["locked"], false);
    // The revert covered every band (the whole drive); the drive was locked before, so no
    // sampled block could be read then: the validation cannot tell, and does not claim a pass.
    assert_eq!(j["data"]["drives"][0]["scope"]["whole_drive"], true, "{j}");
    assert_eq!(
        j["data"]["drives"][0]["validation"]["result"], "inconclusive",
        "{j}"
    );
    read_block(&mut e.dev(), 0).unwrap();
    // Now the format goes through.
    e.ok(&[
        "format",
        &e.addr,
        "--fast",
        "--block-size",
        "512",
        "--confirm",
        &e.serial,
        "--poll-interval",
        "1",
    ]);
}

#[test]
fn sp_busy_and_session_timeout_faults() {
    let e = Env::new("px02smf080", "TCGF0001");
    let busy = format!("{}&tcg_sp_busy=1", e.addr);
    let out = e.run(&["tcg", "bands", &busy]);
    assert_eq!(
        out.status.code(),
        Some(5),
        "method failure is a check failure"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("security provider busy") && err.contains("power-cycle"),
        "{err}"
    );
    let to = format!("{}&tcg_session_timeout=1", e.addr);
    let out = e.run(&["tcg", "lock", &to, "--band", "0", "--msid"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    // The band check's anonymous session meets the timeout first (a lock checks the band
    // against LockingInfo before it authenticates).
    assert!(
        err.contains("closed the session") || err.contains("no response from the TPer"),
        "{err}"
    );
    // Without the faults the same commands work.
    e.ok(&["tcg", "lock", &e.addr, "--band", "0", "--msid"]);
    e.ok(&["tcg", "unlock", &e.addr, "--band", "0", "--msid"]);
}

#[test]
fn in_process_faults_through_sim_device() {
    use sgctl::cmd::tcg::enterprise;
    use sgctl::cmd::tcg::Tper;
    use sgctl::sim::Fault;
    let mut d = sgctl::sim::open("px02smf080?serial=INPROC01&capacity_gib=1").unwrap();
    d.inject(Fault::TcgSpBusy(2));
    let dev2 = d.port(1);
    {
        let mut h = Tper::open(&mut d).unwrap();
        for _ in 0..2 {
            let e = enterprise::read_msid(&mut h).unwrap_err();
            assert_eq!(e.method_status(), Some(sgctl::tcg::MethodStatus::SpBusy));
        }
        enterprise::read_msid(&mut h).unwrap();
    }
    dev2.inject(Fault::TcgSessionTimeout);
    let mut h = Tper::open(&mut d).unwrap();
    assert!(matches!(
        enterprise::read_msid(&mut h).unwrap_err(),
        sgctl::tcg::TcgError::SessionClosed
    ));
    enterprise::read_msid(&mut h).unwrap();
}

/// A PSID revert is recorded like a band erase: its scope (every band 0..=MaxRanges with the
/// band table read before it; the whole drive because together they cover every LBA) and its
/// validation (the quick plan by default: blocks hashed before, compared after, seed
/// recorded), in the record and the certificate; `--validate none` says "not validated".
#[test]
fn psid_revert_records_scope_and_validation() {
    use sgctl::ops::validate::{lbas, Plan, QUICK_SUBSECTIONS};
    let e = Env::new("px02smf080", "TCGR0001");
    let pf = e.pin_file();
    const BLOCKS: u64 = 2_097_152;
    let seed = 0x5eed_u64;
    let sample = lbas(Plan::Quick, &[(0, BLOCKS)], seed);
    assert_eq!(sample.len() as u64, QUICK_SUBSECTIONS + 2);
    {
        let mut d = e.dev();
        for (i, &l) in sample.iter().enumerate() {
            write_block(&mut d, l, 0x10 + i as u8).unwrap();
        }
    }
    // An owned drive with band 1 = LBA 64..=1087 (unlocked, so the blocks can be read before).
    e.ok(&["tcg", "take-ownership", &e.addr, "--new-pin-file", &pf]);
    e.ok(&[
        "tcg",
        "configure-band",
        &e.addr,
        "--band",
        "1",
        "--start",
        "64",
        "--length",
        "1024",
        "--pin-file",
        &pf,
    ]);
    let cert = e.path("revert.json");
    let run = |extra: &[&str]| {
        let mut a = vec![
            "--json",
            "tcg",
            "revert",
            &e.addr,
            "--psid-env",
            "SGCTL_TEST_PSID",
            "--confirm",
            &e.serial,
        ];
        a.extend_from_slice(extra);
        let out = crate::util::sgctl_cmd()
            .args(&a)
            .env("SGCTL_AUDIT_LOG", e.path("audit.jsonl"))
            .env("SGCTL_TEST_PSID", &e.psid)
            .env(sgctl::ops::validate::SEED_ENV, format!("{seed:x}"))
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let j = run(&["--certificate", &cert.display().to_string()]);
    let rec = &j["data"]["drives"][0];
    assert_eq!(rec["outcome"], "success", "{j}");
    let sc = &rec["scope"];
    assert_eq!(sc["whole_drive"], true, "{sc}");
    assert_eq!(sc["kind"], "tcg_bands");
    assert_eq!(sc["bands"].as_array().unwrap().len(), 16, "{sc}");
    assert_eq!(sc["bands"][1]["range_start"], 64);
    assert_eq!(sc["bands"][1]["range_length"], 1024);
    assert_eq!(sc["blocks_in_scope"], BLOCKS);
    assert_eq!(sc["fraction_of_capacity"], 1.0);
    assert!(
        sc["description"]
            .as_str()
            .unwrap()
            .contains("PSID revert replaced the media key of every band"),
        "{sc}"
    );
    assert_eq!(rec["nist_sp_800_88_category"], "purge");
    let va = &rec["validation"];
    assert_eq!(va["plan"], "quick", "{rec}");
    assert_eq!(va["seed"], format!("{seed:016x}"));
    assert_eq!(va["blocks_sampled"], sample.len());
    assert_eq!(va["result"], "passed", "{rec}");
    assert_eq!(rec["verification"]["survived"], 0);
    assert_eq!(rec["technique_verification"]["result"], "completed");
    let lbas_checked: Vec<u64> = rec["verification"]["samples"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["lba"].as_u64().unwrap())
        .collect();
    assert_eq!(lbas_checked, sample);
    let c: serde_json::Value = serde_json::from_slice(&std::fs::read(&cert).unwrap()).unwrap();
    assert_eq!(c["certificates"][0]["scope"]["whole_drive"], true);
    assert_eq!(c["certificates"][0]["validation"]["result"], "passed");
    let html = std::fs::read_to_string(e.path("revert.json.html")).unwrap();
    assert!(!html.contains("PARTIAL SCOPE") && html.contains("SANITIZED"));
    assert_ne!(
        read_block(&mut e.dev(), sample[0]).unwrap(),
        vec![0x10; 512]
    );
    // Asked for no validation: the record says so, and does not claim a pass.
    let j = run(&["--validate", "none"]);
    let va = &j["data"]["drives"][0]["validation"];
    assert_eq!(va["plan"], "none", "{j}");
    assert_eq!(va["result"], "not_validated");
    assert_eq!(va["blocks_sampled"], 0);
}
