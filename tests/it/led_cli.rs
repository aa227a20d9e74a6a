//! `sgctl locate` / `sgctl fault` on a writable copy of the built enclosure tree
//! (fixtures/sysfs/ses-jbod).

use std::path::Path;
use std::process::Command;

fn tree() -> tempfile::TempDir {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sysfs/ses-jbod");
    let t = tempfile::tempdir().unwrap();
    let ok = Command::new("cp")
        .arg("-a")
        .arg(format!("{}/.", src.display()))
        .arg(t.path())
        .status()
        .unwrap()
        .success();
    assert!(ok);
    t
}

fn sgctl(t: &Path, args: &[&str]) -> (Option<i32>, serde_json::Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sgctl"))
        .arg("--json")
        .args(args)
        .arg("--sysroot")
        .arg(t)
        .arg("--audit-log")
        .arg(t.join("audit.jsonl"))
        .output()
        .unwrap();
    let v = serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
    // Warnings go to the document's messages under --json.
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stderr),
        v["sgctl"]["messages"]
    );
    (out.status.code(), v, said)
}

fn attr(t: &Path, enc: &str, comp: &str, a: &str) -> String {
    let d = std::fs::canonicalize(t.join("sys/class/enclosure").join(enc)).unwrap();
    std::fs::read_to_string(d.join(comp).join(a))
        .unwrap()
        .trim()
        .to_string()
}

#[test]
fn fault_on_then_again_then_off_with_audit_records() {
    let t = tree();
    let p = t.path();
    let (code, v, err) = sgctl(p, &["fault", "/dev/sdf", "--on"]);
    assert_eq!(code, Some(0), "{err}");
    let ch = v["data"]["changes"].as_array().unwrap();
    assert_eq!(ch.len(), 2, "both SES devices' components: {v}");
    assert!(ch
        .iter()
        .all(|c| c["written"] == true && c["after"] == true));
    assert_eq!(ch[0]["enclosure"]["slot"], 3);
    assert_eq!(attr(p, "0:0:0:0", "SLOT 03", "fault"), "1");
    assert_eq!(attr(p, "1:0:0:0", "SLOT 03", "fault"), "1");
    assert_eq!(
        attr(p, "0:0:0:0", "SLOT 01", "fault"),
        "0",
        "other slots untouched"
    );
    // Idempotent: nothing written, no audit record.
    let (code, v, _) = sgctl(p, &["fault", "/dev/sdf", "--on"]);
    assert_eq!(code, Some(0));
    assert!(v["data"]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["written"] == false));
    // Dry run: says what it would write, writes nothing.
    let (code, v, _) = sgctl(p, &["fault", "naa.5000c50000a00003", "--off", "--dry-run"]);
    assert_eq!(code, Some(0));
    assert_eq!(v["data"]["dry_run"], true);
    assert_eq!(attr(p, "0:0:0:0", "SLOT 03", "fault"), "1");
    let (code, _, _) = sgctl(p, &["fault", "/dev/sg3", "--off"]);
    assert_eq!(code, Some(0));
    assert_eq!(attr(p, "1:0:0:0", "SLOT 03", "fault"), "0");
    let log = std::fs::read_to_string(p.join("audit.jsonl")).unwrap();
    let recs: Vec<serde_json::Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(recs.len(), 2, "one record per change: {log}");
    assert_eq!(recs[0]["event"], "led");
    assert_eq!(recs[0]["job"], "fault");
    assert_eq!(recs[0]["requested"], "on");
    assert_eq!(recs[0]["serial"], "SJ0000A3");
    assert_eq!(recs[1]["requested"], "off");
    // The records chain: `sgctl audit verify` accepts the log.
    let out = Command::new(env!("CARGO_BIN_EXE_sgctl"))
        .args(["audit", "verify"])
        .arg(p.join("audit.jsonl"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn no_enclosure_no_device_and_usage_exit_codes() {
    let t = tree();
    let p = t.path();
    // The SES device itself is in no slot: exit 7, said plainly.
    let (code, _, err) = sgctl(p, &["locate", "0:0:0:0", "--on"]);
    assert_eq!(code, Some(7));
    assert!(err.contains("links this drive to a slot"), "{err}");
    // A tree without enclosures.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sysfs/mptsas-dualport");
    let (code, _, err) = sgctl(&root, &["locate", "/dev/sda", "--on", "--dry-run"]);
    assert_eq!(code, Some(7));
    assert!(err.contains("no enclosure is bound"), "{err}");
    let (code, _, _) = sgctl(p, &["locate", "/dev/sdz", "--on"]);
    assert_eq!(code, Some(3));
    let (code, _, _) = sgctl(p, &["locate", "/dev/sda"]);
    assert_eq!(code, Some(2));
    let (code, _, _) = sgctl(p, &["locate", "/dev/sda", "--on", "--off"]);
    assert_eq!(code, Some(2));
}

/// A symlink planted as the attribute: refused (exit 6), the link's target untouched.
#[test]
fn a_planted_link_is_refused() {
    let t = tree();
    let p = t.path();
    let d = std::fs::canonicalize(p.join("sys/class/enclosure/0:0:0:0"))
        .unwrap()
        .join("SLOT 00");
    let d1 = std::fs::canonicalize(p.join("sys/class/enclosure/1:0:0:0"))
        .unwrap()
        .join("SLOT 00");
    let victim = p.join("victim");
    std::fs::write(&victim, "0\n").unwrap();
    for dir in [&d, &d1] {
        std::fs::remove_file(dir.join("locate")).unwrap();
        std::os::unix::fs::symlink(&victim, dir.join("locate")).unwrap();
    }
    let (code, v, _) = sgctl(p, &["locate", "/dev/sda", "--on"]);
    assert_eq!(code, Some(6), "{v}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "0\n");
}
