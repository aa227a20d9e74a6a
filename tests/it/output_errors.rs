//! Write errors on records name the file: a certificate that cannot be written
//! (`/dev/full`: ENOSPC on every write) fails the command with exit 1 and a message naming the
//! certificate, after the job itself ran and its end record was written. The full-filesystem
//! cases over real SG_IO (audit log and certificate on a full tmpfs) are in
//! vm/groups/mptsas-dualport/65-full-disk.sh.

#[test]
fn certificate_write_error_names_the_file() {
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
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("certificate /dev/full: No space left on device"),
        "{err}"
    );
    let log = std::fs::read_to_string(&audit).unwrap();
    assert_eq!(log.matches("\"event\":\"end\"").count(), 1, "{log}");
}
