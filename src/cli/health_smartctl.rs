//! `sgctl --json=smartctl health`: the health report in smartctl's key names and layout
//! ([`sgctl::ops::health::smartctl`]).
//!
//! One drive: one document shaped like `smartctl -j -x`'s, with sgctl's own object (`sgctl`:
//! version, argv, messages, exit status, and the health verdict) in place of smartctl's
//! `smartctl` object. Several drives (`--all`, or more than one address): one JSON array of
//! such documents, so `jq '.[] | FILTER'` applies a smartctl filter to each drive.

use super::Ctx;
use serde_json::{json, Value};
use sgctl::ops::health::{smartctl, DriveHealth, State};

fn state_word(s: State) -> &'static str {
    match s {
        State::Ok => "ok",
        State::Warning => "warning",
        State::Failing => "failing",
        State::Unreadable => "unreadable",
    }
}

/// The document `--json=smartctl` prints for `drives` (see the module docs).
pub(crate) fn document(ctx: &Ctx, drives: &[DriveHealth]) -> Value {
    let one = |h: &DriveHealth| {
        let mut m = serde_json::Map::new();
        m.insert("json_format_version".into(), json!([1, 0]));
        let messages: Vec<Value> = ctx
            .messages
            .iter()
            .map(|s| json!({"severity": "warning", "string": s}))
            .chain(
                h.reasons
                    .iter()
                    .filter(|_| h.state != State::Ok)
                    .map(|s| json!({"severity": "warning", "string": s})),
            )
            .collect();
        m.insert(
            "sgctl".into(),
            json!({
                "version": env!("CARGO_PKG_VERSION"),
                "git_revision": env!("SGCTL_GIT_REV"),
                "argv": ctx.argv,
                "messages": messages,
                "exit_status": h.exit_bits,
                "health": {"state": state_word(h.state), "exit_bits": h.exit_bits},
            }),
        );
        m.extend(smartctl::drive(h));
        Value::Object(m)
    };
    match drives {
        [h] => one(h),
        many => Value::Array(many.iter().map(one).collect()),
    }
}
