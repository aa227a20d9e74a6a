//! Golden files: the text and the JSON `data` (with exit status and messages) of every command
//! on a set of `sim:` drives and saved fixtures, recorded under `fixtures/golden/`. They pin the
//! behaviour while the library below the CLI is rebuilt: the same bytes after as before.
//!
//! Times, durations, job ids, the host name, the git revision and the temp directory are
//! replaced by placeholders; nothing else is. The validation seed is fixed
//! (`SGCTL_VALIDATION_SEED`), so the sampled blocks are the same each run. Each case runs twice (text, `--json`), each time on
//! a fresh virtual drive in its own temp directory.
//!
//! In text mode stderr is recorded too (after `--- stderr`): the one-line errors and warnings.
//!
//! Regenerate after an intended change: `SGCTL_GOLDEN=update cargo test --test it golden`,
//! then review `git diff fixtures/golden/`.

use regex::Regex;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A drive with a state file in the case's directory (fresh per run).
const PX02: &str =
    "sim:px02smf080?clock=virtual&capacity_blocks=65536&serial=GOLD1&state={DIR}/d.json";
const PX03: &str =
    "sim:px03snf080?clock=virtual&capacity_blocks=65536&serial=GOLD3&state={DIR}/d.json";
const MK40: &str =
    "sim:mk4001grzb?clock=virtual&capacity_blocks=65536&serial=GOLDM&state={DIR}/d.json";
const EXAR: &str =
    "sim:exarray?clock=virtual&capacity_blocks=65536&serial=GOLDX&state={DIR}/d.json";

/// (case name, argv after `sgctl [--json]`). `{DIR}` is the case's temp directory, `{FIX}` the
/// repository's fixtures/ directory.
const CASES: &[(&str, &[&str])] = &[
    // identification and query commands
    ("inquiry_px02", &["inquiry", "sim:px02smf080"]),
    ("inquiry_hk4e", &["inquiry", "sim:hk4e"]),
    ("inquiry_exarray", &["inquiry", "sim:exarray"]),
    ("vpd_list_px02", &["vpd", "sim:px02smf080"]),
    ("vpd_all_px02", &["vpd", "sim:px02smf080", "--page", "all"]),
    ("vpd_all_hk4e", &["vpd", "sim:hk4e", "--page", "all"]),
    (
        "vpd_di_port2",
        &["vpd", "sim:px02smf080?port=2", "--page", "di"],
    ),
    (
        "vpd_unsupported",
        &["vpd", "sim:mk4001grzb", "--page", "0xb2"],
    ),
    ("readcap_px02", &["readcap", "sim:px02smf080"]),
    ("readcap_exarray", &["readcap", "sim:exarray"]),
    ("readcap10_px03", &["readcap", "sim:px03snf080", "--10"]),
    ("opcodes_px02", &["opcodes", "sim:px02smf080"]),
    ("opcodes_timeouts", &["opcodes", "sim:px02smf080", "-T"]),
    (
        "opcode_sanitize",
        &["opcodes", "sim:px02smf080", "--opcode", "0x48", "--sa", "3"],
    ),
    ("tur_px02", &["tur", "sim:px02smf080"]),
    ("sense_px02", &["sense", "sim:px02smf080"]),
    ("luns_px02", &["luns", "sim:px02smf080"]),
    ("modes_px02", &["modes", "sim:px02smf080"]),
    (
        "modes_changeable",
        &["modes", "sim:px02smf080", "--pc", "changeable"],
    ),
    ("modes6_exarray", &["modes", "sim:exarray", "--six"]),
    ("inquiry_bad_profile", &["inquiry", "sim:nosuch"]),
    // saved responses
    (
        "decode_inquiry_sdeb",
        &[
            "decode",
            "--inhex",
            "{FIX}/commands/scsi_debug/inquiry.hex",
            "--as",
            "inquiry",
        ],
    ),
    (
        "decode_vpd83_qemu",
        &[
            "decode",
            "--inhex",
            "{FIX}/commands/qemu_scsi_hd/vpd_83.hex",
            "--as",
            "vpd",
        ],
    ),
    (
        "decode_rsoc_sdeb",
        &[
            "decode",
            "--inhex",
            "{FIX}/commands/scsi_debug/rsoc_all_rctd.hex",
            "--as",
            "opcodes",
        ],
    ),
    (
        "decode_mode_qemu",
        &[
            "decode",
            "--inhex",
            "{FIX}/commands/qemu_scsi_hd/mode10_all.hex",
            "--as",
            "mode",
        ],
    ),
    (
        "decode_sense_qemu",
        &[
            "decode",
            "--inhex",
            "{FIX}/commands/qemu_scsi_hd/request_sense.hex",
            "--as",
            "sense",
        ],
    ),
    (
        "decode_rc16_sdeb",
        &[
            "decode",
            "--inhex",
            "{FIX}/commands/scsi_debug/readcap16.hex",
            "--as",
            "readcap16",
        ],
    ),
    (
        "decode_logpage_temp",
        &[
            "decode",
            "--inhex",
            "{FIX}/logpages/libscsicmd_temperature.hex",
            "--as",
            "logpage",
        ],
    ),
    (
        "logs_inhex_sdeb",
        &["logs", "--inhex", "{FIX}/logpages/sdeb_aa.hex"],
    ),
    // discovery on captured trees
    (
        "scan_mptsas",
        &["scan", "--sysroot", "{FIX}/sysfs/mptsas-dualport"],
    ),
    (
        "scan_scsi_debug",
        &["scan", "--sysroot", "{FIX}/sysfs/scsi-debug"],
    ),
    (
        "scan_no_io",
        &[
            "scan",
            "--no-io",
            "--sysroot",
            "{FIX}/sysfs/mptsas-dualport",
        ],
    ),
    (
        "paths_mptsas_sg1",
        &[
            "paths",
            "/dev/sg1",
            "--sysroot",
            "{FIX}/sysfs/mptsas-dualport",
        ],
    ),
    ("paths_sim", &["paths", "sim:px02smf080"]),
    // the virtual drive
    ("sim_list", &["sim", "list"]),
    ("sim_info_px02", &["sim", "info", PX02]),
    // health and logs
    ("logs_px02", &["logs", "sim:px02smf080?clock=virtual"]),
    (
        "logs_temperature",
        &["logs", "sim:px02smf080?clock=virtual", "--page", "0x0d"],
    ),
    (
        "logs_reset_dry_run",
        &["logs", PX02, "--reset", "--dry-run"],
    ),
    (
        "logs_reset",
        &["logs", PX02, "--reset", "--confirm", "GOLD1"],
    ),
    ("logs_reset_no_confirm", &["logs", PX02, "--reset"]),
    ("health_px02", &["health", "sim:px02smf080"]),
    ("health_mk40", &["health", "sim:mk4001grzb"]),
    ("health_hk4e", &["health", "sim:hk4e"]),
    (
        "health_limit",
        &["health", "sim:px02smf080", "--max", "temperature_c=10"],
    ),
    (
        "health_prometheus",
        &["health", "sim:px03snf080", "--prometheus"],
    ),
    // format and sanitize
    (
        "sanitize_support_px02",
        &["sanitize", "--support", "sim:px02smf080"],
    ),
    (
        "sanitize_support_mk40",
        &["sanitize", "--support", "sim:mk4001grzb"],
    ),
    (
        "sanitize_dry_run",
        &["sanitize", PX02, "--crypto", "--dry-run"],
    ),
    (
        "sanitize_crypto",
        &["sanitize", PX02, "--crypto", "--confirm", "GOLD1"],
    ),
    (
        "sanitize_block",
        &["sanitize", PX03, "--block", "--confirm", "GOLD3"],
    ),
    (
        "sanitize_overwrite",
        &[
            "sanitize",
            PX03,
            "--overwrite",
            "--pattern",
            "a5a5",
            "--passes",
            "2",
            "--invert",
            "--confirm",
            "GOLD3",
        ],
    ),
    (
        "sanitize_auto",
        &["sanitize", PX02, "--method", "auto", "--confirm", "GOLD1"],
    ),
    (
        "sanitize_auto_none",
        &["sanitize", MK40, "--method", "auto", "--confirm", "GOLDM"],
    ),
    (
        "sanitize_unsupported",
        &["sanitize", PX03, "--crypto", "--confirm", "GOLD3"],
    ),
    (
        "sanitize_wrong_confirm",
        &["sanitize", PX02, "--crypto", "--confirm", "NOTME"],
    ),
    ("sanitize_no_confirm", &["sanitize", PX02, "--crypto"]),
    (
        "sanitize_locked_sed",
        &["sanitize", EXAR, "--block", "--confirm", "GOLDX"],
    ),
    (
        "sanitize_efm_not_failed",
        &[
            "sanitize",
            PX02,
            "--exit-failure-mode",
            "--confirm",
            "GOLD1",
        ],
    ),
    (
        "format_dry_run",
        &["format", PX02, "--block-size", "4096", "--dry-run"],
    ),
    (
        "format_4096",
        &["format", PX02, "--block-size", "4096", "--confirm", "GOLD1"],
    ),
    (
        "format_pi1_fast",
        &[
            "format",
            PX03,
            "--block-size",
            "512",
            "--pi",
            "1",
            "--fast",
            "--confirm",
            "GOLD3",
        ],
    ),
    (
        "format_capacity",
        &[
            "format",
            PX02,
            "--block-size",
            "512",
            "--capacity",
            "50%",
            "--confirm",
            "GOLD1",
        ],
    ),
    (
        "format_no_pi",
        &[
            "format",
            MK40,
            "--block-size",
            "512",
            "--pi",
            "2",
            "--confirm",
            "GOLDM",
        ],
    ),
    (
        "format_locked_sed",
        &["format", EXAR, "--block-size", "512", "--confirm", "GOLDX"],
    ),
    (
        "format_recover_ok",
        &["format", PX02, "--recover", "--confirm", "GOLD1"],
    ),
    ("wait_idle", &["wait", PX02, "--poll-interval", "0"]),
    // TCG (read-only)
    ("tcg_discover_px02", &["tcg", "discover", "sim:px02smf080"]),
    ("tcg_discover_none", &["tcg", "discover", "sim:px03snf080"]),
    ("tcg_status_exarray", &["tcg", "status", "sim:exarray"]),
    ("tcg_bands_px02", &["tcg", "bands", "sim:px02smf080"]),
];

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// Runs one case in a fresh directory: (exit status, stdout, stderr, dir).
fn run(args: &[&str], json: bool) -> (i32, String, String, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path().display().to_string();
    let fix = fixtures().display().to_string();
    let argv: Vec<String> = args
        .iter()
        .map(|a| a.replace("{DIR}", &d).replace("{FIX}", &fix))
        .collect();
    let mut c = crate::util::sgctl_cmd();
    if json {
        c.arg("--json");
    }
    let out = c
        .args(&argv)
        .env("SGCTL_AUDIT_LOG", dir.path().join("audit.jsonl"))
        .env("SGCTL_VALIDATION_SEED", "5eed")
        .env_remove("SGCTL_GIT_REV")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run sgctl");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        dir,
    )
}

/// Keys whose values change from run to run.
const VOLATILE: &[&str] = &[
    "job_id",
    "started",
    "ended",
    "duration_s",
    "time",
    "host",
    "tool_git_revision",
    "elapsed_s",
    "eta_s",
    "waited_s",
];

fn scrub_json(v: &mut Value, dir: &str, fix: &str) {
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                if VOLATILE.contains(&k.as_str()) && !x.is_null() {
                    *x = Value::String(format!("{{{}}}", k.to_uppercase()));
                } else {
                    scrub_json(x, dir, fix);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| scrub_json(x, dir, fix)),
        Value::String(s) => *s = scrub_text(s, dir, fix),
        _ => {}
    }
}

fn scrub_text(s: &str, dir: &str, fix: &str) -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
    let mut s = s.replace(dir, "{DIR}").replace(fix, "{FIX}");
    let res = [
        (r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z", "{TIME}"),
        (r"\(\d+\.\d s\)", "({SECONDS} s)"),
        (r"\b[0-9a-f]{12,17}-[0-9a-f]{1,8}\b", "{JOB_ID}"),
        (
            r"(?m)^(sim:\S+|/dev/\S+) +(\S+) +(\S+) +\d+\.\d  ",
            "$1 $2 $3 {SECONDS}  ",
        ),
    ];
    for (re, by) in res {
        s = Regex::new(re)
            .expect("regex")
            .replace_all(&s, by)
            .into_owned();
    }
    let host = host.trim();
    if !host.is_empty() {
        s = s.replace(&format!("host:         {host}"), "host:         {HOST}");
    }
    s
}

fn golden_dir() -> PathBuf {
    fixtures().join("golden")
}

/// The two renderings of one case, normalised.
fn render(args: &[&str]) -> (String, String) {
    let fix = fixtures().display().to_string();
    let (code, out, err, dir) = run(args, false);
    let d = dir.path().display().to_string();
    let mut text = format!("exit: {code}\n{}", scrub_text(&out, &d, &fix));
    if !err.is_empty() {
        text.push_str("--- stderr\n");
        text.push_str(&scrub_text(&err, &d, &fix));
    }
    let (code, out, err, dir) = run(args, true);
    let d = dir.path().display().to_string();
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| {
        panic!("{args:?}: stdout is not one JSON document ({e}): {out}\n{err}")
    });
    let mut doc = serde_json::json!({
        "exit_status": code,
        "envelope_exit_status": v["sgctl"]["exit_status"],
        "device": v["device"],
        "messages": v["sgctl"]["messages"],
        "data": v["data"],
    });
    scrub_json(&mut doc, &d, &fix);
    let json = serde_json::to_string_pretty(&doc).expect("json") + "\n";
    (text, json)
}

#[test]
fn golden_outputs() {
    let update = std::env::var("SGCTL_GOLDEN").as_deref() == Ok("update");
    let dir = golden_dir();
    if update {
        std::fs::create_dir_all(&dir).expect("mkdir fixtures/golden");
    }
    let mut failed = Vec::new();
    for (name, args) in CASES {
        let (text, json) = render(args);
        for (ext, got) in [("txt", &text), ("json", &json)] {
            let path = dir.join(format!("{name}.{ext}"));
            if update {
                std::fs::write(&path, got).expect("write golden file");
                continue;
            }
            let want = std::fs::read_to_string(&path).unwrap_or_default();
            if &want != got {
                let line = want
                    .lines()
                    .zip(got.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or(want.lines().count().min(got.lines().count()));
                failed.push(format!(
                    "{}: differs from line {}:\n  want: {:?}\n  got:  {:?}",
                    path.display(),
                    line + 1,
                    want.lines().nth(line).unwrap_or("<end>"),
                    got.lines().nth(line).unwrap_or("<end>")
                ));
            }
        }
    }
    assert!(
        failed.is_empty(),
        "{} golden file(s) differ (SGCTL_GOLDEN=update regenerates; review the diff):\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// Every golden file on disk belongs to a case (no stale files after a case is renamed).
#[test]
fn golden_files_have_cases() {
    let Ok(rd) = std::fs::read_dir(golden_dir()) else {
        panic!("fixtures/golden is missing: SGCTL_GOLDEN=update cargo test --test it golden");
    };
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name == "README.md" {
            continue;
        }
        let stem = name.rsplit_once('.').map(|(s, _)| s).unwrap_or(&name);
        assert!(
            CASES.iter().any(|(n, _)| *n == stem),
            "fixtures/golden/{name} has no case in tests/it/golden.rs"
        );
    }
}

/// The same command gives the same bytes twice (the golden files do not depend on luck).
#[test]
fn golden_is_deterministic() {
    for (_, args) in CASES.iter().filter(|(n, _)| {
        [
            "sanitize_crypto",
            "format_4096",
            "scan_mptsas",
            "health_px02",
        ]
        .contains(n)
    }) {
        assert_eq!(render(args), render(args), "{args:?}");
    }
}
