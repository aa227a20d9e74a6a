//! docs/report.schema.json against the reports sgctl writes: `bench run --report` (read,
//! write, bssplit + verify), `bench pts` (lat, tp, wsat in one run), `bench review` (qd_sweep,
//! basics), `bench compare --json` and `--report DIR`; the browser and suite tests call
//! [`assert_valid_dir`] on theirs too. A broken report must fail, and `bench compare` must
//! refuse another version and another kind with exit 2.

use serde_json::Value;
use std::path::Path;
use std::sync::OnceLock;

fn validator() -> &'static jsonschema::Validator {
    static V: OnceLock<jsonschema::Validator> = OnceLock::new();
    V.get_or_init(|| {
        let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/report.schema.json");
        let schema: Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
        jsonschema::draft202012::new(&schema).expect("docs/report.schema.json compiles")
    })
}

/// Validation errors of `v` (empty: valid).
pub(crate) fn errors(v: &Value) -> Vec<String> {
    validator()
        .iter_errors(v)
        .take(10)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

/// Panics with the first errors when `v` does not validate.
pub(crate) fn assert_valid(v: &Value, what: &str) {
    let e = errors(v);
    assert!(
        e.is_empty(),
        "{what} does not validate against docs/report.schema.json:\n{}",
        e.join("\n")
    );
}

/// Validates `dir/report.json` (and `dir/compare.json` when present).
pub(crate) fn assert_valid_dir(dir: &Path) {
    for f in ["report.json", "compare.json"] {
        let p = dir.join(f);
        if p.exists() {
            let v: Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
            assert_valid(&v, &p.display().to_string());
        }
    }
}

fn sgctl(args: &[&str], dir: &Path) -> (i32, String, String) {
    let out = crate::util::sgctl_cmd()
        .args(args)
        .env("SGCTL_AUDIT_LOG", dir.join("audit.jsonl"))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn load(p: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

const DRIVE: &str = "sim:mk4001grzb?capacity_gib=0.0625&serial=SCHEMA01";

#[test]
fn run_reports_and_compare_validate_and_refusals() {
    let d = tempfile::tempdir().unwrap();
    let p = |n: &str| d.path().join(n).display().to_string();
    let (a, b, c) = (p("a"), p("b"), p("c"));
    for (dir, extra) in [
        (&a, vec!["--rw", "randread", "--qd", "4"]),
        (&b, vec!["--rw", "randread", "--qd", "16"]),
        (
            &c,
            vec![
                "--rw",
                "randrw",
                "--mix",
                "70",
                "--bssplit",
                "4k/67:8k/33",
                "--verify",
                "--confirm",
                "SCHEMA01",
            ],
        ),
    ] {
        let mut args = vec!["bench", "run", DRIVE, "--runtime", "2s", "--report", dir];
        args.extend(extra);
        let (code, out, err) = sgctl(&args, d.path());
        assert_eq!(code, 0, "{args:?}: {err}");
        // The terminal summary is the report's: figures printed are the file's.
        let v = load(&Path::new(dir).join("report.json"));
        assert_valid(&v, dir);
        let iops = v["result"]["iops"].as_f64().unwrap();
        assert!(iops > 0.0);
        assert!(
            out.contains(&format!(
                "IOPS, {:.1} MB/s",
                v["result"]["mbps"].as_f64().unwrap()
            )),
            "{out}"
        );
        assert_eq!(v["header"]["serial"], "SCHEMA01");
        assert_eq!(v["suite"], "run");
        assert!(Path::new(dir).join("report.html").exists());
    }
    // --json of compare, and --report DIR.
    let cmp = p("cmp");
    let (code, out, err) = sgctl(
        // Three workloads (QD, mix, block sizes), compared on purpose.
        &[
            "--json",
            "bench",
            "compare",
            &a,
            &b,
            &c,
            "--allow-different",
            "--report",
            &cmp,
        ],
        d.path(),
    );
    assert_eq!(code, 0, "{err}");
    let env: Value = serde_json::from_str(&out).unwrap();
    assert_valid(&env["data"], "bench compare --json data");
    assert_valid_dir(Path::new(&cmp));
    let row = env["data"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "IOPS")
        .unwrap()
        .clone();
    let (ia, ib) = (
        row["values"][0].as_f64().unwrap(),
        row["values"][1].as_f64().unwrap(),
    );
    let pct = row["delta_pct"][1].as_f64().unwrap();
    assert!((pct - 100.0 * (ib - ia) / ia).abs() < 1e-6, "{row}");
    // Another version: one line, exit 2.
    let mut v = load(&Path::new(&b).join("report.json"));
    v["version"] = 2.into();
    std::fs::write(p("v2.json"), v.to_string()).unwrap();
    assert!(!errors(&v).is_empty(), "the schema accepts version 2");
    let (code, _, err) = sgctl(&["bench", "compare", &a, &p("v2.json")], d.path());
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("report version 2; this sgctl reads version 1"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    // Not a report at all.
    std::fs::write(p("junk.json"), b"{\"format\": \"fio\"}").unwrap();
    let (code, _, err) = sgctl(&["bench", "compare", &a, &p("junk.json")], d.path());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not an sgctl bench report"), "{err}");
}

#[test]
fn broken_reports_fail_validation() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("r").display().to_string();
    let (code, _, err) = sgctl(
        &["bench", "run", DRIVE, "--runtime", "1s", "--report", &dir],
        d.path(),
    );
    assert_eq!(code, 0, "{err}");
    let good = load(&Path::new(&dir).join("report.json"));
    assert_valid(&good, "the run report");
    type Breakage = Box<dyn Fn(&mut Value)>;
    let breakages: Vec<(&str, Breakage)> = vec![
        (
            "unknown header field",
            Box::new(|v| v["header"]["colour"] = "blue".into()),
        ),
        (
            "header without serial",
            Box::new(|v| {
                v["header"].as_object_mut().unwrap().remove("serial");
            }),
        ),
        (
            "unknown top-level field",
            Box::new(|v| v["extra"] = 1.into()),
        ),
        (
            "IOPS as a string",
            Box::new(|v| v["result"]["iops"] = "fast".into()),
        ),
        (
            "negative latency",
            Box::new(|v| v["result"]["latency"]["mean_us"] = (-1.0).into()),
        ),
        (
            "no histogram",
            Box::new(|v| {
                v["result"].as_object_mut().unwrap().remove("histogram");
            }),
        ),
        (
            "other format",
            Box::new(|v| v["format"] = "sgctl-bench-run".into()),
        ),
        ("bad state", Box::new(|v| v["state"] = "fine".into())),
        (
            "interval without t_s",
            Box::new(|v| {
                v["result"]["intervals"][0]
                    .as_object_mut()
                    .unwrap()
                    .remove("t_s");
            }),
        ),
    ];
    for (what, f) in breakages {
        let mut v = good.clone();
        f(&mut v);
        assert!(!errors(&v).is_empty(), "a report with {what} validates");
    }
}

#[test]
fn suite_reports_validate() {
    let d = tempfile::tempdir().unwrap();
    let drive = "sim:px02smf080?capacity_gib=0.0625&serial=SCHEMA02";
    let pts = d.path().join("pts").display().to_string();
    let (code, out, err) = sgctl(
        &[
            "bench",
            "pts",
            drive,
            "--test",
            "lat,tp,wsat",
            "--confirm",
            "SCHEMA02",
            "--report",
            &pts,
        ],
        d.path(),
    );
    assert_eq!(code, 0, "{err}");
    assert_valid_dir(Path::new(&pts));
    // The summary says what the report holds: the LAT window average.
    let v = load(&Path::new(&pts).join("report.json"));
    let avg = v["tests"][0]["results"]["steady_state"]["window"]["average"]
        .as_f64()
        .unwrap();
    assert!(out.contains(&format!("average {avg:.1}")), "{out}");
    let rev = d.path().join("rev").display().to_string();
    let (code, _, err) = sgctl(
        &[
            "bench",
            "review",
            drive,
            "--part",
            "qd_sweep,basics",
            "--confirm",
            "SCHEMA02",
            "--report",
            &rev,
        ],
        d.path(),
    );
    assert_eq!(code, 0, "{err}");
    assert_valid_dir(Path::new(&rev));
    // A pts report and a review report are not compared (exit 2, one line).
    let (code, _, err) = sgctl(&["bench", "compare", &pts, &rev], d.path());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("compare reports of one kind"), "{err}");
    // The committed example (docs/examples, README) validates too.
    assert_valid_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/review-mk4001grzb"),
    );
}
