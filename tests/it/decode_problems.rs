//! Exit status 9 ("decoded with problems") for the one-command RSOC form and for log
//! pages, through `sgctl decode`, `sgctl logs --inhex`: an inconsistent response is decoded as
//! far as its bytes go, the problems are listed (text and `problems` in JSON), exit 9; the
//! clean fixture exits 0 (a log parameter code the standard does not define is listed, not an
//! inconsistency). (`tcg discover` is covered by the unit test
//! `cli::tcg::discover_tests`.)

use serde_json::Value;
use sgctl::bytes::parse_inhex;
use std::path::{Path, PathBuf};

fn fixture(rel: &str) -> Vec<u8> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel);
    parse_inhex(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn write_hex(dir: &Path, name: &str, b: &[u8]) -> PathBuf {
    let p = dir.join(name);
    let text: String = b.iter().map(|x| format!("{x:02x} ")).collect();
    std::fs::write(&p, text + "\n").unwrap();
    p
}

/// (exit status, JSON envelope, text stdout, text stderr) of `sgctl ARGS`.
fn sgctl(args: &[&str], file: &Path) -> (i32, Value, String, String) {
    let run = |json: bool| {
        let mut c = crate::util::sgctl_cmd();
        if json {
            c.arg("--json");
        }
        c.args(args).arg(file).output().unwrap()
    };
    let j = run(true);
    let t = run(false);
    assert_eq!(j.status.code(), t.status.code(), "text and JSON exit alike");
    (
        t.status.code().unwrap_or(-1),
        serde_json::from_slice(&j.stdout).unwrap_or(Value::Null),
        String::from_utf8_lossy(&t.stdout).into_owned(),
        String::from_utf8_lossy(&t.stderr).into_owned(),
    )
}

#[test]
fn rsoc_one_command_cut_short_exits_9_with_the_usage_bytes_present() {
    let dir = tempfile::tempdir().unwrap();
    let b = fixture("commands/scsi_debug/rsoc_one_rc16_rctd.hex");
    let args = ["decode", "--as", "opcode", "--inhex"];
    let (rc, json, text, _) = sgctl(&args, &write_hex(dir.path(), "ok.hex", &b));
    assert_eq!(rc, 0, "{text}");
    assert_eq!(json["data"]["problems"], serde_json::json!([]));
    assert_eq!(json["data"]["timeouts"]["recommended_seconds"], 0);

    // The timeouts descriptor (CTDP set) cut off: usage kept, descriptor listed.
    let (rc, json, text, err) = sgctl(&args, &write_hex(dir.path(), "t.hex", &b[..24]));
    assert_eq!(rc, 9, "{text}{err}");
    assert_eq!(
        json["data"]["cdb_usage"],
        "9e10ffffffffffffffffffffffff01c7"
    );
    assert!(json["data"]["timeouts"].is_null());
    let p = json["data"]["problems"].as_array().unwrap();
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(
        p[0].as_str().unwrap().starts_with("CTDP is set but"),
        "{p:?}"
    );
    assert!(
        text.contains("Problems (decoded as far as the bytes go)"),
        "{text}"
    );
    assert!(err.contains("decoded as far as the bytes go"), "{err}");

    // CDB usage data cut short: the bytes present, both problems.
    let (rc, json, text, _) = sgctl(&args, &write_hex(dir.path(), "u.hex", &b[..10]));
    assert_eq!(rc, 9, "{text}");
    assert_eq!(json["data"]["cdb_usage"], "9e10ffffffff");
    assert_eq!(json["data"]["problems"].as_array().unwrap().len(), 2);

    // Only a missing header is refused (exit 4).
    let (rc, _, _, _) = sgctl(&args, &write_hex(dir.path(), "h.hex", &b[..3]));
    assert_eq!(rc, 4);
}

#[test]
fn log_page_problems_exit_9_in_decode_and_logs() {
    let dir = tempfile::tempdir().unwrap();
    let b = fixture("logpages/libscsicmd_temperature.hex");
    let clean = write_hex(dir.path(), "ok.hex", &b);
    // PAGE LENGTH 4 bytes past the data: the parameters present are decoded, the overrun listed.
    let mut long = b.clone();
    long[3] += 4;
    let long = write_hex(dir.path(), "long.hex", &long);
    // The last parameter's length overruns the page.
    let mut par = b.clone();
    let n = par.len();
    par[n - 5] = 8;
    let par = write_hex(dir.path(), "par.hex", &par);

    for args in [
        &["decode", "--as", "logpage", "--inhex"][..],
        &["logs", "--inhex"][..],
    ] {
        let (rc, json, text, _) = sgctl(args, &clean);
        assert_eq!(rc, 0, "{args:?}: {text}");
        let page = |j: &Value| {
            if j["data"]["pages"].is_array() {
                j["data"]["pages"][0].clone()
            } else {
                j["data"].clone()
            }
        };
        // The drive reports parameter 0x0002, which the standard does not define: listed,
        // but no inconsistency (exit 0).
        let probs = page(&json)["problems"].as_array().unwrap().clone();
        assert_eq!(probs.len(), 1, "{args:?}: {probs:?}");
        assert!(
            probs[0]
                .as_str()
                .unwrap()
                .contains("0x0002 (2 bytes) is not defined"),
            "{probs:?}"
        );
        for (f, needle) in [
            (&long, "page length 124 but only 120"),
            (&par, "overruns the page"),
        ] {
            let (rc, json, text, err) = sgctl(args, f);
            assert_eq!(rc, 9, "{args:?} {}: {text}{err}", f.display());
            let pg = page(&json);
            let probs = pg["problems"].as_array().unwrap();
            assert!(
                probs.iter().any(|p| p.as_str().unwrap().contains(needle)),
                "{args:?}: {probs:?}"
            );
            // What decodes is still there: the current temperature, 21 C.
            assert_eq!(pg["decoded"]["current_c"], 21, "{args:?}: {pg}");
            assert!(text.contains(needle), "{args:?}: {text}");
        }
    }
}

/// Standard INQUIRY cut short of its 36 mandatory bytes is decoded as far as the bytes go (as
/// sg_inq does), the problem listed, exit 9; sg_inq --inhex prints the same vendor and product
/// from the same bytes (when sg3_utils is installed; test-all makes it mandatory).
#[test]
fn inquiry_cut_short_exits_9_with_the_fields_present() {
    let dir = tempfile::tempdir().unwrap();
    let b = fixture("commands/scsi_debug/inquiry.hex");
    let args = ["decode", "--as", "inquiry", "--inhex"];
    let (rc, json, text, _) = sgctl(&args, &write_hex(dir.path(), "ok.hex", &b));
    assert_eq!(rc, 0, "{text}");
    assert!(json["data"].get("problems").is_none(), "absent when clean");
    let short = write_hex(dir.path(), "short.hex", &b[..20]);
    let (rc, json, text, _) = sgctl(&args, &short);
    assert_eq!(rc, 9, "{text}");
    assert_eq!(json["data"]["t10_vendor_identification"], "Linux");
    assert_eq!(json["data"]["product_identification"], "scsi");
    assert_eq!(json["data"]["product_revision_level"], "");
    let p = json["data"]["problems"].as_array().unwrap();
    assert!(p[0].as_str().unwrap().contains("20 of the 36"), "{p:?}");
    assert!(text.contains("Problems (decoded as far as the bytes go)"));
    // A header alone (4 bytes: no ADDITIONAL LENGTH) is refused (exit 4).
    let (rc, _, _, _) = sgctl(&args, &write_hex(dir.path(), "h.hex", &b[..4]));
    assert_eq!(rc, 4);
    let sg_inq = std::process::Command::new("sg_inq")
        .arg(format!("--inhex={}", short.display()))
        .output();
    match sg_inq {
        Ok(o) => {
            let s = String::from_utf8_lossy(&o.stdout);
            let field = |name: &str| {
                s.lines()
                    .find_map(|l| l.trim().strip_prefix(name).map(|v| v.trim().to_string()))
            };
            assert_eq!(
                field("Vendor identification:").as_deref(),
                Some("Linux"),
                "{s}"
            );
            assert_eq!(
                field("Product identification:").as_deref(),
                Some("scsi"),
                "{s}"
            );
        }
        Err(_) => assert!(
            std::env::var_os("SGCTL_REQUIRE_SG3").is_none(),
            "sg_inq required (SGCTL_REQUIRE_SG3)"
        ),
    }
}
