//! A format says the state it verified and where its records went: the new geometry at the
//! top of the record (text `now:` line, JSON `verified_state`), the audit log and certificate
//! paths; `format --recover` restores what the interrupted format asked for (its audit start
//! record) or says plainly what it does instead.

use serde_json::{json, Value};
use sgctl::discover::DiscoverHost;
use sgctl::ops::audit::AuditLog;
use sgctl::ops::format::{self, CapacityRequest, FormatOptions};
use sgctl::ops::gate::{clear, Cleared, Confirmation, DriveName, GateRequest, NoPrompter};
use sgctl::ops::poll::Trail;
use sgctl::scsi::format_unit::ProtectionType;
use std::path::Path;
use std::time::Duration;

fn addr(dir: &Path, serial: &str) -> String {
    format!(
        "sim:px02smf080?clock=virtual&capacity_blocks=65536&serial={serial}&state={}",
        dir.join("drive.json").display()
    )
}

fn sgctl(audit: &Path, args: &[&str]) -> (i32, String, String) {
    let out = crate::util::sgctl_cmd()
        .args(args)
        .env("SGCTL_AUDIT_LOG", audit)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_format_prints_the_new_geometry_and_where_its_records_went() {
    let dir = tempfile::tempdir().unwrap();
    let audit = dir.path().join("audit.jsonl");
    let cert = dir.path().join("cert.json");
    let a = addr(dir.path(), "GEO001");
    let (code, out, err) = sgctl(
        &audit,
        &[
            "format",
            &a,
            "--block-size",
            "520",
            "--pi",
            "1",
            "--confirm",
            "GEO001",
            "--certificate",
            cert.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("  before:       33554432 bytes (512 byte blocks)"),
        "{out}"
    );
    assert!(
        out.contains("  now:          ") && out.contains("blocks of 520 bytes, PI type 1"),
        "{out}"
    );
    assert!(
        out.contains(&format!("audit log: {}", audit.display())),
        "{out}"
    );
    assert!(
        out.contains(&format!("certificate written to {}", cert.display())),
        "{out}"
    );
    assert!(out.contains("unsigned"), "{out}");

    // JSON: the verified state at the top of the record, and where the records went.
    let (code, out, err) = sgctl(
        &audit,
        &[
            "--json",
            "format",
            &a,
            "--block-size",
            "4096",
            "--confirm",
            "GEO001",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let r = &v["data"]["drives"][0];
    assert_eq!(r["drive"]["logical_block_length"], 520, "before: {r}");
    let s = &r["verified_state"];
    assert_eq!(s["logical_block_length"], 4096, "{r}");
    assert_eq!(s["protection_type"], 0, "{r}");
    assert_eq!(
        s["capacity_bytes"].as_u64().unwrap(),
        s["blocks"].as_u64().unwrap() * 4096
    );
    assert_eq!(
        v["data"]["records_written"]["audit_log"],
        audit.to_str().unwrap()
    );
    assert_eq!(v["data"]["records_written"]["certificate"], Value::Null);
}

fn gate(a: &str, serial: &str, audit: &Path) -> Cleared {
    clear(
        &DiscoverHost,
        GateRequest {
            job: "format",
            address: a,
            name: &DriveName {
                serial: serial.into(),
                wwn: None,
            },
            confirmation: &Confirmation {
                tokens: vec![serial.into()],
                interactive: false,
            },
            audit: AuditLog::at(audit),
        },
        &mut NoPrompter,
    )
    .unwrap()
}

/// Starts a 520/PI 2 format as the job does (start record first), then loses it to a power
/// cycle: the drive reports "medium format corrupted".
fn interrupted_format(a: &str, serial: &str, audit: &Path, record: bool) {
    let mut t = sgctl::sim::open(a.trim_start_matches("sim:")).unwrap();
    let opts = FormatOptions {
        block_size: Some(520),
        protection: ProtectionType::Type2,
        pi_exponent: 0,
        capacity: CapacityRequest::Max,
        fast: false,
        recover: false,
        preset: None,
    };
    let p = format::plan(&mut t, &opts).unwrap();
    let g = gate(a, serial, audit);
    if record {
        // A start record without its end: the run was interrupted.
        let _started = g
            .start(json!({
                "drive": {"serial": serial},
                "parameters": serde_json::to_value(&opts).unwrap(),
            }))
            .unwrap();
    }
    format::start(&mut t, &g, &p, &mut Trail::default()).unwrap();
    t.clock().advance(Duration::from_secs(10));
    t.power_cycle();
    assert!(t.info().format_corrupt);
}

#[test]
fn recover_restores_what_the_interrupted_format_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let audit = dir.path().join("audit.jsonl");
    let a = addr(dir.path(), "REC520");
    interrupted_format(&a, "REC520", &audit, true);
    let (code, out, err) = sgctl(
        &audit,
        &["--json", "format", &a, "--recover", "--confirm", "REC520"],
    );
    assert_eq!(code, 0, "{out}{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let r = &v["data"]["drives"][0];
    assert_eq!(r["verified_state"]["logical_block_length"], 520, "{r}");
    assert_eq!(r["verified_state"]["protection_type"], 2, "{r}");
    assert_eq!(r["parameters"]["protection"], "type2", "{r}");
    let note = r["message"].as_str().unwrap();
    assert!(
        note.contains("restoring what the interrupted format") && note.contains("PI type 2"),
        "{note}"
    );
}

#[test]
fn recover_without_a_record_says_what_it_does_instead() {
    let dir = tempfile::tempdir().unwrap();
    let audit = dir.path().join("audit.jsonl");
    let a = addr(dir.path(), "RECNONE");
    interrupted_format(&a, "RECNONE", &audit, false);
    let (code, out, err) = sgctl(&audit, &["format", &a, "--recover", "--confirm", "RECNONE"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("no earlier format of serial RECNONE in the audit log"),
        "{out}"
    );
    assert!(out.contains("no PI"), "{out}");
}

#[test]
fn a_refused_job_says_why_in_the_json_messages() {
    let dir = tempfile::tempdir().unwrap();
    let audit = dir.path().join("audit.jsonl");
    let a = addr(dir.path(), "REF001");
    let (code, out, err) = sgctl(&audit, &["--json", "format", &a, "--block-size", "4096"]);
    assert_eq!(code, 6, "{out}{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let m = v["sgctl"]["messages"].as_array().unwrap();
    assert!(
        m.iter()
            .any(|m| m["string"].as_str().unwrap().contains("refused")
                && m["string"].as_str().unwrap().contains("--confirm")),
        "{out}"
    );
    // Nothing passed the gate: no audit record, so none is claimed.
    assert_eq!(v["data"]["records_written"], Value::Null, "{out}");
}

#[test]
fn a_signed_certificate_names_its_key() {
    let dir = tempfile::tempdir().unwrap();
    let audit = dir.path().join("audit.jsonl");
    let key = dir.path().join("k.pem");
    let cert = dir.path().join("c.json");
    let (code, out, err) = sgctl(
        &audit,
        &["--json", "certificate", "keygen", key.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{out}{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let fp = v["data"]["fingerprint"].as_str().unwrap().to_string();
    let a = addr(dir.path(), "SIGN001");
    let (code, out, err) = sgctl(
        &audit,
        &[
            "format",
            &a,
            "--block-size",
            "4096",
            "--confirm",
            "SIGN001",
            "--certificate",
            cert.to_str().unwrap(),
            "--signing-key",
            key.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(&format!(
            "certificate written to {} (and .txt, .html), signed by key {fp}",
            cert.display()
        )),
        "{out}"
    );
}
