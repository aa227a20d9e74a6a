//! `sgctl format` / `sanitize` / `wait` end to end on the virtual drive: the binary
//! runs against `sim:` drives whose state lives in a temp file, so tests can prepare a drive
//! (write data, inject faults, start an operation and power cycle) through the library and
//! look at it afterwards. Every flow and failure named in the issue has a test here.

use crate::util::SimDrive;
use serde_json::Value;
use sgctl::ops::poll::Trail;
use sgctl::ops::{format, sanitize};
use sgctl::scsi::read_write::{Read16Cdb, Write16Cdb};
use sgctl::transport::{check, DataBuf, Transport};
use std::time::Duration;

type Drive = SimDrive;

/// Passes the safety gate for the drive `d` (named by its serial) and returns the token the
/// state-changing operations need.
fn gate(d: &SimDrive) -> sgctl::ops::gate::Cleared {
    use sgctl::discover::DiscoverHost;
    use sgctl::ops::audit::AuditLog;
    use sgctl::ops::gate::{clear, Confirmation, DriveName, GateRequest, NoPrompter};
    let address = d.addr("");
    clear(
        &DiscoverHost,
        GateRequest {
            job: "test",
            address: &address,
            name: &DriveName {
                serial: d.serial().to_string(),
                wwn: None,
            },
            confirmation: &Confirmation {
                tokens: vec![d.serial().to_string()],
                interactive: false,
            },
            audit: AuditLog::at(d.audit()),
        },
        &mut NoPrompter,
    )
    .expect("the gate clears a free virtual drive named by its serial")
}

fn block(t: &mut dyn Transport, lba: u64) -> Vec<u8> {
    let mut b = vec![0u8; 512];
    let c = t
        .execute(
            &Read16Cdb::new(lba, 1).build(),
            DataBuf::In(&mut b),
            Duration::from_secs(5),
        )
        .unwrap();
    check(&c).unwrap();
    b
}

fn write_marker(t: &mut dyn Transport, lba: u64) {
    let data: Vec<u8> = (0..512u32)
        .map(|i| (i as u8) ^ (lba as u8) ^ 0x5a)
        .collect();
    let c = t
        .execute(
            &Write16Cdb::new(lba, 1).build(),
            DataBuf::Out(&data),
            Duration::from_secs(5),
        )
        .unwrap();
    check(&c).unwrap();
}

fn audit_events(d: &Drive) -> Vec<Value> {
    std::fs::read_to_string(d.audit())
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn sanitize_crypto_with_verification_and_certificate() {
    let d = Drive::new("px02smf080", "SAN001");
    {
        let mut t = d.open();
        write_marker(&mut t, 0);
        write_marker(&mut t, 65535);
    }
    let cert = d.dir().join("cert.json");
    let (code, j, err) = d.sgctl(&[
        "sanitize",
        &d.addr(""),
        "--crypto",
        "--verify",
        "2",
        "--confirm",
        "SAN001",
        "--certificate",
        cert.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}\n{j}");
    let rec = &j["data"]["drives"][0];
    assert_eq!(rec["outcome"], "success");
    assert_eq!(rec["drive"]["serial"], "SAN001");
    assert_eq!(rec["drive"]["vendor"], "TOSHIBA");
    assert_eq!(rec["method"], "CRYPTOGRAPHIC ERASE");
    assert_eq!(rec["nist_sp_800_88_category"], "purge");
    let v = &rec["verification"];
    assert_eq!(
        (
            v["passed"].as_bool(),
            v["survived"].as_u64(),
            v["conclusive"].as_u64()
        ),
        (Some(true), Some(0), Some(2))
    );
    assert!(rec["sense_trail"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["ascq"] == 0x1b));
    // Certificate in JSON and text; audit start + end.
    let c: Value = serde_json::from_slice(&std::fs::read(&cert).unwrap()).unwrap();
    assert_eq!(c["certificates"][0]["job_id"], rec["job_id"]);
    assert!(std::fs::read_to_string(cert.with_extension("json.txt"))
        .unwrap()
        .contains("PASSED"));
    let ev = audit_events(&d);
    assert_eq!(ev.len(), 2);
    assert_eq!(
        (ev[0]["event"].as_str(), ev[1]["event"].as_str()),
        (Some("start"), Some("end"))
    );
    // The marker is gone from the drive.
    let mut t = d.open();
    assert_ne!(block(&mut t, 0)[0], 0x5a);
}

#[test]
fn confirmation_mismatch_on_the_second_drive_is_refused_and_it_keeps_its_data() {
    let a = Drive::new("px02smf080", "AAA001");
    let b = Drive::new("px02smf080", "BBB002");
    for d in [&a, &b] {
        write_marker(&mut d.open(), 0);
    }
    let (code, j, err) = a.sgctl(&[
        "sanitize",
        &a.addr(""),
        &b.addr(""),
        "--block",
        "--confirm",
        "AAA001",
        "--confirm",
        "BBB003",
    ]);
    assert_eq!(code, 8, "{err}\n{j}");
    assert_eq!(j["data"]["drives"][0]["outcome"], "success");
    assert_eq!(j["data"]["drives"][1]["outcome"], "refused");
    assert!(j["data"]["drives"][1]["message"]
        .as_str()
        .unwrap()
        .contains("does not name this drive"));
    assert_eq!(
        block(&mut b.open(), 0)[0],
        0x5a,
        "the refused drive lost data"
    );
    assert_ne!(block(&mut a.open(), 0)[0], 0x5a);
    // Without any confirmation and no terminal: refused (exit 6), nothing sent.
    let (code, _, _) = b.sgctl(&["sanitize", &b.addr(""), "--crypto"]);
    assert_eq!(code, 6);
    assert_eq!(block(&mut b.open(), 0)[0], 0x5a);
}

#[test]
fn dry_run_sends_nothing() {
    let d = Drive::new("px02smf080", "DRY001");
    write_marker(&mut d.open(), 0);
    let out = crate::util::sgctl_cmd()
        .args(["-v", "sanitize", &d.addr(""), "--block", "--dry-run"])
        .env("SGCTL_AUDIT_LOG", d.audit())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let trace = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{text}{trace}");
    assert!(text.contains("would send SANITIZE BLOCK ERASE"), "{text}");
    assert!(text.contains("48 82 00 00 00 00 00 00 00 00"), "{text}");
    // The -v trace shows every CDB that went out: none is SANITIZE.
    assert!(!trace.to_lowercase().contains("cdb: 48"), "{trace}");
    assert_eq!(block(&mut d.open(), 0)[0], 0x5a);
    assert!(!d.audit().exists());
    let (code, j, _) = d.sgctl(&["format", &d.addr(""), "--block-size", "4096", "--dry-run"]);
    assert_eq!(code, 0);
    assert_eq!(
        j["data"]["drives"][0]["commands"][1]["cdb"],
        "04 18 00 00 00 00"
    );
    assert_eq!(d.open().info().logical_block_length, 512);
}

#[test]
fn format_4096_type1_verified_then_size_substitution_caught() {
    let d = Drive::new("px02smf080", "FMT001");
    let (code, j, err) = d.sgctl(&[
        "format",
        &d.addr(""),
        "--block-size",
        "4096",
        "--pi",
        "1",
        "--confirm",
        "FMT001",
    ]);
    assert_eq!(code, 0, "{err}\n{j}");
    let after = &j["data"]["drives"][0]["after"]["after"];
    assert_eq!(
        (
            after["block_len"].as_u64(),
            after["prot_en"].as_bool(),
            after["p_type"].as_u64()
        ),
        (Some(4096), Some(true), Some(0))
    );
    let info = d.open().info();
    assert_eq!((info.logical_block_length, info.protection_type), (4096, 1));
    // A drive that silently formats to 520 when asked for 512: a failure, exit 5.
    let (code, j, err) = d.sgctl(&[
        "format",
        &d.addr("&substitute_block=520"),
        "--block-size",
        "512",
        "--confirm",
        "FMT001",
    ]);
    assert_eq!(code, 5, "{err}\n{j}");
    let rec = &j["data"]["drives"][0];
    assert_eq!(rec["outcome"], "check_failed");
    assert!(rec["message"].as_str().unwrap().contains("520"), "{rec}");
}

#[test]
fn drives_that_refuse_a_protection_type() {
    // No PI at all (INQUIRY PROTECT=0).
    let d = Drive::new("mk4001grzb", "NOPI01");
    let (code, j, _) = d.sgctl(&[
        "format",
        &d.addr(""),
        "--block-size",
        "512",
        "--pi",
        "1",
        "--confirm",
        "NOPI01",
    ]);
    assert_eq!(code, 7, "{j}");
    assert_eq!(j["data"]["drives"][0]["outcome"], "unsupported");
    // PI types 1 and 2 only: type 3 is refused by FORMAT UNIT itself.
    let d = Drive::new("px02smf080", "PI3001");
    let (code, j, _) = d.sgctl(&[
        "format",
        &d.addr(""),
        "--block-size",
        "512",
        "--pi",
        "3",
        "--confirm",
        "PI3001",
    ]);
    assert_eq!(code, 7, "{j}");
    assert!(j["data"]["drives"][0]["message"]
        .as_str()
        .unwrap()
        .contains("protection type 3"));
}

#[test]
fn power_cycle_during_format_then_recover() {
    let d = Drive::new("px02smf080", "PWR001");
    {
        let mut t = d.open();
        let p = format::plan(
            &mut t,
            &format::FormatOptions {
                block_size: Some(4096),
                protection: sgctl::scsi::format_unit::ProtectionType::Type0,
                pi_exponent: 0,
                capacity: format::CapacityRequest::Max,
                fast: false,
                recover: false,
                preset: None,
            },
        )
        .unwrap();
        format::start(&mut t, &gate(&d), &p, &mut Trail::default()).unwrap();
        t.clock().advance(Duration::from_secs(10));
        t.power_cycle();
        assert!(t.info().format_corrupt);
    }
    // A plain format refuses and points at --recover; `wait` reports the corruption.
    let (code, j, _) = d.sgctl(&[
        "format",
        &d.addr(""),
        "--block-size",
        "4096",
        "--confirm",
        "PWR001",
    ]);
    assert_eq!(code, 5, "{j}");
    assert!(j["data"]["drives"][0]["message"]
        .as_str()
        .unwrap()
        .contains("--recover"));
    let (code, j, _) = d.sgctl(&["wait", &d.addr("")]);
    assert_eq!(code, 4, "{j}");
    let (code, j, err) = d.sgctl(&["format", &d.addr(""), "--recover", "--confirm", "PWR001"]);
    assert_eq!(code, 0, "{err}\n{j}");
    assert!(!d.open().info().format_corrupt);
    let (code, _, _) = d.sgctl(&["wait", &d.addr("")]);
    assert_eq!(code, 0);
}

#[test]
fn failed_sanitize_then_exit_failure_mode() {
    let d = Drive::new("px02smf080", "EFM001");
    let (code, j, _) = d.sgctl(&[
        "sanitize",
        &d.addr("&fail_sanitize=1"),
        "--block",
        "--ause",
        "--confirm",
        "EFM001",
    ]);
    assert_eq!(code, 4, "{j}");
    let rec = &j["data"]["drives"][0];
    assert_eq!(rec["outcome"], "failed");
    assert!(
        rec["advice"]
            .as_str()
            .unwrap()
            .contains("--exit-failure-mode"),
        "{rec}"
    );
    assert!(d.open().info().sanitize_failed);
    let cert = d.dir().join("efm.json");
    let (code, j, err) = d.sgctl(&[
        "sanitize",
        &d.addr(""),
        "--exit-failure-mode",
        "--confirm",
        "EFM001",
        "--certificate",
        cert.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}\n{j}");
    assert!(!d.open().info().sanitize_failed);
    efm_record_is_no_certificate_of_sanitization(&cert);
}

/// The record of a SANITIZE EXIT FAILURE MODE (which sanitizes nothing: it leaves the state
/// a failed sanitize left) is titled as what it is in every form: the text file's heading,
/// the JSON document's `title`, the HTML title and banner, the PDF's title, metadata and text.
fn efm_record_is_no_certificate_of_sanitization(cert: &std::path::Path) {
    const TITLE: &str = "Record of Sanitize Exit Failure Mode";
    let txt = std::fs::read_to_string(cert.with_extension("json.txt")).unwrap();
    assert!(txt.starts_with(&format!("{TITLE}\n")), "{txt}");
    assert!(txt.contains("not a sanitization"), "{txt}");
    let doc: Value = serde_json::from_slice(&std::fs::read(cert).unwrap()).unwrap();
    assert_eq!(doc["title"], TITLE, "{doc}");
    assert_eq!(doc["certificates"][0]["method"], "EXIT FAILURE MODE");
    let html = std::fs::read_to_string(cert.with_extension("json.html")).unwrap();
    assert!(html.contains(&format!("<title>{TITLE}")), "{html}");
    assert!(html.contains("NOT A SANITIZATION"), "{html}");
    assert!(!html.contains("Certificate of Sanitization"), "{html}");
    assert!(!html.contains("SANITIZED"), "{html}");
    let Some((info, text)) = crate::util::pdf_info_and_text(&cert.with_extension("json.pdf"))
    else {
        return;
    };
    assert!(
        info.lines()
            .any(|l| l.starts_with("Title:") && l.ends_with(TITLE)),
        "{info}"
    );
    assert!(text.contains(TITLE), "{text}");
    assert!(text.contains("NOT A SANITIZATION"), "{text}");
    assert!(!text.contains("Certificate of Sanitization"), "{text}");
    assert!(!text.contains("SANITIZED"), "{text}");
}

#[test]
fn restricted_sanitize_failure_needs_another_sanitize() {
    let d = Drive::new("px02smf080", "EFM002");
    let (code, _, _) = d.sgctl(&[
        "sanitize",
        &d.addr("&fail_sanitize=1"),
        "--crypto",
        "--confirm",
        "EFM002",
    ]);
    assert_eq!(code, 4);
    let (code, j, _) = d.sgctl(&[
        "sanitize",
        &d.addr(""),
        "--exit-failure-mode",
        "--confirm",
        "EFM002",
    ]);
    assert_eq!(code, 6, "{j}");
    assert!(j["data"]["drives"][0]["message"]
        .as_str()
        .unwrap()
        .contains("another sanitize"));
    let (code, j, _) = d.sgctl(&["sanitize", &d.addr(""), "--crypto", "--confirm", "EFM002"]);
    assert_eq!(code, 0, "{j}");
    assert!(!d.open().info().sanitize_failed);
}

#[test]
fn sanitize_resumes_after_power_cycle_and_wait_follows_it() {
    let d = Drive::new("px02smf080", "RES001");
    {
        let mut t = d.open();
        let o = sanitize::SanitizeOptions {
            method: sanitize::Method::Block,
            ause: false,
            znr: false,
            verify: 0,
            validate: None,
        };
        let p = sanitize::plan(&mut t, &o, 1).unwrap();
        sanitize::start(&mut t, &gate(&d), &p, false, &mut Trail::default()).unwrap();
        t.clock().advance(Duration::from_secs(5));
        t.power_cycle();
        assert!(
            t.info().operation.is_some(),
            "sanitize must survive the power cycle"
        );
    }
    // A new sanitize is refused while one runs; `wait` follows it to a clean end.
    let (code, j, _) = d.sgctl(&["sanitize", &d.addr(""), "--crypto", "--confirm", "RES001"]);
    assert_eq!(code, 6, "{j}");
    assert!(j["data"]["drives"][0]["message"]
        .as_str()
        .unwrap()
        .contains("sgctl wait"));
    let (code, j, err) = d.sgctl(&["wait", &d.addr(""), "--poll-interval", "5"]);
    assert_eq!(code, 0, "{err}\n{j}");
    let trail = j["data"]["sense_trail"].as_array().unwrap();
    // It resumed where it was (5 s of a 30 s block erase), it did not start over.
    let first = trail[0]["progress_percent"].as_f64().unwrap_or(0.0);
    assert!(trail[0]["ascq"] == 0x1b && first > 10.0, "{trail:?}");
    assert_eq!(trail.last().unwrap()["sense_key"], "No Sense");
    assert!(d.open().info().operation.is_none());
}

#[test]
fn support_and_auto_method() {
    let d = Drive::new("px03snf080", "SUP001");
    let (code, j, _) = d.sgctl(&["sanitize", "--support", &d.addr("")]);
    assert_eq!(code, 0);
    assert_eq!(j["data"]["drives"][0]["auto_method"], "BLOCK ERASE", "{j}");
    assert!(
        j["data"]["drives"][0]["tcg_level0"].is_null(),
        "not a SED: {j}"
    );
    let sed = Drive::new("px02smf080", "SUP002");
    let (code, j, _) = sed.sgctl(&["sanitize", "--support", &sed.addr("")]);
    assert_eq!(code, 0);
    assert_eq!(j["data"]["drives"][0]["auto_method"], "CRYPTOGRAPHIC ERASE");
    assert!(
        j["data"]["drives"][0]["tcg_level0"]["ssc"]
            .as_str()
            .unwrap()
            .contains("Enterprise"),
        "{j}"
    );
    let (code, j, _) = d.sgctl(&[
        "sanitize",
        &d.addr(""),
        "--method",
        "auto",
        "--confirm",
        "SUP001",
    ]);
    assert_eq!(code, 0, "{j}");
    assert_eq!(j["data"]["drives"][0]["method"], "BLOCK ERASE");
    // Crypto erase is not offered by this drive: refused as unsupported, nothing sent.
    let (code, _, _) = d.sgctl(&["sanitize", &d.addr(""), "--crypto", "--confirm", "SUP001"]);
    assert_eq!(code, 7);
}

#[test]
fn ctrl_c_stops_watching_not_the_drive() {
    use std::io::{BufRead, BufReader};
    let d = Drive::new("px02smf080", "INT001");
    // Real clock: the block erase takes 30 s of wall time on the drive.
    let addr = d.addr("").replace("clock=virtual", "clock=real");
    let mut child = crate::util::sgctl_cmd()
        .args([
            "--json",
            "sanitize",
            &addr,
            "--block",
            "--confirm",
            "INT001",
        ])
        .args(["--progress-json", "--poll-interval", "0.1"])
        .env("SGCTL_AUDIT_LOG", d.audit())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    loop {
        line.clear();
        assert!(
            err.read_line(&mut line).unwrap() > 0,
            "sgctl ended before progress"
        );
        if line.contains("\"event\":\"progress\"") {
            break;
        }
    }
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let j: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rec = &j["data"]["drives"][0];
    assert_eq!(rec["outcome"], "interrupted", "{j}");
    assert!(
        rec["advice"].as_str().unwrap().contains("sgctl wait"),
        "{rec}"
    );
    // The drive is still sanitizing; `sgctl wait` follows it to the end.
    assert!(d.open().info().operation.is_some());
    let (code, j, _) = d.sgctl(&["wait", &d.addr(""), "--poll-interval", "5"]);
    assert_eq!(code, 0, "{j}");
    // The audit log says how it ended: interrupted, then finished by `wait`.
    let ev = audit_events(&d);
    assert_eq!(ev[ev.len() - 2]["outcome"], "interrupted");
    assert_eq!(ev.last().unwrap()["outcome"], "success");
    assert_eq!(ev.last().unwrap()["finished_by"], "wait");
}

/// `sgctl --json ARGS` with the validation seed fixed, so the test knows the sampled LBAs.
fn sgctl_seeded(d: &Drive, seed: &str, args: &[&str]) -> (i32, Value, String) {
    let out: std::process::Output = crate::util::sgctl_cmd()
        .arg("--json")
        .args(args)
        .env("SGCTL_AUDIT_LOG", d.audit())
        .env(sgctl::ops::validate::SEED_ENV, seed)
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (
        out.status.code().unwrap_or(-1),
        json,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `--validate full` end to end: the quick sample (hashed before, compared after) plus every
/// one of the 65,536 blocks read back, on the record and in the certificate; and a drive that
/// reports a completed crypto erase but erased nothing (`noop_sanitize=1`) fails validation,
/// exits 5 (check failed) and is certified as not sanitized.
#[test]
fn sanitize_validate_full_reads_every_block_and_catches_an_erase_that_did_nothing() {
    use sgctl::ops::validate::{lbas, Plan, QUICK_SUBSECTIONS};
    const BLOCKS: u64 = 65536;
    let seed = "5eed";
    // The first drive of a run samples with the run's seed mixed with its index
    // (src/cli/sanitize.rs).
    let drive_seed = 0x5eed_u64 ^ 0x9e37_79b9_7f4a_7c15;
    let sample = lbas(Plan::Full, &[(0, BLOCKS)], drive_seed);
    assert_eq!(sample.len() as u64, QUICK_SUBSECTIONS + 2);
    for (run, fault, serial) in [(0, "", "FULL001"), (1, "&noop_sanitize=1", "FULL002")] {
        let d = Drive::new("px02smf080", serial);
        {
            let mut t = d.open();
            for &l in &sample {
                write_marker(&mut t, l);
            }
        }
        let cert = d.dir().join("cert.json");
        let (code, j, err) = sgctl_seeded(
            &d,
            seed,
            &[
                "sanitize",
                &d.addr(fault),
                "--crypto",
                "--validate",
                "full",
                "--confirm",
                serial,
                "--certificate",
                cert.to_str().unwrap(),
            ],
        );
        let rec = &j["data"]["drives"][0];
        let c: Value = serde_json::from_slice(&std::fs::read(&cert).unwrap()).unwrap();
        let cv = &c["certificates"][0]["validation"];
        for va in [&rec["validation"], cv] {
            assert_eq!(va["plan"], "full", "{va}");
            assert_eq!(va["seed"], format!("{drive_seed:016x}"));
            assert_eq!(va["blocks_in_scope"], BLOCKS);
            assert_eq!(va["blocks_sampled"], sample.len());
            // Every block read back after the erase, none unreadable.
            assert_eq!(va["blocks_read_after"], BLOCKS, "{va}");
            assert_eq!(va["coverage_percent"], 100.0);
            assert_eq!(va["full_read_unreadable"], 0);
        }
        let samples = rec["verification"]["samples"].as_array().unwrap();
        assert_eq!(samples.len(), sample.len());
        if run == 0 {
            assert_eq!(code, 0, "{err}\n{j}");
            assert_eq!(rec["outcome"], "success");
            assert_eq!(rec["validation"]["result"], "passed", "{rec}");
            assert_eq!(cv["result"], "passed");
            assert!(samples.iter().all(|s| s["outcome"] == "changed"), "{rec}");
            let mut t = d.open();
            assert_ne!(block(&mut t, sample[0])[0], (sample[0] as u8) ^ 0x5a);
        } else {
            // The drive said GOOD and the data is still there: validation fails, exit 5.
            assert_eq!(code, 5, "{err}\n{j}");
            assert_eq!(rec["outcome"], "check_failed", "{rec}");
            assert_eq!(rec["validation"]["result"], "failed", "{rec}");
            assert_eq!(cv["result"], "failed");
            assert_eq!(rec["verification"]["survived"], sample.len());
            assert!(samples.iter().all(|s| s["outcome"] == "survived"), "{rec}");
            let txt = std::fs::read_to_string(cert.with_extension("json.txt")).unwrap();
            assert!(
                txt.contains("CHECK_FAILED")
                    && txt.contains("validation:   FAILED — plan full")
                    && txt.contains("description:                   not sanitized"),
                "{txt}"
            );
            let mut t = d.open();
            assert_eq!(block(&mut t, sample[0])[0], (sample[0] as u8) ^ 0x5a);
        }
    }
}
