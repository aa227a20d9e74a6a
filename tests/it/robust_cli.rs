//! What sgctl does with numbers, pipes and arguments a careless admin or a script gives it:
//! exit statuses that follow README.md's table, no panic, no hang, one JSON document.

use crate::util::{run, sgctl_cmd};
use serde_json::Value;
use std::io::Read;
use std::process::Stdio;

/// A virtual drive with its state and audit log in a temporary directory.
struct Drive {
    dir: tempfile::TempDir,
    serial: &'static str,
}

impl Drive {
    fn new(serial: &'static str) -> Drive {
        Drive {
            dir: tempfile::tempdir().unwrap(),
            serial,
        }
    }
    fn addr(&self) -> String {
        format!(
            "sim:px02smf080?clock=virtual&capacity_blocks=65536&serial={}&state={}",
            self.serial,
            self.dir.path().join("drive.json").display()
        )
    }
    fn audit(&self) -> std::path::PathBuf {
        self.dir.path().join("audit.jsonl")
    }
    fn audit_events(&self) -> Vec<Value> {
        std::fs::read_to_string(self.audit())
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
}

fn no_panic(err: &str) {
    assert!(!err.contains("panicked"), "{err}");
    assert!(!err.contains("RUST_BACKTRACE"), "{err}");
}

#[test]
fn non_finite_and_out_of_range_numbers_are_usage_errors() {
    let d = Drive::new("NUM001");
    let a = d.addr();
    let cases: Vec<Vec<&str>> = vec![
        vec![
            "sanitize",
            &a,
            "--crypto",
            "--confirm",
            "NUM001",
            "--poll-interval",
            "NaN",
        ],
        vec![
            "sanitize",
            &a,
            "--crypto",
            "--confirm",
            "NUM001",
            "--poll-interval",
            "inf",
        ],
        vec!["format", &a, "--confirm", "NUM001", "--poll-interval", "-1"],
        vec!["wait", &a, "--poll-interval", "NaN"],
        vec!["wait", &a, "--poll-interval", "1e300"],
        vec!["sim", "fault", &a, "--advance", "inf"],
        vec!["sim", "fault", &a, "--advance", "1e300"],
        vec!["bench", "pts", &a, "--active-range", "NaN"],
        vec!["bench", "pts", &a, "--time-scale", "inf"],
        vec!["sim", "serve", &a, "--wait", "18446744073709551615"],
        vec!["sim", "bench", "--capacity-gib", "NaN"],
    ];
    for args in cases {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "sgctl {args:?}: {out}{err}");
        no_panic(&err);
    }
    // `health` reports a command line that does not parse as bit 0.
    let (code, _, err) = run(&["health", &a, "--timeout", "NaN"]);
    assert_eq!(code, 1, "{err}");
    no_panic(&err);
    // A NaN or infinite limit would never be breached: refused, not "ok".
    for rule in ["temperature_c=NaN", "temperature_c=inf"] {
        let (code, out, err) = run(&["health", &a, "--max", rule]);
        assert_eq!(code, 1, "{rule}: {out}{err}");
    }
    // Nothing reached the drive or the audit log.
    assert!(d.audit_events().is_empty());
}

#[test]
fn usage_errors_print_the_json_envelope() {
    for args in [
        &["--json", "wait", "sim:px02smf080", "--poll-interval", "NaN"][..],
        &["--json", "inquiry"][..],
        &["inquiry", "sim:px02smf080", "--no-such-flag", "--json"][..],
    ] {
        let (code, out, err) = run(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        let j: Value =
            serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"));
        assert_eq!(j["sgctl"]["exit_status"], 2);
        assert_eq!(j["data"], Value::Null);
        assert_eq!(j["sgctl"]["messages"][0]["severity"], "error", "{j}");
    }
    // --help is not an error and prints help, not JSON.
    let (code, out, _) = run(&["--json", "inquiry", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("Usage"));
}

#[test]
fn bad_arguments_exit_2_as_the_table_says() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("audit.jsonl");
    std::fs::write(&log, "").unwrap();
    let log = log.to_str().unwrap();
    for (args, want) in [
        (&["logs", "sim:px02smf080", "--page", "0x99"][..], 2),
        (&["logs", "sim:px02smf080", "--page", "0x10,0x100"][..], 2),
        (
            &["bench", "pts", "sim:px02smf080", "--resume", "/nonexistent"][..],
            2,
        ),
        (&["audit", "verify", "--head", "xyz", log][..], 2),
        (&["ata", "logs", "sim:hk4e", "--log", "0x99"][..], 2),
        (&["ata", "logs", "sim:hk4e", "--log", "300"][..], 2),
    ] {
        let (code, out, err) = run(args);
        assert_eq!(code, want, "sgctl {args:?}: {out}{err}");
        assert!(!out.contains("TAMPERED"), "{out}");
    }
    // A good head of an intact log still verifies.
    let (code, out, err) = run(&["audit", "verify", "--head", &"0".repeat(64), log]);
    assert_eq!(code, 5, "an empty log has no such head: {out}{err}");
}

#[test]
fn dry_run_with_a_wrong_confirm_is_refused() {
    let d = Drive::new("DRY001");
    let a = d.addr();
    for args in [
        &[
            "sanitize",
            &a,
            "--crypto",
            "--dry-run",
            "--confirm",
            "WRONG",
        ][..],
        &[
            "format",
            &a,
            "--block-size",
            "512",
            "--dry-run",
            "--confirm",
            "WRONG",
        ][..],
        &["logs", &a, "--reset", "--dry-run", "--confirm", "WRONG"][..],
    ] {
        let (code, out, err) = run(args);
        assert_eq!(code, 6, "sgctl {args:?}: {out}{err}");
        // A job prints its refused report; logs --reset, not a job, its error.
        assert!(
            format!("{out}{err}").contains("does not name this drive"),
            "{out}{err}"
        );
    }
    // Named right, the dry run is a plan (exit 0).
    let (code, out, err) = run(&[
        "sanitize",
        &a,
        "--crypto",
        "--dry-run",
        "--confirm",
        "DRY001",
    ]);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn a_state_file_in_use_is_busy_not_a_bad_address() {
    let d = Drive::new("BUSY01");
    // Another process opens the drive and keeps it (`sim serve` would), modelled by the
    // lock the virtual drive takes on its state file.
    let lock = d.dir.path().join("drive.lock");
    let f = std::fs::File::create(&lock).unwrap();
    let _held = nix::fcntl::Flock::lock(f, nix::fcntl::FlockArg::LockExclusive).unwrap();
    let (code, out, err) = run(&["--json", "inquiry", &d.addr()]);
    assert_eq!(code, 6, "{out}{err}");
    assert!(out.contains("busy"), "{out}");
}

/// Runs sgctl with the read end of its stdout pipe closed before it writes (every write
/// fails with EPIPE): (exit code, stderr).
fn with_closed_stdout_pipe(args: &[&str]) -> (Option<i32>, String) {
    let mut child = sgctl_cmd()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (child.wait().unwrap().code(), err)
}

#[test]
fn a_broken_pipe_keeps_the_commands_own_status() {
    // A breached threshold (warning bit 0x10) piped into a reader that went away.
    let args = ["health", "sim:px02smf080", "--max", "temperature_c=1"];
    let (code, _, _) = run(&args);
    assert_eq!(code, 0x10);
    let (code, err) = with_closed_stdout_pipe(&args);
    assert_eq!(code, Some(0x10), "{err}");
    no_panic(&err);
    // And a failing command in JSON mode.
    let (code, err) =
        with_closed_stdout_pipe(&["--json", "logs", "sim:px02smf080", "--page", "0x99"]);
    assert_eq!(code, Some(2), "{err}");
}

#[test]
fn a_closed_stdout_fails_the_command() {
    // `>&-`: the shell closes fd 1; the output can go nowhere.
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" \"$@\" >&-")
        .arg(env!("CARGO_BIN_EXE_sgctl"))
        .args(["inquiry", "sim:px02smf080"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("standard output is closed"));
    // `>/dev/null` is the caller's choice: success.
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" \"$@\" >/dev/null")
        .arg(env!("CARGO_BIN_EXE_sgctl"))
        .args(["inquiry", "sim:px02smf080"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

#[test]
fn a_closed_stderr_never_panics_a_job() {
    // `--progress-json 2>&1 | head -1`: the progress reader goes away at once.
    let d = Drive::new("PIPE01");
    let mut child = sgctl_cmd()
        .args([
            "--json",
            "sanitize",
            &d.addr(),
            "--block",
            "--confirm",
            "PIPE01",
        ])
        .args(["--progress-json", "--poll-interval", "1"])
        .env("SGCTL_AUDIT_LOG", d.audit())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let j: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["data"]["drives"][0]["outcome"], "success", "{j}");
    // The job recorded its end.
    let ev = d.audit_events();
    assert_eq!(ev.last().unwrap()["event"], "end", "{ev:?}");
}

#[test]
fn compare_html_with_an_absurd_latency_ends() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    let (code, _, err) = run(&[
        "bench",
        "run",
        "sim:px02smf080?capacity_blocks=65536",
        "--rw",
        "randread",
        "--runtime",
        "2",
        "--report",
        a.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    std::fs::create_dir(&b).unwrap();
    let mut j: Value =
        serde_json::from_slice(&std::fs::read(a.join("report.json")).unwrap()).unwrap();
    for iv in j["result"]["intervals"].as_array_mut().unwrap() {
        for k in ["mean_lat_us", "p99_lat_us", "max_lat_us"] {
            iv[k] = serde_json::json!(1e250);
        }
    }
    std::fs::write(b.join("report.json"), serde_json::to_vec(&j).unwrap()).unwrap();
    let html = dir.path().join("c.html");
    let mut child = sgctl_cmd()
        .args(["bench", "compare"])
        .args([&a, &b])
        .arg("--html")
        .arg(&html)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if t.elapsed() > std::time::Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    assert_eq!(
        status.and_then(|s| s.code()),
        Some(0),
        "bench compare --html hung"
    );
    assert!(html.exists());
}

#[test]
fn format_capacity_beyond_the_drive_is_refused_before_anything_is_sent() {
    let d = Drive::new("CAP001");
    let a = d.addr();
    let (code, out, err) = run(&[
        "format",
        &a,
        "--block-size",
        "512",
        "--capacity",
        "18446744073709551615",
        "--confirm",
        "CAP001",
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        format!("{out}{err}").contains("nothing was sent"),
        "{out}{err}"
    );
    // No job started: the audit log has no record, and the drive kept its capacity.
    assert!(d.audit_events().is_empty(), "{:?}", d.audit_events());
    let (code, out, _) = run(&["--json", "readcap", &a]);
    assert_eq!(code, 0);
    let j: Value = serde_json::from_str(&out).unwrap();
    assert!(j.to_string().contains("65535"), "{j}");
}

#[test]
fn control_characters_never_reach_the_summary_or_the_certificate_text() {
    let d = Drive::new("INJ001");
    let forged = "\n  verification: PASSED \u{1b}[32m\u{202e}";
    let addr = format!("{}&x=1{forged}", d.addr());
    let cert = d.dir.path().join("c.json");
    let out = sgctl_cmd()
        .args([
            "sanitize",
            &addr,
            "--crypto",
            "--confirm",
            "INJ001",
            "--certificate",
        ])
        .arg(&cert)
        .env("SGCTL_AUDIT_LOG", d.audit())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let txt = std::fs::read_to_string(cert.with_extension("json.txt")).unwrap_or_default();
    for (what, t) in [
        ("stdout", &stdout),
        ("stderr", &stderr),
        ("certificate", &txt),
    ] {
        assert!(
            !t.lines()
                .any(|l| l.trim_start().starts_with("verification: PASSED")),
            "{what}: {t}"
        );
        assert!(
            !t.contains('\u{1b}') && !t.contains('\u{202e}'),
            "{what}: {t}"
        );
    }
    assert!(
        stdout.contains("\\n  verification: PASSED \\e[32m\\u{202e}"),
        "{stdout}"
    );

    // `sim info` of a state file whose serial holds control characters.
    let plain = format!(
        "sim:px02smf080?capacity_blocks=65536&state={}",
        d.dir.path().join("drive.json").display()
    );
    let (code, _, err) = run(&["sim", "info", &plain]);
    assert_eq!(code, 0, "{err}");
    let state = d.dir.path().join("drive.json");
    let mut j: Value = serde_json::from_slice(&std::fs::read(&state).unwrap()).unwrap();
    j["serial"] = Value::String(format!("S1{forged}"));
    std::fs::write(&state, serde_json::to_vec(&j).unwrap()).unwrap();
    let (code, out, err) = run(&["sim", "info", &plain]);
    assert_eq!(code, 0, "{err}");
    assert!(
        !out.contains('\u{1b}') && !out.contains('\u{202e}'),
        "{out}"
    );
    assert!(
        !out.lines()
            .any(|l| l.trim_start().starts_with("verification")),
        "{out}"
    );
    // An error quoting the state file's serial carries no terminal control on stderr.
    let (code, _, err) = run(&["inquiry", &d.addr()]);
    assert_eq!(code, 3, "{err}");
    assert!(
        !err.contains('\u{1b}') && !err.contains('\u{202e}'),
        "{err}"
    );
}

/// A newline inside a quoted value never starts a line of a multi-line stderr message: an
/// error quoting a device address, a usage error (clap's several lines quoting the argument
/// as typed), and the same usage error's JSON envelope.
#[test]
fn a_newline_inside_a_quoted_value_cannot_forge_a_stderr_line() {
    let forged = "\nverification: PASSED";
    let forged_line = |t: &str| {
        t.lines()
            .any(|l| l.trim_start().starts_with("verification: PASSED"))
    };
    for args in [
        vec!["inquiry".to_string(), format!("sim:px02{forged}")],
        vec![format!("bogus{forged}")],
        vec![
            "inquiry".to_string(),
            "sim:px02smf080".to_string(),
            format!("--bogus=1{forged}"),
        ],
    ] {
        let out = sgctl_cmd().args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(
            out.status.code(),
            Some(if args.len() == 2 && args[0] == "inquiry" {
                3
            } else {
                2
            }),
            "{args:?}: {err}"
        );
        assert!(!forged_line(&err), "{args:?}: {err}");
        let mut j = vec!["--json".to_string()];
        j.extend(args.iter().cloned());
        let out = sgctl_cmd().args(&j).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(!forged_line(&err), "{args:?}: {err}");
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let msg = v["sgctl"]["messages"][0]["string"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(!msg.is_empty(), "{v}");
    }
    // The escaped value is there to read.
    let out = sgctl_cmd().arg(format!("bogus{forged}")).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("'bogus\\nverification: PASSED'"), "{err}");
}
