//! `sgctl selftest` on virtual drives: SEND DIAGNOSTIC with the SELF-TEST CODE of SPC-6's
//! table, the progress of a background test from REQUEST SENSE (NO SENSE 04/09), the Self-Test
//! Results log page (10h) entries, abort, a running test not started over, the foreground gate,
//! the audit records and `--dry-run` sending nothing.

use crate::util::SimDrive;
use serde_json::Value;

const SERIAL: &str = "SELFT01";

/// The drive of one test, traced.
fn drive() -> SimDrive {
    SimDrive::new("px02smf080", SERIAL).traced()
}

fn advance(d: &SimDrive, secs: &str) {
    let (code, _, err) = d.sgctl(&["sim", "fault", &d.addr(""), "--advance", secs]);
    assert_eq!(code, 0, "{err}");
}

fn status(d: &SimDrive) -> Value {
    let (code, j, err) = d.sgctl(&["selftest", &d.addr("")]);
    assert_eq!(code, 0, "{err}\n{j}");
    j["data"].clone()
}

/// The SEND DIAGNOSTIC CDBs in the `-v` trace.
fn send_diags(trace: &str) -> Vec<String> {
    crate::util::cdbs(trace, "Send diagnostic")
}

#[test]
fn background_short_progress_abort_and_the_log_page() {
    let d = drive();
    let st = status(&d);
    assert_eq!(st["running"], Value::Null);
    assert_eq!(st["results"]["entries"].as_array().unwrap().len(), 0);
    assert_eq!(st["extended_self_test_minutes"], 2);

    // --dry-run: the CDB from the table (001b in bits 7-5), nothing sent.
    let (code, j, trace) = d.sgctl(&["selftest", &d.addr(""), "--short", "--dry-run"]);
    assert_eq!(code, 0, "{trace}");
    assert_eq!(j["data"]["cdb"], "1d 20 00 00 00 00");
    assert_eq!(j["data"]["sent"], false);
    assert!(send_diags(&trace).is_empty(), "{trace}");
    assert!(!d.audit().exists());

    let (code, j, trace) = d.sgctl(&["selftest", &d.addr(""), "--short"]);
    assert_eq!(code, 0, "{trace}\n{j}");
    assert_eq!(send_diags(&trace), ["1d 20 00 00 00 00"]);
    assert_eq!(
        j["data"]["status"]["running"]["self_test"],
        "background short"
    );

    // Half of the 30 s short test later: REQUEST SENSE reports 04/09 with the progress.
    advance(&d, "15");
    let st = status(&d);
    let p = st["running"]["progress_percent"].as_f64().unwrap();
    assert!((45.0..55.0).contains(&p), "{st}");
    let e = &st["results"]["entries"][0];
    assert_eq!(e["result_code"], 15, "{st}");
    assert_eq!(e["self_test_code"], 1);

    // A second start is refused before anything is sent (exit 6).
    let (code, _, trace) = d.sgctl(&["selftest", &d.addr(""), "--extended"]);
    assert_eq!(code, 6, "{trace}");
    assert!(send_diags(&trace).is_empty(), "{trace}");

    let (code, _, trace) = d.sgctl(&["selftest", &d.addr(""), "--abort"]);
    assert_eq!(code, 0, "{trace}");
    assert_eq!(send_diags(&trace), ["1d 80 00 00 00 00"]);
    let st = status(&d);
    assert_eq!(st["running"], Value::Null);
    let e = &st["results"]["entries"][0];
    assert_eq!(e["result_code"], 1);
    assert_eq!(e["result"], "aborted by SEND DIAGNOSTIC");

    // Start and end records for the start and the abort.
    let log = std::fs::read_to_string(d.audit()).unwrap();
    let recs: Vec<Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(recs.len(), 4, "{log}");
    assert!(recs.iter().all(|r| r["job"] == "selftest"));
    assert_eq!(recs[0]["details"]["action"], "background_short");
    assert_eq!(recs[2]["details"]["action"], "abort_background");
    assert_eq!(recs[3]["outcome"], "success");
}

#[test]
fn extended_finds_a_medium_error_and_health_shows_it() {
    let d = drive();
    let (code, _, err) = d.sgctl(&["sim", "fault", &d.addr(""), "--medium-error", "1234"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, trace) = d.sgctl(&["selftest", &d.addr(""), "--extended"]);
    assert_eq!(code, 0, "{trace}");
    assert_eq!(send_diags(&trace), ["1d 40 00 00 00 00"]);
    advance(&d, "200");
    let st = status(&d);
    assert_eq!(st["running"], Value::Null);
    let e = &st["results"]["entries"][0];
    assert_eq!(e["self_test"], "background extended");
    assert_eq!(e["failed"], true);
    assert_eq!(e["result_code"], 7);
    assert_eq!(e["first_failure_lba"], 1234);
    assert_eq!(
        (&e["sense_key"], &e["asc"], &e["ascq"]),
        (&Value::from(3), &Value::from(0x11), &Value::from(0))
    );
    assert_eq!(st["results"]["failed_entries"], 1);

    // Text: the entry's line carries the LBA and the sense; health names the last test.
    let (code, out, err) = crate::util::run(&["selftest", &d.addr("")]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.lines().any(|l| l.contains("background extended")
            && l.contains("0x4d2")
            && l.contains("3/11/00")),
        "{out}"
    );
    let (_, out, _) = crate::util::run(&["health", &d.addr("")]);
    assert!(
        out.lines().any(|l| l.contains("self-test")
            && l.contains("background extended")
            && l.contains("LBA 0x4d2")),
        "{out}"
    );
}

#[test]
fn foreground_needs_the_gate_and_reports_the_failure() {
    let d = drive();
    // Without --confirm: refused, nothing sent, nothing recorded.
    let (code, _, trace) = d.sgctl(&["selftest", &d.addr(""), "--short", "--foreground"]);
    assert_eq!(code, 6, "{trace}");
    assert!(send_diags(&trace).is_empty(), "{trace}");
    // --confirm naming another drive: refused on a dry run as in the real run.
    let (code, _, trace) = d.sgctl(&[
        "selftest",
        &d.addr(""),
        "--short",
        "--foreground",
        "--dry-run",
        "--confirm",
        "OTHER",
    ]);
    assert_eq!(code, 6, "{trace}");
    // --foreground alone or with --abort is a usage error.
    let (code, _, _) = d.sgctl(&["selftest", &d.addr(""), "--foreground"]);
    assert_eq!(code, 2);
    let (code, _, _) = d.sgctl(&["selftest", &d.addr(""), "--abort", "--foreground"]);
    assert_eq!(code, 2);

    let (code, j, trace) = d.sgctl(&[
        "selftest",
        &d.addr(""),
        "--short",
        "--foreground",
        "--confirm",
        SERIAL,
    ]);
    assert_eq!(code, 0, "{trace}");
    assert_eq!(send_diags(&trace), ["1d a0 00 00 00 00"]);
    let e = &j["data"]["status"]["results"]["entries"][0];
    assert_eq!(e["self_test"], "foreground short");
    assert_eq!(e["result_code"], 0);

    // A foreground extended test over a bad block ends in CHECK CONDITION 3E/03 (exit 4),
    // and the log page has the failed entry.
    let (code, _, err) = d.sgctl(&["sim", "fault", &d.addr(""), "--medium-error", "77"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, trace) = d.sgctl(&[
        "selftest",
        &d.addr(""),
        "--extended",
        "--foreground",
        "--confirm",
        SERIAL,
    ]);
    assert_eq!(code, 4, "{trace}");
    assert_eq!(send_diags(&trace), ["1d c0 00 00 00 00"]);
    let st = status(&d);
    let e = &st["results"]["entries"][0];
    assert_eq!(e["self_test"], "foreground extended");
    assert_eq!(e["first_failure_lba"], 77);
    let log = std::fs::read_to_string(d.audit()).unwrap();
    let last: Value = serde_json::from_str(log.lines().last().unwrap()).unwrap();
    assert_eq!(last["outcome"], "failure");
}
