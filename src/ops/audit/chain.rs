//! The hash-chained audit log: every record written by [`crate::ops::audit::AuditLog`]
//! carries the SHA-256 of the previous line (`prev_sha256`) and of its own contents
//! (`record_sha256`), so `sgctl audit verify FILE` finds a changed, removed, inserted or
//! reordered record and says at which line.
//!
//! - `prev_sha256` = SHA-256 of the previous line's bytes, without its newline (64 zeros for the
//!   first line of a log). Anyone can recompute it: `sed -n 3p audit.jsonl | tr -d '\n' | sha256sum`.
//! - `record_sha256` = SHA-256 of the line's compact JSON with the `record_sha256` member
//!   removed (it is always the last member). It pinpoints which line changed; the chain says
//!   where lines went missing or moved. `verify` hashes the line's bytes as written (the line
//!   without its last member: `,"record_sha256":"…"` cut out before the closing brace), never
//!   a parsed and re-serialised copy, so no number is ever misread into a false "changed".
//!
//! What a chain cannot show by itself: the *last* records cut off (the file is still a valid
//! chain). `verify` prints the head (SHA-256 of the last line) so it can be kept elsewhere and
//! checked later with `--head`.
//!
//! Writers hold an exclusive `flock` while they read the last line and append, so parallel jobs
//! (threads or processes on one host) keep one chain.

use crate::error::{Error, Result};
use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

/// `prev_sha256` of a log's first record.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";
/// Member holding the SHA-256 of the previous line.
pub const PREV: &str = "prev_sha256";
/// Member holding the SHA-256 of this record's own contents.
pub const SELF: &str = "record_sha256";

/// Lowercase hex.
pub fn hex(b: &[u8]) -> String {
    crate::bytes::hex(b)
}

/// SHA-256 in lowercase hex.
pub fn sha256_hex(b: &[u8]) -> String {
    hex(&Sha256::digest(b))
}

/// The line to append after a line whose bytes are `prev_line` (None: first line).
/// `record` must be a JSON object; its own `prev_sha256`/`record_sha256` members are replaced.
pub fn chained_line(prev_line: Option<&[u8]>, record: &Value) -> Result<Vec<u8>> {
    chained_line_after(prev_line.map(sha256_hex), record)
}

/// [`chained_line`] given the previous line's SHA-256 (hex) rather than its bytes.
pub(crate) fn chained_line_after(prev_sha256: Option<String>, record: &Value) -> Result<Vec<u8>> {
    let Value::Object(m) = record else {
        return Err(crate::error::Invalid::AuditRecordNotObject.into());
    };
    let mut m = m.clone();
    m.shift_remove(PREV);
    m.shift_remove(SELF);
    let prev = prev_sha256.unwrap_or_else(|| GENESIS.into());
    m.insert(PREV.into(), Value::String(prev));
    let body = compact(&Value::Object(m.clone()))?;
    m.insert(SELF.into(), Value::String(sha256_hex(&body)));
    compact(&Value::Object(m))
}

fn compact(v: &Value) -> Result<Vec<u8>> {
    serde_json::to_vec(v).map_err(|e| Error::io("audit record", std::io::Error::other(e)))
}

/// Appends `record` to the log at `path` with the chain members, under an exclusive lock, and
/// flushes file (and, when created, directory) to disk. The log is opened through
/// [`crate::files::open_append`]: never through a symlink, never a file with other hard links
/// or of another owner; created mode 0640 (its directory 0750) and left as configured after.
pub fn append(path: &Path, record: &Value) -> Result<()> {
    let ctx = || format!("audit log {}", path.display());
    let io = |e: std::io::Error| Error::io(ctx(), e);
    let f = crate::files::open_append(path, crate::files::MODE_LOG, 0o750)?;
    let mut f = nix::fcntl::Flock::lock(f, nix::fcntl::FlockArg::LockExclusive)
        .map_err(|(_, e)| io(std::io::Error::from(e)))?;
    let prev = last_line_sha256(&mut *f).map_err(io)?;
    // A last line without its newline (a torn write, an edit) keeps its own line: the record
    // is not glued onto it.
    let mut line = if ends_without_newline(&mut *f).map_err(io)? {
        b"\n".to_vec()
    } else {
        Vec::new()
    };
    line.extend(chained_line_after(prev, record)?);
    line.push(b'\n');
    f.write_all(&line).map_err(io)?;
    f.sync_all().map_err(io)?;
    Ok(())
}

/// True when `f` is not empty and its last byte is not a newline.
fn ends_without_newline<F: Read + Seek>(f: &mut F) -> std::io::Result<bool> {
    let len = f.seek(SeekFrom::End(0))?;
    if len == 0 {
        return Ok(false);
    }
    f.seek(SeekFrom::Start(len - 1))?;
    let mut b = [0u8; 1];
    f.read_exact(&mut b)?;
    Ok(b[0] != b'\n')
}

/// SHA-256 (hex) of the last non-empty line of `f` (without its newline); None when the file
/// holds no such line. Linear in the line's length, whatever it is: the file is read backwards
/// once, chunk by chunk, to find the line's bounds, then the line is hashed forwards in chunks
/// (never held whole in memory). The host-wide audit lock is held meanwhile, so this must not
/// grow with the square of a line someone made long.
fn last_line_sha256<F: Read + Seek>(f: &mut F) -> std::io::Result<Option<String>> {
    const CHUNK: usize = 64 << 10;
    let len = f.seek(SeekFrom::End(0))?;
    let mut buf = vec![0u8; CHUNK];
    let mut pos = len;
    // One past the last byte that is not a newline; then the first byte of that line.
    let mut end: Option<u64> = None;
    let mut start = 0u64;
    'scan: while pos > 0 {
        let n = usize::try_from(pos).map_or(CHUNK, |p| p.min(CHUNK));
        pos -= n as u64;
        f.seek(SeekFrom::Start(pos))?;
        f.read_exact(&mut buf[..n])?;
        for i in (0..n).rev() {
            let at = pos + i as u64;
            match (end, buf[i]) {
                (None, b'\n') => {}
                (None, _) => end = Some(at + 1),
                (Some(_), b'\n') => {
                    start = at + 1;
                    break 'scan;
                }
                (Some(_), _) => {}
            }
        }
    }
    let Some(end) = end else {
        return Ok(None);
    };
    f.seek(SeekFrom::Start(start))?;
    let mut h = Sha256::new();
    let mut left = end - start;
    while left > 0 {
        let n = usize::try_from(left).map_or(CHUNK, |l| l.min(CHUNK));
        f.read_exact(&mut buf[..n])?;
        h.update(&buf[..n]);
        left -= n as u64;
    }
    Ok(Some(hex(&h.finalize())))
}

/// One problem found by [`verify`].
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Problem {
    /// 1-based line number.
    pub line: usize,
    /// `not_json`, `record_changed`, `chain_broken`, `not_chained`, `chain_start`, `head_missing`.
    pub kind: &'static str,
    /// What it means.
    pub message: String,
}

/// Result of [`verify`].
#[derive(Debug, Clone, Serialize, Default)]
pub struct Verification {
    /// Lines (records) in the file.
    pub records: usize,
    /// Records carrying the chain members.
    pub chained: usize,
    /// Records written before chaining existed (leading lines without the members).
    pub legacy: usize,
    /// SHA-256 of the last line: keep it elsewhere and pass it to `--head` later.
    pub head: Option<String>,
    /// Everything wrong, in file order. Empty: the log is intact.
    pub problems: Vec<Problem>,
}

impl Verification {
    /// No problem found.
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Checks a whole log. `expected_head`: a head printed by an earlier verify, which must still
/// be one of the lines (records cut off from the end are otherwise invisible).
pub fn verify(content: &[u8], expected_head: Option<&str>) -> Verification {
    let mut v = Verification::default();
    // Line numbers must count blank lines too; keep (number, bytes).
    let numbered: Vec<(usize, &[u8])> = content
        .split(|&b| b == b'\n')
        .enumerate()
        .filter(|(_, l)| !l.is_empty())
        .map(|(i, l)| (i + 1, l))
        .collect();
    v.records = numbered.len();
    let mut prev: Option<&[u8]> = None;
    let mut seen_chained = false;
    let mut head_found = false;
    for &(no, line) in &numbered {
        let hash = sha256_hex(line);
        if expected_head.is_some_and(|h| h.eq_ignore_ascii_case(&hash)) {
            head_found = true;
        }
        let prob = |kind, message: String| Problem {
            line: no,
            kind,
            message,
        };
        let parsed: Option<serde_json::Map<String, Value>> = match serde_json::from_slice(line) {
            Ok(Value::Object(m)) => Some(m),
            _ => None,
        };
        let Some(mut m) = parsed else {
            v.problems.push(prob(
                "not_json",
                format!("line {no}: not a JSON object (changed, or a torn write)"),
            ));
            prev = Some(line);
            seen_chained = true;
            continue;
        };
        let (p, s) = (m.get(PREV).cloned(), m.get(SELF).cloned());
        let (Some(Value::String(p)), Some(Value::String(s))) = (p, s) else {
            if seen_chained {
                v.problems.push(prob(
                    "not_chained",
                    format!(
                        "line {no}: record without {PREV}/{SELF} after chained records (inserted?)"
                    ),
                ));
            } else {
                v.legacy += 1;
            }
            prev = Some(line);
            continue;
        };
        seen_chained = true;
        v.chained += 1;
        // Own contents: the bytes as written, without the last member.
        let last_is_self = m.keys().next_back().is_some_and(|k| k == SELF);
        m.shift_remove(SELF);
        let own = own_bytes(line).map(|b| sha256_hex(&b));
        if !last_is_self || own.as_deref() != Some(s.as_str()) {
            v.problems.push(prob(
                "record_changed",
                format!("line {no}: record changed ({SELF} does not match its contents)"),
            ));
        }
        // Link to the previous line.
        match prev {
            None if p != GENESIS => v.problems.push(prob(
                "chain_start",
                format!(
                    "line {no}: the chain does not start here ({PREV} is not the genesis value): \
                     records before it were removed"
                ),
            )),
            Some(pl) if p != sha256_hex(pl) => v.problems.push(prob(
                "chain_broken",
                format!(
                    "line {no}: {PREV} does not match line {}: a record was removed, inserted or \
                     moved between them",
                    previous_number(&numbered, no)
                ),
            )),
            _ => {}
        }
        prev = Some(line);
    }
    v.head = prev.map(sha256_hex);
    if let Some(h) = expected_head {
        if !head_found {
            v.problems.push(Problem {
                line: v.records + 1,
                kind: "head_missing",
                message: format!(
                    "no line hashes to the expected head {h}: records were cut off the end \
                     (or the log was replaced)"
                ),
            });
        }
    }
    v
}

/// The bytes `record_sha256` covers: the line as written with its last member
/// (`,"record_sha256":"<64 hex>"`) cut out; `None` when the line does not end that way.
fn own_bytes(line: &[u8]) -> Option<Vec<u8>> {
    let member = format!(",\"{SELF}\":\"");
    let tail = member.len() + 64 + 2;
    let cut = line.len().checked_sub(tail)?;
    let (body, rest) = line.split_at(cut);
    let hex_ok = rest
        .get(member.len()..member.len() + 64)
        .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit));
    if !rest.starts_with(member.as_bytes()) || !rest.ends_with(b"\"}") || !hex_ok {
        return None;
    }
    let mut b = body.to_vec();
    b.push(b'}');
    Some(b)
}

/// `text` (one JSON value) without the whitespace outside its strings: the compact form
/// serde_json writes, from a pretty-printed copy, without parsing any number.
pub(crate) fn compact_text(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let (mut in_string, mut escaped) = (false, false);
    for &c in text {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == b'\\' {
                escaped = true;
            } else if c == b'"' {
                in_string = false;
            }
        } else if !matches!(c, b' ' | b'\n' | b'\r' | b'\t') {
            in_string = c == b'"';
            out.push(c);
        }
    }
    out
}

fn previous_number(numbered: &[(usize, &[u8])], no: usize) -> usize {
    numbered
        .iter()
        .rev()
        .map(|(n, _)| *n)
        .find(|n| *n < no)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn log(n: usize) -> Vec<u8> {
        let mut out = Vec::new();
        let mut prev: Option<Vec<u8>> = None;
        for i in 0..n {
            let l = chained_line(prev.as_deref(), &json!({"event": "start", "i": i})).unwrap();
            out.extend_from_slice(&l);
            out.push(b'\n');
            prev = Some(l);
        }
        out
    }

    fn lines(b: &[u8]) -> Vec<Vec<u8>> {
        b.split(|&c| c == b'\n')
            .filter(|l| !l.is_empty())
            .map(<[u8]>::to_vec)
            .collect()
    }

    fn join(ls: &[Vec<u8>]) -> Vec<u8> {
        ls.iter()
            .flat_map(|l| l.iter().copied().chain([b'\n']))
            .collect()
    }

    #[test]
    fn intact_log_verifies_and_first_record_is_genesis() {
        let b = log(4);
        let v = verify(&b, None);
        assert!(v.ok(), "{:?}", v.problems);
        assert_eq!((v.records, v.chained, v.legacy), (4, 4, 0));
        let first: Value = serde_json::from_slice(&lines(&b)[0]).unwrap();
        assert_eq!(first[PREV], GENESIS);
        assert_eq!(v.head.as_deref(), Some(sha256_hex(&lines(&b)[3]).as_str()));
    }

    #[test]
    fn changed_byte_is_found_at_its_line() {
        let mut ls = lines(&log(4));
        let pos = ls[1].windows(3).position(|w| w == b"\"i\"").unwrap() + 4;
        ls[1][pos] = b'7';
        let v = verify(&join(&ls), None);
        assert_eq!(v.problems[0].line, 2);
        assert_eq!(v.problems[0].kind, "record_changed");
        // The next line's link breaks too.
        assert!(v
            .problems
            .iter()
            .any(|p| p.line == 3 && p.kind == "chain_broken"));
    }

    #[test]
    fn removed_swapped_and_truncated() {
        let ls = lines(&log(5));
        let mut removed = ls.clone();
        removed.remove(2);
        let v = verify(&join(&removed), None);
        assert_eq!(v.problems.len(), 1);
        assert_eq!(
            (v.problems[0].line, v.problems[0].kind),
            (3, "chain_broken")
        );

        let mut swapped = ls.clone();
        swapped.swap(1, 2);
        let v = verify(&join(&swapped), None);
        let at: Vec<usize> = v.problems.iter().map(|p| p.line).collect();
        assert_eq!(at, vec![2, 3, 4]);

        let mut first_gone = ls.clone();
        first_gone.remove(0);
        assert_eq!(
            verify(&join(&first_gone), None).problems[0].kind,
            "chain_start"
        );

        let head = sha256_hex(&ls[4]);
        assert!(verify(&join(&ls), Some(&head)).ok());
        let v = verify(&join(&ls[..4]), Some(&head));
        assert_eq!(v.problems[0].kind, "head_missing");
    }

    #[test]
    fn legacy_lines_before_the_chain_are_counted_not_flagged() {
        let legacy = b"{\"event\":\"start\"}\n".to_vec();
        let l = chained_line(Some(b"{\"event\":\"start\"}"), &json!({"event": "end"})).unwrap();
        let mut b = legacy.clone();
        b.extend_from_slice(&l);
        b.push(b'\n');
        let v = verify(&b, None);
        assert!(v.ok(), "{:?}", v.problems);
        assert_eq!((v.legacy, v.chained), (1, 1));
        // An unchained line after the chain started is an insertion.
        b.extend_from_slice(&legacy);
        assert_eq!(verify(&b, None).problems[0].kind, "not_chained");
    }

    #[test]
    fn append_chains_across_calls_and_reads_long_last_lines() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("a/audit.jsonl");
        append(&p, &json!({"event": "start"})).unwrap();
        append(&p, &json!({"event": "x", "pad": "y".repeat(20_000)})).unwrap();
        append(&p, &json!({"event": "end"})).unwrap();
        let b = std::fs::read(&p).unwrap();
        let v = verify(&b, None);
        assert!(v.ok(), "{:?}", v.problems);
        assert_eq!(v.chained, 3);
    }

    /// Every sanitize progress value a drive can report (n·100/65536, SBC-4 progress
    /// indication) written into a chained log verifies: the record's own hash is taken over
    /// the bytes as written, not over a parse-and-reserialise that misreads some 17-digit
    /// floats by one ULP.
    #[test]
    fn every_progress_value_verifies() {
        let mut out = Vec::new();
        let mut prev: Option<Vec<u8>> = None;
        for chunk in 0..256u32 {
            let trail: Vec<Value> = (0..256u32)
                .map(|i| json!({"progress_percent": f64::from(chunk * 256 + i) * 100.0 / 65536.0}))
                .collect();
            let l = chained_line(
                prev.as_deref(),
                &json!({"event": "end", "sense_trail": trail}),
            )
            .unwrap();
            out.extend_from_slice(&l);
            out.push(b'\n');
            prev = Some(l);
        }
        let v = verify(&out, None);
        assert_eq!(v.chained, 256);
        assert!(
            v.ok(),
            "{} problems, first {:?}",
            v.problems.len(),
            v.problems.first()
        );
    }

    /// The hash covers the bytes as written: a number in a form a re-serialisation would
    /// write differently (more digits than needed) still verifies, and a changed digit does not.
    #[test]
    fn own_hash_is_over_the_written_bytes() {
        let body =
            format!("{{\"event\":\"end\",\"p\":99.902343750000000001,\"{PREV}\":\"{GENESIS}\"}}");
        let own = sha256_hex(body.as_bytes());
        let line = format!("{},\"{SELF}\":\"{own}\"}}", &body[..body.len() - 1]);
        let v = verify(line.as_bytes(), None);
        assert!(v.ok(), "{:?}", v.problems);
        let changed = line.replace("99.90234375000", "99.90234375001");
        assert_eq!(
            verify(changed.as_bytes(), None).problems[0].kind,
            "record_changed"
        );
        assert_eq!(
            compact_text(b"{ \"a\" : [1, 2.50],\n  \"b\": \"x \\\" y\" }"),
            b"{\"a\":[1,2.50],\"b\":\"x \\\" y\"}".to_vec()
        );
    }

    /// The last line as `verify` sees it: the last non-empty piece between newlines.
    fn naive_last(b: &[u8]) -> Option<String> {
        b.split(|&c| c == b'\n')
            .rfind(|l| !l.is_empty())
            .map(sha256_hex)
    }

    /// A reader that counts the bytes it hands out.
    struct Counting<'a> {
        inner: std::io::Cursor<&'a [u8]>,
        read: u64,
    }
    impl Read for Counting<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.inner.read(buf)?;
            self.read += n as u64;
            Ok(n)
        }
    }
    impl Seek for Counting<'_> {
        fn seek(&mut self, p: SeekFrom) -> std::io::Result<u64> {
            self.inner.seek(p)
        }
    }

    #[test]
    fn the_last_line_is_read_in_linear_time() {
        // A 3 MB last line after a short one: the old reader prepended every chunk to the
        // tail and rescanned it (quadratic: a 32 MB line held the audit lock for minutes).
        let mut b = b"{\"a\":1}\n".to_vec();
        b.extend(std::iter::repeat_n(b'x', 3 << 20));
        b.extend_from_slice(b"\n\n");
        let mut c = Counting {
            inner: std::io::Cursor::new(&b[..]),
            read: 0,
        };
        assert_eq!(last_line_sha256(&mut c).unwrap(), naive_last(&b));
        // Backwards once to find the bounds, forwards once to hash: at most twice the file.
        assert!(c.read <= 2 * b.len() as u64, "{} bytes read", c.read);
    }

    #[test]
    fn appending_after_a_long_last_line_is_quick() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("audit.jsonl");
        append(&p, &json!({"event": "start"})).unwrap();
        let mut f = std::fs::OpenOptions::new().append(true).open(&p).unwrap();
        f.write_all(&vec![b'y'; 16 << 20]).unwrap();
        f.write_all(b"\n").unwrap();
        drop(f);
        let t = std::time::Instant::now();
        append(&p, &json!({"event": "end"})).unwrap();
        let took = t.elapsed();
        assert!(took < std::time::Duration::from_secs(20), "{took:?}");
    }

    proptest::proptest! {
        /// The chunked reader finds the same last line as `verify`, whatever the mix of
        /// newlines and chunk boundaries.
        #[test]
        fn last_line_matches_verify(
            parts in proptest::collection::vec((0usize..70_000, 0usize..3), 0..6),
        ) {
            let mut b = Vec::new();
            for (n, nl) in parts {
                b.extend(std::iter::repeat_n(b'z', n));
                b.extend(std::iter::repeat_n(b'\n', nl));
            }
            let got = last_line_sha256(&mut std::io::Cursor::new(&b[..])).unwrap();
            proptest::prop_assert_eq!(got, naive_last(&b));
        }

        /// Any bytes: `verify` returns (never panics), and a problem-free verdict means every
        /// line is a chained record or a leading legacy one.
        #[test]
        fn verify_any_bytes(b in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..400)) {
            let v = verify(&b, None);
            if v.ok() {
                proptest::prop_assert_eq!(v.records, v.chained + v.legacy);
            }
        }
    }

    #[test]
    fn a_torn_last_line_keeps_its_own_line() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("audit.jsonl");
        append(&p, &json!({"event": "start"})).unwrap();
        let mut f = std::fs::OpenOptions::new().append(true).open(&p).unwrap();
        f.write_all(b"{\"event\":\"torn").unwrap();
        drop(f);
        append(&p, &json!({"event": "end"})).unwrap();
        let b = std::fs::read(&p).unwrap();
        let v = verify(&b, None);
        // The torn line is found as what it is; the new record is whole and chained to it.
        assert_eq!(v.records, 3);
        assert_eq!(v.problems.len(), 1, "{:?}", v.problems);
        assert_eq!((v.problems[0].kind, v.problems[0].line), ("not_json", 2));
        assert_eq!(v.chained, 2);
    }

    #[test]
    fn garbage_never_panics() {
        for b in [
            &b""[..],
            b"\n\n",
            b"{",
            b"[1]\n{}",
            b"\xff\xfe\n{\"prev_sha256\":1}",
        ] {
            let _ = verify(b, Some("00"));
        }
    }
}
