//! Text that reaches a terminal or a `.txt` file: the one place that escapes what a device, a
//! file or a command line could smuggle into it. A serial number, a device address, a model
//! string or a state file's field is data, not layout: a newline in it must not start a line
//! of its own (a forged `verification: PASSED`), an ESC must not drive the terminal, and a
//! bidirectional override (U+202E RLO) must not reorder what the reader sees.
//!
//! - [`escape`]: for a value placed inside a line. Every control character (C0 including
//!   newline and tab, DEL, C1), every bidirectional formatting character and the Unicode line
//!   and paragraph separators become visible escapes: `\n`, `\r`, `\t`, `\e`, `\u{202e}`.
//! - [`terminal_safe`]: for a whole rendering (many lines). The same, except that newline and
//!   tab are kept as layout. Every text written to stdout, stderr and `.txt` goes through it
//!   last, so a value a renderer forgot to [`escape`] can still not drive the terminal.
//!
//! JSON (serde_json) and HTML (the report renderers' own escaping) are encodings that carry
//! any character safely; they do not use this.

use std::borrow::Cow;

/// A character a text rendering must not carry raw (besides newline and tab, see
/// [`escape`]): C0/C1 controls, DEL, the bidirectional formatting characters (ALM, LRM, RLM,
/// LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI) and the line/paragraph separators.
fn unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
                | '\u{2028}'
                | '\u{2029}'
        )
}

fn push_escaped(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\u{1b}' => out.push_str("\\e"),
        c => {
            use std::fmt::Write as _;
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        }
    }
}

fn escape_where(s: &str, esc: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !s.chars().any(&esc) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if esc(c) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A value for one line of text: every control, bidi and separator character escaped
/// (newline and tab too). Plain text comes back borrowed, unchanged.
pub fn escape(s: &str) -> Cow<'_, str> {
    escape_where(s, unsafe_char)
}

/// A whole rendering: as [`escape`], but newline and tab stay layout.
pub fn terminal_safe(s: &str) -> Cow<'_, str> {
    escape_where(s, |c| c != '\n' && c != '\t' && unsafe_char(c))
}

/// A rendering made by someone else (clap's usage errors: several lines by design) that
/// quotes the command-line arguments `argv` as they were typed: every argument (and the value
/// of an `--opt=value`) that holds an unsafe character is replaced by its [`escape`]d form, so
/// a newline inside a quoted value cannot start a line of its own; then [`terminal_safe`].
pub fn quoting_args(text: &str, argv: &[String]) -> String {
    let mut out = text.to_string();
    let mut values: Vec<&str> = Vec::new();
    for a in argv {
        values.push(a);
        if let Some((_, v)) = a.split_once('=') {
            values.push(v);
        }
    }
    // Longest first: a value that contains another is replaced whole.
    values.sort_by_key(|v| std::cmp::Reverse(v.len()));
    for v in values {
        if !v.is_empty() && v.chars().any(unsafe_char) {
            out = out.replace(v, &escape(v));
        }
    }
    terminal_safe(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_cannot_start_lines_or_drive_the_terminal() {
        assert_eq!(escape("PX02SMF080"), "PX02SMF080");
        assert!(matches!(escape("plain"), Cow::Borrowed(_)));
        assert_eq!(
            escape("S1\nverification: PASSED"),
            "S1\\nverification: PASSED"
        );
        assert_eq!(escape("a\r\tb\u{1b}[2Jc"), "a\\r\\tb\\e[2Jc");
        assert_eq!(escape("x\u{202e}cod.exe"), "x\\u{202e}cod.exe");
        assert_eq!(escape("\u{7f}\u{85}\u{2028}"), "\\u{7f}\\u{85}\\u{2028}");
        // Printable non-ASCII stays as it is.
        assert_eq!(escape("Größe — 容量"), "Größe — 容量");
    }

    #[test]
    fn renderings_keep_their_lines() {
        assert_eq!(terminal_safe("a: 1\nb:\t2\n"), "a: 1\nb:\t2\n");
        assert_eq!(terminal_safe("a\u{1b}]0;x\u{7}\n"), "a\\e]0;x\\u{7}\n");
        assert_eq!(terminal_safe("r\u{202e}\r\n"), "r\\u{202e}\\r\n");
    }

    #[test]
    fn quoted_arguments_in_a_multi_line_rendering_stay_on_their_line() {
        let argv: Vec<String> = vec![
            "sgctl".into(),
            "--timeout".into(),
            "1\nverification: PASSED".into(),
            "--pin-env=X\nY".into(),
        ];
        let clap = "error: invalid value '1\nverification: PASSED' for '--timeout <S>'\n\n\
                    For more information, try '--help'.\n";
        let t = quoting_args(clap, &argv);
        assert_eq!(
            t,
            "error: invalid value '1\\nverification: PASSED' for '--timeout <S>'\n\n\
             For more information, try '--help'.\n"
        );
        assert!(!t.lines().any(|l| l.starts_with("verification")), "{t}");
        assert_eq!(quoting_args("a 'X\nY' b\n", &argv), "a 'X\\nY' b\n");
    }

    proptest::proptest! {
        /// Whatever the input, an escaped value is one line with no control or bidi character,
        /// and a safe rendering has no control character but newline and tab.
        #[test]
        fn nothing_unsafe_survives(s in "\\PC*|[\\x00-\\x20\\u{7f}-\\u{9f}\\u{202a}-\\u{202e}\\u{2066}-\\u{2069}a-z]{0,40}") {
            proptest::prop_assert!(!escape(&s).chars().any(unsafe_char));
            proptest::prop_assert!(!terminal_safe(&s)
                .chars()
                .any(|c| c != '\n' && c != '\t' && unsafe_char(c)));
        }
    }
}
