//! TCG Core data stream: atoms and control tokens (protocols.md §F.5) [GOTCG `stream.go`,
//! K-opal atom masks, SEDU `addToken`].
//!
//! | First byte | Atom |
//! |---|---|
//! | 0x00–0x3F | tiny unsigned (6 bits) |
//! | 0x40–0x7F | tiny signed (6-bit two's complement) |
//! | 0x80–0xBF | short: bit5 B (bytes), bit4 S (signed / continued), bits 3-0 length |
//! | 0xC0–0xDF | medium: bit4 B, bit3 S, 11-bit length |
//! | 0xE0–0xE3 | long: bit1 B, bit0 S, 24-bit length |
//! | 0xF0.. | StartList F0, EndList F1, StartName F2, EndName F3, Call F8, EndOfData F9, EndOfSession FA, StartTransaction FB, EndTransaction FC, Empty FF |
//!
//! A byte atom with S = 1 is "continued": its bytes join the next byte atom.

use super::TcgError;
use serde::Serialize;
use std::fmt;

/// Control tokens.
pub(crate) mod ctl {
    /// StartList
    pub(crate) const START_LIST: u8 = 0xF0;
    /// EndList
    pub(crate) const END_LIST: u8 = 0xF1;
    /// StartName
    pub(crate) const START_NAME: u8 = 0xF2;
    /// EndName
    pub(crate) const END_NAME: u8 = 0xF3;
    /// Call
    pub(crate) const CALL: u8 = 0xF8;
    /// EndOfData
    pub(crate) const END_OF_DATA: u8 = 0xF9;
    /// EndOfSession
    pub(crate) const END_OF_SESSION: u8 = 0xFA;
    /// StartTransaction
    pub(crate) const START_TRANSACTION: u8 = 0xFB;
    /// EndTransaction
    pub(crate) const END_TRANSACTION: u8 = 0xFC;
    /// Empty (ignored)
    pub(crate) const EMPTY: u8 = 0xFF;
}

/// One token of the stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Token {
    /// Unsigned integer atom.
    Uint(u64),
    /// Signed integer atom.
    Int(i64),
    /// Byte-string atom (continued fragments already joined).
    Bytes(Vec<u8>),
    /// StartList F0
    StartList,
    /// EndList F1
    EndList,
    /// StartName F2
    StartName,
    /// EndName F3
    EndName,
    /// Call F8
    Call,
    /// EndOfData F9
    EndOfData,
    /// EndOfSession FA
    EndOfSession,
    /// StartTransaction FB
    StartTransaction,
    /// EndTransaction FC
    EndTransaction,
}

/// Encoder for a token stream.
#[derive(Debug, Default, Clone)]
pub struct Encoder {
    buf: Vec<u8>,
}

impl Encoder {
    /// An empty stream.
    pub fn new() -> Self {
        Encoder::default()
    }

    /// The encoded bytes.
    pub fn into_bytes(self) -> Vec<u8> {
        self.buf
    }

    /// The encoded bytes so far.
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf
    }

    /// Appends pre-encoded tokens.
    pub fn raw(&mut self, b: &[u8]) -> &mut Self {
        self.buf.extend_from_slice(b);
        self
    }

    /// A control token.
    pub(crate) fn ctl(&mut self, t: u8) -> &mut Self {
        self.buf.push(t);
        self
    }

    /// StartList.
    pub(crate) fn start_list(&mut self) -> &mut Self {
        self.ctl(ctl::START_LIST)
    }

    /// EndList.
    pub(crate) fn end_list(&mut self) -> &mut Self {
        self.ctl(ctl::END_LIST)
    }

    /// StartName.
    pub(crate) fn start_name(&mut self) -> &mut Self {
        self.ctl(ctl::START_NAME)
    }

    /// EndName.
    pub(crate) fn end_name(&mut self) -> &mut Self {
        self.ctl(ctl::END_NAME)
    }

    /// Minimal unsigned atom: tiny below 64, else short 1/2/4/8 bytes (0x88 for ≥ 2^32 —
    /// go-tcg stops at 4 bytes and truncates 64-bit LBAs; protocols.md §F.5).
    pub fn uint(&mut self, v: u64) -> &mut Self {
        if v < 64 {
            self.buf.push(v as u8);
        } else {
            let be = v.to_be_bytes();
            let n = if v <= 0xFF {
                1
            } else if v <= 0xFFFF {
                2
            } else if v <= 0xFFFF_FFFF {
                4
            } else {
                8
            };
            self.buf.push(0x80 | n as u8);
            self.buf.extend_from_slice(&be[8 - n..]);
        }
        self
    }

    /// Minimal signed atom.
    pub fn int(&mut self, v: i64) -> &mut Self {
        if (-32..32).contains(&v) {
            self.buf.push(0x40 | (v as u8 & 0x3F));
        } else {
            let be = v.to_be_bytes();
            let mut n = 8;
            // Drop leading bytes that are pure sign extension.
            while n > 1 {
                let i = 8 - n;
                let lead = be[i];
                let next_sign = be[i + 1] & 0x80;
                if (lead == 0 && next_sign == 0) || (lead == 0xFF && next_sign != 0) {
                    n -= 1;
                } else {
                    break;
                }
            }
            self.buf.push(0x90 | n as u8);
            self.buf.extend_from_slice(&be[8 - n..]);
        }
        self
    }

    /// Byte-string atom of the smallest width (short ≤ 15, medium ≤ 2047, long).
    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        let n = b.len();
        if n <= 15 {
            self.buf.push(0xA0 | n as u8);
        } else if n <= 0x7FF {
            self.buf.push(0xD0 | (n >> 8) as u8);
            self.buf.push(n as u8);
        } else {
            let n = n.min(0xFF_FFFF);
            self.buf.push(0xE2);
            self.buf.extend_from_slice(&(n as u32).to_be_bytes()[1..]);
        }
        self.buf.extend_from_slice(b);
        self
    }

    /// An 8-byte UID atom (`A8` + 8 bytes).
    pub fn uid(&mut self, u: super::uid::Uid) -> &mut Self {
        self.bytes(&u.0)
    }

    /// `F2 <uint name> <uint value> F3`.
    pub fn named_uint(&mut self, name: u64, v: u64) -> &mut Self {
        self.start_name().uint(name).uint(v).end_name()
    }

    /// `F2 "name" <uint value> F3`.
    pub(crate) fn named_str_uint(&mut self, name: &str, v: u64) -> &mut Self {
        self.start_name().bytes(name.as_bytes()).uint(v).end_name()
    }

    /// `F2 "name" <bytes> F3`.
    pub(crate) fn named_str_bytes(&mut self, name: &str, v: &[u8]) -> &mut Self {
        self.start_name().bytes(name.as_bytes()).bytes(v).end_name()
    }
}

/// Splits a byte stream into tokens. Empty (0xFF) tokens are dropped; continued byte atoms
/// are joined. Every length is checked against the bytes present.
pub fn tokenize(buf: &[u8]) -> Result<Vec<Token>, TcgError> {
    let mut out = Vec::new();
    let mut pending: Option<Vec<u8>> = None;
    let mut i = 0usize;
    let bad = |i: usize, why: &str| TcgError::Token(format!("offset {i}: {why}"));
    while i < buf.len() {
        let b0 = buf[i];
        // (is_bytes, signed_or_continued, header length, data length)
        let atom: Option<(bool, bool, usize, usize)> = match b0 {
            0x00..=0x3F => {
                push(&mut out, &mut pending, Token::Uint(u64::from(b0)), i)?;
                i += 1;
                continue;
            }
            0x40..=0x7F => {
                let v = ((b0 << 2) as i8 >> 2) as i64;
                push(&mut out, &mut pending, Token::Int(v), i)?;
                i += 1;
                continue;
            }
            0x80..=0xBF => Some((b0 & 0x20 != 0, b0 & 0x10 != 0, 1, usize::from(b0 & 0x0F))),
            0xC0..=0xDF => {
                let b1 = *buf
                    .get(i + 1)
                    .ok_or_else(|| bad(i, "truncated medium atom"))?;
                let len = (usize::from(b0 & 0x07) << 8) | usize::from(b1);
                Some((b0 & 0x10 != 0, b0 & 0x08 != 0, 2, len))
            }
            0xE0..=0xE3 => {
                let h = buf
                    .get(i + 1..i + 4)
                    .ok_or_else(|| bad(i, "truncated long atom"))?;
                let len = (usize::from(h[0]) << 16) | (usize::from(h[1]) << 8) | usize::from(h[2]);
                Some((b0 & 0x02 != 0, b0 & 0x01 != 0, 4, len))
            }
            0xE4..=0xEF => return Err(bad(i, &format!("reserved token 0x{b0:02x}"))),
            _ => None,
        };
        match atom {
            Some((is_bytes, s, hlen, len)) => {
                let start = i + hlen;
                let data = start
                    .checked_add(len)
                    .and_then(|end| buf.get(start..end))
                    .ok_or_else(|| bad(i, &format!("atom of {len} bytes overruns the stream")))?;
                i = start + len;
                if is_bytes {
                    if s {
                        pending.get_or_insert_with(Vec::new).extend_from_slice(data);
                    } else {
                        let mut v = pending.take().unwrap_or_default();
                        v.extend_from_slice(data);
                        out.push(Token::Bytes(v));
                    }
                } else {
                    if len > 8 {
                        return Err(bad(i, &format!("integer atom of {len} bytes")));
                    }
                    let u = data.iter().fold(0u64, |a, b| (a << 8) | u64::from(*b));
                    let t = if s {
                        let v = if len == 0 {
                            0
                        } else {
                            let shift = 64 - 8 * len as u32;
                            ((u << shift) as i64) >> shift
                        };
                        Token::Int(v)
                    } else {
                        Token::Uint(u)
                    };
                    push(&mut out, &mut pending, t, i)?;
                }
            }
            None => {
                let t = match b0 {
                    ctl::START_LIST => Token::StartList,
                    ctl::END_LIST => Token::EndList,
                    ctl::START_NAME => Token::StartName,
                    ctl::END_NAME => Token::EndName,
                    ctl::CALL => Token::Call,
                    ctl::END_OF_DATA => Token::EndOfData,
                    ctl::END_OF_SESSION => Token::EndOfSession,
                    ctl::START_TRANSACTION => Token::StartTransaction,
                    ctl::END_TRANSACTION => Token::EndTransaction,
                    ctl::EMPTY => {
                        i += 1;
                        continue;
                    }
                    o => return Err(bad(i, &format!("reserved token 0x{o:02x}"))),
                };
                push(&mut out, &mut pending, t, i)?;
                i += 1;
            }
        }
    }
    if pending.is_some() {
        return Err(TcgError::Token(
            "stream ends inside a continued byte string".into(),
        ));
    }
    Ok(out)
}

fn push(
    out: &mut Vec<Token>,
    pending: &mut Option<Vec<u8>>,
    t: Token,
    i: usize,
) -> Result<(), TcgError> {
    if pending.is_some() {
        return Err(TcgError::Token(format!(
            "offset {i}: continued byte string interrupted by another token"
        )));
    }
    out.push(t);
    Ok(())
}

/// A structured value: atoms, lists, and named pairs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Value {
    /// Unsigned integer.
    Uint(u64),
    /// Signed integer.
    Int(i64),
    /// Byte string.
    Bytes(Vec<u8>),
    /// `F0 … F1`
    List(Vec<Value>),
    /// `F2 name value F3`
    Named(Box<Value>, Box<Value>),
}

impl Value {
    /// The unsigned value (a non-negative Int counts).
    pub fn as_uint(&self) -> Option<u64> {
        match self {
            Value::Uint(v) => Some(*v),
            Value::Int(v) if *v >= 0 => Some(*v as u64),
            _ => None,
        }
    }

    /// The byte string.
    pub fn as_bytes(&self) -> Option<&[u8]> {
        match self {
            Value::Bytes(b) => Some(b),
            _ => None,
        }
    }

    /// The list items.
    pub fn as_list(&self) -> Option<&[Value]> {
        match self {
            Value::List(l) => Some(l),
            _ => None,
        }
    }

    /// True if this is a name matching `s` (byte string) or `n` (uint) — Enterprise uses
    /// strings, Opal numbers; accept both (protocols.md §F.9).
    pub(crate) fn name_is(&self, s: &str, n: Option<u64>) -> bool {
        match self {
            Value::Bytes(b) => b.as_slice() == s.as_bytes(),
            Value::Uint(v) => n == Some(*v),
            _ => false,
        }
    }

    /// Appends the encoding of this value.
    pub fn encode(&self, e: &mut Encoder) {
        match self {
            Value::Uint(v) => {
                e.uint(*v);
            }
            Value::Int(v) => {
                e.int(*v);
            }
            Value::Bytes(b) => {
                e.bytes(b);
            }
            Value::List(l) => {
                e.start_list();
                for x in l {
                    x.encode(e);
                }
                e.end_list();
            }
            Value::Named(n, v) => {
                e.start_name();
                n.encode(e);
                v.encode(e);
                e.end_name();
            }
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Uint(v) => write!(f, "{v}"),
            Value::Int(v) => write!(f, "{v}"),
            Value::Bytes(b) if b.iter().all(|c| (0x20..0x7F).contains(c)) && !b.is_empty() => {
                write!(f, "\"{}\"", String::from_utf8_lossy(b))
            }
            Value::Bytes(b) => write!(f, "h'{}'", crate::bytes::hex(b)),
            Value::List(l) => {
                write!(f, "[")?;
                for (i, x) in l.iter().enumerate() {
                    if i > 0 {
                        write!(f, " ")?;
                    }
                    write!(f, "{x}")?;
                }
                write!(f, "]")
            }
            Value::Named(n, v) => write!(f, "{n}={v}"),
        }
    }
}

/// Top-level items of a stream: values plus the control tokens that may appear outside lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// A value (atom, list, named).
    Value(Value),
    /// Call
    Call,
    /// EndOfData
    EndOfData,
    /// EndOfSession
    EndOfSession,
    /// StartTransaction
    StartTransaction,
    /// EndTransaction
    EndTransaction,
}

/// Deepest list nesting accepted from a device.
pub(crate) const MAX_DEPTH: usize = 32;

/// Parses a token stream into top-level items. Unbalanced lists or names, and nesting deeper
/// than `MAX_DEPTH`, are errors.
pub fn parse(buf: &[u8]) -> Result<Vec<Item>, TcgError> {
    let toks = tokenize(buf)?;
    let mut it = toks.into_iter().peekable();
    let mut out = Vec::new();
    while let Some(t) = it.next() {
        let item = match t {
            Token::Call => Item::Call,
            Token::EndOfData => Item::EndOfData,
            Token::EndOfSession => Item::EndOfSession,
            Token::StartTransaction => Item::StartTransaction,
            Token::EndTransaction => Item::EndTransaction,
            other => Item::Value(value_from(other, &mut it, 0)?),
        };
        out.push(item);
    }
    Ok(out)
}

fn value_from(
    first: Token,
    it: &mut std::iter::Peekable<std::vec::IntoIter<Token>>,
    depth: usize,
) -> Result<Value, TcgError> {
    if depth > MAX_DEPTH {
        return Err(TcgError::Token(format!(
            "nesting deeper than {MAX_DEPTH} levels"
        )));
    }
    match first {
        Token::Uint(v) => Ok(Value::Uint(v)),
        Token::Int(v) => Ok(Value::Int(v)),
        Token::Bytes(b) => Ok(Value::Bytes(b)),
        Token::StartList => {
            let mut items = Vec::new();
            loop {
                match it.next() {
                    None => return Err(TcgError::Token("list never closed".into())),
                    Some(Token::EndList) => return Ok(Value::List(items)),
                    Some(t) => items.push(value_from(t, it, depth + 1)?),
                }
            }
        }
        Token::StartName => {
            let n = match it.next() {
                Some(t) => value_from(t, it, depth + 1)?,
                None => return Err(TcgError::Token("name never closed".into())),
            };
            let v = match it.next() {
                Some(Token::EndName) | None => {
                    return Err(TcgError::Token("named value without a value".into()))
                }
                Some(t) => value_from(t, it, depth + 1)?,
            };
            match it.next() {
                Some(Token::EndName) => Ok(Value::Named(Box::new(n), Box::new(v))),
                _ => Err(TcgError::Token("name not closed by EndName".into())),
            }
        }
        other => Err(TcgError::Token(format!(
            "unexpected {other:?} inside a value"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(f: impl FnOnce(&mut Encoder)) -> Vec<u8> {
        let mut e = Encoder::new();
        f(&mut e);
        e.into_bytes()
    }

    #[test]
    fn integer_widths() {
        assert_eq!(
            enc(|e| {
                e.uint(0);
            }),
            [0x00]
        );
        assert_eq!(
            enc(|e| {
                e.uint(63);
            }),
            [0x3F]
        );
        assert_eq!(
            enc(|e| {
                e.uint(64);
            }),
            [0x81, 0x40]
        );
        // sedutil's Properties call: 2048 = 82 08 00 [SEDU-ISS #474].
        assert_eq!(
            enc(|e| {
                e.uint(2048);
            }),
            [0x82, 0x08, 0x00]
        );
        assert_eq!(
            enc(|e| {
                e.uint(0x1_0000);
            }),
            [0x84, 0, 1, 0, 0]
        );
        assert_eq!(
            enc(|e| {
                e.uint(0x1_0000_0000);
            }),
            [0x88, 0, 0, 0, 1, 0, 0, 0, 0]
        );
        assert_eq!(
            enc(|e| {
                e.int(-1);
            }),
            [0x7F]
        );
        assert_eq!(
            enc(|e| {
                e.int(-200);
            }),
            [0x92, 0xFF, 0x38]
        );
        for v in [
            0u64,
            1,
            63,
            64,
            255,
            256,
            65535,
            65536,
            u32::MAX as u64,
            u64::MAX,
        ] {
            assert_eq!(
                tokenize(&enc(|e| {
                    e.uint(v);
                }))
                .unwrap(),
                vec![Token::Uint(v)]
            );
        }
        for v in [0i64, -1, -32, 31, -33, 32, -200, i64::MIN, i64::MAX] {
            assert_eq!(
                tokenize(&enc(|e| {
                    e.int(v);
                }))
                .unwrap(),
                vec![Token::Int(v)]
            );
        }
        // Decoders must accept non-minimal widths, e.g. 3-byte uints (0x83) as in the Samsung
        // PM981 Properties reply `83 01 02 00` = 66048 [sedutil issue #468].
        assert_eq!(
            tokenize(&[0x83, 0x01, 0x02, 0x00]).unwrap(),
            vec![Token::Uint(66048)]
        );
    }

    #[test]
    fn byte_widths() {
        assert_eq!(
            enc(|e| {
                e.bytes(b"");
            }),
            [0xA0]
        );
        let name = b"MaxComPacketSize";
        let mut want = vec![0xD0, 0x10];
        want.extend_from_slice(name);
        assert_eq!(
            enc(|e| {
                e.bytes(name);
            }),
            want
        );
        let big = vec![7u8; 3000];
        let b = enc(|e| {
            e.bytes(&big);
        });
        assert_eq!(&b[..4], &[0xE2, 0x00, 0x0B, 0xB8]);
        assert_eq!(tokenize(&b).unwrap(), vec![Token::Bytes(big)]);
        // Continued: A3 (S=1 short bytes = 0xB3) + A2.
        assert_eq!(
            tokenize(&[0xB2, 1, 2, 0xA1, 3]).unwrap(),
            vec![Token::Bytes(vec![1, 2, 3])]
        );
        assert!(tokenize(&[0xB2, 1, 2]).is_err());
        assert!(tokenize(&[0xB2, 1, 2, 0x05]).is_err());
    }

    #[test]
    fn hostile() {
        assert!(tokenize(&[0xA8, 1, 2]).is_err());
        assert!(tokenize(&[0xD0]).is_err());
        assert!(tokenize(&[0xE2, 0xFF, 0xFF]).is_err());
        assert!(tokenize(&[0xE0, 0xFF, 0xFF, 0xFF, 0]).is_err());
        assert!(tokenize(&[0xE5]).is_err());
        assert!(tokenize(&[0x8F, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).is_err());
        assert!(parse(&[0xF0, 0xF0, 0x01, 0xF1]).is_err());
        assert!(parse(&[0xF2, 0x01, 0xF3]).is_err());
        assert!(parse(&[0xF1]).is_err());
        assert!(parse(&[0xF0; 100]).is_err());
        let mut deep = vec![0xF0; MAX_DEPTH + 2];
        deep.extend(vec![0xF1; MAX_DEPTH + 2]);
        assert!(parse(&deep).is_err());
    }

    #[test]
    fn structure() {
        let items = parse(&[0xF0, 0xF2, 0xA1, b'a', 0x05, 0xF3, 0xFF, 0xF1, 0xF9]).unwrap();
        assert_eq!(
            items,
            vec![
                Item::Value(Value::List(vec![Value::Named(
                    Box::new(Value::Bytes(b"a".to_vec())),
                    Box::new(Value::Uint(5))
                )])),
                Item::EndOfData
            ]
        );
    }

    proptest::proptest! {
        #[test]
        fn never_panics(data in proptest::collection::vec(proptest::num::u8::ANY, 0..300)) {
            let _ = parse(&data);
        }

        #[test]
        fn roundtrip_values(v in proptest::num::u64::ANY, b in proptest::collection::vec(proptest::num::u8::ANY, 0..3000)) {
            let mut e = Encoder::new();
            e.uint(v).bytes(&b);
            proptest::prop_assert_eq!(tokenize(e.as_bytes()).unwrap(), vec![Token::Uint(v), Token::Bytes(b)]);
        }
    }
}
