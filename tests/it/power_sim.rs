//! `sgctl power` on a virtual drive: START STOP UNIT CDBs from SBC-5's POWER CONDITION table,
//! the power condition REQUEST SENSE reports (5E/xx by command, 04/02 stopped), a medium
//! access bringing a standby drive back to active, --stop behind the gate, audit records and
//! --dry-run sending nothing.

use serde_json::Value;

fn sgctl(audit: &std::path::Path, args: &[&str]) -> (i32, Value, String) {
    let out = crate::util::sgctl_cmd()
        .args(["-v", "--json"])
        .args(args)
        .env("SGCTL_AUDIT_LOG", audit)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        serde_json::from_slice(&out.stdout).unwrap_or(Value::Null),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn ssu(trace: &str) -> Vec<String> {
    crate::util::cdbs(trace, "Start stop unit")
}

#[test]
fn power_conditions_stop_and_start() {
    let dir = tempfile::tempdir().unwrap();
    let audit = dir.path().join("audit.jsonl");
    let addr = format!(
        "sim:px02smf080?clock=virtual&capacity_blocks=8192&serial=PWR01&state={}",
        dir.path().join("d.json").display()
    );
    let state = |a: &str| {
        let (code, j, err) = sgctl(&audit, &["power", a]);
        assert_eq!(code, 0, "{err}");
        (
            j["data"]["asc"].as_u64().unwrap(),
            j["data"]["ascq"].as_u64().unwrap(),
        )
    };
    assert_eq!(state(&addr), (0, 0));

    let (code, j, trace) = sgctl(&audit, &["power", &addr, "--standby", "--dry-run"]);
    assert_eq!(code, 0, "{trace}");
    assert_eq!(j["data"]["cdb"], "1b 00 00 00 30 00");
    assert!(ssu(&trace).is_empty(), "{trace}");
    assert!(!audit.exists());

    let (code, j, trace) = sgctl(&audit, &["power", &addr, "--standby"]);
    assert_eq!(code, 0, "{trace}");
    assert_eq!(ssu(&trace), ["1b 00 00 00 30 00"]);
    assert_eq!(j["data"]["after"]["ascq"], 4, "{j}");
    assert_eq!(state(&addr), (0x5e, 0x04));
    // A command that needs the medium brings it back to active.
    let (code, _, _) = sgctl(&audit, &["readcap", &addr]);
    assert_eq!(code, 0);
    assert_eq!(state(&addr), (0, 0));

    let (code, _, trace) = sgctl(&audit, &["power", &addr, "--idle=c"]);
    assert_eq!(code, 0, "{trace}");
    assert_eq!(ssu(&trace), ["1b 00 00 02 20 00"]);
    assert_eq!(state(&addr), (0x5e, 0x08));
    let (code, _, _) = sgctl(&audit, &["power", &addr, "--idle=d"]);
    assert_eq!(code, 2);

    // --stop: refused without --confirm (nothing sent), then stopped: medium access 04/02.
    let (code, _, trace) = sgctl(&audit, &["power", &addr, "--stop"]);
    assert_eq!(code, 6, "{trace}");
    assert!(ssu(&trace).is_empty(), "{trace}");
    let (code, _, trace) = sgctl(&audit, &["power", &addr, "--stop", "--confirm", "PWR01"]);
    assert_eq!(code, 0, "{trace}");
    assert_eq!(ssu(&trace), ["1b 00 00 00 00 00"]);
    assert_eq!(state(&addr), (0x04, 0x02));
    let (code, _, _) = sgctl(&audit, &["readcap", &addr]);
    assert_eq!(code, 4);
    let (code, _, trace) = sgctl(&audit, &["power", &addr, "--start"]);
    assert_eq!(code, 0, "{trace}");
    assert_eq!(ssu(&trace), ["1b 00 00 00 01 00"]);
    let (code, _, _) = sgctl(&audit, &["readcap", &addr]);
    assert_eq!(code, 0);

    let log = std::fs::read_to_string(&audit).unwrap();
    let recs: Vec<Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let starts: Vec<&str> = recs
        .iter()
        .filter(|r| r["event"] == "start")
        .map(|r| r["details"]["action"].as_str().unwrap())
        .collect();
    assert_eq!(starts, ["standby_z", "idle_c", "stop", "start"]);
}
