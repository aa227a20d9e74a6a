//! The library's layering (DESIGN.md, "Layers"): which top-level modules of `src/` name
//! which (`crate::NAME` outside comments). `report/` renders only and names none of the
//! modules above it; the only module cycle left is the documented `host` ↔ `discover`.

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

#[test]
fn the_only_module_cycle_is_host_and_discover() {
    let e = uses();
    let mut cycles = Vec::new();
    for (a, used) in &e {
        for b in used {
            if a < b && e.get(b).is_some_and(|u| u.contains(a)) {
                cycles.push(format!("{a} <-> {b}"));
            }
        }
    }
    assert_eq!(cycles, ["discover <-> host"], "{e:?}");
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

/// The gate names no `ops` module that names it back (its lock lives under `ops/gate/` and
/// takes the drive's name from `gate/confirm.rs`); the cycles left inside `ops` are listed,
/// so a new one fails here.
#[test]
fn module_cycles_inside_ops() {
    let e = ops_uses();
    assert!(e["gate"].contains("audit"), "{e:?}");
    let mut cycles = Vec::new();
    for (a, used) in &e {
        for b in used {
            if a < b && e.get(b).is_some_and(|u| u.contains(a)) {
                cycles.push(format!("{a} <-> {b}"));
            }
        }
    }
    assert_eq!(
        cycles,
        [
            "jobs <-> record",
            "led <-> led_ses",
            "record <-> record_fields",
            "record <-> sanitize"
        ],
        "{e:?}"
    );
}
