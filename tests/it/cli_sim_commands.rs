//! Every identification/query command against the virtual drive `sim:px02smf080`, through the
//! built binary: text, `--json`, `--hex`, `-v`, cross-command consistency (INQUIRY serial vs
//! VPD 0x80, READ CAPACITY vs mode block descriptor, port 1 vs port 2 designators), an
//! unsupported page (exit 7), a drive that is formatting (TUR exit 4 with progress) and
//! descriptor-format sense.

use serde_json::Value;
use std::process::Output;
use std::time::Duration;

const DEV: &str = "sim:px02smf080";

fn sgctl(args: &[&str]) -> Output {
    crate::util::sgctl_cmd()
        .args(args)
        .output()
        .expect("run sgctl")
}

fn ok(args: &[&str]) -> String {
    let o = sgctl(args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

fn json(args: &[&str]) -> Value {
    let mut a = vec!["--json"];
    a.extend_from_slice(args);
    let v: Value = serde_json::from_str(&ok(&a)).unwrap();
    assert_eq!(v["sgctl"]["exit_status"], 0);
    v["data"].clone()
}

#[test]
fn inquiry_and_serial() {
    let i = json(&["inquiry", DEV]);
    assert_eq!(i["t10_vendor_identification"], "TOSHIBA");
    assert_eq!(i["product_identification"], "PX02SMF080");
    assert_eq!(i["peripheral_device_type"], 0);
    assert_eq!(i["multip"], true, "dual-ported SAS");
    let sn = json(&["vpd", DEV, "--page", "sn"]);
    assert_eq!(i["unit_serial_number"], sn["unit_serial_number"]);
    let txt = ok(&["inquiry", DEV]);
    assert!(txt.contains(" Vendor identification: TOSHIBA"), "{txt}");
}

#[test]
fn vpd_list_and_all_pages() {
    let list = json(&["vpd", DEV]);
    assert_eq!(list["page"], "supported_pages");
    let pages: Vec<u64> = list["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_u64().unwrap())
        .collect();
    assert!(pages.contains(&0x83) && pages.contains(&0xb1), "{pages:?}");
    let all = json(&["vpd", DEV, "--page", "all"]);
    let decoded = all["pages"].as_array().unwrap();
    assert_eq!(decoded.len(), pages.len(), "every listed page decodes");
    // Each page by number and by acronym gives the same decode.
    assert_eq!(
        json(&["vpd", DEV, "--page", "0xb1"]),
        json(&["vpd", DEV, "--page", "bdc"])
    );
}

#[test]
fn two_ports_same_lu() {
    let p1 = json(&["vpd", DEV, "--page", "di"]);
    let p2 = json(&["vpd", &format!("{DEV}?port=2"), "--page", "di"]);
    let find = |v: &Value, assoc: &str, kind: &str| -> Vec<Value> {
        v["designators"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["association"] == assoc && d["designator"]["kind"] == kind)
            .map(|d| d["designator"].clone())
            .collect()
    };
    assert_eq!(
        find(&p1, "logical_unit", "naa"),
        find(&p2, "logical_unit", "naa"),
        "same LU name through both ports"
    );
    assert_ne!(
        find(&p1, "target_port", "naa"),
        find(&p2, "target_port", "naa"),
        "different target port (SAS address)"
    );
    assert_eq!(
        find(&p1, "target_port", "relative_target_port")[0]["relative_port"],
        1
    );
    assert_eq!(
        find(&p2, "target_port", "relative_target_port")[0]["relative_port"],
        2
    );
    // The SCSI Ports page lists both ports whichever one is asked.
    let sp = json(&["vpd", &format!("{DEV}?port=2"), "--page", "sp"]);
    let rel: Vec<u64> = sp["ports"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["relative_port"].as_u64().unwrap())
        .collect();
    assert_eq!(rel, vec![1, 2]);
}

#[test]
fn capacity_three_ways_agree() {
    let r16 = json(&["readcap", DEV, "--16"]);
    let r10 = json(&["readcap", DEV, "--10"]);
    let auto = json(&["readcap", DEV]);
    assert_eq!(auto, r16, "default is READ CAPACITY(16)");
    assert_eq!(r16["lba_count"], r10["lba_count"]);
    assert_eq!(r16["block_len"], r10["block_len"]);
    assert_eq!(
        r16["size_bytes"].as_u64().unwrap(),
        r16["lba_count"].as_u64().unwrap() * r16["block_len"].as_u64().unwrap()
    );
    let m = json(&["modes", DEV, "--page", "1", "--llbaa"]);
    let bd = &m["block_descriptors"][0];
    assert_eq!(bd["number_of_blocks"], r16["lba_count"]);
    assert_eq!(bd["block_length"], r16["block_len"]);
    let m6 = json(&["modes", DEV, "--page", "1", "--six"]);
    assert_eq!(m6["block_descriptors"][0]["block_length"], r16["block_len"]);
    // PROTECT in INQUIRY and SPT in VPD 0x86 come from the same profile.
    let inq = json(&["inquiry", DEV]);
    let ei = json(&["vpd", DEV, "--page", "ei"]);
    if inq["protect"] == true {
        assert!(ei["grd_chk"] == true || ei["ref_chk"] == true);
    }
}

#[test]
fn opcodes_all_one_and_timeouts() {
    let all = json(&["opcodes", DEV]);
    let cmds = all["commands"].as_array().unwrap();
    assert!(cmds.iter().any(|c| c["opcode"] == 0x12));
    assert!(cmds
        .iter()
        .any(|c| c["opcode"] == 0x48 && c["service_action"] == 3));
    let t = json(&["opcodes", DEV, "-T"]);
    assert!(t["commands"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["timeouts"].is_object()));
    let one = json(&["opcodes", DEV, "--opcode", "0x48", "--sa", "3"]);
    assert_eq!(one["support"], "standard");
    assert_eq!(one["cdb_size"], 10);
    let txt = ok(&["opcodes", DEV, "--opcode", "0x12"]);
    assert!(
        txt.contains("Inquiry") && txt.contains("supported"),
        "{txt}"
    );
}

#[test]
fn tur_sense_luns_modes() {
    assert_eq!(json(&["tur", DEV])["ready"], true);
    let s = json(&["sense", DEV]);
    assert_eq!(s["key"], "no_sense");
    let l = json(&["luns", DEV]);
    assert_eq!(l["luns"].as_array().unwrap().len(), 1);
    let m = json(&["modes", DEV]);
    let codes: Vec<u64> = m["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["page_code"].as_u64().unwrap())
        .collect();
    for c in [0x01, 0x08, 0x0a, 0x19, 0x1c] {
        assert!(codes.contains(&c), "page {c:#x} in {codes:?}");
    }
    let ch = json(&["modes", DEV, "--page", "0x0a", "--pc", "changeable"]);
    assert_eq!(ch["pages"][0]["page_code"], 0x0a);
}

#[test]
fn hex_and_verbose() {
    let h = ok(&["--hex", "vpd", DEV, "--page", "0x80"]);
    assert!(h.starts_with(" 0000    00 80 00"), "{h}");
    let o = sgctl(&["-v", "tur", DEV]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("00 00 00 00 00 00"), "CDB traced: {err}");
}

#[test]
fn unsupported_page_is_exit_7_one_line() {
    let o = sgctl(&["vpd", DEV, "--page", "0xde"]);
    assert_eq!(o.status.code(), Some(7));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("not supported"), "{err}");
    assert!(o.stdout.is_empty());
    let o = sgctl(&["modes", DEV, "--page", "0x3e"]);
    assert_eq!(
        o.status.code(),
        Some(7),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn formatting_drive_reports_progress() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("d.json");
    let spec = format!("px02smf080?state={}&clock=virtual", state.display());
    {
        // Start FORMAT UNIT with IMMED (FMTDATA=1 CMPLST=1, short header [0, IMMED, 0, 0]:
        // what sg_format sends, protocols.md §C.2) directly through the library.
        let mut d = sgctl::sim::open(&spec).unwrap();
        sgctl::cmd::run_out(
            &mut d,
            &[0x04, 0x18, 0, 0, 0, 0],
            &[0, 0x02, 0, 0],
            Duration::from_secs(30),
        )
        .unwrap();
        d.save().unwrap();
    }
    let addr = format!("sim:{spec}");
    let o = sgctl(&["tur", &addr]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(4), "not ready is exit 4: {out}");
    assert!(out.contains("format in progress"), "{out}");
    assert!(out.contains("Progress indication"), "{out}");
    let o = sgctl(&["--json", "tur", &addr]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["data"]["ready"], false);
    assert_eq!(v["data"]["sense"]["asc"], 4);
    assert_eq!(v["data"]["sense"]["ascq"], 4);
    assert_eq!(v["sgctl"]["exit_status"], 4);
    // REQUEST SENSE answers GOOD with the progress, in fixed or descriptor format.
    let s = json(&["sense", &addr]);
    assert_eq!((s["asc"].as_u64(), s["ascq"].as_u64()), (Some(4), Some(4)));
    assert_eq!(s["sks"]["kind"], "progress");
    let d = json(&["sense", &addr, "--desc"]);
    assert_eq!(d["descriptor_format"], true);
    assert_eq!(d["sks"], s["sks"]);
}
