//! Records that could not be written are named, and refused before the job (docs/security.md):
//! a certificate path that is a device (`/dev/full`) is refused with exit 6 and a message
//! naming it before the drive is opened, with no audit record. The full-filesystem cases over
//! real SG_IO (audit log and certificate on a full tmpfs) are in
//! vm/groups/mptsas-dualport/65-full-disk.sh; a full tmpfs in tests/it/file_safety.rs.

#[test]
fn certificate_on_a_device_is_refused_before_the_job() {
    if !std::path::Path::new("/dev/full").exists() {
        eprintln!("SKIP: no /dev/full here (the VM check covers a full tmpfs)");
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let addr = format!(
        "sim:px02smf080?clock=virtual&capacity_blocks=65536&serial=CERT0001&state={}",
        d.path().join("drive.json").display()
    );
    let audit = d.path().join("audit.jsonl");
    let o = crate::util::sgctl_cmd()
        .args([
            "format",
            &addr,
            "--block-size",
            "4096",
            "--confirm",
            "CERT0001",
        ])
        .args(["--certificate", "/dev/full"])
        .env("SGCTL_AUDIT_LOG", &audit)
        .env("SGCTL_LOCK_DIR", d.path().join("locks"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(6), "{err}");
    assert!(err.contains("/dev/full: is not a regular file"), "{err}");
    let log = std::fs::read_to_string(&audit).unwrap_or_default();
    assert!(!log.contains("\"event\":\"start\""), "{log}");
}
