//! The layering of sgctl-proto (DESIGN.md, "Layers"): which modules name which. Every file
//! is a module (`scsi/opcodes.rs` is `scsi::opcodes`, `ata/mod.rs` is `ata`); an edge is a
//! path in code (not in comments, not in a file's `mod tests`) that starts `crate::`,
//! `super::` or `self::` and names another module, resolved to the longest module it names
//! (`crate::Error` through the crate root's re-exports). A module and its ancestors
//! (`scsi` and `scsi::opcodes`) are one unit and are not counted as depending on each other.
//!
//! The pure layers (`scsi`, `sense`, `logpage`, `tcg`, `ata`, `ses`) send nothing: they do
//! not name `transport` or `cmd`, and the module graph has no cycle, neither between modules
//! nor between the top-level modules they belong to (`ata`, `scsi`, `error`, `cmd`, ...):
//! `error` sits below `scsi` and names only `ata`, `sense` and `bytes`; `ata` (ACS) names no
//! SCSI; what the drive lists is asked in `cmd::probe`.

#[path = "common/scc.rs"]
mod scc;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

fn rust_files(p: &Path, out: &mut Vec<PathBuf>) {
    if p.is_dir() {
        for e in std::fs::read_dir(p).unwrap() {
            rust_files(&e.unwrap().path(), out);
        }
    } else if p.extension().is_some_and(|e| e == "rs") {
        out.push(p.to_path_buf());
    }
}

/// `scsi/opcodes.rs` → `[scsi, opcodes]`; `ata/mod.rs` → `[ata]`; `lib.rs` → `[]`.
fn module_of(src: &Path, file: &Path) -> Module {
    let rel = file.strip_prefix(src).unwrap();
    let mut m: Module = rel
        .iter()
        .map(|s| s.to_str().unwrap().trim_end_matches(".rs").to_string())
        .collect();
    if m.last().is_some_and(|l| l == "mod" || l == "lib") {
        m.pop();
    }
    m
}

/// The file's code: line comments removed, the trailing `mod tests { .. }` cut off.
fn code_of(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("mod tests {") {
            break;
        }
        let code = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        out.push_str(code);
        out.push('\n');
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Parses a path or use tree at `s[i..]` (after a `::`), appending every full path to `out`.
fn parse_tree(s: &[char], mut i: usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let skip_ws = |i: &mut usize| {
        while *i < s.len() && s[*i].is_whitespace() {
            *i += 1;
        }
    };
    skip_ws(&mut i);
    if i < s.len() && s[i] == '{' {
        i += 1;
        loop {
            skip_ws(&mut i);
            if i >= s.len() || s[i] == '}' {
                return i + 1;
            }
            i = parse_tree(s, i, prefix.clone(), out);
            skip_ws(&mut i);
            if i < s.len() && s[i] == ',' {
                i += 1;
            }
        }
    }
    let start = i;
    while i < s.len() && is_ident(s[i]) {
        i += 1;
    }
    let mut path = prefix;
    if i > start {
        path.push(s[start..i].iter().collect());
    }
    if i + 1 < s.len() && s[i] == ':' && s[i + 1] == ':' {
        return parse_tree(s, i + 2, path, out);
    }
    out.push(path);
    i
}

/// Every path in `code` that starts `crate::`, `super::` or `self::`, made absolute.
fn paths_in(code: &str, here: &Module) -> Vec<Vec<String>> {
    let s: Vec<char> = code.chars().collect();
    let mut found = Vec::new();
    for kw in ["crate::", "super::", "self::"] {
        let k: Vec<char> = kw.chars().collect();
        let mut i = 0;
        while i + k.len() <= s.len() {
            if s[i..i + k.len()] == k[..] && (i == 0 || !is_ident(s[i - 1]) && s[i - 1] != ':') {
                let mut raw = Vec::new();
                parse_tree(&s, i + k.len(), Vec::new(), &mut raw);
                // The module `self` names: a file `a/b.rs` is `a::b`; `super` is its parent.
                let base: Module = match kw {
                    "crate::" => Vec::new(),
                    "self::" => here.clone(),
                    _ => {
                        let mut b = here.clone();
                        b.pop();
                        b
                    }
                };
                for p in raw {
                    let mut abs = base.clone();
                    for seg in p {
                        if seg == "super" {
                            abs.pop();
                        } else {
                            abs.push(seg);
                        }
                    }
                    found.push(abs);
                }
                i += k.len();
            } else {
                i += 1;
            }
        }
    }
    found
}

/// Module → the modules it names.
fn graph() -> BTreeMap<Module, BTreeSet<Module>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.retain(|f| f.file_name().is_some_and(|n| n != "tests.rs"));
    let modules: BTreeSet<Module> = files.iter().map(|f| module_of(&src, f)).collect();
    // The crate root's re-exports (`pub use error::{Error, Result}`): name → module.
    let lib = code_of(&std::fs::read_to_string(src.join("lib.rs")).unwrap());
    let mut root_names: BTreeMap<String, Module> = BTreeMap::new();
    for line in lib.lines().filter(|l| l.starts_with("pub use ")) {
        let s: Vec<char> = line["pub use ".len()..].chars().collect();
        let mut paths = Vec::new();
        parse_tree(&s, 0, Vec::new(), &mut paths);
        for p in paths {
            if let Some(name) = p.last() {
                root_names.insert(name.clone(), p[..1].to_vec());
            }
        }
    }
    let resolve = |p: &[String]| -> Option<Module> {
        (1..=p.len())
            .rev()
            .map(|n| p[..n].to_vec())
            .find(|m| modules.contains(m))
            .or_else(|| root_names.get(p.first()?).cloned())
    };
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for f in &files {
        let here = module_of(&src, f);
        let code = code_of(&std::fs::read_to_string(f).unwrap());
        let used = edges.entry(here.clone()).or_default();
        for p in paths_in(&code, &here) {
            let Some(m) = resolve(&p) else { continue };
            let related = m.starts_with(&here) || here.starts_with(&m);
            if !related {
                used.insert(m);
            }
        }
    }
    edges
}

fn name(m: &Module) -> String {
    if m.is_empty() {
        "crate".into()
    } else {
        m.join("::")
    }
}

/// The cycles of `g`, by module name.
fn cycles(g: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<String>> {
    scc::cycles(g)
        .iter()
        .map(|c| c.iter().map(name).collect())
        .collect()
}

/// Pairs of modules that name each other.
fn mutual(g: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<String> {
    let mut out = Vec::new();
    for (a, used) in g {
        for b in used {
            if a < b && g.get(b).is_some_and(|u| u.contains(a)) {
                out.push(format!("{} <-> {}", name(a), name(b)));
            }
        }
    }
    out
}

#[test]
fn the_module_graph_has_no_cycle() {
    let g = graph();
    let sccs = cycles(&g);
    let pairs = mutual(&g);
    eprintln!(
        "{} cycles (strongly connected components): {sccs:?}",
        sccs.len()
    );
    eprintln!("{} mutual pairs: {pairs:?}", pairs.len());
    assert!(sccs.is_empty(), "{sccs:#?}\n{pairs:#?}");
}

/// The graph of the top-level modules: `scsi::inquiry -> error` is `scsi -> error`.
fn top_level(g: &BTreeMap<Module, BTreeSet<Module>>) -> BTreeMap<Module, BTreeSet<Module>> {
    let mut top: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (m, used) in g {
        let Some(a) = m.first() else { continue };
        let entry = top.entry(vec![a.clone()]).or_default();
        for u in used {
            if let Some(b) = u.first().filter(|b| *b != a) {
                entry.insert(vec![b.clone()]);
            }
        }
    }
    top
}

#[test]
fn the_top_level_modules_have_no_cycle() {
    let top = top_level(&graph());
    let sccs = cycles(&top);
    assert!(sccs.is_empty(), "{sccs:#?}\n{:#?}", mutual(&top));
    // The layering the cycles would hide: `error` is below the layers that build CDBs.
    let error = &top[&vec!["error".to_string()]];
    for above in ["scsi", "cmd", "transport", "tcg", "logpage"] {
        assert!(
            !error.contains(&vec![above.to_string()]),
            "error names {above}: {error:?}"
        );
    }
}

#[test]
fn the_pure_layers_send_nothing() {
    let g = graph();
    let mut senders = Vec::new();
    for (m, used) in &g {
        let top = m.first().map(String::as_str);
        if matches!(
            top,
            Some("scsi" | "sense" | "logpage" | "tcg" | "ata" | "ses")
        ) {
            for u in used {
                if matches!(u.first().map(String::as_str), Some("transport" | "cmd")) {
                    senders.push(format!("{} -> {}", name(m), name(u)));
                }
            }
        }
    }
    assert!(senders.is_empty(), "{senders:#?}");
}

/// The checker itself: it sees `crate::`, `super::` and grouped paths, resolves them to the
/// longest module, and finds a cycle when there is one.
#[test]
fn the_checker_reads_paths_and_finds_cycles() {
    let here: Module = vec!["scsi".into(), "inquiry".into()];
    let mut p = paths_in(
        "use crate::{error::{Error, Result}, bytes};\nlet x = super::opcodes::code::X;",
        &here,
    );
    p.sort();
    let s: Vec<String> = p.iter().map(|p| p.join("::")).collect();
    assert_eq!(
        s,
        [
            "bytes",
            "error::Error",
            "error::Result",
            "scsi::opcodes::code::X"
        ]
    );
    let m = |s: &str| -> Module { s.split("::").map(String::from).collect() };
    let mut g = BTreeMap::new();
    g.insert(m("a"), BTreeSet::from([m("b")]));
    g.insert(m("b"), BTreeSet::from([m("c")]));
    g.insert(m("c"), BTreeSet::from([m("a")]));
    g.insert(m("d"), BTreeSet::from([m("a")]));
    assert_eq!(cycles(&g), [["a", "b", "c"]]);
    g.remove(&m("c"));
    assert!(cycles(&g).is_empty());
    // Two modules whose children name each other are a cycle of the top level.
    let mut g = BTreeMap::new();
    g.insert(m("a::x"), BTreeSet::from([m("b::y")]));
    g.insert(m("b::z"), BTreeSet::from([m("a")]));
    g.insert(m("a"), BTreeSet::new());
    assert!(cycles(&g).is_empty());
    assert_eq!(cycles(&top_level(&g)), [["a", "b"]]);
}
