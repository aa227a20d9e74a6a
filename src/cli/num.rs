//! Numbers from the command line: the one place that turns a flag's text into a duration, a
//! size, a count or a percentage. Every parser here refuses what is not finite (`NaN`, `inf`),
//! negative where that makes no sense, or outside the range the flag documents, with a message
//! that names the range; clap turns the refusal into a usage error (exit 2). Nothing that
//! reaches a `Duration`, a loop bound or a CDB is left to a later `clamp` or `as` cast.
//!
//! The functions have the signature clap's `value_parser` takes (`fn(&str) -> Result<T,
//! String>`), so a flag uses them as `#[arg(value_parser = num::poll_seconds)]`.

use std::time::Duration;

/// Seconds as a finite number in `min..=max`, spelled as a duration: `30`, `30s`, `500ms`,
/// `5m`, `1h` (a bare number is seconds).
pub(crate) fn seconds_in(s: &str, min: f64, max: f64) -> Result<f64, String> {
    let (num, mul) = unit(s.trim());
    let v = finite(num, "a duration (e.g. 30s, 500ms, 5m)")
        .map_err(|_| format!("'{s}' is not a duration (e.g. 30s, 500ms, 5m)"))?
        * mul;
    if !v.is_finite() {
        return Err(format!("'{s}' is not a duration: it must be finite"));
    }
    if v < min || v > max {
        return Err(format!("'{s}' is out of range ({min}..={max} seconds)"));
    }
    Ok(v)
}

/// Seconds between progress polls: 0 (poll as fast as the drive answers) to one hour.
pub(crate) fn poll_seconds(s: &str) -> Result<f64, String> {
    seconds_in(s, 0.0, 3600.0)
}

/// A timeout in seconds: more than 0, at most a week.
pub(crate) fn timeout_seconds(s: &str) -> Result<f64, String> {
    let v = seconds_in(s, 0.0, 7.0 * 86400.0)?;
    if v <= 0.0 {
        return Err(format!("'{s}' must be more than 0 seconds"));
    }
    Ok(v)
}

/// A span of (virtual) time in seconds: 0 to 100 years, so that it fits a `Duration` and a
/// nanosecond clock.
// Used by the `sim` commands only; parsed and tested in every build.
#[cfg_attr(not(feature = "sim"), allow(dead_code))]
pub(crate) fn span_seconds(s: &str) -> Result<f64, String> {
    seconds_in(s, 0.0, 100.0 * 365.0 * 86400.0)
}

/// A wait in whole seconds (rounded up), 0 to one day.
// Used by the `sim` commands only; parsed and tested in every build.
#[cfg_attr(not(feature = "sim"), allow(dead_code))]
pub(crate) fn wait_seconds(s: &str) -> Result<u64, String> {
    Ok(seconds_in(s, 0.0, 86400.0)?.ceil() as u64)
}

/// A whole percentage in `0..=100` (`50` or `50%`).
// Used by the `sim` commands only; parsed and tested in every build.
#[cfg_attr(not(feature = "sim"), allow(dead_code))]
pub(crate) fn percent_whole(s: &str) -> Result<u8, String> {
    let v = percent(s)?;
    if v.fract() != 0.0 {
        return Err(format!("'{s}' must be a whole percentage"));
    }
    Ok(v as u8)
}

/// A percentage in `0..=100`, with or without the sign: `50` or `50%`.
pub(crate) fn percent(s: &str) -> Result<f64, String> {
    let t = s.trim();
    let v = finite(t.strip_suffix('%').unwrap_or(t), "a percentage")
        .map_err(|_| format!("'{s}' is not a percentage (e.g. 50 or 50%)"))?;
    if !(0.0..=100.0).contains(&v) {
        return Err(format!("'{s}' is out of range (0..=100 %)"));
    }
    Ok(v)
}

/// A percentage in `(0, 100]`: more than nothing.
pub(crate) fn percent_positive(s: &str) -> Result<f64, String> {
    let v = percent(s)?;
    if v <= 0.0 {
        return Err(format!("'{s}' must be more than 0 %"));
    }
    Ok(v)
}

/// A fraction in `(0, 1]`.
pub(crate) fn fraction_positive(s: &str) -> Result<f64, String> {
    let v = finite(s, "a number")?;
    if !(v > 0.0 && v <= 1.0) {
        return Err(format!("'{s}' is out of range (0 < F <= 1)"));
    }
    Ok(v)
}

/// A size in GiB, more than 0 and at most 1 PiB (2^20 GiB).
// Used by the `sim` commands only; parsed and tested in every build.
#[cfg_attr(not(feature = "sim"), allow(dead_code))]
pub(crate) fn gib(s: &str) -> Result<f64, String> {
    let v = finite(s, "a size in GiB")?;
    if !(v > 0.0 && v <= (1u64 << 20) as f64) {
        return Err(format!("'{s}' is out of range (0 < GiB <= 1048576)"));
    }
    Ok(v)
}

/// A duration: `10`, `10s`, `500ms`, `250us`, `2m`, `1h`, `1.5s`; finite, not negative, under
/// 10^9 seconds.
pub(crate) fn duration(s: &str) -> Result<Duration, String> {
    let (num, mul) = unit(s.trim());
    let v: f64 = num
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a duration (e.g. 10s, 500ms, 2m)"))?;
    if !(v.is_finite() && v >= 0.0 && v * mul < 1e9) {
        return Err(format!("'{s}' is out of range (0 to 10^9 seconds)"));
    }
    Duration::try_from_secs_f64(v * mul).map_err(|e| format!("'{s}': {e}"))
}

/// A size in bytes: `4096`, `4k`, `4KiB`, `1m`, `2g`, `1t` (binary multiples, as fio); no
/// overflow.
pub(crate) fn size(s: &str) -> Result<u64, String> {
    sgctl::bench::workload::parse_size(s)
}

/// An unsigned integer: decimal, `0x48` or `48h` (hex), that fits `T`.
pub(crate) fn int<T: TryFrom<u64>>(s: &str) -> Result<T, String> {
    let t = s.trim().to_ascii_lowercase();
    let v = if let Some(h) = t.strip_prefix("0x") {
        u64::from_str_radix(h, 16)
    } else if let Some(h) = t.strip_suffix('h') {
        u64::from_str_radix(h, 16)
    } else {
        t.parse::<u64>()
    }
    .map_err(|e| format!("'{s}': {e}"))?;
    T::try_from(v).map_err(|_| format!("'{s}' is out of range"))
}

/// A byte-sized code (page, log address): decimal or `0x` hex, 0..=255, and at most `max`.
pub(crate) fn code(s: &str, what: &str, max: u8) -> Result<u8, String> {
    let t = s.trim();
    let v = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u8::from_str_radix(h, 16),
        None => t.parse::<u8>(),
    }
    .map_err(|_| format!("'{t}' is not {what} (decimal or 0x hex, 0..{max:#04x})"))?;
    if v > max {
        return Err(format!("{what} {v:#04x} is out of range (0..{max:#04x})"));
    }
    Ok(v)
}

/// A finite `f64` (`NaN`, `inf` and `1e999` refused).
/// Splits a duration's unit off: `ms`, `us`, `s`, `m`, `h`, or none (seconds). Returns the
/// number's text and the seconds per unit.
fn unit(t: &str) -> (&str, f64) {
    if let Some(n) = t.strip_suffix("ms") {
        (n, 1e-3)
    } else if let Some(n) = t.strip_suffix("us") {
        (n, 1e-6)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60.0)
    } else if let Some(n) = t.strip_suffix('h') {
        (n, 3600.0)
    } else {
        (t, 1.0)
    }
}

fn finite(s: &str, what: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not {what}"))?;
    if !v.is_finite() {
        return Err(format!("'{s}' is not {what}: it must be a finite number"));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_finite_numbers_are_refused_everywhere() {
        for bad in ["NaN", "nan", "inf", "-inf", "infinity", "1e999", "", "x"] {
            assert!(poll_seconds(bad).is_err(), "{bad}");
            assert!(timeout_seconds(bad).is_err(), "{bad}");
            assert!(span_seconds(bad).is_err(), "{bad}");
            assert!(percent(bad).is_err(), "{bad}");
            assert!(percent_positive(bad).is_err(), "{bad}");
            assert!(fraction_positive(bad).is_err(), "{bad}");
            assert!(gib(bad).is_err(), "{bad}");
            assert!(duration(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn seconds_and_percentages_take_the_one_spelling() {
        assert_eq!(poll_seconds("30s"), Ok(30.0));
        assert_eq!(poll_seconds("500ms"), Ok(0.5));
        assert_eq!(timeout_seconds("5m"), Ok(300.0));
        assert_eq!(span_seconds("1h"), Ok(3600.0));
        assert!(poll_seconds("2h").is_err());
        assert!(poll_seconds("-1s").is_err());
        assert!(poll_seconds("s").is_err());
        assert_eq!(percent("50%"), Ok(50.0));
        assert_eq!(percent(" 50 % "), Ok(50.0));
        assert!(percent("50%%").is_err());
        assert_eq!(percent_positive("100%"), Ok(100.0));
        assert!(percent("101%").is_err());
    }

    #[test]
    fn ranges_are_enforced() {
        assert_eq!(poll_seconds("0"), Ok(0.0));
        assert_eq!(poll_seconds("0.5"), Ok(0.5));
        assert_eq!(poll_seconds("3600"), Ok(3600.0));
        assert!(poll_seconds("3601").is_err());
        assert!(poll_seconds("-1").is_err());
        assert!(timeout_seconds("0").is_err());
        assert!(timeout_seconds("1e300").is_err());
        assert_eq!(timeout_seconds("60"), Ok(60.0));
        assert!(span_seconds("1e300").is_err());
        assert!(span_seconds("-0.5").is_err());
        assert_eq!(percent("100"), Ok(100.0));
        assert!(percent("100.5").is_err());
        assert!(percent_positive("0").is_err());
        assert!(fraction_positive("0").is_err());
        assert!(fraction_positive("1.5").is_err());
        assert_eq!(fraction_positive("0.25"), Ok(0.25));
        assert!(gib("0").is_err());
        assert_eq!(gib("8"), Ok(8.0));
        assert_eq!(duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(duration("2m"), Ok(Duration::from_secs(120)));
        assert!(duration("-1s").is_err());
        assert!(duration("1e9").is_err());
        assert_eq!(int::<u8>("0x48"), Ok(0x48));
        assert_eq!(int::<u8>("48h"), Ok(0x48));
        assert!(int::<u8>("256").is_err());
        assert_eq!(code("0x3f", "a page code", 0x3f), Ok(0x3f));
        assert!(code("0x99", "a page code", 0x3f).is_err());
        assert!(code("300", "a log address", 0xff).is_err());
        assert_eq!(size("4k"), Ok(4096));
        assert!(size("99999999999999999999t").is_err());
    }

    proptest::proptest! {
        /// Whatever the text, the parsers return a value in range or an error; no panic.
        #[test]
        fn any_text_is_a_value_in_range_or_an_error(s in ".{0,24}") {
            if let Ok(v) = poll_seconds(&s) { proptest::prop_assert!((0.0..=3600.0).contains(&v)); }
            if let Ok(v) = percent(&s) { proptest::prop_assert!((0.0..=100.0).contains(&v)); }
            if let Ok(d) = duration(&s) { proptest::prop_assert!(d.as_secs_f64() < 1e9); }
            let _ = size(&s);
            let _ = int::<u32>(&s);
            let _ = code(&s, "a code", 0x3f);
        }
    }
}
