//! Ctrl-C at the confirmation prompt: the prompt ends at
//! once, even though the job runner has its own SIGINT handler installed with SA_RESTART
//! (which restarts a plain blocked read and swallowed the Ctrl-C before); the job is refused
//! (exit 6) with nothing sent to the drive, and the audit log says it was interrupted. With
//! several drives, one already confirmed, none is started.

use nix::pty::openpty;
use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;
use std::io::Read;
use std::os::fd::OwnedFd;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// Starts `sgctl ARGS` with a terminal on stdin (the prompt appears only then) and its audit
/// log at `audit`; returns the child and the pty's master side (to type on).
fn spawn_on_tty(args: &[&str], audit: &std::path::Path) -> (Child, OwnedFd) {
    let pty = openpty(None, None).expect("openpty");
    let child = crate::util::sgctl_cmd()
        .args(args)
        .env("SGCTL_AUDIT_LOG", audit)
        .stdin(Stdio::from(pty.slave))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn sgctl");
    (child, pty.master)
}

/// Reads stderr until it has shown `n` prompts (or 60 s pass); returns what was read.
fn wait_for_prompts(child: &mut Child, n: usize) -> String {
    let err = child.stderr.as_mut().expect("stderr");
    let mut seen = Vec::new();
    let t0 = Instant::now();
    let mut buf = [0u8; 512];
    while String::from_utf8_lossy(&seen)
        .matches("Type its serial")
        .count()
        < n
    {
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "no prompt: {seen:?}"
        );
        let k = err.read(&mut buf).expect("read stderr");
        assert!(
            k > 0,
            "stderr closed before the prompt: {}",
            String::from_utf8_lossy(&seen)
        );
        seen.extend_from_slice(&buf[..k]);
    }
    String::from_utf8_lossy(&seen).into_owned()
}

/// Waits up to 10 s for the child; its exit code and stdout.
fn finish(mut child: Child) -> (i32, String) {
    let t0 = Instant::now();
    loop {
        if let Some(st) = child.try_wait().expect("wait") {
            let mut out = String::new();
            child
                .stdout
                .take()
                .unwrap()
                .read_to_string(&mut out)
                .unwrap();
            return (st.code().unwrap_or(-1), out);
        }
        if t0.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("sgctl still waits at the prompt 10 s after Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn audit_events(audit: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(audit)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).expect("audit line is JSON"))
        .collect()
}

/// The block length of the virtual drive kept in `state`.
fn block_len(state: &str) -> u64 {
    let (code, out, err) = crate::util::run(&["--json", "readcap", state]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    v["data"]["block_len"]
        .as_u64()
        .unwrap_or_else(|| panic!("no block length in {v}"))
}

#[test]
fn ctrl_c_at_the_format_prompt_refuses_and_sends_nothing() {
    let d = tempfile::tempdir().unwrap();
    let audit = d.path().join("audit.jsonl");
    let dev = format!(
        "sim:px02smf080?state={}",
        d.path().join("drive.json").display()
    );
    assert_eq!(block_len(&dev), 512);
    let (mut child, _master) = spawn_on_tty(&["format", "--block-size", "4096", &dev], &audit);
    wait_for_prompts(&mut child, 1);
    std::thread::sleep(Duration::from_millis(200));
    // What the terminal does on Ctrl-C: SIGINT to the foreground process.
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    let (code, out) = finish(child);
    assert_eq!(code, 6, "{out}");
    assert!(
        out.contains("interrupted (Ctrl-C) before it started; nothing was sent"),
        "{out}"
    );
    let ev = audit_events(&audit);
    assert_eq!(ev.len(), 1, "{ev:?}");
    assert_eq!(ev[0]["event"], "interrupted");
    assert_eq!(ev[0]["phase"], "confirmation");
    assert_eq!(ev[0]["job"], "format");
    assert_eq!(ev[0]["sent"], false);
    assert_eq!(block_len(&dev), 512, "the drive was formatted after Ctrl-C");
}

#[test]
fn ctrl_c_at_the_second_drive_prompt_starts_neither() {
    let d = tempfile::tempdir().unwrap();
    let audit = d.path().join("audit.jsonl");
    let a = format!(
        "sim:px02smf080?serial=AAA1&state={}",
        d.path().join("a.json").display()
    );
    let b = format!(
        "sim:px02smf080?serial=BBB2&state={}",
        d.path().join("b.json").display()
    );
    let (mut child, master) = spawn_on_tty(&["format", "--block-size", "4096", &a, &b], &audit);
    wait_for_prompts(&mut child, 1);
    nix::unistd::write(&master, b"AAA1\n").unwrap();
    wait_for_prompts(&mut child, 1);
    std::thread::sleep(Duration::from_millis(200));
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    let (code, out) = finish(child);
    assert_eq!(code, 6, "{out}");
    assert_eq!(
        out.matches("nothing was sent to the drive").count(),
        2,
        "{out}"
    );
    let ev = audit_events(&audit);
    assert!(
        ev.iter().all(|e| e["event"] == "interrupted"),
        "a job started: {ev:?}"
    );
    assert_eq!(ev.len(), 2, "{ev:?}");
    assert_eq!(block_len(&a), 512);
    assert_eq!(block_len(&b), 512);
}

/// A command that changes the drive without erasing it asks in its own words (what it does to
/// the drive, then for the drive's name), not with the gate's question about erasing data;
/// Ctrl-C there refuses it with nothing sent.
#[test]
fn worded_prompts_of_commands_that_do_not_erase() {
    let d = tempfile::tempdir().unwrap();
    let audit = d.path().join("audit.jsonl");
    let dev = format!(
        "sim:px02smf080?clock=virtual&state={}",
        d.path().join("drive.json").display()
    );
    for (args, words) in [
        (
            vec!["power", &dev, "--stop"],
            "power --stop stops the drive: it serves no reads or writes until",
        ),
        (
            vec!["selftest", &dev, "--short", "--foreground"],
            "a foreground self-test holds the drive until it ends",
        ),
        (
            vec!["logs", &dev, "--reset"],
            "logs --reset clears the drive's log counters",
        ),
        (
            vec!["reassign", &dev, "100"],
            "reassign moves the listed blocks to spares for good",
        ),
    ] {
        let (mut child, _master) = spawn_on_tty(&args, &audit);
        let shown = wait_for_prompts(&mut child, 1);
        assert!(shown.contains(words), "{args:?}: {shown}");
        assert!(
            shown.contains(".\nType its serial number or WWN to continue: "),
            "{args:?}: {shown}"
        );
        assert!(!shown.to_lowercase().contains("erase"), "{args:?}: {shown}");
        std::thread::sleep(Duration::from_millis(200));
        kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
        let (code, out) = finish(child);
        assert_eq!(code, 6, "{args:?}: {out}");
    }
}
