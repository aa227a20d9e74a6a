//! `sgctl decode --inhex` against Debian's sg3_utils (`sg_vpd --inhex`, `sg_inq --inhex`) on
//! every VPD and standard INQUIRY fixture: every field both tools print must have the same
//! value, and every field sg_vpd prints for a page sgctl decodes must be printed by sgctl too.
//!
//! Needs the `sg3-utils` package. Without it the tests print why they skip; scripts/test-all.sh
//! installs it and sets SGCTL_REQUIRE_SG3=1, which turns a missing sg_vpd into a failure.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

pub(crate) fn sg3_available(tool: &str) -> bool {
    let found = Command::new(tool).arg("--version").output().is_ok();
    if !found {
        if std::env::var("SGCTL_REQUIRE_SG3").as_deref() == Ok("1") {
            panic!("{tool} not found but SGCTL_REQUIRE_SG3=1 (install Debian's sg3-utils)");
        }
        eprintln!(
            "SKIP: {tool} is not installed (apt-get install sg3-utils; scripts/test-all.sh does \
             this and runs the comparison)"
        );
    }
    found
}

pub(crate) fn fixtures(pred: impl Fn(&str) -> bool) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/commands");
    let mut out = Vec::new();
    for d in std::fs::read_dir(&root).unwrap() {
        let d = d.unwrap().path();
        if !d.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&d).unwrap() {
            let f = f.unwrap().path();
            let name = f.file_name().unwrap().to_string_lossy().to_string();
            if name.ends_with(".hex") && pred(&name) {
                out.push(f);
            }
        }
    }
    out.sort();
    out
}

fn run(cmd: &mut Command) -> (bool, String) {
    let o = cmd.output().expect("spawn");
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

/// Splits sg3_utils-style text into keyed fields. `Key: value` lines give one field,
/// `A=1 B=2` lines one field per token, and a line that is only a value (a designator's hex,
/// a name string) is keyed by the line before it. Repeated keys get `#n` suffixes.
pub(crate) fn fields(text: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut last = String::from("<start>");
    let mut put = |k: String, v: String, out: &mut BTreeMap<String, String>| {
        let n = seen.entry(k.clone()).or_insert(0);
        *n += 1;
        let v = v.split_whitespace().collect::<Vec<_>>().join(" ");
        out.insert(format!("{k}#{n}"), v);
    };
    for line in text.lines() {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if let Some((k, v)) = t.split_once(": ") {
            put(k.trim().to_string(), v.to_string(), &mut out);
            last = k.trim().to_string();
        } else if t.contains('=') && !t.starts_with("0x") {
            for tok in t.split_whitespace() {
                let tok = tok.trim_matches(|c| c == '[' || c == ']' || c == '(' || c == ')');
                if let Some((k, v)) = tok.split_once('=') {
                    put(k.to_string(), v.to_string(), &mut out);
                }
            }
        } else if let Some(k) = t.strip_suffix(':') {
            last = k.to_string();
            put(format!("heading {k}"), String::new(), &mut out);
        } else {
            put(format!("value after {last}"), t.to_string(), &mut out);
        }
    }
    out
}

/// Known, intended differences: (fixture file name, sg3 field key, why).
const ALLOWED: &[(&str, &str, &str)] = &[
    (
        "vpd_di_all.hex",
        "value after SCSI name string#1",
        "the name holds a line feed; sgctl prints control bytes as spaces, sg_vpd prints the LF",
    ),
    (
        "vpd_di_all.hex",
        "value after SCSI name string#2",
        "second half of the same LF-split name",
    ),
];

fn compare(fixture: &Path, sg: &str, ours: &str, require_superset: bool) -> usize {
    let name = fixture.file_name().unwrap().to_string_lossy().to_string();
    let a = fields(sg);
    let b = fields(ours);
    let mut common = 0;
    let mut problems = Vec::new();
    for (k, v) in &a {
        if ALLOWED.iter().any(|(f, key, _)| *f == name && key == k) {
            continue;
        }
        match b.get(k) {
            Some(w) if w == v => common += 1,
            Some(w) => problems.push(format!("  {k}: sg3_utils '{v}' vs sgctl '{w}'")),
            None if require_superset => problems.push(format!("  {k}: missing in sgctl ('{v}')")),
            None => {}
        }
    }
    assert!(
        problems.is_empty(),
        "{}: sgctl disagrees with sg3_utils:\n{}\n--- sg3_utils:\n{sg}\n--- sgctl:\n{ours}",
        fixture.display(),
        problems.join("\n")
    );
    common
}

#[test]
fn vpd_pages_agree_with_sg_vpd() {
    if !sg3_available("sg_vpd") {
        return;
    }
    let files = fixtures(|n| n.contains("vpd_"));
    assert!(
        files.len() >= 20,
        "expected the VPD fixtures, found {}",
        files.len()
    );
    let mut pages_seen = std::collections::BTreeSet::new();
    let mut hex_only = std::collections::BTreeSet::new();
    let mut tpc_seen = std::collections::BTreeSet::new();
    for f in &files {
        let (sg_ok, sg) = run(Command::new("sg_vpd").arg(format!("--inhex={}", f.display())));
        let (ok, ours) = run(crate::util::sgctl_cmd()
            .args(["decode", "--as", "vpd", "--inhex"])
            .arg(f));
        // A page decoded as far as its bytes go exits non-zero but prints the decode and its
        // problems: compare what it printed.
        let ok = ok || ours.contains("Problems (decoded as far as the bytes go)");
        if sg.starts_with("Only hex output supported") {
            // sg_vpd 1.63 has no decoder for this page (0x81, 0x82, 0x8C): sgctl must decode it.
            assert!(
                ok && !ours.contains("not decoded"),
                "{}: sg_vpd shows it in hex only, sgctl must decode it:\n{ours}",
                f.display()
            );
            hex_only.insert(ours.lines().next().unwrap_or_default().to_string());
            continue;
        }
        if !ok {
            // Only a page sg_vpd cannot decode either may fail: it then prints no field.
            assert!(
                sg_ok && fields(&sg).keys().all(|k| k.starts_with("heading")),
                "{}: sgctl failed but sg_vpd decoded it:\n{sg}",
                f.display()
            );
            continue;
        }
        let common = compare(f, &sg, &ours, true);
        assert!(common > 0, "{}: no common fields", f.display());
        if let Some(first) = ours.lines().next() {
            pages_seen.insert(first.to_string());
            if first.starts_with("Third party copy") {
                tpc_seen.extend(fields(&sg).into_keys().filter(|k| k.starts_with("heading")));
            }
        }
    }
    // Every third-party copy descriptor type sg_vpd decodes was compared at least once.
    for d in [
        "Block Device ROD Token Limits",
        "Supported commands",
        "Parameter data",
        "Supported descriptors",
        "Supported CSCD IDs (above 0x7ff)",
        "Copy group identifier",
        "ROD token features",
        "Supported ROD token and ROD types",
        "General copy operations",
        "Stream copy operations",
        "Held data",
    ] {
        assert!(
            tpc_seen.contains(&format!("heading {d}#1")),
            "no 0x8F fixture compared for {d}: {tpc_seen:?}"
        );
    }
    // Every decoded page type was compared at least once.
    for p in [
        "Supported VPD pages",
        "Unit serial number",
        "Device Identification",
        "extended INQUIRY",
        "SCSI Ports",
        "ATA information",
        "Block limits",
        "Block device characteristics",
        "Logical block provisioning",
        "Software interface identification",
        "Management network addresses",
        "Mode page policy",
        "Power condition",
        "Power consumption",
        "Third party copy",
        "Referrals",
        "Zoned block device characteristics",
        "Block limits extension",
        "Concurrent positioning ranges",
        "Supported block lengths and protection types",
        "Format presets",
        "Device constituents",
        "Protocol-specific logical unit information",
        "Protocol-specific port information",
        "SCSI Feature sets",
        "Block device characteristics extension",
        "Sequential-access device capabilities",
        "Manufactured-assigned serial number",
        "TapeAlert supported flags",
        "Automation device serial number",
        "Data transfer device element address",
        "Logical block protection",
    ] {
        assert!(
            pages_seen.iter().any(|s| s.starts_with(p)),
            "no fixture compared for {p}: {pages_seen:?}"
        );
    }
    // Pages sg_vpd 1.63 shows only in hex, decoded by sgctl from the standard's tables.
    for p in [
        "Implemented operating definition",
        "ASCII implemented operating definition",
        "CFA profile information",
    ] {
        assert!(
            hex_only.iter().any(|s| s.starts_with(p)),
            "no fixture for {p}: {hex_only:?}"
        );
    }
}

#[test]
fn standard_inquiry_agrees_with_sg_inq() {
    if !sg3_available("sg_inq") {
        return;
    }
    let files = fixtures(|n| n.starts_with("inq"));
    assert!(files.len() >= 3);
    for f in &files {
        let (_, sg) = run(Command::new("sg_inq").arg(format!("--inhex={}", f.display())));
        let (ok, ours) = run(crate::util::sgctl_cmd()
            .args(["decode", "--as", "inquiry", "--inhex"])
            .arg(f));
        assert!(ok, "{}: sgctl failed", f.display());
        // sg_inq also prints obsolete/SPI bits sgctl leaves out: compare the common fields
        // and require the ones that matter.
        compare(f, &sg, &ours, false);
        let b = fields(&ours);
        for k in [
            "PQual#1",
            "PDT#1",
            "version#1",
            "Protect#1",
            "MultiP#1",
            "CmdQue#1",
            "Vendor identification#1",
            "Product identification#1",
            "Product revision level#1",
        ] {
            assert!(fields(&sg).contains_key(k) && b.contains_key(k), "{k}");
        }
    }
}

#[test]
fn asc_descriptions_agree_with_sg_decode_sense() {
    if !sg3_available("sg_decode_sense") {
        return;
    }
    // Every ASC with ASCQ 0x00..0x1f (plus the ranged 40/85, 4d/12, 70/12): 4k sense strings.
    let mut pairs: Vec<(u8, u8)> = (0u8..0x80)
        .flat_map(|a| (0u8..0x20).map(move |q| (a, q)))
        .collect();
    pairs.extend([
        (0x40, 0x85),
        (0x4d, 0x12),
        (0x70, 0x12),
        (0x5d, 0xff),
        (0x74, 0x79),
    ]);
    let mut checked = 0;
    for (asc, ascq) in pairs {
        let sense = format!("70 00 05 00 00 00 00 0a 00 00 00 00 {asc:02x} {ascq:02x} 00 00 00 00");
        let (_, out) = run(Command::new("sg_decode_sense").args(sense.split(' ')));
        let Some(theirs) = out
            .lines()
            .find_map(|l| l.strip_prefix("Additional sense: "))
        else {
            continue; // unassigned: sg3 prints "ASC=.. ASCQ=.." instead
        };
        assert_eq!(
            sgctl::sense::asc_description(asc, ascq),
            theirs.trim(),
            "{asc:02x}/{ascq:02x}"
        );
        checked += 1;
    }
    assert!(checked > 500, "only {checked} assigned codes compared");
}

/// The virtual drive's pages (other field values than the fixtures: SPT=1, two SAS ports,
/// thin provisioning) decoded by both tools from the bytes `sgctl --hex` fetched.
#[test]
fn sim_drive_pages_agree_with_sg_vpd() {
    if !sg3_available("sg_vpd") {
        return;
    }
    let sgctl = env!("CARGO_BIN_EXE_sgctl");
    let dir = tempfile::tempdir().unwrap();
    for dev in ["sim:px02smf080", "sim:px02smf080?port=2"] {
        let (ok, list) = run(Command::new(sgctl).args(["--json", "vpd", dev]));
        assert!(ok, "{dev}: {list}");
        let list: serde_json::Value = serde_json::from_str(&list).unwrap();
        let pages = list["data"]["pages"].as_array().unwrap().clone();
        assert!(pages.len() >= 5);
        for p in pages {
            let code = format!("{}", p.as_u64().unwrap());
            let (ok, out) =
                run(Command::new(sgctl).args(["--json", "--hex", "vpd", dev, "--page", &code]));
            assert!(ok, "{dev} page {code}");
            let v: serde_json::Value = serde_json::from_str(&out).unwrap();
            let hex = v["data"]["hex"].as_str().unwrap().to_string();
            let spaced: Vec<String> = (0..hex.len() / 2)
                .map(|i| hex[2 * i..2 * i + 2].to_string())
                .collect();
            let f = dir.path().join(format!("p{code}.hex"));
            std::fs::write(&f, spaced.join(" ")).unwrap();
            let (_, sg) = run(Command::new("sg_vpd").arg(format!("--inhex={}", f.display())));
            let (ok, ours) = run(Command::new(sgctl)
                .args(["decode", "--as", "vpd", "--inhex"])
                .arg(&f));
            assert!(ok, "{dev} page {code}: {ours}");
            assert!(compare(&f, &sg, &ours, true) > 0, "{dev} page {code}");
        }
    }
}
