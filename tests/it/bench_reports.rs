//! What the benchmark reports say: identity read once on a `state=` virtual drive, the
//! settings rows derived from the workload, `bench compare` refusing unlike workloads,
//! `--resume` refusing a drive that would not continue the saved run.

use crate::util::run as sgctl;
use serde_json::Value;
use std::path::Path;

fn state_addr(dir: &Path, serial: &str) -> String {
    format!(
        "sim:px02smf080?capacity_gib=0.0625&serial={serial}&state={}",
        dir.join(format!("{serial}.json")).display()
    )
}

fn bench_run(addr: &str, report: &Path, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec![
        "bench",
        "run",
        addr,
        "--runtime",
        "0.2",
        "--report",
        report.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    sgctl(&args)
}

fn load(dir: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(dir.join("report.json")).unwrap()).unwrap()
}

/// The run used to open a `state=` drive a second time for the header: the state file is
/// locked by the engine, so the report had an empty identity ("(serial )") and the note
/// "identity not read: ... in use by another process", and compare's legends fell back to
/// the address.
#[test]
fn a_state_file_drive_run_reports_its_identity_and_compare_names_it() {
    let d = tempfile::tempdir().unwrap();
    let (a, b) = (d.path().join("a"), d.path().join("b"));
    for (dir, serial) in [(&a, "IDONE01"), (&b, "IDONE02")] {
        let (code, out, err) = bench_run(
            &state_addr(d.path(), serial),
            dir,
            &["--rw", "randread", "--qd", "4"],
        );
        assert_eq!(code, 0, "{err}\n{out}");
        let v = load(dir);
        assert_eq!(v["header"]["serial"], serial, "{}", v["header"]);
        assert_eq!(v["header"]["vendor"], "TOSHIBA");
        assert!(!v["header"]["model"].as_str().unwrap().is_empty());
        let notes = v["notes"].to_string();
        assert!(!notes.contains("identity not read"), "{notes}");
        let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
        assert!(html.contains(&format!("(serial {serial})")), "title");
        assert!(!html.contains("(serial )"));
    }
    let (code, out, err) = sgctl(&[
        "--json",
        "bench",
        "compare",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let names: Vec<&str> = v["data"]["reports"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names[0], "TOSHIBA PX02SMF080 (serial IDONE01) — a",
        "{names:?}"
    );
    assert!(names[1].contains("IDONE02"), "{names:?}");
    assert!(!names.iter().any(|n| n.contains("sim:")), "{names:?}");
}

/// Reports of different workloads are refused (exit 2, each difference named) unless
/// `--allow-different`, which compares them and says so.
#[test]
fn compare_refuses_unlike_workloads_unless_asked() {
    let d = tempfile::tempdir().unwrap();
    let (a, b) = (d.path().join("a"), d.path().join("b"));
    let addr = "sim:px02smf080?capacity_gib=0.0625&serial=UNLIKE1";
    for (dir, qd) in [(&a, "4"), (&b, "1")] {
        let (code, _, err) = bench_run(addr, dir, &["--rw", "randread", "--qd", qd]);
        assert_eq!(code, 0, "{err}");
    }
    let (code, out, err) = sgctl(&["bench", "compare", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("different workloads") && err.contains("QD: [1] 4, [2] 1"),
        "{err}"
    );
    assert!(err.contains("--allow-different"), "{err}");
    // One line: the CLI escapes control characters, so a newline in it printed as "\n".
    assert!(
        !err.trim_end().contains('\n') && !err.contains("\\n"),
        "{err}"
    );
    let (code, out, err) = sgctl(&[
        "bench",
        "compare",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--allow-different",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("WORKLOADS DIFFER") && out.contains("QD: [1] 4, [2] 1"),
        "{out}"
    );
}

/// A virtual drive without a state file is a fresh drive on every open: `--resume` on it
/// used to continue the saved run on that fresh drive without a word. Refused (exit 2)
/// before anything reaches the drive; the report is untouched.
#[test]
fn resume_on_a_stateless_virtual_drive_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("r");
    let audit = d.path().join("audit.jsonl");
    let stateless = "sim:px02smf080?capacity_gib=0.0625&serial=NOSTATE1";
    let (code, _, err) = crate::util::run_audited(
        &[
            "bench",
            "pts",
            stateless,
            "--test",
            "lat",
            "--max-rounds",
            "5",
            "--confirm",
            "NOSTATE1",
            "--report",
            dir.to_str().unwrap(),
        ],
        &audit,
    );
    assert_eq!(code, 0, "{err}");
    let before = std::fs::read_to_string(dir.join("report.json")).unwrap();
    let (code, _, err) = crate::util::run_audited(
        &[
            "bench",
            "pts",
            stateless,
            "--resume",
            dir.to_str().unwrap(),
            "--confirm",
            "NOSTATE1",
        ],
        &audit,
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("without state=FILE") && err.contains("fresh drive"),
        "{err}"
    );
    assert_eq!(
        before,
        std::fs::read_to_string(dir.join("report.json")).unwrap()
    );
}
