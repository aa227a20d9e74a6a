//! `sgctl modes --get/--set` on virtual drives: the current page and its changeable-values
//! mask are read first, a field that is not changeable is refused before any MODE SELECT,
//! only the named fields change (the rest of the page as it was), SP=1 with --save, the
//! values read back, audit records, --dry-run sending nothing; the virtual drive honours
//! MODE SELECT for the caching, informational exceptions and power condition pages.

use crate::util::SimDrive;
use serde_json::Value;

/// The drive of one test, traced.
fn drive() -> SimDrive {
    SimDrive::new("px02smf080", "MODES01").traced()
}

/// field -> (current, changeable, saved)
fn get(d: &SimDrive, fields: &[&str]) -> Vec<(Value, Value, Value)> {
    let mut args = vec!["modes".to_string(), d.addr("")];
    for f in fields {
        args.push("--get".into());
        args.push((*f).into());
    }
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, j, err) = d.sgctl(&a);
    assert_eq!(code, 0, "{err}\n{j}");
    j["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["current"].clone(),
                g["changeable"].clone(),
                g["saved"].clone(),
            )
        })
        .collect()
}

fn mode_selects(trace: &str) -> Vec<String> {
    crate::util::cdbs(trace, "Mode select(10)")
}

#[test]
fn set_caching_and_ie_fields_with_save() {
    let d = drive();
    let v = get(&d, &["ca.WCE", "ie.MRIE", "ie.DEXCPT"]);
    assert_eq!(v[0], (1.into(), true.into(), 1.into()));
    assert_eq!(v[1].0, 4);

    // Dry run: the parameter list is the current caching page (header, DBD) with WCE cleared.
    let (code, j, trace) = d.sgctl(&["modes", &d.addr(""), "--set", "ca.WCE=0", "--dry-run"]);
    assert_eq!(code, 0, "{trace}");
    assert!(mode_selects(&trace).is_empty(), "{trace}");
    let p = &j["data"]["pages"][0];
    assert_eq!(p["cdb"], "55 10 00 00 00 00 00 00 1c 00");
    assert_eq!(
        p["parameter_list"],
        "00 00 00 00 00 00 00 00 08 12 00 00 ff ff 00 00 ff ff ff ff 00 10 00 00 00 00 00 00"
    );
    assert!(!d.audit().exists());

    // Mode sense of current and changeable values come before any MODE SELECT.
    let (code, j, trace) = d.sgctl(&[
        "modes",
        &d.addr(""),
        "--set",
        "ca.WCE=0",
        "--set",
        "ie.MRIE=6",
        "--set",
        "DEXCPT=1",
        "--save",
    ]);
    assert_eq!(code, 0, "{trace}\n{j}");
    assert_eq!(
        mode_selects(&trace),
        [
            "55 11 00 00 00 00 00 00 1c 00",
            "55 11 00 00 00 00 00 00 14 00"
        ]
    );
    let first_select = trace.find("Mode select(10) cdb").unwrap();
    assert!(trace[..first_select].contains("Mode sense(10) cdb: 5a 08 48"));
    assert!(trace[..first_select].contains("Mode sense(10) cdb: 5a 08 5c"));
    let v = get(&d, &["ca.WCE", "ie.MRIE", "ie.DEXCPT", "ca.RCD"]);
    assert_eq!(v[0], (0.into(), true.into(), 0.into()));
    assert_eq!(v[1], (6.into(), true.into(), 6.into()));
    assert_eq!(v[2].0, 1);
    assert_eq!(v[3].0, 0, "RCD, not named, kept its value");

    // Without --save, the saved value stays.
    let (code, _, trace) = d.sgctl(&["modes", &d.addr(""), "--set", "ca.WCE=1"]);
    assert_eq!(code, 0, "{trace}");
    assert_eq!(mode_selects(&trace), ["55 10 00 00 00 00 00 00 1c 00"]);
    assert_eq!(get(&d, &["ca.WCE"])[0], (1.into(), true.into(), 0.into()));

    // The value the page already holds: nothing sent.
    let (code, j, trace) = d.sgctl(&["modes", &d.addr(""), "--set", "ca.WCE=1"]);
    assert_eq!(code, 0, "{trace}");
    assert!(mode_selects(&trace).is_empty());
    assert_eq!(j["data"]["sent"], 0);

    let log = std::fs::read_to_string(d.audit()).unwrap();
    let recs: Vec<Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(recs.len(), 4, "{log}");
    assert!(recs.iter().all(|r| r["job"] == "mode-select"));
    assert_eq!(recs[1]["outcome"], "success");
}

#[test]
fn non_changeable_fields_are_refused_before_anything_is_sent() {
    let d = drive();
    // DISC is not in the caching page's changeable mask; the drive would reject it (26/00).
    let (code, _, trace) = d.sgctl(&["modes", &d.addr(""), "--set", "ca.DISC=1", "--set", "WCE=0"]);
    assert_eq!(code, 7, "{trace}");
    assert!(trace.contains("not changeable"), "{trace}");
    assert!(mode_selects(&trace).is_empty(), "{trace}");
    assert_eq!(get(&d, &["ca.WCE"])[0].0, 1);
    let (code, _, trace) = d.sgctl(&["modes", &d.addr(""), "--set", "po.PM_BG_PREC=1"]);
    assert_eq!(code, 7, "{trace}");
    assert!(mode_selects(&trace).is_empty());
    // Usage errors: unknown field, value too wide, no value.
    for bad in ["ca.NOPE=1", "ie.MRIE=16", "ca.WCE", "zz.WCE=1"] {
        let (code, _, trace) = d.sgctl(&["modes", &d.addr(""), "--set", bad]);
        assert_eq!(code, 2, "{bad}: {trace}");
    }
}

#[test]
fn power_condition_timers() {
    let d = drive();
    let v = get(&d, &["po.IDLE_A", "po.IACT", "po.STANDBY_Z", "po.SZCT"]);
    assert_eq!(v[0].0, 1);
    assert_eq!(v[1].0, 20);
    assert_eq!(v[2].0, 0);
    let (code, _, trace) = d.sgctl(&[
        "modes",
        &d.addr(""),
        "--set",
        "po.STANDBY_Z=1",
        "--set",
        "po.SZCT=36000",
        "--set",
        "power-condition.IACT=50",
    ]);
    assert_eq!(code, 0, "{trace}");
    assert_eq!(mode_selects(&trace).len(), 1);
    let v = get(
        &d,
        &[
            "po.IDLE_A",
            "po.IACT",
            "po.STANDBY_Z",
            "po.SZCT",
            "po.CCF_IDLE",
        ],
    );
    assert_eq!(v[0].0, 1);
    assert_eq!(v[1].0, 50);
    assert_eq!(v[2].0, 1);
    assert_eq!(v[3].0, 36000);
    assert_eq!(v[4].0, 1, "CCF_IDLE kept");
}
