//! `sgctl power` on a virtual drive: START STOP UNIT CDBs from SBC-5's POWER CONDITION table,
//! the power condition REQUEST SENSE reports (5E/xx by command, 04/02 stopped), a medium
//! access bringing a standby drive back to active, --stop behind the gate, audit records and
//! --dry-run sending nothing.

use crate::util::SimDrive;
use serde_json::Value;

fn ssu(trace: &str) -> Vec<String> {
    crate::util::cdbs(trace, "Start stop unit")
}

#[test]
fn power_conditions_stop_and_start() {
    let d = SimDrive::new("px02smf080", "PWR01").traced();
    let audit = d.audit();
    let addr = d.addr("");
    let state = |a: &str| {
        let (code, j, err) = d.sgctl(&["power", a]);
        assert_eq!(code, 0, "{err}");
        (
            j["data"]["asc"].as_u64().unwrap(),
            j["data"]["ascq"].as_u64().unwrap(),
        )
    };
    assert_eq!(state(&addr), (0, 0));

    let (code, j, trace) = d.sgctl(&["power", &addr, "--standby", "--dry-run"]);
    assert_eq!(code, 0, "{trace}");
    assert_eq!(j["data"]["cdb"], "1b 00 00 00 30 00");
    assert!(ssu(&trace).is_empty(), "{trace}");
    assert!(!audit.exists());

    let (code, j, trace) = d.sgctl(&["power", &addr, "--standby"]);
    assert_eq!(code, 0, "{trace}");
    assert_eq!(ssu(&trace), ["1b 00 00 00 30 00"]);
    assert_eq!(j["data"]["after"]["ascq"], 4, "{j}");
    assert_eq!(state(&addr), (0x5e, 0x04));
    // A command that needs the medium brings it back to active.
    let (code, _, _) = d.sgctl(&["readcap", &addr]);
    assert_eq!(code, 0);
    assert_eq!(state(&addr), (0, 0));

    let (code, _, trace) = d.sgctl(&["power", &addr, "--idle=c"]);
    assert_eq!(code, 0, "{trace}");
    assert_eq!(ssu(&trace), ["1b 00 00 02 20 00"]);
    assert_eq!(state(&addr), (0x5e, 0x08));
    let (code, _, _) = d.sgctl(&["power", &addr, "--idle=d"]);
    assert_eq!(code, 2);

    // --stop: refused without --confirm (nothing sent), then stopped: medium access 04/02.
    let (code, _, trace) = d.sgctl(&["power", &addr, "--stop"]);
    assert_eq!(code, 6, "{trace}");
    assert!(ssu(&trace).is_empty(), "{trace}");
    let (code, _, trace) = d.sgctl(&["power", &addr, "--stop", "--confirm", "PWR01"]);
    assert_eq!(code, 0, "{trace}");
    assert_eq!(ssu(&trace), ["1b 00 00 00 00 00"]);
    assert_eq!(state(&addr), (0x04, 0x02));
    let (code, _, _) = d.sgctl(&["readcap", &addr]);
    assert_eq!(code, 4);
    let (code, _, trace) = d.sgctl(&["power", &addr, "--start"]);
    assert_eq!(code, 0, "{trace}");
    assert_eq!(ssu(&trace), ["1b 00 00 00 01 00"]);
    let (code, _, _) = d.sgctl(&["readcap", &addr]);
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
