//! Method call and response framing (protocols.md §F.6).
//!
//! Call: `F8 <invoking UID> <method UID> F0 <args> F1 F9 F0 00 00 00 F1`.
//! Response: `F0 <results> F1 F9 F0 <status> 00 00 F1`, or for the session manager a Call
//! (`SMUID.SyncSession(...)` / `SMUID.CloseSession(...)`) followed by EOD and a status list.

use super::status::MethodStatus;
use super::token::{self, Encoder, Item, Value};
use super::uid::Uid;
use super::TcgError;

/// Encodes a method call; `args` are the already-encoded tokens inside the argument list.
pub fn call(invoking: Uid, method: Uid, args: &[u8]) -> Vec<u8> {
    let mut e = Encoder::new();
    e.ctl(token::ctl::CALL)
        .uid(invoking)
        .uid(method)
        .start_list()
        .raw(args)
        .end_list()
        .ctl(token::ctl::END_OF_DATA)
        .start_list()
        .uint(0)
        .uint(0)
        .uint(0)
        .end_list();
    e.into_bytes()
}

/// A decoded method response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// For a TPer-originated call (SyncSession, CloseSession): (invoking, method).
    pub call: Option<(Uid, Uid)>,
    /// The result (or call argument) list items.
    pub results: Vec<Value>,
    /// Method status byte (0 = SUCCESS).
    pub status: u8,
}

impl Response {
    /// Fails with [`TcgError::Method`] unless the status is SUCCESS.
    pub fn ok(self) -> Result<Response, TcgError> {
        match MethodStatus::from_code(self.status) {
            None => Ok(self),
            Some(s) => Err(TcgError::Method(s)),
        }
    }
}

/// A parsed method call (the simulator's side).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    /// Invoking UID.
    pub invoking: Uid,
    /// Method UID.
    pub method: Uid,
    /// Arguments.
    pub args: Vec<Value>,
}

fn uid_of(v: Option<&Item>, what: &str) -> Result<Uid, TcgError> {
    match v {
        Some(Item::Value(Value::Bytes(b))) => Uid::from_slice(b)
            .ok_or_else(|| TcgError::Token(format!("{what} is {} bytes, not 8", b.len()))),
        other => Err(TcgError::Token(format!("{what} missing (got {other:?})"))),
    }
}

fn status_of(items: &[Item]) -> Result<u8, TcgError> {
    // After EOD: F0 status 00 00 F1.
    let eod = items
        .iter()
        .position(|i| *i == Item::EndOfData)
        .ok_or_else(|| TcgError::Token("response has no EndOfData".into()))?;
    match items.get(eod + 1) {
        Some(Item::Value(Value::List(l))) if !l.is_empty() => l[0]
            .as_uint()
            .and_then(|v| u8::try_from(v).ok())
            .ok_or_else(|| TcgError::Token("method status is not a small uint".into())),
        _ => Err(TcgError::Token("response has no status list".into())),
    }
}

/// Parses a response payload.
pub fn parse_response(payload: &[u8]) -> Result<Response, TcgError> {
    let items = token::parse(payload)?;
    if items.first() == Some(&Item::EndOfSession) {
        return Err(TcgError::SessionClosed);
    }
    if items.first() == Some(&Item::Call) {
        let invoking = uid_of(items.get(1), "invoking UID")?;
        let method = uid_of(items.get(2), "method UID")?;
        let results = match items.get(3) {
            Some(Item::Value(Value::List(l))) => l.clone(),
            _ => return Err(TcgError::Token("call without argument list".into())),
        };
        return Ok(Response {
            call: Some((invoking, method)),
            results,
            status: status_of(&items)?,
        });
    }
    let results = match items.first() {
        Some(Item::Value(Value::List(l))) => l.clone(),
        // A failed method may come back with just EOD + status.
        Some(Item::EndOfData) => Vec::new(),
        other => {
            return Err(TcgError::Token(format!(
                "response does not start with a result list ({other:?})"
            )))
        }
    };
    Ok(Response {
        call: None,
        results,
        status: status_of(&items)?,
    })
}

/// Parses a call payload (simulator side). `EndOfSession` alone is reported as `None`.
pub fn parse_call(payload: &[u8]) -> Result<Option<Call>, TcgError> {
    let items = token::parse(payload)?;
    if items.first() == Some(&Item::EndOfSession) {
        return Ok(None);
    }
    if items.first() != Some(&Item::Call) {
        return Err(TcgError::Token("payload is not a method call".into()));
    }
    let invoking = uid_of(items.get(1), "invoking UID")?;
    let method = uid_of(items.get(2), "method UID")?;
    let args = match items.get(3) {
        Some(Item::Value(Value::List(l))) => l.clone(),
        _ => return Err(TcgError::Token("call without argument list".into())),
    };
    if items.get(4) != Some(&Item::EndOfData) {
        return Err(TcgError::Token("call without EndOfData".into()));
    }
    Ok(Some(Call {
        invoking,
        method,
        args,
    }))
}

/// Encodes a response: result list, EOD, status list.
pub fn response(results: &[Value], status: u8) -> Vec<u8> {
    let mut e = Encoder::new();
    Value::List(results.to_vec()).encode(&mut e);
    e.ctl(token::ctl::END_OF_DATA)
        .start_list()
        .uint(u64::from(status))
        .uint(0)
        .uint(0)
        .end_list();
    e.into_bytes()
}

/// Finds a named argument (`F2 name value F3`) by string name or uint number.
pub fn named<'a>(items: &'a [Value], name: &str, num: Option<u64>) -> Option<&'a Value> {
    items.iter().find_map(|v| match v {
        Value::Named(n, val) if n.name_is(name, num) => Some(val.as_ref()),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcg::uid;

    #[test]
    fn enterprise_erase_call() {
        // protocols.md §F.10 step 5 / G.5: Band1.Erase with empty args.
        let c = call(uid::band(1), uid::method::ERASE, &[]);
        assert_eq!(
            c,
            [
                0xF8, 0xA8, 0, 0, 8, 2, 0, 0, 0, 2, 0xA8, 0, 0, 0, 6, 0, 0, 8, 3, 0xF0, 0xF1, 0xF9,
                0xF0, 0, 0, 0, 0xF1
            ]
        );
        let p = parse_call(&c).unwrap().unwrap();
        assert_eq!(p.invoking, uid::band(1));
        assert_eq!(p.method, uid::method::ERASE);
    }

    #[test]
    fn responses() {
        let r = parse_response(&response(&[Value::Uint(1)], 0)).unwrap();
        assert_eq!(r.results, vec![Value::Uint(1)]);
        let r = parse_response(&response(&[], 0x12)).unwrap();
        assert!(matches!(
            r.ok(),
            Err(TcgError::Method(MethodStatus::AuthorityLockedOut))
        ));
        assert!(parse_response(&[0xF0, 0xF1]).is_err());
        assert!(parse_response(&[0xF0, 0xF1, 0xF9]).is_err());
        assert!(parse_response(&[0xF8, 0xA1, 1]).is_err());
        assert!(matches!(
            parse_response(&[0xFA]),
            Err(TcgError::SessionClosed)
        ));
    }
}
