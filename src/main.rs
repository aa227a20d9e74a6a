//! The `sgctl` binary: parses the command line, runs one command, prints, exits.

mod cli;

use clap::FromArgMatches;
use cli::{Cli, Ctx};
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether file descriptor 1 was closed when the process started (`sgctl ... >&-`). Rust's
/// runtime opens /dev/null on a closed standard descriptor before `main`, so writes would
/// succeed into nothing; this is probed earlier, from `.init_array` (see [`PROBE`]).
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

extern "C" fn probe_stdout() {
    let closed = nix::fcntl::fcntl(1, nix::fcntl::FcntlArg::F_GETFD).is_err();
    STDOUT_CLOSED.store(closed, Ordering::Relaxed);
}

/// Runs [`probe_stdout`] as an ELF constructor: the dynamic loader calls it before the C
/// `main` that starts Rust's runtime (which would hide a closed fd 1 behind /dev/null).
// SAFETY (of the attribute the lint flags): `.init_array` holds pointers to `extern "C"`
// functions taking no arguments the loader may rely on; `probe_stdout` is one, makes one
// fcntl call and stores an atomic: nothing that needs the Rust runtime.
#[allow(unsafe_code)]
#[used]
#[link_section = ".init_array"]
static PROBE: extern "C" fn() = probe_stdout;

/// The exit code of a command line that does not parse.
fn usage_code(e: &clap::Error, argv: &[String]) -> u8 {
    // `sgctl health` reports through a bit mask in which bit 0 (1) means "command line could
    // not be parsed" (2 would read as "device could not be opened").
    if !e.use_stderr() {
        sgctl::exit::OK
    } else if argv.iter().skip(1).any(|a| a == "health") {
        sgctl::ops::health::bits::USAGE
    } else {
        sgctl::exit::USAGE
    }
}

/// A command line that does not parse: clap's message on stderr, and with `--json` the
/// envelope on stdout too (`data` null, the error in `messages`): a script asking for JSON
/// always gets one document.
/// Prints clap's message (several lines: the error, the usage, a tip). clap quotes the
/// arguments as typed; when one holds a control or bidi character (a newline in a quoted value
/// would start a line of its own) the message is printed as plain text with those arguments
/// escaped ([`sgctl::escape::quoting_args`]), else as clap styles it.
fn print_usage_error(e: &clap::Error, argv: &[String]) {
    let raw = e.render().to_string();
    if sgctl::escape::terminal_safe(&raw) == raw
        && !argv.iter().any(|a| sgctl::escape::escape(a) != *a)
    {
        let _ = e.print();
        return;
    }
    let text = sgctl::escape::quoting_args(&raw, argv);
    if e.use_stderr() {
        let _ = write!(std::io::stderr(), "{text}");
    } else {
        let _ = cli::output::write_stdout(&text);
    }
}

fn usage_error(e: &clap::Error, argv: Vec<String>) -> ExitCode {
    let code = usage_code(e, &argv);
    let json = argv
        .iter()
        .skip(1)
        .take_while(|a| *a != "--")
        .any(|a| a == "--json" || a.starts_with("--json="));
    if json && e.use_stderr() {
        // The first line, with arguments that hold a newline escaped (else it would end there).
        let msg = sgctl::escape::quoting_args(&e.render().to_string(), &argv)
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .unwrap_or("usage error")
            .trim_start_matches("error: ")
            .to_string();
        let ctx = Ctx {
            json: true,
            argv: argv.clone(),
            ..Ctx::default()
        };
        let v = ctx.envelope(None, serde_json::Value::Null, code, Some(&msg));
        let s = serde_json::to_string_pretty(&v).unwrap_or_default() + "\n";
        if let Some(c) = lost_output(cli::output::write_stdout(&s), code) {
            print_usage_error(e, &argv);
            return ExitCode::from(c);
        }
    }
    print_usage_error(e, &argv);
    ExitCode::from(code)
}

/// The exit code after printing the output with result `r` for a command whose own status is
/// `code`: None when the output arrived, else the code to exit with. A reader that went away
/// (`| head -1`, EPIPE) keeps the command's status; output written nowhere (stdout closed, or
/// a write error) fails the command (1), unless it failed already.
fn lost_output(r: std::io::Result<()>, code: u8) -> Option<u8> {
    let failed = |what: &str| {
        let _ = writeln!(std::io::stderr(), "sgctl: {what}");
        Some(if code == sgctl::exit::OK {
            sgctl::exit::OTHER
        } else {
            code
        })
    };
    match r {
        Err(e) if cli::output::is_broken_pipe(&e) => Some(code),
        Err(e) => failed(&format!("writing the output: {e}")),
        Ok(()) if STDOUT_CLOSED.load(Ordering::Relaxed) => {
            failed("standard output is closed: the output was lost")
        }
        Ok(()) => None,
    }
}

/// `sgctl --generate-docs ROOT [--check]`: writes (or checks) the man pages and completions
/// under ROOT/dist ([`cli::gen_docs`]); what `cargo run -p xtask -- gen-docs` runs. Handled
/// before the command line is parsed, so no `--help`, man page or completion lists it.
fn generate_docs(argv: &[String]) -> Option<ExitCode> {
    let (root, check) = match argv.get(1..)? {
        [flag, root] if flag == "--generate-docs" => (root, false),
        [flag, root, c] if flag == "--generate-docs" && c == "--check" => (root, true),
        _ => return None,
    };
    Some(
        match cli::gen_docs::gen_docs(std::path::Path::new(root), check) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("sgctl --generate-docs: {e}");
                ExitCode::FAILURE
            }
        },
    )
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().collect();
    if let Some(code) = generate_docs(&argv) {
        return code;
    }
    let matches = match cli::command().try_get_matches_from(&argv) {
        Ok(m) => m,
        Err(e) => return usage_error(&e, argv),
    };
    let parsed = match Cli::from_arg_matches(&matches) {
        Ok(p) => p,
        Err(e) => return usage_error(&e, argv),
    };
    let mut ctx = Ctx {
        json: parsed.json.is_some(),
        json_format: parsed.json.unwrap_or_default(),
        verbose: parsed.verbose,
        hex: parsed.hex,
        argv,
        messages: vec![],
    };
    match cli::run(&mut ctx, parsed.command) {
        // `sgctl ... | head -1`: the reader has what it wanted; the command's own status
        // stands (a failing `health | head -1` still fails under `pipefail`).
        Ok(report) => {
            let printed = ctx.print(&report);
            let nothing = !ctx.json && report.text.is_empty();
            match lost_output(printed, report.exit) {
                Some(c) if !(nothing && c == sgctl::exit::OTHER) => ExitCode::from(c),
                _ => ExitCode::from(report.exit),
            }
        }
        Err(e) => {
            // A refusal handed to anyhow without its `sgctl::Error` wrapper keeps its own
            // code (busy, not named, ...), not "other".
            let code = e
                .downcast_ref::<sgctl::Error>()
                .map(|x| x.exit_code())
                .or_else(|| {
                    e.downcast_ref::<sgctl::error::Refusal>()
                        .map(|r| sgctl::Error::Refused(r.clone()).exit_code())
                })
                .unwrap_or(sgctl::exit::OTHER);
            let msg = cli::advice::chain(&e);
            if ctx.json {
                let v = ctx.envelope(None, serde_json::Value::Null, code, Some(&msg));
                let s = serde_json::to_string_pretty(&v).unwrap_or_default() + "\n";
                let _ = lost_output(cli::output::write_stdout(&s), code);
            }
            let _ = writeln!(
                std::io::stderr(),
                "sgctl: {}",
                // sgctl's error and advice texts are one line each: a newline in one comes from
                // a value (an address, a serial, a file name, often quoted) and is escaped with
                // every other control and bidi character, so it cannot forge a line.
                sgctl::escape::escape(&msg)
            );
            ExitCode::from(code)
        }
    }
}
