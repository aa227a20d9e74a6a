//! The conventions of docs/cli-conventions.md that show in what the binary does (the checks of
//! the clap tree itself are the binary's unit tests, src/cli/conventions.rs).

/// `sanitize --method crypto|block|overwrite` plans the same job as the old flags (the old
/// parser refused `--method crypto`).
#[test]
fn sanitize_method_names_match_the_old_flags() {
    let dir = tempfile::tempdir().unwrap();
    let addr = format!(
        "sim:px02smf080?clock=virtual&capacity_blocks=65536&serial=VOC001&state={}",
        dir.path().join("drive.json").display()
    );
    for (name, flag, action) in [
        ("crypto", "--crypto", "CRYPTO"),
        ("block", "--block", "BLOCK"),
        ("overwrite", "--overwrite", "OVERWRITE"),
    ] {
        let mut outs = Vec::new();
        for args in [["--method", name], [flag, "--dry-run"]] {
            let mut argv = vec![
                "sanitize",
                addr.as_str(),
                "--dry-run",
                "--confirm",
                "VOC001",
            ];
            argv.extend(args.iter().filter(|a| **a != "--dry-run"));
            let (code, out, err) = crate::util::run(&argv);
            assert_eq!(code, 0, "sgctl {argv:?}: {out}{err}");
            assert!(out.to_uppercase().contains(action), "{argv:?}: {out}");
            outs.push(out);
        }
        assert_eq!(
            outs[0], outs[1],
            "--method {name} and {flag} plan differently"
        );
    }
    let (code, out, err) = crate::util::run(&[
        "sanitize",
        &addr,
        "--method",
        "block",
        "--pattern",
        "ff",
        "--dry-run",
        "--confirm",
        "VOC001",
    ]);
    assert_eq!(code, 2, "--pattern goes with overwrite only: {out}{err}");
}

/// `--timeout-ms N`, the old spelling of the discovery timeouts, still works and means
/// milliseconds; both at once are refused. (The tree check, every timeout a DURATION, is the
/// binary's: src/cli/conventions.rs.)
#[test]
fn timeout_ms_is_the_old_spelling() {
    // The old spelling still works and means milliseconds; both at once are refused.
    let empty = tempfile::tempdir().unwrap();
    let root = empty.path().to_str().unwrap();
    for t in [&["--timeout", "2s"][..], &["--timeout-ms", "2000"]] {
        let mut argv = vec!["scan", "--names", "--sysroot", root];
        argv.extend(t);
        let (code, out, err) = crate::util::run(&argv);
        assert_eq!(code, 0, "{argv:?}: {out}{err}");
    }
    let (code, _, err) = crate::util::run(&["scan", "--timeout", "2s", "--timeout-ms", "5"]);
    assert_eq!(code, 2, "{err}");
}

/// `modes --page` takes the page names of the one mode page table (sdparm's abbreviations,
/// sgctl's names, aliases) as `vpd --page` takes sg_vpd's; a wrong name is a usage error that
/// lists the names, not a leaked integer parser message.
#[test]
fn modes_page_takes_names() {
    for (name, heading) in [
        ("cache", "Caching"),
        ("ca", "Caching"),
        ("ie", "Informational exceptions"),
        ("control", "Control"),
        ("rw-err", "Read write error recovery"),
        ("0x08", "Caching"),
    ] {
        let (code, out, err) = crate::util::run(&["modes", "sim:px02smf080", "--page", name]);
        assert_eq!(code, 0, "--page {name}: {out}{err}");
        assert!(
            out.to_lowercase().contains(&heading.to_lowercase()),
            "--page {name}: {out}"
        );
    }
    let (code, out, err) = crate::util::run(&["modes", "sim:px02smf080", "--page", "cachee"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("unknown mode page 'cachee'") && err.contains("ca, "),
        "{err}"
    );
    assert!(!err.contains("invalid digit"), "{err}");
}

/// The bash completion offers device names (`sgctl scan --names`) where a DEVICE goes, and
/// nowhere else: not after a command's one device, not as an option's value. `sgctl` is a
/// shell function here that prints fixed names, so the test needs no SCSI device.
#[test]
fn bash_completion_offers_device_names() {
    if std::process::Command::new("bash")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("SKIP: no bash");
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/dist/completions/sgctl.bash");
    let cases: &[(&[&str], bool)] = &[
        (&["sgctl", "inquiry", ""], true),
        (&["sgctl", "inquiry", "/dev/s"], true),
        (&["sgctl", "inquiry", "/dev/sg0", ""], false),
        (&["sgctl", "health", "/dev/sg0", ""], true),
        (&["sgctl", "modes", "--page", ""], false),
        (&["sgctl", "modes", "--page", "ca", ""], true),
        (&["sgctl", "tcg", "status", ""], true),
        (&["sgctl", "--json", "vpd", "-p", "di", ""], true),
        (&["sgctl", "decode", ""], false),
        (&["sgctl", ""], false),
    ];
    for (words, want) in cases {
        let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
        let prog = format!(
            "source '{script}'\nsgctl() {{ printf '/dev/sg7\\n/dev/sg8\\n'; }}\n\
             COMP_WORDS=({})\nCOMP_CWORD=$((${{#COMP_WORDS[@]}}-1))\nCOMPREPLY=()\n\
             _sgctl_with_devices sgctl \"${{COMP_WORDS[COMP_CWORD]}}\" \
             \"${{COMP_WORDS[COMP_CWORD-1]}}\" 2>/dev/null\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"",
            quoted.join(" ")
        );
        let o = std::process::Command::new("bash")
            .arg("-c")
            .arg(&prog)
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        let got = out.lines().any(|l| l == "/dev/sg7");
        assert_eq!(got, *want, "{words:?}: {out}");
    }
}
