//! Bounds-checked readers for device data.
//!
//! Everything a drive sends is untrusted: length fields can lie, pages can be truncated or
//! padded. Parsers read through these helpers so an inconsistent response becomes a
//! [`ParseError`], never a panic or an out-of-bounds read.

use std::fmt;

/// A response that could not be decoded. `what` names the structure (for example
/// `"VPD page 0x83"`), `reason` says what was wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// The structure being decoded.
    pub what: &'static str,
    /// What was wrong, in words.
    pub reason: String,
}

impl ParseError {
    /// A new error about `what`.
    pub fn new(what: &'static str, reason: impl Into<String>) -> Self {
        ParseError {
            what,
            reason: reason.into(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.what, self.reason)
    }
}

impl std::error::Error for ParseError {}

/// Result of a parser.
pub(crate) type ParseResult<T> = Result<T, ParseError>;

/// A cursor-free view of untrusted bytes with checked big-endian reads.
#[derive(Debug, Clone, Copy)]
pub struct Bytes<'a> {
    buf: &'a [u8],
    what: &'static str,
}

impl<'a> Bytes<'a> {
    /// Wraps `buf`; errors will name `what`.
    pub fn new(buf: &'a [u8], what: &'static str) -> Self {
        Bytes { buf, what }
    }

    /// The underlying slice.
    pub fn as_slice(&self) -> &'a [u8] {
        self.buf
    }

    /// Number of bytes available.
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// True if there are no bytes.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    fn err(&self, reason: String) -> ParseError {
        ParseError::new(self.what, reason)
    }

    /// Fails unless at least `n` bytes are present.
    pub fn need(&self, n: usize) -> ParseResult<()> {
        if self.buf.len() < n {
            Err(self.err(format!(
                "truncated: need {n} bytes, have {}",
                self.buf.len()
            )))
        } else {
            Ok(())
        }
    }

    /// `len` bytes starting at `off`.
    pub fn slice(&self, off: usize, len: usize) -> ParseResult<&'a [u8]> {
        let end = off
            .checked_add(len)
            .ok_or_else(|| self.err(format!("length overflow at offset {off}")))?;
        self.buf.get(off..end).ok_or_else(|| {
            self.err(format!(
                "truncated: {len} bytes at offset {off} overrun the {} bytes present",
                self.buf.len()
            ))
        })
    }

    /// A sub-view of `len` bytes at `off`.
    pub fn sub(&self, off: usize, len: usize) -> ParseResult<Bytes<'a>> {
        Ok(Bytes {
            buf: self.slice(off, len)?,
            what: self.what,
        })
    }

    /// Everything from `off` to the end (empty if `off` is past the end).
    pub fn rest(&self, off: usize) -> &'a [u8] {
        self.buf.get(off..).unwrap_or(&[])
    }

    /// One byte.
    pub fn u8(&self, off: usize) -> ParseResult<u8> {
        Ok(self.slice(off, 1)?[0])
    }

    /// Big-endian u16.
    pub fn be16(&self, off: usize) -> ParseResult<u16> {
        let s = self.slice(off, 2)?;
        Ok(u16::from_be_bytes([s[0], s[1]]))
    }

    /// Big-endian 24-bit value.
    pub(crate) fn be24(&self, off: usize) -> ParseResult<u32> {
        let s = self.slice(off, 3)?;
        Ok(u32::from_be_bytes([0, s[0], s[1], s[2]]))
    }

    /// Big-endian u32.
    pub fn be32(&self, off: usize) -> ParseResult<u32> {
        let s = self.slice(off, 4)?;
        Ok(u32::from_be_bytes([s[0], s[1], s[2], s[3]]))
    }

    /// Big-endian u64.
    pub(crate) fn be64(&self, off: usize) -> ParseResult<u64> {
        let s = self.slice(off, 8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(s);
        Ok(u64::from_be_bytes(a))
    }

    /// Big-endian unsigned integer of 1..=8 bytes (log parameters have variable widths).
    pub(crate) fn be_var(&self, off: usize, len: usize) -> ParseResult<u64> {
        if len == 0 || len > 8 {
            return Err(self.err(format!("integer width {len} not in 1..=8")));
        }
        Ok(self
            .slice(off, len)?
            .iter()
            .fold(0u64, |acc, b| (acc << 8) | u64::from(*b)))
    }

    /// ASCII field with trailing spaces and NULs removed (INQUIRY vendor, product, ...).
    pub fn ascii(&self, off: usize, len: usize) -> ParseResult<String> {
        Ok(ascii_trim(self.slice(off, len)?))
    }
}

/// Printable ASCII of `b`, trailing spaces/NULs trimmed, other non-printables shown as `.`.
pub(crate) fn ascii_trim(b: &[u8]) -> String {
    let s: String = b
        .iter()
        .map(|&c| {
            if (0x20..0x7f).contains(&c) {
                c as char
            } else if c == 0 {
                ' '
            } else {
                '.'
            }
        })
        .collect();
    s.trim_end().trim_start_matches(' ').to_string()
}

/// Lowercase hex, no separators.
pub fn hex(b: &[u8]) -> String {
    const D: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(2 * b.len());
    for &x in b {
        s.push(char::from(D[usize::from(x >> 4)]));
        s.push(char::from(D[usize::from(x & 0xf)]));
    }
    s
}

/// Hex bytes separated by spaces: `04 18 00 00 00 00`.
pub fn spaced_hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Classic 16-bytes-per-line hex dump with offsets and ASCII, like `sg_inq --hex`.
pub fn hexdump(b: &[u8]) -> String {
    // Built without format! per byte (fuzz targets and `--hex` of large pages render it often).
    const D: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(b.len().div_ceil(16) * 78);
    for (i, chunk) in b.chunks(16).enumerate() {
        out.push(' ');
        let off = i * 16;
        if off > 0xffff {
            out.push_str(&format!("{off:04x}"));
        } else {
            for sh in [12, 8, 4, 0] {
                out.push(char::from(D[(off >> sh) & 0xf]));
            }
        }
        out.push_str("    ");
        for (j, &x) in chunk.iter().enumerate() {
            if j == 8 {
                out.push(' ');
            }
            out.push(char::from(D[usize::from(x >> 4)]));
            out.push(char::from(D[usize::from(x & 0xf)]));
            out.push(' ');
        }
        for j in chunk.len()..16 {
            if j == 8 {
                out.push(' ');
            }
            out.push_str("   ");
        }
        out.push_str("   ");
        out.extend(chunk.iter().map(|&c| {
            if (0x20..0x7f).contains(&c) {
                c as char
            } else {
                '.'
            }
        }));
        out.push('\n');
    }
    out
}

/// The bytes of a page whose 4-byte header (VPD pages, SPC-6 7.7.1; diagnostic pages, SPC-6
/// 7.3.1 and SES-4 6.1) says it is page `found` with `page_length` bytes after the header:
/// an error when `found` is not the page `code` asked for; a view of `4 + page_length` bytes,
/// or — when `buf` is shorter — of the bytes present and a problem saying so.
pub(crate) fn page_body<'a>(
    buf: &'a [u8],
    what: &'static str,
    code: u8,
    found: u8,
    page_length: u16,
    problems: &mut Vec<String>,
) -> ParseResult<Bytes<'a>> {
    if found != code {
        return Err(ParseError::new(
            what,
            format!("page code is 0x{found:02x}, expected 0x{code:02x}"),
        ));
    }
    let b = Bytes::new(buf, what);
    let want = 4 + usize::from(page_length);
    match b.sub(0, want) {
        Ok(v) => Ok(v),
        Err(_) => {
            problems.push(format!(
                "truncated: page length {page_length} needs {want} bytes, have {}",
                buf.len()
            ));
            Ok(b)
        }
    }
}

/// Parses sg3_utils `--inhex` style text: whitespace/comma separated hex bytes, `#` comments.
/// Also accepts the offset+hexdump layout sg3_utils prints (a leading offset column of 4+ hex
/// digits followed by spaces is skipped, as is the ASCII column after three spaces).
pub fn parse_inhex(text: &str) -> ParseResult<Vec<u8>> {
    let mut out = Vec::new();
    for (lineno, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("");
        let mut toks: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .collect();
        // sg3_utils hexdump lines: " 00     00 00 05 ..." or "0000  ..": drop a leading offset
        // token wider than two digits.
        if toks
            .first()
            .is_some_and(|t| t.len() > 2 && t.chars().all(|c| c.is_ascii_hexdigit()))
        {
            toks.remove(0);
        }
        for t in toks {
            if t.len() > 2 || !t.chars().all(|c| c.is_ascii_hexdigit()) {
                // The ASCII column of a hexdump ends the useful part of the line.
                if out.is_empty() && lineno == 0 {
                    return Err(ParseError::new(
                        "inhex",
                        format!("line {}: '{t}' is not a hex byte", lineno + 1),
                    ));
                }
                break;
            }
            out.push(u8::from_str_radix(t, 16).map_err(|_| {
                ParseError::new("inhex", format!("line {}: bad hex '{t}'", lineno + 1))
            })?);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::{page_body, ParseError};

    /// A page's view: its declared length (trailing bytes left out), the bytes present with a
    /// problem when it is shorter, an error for another page code.
    #[test]
    fn page_body_checks_code_and_length() {
        let buf = [0x00, 0x80, 0x00, 0x02, 0xaa, 0xbb, 0xcc];
        let mut problems = vec![];
        let v = page_body(&buf, "page", 0x80, buf[1], 2, &mut problems).unwrap();
        assert_eq!((v.as_slice(), problems.len()), (&buf[..6], 0));
        let v = page_body(&buf[..5], "page", 0x80, buf[1], 2, &mut problems).unwrap();
        assert_eq!(v.as_slice(), &buf[..5]);
        assert_eq!(problems, ["truncated: page length 2 needs 6 bytes, have 5"]);
        let e: ParseError = page_body(&buf, "page", 0x83, buf[1], 2, &mut problems).unwrap_err();
        assert!(
            e.to_string().contains("page code is 0x80, expected 0x83"),
            "{e}"
        );
    }

    /// The format!-per-byte dump these functions replaced (the reference).
    fn hexdump_ref(b: &[u8]) -> String {
        let mut out = String::new();
        for (i, chunk) in b.chunks(16).enumerate() {
            out.push_str(&format!(" {:04x}    ", i * 16));
            for (j, x) in chunk.iter().enumerate() {
                if j == 8 {
                    out.push(' ');
                }
                out.push_str(&format!("{x:02x} "));
            }
            for j in chunk.len()..16 {
                if j == 8 {
                    out.push(' ');
                }
                out.push_str("   ");
            }
            out.push_str("   ");
            out.extend(chunk.iter().map(|&c| {
                if (0x20..0x7f).contains(&c) {
                    c as char
                } else {
                    '.'
                }
            }));
            out.push('\n');
        }
        out
    }

    #[test]
    fn hexdump_and_hex_match_the_format_reference() {
        let all: Vec<u8> = (0..=255u8).cycle().take(70_000).collect();
        for n in [
            0, 1, 7, 8, 9, 15, 16, 17, 31, 256, 4097, 65_536, 65_537, 70_000,
        ] {
            assert_eq!(hexdump(&all[..n]), hexdump_ref(&all[..n]), "{n} bytes");
            let h: String = all[..n].iter().map(|x| format!("{x:02x}")).collect();
            assert_eq!(hex(&all[..n]), h, "{n} bytes");
        }
    }

    use super::*;

    #[test]
    fn reads_are_checked() {
        let b = Bytes::new(&[1, 2, 3], "t");
        assert_eq!(b.be16(1).unwrap(), 0x0203);
        assert!(b.be16(2).is_err());
        assert!(b.slice(usize::MAX, 2).is_err());
        assert!(b.be_var(0, 9).is_err());
        assert_eq!(b.be_var(0, 3).unwrap(), 0x010203);
    }

    #[test]
    fn inhex_formats() {
        assert_eq!(
            parse_inhex("00 80 # comment\n0a,0b\n").unwrap(),
            vec![0, 0x80, 0x0a, 0x0b]
        );
        assert_eq!(
            parse_inhex(" 0000    00 00 05 02   ....\n").unwrap(),
            vec![0, 0, 5, 2]
        );
        assert!(parse_inhex("zz").is_err());
    }
}
