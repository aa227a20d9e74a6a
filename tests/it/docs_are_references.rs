//! The repository's text speaks of the product: docs are references (what it does, how to
//! use it, what it promises, the latest measured figures with their command and conditions,
//! one page per benchmark in docs/benchmarks/), not a lab notebook; history is in git. This
//! walks every text file of the tree (Markdown, Rust, shell, Python, TOML, YAML, the man pages;
//! not `target/`, the fuzz corpora, `vm/cache` or `vm/out`) and fails on:
//!
//! - **diary lines**: a dated line (`YYYY-MM-DD`) in Markdown; a "session N" heading or
//!   mention; the change-log phrases `Measured at the split`, `Removed:`, `Left by`,
//!   `measured again`; words of the working process (`per the brief`, `this brief`, `pages
//!   corpus`). A Markdown section whose heading is a diary line counts whole,
//!   up to the next heading of its level or above;
//! - **`issue N` references** (a citation of a public issue keeps its project and `#N`:
//!   "sedutil issue #469");
//! - **citations of absent documents**: a `NAME.md` with no `NAME.md` anywhere in the tree
//!   (notes kept outside the repository are cited by the standard's clause or a repo file
//!   instead), or a path out of it (`../shared/`);
//! - **DESIGN.md naming a file that is not there**: every backticked `*.rs`/`*.md`/`*.sh` or
//!   `dir/` in DESIGN.md must be a file or directory of the tree (a path may be given from any
//!   directory down, as `bench/suite/session.rs` for `src/bench/suite/session.rs`).
//!
//! The counts print with the failure; `cargo test --test it docs_are_references` runs it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const SKIP_DIRS: &[&str] = &[
    "target",
    ".git",
    "fuzz/corpus",
    "fuzz/artifacts",
    "fuzz/target",
    "vm/cache",
    "vm/out",
];
const TEXT_EXT: &[&str] = &["md", "rs", "sh", "py", "toml", "yml", "yaml", "8"];

/// Phrases that make a line a diary line wherever they appear (matched case-insensitively).
const DIARY_PHRASES: &[&str] = &[
    "measured at the split",
    "measured again",
    "per the brief",
    "this brief",
    "pages corpus",
];
/// Change-log openers, matched with their capital (lower case is ordinary prose: "device
/// removed: ENODEV", "left by a host that died").
const DIARY_CASED: &[&str] = &["Removed:", "Removed too:", "Left by"];

struct Tree {
    root: PathBuf,
    /// Paths relative to the root, `/`-separated.
    files: Vec<String>,
    dirs: BTreeSet<String>,
}

fn walk(root: &Path, rel: &str, t: &mut Tree) {
    let Ok(rd) = std::fs::read_dir(root.join(rel)) else {
        return;
    };
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let path = if rel.is_empty() {
            name.clone()
        } else {
            format!("{rel}/{name}")
        };
        let Ok(ft) = e.file_type() else { continue };
        if ft.is_dir() {
            if SKIP_DIRS.contains(&path.as_str()) || name == "target" || name == ".git" {
                continue;
            }
            t.dirs.insert(format!("{path}/"));
            walk(root, &path, t);
        } else if ft.is_file() {
            t.files.push(path);
        }
    }
}

fn tree(root: &Path) -> Tree {
    let mut t = Tree {
        root: root.to_path_buf(),
        files: Vec::new(),
        dirs: BTreeSet::new(),
    };
    walk(root, "", &mut t);
    t.files.sort();
    t
}

fn ext(p: &str) -> &str {
    p.rsplit_once('.').map_or("", |(_, e)| e)
}

/// How often `word` (for "issue" also "issues") stands in `lower` as a word followed by a
/// space and a digit (the word, then its number).
fn word_then_number(lower: &str, word: &str) -> usize {
    let b = lower.as_bytes();
    let mut n = 0;
    for (i, _) in lower.match_indices(word) {
        if i > 0 && b[i - 1].is_ascii_alphanumeric() {
            continue;
        }
        let mut j = i + word.len();
        if word == "issue" && b.get(j) == Some(&b's') {
            j += 1;
        }
        if b.get(j) == Some(&b' ') && b.get(j + 1).is_some_and(u8::is_ascii_digit) {
            n += 1;
        }
    }
    n
}

fn has_date(line: &str) -> bool {
    let b = line.as_bytes();
    b.windows(10).enumerate().any(|(i, w)| {
        let d = |k: usize| w[k].is_ascii_digit();
        w[0] == b'2'
            && d(1)
            && d(2)
            && d(3)
            && w[4] == b'-'
            && d(5)
            && d(6)
            && w[7] == b'-'
            && d(8)
            && d(9)
            && (i == 0 || !b[i - 1].is_ascii_alphanumeric())
            && b.get(i + 10).is_none_or(|c| !c.is_ascii_alphanumeric())
    })
}

fn is_diary_line(line: &str, markdown: bool) -> bool {
    let lower = line.to_ascii_lowercase();
    (markdown && has_date(line))
        || word_then_number(&lower, "session") > 0
        || DIARY_PHRASES.iter().any(|p| lower.contains(p))
        || DIARY_CASED.iter().any(|p| line.contains(p))
}

/// Markdown heading level (1..=6) of a line, outside code blocks (the caller tracks fences).
fn heading_level(line: &str) -> Option<usize> {
    let n = line.bytes().take_while(|&c| c == b'#').count();
    ((1..=6).contains(&n) && line.as_bytes().get(n) == Some(&b' ')).then_some(n)
}

/// `NAME.md` tokens of a line (the file name only, without directories).
fn md_names(line: &str) -> Vec<String> {
    let line = line.replace("\\-", "-"); // roff's hyphen in the man pages
    let mut out = Vec::new();
    for (i, _) in line.match_indices(".md") {
        let after = line.as_bytes().get(i + 3);
        if after.is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_') {
            continue;
        }
        let name: String = line[..i]
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        if !name.is_empty() && name.chars().any(|c| c.is_ascii_alphabetic()) {
            out.push(format!("{name}.md"));
        }
    }
    out
}

#[derive(Default)]
struct Findings {
    diary_lines: Vec<String>,
    issue_refs: Vec<String>,
    absent_docs: Vec<String>,
    design_paths: Vec<String>,
}

fn scan(t: &Tree) -> Findings {
    let md_present: BTreeSet<String> = t
        .files
        .iter()
        .filter(|f| ext(f) == "md")
        .map(|f| f.rsplit('/').next().unwrap_or(f).to_string())
        .collect();
    let mut out = Findings::default();
    for f in &t.files {
        // This file names every pattern it looks for.
        if !TEXT_EXT.contains(&ext(f)) || f == "tests/it/docs_are_references.rs" {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(t.root.join(f)) else {
            continue;
        };
        let markdown = ext(f) == "md";
        let mut fence = false;
        // Level of the diary heading whose section is being counted.
        let mut diary_section: Option<usize> = None;
        for (n, line) in text.lines().enumerate() {
            let at = || format!("{f}:{}: {}", n + 1, line.trim());
            let level = if markdown && !fence {
                heading_level(line)
            } else {
                None
            };
            if markdown && line.trim_start().starts_with("```") {
                fence = !fence;
            }
            if let (Some(l), Some(d)) = (level, diary_section) {
                if l <= d {
                    diary_section = None;
                }
            }
            let diary = is_diary_line(line, markdown);
            if diary {
                if let Some(l) = level {
                    diary_section = Some(l);
                }
            }
            if diary || diary_section.is_some() {
                out.diary_lines.push(at());
            }
            let lower = line.to_ascii_lowercase();
            for _ in 0..word_then_number(&lower, "issue") {
                out.issue_refs.push(at());
            }
            if line.contains("../shared/") {
                out.absent_docs.push(at());
            }
            if !lower.contains(".md") {
                continue;
            }
            for name in md_names(line) {
                if !md_present.contains(&name) {
                    out.absent_docs.push(format!("{} ({name})", at()));
                }
            }
        }
    }
    if let Ok(design) = std::fs::read_to_string(t.root.join("DESIGN.md")) {
        for (n, line) in design.lines().enumerate() {
            for tick in line.split('`').skip(1).step_by(2) {
                for p in tick.split([' ', ',', '(', ')']) {
                    let named = [".rs", ".md", ".sh"].iter().any(|e| p.ends_with(e))
                        || (p.ends_with('/') && p.chars().any(|c| c.is_ascii_alphanumeric()));
                    let pathlike = p
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'));
                    if !named || !pathlike {
                        continue;
                    }
                    let tail = format!("/{p}");
                    let there = t.files.iter().any(|f| f == p || f.ends_with(&tail))
                        || t.dirs.iter().any(|d| d == p || d.ends_with(&tail));
                    if !there {
                        out.design_paths.push(format!("DESIGN.md:{}: {p}", n + 1));
                    }
                }
            }
        }
    }
    out
}

#[test]
fn docs_are_references_not_diaries() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let f = scan(&tree(root));
    let mut msg = String::new();
    for (what, v) in [
        ("diary lines", &f.diary_lines),
        ("`issue N` references", &f.issue_refs),
        (
            "citations of documents not in the repository",
            &f.absent_docs,
        ),
        ("DESIGN.md paths that do not exist", &f.design_paths),
    ] {
        msg += &format!("{what}: {}\n", v.len());
        for l in v.iter().take(40) {
            msg += &format!("  {l}\n");
        }
    }
    assert!(
        f.diary_lines.is_empty()
            && f.issue_refs.is_empty()
            && f.absent_docs.is_empty()
            && f.design_paths.is_empty(),
        "{msg}"
    );
}

#[test]
fn the_patterns_catch_what_they_name() {
    // Each pattern on a line it must catch and on ordinary prose it must leave alone.
    // The examples are assembled, so that this file does not read as a diary itself.
    let w = "session";
    assert!(is_diary_line(
        &format!("## Measured ({w} 17, load 3.1)"),
        true
    ));
    assert!(is_diary_line(
        "Measured at the split (2026-12-01, this machine)",
        true
    ));
    assert!(is_diary_line("- 2026-12-05: the ring registered", true));
    assert!(!is_diary_line("let t = \"2026-01-01T00:00:00Z\";", false));
    assert!(is_diary_line(
        "GenKey has no sender. Removed: the old path.",
        true
    ));
    assert!(!is_diary_line(
        "`read()` failed (device removed: ENODEV)",
        false
    ));
    assert!(!is_diary_line(
        "the session's generic `Session::call`",
        true
    ));
    assert_eq!(word_then_number("one convention (issue 11):", "issue"), 1);
    assert_eq!(word_then_number("see issues 3 and 4", "issue"), 1);
    assert_eq!(word_then_number("sedutil issue #469", "issue"), 0);
    assert_eq!(
        md_names("see ../shared/reference/pts.md §3"),
        vec!["pts.md"]
    );
    assert_eq!(
        md_names("docs/bench\\-engine.md, and [x](bench-report.md)."),
        vec!["bench-engine.md", "bench-report.md"]
    );
    assert!(md_names("a .mdx file").is_empty());
    assert_eq!(heading_level("### F.11 Opal"), Some(3));
    assert_eq!(heading_level("#[test]"), None);
}

#[test]
fn a_diary_heading_counts_its_whole_section() {
    let dir = std::env::temp_dir().join(format!("sgctl-docs-refs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("docs")).unwrap();
    std::fs::write(
        dir.join("docs/engine.md"),
        format!(
            "# Engine\n\nWhat it does.\n\n## Log ({} 3, load 2.1)\n\nline a\n\n### sub\n\n\
             line b\n\n## Options\n\n`--qd N`; see issue 12 and notes.md.\n",
            "session"
        ),
    )
    .unwrap();
    std::fs::write(dir.join("DESIGN.md"), "`docs/engine.md`, `src/gone.rs`\n").unwrap();
    let f = scan(&tree(&dir));
    std::fs::remove_dir_all(&dir).unwrap();
    // The heading, its blank lines, "line a", "### sub", "line b": lines 5..=12.
    assert_eq!(f.diary_lines.len(), 8, "{:?}", f.diary_lines);
    assert_eq!(f.issue_refs.len(), 1);
    assert_eq!(f.absent_docs.len(), 1, "{:?}", f.absent_docs);
    assert_eq!(f.design_paths, vec!["DESIGN.md:1: src/gone.rs"]);
}
