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

#[test]
fn sim_info_shows_the_label_with_the_psid_that_reverts_the_drive() {
    let dir = tempfile::tempdir().unwrap();
    let audit = dir.path().join("audit.jsonl");
    let dev = format!(
        "sim:exarray?serial=LABEL01&state={}",
        dir.path().join("d.json").display()
    );
    let (code, out, err) = run_audited(&["sim", "info", &dev], &audit);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("label: TOSHIBA PX02SMU080") && out.contains("S/N LABEL01"),
        "{out}"
    );
    let (code, out, err) = run_audited(&["--json", "sim", "info", &dev], &audit);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let psid = v["data"]["label"]["psid"].as_str().unwrap().to_string();
    assert_eq!(psid.len(), 32);
    // The label's PSID is the one the drive takes.
    let f = dir.path().join("psid");
    crate::tcg_cli::private(&f, psid.as_ref());
    let (code, out, err) = run_audited(
        &[
            "tcg",
            "revert",
            &dev,
            "--psid-file",
            f.to_str().unwrap(),
            "--confirm",
            "LABEL01",
        ],
        &audit,
    );
    assert_eq!(code, 0, "{out}{err}");
    // A drive without a SED has no PSID on its label.
    let (_, out, _) = run_audited(&["--json", "sim", "info", "sim:mk4001grzb"], &audit);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["data"]["label"]["psid"], serde_json::Value::Null);
}

#[test]
fn a_wrong_pin_says_how_many_tries_are_left() {
    let dir = tempfile::tempdir().unwrap();
    let audit = dir.path().join("audit.jsonl");
    let dev = format!(
        "sim:px02smf080?serial=TRIES01&state={}",
        dir.path().join("d.json").display()
    );
    let wrong = dir.path().join("wrong");
    crate::tcg_cli::private(&wrong, "not-the-pin".as_bytes());
    let wrong = wrong.to_str().unwrap();
    for used in 1..=5 {
        let (code, _, err) = run_audited(
            &["tcg", "lock", &dev, "--band", "0", "--pin-file", wrong],
            &audit,
        );
        assert_ne!(code, 0);
        assert!(
            err.contains(&format!("{used} of 5 tries used")),
            "try {used}: {err}"
        );
        if used < 5 {
            assert!(err.contains(&format!("{} left", 5 - used)), "{err}");
        } else {
            assert!(err.contains("locked out until a power cycle"), "{err}");
        }
    }
}

#[test]
fn take_ownership_of_an_owned_drive_is_refused_in_plain_words() {
    let dir = tempfile::tempdir().unwrap();
    let audit = dir.path().join("audit.jsonl");
    let dev = format!(
        "sim:px02smf080?serial=OWNED01&state={}",
        dir.path().join("d.json").display()
    );
    let pin = dir.path().join("pin");
    crate::tcg_cli::private(&pin, "a-new-pin-0001".as_bytes());
    let pin = pin.to_str().unwrap();
    let (code, _, err) = run_audited(
        &["tcg", "take-ownership", &dev, "--new-pin-file", pin],
        &audit,
    );
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run_audited(
        &["tcg", "take-ownership", &dev, "--new-pin-file", pin],
        &audit,
    );
    assert_ne!(code, 0);
    assert!(err.contains("is already owned"), "{err}");
    assert!(err.contains("Nothing was changed"), "{err}");
    assert!(err.contains("4 left"), "{err}");
    // The advice quotes the address for the shell.
    assert!(
        err.contains(&format!("`sgctl tcg revert '{dev}' --psid-file FILE`")),
        "{err}"
    );
}

#[test]
fn take_ownership_does_not_spend_sids_last_try() {
    // Without Block SID the MSID check costs a try on an owned drive; when the try counter
    // (C_PIN_SID TryLimit 5, read anonymously) shows one try left, nothing is tried at all.
    let dir = tempfile::tempdir().unwrap();
    let audit = dir.path().join("audit.jsonl");
    let dev = format!(
        "sim:px02smf080?serial=OWNED02&state={}",
        dir.path().join("d.json").display()
    );
    let pin = dir.path().join("pin");
    crate::tcg_cli::private(&pin, "a-new-pin-0002".as_bytes());
    let pin = pin.to_str().unwrap();
    let take = || {
        run_audited(
            &["tcg", "take-ownership", &dev, "--new-pin-file", pin],
            &audit,
        )
    };
    let (code, _, err) = take();
    assert_eq!(code, 0, "{err}");
    // Four refusals that each spend a try: 4, 3, 2, 1 left.
    for left in [4, 3, 2, 1] {
        let (code, _, err) = take();
        assert_ne!(code, 0);
        assert!(err.contains(&format!("{left} left")), "{left}: {err}");
    }
    // Now one try is left: refused before any authentication, again and again (a spent try
    // would have locked SID out: "5 of 5 tries used").
    for _ in 0..2 {
        let (code, _, err) = take();
        assert_ne!(code, 0);
        assert!(err.contains("SID has 1 of 5 tries left"), "{err}");
        assert!(err.contains("nothing was tried"), "{err}");
        assert!(!err.contains("locked out"), "{err}");
    }
}
