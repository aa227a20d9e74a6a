//! The `sgctl` binary: parses the command line, runs one command, prints, exits.

use clap::FromArgMatches;
use sgctl::cli::{self, Cli, Ctx};
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().collect();
    let matches = match cli::command().try_get_matches_from(&argv) {
        Ok(m) => m,
        Err(e) => {
            // `sgctl health` reports through a bit mask in which bit 0 (1) means "command line
            // could not be parsed" (2 would read as "device could not be opened").
            let code = if e.use_stderr() && argv.iter().skip(1).any(|a| a == "health") {
                sgctl::ops::health::bits::USAGE
            } else if e.use_stderr() {
                sgctl::exit::USAGE
            } else {
                sgctl::exit::OK
            };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let parsed = match Cli::from_arg_matches(&matches) {
        Ok(p) => p,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(sgctl::exit::USAGE);
        }
    };
    let mut ctx = Ctx {
        json: parsed.json,
        verbose: parsed.verbose,
        hex: parsed.hex,
        argv,
        messages: vec![],
    };
    match cli::run(&mut ctx, parsed.command) {
        Ok(report) => match ctx.print(&report) {
            Ok(()) => ExitCode::from(report.exit),
            // `sgctl ... | head -1`: the reader has what it wanted; end quietly.
            Err(e) if cli::output::is_broken_pipe(&e) => ExitCode::from(sgctl::exit::OK),
            Err(e) => {
                let _ = writeln!(std::io::stderr(), "sgctl: writing the output: {e}");
                ExitCode::from(sgctl::exit::OTHER)
            }
        },
        Err(e) => {
            let code = e
                .downcast_ref::<sgctl::Error>()
                .map(|x| x.exit_code())
                .unwrap_or(sgctl::exit::OTHER);
            let msg = cli::advice::chain(&e);
            if ctx.json {
                let v = ctx.envelope(None, serde_json::Value::Null, code, Some(&msg));
                let s = serde_json::to_string_pretty(&v).unwrap_or_default() + "\n";
                if let Err(e) = cli::output::write_stdout(&s) {
                    if cli::output::is_broken_pipe(&e) {
                        return ExitCode::from(code);
                    }
                }
            }
            let _ = writeln!(std::io::stderr(), "sgctl: {msg}");
            ExitCode::from(code)
        }
    }
}
