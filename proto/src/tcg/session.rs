//! The session layer's payloads and answers (protocols.md §F.4, §F.7): the dialect, the
//! Properties and StartSession calls, the Properties answer, Get result columns and authority
//! names. The session manager and the exchange loop that send them are
//! [`crate::cmd::tcg`].

use super::method;
use super::token::{Encoder, Value};
use super::uid::{self, Uid};
use super::Pin;
use serde::Serialize;

/// Opal vs Enterprise encoding differences (protocols.md §F.11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Dialect {
    /// Enterprise SSC: named parameters, Authenticate method, Erase, bands.
    Enterprise,
    /// Opal / Opalite / Pyrite / Ruby: numbered parameters, auth inside StartSession.
    Opal,
}

/// Host properties we announce (sedutil's values [SEDU-ISS #474]).
pub(crate) const HOST_PROPERTIES: [(&str, u64); 6] = [
    ("MaxComPacketSize", 2048),
    ("MaxPacketSize", 2028),
    ("MaxIndTokenSize", 1992),
    ("MaxPackets", 1),
    ("MaxSubpackets", 1),
    ("MaxMethods", 1),
];

/// Empty (no outstanding data) answers tolerated before a call counts as dropped.
pub(crate) const EMPTY_POLLS: u32 = 10;

/// Host session number we use first (sedutil uses 105).
pub(crate) const FIRST_HSN: u32 = 105;

/// The Properties call payload (protocols.md §F.7): Enterprise names the parameter
/// `"HostProperties"`, Opal uses the number 0.
pub fn properties_call(dialect: Dialect) -> Vec<u8> {
    let mut e = Encoder::new();
    e.start_name();
    match dialect {
        Dialect::Enterprise => e.bytes(b"HostProperties"),
        Dialect::Opal => e.uint(0),
    };
    e.start_list();
    for (n, v) in HOST_PROPERTIES {
        e.named_str_uint(n, v);
    }
    e.end_list().end_name();
    method::call(uid::SMUID, uid::sm::PROPERTIES, e.as_bytes())
}

/// The StartSession call payload. Opal authenticates inside StartSession with
/// HostChallenge (0) and HostSigningAuthority (3); Enterprise sends only the named
/// `SessionTimeout` and authenticates afterwards (protocols.md §F.7).
pub fn start_session_call(
    dialect: Dialect,
    hsn: u32,
    sp_uid: Uid,
    write: bool,
    auth: Option<(Uid, &Pin)>,
) -> Vec<u8> {
    let mut e = Encoder::new();
    e.uint(u64::from(hsn)).uid(sp_uid).uint(u64::from(write));
    match (dialect, auth) {
        (Dialect::Opal, Some((who, pin))) => {
            e.start_name().uint(0).bytes(pin.expose()).end_name();
            e.start_name().uint(3).uid(who).end_name();
        }
        (Dialect::Enterprise, _) => {
            e.named_str_uint("SessionTimeout", 60_000);
        }
        _ => {}
    }
    method::call(uid::SMUID, uid::sm::START_SESSION, e.as_bytes())
}

/// TPer and host properties returned by Properties.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Properties {
    /// TPer properties, in drive order.
    pub tper: Vec<(String, u64)>,
    /// Host properties as accepted by the TPer.
    pub host: Vec<(String, u64)>,
}

impl Properties {
    /// A TPer property by name.
    pub fn tper(&self, name: &str) -> Option<u64> {
        self.tper.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
    }
}

/// The (name, value) pairs of a Properties list.
pub(crate) fn prop_list(v: &Value) -> Vec<(String, u64)> {
    v.as_list()
        .unwrap_or(&[])
        .iter()
        .filter_map(|x| match x {
            Value::Named(n, v) => Some((
                n.as_bytes()
                    .map(|b| String::from_utf8_lossy(b).into_owned())
                    .unwrap_or_else(|| n.to_string()),
                v.as_uint()?,
            )),
            _ => None,
        })
        .collect()
}

/// What a wrong PIN left: the tries used and left where the drive reports them.
pub(crate) fn tries_note(counter: Option<(u64, u64)>) -> String {
    match counter {
        Some((0, _)) => " (C_PIN TryLimit 0: no try limit)".into(),
        Some((limit, tries)) if tries >= limit => format!(
            ": {tries} of {limit} tries used, the authority is locked out until a power cycle \
             (C_PIN TryLimit {limit}, Tries {tries})"
        ),
        Some((limit, tries)) => format!(
            ": {tries} of {limit} tries used, {} left before the authority locks out until a \
             power cycle (C_PIN TryLimit {limit}, Tries {tries})",
            limit - tries
        ),
        None => " (the drive does not show its try counter to an anonymous session; each wrong \
                 PIN counts against the authority's TryLimit until a power cycle)"
            .into(),
    }
}

/// First and last column of a Get: (Enterprise name, Opal number) each.
pub(crate) type ColumnRange<'a> = ((&'a str, u64), (&'a str, u64));

/// Names an authority for messages.
pub(crate) fn authority_name(u: Uid) -> String {
    if let Some(n) = uid::bandmaster_number(u) {
        return format!("BandMaster{n}");
    }
    match u {
        uid::AUTH_SID => "SID".into(),
        uid::AUTH_PSID => "PSID".into(),
        uid::AUTH_MSID => "MSID".into(),
        uid::AUTH_ERASEMASTER => "EraseMaster".into(),
        uid::AUTH_ANYBODY => "Anybody".into(),
        uid::AUTH_OPAL_ADMIN1 => "Admin1".into(),
        o => format!("authority {o}"),
    }
}

/// Finds every named column in a (possibly nested) Get result: Enterprise nests three lists,
/// Opal two (protocols.md §F.9).
pub fn columns(results: &[Value]) -> Vec<(&Value, &Value)> {
    let mut out = Vec::new();
    fn walk<'a>(v: &'a Value, out: &mut Vec<(&'a Value, &'a Value)>, depth: usize) {
        match v {
            Value::Named(n, val) => out.push((n.as_ref(), val.as_ref())),
            Value::List(l) if depth < 4 => {
                for x in l {
                    walk(x, out, depth + 1);
                }
            }
            _ => {}
        }
    }
    for r in results {
        walk(r, &mut out, 0);
    }
    out
}

/// A column value by Enterprise name or Opal number.
pub fn column<'a>(cols: &[(&'a Value, &'a Value)], name: &str, num: u64) -> Option<&'a Value> {
    cols.iter()
        .find(|(n, _)| n.name_is(name, Some(num)))
        .map(|(_, v)| *v)
}
