//! Shared helpers of the fuzz targets: feeding `sgctl decode`'s path (parser, text renderer,
//! JSON serializer) and picking a page decoder from the first input byte so every decoder of a
//! family gets an equal share of the executions.

use sgctl::decode::{decode_into, DecodeOut, Kind};

/// Serializes the decoded value as JSON into a sink: every `Serialize` impl of the decoded
/// types runs (and the JSON writer), without building the envelope's `serde_json::Value` and a
/// second string from it, which cost most of a target's time (generic serde code, not ours).
struct Sink;

impl DecodeOut for Sink {
    type Out = ();
    fn out<T: serde::Serialize>(self, data: &T, text: String, _exit: u8) {
        let _ = serde_json::to_writer(std::io::sink(), data);
        std::hint::black_box(text);
    }
}

/// Runs the `sgctl decode --as KIND` path on `data`: parse, render text, serialize JSON.
/// Errors are fine; panics are what the fuzzer finds.
pub fn decode_all(data: &[u8], kind: Kind, six: bool) {
    let _ = decode_into(data, kind, six, Sink);
}

/// Splits `data` into a selector byte and the rest; `None` if empty.
pub fn select(data: &[u8]) -> Option<(u8, Vec<u8>)> {
    let (&s, rest) = data.split_first()?;
    Some((s, rest.to_vec()))
}

/// Forces byte `at` of `buf` to `v` (when present) so a decoder keyed on it is reached.
pub fn force(buf: &mut [u8], at: usize, v: u8) {
    if let Some(b) = buf.get_mut(at) {
        *b = v;
    }
}
