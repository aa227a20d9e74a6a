//! PINs (credentials): opaque bytes that never print, never serialise, and are wiped on drop.

use std::fmt;
use zeroize::Zeroizing;

/// A TCG credential (PIN, MSID, PSID). `Debug` and `Display` print `<redacted>`; the bytes
/// are zeroed when the value is dropped. There is deliberately no `Serialize`.
#[derive(Clone, PartialEq, Eq)]
pub struct Pin(Zeroizing<Vec<u8>>);

impl Pin {
    /// Wraps credential bytes.
    pub fn new(b: Vec<u8>) -> Pin {
        Pin(Zeroizing::new(b))
    }

    /// From a string (trailing CR/LF removed: PIN files usually end with a newline).
    pub fn from_text(s: &str) -> Pin {
        Pin::new(s.trim_end_matches(['\n', '\r']).as_bytes().to_vec())
    }

    /// The raw bytes, for the wire only.
    pub fn expose(&self) -> &[u8] {
        &self.0
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True if empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Debug for Pin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

impl fmt::Display for Pin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_prints() {
        let p = Pin::from_text("hunter2\n");
        assert_eq!(p.expose(), b"hunter2");
        assert_eq!(format!("{p:?} {p}"), "<redacted> <redacted>");
        assert!(!format!("{:?}", Some(p)).contains("hunter2"));
    }
}
