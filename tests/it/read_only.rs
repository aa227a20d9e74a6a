//! Read-only commands leave the drive as they found it: every query, health, support and
//! dry-run command is run against virtual drives kept in a state file, and the error counter
//! log pages (write 0x02, read 0x03, verify 0x05, non-medium 0x06) must read the same bytes
//! before and after each one. A probe for a page or command the drive does not list (VPD 0x89
//! on a SAS drive, SECURITY PROTOCOL IN on a drive without it) would end in ILLEGAL REQUEST,
//! which the drive counts as a non-medium error. Also: `-v` and `--hex` for health and logs,
//! and `health --all` on a host without SCSI disks.

use crate::util::run;

const COUNTER_PAGES: [&str; 4] = ["0x02", "0x03", "0x05", "0x06"];

fn counters(dev: &str) -> String {
    COUNTER_PAGES
        .iter()
        .map(|p| {
            let (code, out, err) = run(&["--hex", "logs", dev, "--page", p]);
            format!("{p}: exit {code}\n{out}{err}")
        })
        .collect()
}

const COMMANDS: &[&[&str]] = &[
    &["inquiry"],
    &["vpd"],
    &["vpd", "--page", "sn"],
    &["vpd", "--page", "0x89"],
    &["readcap"],
    &["logs"],
    &["logs", "--page", "0x30"],
    &["health"],
    &["modes"],
    &["opcodes"],
    &["luns"],
    &["sense"],
    &["tur"],
    &["tcg", "discover"],
    &["tcg", "status"],
    &["tcg", "bands"],
    &["sanitize", "--support"],
    &["format", "--dry-run", "--block-size", "520"],
    &["reservations"],
    &["paths"],
    &["ata", "identify"],
    &["ata", "smart"],
];

#[test]
fn read_only_commands_leave_the_error_counters_alone() {
    let dir = tempfile::tempdir().unwrap();
    let mut moved = Vec::new();
    for profile in ["px02smf080", "mk4001grzb", "exarray", "hk4e"] {
        let state = dir.path().join(format!("{profile}.json"));
        let dev = format!("sim:{profile}?state={}", state.display());
        for cmd in COMMANDS {
            for flags in [&[][..], &["--json"][..], &["-v", "--hex"][..]] {
                let before = counters(&dev);
                let mut args: Vec<&str> = flags.to_vec();
                // Subcommand words first, then the device, then the options.
                let words = cmd.iter().take_while(|a| !a.starts_with('-')).count();
                args.extend_from_slice(&cmd[..words]);
                args.push(&dev);
                args.extend_from_slice(&cmd[words..]);
                let (code, _, err) = run(&args);
                assert!(
                    !err.contains("panicked"),
                    "{args:?} panicked (exit {code}): {err}"
                );
                let after = counters(&dev);
                if before != after {
                    moved.push(format!(
                        "{profile}: {args:?} (exit {code})\nbefore:\n{before}\nafter:\n{after}"
                    ));
                }
            }
        }
    }
    assert!(moved.is_empty(), "counters moved:\n{}", moved.join("\n"));
}

#[test]
fn health_five_times_keeps_non_medium_count() {
    let dir = tempfile::tempdir().unwrap();
    let dev = format!(
        "sim:px02smf080?state={}",
        dir.path().join("d.json").display()
    );
    for _ in 0..5 {
        let (code, out, err) = run(&["--json", "health", &dev]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["data"]["drives"][0]["errors"]["non_medium"], 0, "{out}");
    }
}

#[test]
fn unlisted_pages_are_refused_without_asking() {
    let (code, _, err) = run(&["-v", "vpd", "sim:px02smf080", "--page", "0x89"]);
    assert_eq!(code, 7, "{err}");
    assert!(
        err.contains("not in the device's Supported VPD Pages list"),
        "{err}"
    );
    assert!(!err.contains("12 01 89"), "VPD 0x89 was sent: {err}");
    let (code, _, err) = run(&["-v", "logs", "sim:px02smf080", "--page", "0x30"]);
    assert_eq!(code, 7, "{err}");
    assert!(
        !err.contains("4d 00 70"),
        "log page 0x30 was asked for: {err}"
    );
}

#[test]
fn verbose_and_hex_for_health_and_logs() {
    let (code, _, err) = run(&["-v", "health", "sim:px02smf080"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("Log sense cdb: 4d 00 46 00"), "{err}");
    assert!(err.contains("Inquiry cdb: 12 00 00 00"), "{err}");
    let (code, _, err) = run(&["-v", "logs", "sim:px02smf080", "--page", "6"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("Log sense cdb: 4d 00 46 00"), "{err}");
    let (code, out, err) = run(&["--hex", "health", "sim:px02smf080"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("state: OK"), "{out}");
    // The pages the report was computed from, as read: the non-medium page in hex.
    assert!(
        out.contains("Non-medium error log page [0x06,0x00]"),
        "{out}"
    );
    assert!(out.contains(" 0000    06 00 00 0c"), "{out}");
}

#[test]
fn health_all_without_scsi_disks_is_an_empty_result() {
    let root = tempfile::tempdir().unwrap();
    let root = root.path().to_str().unwrap();
    let (code, out, err) = run(&["--json", "health", "--all", "--sysroot", root]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["data"]["drives"], serde_json::json!([]), "{out}");
    assert!(
        out.contains("no SCSI disk found") || err.contains("no SCSI disk found"),
        "{out}{err}"
    );
    let (code, out, err) = run(&["health", "--all", "--prometheus", "--sysroot", root]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains("sgctl_health_read_ok{"), "{out}");
}
