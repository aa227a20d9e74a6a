//! HTML reports and certificates opened in a real browser (Debian's headless Chromium).
//!
//! For each document: a copy with a probe script as the first element of `<head>` is opened
//! with `--dump-dom`; the probe records script errors and `console.error` calls, the size of
//! every `<svg>`, every resource the page fetched, and the rendered text (`innerText`), and
//! writes them into the DOM that Chromium prints. The original document has no script; the
//! probe only observes. A screenshot of the original goes to `target/browser/NAME.png` for a
//! person to look at.
//!
//! Chromium is optional for a local `cargo test` (the test says it skipped); the suite
//! (`scripts/test-all.sh`) installs it and sets `SGCTL_REQUIRE_CHROMIUM=1`, which makes a
//! missing browser a failure.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const PROBE: &str = r#"<script>
window.__errs = [];
window.addEventListener('error', e => window.__errs.push('error: ' + e.message));
console.error = (...a) => window.__errs.push('console.error: ' + a.join(' '));
window.addEventListener('load', () => {
  const svgs = [...document.querySelectorAll('svg')].map(s => {
    const b = s.getBoundingClientRect(); return [b.width, b.height]; });
  const res = performance.getEntriesByType('resource').map(r => r.name);
  const pre = document.createElement('pre');
  pre.id = '__probe';
  pre.textContent = '@@PROBE@@' + JSON.stringify({errs: window.__errs, svgs, res,
    charts: document.querySelectorAll('[data-chart]').length,
    text: document.body.innerText}) + '@@END@@';
  document.body.appendChild(pre);
});
</script>"#;

pub(crate) fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|b| {
            let out = Command::new("sh")
                .args(["-c", &format!("command -v {b}")])
                .output()
                .ok()?;
            let p = String::from_utf8_lossy(&out.stdout).trim().to_string();
            (!p.is_empty()).then(|| PathBuf::from(p))
        })
}

pub(crate) fn browser_args(profile: &Path) -> Vec<String> {
    // As root, without background networking (this machine has no network: Chromium would
    // retry its connections many times a second).
    [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        "--virtual-time-budget=3000",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([format!("--user-data-dir={}", profile.display())])
    .collect()
}

/// What the probe saw in the rendered page.
pub(crate) struct Rendered {
    /// Script errors and console.error calls.
    pub errors: Vec<String>,
    /// (width, height) of every svg element.
    pub svgs: Vec<(f64, f64)>,
    /// Resources the page fetched.
    pub resources: Vec<String>,
    /// Number of `[data-chart]` figures.
    pub charts: usize,
    /// The rendered text.
    pub text: String,
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&")
}

/// Opens `html` in headless Chromium; None when no browser is installed (and not required).
pub(crate) fn render(html: &Path, name: &str) -> Option<Rendered> {
    let Some(bin) = chromium() else {
        assert!(
            std::env::var_os("SGCTL_REQUIRE_CHROMIUM").is_none(),
            "SGCTL_REQUIRE_CHROMIUM is set but no chromium is installed"
        );
        eprintln!("browser test SKIPPED: no chromium (scripts/test-all.sh installs it)");
        return None;
    };
    let dir = tempfile::tempdir().unwrap();
    let doc = std::fs::read_to_string(html).unwrap();
    let probed = doc.replacen("<head>", &format!("<head>\n{PROBE}"), 1);
    assert_ne!(probed, doc, "{} has no <head>", html.display());
    let copy = dir.path().join("probed.html");
    std::fs::write(&copy, probed).unwrap();
    let out = Command::new(&bin)
        .args(browser_args(&dir.path().join("p1")))
        .arg("--dump-dom")
        .arg(format!("file://{}", copy.display()))
        .output()
        .expect("run chromium");
    let dom = String::from_utf8_lossy(&out.stdout);
    let json = dom
        .rsplit("@@PROBE@@") // the last one: the probe's <pre>, not its script
        .next()
        .filter(|_| dom.matches("@@PROBE@@").count() > 1)
        .and_then(|r| r.split("@@END@@").next())
        .unwrap_or_else(|| {
            panic!(
                "no probe output from chromium (status {:?}); stderr: {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            )
        });
    let v: Value = serde_json::from_str(&unescape(json)).expect("probe JSON");
    // A screenshot of the original (not the probed copy) for a person to look at.
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser");
    std::fs::create_dir_all(&shots).unwrap();
    let shot = shots.join(format!("{name}.png"));
    let st = Command::new(&bin)
        .args(browser_args(&dir.path().join("p2")))
        .arg(format!("--screenshot={}", shot.display()))
        .arg("--window-size=1100,2400")
        .arg(format!("file://{}", html.display()))
        .output()
        .expect("run chromium for a screenshot");
    assert!(
        shot.metadata().map(|m| m.len() > 10_000).unwrap_or(false),
        "no screenshot: {}",
        String::from_utf8_lossy(&st.stderr)
    );
    let strs = |k: &str| -> Vec<String> {
        v[k].as_array()
            .map(|a| {
                a.iter()
                    .map(|x| x.as_str().unwrap_or("").to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    Some(Rendered {
        errors: strs("errs"),
        resources: strs("res"),
        svgs: v["svgs"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|p| (p[0].as_f64().unwrap_or(0.0), p[1].as_f64().unwrap_or(0.0)))
                    .collect()
            })
            .unwrap_or_default(),
        charts: v["charts"].as_u64().unwrap_or(0) as usize,
        text: v["text"].as_str().unwrap_or("").to_string(),
    })
}

/// The checks every document must pass: no errors, no fetch, every chart drawn with a size.
pub(crate) fn assert_clean(r: &Rendered, min_charts: usize) {
    assert!(r.errors.is_empty(), "console errors: {:?}", r.errors);
    assert!(r.resources.is_empty(), "the page fetched {:?}", r.resources);
    assert!(
        r.charts >= min_charts,
        "{} charts rendered, expected at least {min_charts}",
        r.charts
    );
    assert!(r.svgs.len() >= r.charts);
    for (i, (w, h)) in r.svgs.iter().enumerate() {
        assert!(*w > 50.0 && *h > 50.0, "svg {i} has size {w}x{h}");
    }
}

#[test]
fn certificate_html_in_a_browser() {
    let dir = tempfile::tempdir().unwrap();
    let cert = dir.path().join("cert.json");
    let out = crate::util::sgctl_cmd()
        .args([
            "sanitize",
            "sim:px02smf080?clock=virtual&capacity_blocks=65536&serial=CERT0001&used=1",
            "--crypto",
            "--verify",
            "8",
            "--confirm",
            "CERT0001",
            "--operator",
            "Jane Admin",
            "--poll-interval",
            "1",
        ])
        .arg("--certificate")
        .arg(&cert)
        .arg("--audit-log")
        .arg(dir.path().join("audit.jsonl"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = dir.path().join("cert.json.html");
    let doc = std::fs::read_to_string(&html).unwrap();
    assert!(!doc.contains("<script") && !doc.contains("<link") && !doc.contains(" src="));
    let Some(r) = render(&html, "certificate") else {
        return;
    };
    assert_clean(&r, 0);
    for needle in [
        "Certificate of Sanitization",
        "CERT0001",
        "CRYPTOGRAPHIC ERASE",
        "purge",
        "PASSED",
        "Jane Admin",
        "sanitize in progress",
    ] {
        assert!(
            r.text.to_lowercase().contains(&needle.to_lowercase()),
            "'{needle}' not in the rendered text:\n{}",
            r.text
        );
    }
}

#[test]
fn bench_report_html_in_a_browser() {
    let dir = tempfile::tempdir().unwrap();
    let rep = dir.path().join("r");
    let out = crate::util::sgctl_cmd()
        .args([
            "bench",
            "pts",
            "sim:px02smf080?capacity_gib=0.0625&serial=HTML0001",
            "--test",
            "lat",
            "--confirm",
            "HTML0001",
        ])
        .arg("--report")
        .arg(&rep)
        .arg("--audit-log")
        .arg(dir.path().join("audit.jsonl"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = rep.join("report.html");
    let doc = std::fs::read_to_string(&html).unwrap();
    assert!(!doc.contains("<script") && !doc.contains("<link") && !doc.contains(" src="));
    crate::report_schema::assert_valid_dir(&rep);
    let report: Value =
        serde_json::from_slice(&std::fs::read(rep.join("report.json")).unwrap()).unwrap();
    let Some(r) = render(&html, "bench-report") else {
        return;
    };
    // Steady-state convergence and the measurement window at least.
    assert_clean(&r, 2);
    let ss = &report["tests"][0]["results"]["steady_state"]["window"];
    let avg = ss["average"]
        .as_f64()
        .expect("window average in report.json");
    for needle in [
        "HTML0001".to_string(),
        "Measurement window".to_string(),
        "LAT".to_string(),
        "steady state reached".to_string(),
        format!("{avg:.2}"),
    ] {
        assert!(
            r.text.to_lowercase().contains(&needle.to_lowercase()),
            "'{needle}' not in the rendered text:\n{}",
            r.text
        );
    }
}

/// `bench run --report DIR` twice (QD1 and QD16 on one virtual drive).
fn two_runs(dir: &Path) -> (PathBuf, PathBuf) {
    let mut out = vec![];
    for (name, qd) in [("qd1", "1"), ("qd16", "16")] {
        let rep = dir.join(name);
        let o = crate::util::sgctl_cmd()
            .args([
                "bench",
                "run",
                "sim:mk4001grzb?capacity_gib=0.0625&serial=HTMLRUN1",
                "--rw",
                "randrw",
                "--mix",
                "70",
                "--qd",
                qd,
                "--runtime",
                "4s",
                "--log-interval",
                "200ms",
                "--confirm",
                "HTMLRUN1",
            ])
            .arg("--report")
            .arg(&rep)
            .env("SGCTL_AUDIT_LOG", dir.join("audit.jsonl"))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        crate::report_schema::assert_valid_dir(&rep);
        out.push(rep);
    }
    (out.remove(0), out.remove(0))
}

fn no_external(html: &Path) {
    let doc = std::fs::read_to_string(html).unwrap();
    assert!(!doc.contains("<script") && !doc.contains("<link") && !doc.contains(" src="));
}

#[test]
fn bench_run_report_html_in_a_browser() {
    let dir = tempfile::tempdir().unwrap();
    let (rep, _) = two_runs(dir.path());
    let html = rep.join("report.html");
    no_external(&html);
    let v: Value =
        serde_json::from_slice(&std::fs::read(rep.join("report.json")).unwrap()).unwrap();
    let Some(r) = render(&html, "bench-run") else {
        return;
    };
    // IOPS, MB/s, latency against time; histogram; exceedance.
    assert_clean(&r, 5);
    let iops = v["result"]["iops"].as_f64().unwrap();
    let mbps = v["result"]["mbps"].as_f64().unwrap();
    for needle in [
        "HTMLRUN1".to_string(),
        "MK4001GRZB".to_string(),
        "IOPS per interval".to_string(),
        "exceedance".to_string(),
        "99.999th percentile".to_string(),
        sgctl::report::chart::human(iops),
        format!("{mbps:.1}"),
    ] {
        assert!(
            r.text.to_lowercase().contains(&needle.to_lowercase()),
            "'{needle}' not in the rendered text:\n{}",
            r.text
        );
    }
}

#[test]
fn bench_compare_html_in_a_browser() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_runs(dir.path());
    let html = dir.path().join("compare.html");
    let o = crate::util::sgctl_cmd()
        .args(["--json", "bench", "compare"])
        .arg(&a)
        .arg(&b)
        // Two queue depths: another workload, compared on purpose.
        .args([
            "--allow-different",
            "--label",
            "QD1",
            "--label",
            "QD16",
            "--html",
        ])
        .arg(&html)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let env: Value = serde_json::from_slice(&o.stdout).unwrap();
    crate::report_schema::assert_valid(&env["data"], "bench compare --json");
    no_external(&html);
    let Some(r) = render(&html, "bench-compare") else {
        return;
    };
    // IOPS, MB/s, latency against time; histogram; exceedance, overlaid.
    assert_clean(&r, 5);
    let iops = env["data"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["name"] == "IOPS")
        .unwrap()
        .clone();
    for needle in [
        "(serial HTMLRUN1) — QD1".to_string(),
        "(serial HTMLRUN1) — QD16".to_string(),
        "Differences".to_string(),
        format!("{:.0}", iops["values"][1].as_f64().unwrap()),
        format!("{:+.1}%", iops["delta_pct"][1].as_f64().unwrap()),
    ] {
        assert!(
            r.text.contains(&needle),
            "'{needle}' not in the rendered text:\n{}",
            r.text
        );
    }
}
