//! CLI tests for `sgctl logs` and `sgctl health` that need no device: decoding fixture files
//! with `--inhex`, and the health exit bit mask for usage errors and unopenable devices.

use crate::util::run as sgctl;

fn fixture(name: &str) -> String {
    format!("{}/fixtures/logpages/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn logs_inhex_json_decodes_scsi_debug_pages() {
    let f = fixture("sdeb_aa.hex");
    let (code, out, err) = sgctl(&["--json", "logs", "--inhex", &f]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let pages = v["data"]["pages"].as_array().unwrap();
    assert_eq!(pages.len(), 5);
    assert_eq!(pages[2]["name"], "Temperature");
    assert_eq!(pages[2]["decoded"]["current_c"], 38);
    assert_eq!(pages[2]["decoded"]["drive_trip_c"], 65);
    assert_eq!(pages[4]["decoded"]["asc"], 0);
    assert_eq!(pages[3]["decoded"]["temperature"][0]["lifetime_max_c"], 72);
}

#[test]
fn logs_inhex_page_filter_and_hex() {
    let f = fixture("libscsicmd_temperature.hex");
    let (code, out, _) = sgctl(&["logs", "--inhex", &f, "--page", "0x0d"]);
    assert_eq!(code, 0);
    assert!(out.contains("Current: 21 C"), "{out}");
    assert!(
        out.contains("!! temperature page: parameter 0x0002"),
        "{out}"
    );
    let (code, out, _) = sgctl(&["--hex", "logs", "--inhex", &f]);
    assert_eq!(code, 0);
    assert!(out.contains(" 0000    0d 00 00 78"), "{out}");
}

#[test]
fn logs_reset_options_need_reset() {
    // --confirm/--dry-run only make sense with --reset: a usage error otherwise.
    let (code, _, err) = sgctl(&["logs", "/dev/null", "--confirm", "X"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = sgctl(&["logs", "/dev/null", "--dry-run"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn health_exit_bits_usage_and_open() {
    // Bad rule: bit 0.
    let (code, _, err) = sgctl(&["health", "/dev/nonexistent-sg", "--max", "bogus=1"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("unknown health metric"), "{err}");
    // Unknown option (clap): also bit 0, not the generic usage code 2 (= bit 1 here).
    let (code, _, _) = sgctl(&["health", "--no-such-flag"]);
    assert_eq!(code, 1);
    // Device cannot be opened: bit 1, reported in the row.
    let (code, out, _) = sgctl(&["--json", "health", "/dev/nonexistent-sg"]);
    assert_eq!(code, 2, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["data"]["drives"][0]["state"], "unreadable");
    assert_eq!(v["data"]["exit_bits"], 2);
    assert_eq!(v["sgctl"]["exit_status"], 2);
}

#[test]
fn health_help_documents_the_bit_mask() {
    let (code, out, _) = sgctl(&["health", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("bit 3 (8)    FAILING"), "{out}");
    assert!(out.contains("sgctl_endurance_used_percent"));
}
