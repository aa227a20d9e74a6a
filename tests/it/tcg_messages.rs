//! TCG messages that protect the admin: band numbers checked against the drive's Locking
//! table before any session authenticates or any job starts; method statuses in words.

use crate::util::run_audited;

#[test]
fn a_band_the_drive_lacks_is_refused_before_anything_starts() {
    let dir = tempfile::tempdir().unwrap();
    let audit = dir.path().join("audit.jsonl");
    let dev = format!(
        "sim:px02smf080?serial=BAND99&state={}",
        dir.path().join("d.json").display()
    );
    let (code, out, err) = run_audited(
        &[
            "tcg",
            "erase",
            &dev,
            "--band",
            "99",
            "--msid",
            "--confirm",
            "BAND99",
        ],
        &audit,
    );
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("band 99 does not exist") && err.contains("bands 0..15"),
        "{err}"
    );
    assert!(
        !audit.exists(),
        "a job was started for a band the drive lacks"
    );
    for cmd in ["lock", "unlock"] {
        let (code, _, err) = run_audited(&["tcg", cmd, &dev, "--band", "16", "--msid"], &audit);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("bands 0..15"), "{err}");
    }
    let (code, _, err) = run_audited(
        &[
            "tcg",
            "configure-band",
            &dev,
            "--band",
            "16",
            "--start",
            "0",
            "--length",
            "8",
            "--msid",
        ],
        &audit,
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bands 0..15"), "{err}");
}
