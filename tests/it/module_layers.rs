//! The library's layering (DESIGN.md, "Layers"): which top-level modules of `src/` name
//! which (`crate::NAME` outside comments), and which modules of `src/ops/` name which.
//! `report/` renders only and names none of the modules above it; neither graph has a cycle
//! (a strongly connected component of two or more modules, not only a pair naming each
//! other), so a module that comes to name one above it fails here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn rust_files(p: &Path, out: &mut Vec<PathBuf>) {
    if p.is_dir() {
        for e in std::fs::read_dir(p).unwrap() {
            rust_files(&e.unwrap().path(), out);
        }
    } else if p.is_file() && p.extension().is_some_and(|e| e == "rs") {
        out.push(p.to_path_buf());
    }
}

/// Top-level module → the top-level modules its code names.
fn uses() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mods: BTreeSet<String> = std::fs::read_dir(&src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter_map(|p| Some(p.file_stem()?.to_str()?.to_string()))
        .filter(|m| m != "lib" && m != "main")
        .collect();
    let mut edges = BTreeMap::new();
    for m in &mods {
        let mut files = Vec::new();
        rust_files(&src.join(m), &mut files);
        rust_files(&src.join(format!("{m}.rs")), &mut files);
        let used: &mut BTreeSet<String> = edges.entry(m.clone()).or_default();
        for f in files {
            for line in std::fs::read_to_string(&f).unwrap().lines() {
                if line.trim_start().starts_with("//") {
                    continue;
                }
                for (i, _) in line.match_indices("crate::") {
                    let name: String = line[i + 7..]
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if mods.contains(&name) && name != *m {
                        used.insert(name);
                    }
                }
            }
        }
    }
    edges
}

#[test]
fn report_renders_and_names_no_module_above_it() {
    let e = uses();
    let report = &e["report"];
    for above in ["bench", "ops", "cli", "device", "discover", "host"] {
        assert!(
            !report.contains(above),
            "src/report/ names crate::{above}: {report:?}"
        );
    }
}

#[path = "../../proto/tests/common/scc.rs"]
mod scc;
use scc::cycles;

/// The edges of `g` that lie inside one of its cycles, for the failure message.
fn cycle_edges(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let sccs = cycles(g);
    let mut out = Vec::new();
    for (a, used) in g {
        for b in used {
            if sccs.iter().any(|c| c.contains(a) && c.contains(b)) {
                out.push(format!("{a} -> {b}"));
            }
        }
    }
    out
}

/// `host` is below `discover` (the slot type a host view returns is `host::SlotRef`), and no
/// other cycle joins the top-level modules.
#[test]
fn the_top_level_modules_have_no_cycle() {
    let e = uses();
    assert!(e["discover"].contains("host"), "{e:?}");
    assert!(!e["host"].contains("discover"), "{e:?}");
    assert_eq!(
        cycles(&e),
        Vec::<Vec<String>>::new(),
        "{:#?}",
        cycle_edges(&e)
    );
}

/// Module of `src/ops/` → the `src/ops/` modules its code names (`crate::ops::NAME`, or
/// `super::NAME` reaching `ops` from the module's own files).
fn ops_uses() -> BTreeMap<String, BTreeSet<String>> {
    let ops = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ops");
    let mods: BTreeSet<String> = std::fs::read_dir(&ops)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter_map(|p| Some(p.file_stem()?.to_str()?.to_string()))
        .filter(|m| m != "mod")
        .collect();
    let mut edges = BTreeMap::new();
    for m in &mods {
        let mut files = Vec::new();
        rust_files(&ops.join(m), &mut files);
        rust_files(&ops.join(format!("{m}.rs")), &mut files);
        let used: &mut BTreeSet<String> = edges.entry(m.clone()).or_default();
        for f in files {
            // How many `super::` reach src/ops/ from this file.
            let rel = f.strip_prefix(&ops).unwrap();
            let mut depth = rel.components().count();
            if rel.ends_with("mod.rs") {
                depth -= 1;
            }
            let up = "super::".repeat(depth);
            for line in std::fs::read_to_string(&f).unwrap().lines() {
                if line.trim_start().starts_with("//") {
                    continue;
                }
                for prefix in ["crate::ops::", up.as_str()] {
                    for (i, _) in line.match_indices(prefix) {
                        if prefix == up && line[..i].ends_with("super::") {
                            continue;
                        }
                        let name: String = line[i + prefix.len()..]
                            .chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect();
                        if mods.contains(&name) && name != *m {
                            used.insert(name);
                        }
                    }
                }
            }
        }
    }
    edges
}

/// The modules of `src/ops/` form no cycle: the types a job record holds are defined with it
/// (`record::PathSwitch`, `record::Verification`) or below it (`record_fields::RecordFields`,
/// which takes the drive's serial and WWN rather than the record's `DriveInfo`), so `record`
/// names neither `jobs` nor `sanitize` and `record_fields` does not name `record`; the SES
/// LED backend is a part of `led` (`led/ses.rs`). The gate names `audit`, which does not name
/// it back.
#[test]
fn the_ops_modules_have_no_cycle() {
    let e = ops_uses();
    assert!(e["gate"].contains("audit"), "{e:?}");
    for (below, above) in [
        ("record", "jobs"),
        ("record", "sanitize"),
        ("record_fields", "record"),
        ("record_fields", "jobs"),
    ] {
        assert!(
            e[above].contains(below),
            "{above} does not name {below}: {e:?}"
        );
        assert!(!e[below].contains(above), "{below} names {above}: {e:?}");
    }
    assert_eq!(
        cycles(&e),
        Vec::<Vec<String>>::new(),
        "{:#?}",
        cycle_edges(&e)
    );
}

/// The checker finds a cycle of three modules that no pair of them shows, and none once an
/// edge is gone.
#[test]
fn the_cycle_checker_finds_longer_cycles() {
    let g = |edges: &[(&str, &str)]| {
        let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (a, b) in edges {
            g.entry(a.to_string()).or_default().insert(b.to_string());
            g.entry(b.to_string()).or_default();
        }
        g
    };
    let three = g(&[("a", "b"), ("b", "c"), ("c", "a"), ("d", "a")]);
    assert_eq!(cycles(&three), [["a", "b", "c"]]);
    assert_eq!(cycle_edges(&three), ["a -> b", "b -> c", "c -> a"]);
    assert!(cycles(&g(&[("a", "b"), ("b", "c"), ("d", "a")])).is_empty());
    assert_eq!(
        cycles(&g(&[("a", "b"), ("b", "a"), ("c", "d"), ("d", "c")])).len(),
        2
    );
}
