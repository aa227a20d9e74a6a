//! SIGTERM (systemd stop, `timeout`, an orchestrator's timeout) during a sanitize: the job stops
//! watching like on Ctrl-C and writes an `interrupted` end record with the way out; `audit
//! verify` lists the job as not ended; `sgctl wait` then finishes it: watches the drive to the
//! end, validates with the before-hashes, writes the end record and the signed certificate
//! named when the job started.

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::{Duration, Instant};

fn audit_events(audit: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(audit)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).expect("audit line is JSON"))
        .collect()
}

fn stop_mid_sanitize(sig: Signal) {
    let d = tempfile::tempdir().unwrap();
    let audit = d.path().join("audit.jsonl");
    let state = d.path().join("drive.json");
    let cert = d.path().join("cert.json");
    let key = d.path().join("k.pem");
    let serial = format!("SIG{}", sig as i32);
    let base = format!(
        "sim:px02smf080?capacity_blocks=65536&serial={serial}&state={}",
        state.display()
    );
    let run = |args: &[&str]| {
        let out = crate::util::sgctl_cmd()
            .args(args)
            .env("SGCTL_AUDIT_LOG", &audit)
            .env_remove("SGCTL_SIGNING_KEY")
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, _, err) = run(&["certificate", "keygen", key.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    // A block erase takes 30 s of drive time; on the real clock it runs while we signal.
    let addr = format!("{base}&clock=real");
    let mut child = crate::util::sgctl_cmd()
        .args([
            "--json",
            "sanitize",
            &addr,
            "--block",
            "--confirm",
            &serial,
            "--certificate",
            cert.to_str().unwrap(),
            "--signing-key",
            key.to_str().unwrap(),
            "--poll-interval",
            "0.2",
            "--progress-json",
        ])
        .env("SGCTL_AUDIT_LOG", &audit)
        .env_remove("SGCTL_SIGNING_KEY")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for the first progress event: the SANITIZE was accepted and is being watched.
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let t0 = Instant::now();
    let mut line = String::new();
    loop {
        line.clear();
        assert!(err.read_line(&mut line).unwrap() > 0, "stderr closed");
        if line.contains("\"progress\"") && line.contains("percent") {
            break;
        }
        assert!(t0.elapsed() < Duration::from_secs(60), "no progress");
    }
    kill(Pid::from_raw(child.id() as i32), sig).unwrap();
    let t1 = Instant::now();
    let st = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        assert!(
            t1.elapsed() < Duration::from_secs(20),
            "sgctl still runs 20 s after {sig}"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let out: Value = {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut s).unwrap();
        serde_json::from_str(&s).unwrap_or(Value::Null)
    };
    assert_eq!(st.code(), Some(1), "{sig}: {out}");
    let rec = &out["data"]["drives"][0];
    assert_eq!(rec["outcome"], "interrupted", "{out}");
    assert!(
        rec["advice"].as_str().unwrap().contains("sgctl wait"),
        "{rec}"
    );
    let ev = audit_events(&audit);
    assert_eq!(ev.len(), 2, "{ev:?}");
    assert_eq!(ev[1]["event"], "end");
    assert_eq!(ev[1]["outcome"], "interrupted");
    assert!(
        ev[1]["details"]["resume"]["before"]
            .as_array()
            .unwrap()
            .len()
            > 2
    );
    // audit verify: intact, and the job is listed as not ended.
    let (code, o, e) = run(&["--json", "audit", "verify", audit.to_str().unwrap()]);
    assert_eq!(code, 0, "{e}");
    let v: Value = serde_json::from_str(&o).unwrap();
    assert_eq!(v["data"]["open_jobs"][0]["state"], "interrupted", "{v}");
    let (_, o, _) = run(&["audit", "verify", audit.to_str().unwrap()]);
    assert!(
        o.contains("NOT ENDED job") && o.contains("1 job never ended"),
        "{o}"
    );
    // The certificate says the job did not finish.
    let c: Value = serde_json::from_slice(&std::fs::read(&cert).unwrap()).unwrap();
    assert_eq!(c["certificates"][0]["outcome"], "interrupted");

    // `sgctl wait` finishes it (virtual clock: the drive's time advances per poll).
    let waddr = format!("{base}&clock=virtual");
    let (code, o, e) = run(&["--json", "wait", &waddr, "--poll-interval", "5"]);
    assert_eq!(code, 0, "{e}\n{o}");
    let w: Value = serde_json::from_str(&o).unwrap();
    let r = &w["data"]["record"];
    assert_eq!(r["outcome"], "success", "{w}");
    assert_eq!(r["job_id"], ev[0]["job_id"]);
    assert_eq!(r["technique_verification"]["result"], "completed", "{r}");
    assert_eq!(r["validation"]["plan"], "quick");
    assert_ne!(r["validation"]["result"], "not_validated");
    assert_eq!(r["verification"]["survived"], 0);
    let ev = audit_events(&audit);
    assert_eq!(ev.len(), 3, "{ev:?}");
    assert_eq!(
        (ev[2]["event"].as_str(), ev[2]["outcome"].as_str()),
        (Some("end"), Some("success"))
    );
    assert_eq!(ev[2]["job_id"], ev[0]["job_id"]);
    // The certificate the job was started with, signed with its key, verifies.
    let c: Value = serde_json::from_slice(&std::fs::read(&cert).unwrap()).unwrap();
    assert_eq!(c["certificates"][0]["outcome"], "success");
    assert_eq!(c["certificates"][0]["drive"]["serial"], serial.as_str());
    let pubkey = format!("{}.pub", key.display());
    let (code, o, e) = run(&[
        "certificate",
        "verify",
        "--pubkey",
        &pubkey,
        cert.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{o}{e}");
    let (code, o, _) = run(&["audit", "verify", audit.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(o.contains("intact") && !o.contains("NOT ENDED"), "{o}");
}

#[test]
fn sigterm_mid_sanitize_records_interrupted_and_wait_finishes_the_job() {
    stop_mid_sanitize(Signal::SIGTERM);
}

#[test]
fn sighup_mid_sanitize_records_interrupted_and_wait_finishes_the_job() {
    stop_mid_sanitize(Signal::SIGHUP);
}
