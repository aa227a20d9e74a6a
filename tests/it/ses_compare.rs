//! `sgctl decode --as ses-*` against Debian's sg3_utils `sg_ses --status --inhex=FILE
//! --page=PG` on the published Areca enclosure pages (fixtures/commands/sg3_utils_inhex) and
//! the pages built from the SES-4 tables (fixtures/commands/spec_built/ses_jbod.hex): every
//! field sg_ses prints for what sgctl decodes must be printed by sgctl with the same value, in
//! the same place (page, element type, element, phy).
//!
//! Needs the `sg3-utils` package; without it the tests print why they skip
//! (SGCTL_REQUIRE_SG3=1, set by scripts/test-all.sh, turns that into a failure).

use crate::sg3_compare::sg3_available;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

const FIXTURES: &[&str] = &[
    "fixtures/commands/sg3_utils_inhex/ses_areca_all.hex",
    "fixtures/commands/spec_built/ses_jbod.hex",
];

/// (sg_ses --page, sgctl --as).
const PAGES: &[(&str, &str)] = &[
    ("cf", "ses-config"),
    ("es", "ses-status"),
    ("ed", "ses-element-desc"),
    ("aes", "ses-addl-status"),
];

/// Element types whose status elements sgctl keeps in hex (sg_ses decodes them): their
/// status fields are not compared.
const UNDECODED_STATUS: &[&str] = &["Voltage sensor", "SAS connector", "Audible alarm"];

/// Keys sg_ses prints that sgctl prints elsewhere: (key, why).
const ALLOWED: &[(&str, &str)] = &[(
    "Primary enclosure logical identifier (hex)",
    "sg_ses repeats the configuration's identifier on every page; sgctl prints it with \
     --as ses-config (compared there)",
)];

/// sg_ses-style text as keyed fields: each `Key=value` and `Key: value` token, keyed by the
/// element type, element and phy it sits under. Repeated keys get `#n`.
fn fields(text: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let (mut ty, mut el, mut phy) = (String::new(), String::new(), String::new());
    let mut types = 0;
    let mut lines = text.lines().peekable();
    let mut put = |k: String, v: &str, out: &mut BTreeMap<String, String>| {
        let n = seen.entry(k.clone()).or_insert(0);
        *n += 1;
        let v = v.split_whitespace().collect::<Vec<_>>().join(" ");
        out.insert(format!("{k}#{n}"), v);
    };
    while let Some(line) = lines.next() {
        let t = line.trim();
        if t.is_empty() || t.starts_with("Problems") || t.starts_with("- ") {
            continue;
        }
        if let Some(r) = t.strip_prefix("Element type: ") {
            types += 1;
            ty = format!("{types}:{r}");
            el.clear();
            phy.clear();
            continue;
        }
        if t == "Overall descriptor:" || (t.starts_with("Element ") && t.ends_with(" descriptor:"))
        {
            el = t.to_string();
            phy.clear();
            continue;
        }
        if let Some(r) = t.strip_prefix("Element index: ") {
            // sgctl converts an EIIOE=1 index and names the field as sent: the field is the
            // place both tools share.
            let (idx, rest) = r.split_once("  ").unwrap_or((r, ""));
            let idx = match rest.split_once("(ELEMENT INDEX field ") {
                Some((_, f)) => f.trim_end_matches(')').to_string(),
                None => idx.to_string(),
            };
            el = format!("Element index {idx}");
            phy.clear();
            let eiioe = rest.split_whitespace().next().unwrap_or("");
            put(format!("{ty}|{el}|eiioe"), eiioe, &mut out);
            continue;
        }
        if t.starts_with("phy index: ") {
            phy = t.to_string();
            continue;
        }
        let key = |k: &str| format!("{ty}|{el}|{phy}|{}", k.trim());
        if let Some(r) = t.strip_prefix("enclosure vendor: ") {
            // Fixed-width fields: sg_ses pads them, sgctl trims them.
            let (v, r) = r.split_once("product: ").unwrap_or((r, ""));
            let (p, rev) = r.split_once("rev: ").unwrap_or((r, ""));
            put(key("enclosure vendor"), v, &mut out);
            put(key("product"), p, &mut out);
            put(key("rev"), rev, &mut out);
            continue;
        }
        if t == "vendor-specific data:" {
            // sg_ses: a hexdump on the next lines; sgctl: one `(hex)` line.
            let mut hex = String::new();
            while let Some(l) = lines.peek() {
                if l.trim().is_empty() {
                    break;
                }
                let l = lines.next().unwrap_or_default();
                hex.extend(
                    l.split_whitespace()
                        .take_while(|w| w.len() == 2 && w.chars().all(|c| c.is_ascii_hexdigit())),
                );
            }
            put(key("vendor-specific data (hex)"), &hex, &mut out);
            continue;
        }
        if let Some(r) = t.strip_prefix("Element ") {
            if let Some((n, text)) = r.split_once(" descriptor: ") {
                put(key(&format!("Element {n} descriptor")), text, &mut out);
                continue;
            }
        }
        if let Some(r) = t.strip_prefix("Overall descriptor: ") {
            put(key("Overall descriptor"), r, &mut out);
            continue;
        }
        for tok in t.split(", ") {
            if let Some((k, v)) = tok.split_once(": ") {
                put(key(k), v, &mut out);
            } else if let Some((k, v)) = tok.split_once('=') {
                put(key(k), v, &mut out);
            } else if let Some(k) = tok.strip_suffix(':') {
                put(key(k), "", &mut out);
            } else {
                put(key("flag"), tok, &mut out);
            }
        }
    }
    out
}

fn run(cmd: &mut Command) -> (bool, String) {
    let o = cmd.output().expect("spawn");
    (
        o.status.success() || o.status.code() == Some(9),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// Compares every page of `path` with sg_ses; returns the number of common fields and adds
/// the field names compared to `compared_keys`.
fn compare_file(path: &Path, compared_keys: &mut BTreeSet<String>) -> usize {
    let f = path.display();
    let mut total = 0;
    for (pg, kind) in PAGES {
        let (ok, sg) = run(Command::new("sg_ses")
            .arg("--status")
            .arg(format!("--inhex={f}"))
            .arg(format!("--page={pg}")));
        assert!(ok, "{f} {pg}: sg_ses failed:\n{sg}");
        let (ok, ours) = run(crate::util::sgctl_cmd()
            .args(["decode", "--as", kind, "--inhex"])
            .arg(path));
        assert!(ok, "{f} {kind}: sgctl failed:\n{ours}");
        let a = fields(&sg);
        let b = fields(&ours);
        let mut problems = Vec::new();
        let mut common = 0;
        for (k, v) in &a {
            let name = k.rsplit('|').next().unwrap_or(k);
            let name = name.split('#').next().unwrap_or(name);
            if ALLOWED.iter().any(|(key, _)| *key == name) {
                continue;
            }
            match b.get(k) {
                Some(w) if w == v => {
                    common += 1;
                    compared_keys.insert(name.to_string());
                }
                Some(w) => problems.push(format!("  {k}: sg_ses '{v}' vs sgctl '{w}'")),
                None if *pg == "es"
                    && UNDECODED_STATUS
                        .iter()
                        .any(|t| k.contains(&format!(":{t},"))) => {}
                None => problems.push(format!("  {k}: missing in sgctl ('{v}')")),
            }
        }
        assert!(
            problems.is_empty(),
            "{f} {kind}: sgctl disagrees with sg_ses:\n{}\n--- sg_ses:\n{sg}\n--- sgctl:\n{ours}",
            problems.join("\n")
        );
        assert!(common > 5, "{f} {kind}: only {common} common fields");
        total += common;
    }
    total
}

#[test]
fn ses_pages_agree_with_sg_ses() {
    if !sg3_available("sg_ses") {
        return;
    }
    let mut compared_keys = BTreeSet::new();
    let mut total = 0;
    for f in FIXTURES {
        total += compare_file(&root().join(f), &mut compared_keys);
    }
    // The fields the enclosure work relies on were compared at least once.
    for k in [
        "enclosure logical identifier (hex)",
        "enclosure vendor",
        "product",
        "number of possible elements",
        "text",
        "status",
        "Predicted failure",
        "Disabled",
        "Swap",
        "Ident",
        "Fault sensed",
        "Fault reqstd",
        "Fault requested",
        "Device off",
        "Slot address",
        "Requested on",
        "Actual speed",
        "Temperature",
        "Time until power cycle",
        "Element 3 descriptor",
        "eiioe",
        "device slot number",
        "SAS device type",
        "target port for",
        "attached SAS address",
        "SAS address",
        "phy identifier",
        "vendor-specific data (hex)",
    ] {
        assert!(
            compared_keys.contains(k),
            "{k} never compared: {compared_keys:?}"
        );
    }
    assert!(total > 1000, "only {total} fields compared");
}

/// The virtual enclosure's pages (sim/src/sim/enclosure.rs lays them out on its own), fetched
/// through the library and decoded by both tools: sg_ses checks the simulator's encoding.
#[test]
fn sim_enclosure_pages_agree_with_sg_ses() {
    if !sg3_available("sg_ses") {
        return;
    }
    let mut t = sgctl::device::open(
        "sim:enclosure?slots=6&empty=4",
        sgctl::device::OpenOptions::default(),
    )
    .map(|o| o.transport)
    .unwrap();
    let mut text = String::new();
    for code in [0u8, 1, 2, 7, 0x0a] {
        let mut buf = vec![0u8; 4096];
        let cdb = sgctl::scsi::diagnostic::ReceiveDiagnosticResultsCdb::new(4096)
            .pcv(true)
            .page_code(code)
            .build();
        let c = t
            .execute(
                &cdb,
                sgctl::DataBuf::In(&mut buf),
                std::time::Duration::from_secs(5),
            )
            .unwrap();
        sgctl::transport::check(&c).unwrap();
        buf.truncate(buf.len() - c.resid);
        for line in buf.chunks(16) {
            let l: Vec<String> = line.iter().map(|b| format!("{b:02x}")).collect();
            text.push_str(&l.join(" "));
            text.push('\n');
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("sim_enclosure.hex");
    std::fs::write(&f, text).unwrap();
    let mut keys = BTreeSet::new();
    assert!(compare_file(&f, &mut keys) > 200);
    for k in [
        "Ident",
        "Fault reqstd",
        "SAS address",
        "attached SAS address",
        "Temperature",
    ] {
        assert!(keys.contains(k), "{k}: {keys:?}");
    }
}

/// Without the Configuration page the other pages cannot be laid out: exit 4 and a message
/// naming the page; a status page cut short decodes as far as it goes: exit 9 with the
/// problem in `--json`.
#[test]
fn ses_decode_needs_the_configuration_page_and_lists_problems() {
    let dir = tempfile::tempdir().unwrap();
    let only = dir.path().join("status_only.hex");
    std::fs::write(&only, "02 00 00 04 00 00 00 2a\n").unwrap();
    let o = crate::util::sgctl_cmd()
        .args(["decode", "--as", "ses-status", "--inhex"])
        .arg(&only)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(4));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("needs page 01h") && err.contains("holds 02h"),
        "{err}"
    );
    // The spec-built pages with the status page cut after 10 status elements.
    let text = std::fs::read_to_string(root().join(FIXTURES[1])).unwrap();
    let bytes = sgctl::bytes::parse_inhex(&text).unwrap();
    let pages = sgctl::ses::split_pages(&bytes);
    let mut cut: Vec<u8> = Vec::new();
    for (code, p) in pages {
        match code {
            1 => cut.extend_from_slice(p),
            2 => cut.extend_from_slice(&p[..8 + 40]),
            _ => {}
        }
    }
    let f = dir.path().join("cut.hex");
    let hex: Vec<String> = cut.iter().map(|b| format!("{b:02x}")).collect();
    std::fs::write(&f, hex.join(" ")).unwrap();
    let o = crate::util::sgctl_cmd()
        .args(["--json", "decode", "--as", "ses-status", "--inhex"])
        .arg(&f)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(9));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let problems = v["data"]["problems"].as_array().unwrap();
    assert!(
        problems.iter().any(|p| p
            .as_str()
            .unwrap()
            .contains("before the configuration's 21")),
        "{problems:?}"
    );
    assert_eq!(
        v["data"]["types"][0]["elements"].as_array().unwrap().len(),
        4
    );
}
