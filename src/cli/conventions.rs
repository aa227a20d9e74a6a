//! The conventions of docs/cli-conventions.md, checked on every subcommand's clap definition
//! ([`super::command()`], the same tree `main` parses and `sgctl --generate-docs` renders). The
//! checks that run the binary are in tests/it/cli_conventions.rs.

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
    walk(&super::command(), "sgctl", &mut v);
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
}
