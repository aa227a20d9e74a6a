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
