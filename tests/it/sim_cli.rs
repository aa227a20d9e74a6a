//! `sgctl sim list|info|fault` through the binary, with a state-file drive that keeps its
//! state (and injected faults) between invocations.

use std::process::Output;

fn sgctl(args: &[&str]) -> Output {
    crate::util::sgctl_cmd()
        .args(args)
        .output()
        .expect("run sgctl")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn list_shows_every_profile_and_json_has_them() {
    let o = sgctl(&["sim", "list"]);
    assert!(o.status.success());
    let t = text(&o);
    for p in [
        "px02smf080",
        "px03snf080",
        "mk4001grzb",
        "hk4e",
        "exarray",
        "exarraylock",
    ] {
        assert!(t.contains(p), "{t}");
    }
    let o = sgctl(&["--json", "sim", "list"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["data"].as_array().map(|a| a.len()), Some(6));
    // plain `sgctl` shows how to use sim:
    let t = text(&sgctl(&[]));
    assert!(t.contains("sim:PROFILE"), "{t}");
}

#[test]
fn faults_and_clock_persist_between_invocations() {
    let dir = tempfile::tempdir().unwrap();
    let addr = format!(
        "sim:px02smf080?clock=virtual&capacity_gib=0.125&state={}",
        dir.path().join("d.json").display()
    );
    let o = sgctl(&["--json", "sim", "info", &addr]);
    assert!(o.status.success(), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["data"]["logical_blocks"].as_u64(), Some(262144));
    assert_eq!(v["data"]["clock"].as_str(), Some("virtual"));

    // power cycle now: the next command sees UA 29/00, the one after is fine
    assert!(sgctl(&["sim", "fault", &addr, "--power-cycle"])
        .status
        .success());
    let o = sgctl(&["tur", &addr]);
    assert_eq!(o.status.code(), Some(4), "{}", text(&o));
    assert!(text(&o).contains("Power on, reset"), "{}", text(&o));
    assert!(sgctl(&["tur", &addr]).status.success());

    // BUSY once
    assert!(sgctl(&["sim", "fault", &addr, "--busy", "1"])
        .status
        .success());
    assert_eq!(sgctl(&["tur", &addr]).status.code(), Some(4));
    assert!(sgctl(&["tur", &addr]).status.success());

    // the clock moves by --advance and stays moved
    assert!(
        sgctl(&["sim", "fault", &addr, "--advance", "7200", "--wear", "42"])
            .status
            .success()
    );
    let o = sgctl(&["--json", "sim", "info", &addr]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v["data"]["clock_seconds"].as_f64().unwrap() >= 7200.0);
    assert_eq!(v["data"]["endurance_used_percent"].as_u64(), Some(42));

    // nothing to do is a usage error; a non-sim address is refused
    assert!(!sgctl(&["sim", "fault", &addr]).status.success());
    assert!(!sgctl(&["sim", "info", "/dev/null"]).status.success());
    let o = sgctl(&["sim", "info", "sim:nosuch"]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
}
