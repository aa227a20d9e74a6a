//! `sgctl --json=smartctl health`: smartctl's layout on the virtual drive, the sgctl envelope
//! unchanged for plain `--json`, and the layout refused (before anything is sent) for commands
//! that have no smartctl counterpart.

use crate::util::run as sgctl;
use serde_json::Value;

#[test]
fn health_in_smartctl_layout_puts_the_figures_where_smartctl_does() {
    let (code, out, err) = sgctl(&["--json=smartctl", "health", "sim:px02smf080"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["json_format_version"], serde_json::json!([1, 0]));
    assert_eq!(
        v["device"],
        serde_json::json!({"name": "sim:px02smf080", "info_name": "sim:px02smf080",
                           "type": "scsi", "protocol": "SCSI"})
    );
    assert!(v.get("data").is_none(), "no sgctl envelope: {out}");
    assert_eq!(v["scsi_vendor"], "TOSHIBA");
    assert_eq!(v["scsi_product"], "PX02SMF080");
    assert!(v["temperature"]["current"].is_u64(), "{out}");
    assert!(v["power_on_time"]["hours"].is_u64(), "{out}");
    assert!(
        v["scsi_percentage_used_endurance_indicator"].is_u64(),
        "{out}"
    );
    assert_eq!(v["smart_status"]["passed"], true);
    for d in ["read", "write"] {
        let e = &v["scsi_error_counter_log"][d];
        assert!(e["total_uncorrected_errors"].is_u64(), "{out}");
        // smartctl prints the bytes processed as a string in 10^9 bytes with 3 decimals.
        let gb = e["gigabytes_processed"].as_str().unwrap();
        assert_eq!(gb.split('.').nth(1).map(str::len), Some(3), "{gb}");
    }
    assert_eq!(v["sgctl"]["health"]["state"], "ok");
    assert_eq!(v["sgctl"]["exit_status"], 0);
}

#[test]
fn several_drives_are_an_array_of_smartctl_documents() {
    let (code, out, err) = sgctl(&[
        "--json=smartctl",
        "health",
        "sim:px02smf080",
        "sim:px02smf080?serial=B",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let a = v.as_array().unwrap();
    assert_eq!(a.len(), 2);
    assert!(a.iter().all(|d| d["device"]["type"] == "scsi"));
}

#[test]
fn plain_json_keeps_the_sgctl_envelope() {
    let (code, out, _) = sgctl(&["--json", "health", "sim:px02smf080"]);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["device"], "sim:px02smf080");
    assert!(v["data"]["drives"].is_array());
}

#[test]
fn the_smartctl_layout_is_refused_for_other_commands() {
    let (code, out, err) = sgctl(&["--json=smartctl", "inquiry", "sim:px02smf080"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("health"), "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["sgctl"]["exit_status"], 2);
    // An unknown layout is a command-line error: for health, exit bit 0.
    let (code, _, err) = sgctl(&["--json=xml", "health", "sim:px02smf080"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("smartctl"), "{err}");
}
