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
pub struct Report {
    /// The device address, if the command had one.
    pub device: Option<String>,
    /// Decoded data for `--json`.
    pub data: Value,
    /// Human-readable rendering for stdout.
    pub text: String,
    /// Exit status (see [`crate::exit`]).
    pub exit: u8,
}

impl Report {
    /// A report with serialisable data and a text rendering.
    pub fn new<T: Serialize>(device: Option<&str>, data: &T, text: String) -> Report {
        Report {
            device: device.map(str::to_string),
            data: serde_json::to_value(data).unwrap_or(Value::Null),
            text,
            exit: crate::exit::OK,
        }
    }

    /// Sets the exit status.
    pub fn with_exit(mut self, exit: u8) -> Report {
        self.exit = exit;
        self
    }
}

/// Global output settings and accumulated messages.
#[derive(Debug, Default, Clone)]
pub struct Ctx {
    /// `--json`
    pub json: bool,
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
    pub fn warn(&mut self, msg: impl Into<String>) {
        let msg = msg.into();
        if !self.json {
            eprintln!("sgctl: {msg}");
        }
        self.messages.push(msg);
    }

    /// The JSON envelope around `data`.
    pub fn envelope(
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

    /// Prints a report: JSON envelope or text.
    pub fn print(&self, r: &Report) {
        if self.json {
            let v = self.envelope(r.device.as_deref(), r.data.clone(), r.exit, None);
            println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        } else if !r.text.is_empty() {
            print!("{}", r.text);
            if !r.text.ends_with('\n') {
                println!();
            }
        }
    }
}
