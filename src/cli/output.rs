//! Output: tables for people, one JSON document per command for scripts.
//!
//! JSON envelope (stable; documented in the README):
//! ```json
//! {"json_format_version":[1,0],
//!  "sgctl":{"version":"0.1.0","git_revision":"...","argv":[...],"messages":[...],"exit_status":0},
//!  "device":"/dev/sg1",
//!  "data":{ ...decoded response, snake_case, integers as numbers... }}
//! ```

use serde::Serialize;
use serde_json::{json, Value};

/// What a command produced.
#[derive(Debug, Default)]
pub(crate) struct Report {
    /// The device address, if the command had one.
    pub device: Option<String>,
    /// Decoded data for `--json`.
    pub data: Value,
    /// Human-readable rendering for stdout.
    pub text: String,
    /// Exit status (see [`sgctl::exit`]).
    pub exit: u8,
    /// A whole JSON document that replaces the envelope (`--json=smartctl`: smartctl's own
    /// layout, see [`sgctl::ops::health::smartctl`]).
    pub document: Option<Value>,
}

impl Report {
    /// A report with serialisable data and a text rendering.
    pub(crate) fn new<T: Serialize>(device: Option<&str>, data: &T, text: String) -> Report {
        Report {
            device: device.map(str::to_string),
            data: serde_json::to_value(data).unwrap_or(Value::Null),
            text,
            exit: sgctl::exit::OK,
            document: None,
        }
    }

    /// Sets the exit status.
    pub(crate) fn with_exit(mut self, exit: u8) -> Report {
        self.exit = exit;
        self
    }
}

/// The layout `--json` prints.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum JsonFormat {
    /// sgctl's envelope: `{"json_format_version", "sgctl", "device", "data"}`.
    #[default]
    Sgctl,
    /// smartctl's key names and layout (`health` only): `device` as an object, the figures at
    /// the top level as `smartctl -j -x` names them, so filters written for smartctl work.
    Smartctl,
}

/// Global output settings and accumulated messages.
#[derive(Debug, Default, Clone)]
pub(crate) struct Ctx {
    /// `--json`
    pub json: bool,
    /// `--json=FORMAT` (sgctl unless `--json=smartctl`).
    pub json_format: JsonFormat,
    /// `-v` count.
    pub verbose: u8,
    /// `--hex`
    pub hex: bool,
    /// argv, for the envelope.
    pub argv: Vec<String>,
    /// Warnings and notes; printed to stderr in text mode, carried in the envelope in JSON mode.
    pub messages: Vec<String>,
}

impl Ctx {
    /// Records a warning (stderr in text mode).
    pub(crate) fn warn(&mut self, msg: impl Into<String>) {
        let msg = msg.into();
        if !self.json {
            err_line(&format!("sgctl: {msg}"));
        }
        self.messages.push(msg);
    }

    /// The JSON envelope around `data`.
    pub(crate) fn envelope(
        &self,
        device: Option<&str>,
        data: Value,
        exit: u8,
        error: Option<&str>,
    ) -> Value {
        let mut messages: Vec<Value> = self
            .messages
            .iter()
            .map(|m| json!({"severity":"warning","string":m}))
            .collect();
        if let Some(e) = error {
            messages.push(json!({"severity":"error","string":e}));
        }
        json!({
            "json_format_version": [1, 0],
            "sgctl": {
                "version": env!("CARGO_PKG_VERSION"),
                "git_revision": env!("SGCTL_GIT_REV"),
                "argv": self.argv,
                "messages": messages,
                "exit_status": exit,
            },
            "device": device,
            "data": data,
        })
    }

    /// Prints a report: JSON envelope or text. A closed stdout (`sgctl ... | head -1`) is
    /// [`std::io::ErrorKind::BrokenPipe`]; the caller ends quietly with the command's own exit
    /// status (see [`is_broken_pipe`]).
    pub(crate) fn print(&self, r: &Report) -> std::io::Result<()> {
        if let (true, Some(doc)) = (self.json, &r.document) {
            let mut s = serde_json::to_string_pretty(doc).unwrap_or_default();
            s.push('\n');
            write_stdout(&s)
        } else if self.json {
            let v = self.envelope(r.device.as_deref(), r.data.clone(), r.exit, None);
            let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
            s.push('\n');
            write_stdout(&s)
        } else if !r.text.is_empty() {
            // Values from drives, files and the command line are in the text: no control or
            // bidi character reaches the terminal raw (sgctl::escape).
            let text = sgctl::escape::terminal_safe(&r.text);
            if text.ends_with('\n') {
                write_stdout(&text)
            } else {
                write_stdout(&format!("{text}\n"))
            }
        } else {
            Ok(())
        }
    }
}

/// Writes `s` to stdout and flushes. Unlike `print!`, a closed pipe is an error to return,
/// not a panic (Rust ignores SIGPIPE, so a write to a closed pipe fails with EPIPE).
pub(crate) fn write_stdout(s: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(s.as_bytes())?;
    out.flush()
}

/// Writes one line of text to stderr (progress, notes), escaped for the terminal
/// ([`sgctl::escape::escape`]: one line, so a newline inside a value it quotes cannot start
/// another). A closed or broken stderr is ignored: nobody reading the progress of a job is no
/// reason to stop it before it records its end.
pub(crate) fn err_line(s: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{}", sgctl::escape::escape(s));
}

/// Writes one JSON Lines event to stderr (`--progress-json`); errors ignored as in
/// [`err_line`]. JSON carries any character escaped, so the line is written as it is.
pub(crate) fn err_json(v: &Value) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{v}");
}

/// Writes `s` to stderr as it is (sgctl's own terminal sequences, e.g. a status line redrawn
/// with `\r\x1b[K`); errors ignored as in [`err_line`].
pub(crate) fn err_raw(s: &str) {
    use std::io::Write;
    let mut e = std::io::stderr().lock();
    let _ = e.write_all(s.as_bytes());
    let _ = e.flush();
}

/// True when `e` means the reader of stdout went away (`| head`): not an error of sgctl's.
pub(crate) fn is_broken_pipe(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::BrokenPipe
}
