//! `sgctl reservations` and the safety gate's reservation check on a dual-port virtual drive
//! whose persistent reservation (APTPL) lives in its state file: prepared through port 2 with
//! the library, looked at through port 1 and port 2 by the binary.

use serde_json::Value;

fn sgctl(dir: &std::path::Path, args: &[&str]) -> (i32, Value, String) {
    let out = crate::util::sgctl_cmd()
        .arg("--json")
        .args(args)
        .env("SGCTL_AUDIT_LOG", dir.join("audit.jsonl"))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        serde_json::from_slice(&out.stdout).unwrap_or(Value::Null),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn pr_out(d: &mut sgctl::sim::SimDevice, sa: u8, rtype: u8, key: u64, sa_key: u64) {
    use sgctl::transport::{DataBuf, Transport};
    let mut p = [0u8; 24];
    p[0..8].copy_from_slice(&key.to_be_bytes());
    p[8..16].copy_from_slice(&sa_key.to_be_bytes());
    p[20] = 1; // APTPL
    let cdb = [0x5F, sa, rtype, 0, 0, 0, 0, 0, 24, 0];
    let c = d
        .execute(&cdb, DataBuf::Out(&p), std::time::Duration::from_secs(5))
        .unwrap();
    assert_eq!(c.status, 0, "{:02x?}", c.sense);
}

#[test]
fn reservations_shown_per_port_and_the_gate_refuses_another_initiators_drive() {
    let dir = tempfile::tempdir().unwrap();
    let base = format!(
        "px02smf080?clock=virtual&capacity_blocks=65536&serial=PR0001&state={}",
        dir.path().join("d.json").display()
    );
    {
        let d = sgctl::sim::open(&base).unwrap();
        let mut p2 = d.port(2);
        // Clear the power-on unit attention first.
        let _ = sgctl::cmd::run_none(&mut p2, &[0; 6], std::time::Duration::from_secs(5));
        pr_out(&mut p2, 0x00, 0, 0, 0xB0B);
        pr_out(&mut p2, 0x01, 0x01, 0xB0B, 0);
    }
    let p1 = format!("sim:{base}&port=1");
    let p2 = format!("sim:{base}&port=2");
    let (code, j, err) = sgctl(dir.path(), &["reservations", &p1]);
    assert_eq!(code, 0, "{err}");
    let r = &j["data"]["reservations"];
    assert_eq!(r["keys"], serde_json::json!([0xB0B]));
    assert_eq!(r["reservation"]["rtype"], 1);
    assert_eq!(r["this_port"], 1);
    assert_eq!(r["registrants"][0]["relative_target_port"], 2);
    assert_eq!(j["data"]["held_by_other_initiator"], true);
    let (code, j, _) = sgctl(dir.path(), &["reservations", &p2]);
    assert_eq!(code, 0);
    assert_eq!(j["data"]["held_by_other_initiator"], false);
    // Text output names the holder and type.
    let out = crate::util::sgctl_cmd()
        .args(["reservations", &p1])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Write Exclusive") && text.contains("another initiator"),
        "{text}"
    );

    // The gate: a format through port 1 is refused (even as a dry run), nothing sent.
    let (code, j, err) = sgctl(
        dir.path(),
        &["format", &p1, "--block-size", "512", "--confirm", "PR0001"],
    );
    assert_ne!(code, 0, "{j}");
    let msg = format!("{j}{err}");
    assert!(msg.contains("reserved by another initiator"), "{msg}");
    // Through the holder's port the gate lets it pass.
    let (code, j, err) = sgctl(
        dir.path(),
        &["format", &p2, "--block-size", "512", "--dry-run"],
    );
    assert_eq!(code, 0, "{err}\n{j}");
    // Told otherwise, port 1 passes the gate (dry run: nothing is sent).
    let (code, j, err) = sgctl(
        dir.path(),
        &[
            "format",
            &p1,
            "--block-size",
            "512",
            "--dry-run",
            "--ignore-reservation",
        ],
    );
    assert_eq!(code, 0, "{err}\n{j}");
}
