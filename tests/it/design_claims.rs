//! DESIGN.md's claims about the code, checked against the code: the "Layers" diagram is the
//! order of the sgctl library's dependencies, `clap` stays in the CLI but for the enums
//! DESIGN.md names, `ops` and sgctl-proto name an `sgctl` command or flag only in the files
//! DESIGN.md lists ("Advice is data"), `unsafe` code only in the files it names, and nothing
//! below the CLI writes to stdout or reads stdin. A check reads the code as text (comments and a file's trailing `#[cfg(test)] mod`
//! left out), as tests/it/module_layers.rs does.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(p: &Path, out: &mut Vec<PathBuf>) {
    if p.is_dir() {
        for e in std::fs::read_dir(p).unwrap() {
            rust_files(&e.unwrap().path(), out);
        }
    } else if p.is_file() && p.extension().is_some_and(|e| e == "rs") {
        out.push(p.to_path_buf());
    }
}

/// Every `.rs` file under `dirs` (relative to the package root), as `/`-separated relative
/// paths with the file's code.
fn code_of(dirs: &[&str]) -> Vec<(String, String)> {
    let mut files = Vec::new();
    for d in dirs {
        rust_files(&root().join(d), &mut files);
    }
    files.sort();
    files
        .iter()
        .map(|f| {
            let rel = f
                .strip_prefix(root())
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (rel, code(&std::fs::read_to_string(f).unwrap()))
        })
        .collect()
}

/// The code of a file: line comments dropped, cut at a `#[cfg(test)]` that opens a `mod`.
fn code(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    for (i, l) in lines.iter().enumerate() {
        if l.trim() == "#[cfg(test)]"
            && lines
                .get(i + 1)
                .is_some_and(|n| n.trim_start().starts_with("mod "))
        {
            break;
        }
        if l.trim_start().starts_with("//") {
            continue;
        }
        out.push_str(l);
        out.push('\n');
    }
    out
}

/// The string literals of some code (escaped quotes and `'"'` taken out first; raw strings
/// are read as plain ones).
fn literals(code: &str) -> Vec<String> {
    let c = code
        .replace("\\\\", "")
        .replace("\\\"", "")
        .replace("'\"'", "");
    c.split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The rows of DESIGN.md's "Layers" diagram above the sgctl-proto line, top to bottom, each
/// the top-level modules it names (`ops/jobs/` is `ops`; `clock, escape` is two).
fn diagram_rows() -> Vec<Vec<String>> {
    let design = std::fs::read_to_string(root().join("DESIGN.md")).unwrap();
    let block = design
        .split("## Layers")
        .nth(1)
        .and_then(|s| s.split("```").nth(1))
        .expect("DESIGN.md has a \"## Layers\" section with a diagram");
    let mut rows = Vec::new();
    for line in block.lines() {
        if line.contains("below: crate sgctl-proto") {
            break;
        }
        // A row starts in column 1 with a name; continuation lines are indented or start `│`.
        if !line.starts_with(' ') || !line[1..].starts_with(|c: char| c.is_ascii_lowercase()) {
            continue;
        }
        let names: &str = line[1..].split("  ").next().unwrap_or("");
        let row: Vec<String> = names
            .split([',', ' '])
            .filter(|n| !n.is_empty())
            .map(|n| n.split('/').next().unwrap_or(n).to_string())
            .collect();
        rows.push(row);
    }
    rows
}

/// Top-level module of `src/` → the top-level modules its code names (`crate::NAME`).
fn library_edges() -> BTreeMap<String, BTreeSet<String>> {
    let src = root().join("src");
    let mods: BTreeSet<String> = std::fs::read_dir(&src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter_map(|p| Some(p.file_stem()?.to_str()?.to_string()))
        .filter(|m| m != "lib" && m != "main")
        .collect();
    let mut edges = BTreeMap::new();
    for m in &mods {
        let used: &mut BTreeSet<String> = edges.entry(m.clone()).or_default();
        let (dir, file) = (format!("src/{m}"), format!("src/{m}.rs"));
        for (_, c) in code_of(&[dir.as_str(), file.as_str()]) {
            for (i, _) in c.match_indices("crate::") {
                let name: String = c[i + 7..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if mods.contains(&name) && name != *m {
                    used.insert(name);
                }
            }
        }
    }
    edges
}

#[test]
fn the_layers_diagram_is_the_dependency_order() {
    let rows = diagram_rows();
    let row_of = |m: &str| rows.iter().position(|r| r.iter().any(|n| n == m));
    let edges = library_edges();
    let mut wrong = Vec::new();
    for (m, used) in &edges {
        let Some(rm) = row_of(m) else {
            wrong.push(format!("src/{m} is not in DESIGN.md's Layers diagram"));
            continue;
        };
        for u in used {
            let ru = row_of(u);
            if ru.is_some_and(|ru| ru > rm) {
                continue;
            }
            wrong.push(format!("{m} names {u}, drawn above it or beside it"));
        }
    }
    assert!(
        wrong.is_empty(),
        "DESIGN.md, Layers: {wrong:#?}\nrows: {rows:?}"
    );
    // The diagram is read as intended: the CLI on top, the sgctl library's modules below it.
    assert_eq!(rows[0], ["cli"]);
    assert!(row_of("bench") < row_of("ops") && row_of("ops") < row_of("report"));
}

#[test]
fn clap_stays_in_the_cli_but_for_the_enums_design_names() {
    // DESIGN.md, Layers: "Three library enums derive `clap::ValueEnum` ...".
    let named = [
        "src/bench/suite/purge.rs",
        "src/ops/record_fields.rs",
        "src/decode/mod.rs",
    ];
    let mut other = Vec::new();
    for (f, c) in code_of(&["src", "proto/src", "sim/src"]) {
        if f.starts_with("src/cli/") || f == "src/main.rs" {
            continue;
        }
        if c.contains("clap::") && !named.contains(&f.as_str()) {
            other.push(f);
        }
    }
    assert!(
        other.is_empty(),
        "clap outside the CLI, not named in DESIGN.md: {other:?}"
    );
}

#[test]
fn ops_and_proto_name_commands_and_flags_only_where_design_says() {
    // DESIGN.md, "Advice is data; the CLI words it": the files whose text names a command or
    // a flag. Modules, not files (`src/ops/led` is `led.rs` or `led/mod.rs`).
    let listed = [
        "src/ops/record",
        "src/ops/sign",
        "src/ops/countersign",
        "src/ops/closeout",
        "src/ops/health/prom",
        "src/ops/health",
        "src/ops/led",
        "src/ops/validate",
        "src/ops/format",
        "src/ops/mode_set",
        "src/ops/jobs/format",
        "proto/src/files",
        "proto/src/exit",
        "proto/src/error",
    ];
    // The commands: one man page each (dist/man/sgctl-COMMAND[-SUB].8).
    let commands: BTreeSet<String> = std::fs::read_dir(root().join("dist/man"))
        .unwrap()
        .filter_map(|e| {
            let n = e.ok()?.file_name().into_string().ok()?;
            let rest = n.strip_prefix("sgctl-")?.strip_suffix(".8")?;
            Some(rest.split('-').next()?.to_string())
        })
        .collect();
    assert!(commands.contains("sanitize") && commands.contains("wait"));
    let names_one = |s: &str| {
        let flag = s.match_indices("--").any(|(i, _)| {
            let before = s[..i].chars().next_back();
            let after = s[i + 2..].chars().next();
            before.is_none_or(|c| c.is_whitespace() || "(`/".contains(c))
                && after.is_some_and(|c| c.is_ascii_lowercase())
        });
        let command = s.match_indices("sgctl ").any(|(i, _)| {
            let word: String = s[i + 6..]
                .chars()
                .take_while(char::is_ascii_lowercase)
                .collect();
            commands.contains(&word)
        });
        flag || command
    };
    let mut other = Vec::new();
    for (f, c) in code_of(&["src/ops", "proto/src"]) {
        let module = f.trim_end_matches(".rs").trim_end_matches("/mod");
        if f.ends_with("/tests.rs") || listed.contains(&module) {
            continue;
        }
        if let Some(l) = literals(&c).into_iter().find(|l| names_one(l)) {
            other.push(format!("{f}: {l:?}"));
        }
    }
    assert!(
        other.is_empty(),
        "text naming an sgctl command or flag in a file DESIGN.md does not list \
         (word it in the CLI, or list it there): {other:#?}"
    );
}

#[test]
fn nothing_below_the_cli_writes_to_stdout_or_reads_stdin() {
    let mut found = Vec::new();
    for (f, c) in code_of(&["src", "proto/src", "sim/src"]) {
        if f.starts_with("src/cli/") || f == "src/main.rs" {
            continue;
        }
        for bad in ["println!", "print!", "stdout()", "stdin()"] {
            // As a word: `eprintln!` (stderr) is not `println!`.
            let word = c.match_indices(bad).any(|(i, _)| {
                !c[..i]
                    .chars()
                    .next_back()
                    .is_some_and(|p| p.is_alphanumeric() || p == '_')
            });
            if word {
                found.push(format!("{f}: {bad}"));
            }
        }
    }
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn unsafe_code_is_allowed_only_where_design_says() {
    // DESIGN.md, Crates: "`unsafe_code` is denied workspace-wide and allowed file by file ...".
    let listed = [
        "proto/src/transport/sgio.rs",
        "proto/src/transport/bsg.rs",
        "proto/src/transport/queue.rs",
        "sim/src/tcmu/uio.rs",
        "sim/src/tcmu/ring/perf.rs",
        "src/bench/uring.rs",
        "src/main.rs",
    ];
    let mut files = Vec::new();
    for d in ["src", "proto/src", "sim/src"] {
        rust_files(&root().join(d), &mut files);
    }
    let mut other = Vec::new();
    for f in files {
        let rel = f
            .strip_prefix(root())
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let text = std::fs::read_to_string(&f).unwrap();
        if text.contains("allow(unsafe_code)") && !listed.contains(&rel.as_str()) {
            other.push(rel);
        }
    }
    assert!(
        other.is_empty(),
        "allow(unsafe_code) in a file DESIGN.md does not name: {other:?}"
    );
}

#[test]
fn the_readers_see_what_they_look_for() {
    assert_eq!(
        literals(r#"let a = "x --force"; let q = '"'; let b = "say \"hi\"";"#),
        ["x --force", "say hi"]
    );
    let c = code("fn f() {}\n// \"--gone\"\n#[cfg(test)]\nmod tests {\n  \"--x\"\n}\n");
    assert_eq!(c, "fn f() {}\n");
    let rows = diagram_rows();
    assert!(rows.iter().any(|r| r == &["clock", "escape"]), "{rows:?}");
}
