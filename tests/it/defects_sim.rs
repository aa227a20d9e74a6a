//! `sgctl defects` on a virtual drive: the grown list READ DEFECT DATA returns after REASSIGN
//! BLOCKS (the drive keeps reassigned LBAs in its GLIST), in the short and long block formats,
//! the count alone, the primary list (empty on the SSD), and a format the drive does not keep
//! answered in the one it does (the header's DEFECT LIST FORMAT is what is shown).

use crate::sim_common::*;
use serde_json::Value;

fn sgctl(args: &[&str]) -> (i32, Value, String) {
    let out = crate::util::sgctl_cmd()
        .args(["-v", "--json"])
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        serde_json::from_slice(&out.stdout).unwrap_or(Value::Null),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn grown_list_after_reassign_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let spec = format!(
        "px02smf080?clock=virtual&capacity_blocks=8192&state={}",
        dir.path().join("d.json").display()
    );
    let addr = format!("sim:{spec}");
    let (code, j, err) = sgctl(&["defects", &addr, "--count"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(j["data"]["list"]["count"], 0);
    {
        let mut d = open(&spec);
        while tur(&mut d).status != 0 {}
        // REASSIGN BLOCKS, short list of two 4-byte LBAs (SBC-5 Table "REASSIGN BLOCKS").
        let pl = [0, 0, 0, 8, 0, 0, 0x01, 0x00, 0, 0, 0x02, 0x00];
        good(&dout(&mut d, &[0x07, 0, 0, 0, 0, 0], &pl));
        d.save().unwrap();
    }
    let (code, j, err) = sgctl(&["defects", &addr, "--count"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(j["data"]["list"]["count"], 2);
    assert!(
        err.contains("Read defect data(10) cdb: 37 00 0b 00 00 00 00 00 04 00"),
        "{err}"
    );

    let (code, j, err) = sgctl(&["defects", &addr, "--format", "short"]);
    assert_eq!(code, 0, "{err}");
    let l = &j["data"]["list"];
    assert_eq!(l["format"], "short_block");
    assert_eq!(l["glist_valid"], true);
    let lbas: Vec<u64> = l["defects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["lba"].as_u64().unwrap())
        .collect();
    assert_eq!(lbas, [0x100, 0x200]);

    // Bytes from index asked; the SSD answers in long block format, which is what is shown.
    let (code, out, err) = crate::util::run(&["defects", &addr, "--format", "index"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("grown list, long block format: 2 entries"),
        "{out}"
    );
    assert!(out.contains("the drive answered in long block"), "{out}");
    assert!(out.lines().any(|l| l.trim() == "0x200"), "{out}");

    let (code, j, err) = sgctl(&["defects", &addr, "--primary"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(j["data"]["list"]["plist_valid"], true);
    assert_eq!(j["data"]["list"]["count"], 0);
    let (code, j, _) = sgctl(&["defects", &addr, "--both"]);
    assert_eq!(code, 0);
    assert_eq!(j["data"]["list"]["count"], 2);
}

#[test]
fn reassign_behind_the_gate_grows_the_list_defects_reads() {
    let dir = tempfile::tempdir().unwrap();
    let addr = format!(
        "sim:px02smf080?clock=virtual&capacity_blocks=8192&serial=RA1&state={}",
        dir.path().join("d.json").display()
    );
    let run = |args: &[&str]| {
        let out = crate::util::sgctl_cmd()
            .args(["-v", "--json"])
            .args(args)
            .env("SGCTL_AUDIT_LOG", dir.path().join("audit.jsonl"))
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            serde_json::from_slice::<Value>(&out.stdout).unwrap_or(Value::Null),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let sent = |trace: &str| trace.contains("Reassign Blocks cdb:");
    // --dry-run: the CDB and parameter list (SBC-5 5.33), nothing sent.
    let (code, j, err) = run(&["reassign", &addr, "3000", "0x1000", "--dry-run"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(j["data"]["cdb"], "07 00 00 00 00 00");
    assert_eq!(
        j["data"]["parameter_list"],
        "00 00 00 08 00 00 0b b8 00 00 10 00"
    );
    assert!(!sent(&err), "{err}");
    // Unconfirmed: refused by the gate (exit 6), nothing sent.
    let (code, _, err) = run(&["reassign", &addr, "3000"]);
    assert_eq!(code, 6, "{err}");
    assert!(!sent(&err), "{err}");
    // Beyond the last LBA: refused before anything is sent.
    let (code, _, err) = run(&["reassign", &addr, "8192", "--confirm", "RA1"]);
    assert_eq!(code, 2, "{err}");
    assert!(!sent(&err), "{err}");
    // Confirmed: sent, the grown list goes 0 -> 2, `sgctl defects` lists the two LBAs.
    let (code, j, err) = run(&["reassign", &addr, "3000", "0x1000", "--confirm", "RA1"]);
    assert_eq!(code, 0, "{err}");
    assert!(sent(&err), "{err}");
    assert_eq!(j["data"]["grown_before"], 0);
    assert_eq!(j["data"]["grown_after"], 2);
    let (_, j, _) = run(&["defects", &addr]);
    let lbas: Vec<u64> = j["data"]["list"]["defects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["lba"].as_u64().unwrap())
        .collect();
    assert_eq!(lbas, [3000, 0x1000]);
    let audit = std::fs::read_to_string(dir.path().join("audit.jsonl")).unwrap();
    assert!(
        audit.contains("\"reassign\"") && audit.contains("\"end\""),
        "{audit}"
    );
}
