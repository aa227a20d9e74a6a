//! Shared helpers of the fuzz targets: feeding `sgctl decode`'s path (parser, text renderer,
//! JSON serializer) and picking a page decoder from the first input byte so every decoder of a
//! family gets an equal share of the executions.

use sgctl::cli::decode::{decode, Kind};

/// Runs the `sgctl decode --as KIND` path on `data`: parse, render text, serialize JSON.
/// Errors are fine; panics are what the fuzzer finds.
pub fn decode_all(data: &[u8], kind: Kind, six: bool) {
    if let Ok(r) = decode(data, kind, six) {
        let _ = serde_json::to_string(&r.data);
        let _ = r.text.len();
    }
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
