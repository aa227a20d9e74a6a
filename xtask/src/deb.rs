//! `gen-deb`: the Debian packaging files that follow from Cargo's own data, and the license gate.
//!
//! - `dist/debian/copyright`: machine-readable (DEP-5) copyright for the binary package: sgctl's
//!   own license, then one paragraph per crate that `/usr/bin/sgctl` links statically (the
//!   normal-dependency closure of the `sgctl` package with its default features, for the host
//!   target: `cargo tree -e normal` picks the crates, as `cargo build --release` resolves their
//!   features without the dev-dependencies'; `cargo metadata` gives their fields), then the
//!   text of every license named.
//! - `dist/debian/changelog`: the Debian changelog; its latest entry is the package version
//!   (`<Cargo version>-<deb revision>`) by the maintainer `[package.metadata.deb]` names. When
//!   the version moves, `gen-deb` adds an entry on top and keeps the older ones.
//!
//! Every crate's license expression (SPDX) must be satisfiable with the licenses in
//! `xtask/licenses/` (plus Apache-2.0, whose text Debian ships in /usr/share/common-licenses);
//! a crate under any other license fails `gen-deb` and `gen-deb --check`, so a new dependency
//! with an incompatible license fails the package stage of the suite. Alternatives outside the
//! allow list (`MIT OR GPL-2.0`) are dropped from the copyright file: the package takes the
//! allowed one.
//!
//! `--check` renders into memory and fails when a committed file differs (or the changelog's
//! latest entry is not the current version and maintainer).

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

const COPYRIGHT: &str = "dist/debian/copyright";
const CHANGELOG: &str = "dist/debian/changelog";

/// Licenses a statically linked crate may use, with the text the copyright file quotes
/// (copyright lines removed: each crate's paragraph names its holders).
const LICENSE_TEXTS: &[(&str, &str)] = &[
    ("BSD-2-Clause", include_str!("../licenses/BSD-2-Clause.txt")),
    ("BSD-3-Clause", include_str!("../licenses/BSD-3-Clause.txt")),
    ("MIT", include_str!("../licenses/MIT.txt")),
    ("Unicode-3.0", include_str!("../licenses/Unicode-3.0.txt")),
    ("Unlicense", include_str!("../licenses/Unlicense.txt")),
    ("Zlib", include_str!("../licenses/Zlib.txt")),
];

/// Licenses whose text Debian ships in /usr/share/common-licenses (lintian wants a reference,
/// not a copy).
const COMMON_LICENSES: &[&str] = &["Apache-2.0"];

/// License exceptions (SPDX `WITH`) accepted, with their text.
const EXCEPTIONS: &[(&str, &str)] = &[(
    "LLVM-exception",
    include_str!("../licenses/LLVM-exception.txt"),
)];

fn license_allowed(id: &str) -> bool {
    COMMON_LICENSES.contains(&id) || LICENSE_TEXTS.iter().any(|(n, _)| *n == id)
}

fn exception_allowed(id: &str) -> bool {
    EXCEPTIONS.iter().any(|(n, _)| *n == id)
}

/// An SPDX license expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Expr {
    Id(String),
    With(String, String),
    And(Vec<Expr>),
    Or(Vec<Expr>),
}

#[derive(Debug, PartialEq, Eq)]
enum Tok {
    Open,
    Close,
    And,
    Or,
    With,
    Word(String),
}

fn tokenize(s: &str) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut Vec<Tok>| {
        if word.is_empty() {
            return;
        }
        let t = match word.to_ascii_uppercase().as_str() {
            "AND" => Tok::And,
            "OR" => Tok::Or,
            "WITH" => Tok::With,
            _ => Tok::Word(word.clone()),
        };
        out.push(t);
        word.clear();
    };
    for c in s.chars() {
        match c {
            '(' | ')' | '/' => {
                flush(&mut word, &mut out);
                out.push(match c {
                    '(' => Tok::Open,
                    ')' => Tok::Close,
                    // The old crates.io separator: `MIT/Apache-2.0` means either.
                    _ => Tok::Or,
                });
            }
            c if c.is_whitespace() => flush(&mut word, &mut out),
            c => word.push(c),
        }
    }
    flush(&mut word, &mut out);
    out
}

/// Parses an SPDX expression (`AND` binds tighter than `OR`; `/` is read as `OR`).
pub(crate) fn parse(s: &str) -> Result<Expr, String> {
    let toks = tokenize(s);
    let mut pos = 0;
    let e = parse_or(&toks, &mut pos).map_err(|m| format!("license `{s}`: {m}"))?;
    if pos != toks.len() {
        return Err(format!("license `{s}`: unexpected {:?}", toks[pos]));
    }
    Ok(e)
}

fn parse_or(t: &[Tok], pos: &mut usize) -> Result<Expr, String> {
    let mut items = vec![parse_and(t, pos)?];
    while t.get(*pos) == Some(&Tok::Or) {
        *pos += 1;
        items.push(parse_and(t, pos)?);
    }
    Ok(if items.len() == 1 {
        items.remove(0)
    } else {
        Expr::Or(items)
    })
}

fn parse_and(t: &[Tok], pos: &mut usize) -> Result<Expr, String> {
    let mut items = vec![parse_with(t, pos)?];
    while t.get(*pos) == Some(&Tok::And) {
        *pos += 1;
        items.push(parse_with(t, pos)?);
    }
    Ok(if items.len() == 1 {
        items.remove(0)
    } else {
        Expr::And(items)
    })
}

fn parse_with(t: &[Tok], pos: &mut usize) -> Result<Expr, String> {
    let e = match t.get(*pos) {
        Some(Tok::Word(w)) => {
            *pos += 1;
            Expr::Id(w.clone())
        }
        Some(Tok::Open) => {
            *pos += 1;
            let e = parse_or(t, pos)?;
            if t.get(*pos) != Some(&Tok::Close) {
                return Err("unbalanced parenthesis".into());
            }
            *pos += 1;
            e
        }
        other => return Err(format!("expected a license, found {other:?}")),
    };
    if t.get(*pos) != Some(&Tok::With) {
        return Ok(e);
    }
    *pos += 1;
    match (e, t.get(*pos)) {
        (Expr::Id(l), Some(Tok::Word(x))) => {
            *pos += 1;
            Ok(Expr::With(l, x.clone()))
        }
        _ => Err("WITH must join a license and an exception".into()),
    }
}

/// The part of `e` the allow list accepts: `OR` keeps its allowed alternatives, `AND` needs all
/// of its terms. `None`: the expression cannot be met with allowed licenses.
pub(crate) fn allowed_part(e: &Expr) -> Option<Expr> {
    match e {
        Expr::Id(l) => license_allowed(l).then(|| e.clone()),
        Expr::With(l, x) => (license_allowed(l) && exception_allowed(x)).then(|| e.clone()),
        Expr::And(v) => v
            .iter()
            .map(allowed_part)
            .collect::<Option<Vec<_>>>()
            .map(Expr::And),
        Expr::Or(v) => {
            let mut kept: Vec<Expr> = v.iter().filter_map(allowed_part).collect();
            match kept.len() {
                0 => None,
                1 => Some(kept.remove(0)),
                _ => Some(Expr::Or(kept)),
            }
        }
    }
}

/// The DEP-5 `License:` value: `or`/`and` in lower case, `and` binding tighter, `, and` for an
/// `and` of alternatives (copyright-format 1.0, "License specification"), `with X exception`.
pub(crate) fn dep5(e: &Expr) -> Result<String, String> {
    Ok(match e {
        Expr::Id(l) => l.clone(),
        Expr::With(l, x) => format!("{l} with {} exception", exception_keyword(x)),
        Expr::Or(v) => v
            .iter()
            .map(dep5)
            .collect::<Result<Vec<_>, _>>()?
            .join(" or "),
        Expr::And(v) => {
            let nested_or = v.iter().any(|t| matches!(t, Expr::Or(_)));
            let mut parts = Vec::new();
            for t in v {
                if let Expr::Or(alts) = t {
                    if alts.iter().any(|a| matches!(a, Expr::And(_))) {
                        return Err("an AND inside an OR inside an AND has no DEP-5 form".into());
                    }
                }
                parts.push(dep5(t)?);
            }
            parts.join(if nested_or { ", and " } else { " and " })
        }
    })
}

fn exception_keyword(x: &str) -> &str {
    x.strip_suffix("-exception").unwrap_or(x)
}

/// Every license (and license-with-exception) named in `e`, as DEP-5 names them.
fn names(e: &Expr, out: &mut BTreeSet<String>) {
    match e {
        Expr::Id(_) | Expr::With(..) => {
            if let Ok(n) = dep5(e) {
                out.insert(n);
            }
        }
        Expr::And(v) | Expr::Or(v) => v.iter().for_each(|t| names(t, out)),
    }
}

/// A linked crate, as the copyright file lists it.
#[derive(Debug)]
struct Crate {
    name: String,
    version: String,
    authors: Vec<String>,
    repository: Option<String>,
    declared: String,
    license: Expr,
}

/// What the package is: sgctl's own fields, and the crates its binary links.
struct Facts {
    version: String,
    license: String,
    maintainer: String,
    revision: String,
    crates: Vec<Crate>,
}

fn host_target() -> Result<String, String> {
    let out = std::process::Command::new("rustc")
        .arg("-vV")
        .output()
        .map_err(|e| format!("cannot run rustc: {e}"))?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .ok_or_else(|| "rustc -vV names no host".to_string())
}

fn cargo(root: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .current_dir(root)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run cargo {}: {e}", args[0]))?;
    if !out.status.success() {
        return Err(format!(
            "cargo {}: {}",
            args[0],
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(out.stdout)
}

fn facts(root: &Path) -> Result<Facts, String> {
    let host = host_target()?;
    let meta = cargo(
        root,
        &[
            "metadata",
            "--format-version",
            "1",
            "--locked",
            "--filter-platform",
            &host,
        ],
    )?;
    let meta: Value = serde_json::from_slice(&meta).map_err(|e| format!("cargo metadata: {e}"))?;
    // `cargo metadata` unifies features across the workspace and its dev-dependencies (which
    // can switch on optional dependencies the binary never links); `cargo tree -e normal`
    // resolves them as the release build does. Lines: `name vVERSION [(path)] [(proc-macro)]`.
    let tree = cargo(
        root,
        &[
            "tree", "--locked", "-p", "sgctl", "-e", "normal", "--target", &host, "--prefix",
            "none", "-f", "{p}",
        ],
    )?;
    let linked: BTreeSet<(String, String)> = String::from_utf8_lossy(&tree)
        .lines()
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            let name = w.next()?;
            let version = w.next()?.strip_prefix('v')?;
            Some((name.to_string(), version.to_string()))
        })
        .collect();
    if linked.is_empty() {
        return Err("cargo tree listed no crates".into());
    }
    facts_from_metadata(&meta, &|name, version| {
        linked.contains(&(name.to_string(), version.to_string()))
    })
}

fn str_field<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

/// The package's facts; `linked` says whether a crate of the normal-dependency closure is
/// compiled into the binary.
fn facts_from_metadata(meta: &Value, linked: &dyn Fn(&str, &str) -> bool) -> Result<Facts, String> {
    let empty = Vec::new();
    let packages = meta["packages"].as_array().unwrap_or(&empty);
    let members: BTreeSet<&str> = meta["workspace_members"]
        .as_array()
        .unwrap_or(&empty)
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let by_id: HashMap<&str, &Value> = packages
        .iter()
        .filter_map(|p| str_field(p, "id").map(|id| (id, p)))
        .collect();
    let sgctl = packages
        .iter()
        .find(|p| {
            str_field(p, "name") == Some("sgctl")
                && str_field(p, "id").is_some_and(|id| members.contains(id))
        })
        .ok_or("cargo metadata: no sgctl package in the workspace")?;
    let root_id = str_field(sgctl, "id").ok_or("sgctl has no id")?;
    let nodes: HashMap<&str, &Value> = meta["resolve"]["nodes"]
        .as_array()
        .ok_or("cargo metadata: no resolve graph")?
        .iter()
        .filter_map(|n| str_field(n, "id").map(|id| (id, n)))
        .collect();

    // Normal dependencies only: build scripts' and tests' dependencies are not linked in.
    let mut seen = BTreeSet::new();
    let mut todo = vec![root_id];
    while let Some(id) = todo.pop() {
        if !seen.insert(id) {
            continue;
        }
        let deps = nodes.get(id).and_then(|n| n["deps"].as_array());
        for d in deps.unwrap_or(&empty) {
            let normal = d["dep_kinds"]
                .as_array()
                .unwrap_or(&empty)
                .iter()
                .any(|k| k["kind"].is_null());
            if let (true, Some(pkg)) = (normal, str_field(d, "pkg")) {
                todo.push(pkg);
            }
        }
    }

    let mut crates = Vec::new();
    let mut refused = Vec::new();
    for id in seen {
        if members.contains(id) {
            continue; // sgctl's own crates (proto, sim, sys): its license
        }
        let p = by_id
            .get(id)
            .ok_or_else(|| format!("cargo metadata: no package {id}"))?;
        let name = str_field(p, "name").unwrap_or(id).to_string();
        let version = str_field(p, "version").unwrap_or("").to_string();
        if !linked(&name, &version) {
            continue;
        }
        let Some(declared) = str_field(p, "license") else {
            refused.push(format!(
                "{name} {version}: no SPDX license in its Cargo.toml (license-file only)"
            ));
            continue;
        };
        let expr = parse(declared)?;
        let Some(license) = allowed_part(&expr) else {
            refused.push(format!("{name} {version}: {declared}"));
            continue;
        };
        crates.push(Crate {
            name,
            version,
            authors: p["authors"]
                .as_array()
                .unwrap_or(&empty)
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect(),
            repository: str_field(p, "repository").map(str::to_string),
            declared: declared.to_string(),
            license,
        });
    }
    if !refused.is_empty() {
        return Err(format!(
            "crates linked into sgctl under licenses outside the allow list (xtask/licenses/ and \
             Apache-2.0; add a license there only if it is compatible with shipping sgctl under \
             MIT OR Apache-2.0):\n  {}",
            refused.join("\n  ")
        ));
    }
    crates.sort_by(|a, b| (&a.name, &a.version).cmp(&(&b.name, &b.version)));
    let deb = &sgctl["metadata"]["deb"];
    Ok(Facts {
        version: str_field(sgctl, "version").unwrap_or("0").to_string(),
        license: str_field(sgctl, "license")
            .ok_or("sgctl has no license in Cargo.toml")?
            .to_string(),
        maintainer: str_field(deb, "maintainer")
            .ok_or("Cargo.toml has no [package.metadata.deb] maintainer")?
            .to_string(),
        revision: str_field(deb, "revision").unwrap_or("1").to_string(),
        crates,
    })
}

/// A DEP-5 multi-line field value: continuation lines indented, empty lines as ` .`.
fn block(text: &str) -> String {
    text.trim_end()
        .lines()
        .map(|l| {
            if l.trim().is_empty() {
                " .".to_string()
            } else {
                format!(" {}", l.trim_end())
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn render_copyright(f: &Facts) -> Result<String, String> {
    let own = dep5(&parse(&f.license)?)?;
    let mut s = String::new();
    s.push_str("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n");
    s.push_str("Upstream-Name: sgctl\n");
    s.push_str(&format!("Upstream-Contact: {}\n", f.maintainer));
    s.push_str(
        "Comment: Generated by `cargo run -p xtask -- gen-deb` from Cargo.lock; do not edit.\n \
         /usr/bin/sgctl is a Rust program that links the crates listed below\n \
         statically. Each crate's Files pattern is the directory\n \
         `cargo vendor --versioned-dirs` gives its sources; its Copyright names the\n \
         authors its Cargo.toml lists.\n\n",
    );
    s.push_str(&format!(
        "Files: *\nCopyright: sgctl developers\nLicense: {own}\n\n"
    ));
    s.push_str(&font_paragraph()?);
    let mut used = BTreeSet::new();
    names(&parse(&f.license)?, &mut used);
    for c in &f.crates {
        let license = dep5(&c.license)?;
        names(&c.license, &mut used);
        let holders = if c.authors.is_empty() {
            vec![format!("the {} authors", c.name)]
        } else {
            c.authors.clone()
        };
        s.push_str(&format!(
            "Files: vendor/{}-{}/*\nCopyright:",
            c.name, c.version
        ));
        for (i, h) in holders.iter().enumerate() {
            s.push_str(if i == 0 { " " } else { "\n " });
            s.push_str(h);
        }
        s.push_str(&format!("\nLicense: {license}\n"));
        let mut comment = format!("{} {}", c.name, c.version);
        if let Some(r) = &c.repository {
            comment.push_str(&format!(", {r}"));
        }
        if dep5(&parse(&c.declared)?)? != license {
            comment.push_str(&format!("; declared `{}`", c.declared));
        }
        s.push_str(&format!("Comment: {comment}\n\n"));
    }
    let paragraphs: Vec<String> = used
        .iter()
        .map(|n| license_paragraph(n))
        .collect::<Result<_, _>>()?;
    s.push_str(&paragraphs.join("\n\n"));
    s.push('\n');
    Ok(s)
}

/// The DEP-5 paragraph of the fonts the PDF certificates embed (assets/fonts/, linked into the
/// binary by `include_bytes!`), taken from the license file shipped beside them.
fn font_paragraph() -> Result<String, String> {
    const FONT_LICENSE: &str = include_str!("../../assets/fonts/LICENSE-DejaVu.txt");
    let start = FONT_LICENSE
        .find("Files: *\n")
        .ok_or("assets/fonts/LICENSE-DejaVu.txt has no DEP-5 `Files: *` paragraph")?;
    let body = FONT_LICENSE[start + "Files: *\n".len()..].trim_end();
    Ok(format!("Files: assets/fonts/*\n{body}\n\n"))
}

fn common_license_note(id: &str) -> String {
    format!("On Debian systems, the full text of the {id} license can be found in\n/usr/share/common-licenses/{id}.")
}

/// A stand-alone `License:` paragraph for a DEP-5 license name.
fn license_paragraph(name: &str) -> Result<String, String> {
    let (base, exception) = match name.split_once(" with ") {
        Some((b, x)) => (b, x.strip_suffix(" exception")),
        None => (name, None),
    };
    let mut text = if COMMON_LICENSES.contains(&base) {
        common_license_note(base)
    } else {
        LICENSE_TEXTS
            .iter()
            .find(|(n, _)| *n == base)
            .map(|(_, t)| t.to_string())
            .ok_or_else(|| format!("no text for license {base}"))?
    };
    if let Some(k) = exception {
        let x = EXCEPTIONS
            .iter()
            .find(|(n, _)| exception_keyword(n) == k)
            .map(|(_, t)| *t)
            .ok_or_else(|| format!("no text for the {k} exception"))?;
        text.push_str(&format!("\n\n---- {k} exception ----\n\n{x}"));
    }
    Ok(format!("License: {name}\n{}", block(&text)))
}

/// The version and maintainer of the changelog's latest entry.
fn latest_entry(changelog: &str) -> Option<(String, String)> {
    let head = changelog.lines().next()?;
    let version = head.split_once(" (")?.1.split_once(')')?.0.to_string();
    let trailer = changelog.lines().find(|l| l.starts_with(" -- "))?;
    let maintainer = trailer[4..].split_once("  ")?.0.to_string();
    Some((version, maintainer))
}

/// RFC 5322 date (as `date -R` prints it) for `secs` since the epoch, in UTC.
pub(crate) fn rfc5322(secs: u64) -> String {
    let days = secs / 86_400;
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    const WD: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MON: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    format!(
        "{}, {:02} {} {} {:02}:{:02}:{:02} +0000",
        WD[(days % 7) as usize],
        d,
        MON[(m - 1) as usize],
        y,
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The changelog with an entry for the current version on top (the old text when it has one).
fn render_changelog(f: &Facts, old: Option<&str>, now: u64) -> String {
    let version = format!("{}-{}", f.version, f.revision);
    if let Some(old) = old {
        if latest_entry(old) == Some((version.clone(), f.maintainer.clone())) {
            return old.to_string();
        }
    }
    let change = match old.and_then(latest_entry) {
        Some((v, _)) if v == version => "Maintainer changed.".to_string(),
        Some(_) => format!("New upstream release {}.", f.version),
        None => "Initial package, built with cargo-deb.".to_string(),
    };
    let mut s = format!(
        "sgctl ({version}) unstable; urgency=medium\n\n  * {change}\n\n -- {}  {}\n",
        f.maintainer,
        rfc5322(now)
    );
    if let Some(old) = old {
        s.push('\n');
        s.push_str(old);
    }
    s
}

pub(crate) fn gen_deb(root: &Path, check: bool) -> Result<(), String> {
    let f = facts(root)?;
    let now = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0)
        });
    let old_changelog = std::fs::read_to_string(root.join(CHANGELOG)).ok();
    let mut files = BTreeMap::new();
    files.insert(COPYRIGHT, render_copyright(&f)?);
    files.insert(
        CHANGELOG,
        render_changelog(&f, old_changelog.as_deref(), now),
    );
    let mut stale = Vec::new();
    for (rel, text) in &files {
        let path = root.join(rel);
        let old = std::fs::read_to_string(&path).ok();
        if old.as_deref() == Some(text.as_str()) {
            continue;
        }
        if check {
            stale.push(*rel);
        } else {
            std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
            println!("wrote {rel}");
        }
    }
    if !stale.is_empty() {
        return Err(format!(
            "stale: {} (the crates, their licenses, the version or the maintainer changed); run \
             `cargo run -p xtask -- gen-deb` and commit",
            stale.join(", ")
        ));
    }
    println!(
        "gen-deb: {} linked crates, every license allowed; sgctl {}-{}",
        f.crates.len(),
        f.version,
        f.revision
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(s: &str) -> Expr {
        Expr::Id(s.into())
    }

    #[test]
    fn parses_operators_precedence_and_the_old_slash() {
        assert_eq!(
            parse("MIT OR Apache-2.0").unwrap(),
            Expr::Or(vec![id("MIT"), id("Apache-2.0")])
        );
        assert_eq!(
            parse("MIT/Apache-2.0").unwrap(),
            Expr::Or(vec![id("MIT"), id("Apache-2.0")])
        );
        assert_eq!(
            parse("(MIT OR Apache-2.0) AND Unicode-3.0").unwrap(),
            Expr::And(vec![
                Expr::Or(vec![id("MIT"), id("Apache-2.0")]),
                id("Unicode-3.0")
            ])
        );
        assert_eq!(
            parse("A OR B AND C").unwrap(),
            Expr::Or(vec![id("A"), Expr::And(vec![id("B"), id("C")])])
        );
        assert_eq!(
            parse("Apache-2.0 WITH LLVM-exception OR MIT").unwrap(),
            Expr::Or(vec![
                Expr::With("Apache-2.0".into(), "LLVM-exception".into()),
                id("MIT")
            ])
        );
        for bad in [
            "",
            "MIT OR",
            "(MIT",
            "MIT)",
            "MIT AND OR BSD",
            "(MIT OR BSD) WITH X",
            "MIT WITH",
        ] {
            assert!(parse(bad).is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn allow_list_keeps_allowed_alternatives_and_refuses_copyleft() {
        let p = |s: &str| allowed_part(&parse(s).unwrap());
        assert_eq!(
            p("MIT OR Apache-2.0"),
            Some(parse("MIT OR Apache-2.0").unwrap())
        );
        assert_eq!(p("GPL-3.0-only OR MIT"), Some(id("MIT")));
        assert_eq!(p("GPL-3.0-only"), None);
        assert_eq!(p("MIT AND GPL-2.0-or-later"), None);
        assert_eq!(p("LGPL-2.1-or-later OR MPL-2.0"), None);
        assert_eq!(p("Apache-2.0 WITH Classpath-exception-2.0"), None);
        assert!(p("Apache-2.0 WITH LLVM-exception").is_some());
        assert!(p("(MIT OR Apache-2.0) AND Unicode-3.0").is_some());
    }

    #[test]
    fn dep5_form() {
        let d = |s: &str| dep5(&parse(s).unwrap()).unwrap();
        assert_eq!(d("MIT OR Apache-2.0"), "MIT or Apache-2.0");
        assert_eq!(
            d("(MIT OR Apache-2.0) AND Unicode-3.0"),
            "MIT or Apache-2.0, and Unicode-3.0"
        );
        assert_eq!(d("A OR B AND C"), "A or B and C");
        assert_eq!(
            d("Apache-2.0 WITH LLVM-exception OR MIT"),
            "Apache-2.0 with LLVM exception or MIT"
        );
    }

    #[test]
    fn every_license_and_exception_paragraph_renders() {
        for (n, _) in LICENSE_TEXTS {
            assert!(license_paragraph(n)
                .unwrap()
                .starts_with(&format!("License: {n}\n ")));
        }
        let p = license_paragraph("Apache-2.0 with LLVM exception").unwrap();
        assert!(p.contains("/usr/share/common-licenses/Apache-2.0"));
        assert!(p.contains("Sections 4(a), 4(b) and 4(d)"));
        assert!(license_paragraph("GPL-2.0").is_err());
    }

    #[test]
    fn rfc5322_dates() {
        assert_eq!(rfc5322(0), "Thu, 01 Jan 1970 00:00:00 +0000");
        assert_eq!(rfc5322(951_782_400), "Tue, 29 Feb 2000 00:00:00 +0000");
        assert_eq!(rfc5322(1_796_524_872), "Sun, 06 Dec 2026 02:41:12 +0000");
    }

    fn meta(license: &str) -> Value {
        serde_json::json!({
            "workspace_members": ["sgctl-id"],
            "packages": [
                {"id": "sgctl-id", "name": "sgctl", "version": "1.2.0",
                 "license": "MIT OR Apache-2.0", "authors": [],
                 "metadata": {"deb": {"maintainer": "M <m@example.org>"}}},
                {"id": "a-id", "name": "a", "version": "0.1.0", "license": license,
                 "authors": ["Ann <ann@example.org>"], "repository": "https://example.org/a"},
                {"id": "b-id", "name": "b", "version": "0.2.0", "license": "GPL-3.0-only",
                 "authors": []},
                {"id": "c-id", "name": "c", "version": "0.3.0", "license": "AGPL-3.0-only",
                 "authors": []}
            ],
            "resolve": {"nodes": [
                {"id": "sgctl-id", "deps": [
                    {"pkg": "a-id", "dep_kinds": [{"kind": null, "target": null}]},
                    {"pkg": "b-id", "dep_kinds": [{"kind": "dev", "target": null}]},
                    {"pkg": "c-id", "dep_kinds": [{"kind": "build", "target": null}]}
                ]},
                {"id": "a-id", "deps": []},
                {"id": "b-id", "deps": []},
                {"id": "c-id", "deps": []}
            ]}
        })
    }

    #[test]
    fn linked_crates_are_the_normal_closure_and_a_copyleft_one_fails() {
        let f = facts_from_metadata(&meta("MIT"), &|_, _| true).unwrap();
        let names: Vec<&str> = f.crates.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["a"], "dev and build dependencies are not linked");
        let c = render_copyright(&f).unwrap();
        assert!(
            c.contains("Files: vendor/a-0.1.0/*\nCopyright: Ann <ann@example.org>\nLicense: MIT\n")
        );
        assert!(c.contains("\nLicense: MIT\n Permission is hereby granted"));
        assert!(c.contains("\nLicense: Apache-2.0\n On Debian systems"));
        assert!(
            !c.contains("License: BSD-3-Clause"),
            "only licenses in use get a paragraph"
        );

        let none = facts_from_metadata(&meta("MIT"), &|_, _| false).unwrap();
        assert!(
            none.crates.is_empty(),
            "a crate the build does not link is not listed"
        );

        let err = facts_from_metadata(&meta("GPL-2.0-or-later"), &|_, _| true)
            .err()
            .unwrap();
        assert!(err.contains("a 0.1.0: GPL-2.0-or-later"), "{err}");
    }

    #[test]
    fn changelog_follows_the_version_and_keeps_history() {
        let mut f = facts_from_metadata(&meta("MIT"), &|_, _| true).unwrap();
        let first = render_changelog(&f, None, 0);
        assert!(first.starts_with("sgctl (1.2.0-1) unstable; urgency=medium\n\n  * Initial"));
        assert!(first.ends_with(" -- M <m@example.org>  Thu, 01 Jan 1970 00:00:00 +0000\n"));
        assert_eq!(
            render_changelog(&f, Some(&first), 99),
            first,
            "same version: unchanged"
        );
        f.version = "1.3.0".into();
        let second = render_changelog(&f, Some(&first), 86_400);
        assert!(second.starts_with(
            "sgctl (1.3.0-1) unstable; urgency=medium\n\n  * New upstream release 1.3.0."
        ));
        assert!(second.ends_with(&first));
        assert_eq!(
            latest_entry(&second),
            Some(("1.3.0-1".into(), "M <m@example.org>".into()))
        );
    }
}
