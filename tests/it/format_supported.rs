//! `sgctl format --list-supported` and the preflight against VPD 0xB4 on virtual drives:
//! a length or PI type the drive does not list is refused before any command that changes the
//! drive; `--force` sends it and the READ CAPACITY(16) check catches a substituted size; the
//! vendor-locked `exarraylock` drive's ILLEGAL REQUEST for 512 is diagnosed.

use crate::util::SimDrive;

/// A drive of one test, traced: the CDBs sent are in its stderr.
fn drive(profile: &'static str, serial: &str) -> SimDrive {
    SimDrive::new(profile, serial).traced()
}

fn sent(trace: &str, name: &str) -> bool {
    trace
        .lines()
        .any(|l| l.trim_start().starts_with(&format!("{name} cdb:")))
}

#[test]
fn list_supported_reports_lengths_presets_rsoc_geometry_and_format_status() {
    let d = drive("px03snf080", "LIST01");
    let (code, j, trace) = d.sgctl(&["format", &d.addr(""), "--list-supported"]);
    assert_eq!(code, 0, "{trace}\n{j}");
    let data = &j["data"];
    let lens: Vec<u64> = data["block_lengths"]["descriptors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["logical_block_length"].as_u64().unwrap())
        .collect();
    assert_eq!(lens, vec![512, 520, 528, 4096, 4104, 4160, 4224]);
    let presets = data["format_presets"]["presets"].as_array().unwrap();
    assert_eq!(presets.len(), 2);
    assert_eq!(presets[1]["logical_block_length"], 4096);
    assert_eq!(data["format_unit"]["support"], "supported");
    assert!(
        data["format_unit"]["recommended_timeout_s"]
            .as_u64()
            .unwrap()
            > 0
    );
    assert_eq!(data["current"]["block_len"], 512);
    assert_eq!(data["current"]["blocks"], 65536);
    assert!(data["format_status"].is_object(), "{data}");
    // Read-only: no MODE SELECT, no FORMAT UNIT.
    assert!(!sent(&trace, "Format Unit") && !sent(&trace, "Mode select(10)"));
    // Text form.
    let out = crate::util::sgctl_cmd()
        .args(["format", &d.addr(""), "--list-supported"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("4096 bytes  PI types 0"), "{text}");
    assert!(
        text.contains("preset 0x2: block device, 4096 bytes"),
        "{text}"
    );
    assert!(text.contains("FORMAT UNIT (RSOC): supported"), "{text}");
    assert!(
        text.contains("Current format (READ CAPACITY 16): 512 bytes"),
        "{text}"
    );
}

#[test]
fn unlisted_length_refused_before_anything_is_sent_then_forced_and_substitution_caught() {
    let d = drive("px02smf080", "LIST02");
    let faults = "&unlisted_block=4096&substitute_block=528";
    let (code, j, trace) = d.sgctl(&[
        "format",
        &d.addr(faults),
        "--block-size",
        "4096",
        "--confirm",
        "LIST02",
    ]);
    assert_eq!(code, 7, "{trace}\n{j}");
    let rec = &j["data"]["drives"][0];
    assert_eq!(rec["outcome"], "unsupported");
    let m = rec["message"].as_str().unwrap();
    assert!(
        m.contains("does not list logical block length 4096") && m.contains("512, 520, 528"),
        "{m}"
    );
    assert!(sent(&trace, "Inquiry"), "{trace}");
    assert!(!sent(&trace, "Format Unit"), "{trace}");
    assert!(!sent(&trace, "Mode select(10)"), "{trace}");
    // --force sends it; the drive formats to 528 instead; the verification fails (exit 5).
    let (code, j, trace) = d.sgctl(&[
        "format",
        &d.addr(faults),
        "--block-size",
        "4096",
        "--force",
        "--confirm",
        "LIST02",
    ]);
    assert!(sent(&trace, "Format Unit"), "{trace}");
    assert_eq!(code, 5, "{trace}\n{j}");
    let rec = &j["data"]["drives"][0];
    assert_eq!(rec["outcome"], "check_failed");
    assert!(rec["message"].as_str().unwrap().contains("528"), "{rec}");
}

#[test]
fn unlisted_protection_type_refused() {
    // px02smf080 (PROTECT=1) lists types 0, 1 and 2, not 3.
    let d = drive("px02smf080", "LIST03");
    let (code, j, trace) = d.sgctl(&[
        "format",
        &d.addr(""),
        "--block-size",
        "512",
        "--pi",
        "3",
        "--confirm",
        "LIST03",
    ]);
    assert_eq!(code, 7, "{j}");
    let m = j["data"]["drives"][0]["message"].as_str().unwrap();
    assert!(
        m.contains("protection type 3 at 512-byte blocks") && m.contains("types 0, 1, 2"),
        "{m}"
    );
    assert!(!sent(&trace, "Format Unit"), "{trace}");
}

#[test]
fn vendor_locked_drive_refusing_512_is_diagnosed() {
    let d = drive("exarraylock", "LIST04");
    let (code, j, _) = d.sgctl(&["format", &d.addr(""), "--list-supported"]);
    assert_eq!(code, 0);
    let lens: Vec<u64> = j["data"]["block_lengths"]["descriptors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["logical_block_length"].as_u64().unwrap())
        .collect();
    assert_eq!(lens, vec![520, 528]);
    // Without --force: refused before anything is sent.
    let (code, _, trace) = d.sgctl(&[
        "format",
        &d.addr(""),
        "--block-size",
        "512",
        "--confirm",
        "LIST04",
    ]);
    assert_eq!(code, 7);
    assert!(!sent(&trace, "Format Unit"), "{trace}");
    // With --force: the firmware answers ILLEGAL REQUEST 26/00; sgctl says why.
    let (code, j, trace) = d.sgctl(&[
        "format",
        &d.addr(""),
        "--block-size",
        "512",
        "--force",
        "--confirm",
        "LIST04",
    ]);
    assert!(sent(&trace, "Format Unit"), "{trace}");
    assert_eq!(code, 7, "{j}");
    let m = j["data"]["drives"][0]["message"].as_str().unwrap();
    assert!(
        m.contains("this drive's firmware lists only 520, 528: vendor-locked sizes"),
        "{m}"
    );
    assert!(m.contains("26/00"), "{m}");
    // The drive keeps its 520-byte format.
    let (_, j, _) = d.sgctl(&["readcap", &d.addr("")]);
    assert_eq!(j["data"]["block_len"], 520, "{j}");
}

#[test]
fn format_with_preset_formats_to_the_preset_and_verifies_it() {
    // px03snf080 lists presets 1 (512 bytes) and 2 (4096 bytes, no PI) in VPD 0xB8.
    let d = drive("px03snf080", "PRESET1");
    let (code, j, trace) = d.sgctl(&[
        "format",
        &d.addr(""),
        "--preset",
        "2",
        "--confirm",
        "PRESET1",
    ]);
    assert_eq!(code, 0, "{trace}\n{j}");
    // SBC-5 5.9: 38h, IMMED, PRESET IDENTIFIER 2; no MODE SELECT, no FORMAT UNIT.
    assert!(
        trace.contains("Format with preset cdb: 38 80 00 00 00 02 00 00 00 00"),
        "{trace}"
    );
    assert!(!sent(&trace, "Format Unit") && !sent(&trace, "Mode select(10)"));
    let rec = &j["data"]["drives"][0];
    assert_eq!(rec["outcome"], "success", "{rec}");
    assert_eq!(rec["commands"][0]["name"], "FORMAT WITH PRESET");
    // The start record carries the preset's geometry (what --recover restores).
    assert_eq!(rec["parameters"]["preset"], 2);
    assert_eq!(rec["parameters"]["block_size"], 4096);
    // The geometry READ CAPACITY(16) reports afterwards is the preset's: 4096-byte blocks,
    // no PI, DESIGNED LAST LBA + 1 blocks (the same bytes as the 65536 512-byte blocks).
    let (code, rc, _) = d.sgctl(&["readcap", &d.addr("")]);
    assert_eq!(code, 0);
    assert_eq!(rc["data"]["block_len"], 4096, "{rc}");
    assert_eq!(rc["data"]["lba_count"], 8192, "{rc}");
    assert_eq!(rc["data"]["prot_en"], false, "{rc}");
    let (_, ls, _) = d.sgctl(&["format", &d.addr(""), "--list-supported"]);
    assert_eq!(
        ls["data"]["format_presets"]["presets"][1]["designed_last_lba"], 8191,
        "{ls}"
    );
    // Back to preset 1.
    let (code, _, _) = d.sgctl(&[
        "format",
        &d.addr(""),
        "--preset",
        "1",
        "--confirm",
        "PRESET1",
    ]);
    assert_eq!(code, 0);
    let (_, rc, _) = d.sgctl(&["readcap", &d.addr("")]);
    assert_eq!(
        (
            rc["data"]["block_len"].clone(),
            rc["data"]["lba_count"].clone()
        ),
        (512.into(), 65536.into())
    );
}

#[test]
fn unlisted_preset_refused_before_anything_is_sent_even_with_force() {
    let d = drive("px03snf080", "PRESET2");
    for extra in [&[][..], &["--force"][..]] {
        let mut args = vec!["format", "--preset", "7", "--confirm", "PRESET2"];
        args.extend_from_slice(extra);
        let a = d.addr("");
        args.insert(1, &a);
        let (code, j, trace) = d.sgctl(&args);
        assert_eq!(code, 7, "{trace}\n{j}");
        let m = j["data"]["drives"][0]["message"].as_str().unwrap();
        assert!(
            m.contains("preset 7 is not one the drive lists") && m.contains("listed: 1, 2"),
            "{m}"
        );
        assert!(sent(&trace, "Inquiry"), "{trace}");
        assert!(!sent(&trace, "Format with preset"), "{trace}");
        assert!(!sent(&trace, "Format Unit") && !sent(&trace, "Mode select(10)"));
    }
    // A drive with no Format Presets page has no preset at all.
    let d = drive("px02smf080", "PRESET3");
    let (code, j, trace) = d.sgctl(&[
        "format",
        &d.addr(""),
        "--preset",
        "1",
        "--confirm",
        "PRESET3",
    ]);
    assert_eq!(code, 7, "{trace}\n{j}");
    let m = j["data"]["drives"][0]["message"].as_str().unwrap();
    assert!(m.contains("no Format Presets VPD page"), "{m}");
    assert!(!sent(&trace, "Format with preset"), "{trace}");
    // --preset with a geometry of its own is a usage error.
    let (code, _, _) = d.sgctl(&[
        "format",
        &d.addr(""),
        "--preset",
        "1",
        "--block-size",
        "512",
    ]);
    assert_eq!(code, 2);
}

#[test]
fn format_with_preset_substitution_is_caught() {
    let d = drive("px03snf080", "PRESET4");
    let (code, j, trace) = d.sgctl(&[
        "format",
        &d.addr("&substitute_block=520"),
        "--preset",
        "2",
        "--confirm",
        "PRESET4",
    ]);
    assert!(sent(&trace, "Format with preset"), "{trace}");
    assert_eq!(code, 5, "{trace}\n{j}");
    let rec = &j["data"]["drives"][0];
    assert_eq!(rec["outcome"], "check_failed");
    assert!(rec["message"].as_str().unwrap().contains("520"), "{rec}");
}
