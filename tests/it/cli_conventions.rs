//! The conventions of docs/cli-conventions.md, checked on every subcommand's clap definition
//! (`sgctl::cli::command()`, the same tree `main` parses and `xtask gen-docs` renders).

use clap::{Arg, ArgAction, Command, ValueHint};

/// Every (path, arg) of the tree, the path being `sgctl sanitize` etc.
fn walk(cmd: &Command, path: &str, out: &mut Vec<(String, Arg)>) {
    for a in cmd.get_arguments() {
        out.push((path.to_string(), a.clone()));
    }
    for s in cmd.get_subcommands() {
        walk(s, &format!("{path} {}", s.get_name()), out);
    }
}

fn all_args() -> Vec<(String, Arg)> {
    let mut v = Vec::new();
    walk(&sgctl::cli::command(), "sgctl", &mut v);
    v
}

fn takes_value(a: &Arg) -> bool {
    matches!(a.get_action(), ArgAction::Set | ArgAction::Append)
}

fn value_names(a: &Arg) -> Vec<String> {
    a.get_value_names()
        .map(|v| v.iter().map(|s| s.to_string()).collect())
        .unwrap_or_default()
}

fn flag(path: &str, a: &Arg) -> String {
    match a.get_long() {
        Some(l) => format!("{path} --{l}"),
        None => format!("{path} <{}>", a.get_id()),
    }
}

fn is_path_hint(h: ValueHint) -> bool {
    matches!(
        h,
        ValueHint::AnyPath | ValueHint::FilePath | ValueHint::DirPath | ValueHint::ExecutablePath
    )
}

/// A value name that says "a path": FILE, DIR, PATH, SYSROOT, REPORT (a report directory),
/// or ending in `_FILE`, `_DIR`, `_PATH`.
fn names_a_path(a: &Arg) -> bool {
    value_names(a).iter().any(|n| {
        let n = n.to_ascii_uppercase();
        ["FILE", "DIR", "PATH", "SYSROOT", "REPORT"].contains(&n.as_str())
            || ["_FILE", "_DIR", "_PATH"].iter().any(|s| n.ends_with(s))
    })
}

/// Whether `a`'s own value parser takes `v` (in a one-argument command, so that the
/// argument's relations to others do not matter).
fn parses(a: &Arg, v: &str) -> Result<(), clap::Error> {
    Command::new("t")
        .no_binary_name(true)
        .arg(
            Arg::new("x")
                .long("x")
                .value_parser(a.get_value_parser().clone()),
        )
        .try_get_matches_from(["--x", v])
        .map(|_| ())
}

/// A value that is not a path and not from a fixed list must not complete as a file name
/// (bash completes `Unknown` and path hints with `compgen -f`); a value named like a path must
/// be one (a `PathBuf`, so clap hints it as a path).
#[test]
fn values_complete_as_what_they_are() {
    let mut bad = Vec::new();
    for (p, a) in all_args() {
        if !takes_value(&a) || !a.get_possible_values().is_empty() {
            continue;
        }
        let h = a.get_value_hint();
        if names_a_path(&a) != is_path_hint(h) || h == ValueHint::Unknown {
            bad.push(format!(
                "{} {:?}: hint {h:?}",
                flag(&p, &a),
                value_names(&a)
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "value hints off the convention:\n{}",
        bad.join("\n")
    );
}

/// A positional device address is named DEVICE (help, man pages and completions say one word).
#[test]
fn device_arguments_are_named_device() {
    let mut bad = Vec::new();
    for (p, a) in all_args() {
        let id = a.get_id().as_str();
        if a.is_positional() && (id == "device" || id == "devices") && value_names(&a) != ["DEVICE"]
        {
            bad.push(format!("{} {:?}", flag(&p, &a), value_names(&a)));
        }
    }
    assert!(
        bad.is_empty(),
        "device arguments not named DEVICE:\n{}",
        bad.join("\n")
    );
}

/// Durations have one value name (DURATION) and one spelling: `30`, `30s`, `5m`, `500ms`
/// all parse (by src/cli/num.rs). SECONDS/SECS are old names of the same idea.
#[test]
fn durations_take_one_spelling() {
    let mut bad = Vec::new();
    let mut seen = 0;
    for (p, a) in all_args() {
        let names = value_names(&a);
        if names.iter().any(|n| n == "SECONDS" || n == "SECS") {
            bad.push(format!("{} {names:?}: call it DURATION", flag(&p, &a)));
        }
        if names.iter().any(|n| n == "DURATION") {
            seen += 1;
            for v in ["30", "30s", "5m", "500ms"] {
                if let Err(e) = parses(&a, v) {
                    bad.push(format!("{} {v}: {}", flag(&p, &a), e.kind()));
                }
            }
        }
    }
    assert!(seen >= 5, "only {seen} DURATION arguments found");
    assert!(
        bad.is_empty(),
        "durations off the convention:\n{}",
        bad.join("\n")
    );
}

/// Percentages are named PCT and take `50` and `50%`.
#[test]
fn percentages_take_the_sign() {
    let mut bad = Vec::new();
    for (p, a) in all_args() {
        let names = value_names(&a);
        if names.iter().any(|n| n == "PERCENT") {
            bad.push(format!("{} {names:?}: call it PCT", flag(&p, &a)));
        }
        if names.iter().any(|n| n == "PCT") {
            for v in ["50", "50%"] {
                if parses(&a, v).is_err() {
                    bad.push(format!("{} {v}", flag(&p, &a)));
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "percentages off the convention:\n{}",
        bad.join("\n")
    );
}

/// Method names: every `--method` and `--purge` takes the same words for the same method
/// (crypto, block, overwrite, auto), and no other spelling of them.
#[test]
fn one_set_of_method_names() {
    let common = ["crypto", "block", "overwrite", "auto"];
    let known = ["format", "none"];
    let mut bad = Vec::new();
    let mut seen = 0;
    for (p, a) in all_args() {
        if !matches!(a.get_long(), Some("method") | Some("purge")) {
            continue;
        }
        seen += 1;
        let vals: Vec<String> = a
            .get_possible_values()
            .iter()
            .map(|v| v.get_name().to_string())
            .collect();
        for c in common {
            if !vals.iter().any(|v| v == c) {
                bad.push(format!("{} lacks {c}", flag(&p, &a)));
            }
        }
        for v in &vals {
            if !(common.contains(&v.as_str())
                || known.contains(&v.as_str())
                || v.starts_with("ata-"))
            {
                bad.push(format!("{} has {v}, not a method name", flag(&p, &a)));
            }
        }
    }
    assert!(seen >= 3, "only {seen} method arguments found");
    assert!(
        bad.is_empty(),
        "method names off the convention:\n{}",
        bad.join("\n")
    );
}

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

/// One spelling of timeouts: every `--timeout` that is a time takes a DURATION (the discovery
/// options took milliseconds as `--timeout-ms N`); `--timeout-ms` survives only as a hidden
/// alias. `sim fault --timeout N` is a count of commands, not a time.
#[test]
fn timeouts_are_durations() {
    let mut bad = Vec::new();
    let mut durations = 0;
    for (p, a) in all_args() {
        let Some(long) = a.get_long() else { continue };
        if !long.contains("timeout") || !takes_value(&a) {
            continue;
        }
        let names = value_names(&a);
        match long {
            "timeout" if p == "sgctl sim fault" => {
                if names != ["N"] {
                    bad.push(format!("{}: a count of commands is N", flag(&p, &a)));
                }
            }
            "timeout" => {
                durations += 1;
                if names != ["DURATION"] {
                    bad.push(format!("{} {names:?}: call it DURATION", flag(&p, &a)));
                }
                for v in ["10", "10s", "2000ms", "1m"] {
                    if let Err(e) = parses(&a, v) {
                        bad.push(format!("{} {v}: {}", flag(&p, &a), e.kind()));
                    }
                }
            }
            "timeout-ms" if a.is_hide_set() => {}
            _ => bad.push(format!(
                "{}: a visible timeout that is not --timeout DURATION",
                flag(&p, &a)
            )),
        }
    }
    // health, scan, paths, locate, fault.
    assert!(durations >= 5, "only {durations} --timeout DURATION");
    assert!(
        bad.is_empty(),
        "timeouts off the convention:\n{}",
        bad.join("\n")
    );
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
