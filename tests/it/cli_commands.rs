//! CLI tests of the identification/query commands and `decode`: bad input gives exactly one
//! clear line on stderr and the documented exit status (see `sgctl --help`, proto/src/exit.rs);
//! `decode` turns fixtures into the documented JSON envelope.

use std::process::Output;

fn sgctl(args: &[&str]) -> Output {
    crate::util::sgctl_cmd()
        .args(args)
        .output()
        .expect("run sgctl")
}

fn fixture(p: &str) -> String {
    format!("{}/fixtures/{p}", env!("CARGO_MANIFEST_DIR"))
}

/// Exit status `code`, nothing on stdout, one line on stderr that starts with "sgctl: " and
/// contains `needle`.
fn one_line_error(o: &Output, code: i32, needle: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(code), "stderr: {err}");
    assert!(
        o.stdout.is_empty(),
        "stdout: {}",
        String::from_utf8_lossy(&o.stdout)
    );
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "want one line, got: {err}");
    assert!(lines[0].starts_with("sgctl: "), "{err}");
    assert!(lines[0].contains(needle), "'{needle}' not in: {err}");
}

#[test]
fn missing_device_node_is_exit_3() {
    for cmd in [
        "inquiry", "vpd", "readcap", "opcodes", "tur", "sense", "luns", "modes",
    ] {
        let o = sgctl(&[cmd, "/dev/sgctl-test-no-such-node"]);
        one_line_error(&o, 3, "/dev/sgctl-test-no-such-node");
    }
}

#[test]
fn regular_file_is_not_scsi_exit_3() {
    let f = tempfile::NamedTempFile::new().unwrap();
    let p = f.path().to_str().unwrap();
    let o = sgctl(&["inquiry", p]);
    one_line_error(&o, 3, "not a SCSI device");
    let o = sgctl(&["vpd", "/dev/null", "--page", "di"]);
    one_line_error(&o, 3, "not a SCSI device");
}

#[test]
fn unknown_vpd_page_is_usage_error() {
    let o = sgctl(&["vpd", "/dev/null", "--page", "bogus"]);
    one_line_error(&o, 2, "unknown VPD page 'bogus'");
    let o = sgctl(&["vpd", "/dev/null", "--page", "0x1ff"]);
    one_line_error(&o, 2, "unknown VPD page");
}

#[test]
fn unparsable_inhex_is_usage_error() {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    std::io::Write::write_all(&mut f, b"this is not hex\n").unwrap();
    let o = sgctl(&[
        "decode",
        "--inhex",
        f.path().to_str().unwrap(),
        "--as",
        "vpd",
    ]);
    one_line_error(&o, 2, "not a hex byte");
    let o = sgctl(&[
        "decode",
        "--inhex",
        "/nonexistent/file.hex",
        "--as",
        "inquiry",
    ]);
    one_line_error(&o, 2, "cannot read /nonexistent/file.hex");
    let empty = tempfile::NamedTempFile::new().unwrap();
    let o = sgctl(&[
        "decode",
        "--inhex",
        empty.path().to_str().unwrap(),
        "--as",
        "sense",
    ]);
    one_line_error(&o, 2, "no hex bytes");
}

#[test]
fn undecodable_bytes_are_exit_4() {
    // Not even a VPD header: nothing to decode.
    let mut f = tempfile::NamedTempFile::new().unwrap();
    std::io::Write::write_all(&mut f, b"00 83 00\n").unwrap();
    let o = sgctl(&[
        "decode",
        "--inhex",
        f.path().to_str().unwrap(),
        "--as",
        "vpd",
    ]);
    one_line_error(&o, 4, "truncated");
}

#[test]
fn inconsistent_vpd_bytes_decode_with_problems_exit_9() {
    // A VPD page whose length field lies (claims 0x20 bytes, has 1): decoded as far as the
    // bytes go, the problem listed, exit 9 (it used to be refused with exit 4).
    let mut f = tempfile::NamedTempFile::new().unwrap();
    std::io::Write::write_all(&mut f, b"00 83 00 20 01\n").unwrap();
    let path = f.path().to_str().unwrap();
    let o = sgctl(&["decode", "--inhex", path, "--as", "vpd"]);
    assert_eq!(o.status.code(), Some(9));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.starts_with("Device Identification VPD page:"), "{out}");
    assert!(
        out.contains("page length 32 needs 36 bytes, have 5"),
        "{out}"
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    let o = sgctl(&["--json", "decode", "--inhex", path, "--as", "vpd"]);
    assert_eq!(o.status.code(), Some(9));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["sgctl"]["exit_status"], 9);
    assert_eq!(v["data"]["page"], "device_identification");
    let problems = v["data"]["problems"].as_array().unwrap();
    assert!(
        problems[0].as_str().unwrap().contains("page length 32"),
        "{v}"
    );
    // The pre-SPC-3 EMC page (no descriptor headers): the overrun is listed, not misread.
    let p = fixture("commands/sg3_utils_inhex/vpd_di_old_emc_symm.hex");
    let o = sgctl(&["--json", "decode", "--inhex", &p, "--as", "vpd"]);
    assert_eq!(o.status.code(), Some(9));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["data"]["designators"].as_array().unwrap().len(), 0);
    assert!(v["data"]["problems"][0]
        .as_str()
        .unwrap()
        .contains("designator length 128 at offset 0 overruns"));
}

#[test]
fn unknown_decode_kind_is_clap_usage_error() {
    let o = sgctl(&["decode", "--inhex", "x", "--as", "nonsense"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn decode_json_envelope() {
    let p = fixture("commands/scsi_debug/vpd_83.hex");
    let o = sgctl(&["--json", "decode", "--inhex", &p, "--as", "vpd"]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["sgctl"]["exit_status"], 0);
    assert_eq!(v["data"]["page"], "device_identification");
    let d = v["data"]["designators"].as_array().unwrap();
    assert!(d
        .iter()
        .any(|x| x["designator"]["value"] == "0x3333333000000fa0"
            && x["association"] == "logical_unit"));
    let p = fixture("commands/scsi_debug/readcap16.hex");
    let o = sgctl(&["--json", "decode", "--inhex", &p, "--as", "readcap16"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["data"]["lba_count"], 32768);
    assert_eq!(v["data"]["block_len"], 512);
    assert_eq!(v["data"]["prot_en"], true);
    assert_eq!(v["data"]["p_type"], 0);
    assert_eq!(v["data"]["lbprz"], true);
}

#[test]
fn decode_every_kind_from_fixtures() {
    let cases = [
        (
            "commands/qemu_scsi_hd/inquiry.hex",
            "inquiry",
            "Vendor identification: SGCTLFX",
        ),
        (
            "commands/qemu_scsi_hd/vpd_b1.hex",
            "vpd",
            "Non-rotating medium",
        ),
        (
            "commands/qemu_scsi_hd/readcap10.hex",
            "readcap10",
            "Last LBA=524287",
        ),
        (
            "commands/scsi_debug/request_sense.hex",
            "sense",
            "Sense key: No Sense",
        ),
        ("commands/scsi_debug/rsoc_all.hex", "opcodes", "Report luns"),
        (
            "commands/scsi_debug/rsoc_one_inquiry.hex",
            "opcode",
            "Opcode=0x12  Inquiry",
        ),
        (
            "commands/scsi_debug/mode10_all.hex",
            "mode",
            "SAS phy control and discover",
        ),
        ("commands/scsi_debug/luns.hex", "luns", "0001000000000000"),
        (
            "logpages/libscsicmd_temperature.hex",
            "logpage",
            "emperature",
        ),
    ];
    for (f, kind, want) in cases {
        let o = sgctl(&["decode", "--inhex", &fixture(f), "--as", kind]);
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{f}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(out.contains(want), "{f}: '{want}' not in:\n{out}");
    }
    let o = sgctl(&[
        "decode",
        "--inhex",
        &fixture("commands/scsi_debug/mode6_all.hex"),
        "--as",
        "mode",
        "--six",
    ]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("Short LBA block descriptor"));
}

#[test]
fn decode_hex_dumps_raw_bytes() {
    let p = fixture("commands/scsi_debug/vpd_80.hex");
    let o = sgctl(&["--hex", "decode", "--inhex", &p, "--as", "vpd"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.starts_with(" 0000    00 80 00 04 34 30 30 30"), "{out}");
}
