//! The man pages (clap_mangen) and shell completions (clap_complete), rendered from
//! [`super::command()`], the same clap definitions the binary parses, into `dist/`. The binary
//! renders them itself (as ripgrep's `rg --generate` does), so the command line stays the
//! binary's and not library API: `cargo run -p xtask -- gen-docs [--check]` runs
//! `sgctl --generate-docs ROOT [--check]`, an entry point `main` handles before parsing and no
//! `--help` lists.
//!
//! - `dist/man/sgctl.8`: the overview with EXIT STATUS, DEVICE ADDRESSES, ENVIRONMENT, FILES,
//!   EXAMPLES (from `sgctl::exit::TABLE`, `ADDRESS_HELP` and the library's constants);
//! - `dist/man/sgctl-SUB[-SUB].8`: one page per subcommand, nested ones included;
//! - `dist/completions/sgctl.bash`, `_sgctl` (zsh), `sgctl.fish`, with DEVICE completing to
//!   `sgctl scan --names` (`device_completion`).
//!
//! `--check` renders into memory and fails when a committed file differs or is missing, or
//! when a stale one is left over.

use clap_complete::Shell;
use roff::{bold, italic, roman, Roff};
use std::collections::BTreeMap;
use std::path::Path;

/// Every generated file: path relative to the workspace root → contents.
pub(crate) fn render_all() -> Result<BTreeMap<String, Vec<u8>>, String> {
    let mut out = BTreeMap::new();
    let mut cmd = super::command().disable_help_subcommand(true);
    cmd.build();
    man_pages(&cmd, &mut out)?;
    for (shell, name) in [
        (Shell::Bash, "sgctl.bash"),
        (Shell::Zsh, "_sgctl"),
        (Shell::Fish, "sgctl.fish"),
    ] {
        let mut buf = Vec::new();
        clap_complete::generate(shell, &mut super::command(), "sgctl", &mut buf);
        let script = String::from_utf8(buf).map_err(|e| e.to_string())?;
        let script = match shell {
            Shell::Bash => script + &super::device_completion::bash(&cmd),
            Shell::Fish => script + &super::device_completion::fish(&cmd),
            _ => super::device_completion::zsh(&script),
        };
        out.insert(format!("dist/completions/{name}"), script.into_bytes());
    }
    Ok(out)
}

fn man_pages(root: &clap::Command, out: &mut BTreeMap<String, Vec<u8>>) -> Result<(), String> {
    fn walk(
        cmd: &clap::Command,
        out: &mut BTreeMap<String, Vec<u8>>,
        top: bool,
    ) -> Result<(), String> {
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            walk(sub, out, false)?;
        }
        let name = cmd.get_display_name().unwrap_or(cmd.get_name()).to_string();
        let mut page = Vec::new();
        let man = clap_mangen::Man::new(cmd.clone())
            .section("8")
            .manual("System Administration")
            .source(format!("sgctl {}", env!("CARGO_PKG_VERSION")));
        let io = |e: std::io::Error| format!("rendering {name}: {e}");
        if top {
            man.render_title(&mut page).map_err(io)?;
            man.render_name_section(&mut page).map_err(io)?;
            man.render_synopsis_section(&mut page).map_err(io)?;
            man.render_description_section(&mut page).map_err(io)?;
            man.render_options_section(&mut page).map_err(io)?;
            man.render_subcommands_section(&mut page).map_err(io)?;
            overview_sections().to_writer(&mut page).map_err(io)?;
            man.render_version_section(&mut page).map_err(io)?;
        } else {
            man.render(&mut page).map_err(io)?;
            see_also(&name).to_writer(&mut page).map_err(io)?;
        }
        out.insert(format!("dist/man/{name}.8"), page);
        Ok(())
    }
    walk(root, out, true)
}

fn see_also(name: &str) -> Roff {
    let mut r = Roff::new();
    r.control("SH", ["SEE ALSO"]);
    let parent = name.rsplit_once('-').map(|(p, _)| p).unwrap_or("sgctl");
    let mut refs = vec![bold("sgctl"), roman("(8)")];
    if parent != "sgctl" {
        refs.extend([roman(", "), bold(parent.to_string()), roman("(8)")]);
    }
    refs.push(roman(
        " (exit status, device addresses, environment, files)",
    ));
    r.text(refs);
    r
}

/// `  FORM   description` lines (continuations indented further) → (form, description).
fn two_columns(text: &str) -> Vec<(String, String)> {
    let mut rows: Vec<(String, String)> = Vec::new();
    for line in text.lines().skip(1) {
        let body = line.trim_start();
        let indent = line.len() - body.len();
        if body.is_empty() || body.starts_with('(') || indent == 0 {
            continue;
        }
        if indent > 4 {
            if let Some(last) = rows.last_mut() {
                last.1.push(' ');
                last.1.push_str(body);
            }
            continue;
        }
        let (term, desc) = body
            .split_once("  ")
            .map(|(a, b)| (a.trim(), b.trim()))
            .unwrap_or((body, ""));
        rows.push((term.to_string(), desc.to_string()));
    }
    rows
}

fn tagged(r: &mut Roff, heading: &str, rows: &[(String, String)]) {
    r.control("SH", [heading]);
    for (term, desc) in rows {
        r.control("TP", []);
        r.text([bold(term.clone())]);
        r.text([roman(desc.clone())]);
    }
}

fn overview_sections() -> Roff {
    let mut r = Roff::new();
    tagged(&mut r, "EXIT STATUS", &two_columns(sgctl::exit::TABLE));
    r.control("PP", []);
    r.text([
        bold("sgctl health"),
        roman(
            " returns a bit mask instead, OR-ed over all drives (0: every drive read and healthy):",
        ),
    ]);
    for (bit, desc) in two_columns(sgctl::ops::health::EXIT_HELP) {
        r.control("TP", []);
        r.text([bold(bit)]);
        r.text([roman(desc)]);
    }
    tagged(
        &mut r,
        "DEVICE ADDRESSES",
        &two_columns(super::ADDRESS_HELP),
    );
    r.control("PP", []);
    r.text([roman(
        "Destructive commands find every path of the addressed logical unit (both SAS ports, all \
         sg/sd/bsg nodes) and refuse when any of them is in use.",
    )]);
    let env = [
        (
            sgctl::ops::audit::AUDIT_LOG_ENV.to_string(),
            format!(
                "Audit log used when --audit-log is not given (default {}).",
                sgctl::ops::audit::DEFAULT_AUDIT_LOG
            ),
        ),
        (
            sgctl::ops::sign::SIGNING_KEY_ENV.to_string(),
            "File holding the Ed25519 private key (PKCS#8 PEM, mode 0600) that signs \
             certificates when --signing-key is not given. The key itself is never passed as a \
             value: argv is readable by every user."
                .to_string(),
        ),
        (
            "variables named by --pin-env, --new-pin-env, --psid-env".to_string(),
            "sgctl tcg reads PINs and PSIDs from the environment variable named by these options, \
             from a file (--pin-file, --new-pin-file, --psid-file) or from a prompt; never from argv."
                .to_string(),
        ),
    ];
    tagged(&mut r, "ENVIRONMENT", &env);
    let files = [
        (
            sgctl::ops::audit::DEFAULT_AUDIT_LOG.to_string(),
            "Audit log, JSON Lines: one record before and one after every destructive job, \
             fsync'ed, hash-chained (prev_sha256, record_sha256). Check it with sgctl audit verify. \
             The package creates /var/log/sgctl mode 0750, owner root, group adm."
                .to_string(),
        ),
        (
            "FILE, FILE.txt (--certificate FILE)".to_string(),
            "Certificate of a format or sanitize job, one record per drive (NIST SP 800-88 / \
             IEEE 2883 categories), signed with --signing-key; check it with sgctl certificate verify."
                .to_string(),
        ),
        (
            "/var/lib/prometheus/node-exporter/sgctl.prom".to_string(),
            "Written atomically by sgctl-health.service (timer: sgctl-health.timer) with sgctl \
             health --all --prometheus for node_exporter's textfile collector."
                .to_string(),
        ),
    ];
    tagged(&mut r, "FILES", &files);
    r.control("SH", ["EXAMPLES"]);
    for (what, cmd) in [
        ("List drives with every path:", "sgctl scan"),
        ("Health of every drive, for scripts:", "sgctl health --all --json"),
        (
            "Crypto-erase a drive, verified, with a signed certificate:",
            "sgctl sanitize /dev/sg3 --crypto --verify 64 --confirm S3Z1ABCD \\\n  --certificate /root/wipe-S3Z1ABCD.json --signing-key /etc/sgctl/signing.pem",
        ),
        (
            "Show what a sanitize would send, sending nothing:",
            "sgctl sanitize /dev/sg3 --crypto --dry-run",
        ),
        (
            "Format to 4096-byte blocks with protection type 2:",
            "sgctl format /dev/sg3 --block-size 4096 --pi 2 --confirm S3Z1ABCD",
        ),
        (
            "Check the records afterwards:",
            "sgctl audit verify /var/log/sgctl/audit.jsonl\nsgctl certificate verify --pubkey /etc/sgctl/signing.pem.pub /root/wipe-S3Z1ABCD.json",
        ),
        (
            "Try everything on a virtual drive first:",
            "sgctl inquiry 'sim:px02smf080'",
        ),
    ] {
        r.control("PP", []);
        r.text([roman(what)]);
        r.control("PP", []);
        r.control("nf", []);
        r.control("RS", ["4"]);
        r.text([bold(cmd)]);
        r.control("RE", []);
        r.control("fi", []);
    }
    r.control("SH", ["SEE ALSO"]);
    r.text([
        italic("sg_inq"),
        roman("(8), "),
        italic("sg_sanitize"),
        roman("(8), "),
        italic("sg_format"),
        roman("(8), "),
        italic("smartctl"),
        roman("(8), "),
        italic("sedutil-cli"),
        roman("(8); the sgctl-SUBCOMMAND(8) pages; /usr/share/doc/sgctl/."),
    ]);
    r
}

/// Writes the files, or with `check` compares them with the committed ones.
pub(crate) fn gen_docs(root: &Path, check: bool) -> Result<(), String> {
    let files = render_all()?;
    let dirs = ["dist/man", "dist/completions"];
    let mut stale = Vec::new();
    for (rel, body) in &files {
        let path = root.join(rel);
        if check {
            if std::fs::read(&path).ok().as_deref() != Some(body.as_slice()) {
                stale.push(rel.clone());
            }
        } else {
            if let Some(d) = path.parent() {
                std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
            }
            std::fs::write(&path, body).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    // Files left over from a removed subcommand.
    for d in dirs {
        let Ok(rd) = std::fs::read_dir(root.join(d)) else {
            continue;
        };
        for e in rd.flatten() {
            let rel = format!("{d}/{}", e.file_name().to_string_lossy());
            if !files.contains_key(&rel) {
                if check {
                    stale.push(format!("{rel} (no longer generated)"));
                } else {
                    std::fs::remove_file(e.path()).map_err(|x| format!("{rel}: {x}"))?;
                }
            }
        }
    }
    if !stale.is_empty() {
        return Err(format!(
            "stale generated docs: {}; run `cargo run -p xtask -- gen-docs` and commit",
            stale.join(", ")
        ));
    }
    println!(
        "{} {} files in dist/man and dist/completions",
        if check { "checked" } else { "wrote" },
        files.len()
    );
    Ok(())
}
