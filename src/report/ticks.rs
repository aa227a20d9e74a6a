//! Axis ranges, tick positions and tick labels for the report charts: a pure module (no
//! drawing), so every degenerate series has a tested answer.
//!
//! - Linear axes use the "nice numbers" of Heckbert (Graphics Gems, 1990, "Nice numbers for
//!   graph labels"): a step of 1, 2 or 5 × 10^k, the axis widened to whole steps around the
//!   data ("loose" labelling), so the first and last ticks are labelled and the axis ends within
//!   one step of the data.
//! - A flat series or a single value gets a range around the value (never a zero-width axis).
//! - Log axes label every decade when there are enough of them, 1-2-5 subdivisions when there
//!   are few, and nice linear values inside one decade (800, 900, 1000).
//! - Integer axes (counts, queue depths, rounds) never get a fractional tick.
//! - A cap (a fraction axis ends at 1) bounds the axis whatever the margins would add.
//! - Labels use SI prefixes (k, M, G, T, P, E) with the precision the step needs, so two ticks
//!   never print the same label.

/// What the caller knows about an axis.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct AxisOpts {
    /// Logarithmic.
    pub log: bool,
    /// Only whole numbers are meaningful (counts, queue depth, round number).
    pub integer: bool,
    /// Start a linear axis at zero when the data is all positive.
    pub from_zero: bool,
    /// Upper bound of the axis whatever the data (a fraction axis: 1).
    pub max: Option<f64>,
}

/// A finished axis: its range, its ticks and their labels.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Axis {
    /// Lower end.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
    /// Logarithmic.
    pub log: bool,
    /// Labelled tick positions, ascending, all within `lo..=hi`.
    pub ticks: Vec<f64>,
    /// One label per tick.
    pub labels: Vec<String>,
    /// Unlabelled grid positions (the 2..9 of each decade on a log axis).
    pub minor: Vec<f64>,
}

impl Axis {
    /// Position of `v` along the axis: 0 at `lo`, 1 at `hi` (outside when `v` is).
    pub(crate) fn frac(&self, v: f64) -> f64 {
        if self.log {
            let (a, b) = (self.lo.ln(), self.hi.ln());
            if b > a && v > 0.0 {
                (v.ln() - a) / (b - a)
            } else if v <= 0.0 {
                -1.0
            } else {
                0.5
            }
        } else if self.hi > self.lo {
            (v - self.lo) / (self.hi - self.lo)
        } else {
            0.5
        }
    }

    /// The same axis with every `k`-th tick kept (used when labels would not fit).
    pub(crate) fn thinned(&self, k: usize) -> Axis {
        let k = k.max(1);
        let keep: Vec<usize> = (0..self.ticks.len()).filter(|i| i % k == 0).collect();
        Axis {
            ticks: keep.iter().map(|&i| self.ticks[i]).collect(),
            labels: keep.iter().map(|&i| self.labels[i].clone()).collect(),
            ..self.clone()
        }
    }
}

/// Heckbert's nice number: 1, 2, 5 or 10 × 10^k near `x` (rounded when `round`, else the
/// smallest such number at least `x`).
pub(crate) fn nice_num(x: f64, round: bool) -> f64 {
    if !(x.is_finite() && x > 0.0) {
        return 1.0;
    }
    let e = x.log10().floor();
    let p = 10f64.powf(e);
    let f = x / p;
    let n = if round {
        if f < 1.5 {
            1.0
        } else if f < 3.0 {
            2.0
        } else if f < 7.0 {
            5.0
        } else {
            10.0
        }
    } else if f <= 1.0 {
        1.0
    } else if f <= 2.0 {
        2.0
    } else if f <= 5.0 {
        5.0
    } else {
        10.0
    };
    n * p
}

/// The range to label when the data is one value (or none wide): around the value.
fn widen(lo: f64, hi: f64, o: &AxisOpts) -> (f64, f64) {
    if hi > lo {
        return (lo, hi);
    }
    let v = lo;
    let (lo, hi) = if o.log {
        if o.integer && v >= 1.0 {
            ((v / 2.0).max(1.0), v * 2.0)
        } else {
            (v / 2.0, v * 2.0)
        }
    } else {
        let d = if o.integer || v == 0.0 {
            1.0
        } else {
            v.abs() * 0.1
        };
        (v - d, v + d)
    };
    // A capped axis (a fraction) stays capped: 1 as the only value gives 0.5..1, not 0.5..2.
    match o.max {
        Some(m) if v <= m && hi > m => {
            let lo = if o.log {
                lo.min(m / 10.0)
            } else {
                lo.min(m - (hi - m) * 2.0)
            };
            (lo, m)
        }
        _ => (lo, hi),
    }
}

/// Linear ticks: Heckbert's loose labelling with about `n` ticks.
fn linear(lo: f64, hi: f64, n: usize, o: &AxisOpts) -> Axis {
    let (mut lo, mut hi) = (lo, hi);
    if o.from_zero {
        lo = lo.min(0.0);
        hi = hi.max(0.0);
    }
    let (lo, hi) = widen(lo, hi, o);
    let n = n.max(2) as f64;
    let range = nice_num(hi - lo, false);
    let mut step = nice_num(range / (n - 1.0), true);
    if o.integer {
        step = step.max(1.0).round();
    }
    let k0 = (lo / step + 1e-9).floor();
    let k1 = (hi / step - 1e-9).ceil();
    let mut ticks: Vec<f64> = (0..=((k1 - k0).max(1.0) as i64).min(1000))
        .map(|i| clean((k0 + i as f64) * step, step))
        .collect();
    let mut top = ticks.last().copied().unwrap_or(hi);
    let bottom = ticks.first().copied().unwrap_or(lo);
    if let Some(m) = o.max.filter(|m| *m > bottom && *m >= hi - 1e-12 * hi.abs()) {
        ticks.retain(|t| *t <= m * (1.0 + 1e-12));
        top = top.min(m);
    }
    let labels = label_linear(&ticks, step);
    Axis {
        lo: bottom,
        hi: top,
        log: false,
        ticks,
        labels,
        minor: Vec::new(),
    }
}

/// Rounds away the float noise of `k * step` (0.30000000000000004 → 0.3).
fn clean(v: f64, step: f64) -> f64 {
    let q = 10f64.powf((step.abs().log10().floor() - 3.0).min(300.0));
    if q > 0.0 && q.is_finite() {
        (v / q).round() * q
    } else {
        v
    }
}

/// The values 1, 2, 5 × 10^k from `lo` to `hi` (both inclusive, within a tolerance).
fn one_two_five(lo: f64, hi: f64) -> Vec<f64> {
    let mut out = Vec::new();
    let e0 = lo.log10().floor() as i32 - 1;
    let e1 = hi.log10().ceil() as i32 + 1;
    for e in e0..=e1 {
        for m in [1.0, 2.0, 5.0] {
            let v = m * 10f64.powi(e);
            if v >= lo * (1.0 - 1e-9) && v <= hi * (1.0 + 1e-9) {
                out.push(v);
            }
        }
    }
    out
}

/// The largest 1-2-5 value ≤ `v` and the smallest ≥ `v`.
fn grid_125(v: f64) -> (f64, f64) {
    let e = v.log10().floor() as i32;
    let mut below = 10f64.powi(e);
    let mut above = 10f64.powi(e + 1);
    for m in [1.0, 2.0, 5.0, 10.0] {
        let g = m * 10f64.powi(e);
        if g <= v * (1.0 + 1e-9) {
            below = g;
        }
        if g >= v * (1.0 - 1e-9) && g < above {
            above = g;
        }
    }
    (below, above)
}

/// Log ticks with at most `n` labels.
fn logarithmic(lo: f64, hi: f64, n: usize, o: &AxisOpts) -> Axis {
    let (lo, hi) = widen(lo, hi, o);
    let n = n.max(2);
    let mut glo = grid_125(lo).0;
    let mut ghi = grid_125(hi).1;
    if let Some(m) = o.max.filter(|m| *m >= hi && *m > glo) {
        ghi = ghi.min(m);
    }
    if o.integer && lo >= 1.0 {
        glo = glo.max(1.0);
    }
    let decades: Vec<f64> = one_two_five(glo, ghi)
        .into_iter()
        .filter(|v| (v.log10() - v.log10().round()).abs() < 1e-9)
        .collect();
    let subdivided = one_two_five(glo, ghi);
    let axis = |ticks: Vec<f64>, lo: f64, hi: f64| {
        let labels = label_each(&ticks);
        let minor = if decades.len() >= 2 && decades.len() <= 14 {
            minor_decades(lo, hi)
        } else {
            Vec::new()
        };
        Axis {
            lo,
            hi,
            log: true,
            ticks,
            labels,
            minor,
        }
    };
    if subdivided.len() >= 3 && subdivided.len() <= n {
        // About a decade with few 1-2-5 marks (100, 200, 500): evenly spaced values read
        // better (100, 200, 300, 400, 500).
        if subdivided.len() < 5 && ghi / glo <= 20.0 {
            let step = nice_num((ghi - glo) / (n.min(6) - 1).max(1) as f64, true);
            let step = if o.integer {
                step.max(1.0).round()
            } else {
                step
            };
            let k0 = (glo / step - 1e-9).ceil().max(1.0);
            let k1 = (ghi / step + 1e-9).floor();
            if k1 - k0 + 1.0 > subdivided.len() as f64 && k1 - k0 < 20.0 {
                let ticks: Vec<f64> = (0..=((k1 - k0) as i64))
                    .map(|i| clean((k0 + i as f64) * step, step))
                    .collect();
                let labels = label_linear(&ticks, step);
                return Axis {
                    lo: glo,
                    hi: ghi,
                    log: true,
                    ticks,
                    labels,
                    minor: Vec::new(),
                };
            }
        }
        return axis(subdivided, glo, ghi);
    }
    if decades.len() >= 3 || (decades.len() == 2 && subdivided.len() > n) {
        // Every decade, or every k-th one when there are more decades than room.
        let k = decades.len().div_ceil(n).max(1);
        let ticks: Vec<f64> = decades.iter().copied().step_by(k).collect();
        return axis(ticks, glo, ghi);
    }
    // Less than a decade: nice linear values on the log scale (800, 900, 1000).
    let lin = linear(lo, hi, n.min(6), &AxisOpts { log: false, ..*o });
    if lin.lo > 0.0 && lin.ticks.len() >= 2 {
        let mut a = axis(lin.ticks, lin.lo, lin.hi);
        a.labels = lin.labels;
        a.minor.clear();
        return a;
    }
    axis(subdivided, glo, ghi)
}

/// 2..9 × 10^k between `lo` and `hi`.
fn minor_decades(lo: f64, hi: f64) -> Vec<f64> {
    let mut out = Vec::new();
    let (e0, e1) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    for e in e0..=e1 {
        for m in 2..=9 {
            let v = f64::from(m) * 10f64.powi(e);
            if v > lo && v < hi {
                out.push(v);
            }
        }
    }
    out
}

/// The axis for data from `lo` to `hi` with about `n` labelled ticks. Non-finite bounds give
/// the axis 0..1; a log axis ignores values ≤ 0 (the caller filters them).
pub(crate) fn axis(lo: f64, hi: f64, opts: &AxisOpts, n: usize) -> Axis {
    let (lo, hi) = if lo.is_finite() && hi.is_finite() && lo <= hi {
        (lo, hi)
    } else {
        (0.0, 1.0)
    };
    if opts.log && lo > 0.0 {
        logarithmic(lo, hi, n, opts)
    } else {
        linear(lo, hi, n, opts)
    }
}

const PREFIX: [&str; 7] = ["", "k", "M", "G", "T", "P", "E"];

/// The SI prefix exponent (a multiple of 3, 0..=18) for a magnitude.
fn prefix_exp(mag: f64) -> i32 {
    if mag < 1e3 || !mag.is_finite() {
        0
    } else {
        ((mag.log10() / 3.0).floor() as i32 * 3).clamp(0, 18)
    }
}

/// Labels for evenly spaced ticks: one SI prefix for the axis, the decimals the step needs.
pub(crate) fn label_linear(ticks: &[f64], step: f64) -> Vec<String> {
    let mag = ticks.iter().fold(0.0f64, |m, t| m.max(t.abs()));
    if mag > 0.0 && mag < 1e-3 {
        return label_each(ticks);
    }
    let e = prefix_exp(mag);
    let scale = 10f64.powi(e);
    let s = step / scale;
    let mut dec = if s > 0.0 && s.is_finite() {
        (-(s.log10() + 1e-9).floor()).max(0.0) as usize
    } else {
        0
    };
    if e == 3 && dec > 0 && mag < 1e4 && step >= 1.0 && step.fract() == 0.0 {
        // Whole numbers under 10,000 in steps that "k" would print as 0.2k, 0.4k, ...:
        // 200, 400, ..., 1,600 as people write them.
        return ticks
            .iter()
            .map(|t| {
                let r = t.round();
                let g = super::chart::count(r.abs() as u64);
                if r < 0.0 {
                    format!("-{g}")
                } else {
                    g
                }
            })
            .collect();
    }
    loop {
        let labels: Vec<String> = ticks
            .iter()
            .map(|t| {
                let v = t / scale;
                if v == 0.0 {
                    "0".to_string()
                } else {
                    format!("{v:.dec$}{}", PREFIX[(e / 3) as usize])
                }
            })
            .collect();
        if distinct(&labels) || dec >= 12 {
            return labels;
        }
        dec += 1;
    }
}

/// Labels for ticks that are not evenly spaced (log axes): each with its own prefix.
pub(crate) fn label_each(ticks: &[f64]) -> Vec<String> {
    let mut sig = 3;
    loop {
        let labels: Vec<String> = ticks.iter().map(|t| si(*t, sig)).collect();
        if distinct(&labels) || sig >= 15 {
            return labels;
        }
        sig += 1;
    }
}

fn distinct(labels: &[String]) -> bool {
    labels.windows(2).all(|w| w[0] != w[1])
}

/// `v` with an SI prefix and at most `sig` significant digits: 2.5k, 120M, 0.05, 1e-5.
pub(crate) fn si(v: f64, sig: usize) -> String {
    if !v.is_finite() {
        return "–".into();
    }
    let a = v.abs();
    if a == 0.0 {
        return "0".into();
    }
    if a < 1e-3 {
        let s = format!("{:.*e}", sig.saturating_sub(1), v);
        // 1.00e-5 → 1e-5
        return match s.split_once('e') {
            Some((m, x)) => format!("{}e{x}", trim(m)),
            None => s,
        };
    }
    let e = prefix_exp(a);
    let x = v / 10f64.powi(e);
    let digits = x.abs().log10().floor() as i32 + 1;
    let dec = (sig as i32 - digits).max(0) as usize;
    format!(
        "{}{}",
        trim(&format!("{x:.dec$}")),
        PREFIX[(e / 3) as usize]
    )
}

fn trim(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

/// A value for people: SI prefix and 3 significant digits; "–" for an absent value.
#[cfg(test)]
pub(crate) fn human_opt(v: Option<f64>) -> String {
    match v {
        Some(v) if v.is_finite() => super::chart::human(v),
        _ => "–".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lin() -> AxisOpts {
        AxisOpts::default()
    }

    fn log() -> AxisOpts {
        AxisOpts {
            log: true,
            ..AxisOpts::default()
        }
    }

    fn well_formed(a: &Axis) {
        assert!(a.lo < a.hi, "{a:?}");
        assert_eq!(a.ticks.len(), a.labels.len());
        assert!(a.ticks.len() >= 2, "fewer than 2 ticks: {a:?}");
        assert!(a.ticks.windows(2).all(|w| w[0] < w[1]), "{a:?}");
        for t in &a.ticks {
            let tol = 1e-9 * (a.hi - a.lo).abs().max(a.lo.abs()).max(a.hi.abs());
            assert!(*t >= a.lo - tol && *t <= a.hi + tol, "{t} outside {a:?}");
        }
        assert!(distinct(&a.labels), "repeated labels: {:?}", a.labels);
        assert!(a.labels.iter().all(|l| !l.is_empty()), "{:?}", a.labels);
    }

    #[test]
    fn nice_numbers_are_one_two_five() {
        assert_eq!(nice_num(0.7, true), 0.5);
        assert_eq!(nice_num(2.4, true), 2.0);
        assert_eq!(nice_num(3.1, false), 5.0);
        assert_eq!(nice_num(870.0, false), 1000.0);
        assert_eq!(nice_num(0.0, true), 1.0);
    }

    #[test]
    fn linear_axis_hugs_the_data() {
        let a = axis(3.0, 97.0, &lin(), 6);
        well_formed(&a);
        assert_eq!((a.lo, a.hi), (0.0, 100.0));
        assert_eq!(a.labels, ["0", "20", "40", "60", "80", "100"]);
    }

    /// A flat series had a y axis without a tick label (a zero-width range).
    #[test]
    fn flat_series_gets_a_range_around_the_value() {
        for v in [1234.5, 0.0, -3.0, 1e-7, 5e12] {
            let a = axis(v, v, &lin(), 6);
            well_formed(&a);
            assert!(a.lo < v && v < a.hi, "{v}: {a:?}");
            assert!(a.ticks.len() >= 3, "{v}: {a:?}");
        }
        let a = axis(42.0, 42.0, &log(), 6);
        well_formed(&a);
        assert!(a.lo < 42.0 && a.hi > 42.0);
    }

    /// Round numbers, queue depths and counts had ticks at 1.5, 2.5.
    #[test]
    fn integer_axes_have_whole_ticks() {
        let int = AxisOpts {
            integer: true,
            ..lin()
        };
        for (lo, hi) in [(1.0, 3.0), (1.0, 5.0), (0.0, 2.0), (7.0, 7.0), (1.0, 1.0)] {
            let a = axis(lo, hi, &int, 8);
            well_formed(&a);
            assert!(a.ticks.iter().all(|t| t.fract() == 0.0), "{a:?}");
            assert!(a.labels.iter().all(|l| !l.contains('.')), "{a:?}");
        }
        let a = axis(1.0, 3.0, &lin(), 8);
        assert!(
            a.ticks.iter().any(|t| t.fract() != 0.0),
            "the default is not integer"
        );
        let q = axis(
            1.0,
            2.0,
            &AxisOpts {
                integer: true,
                ..log()
            },
            8,
        );
        well_formed(&q);
        assert!(q.ticks.iter().all(|t| t.fract() == 0.0), "{q:?}");
    }

    /// Histogram y ticks read `0.04 0.04 0.04 0.03`: the precision came from the value.
    #[test]
    fn consecutive_ticks_never_share_a_label() {
        let a = axis(0.0, 0.047, &lin(), 10);
        well_formed(&a);
        assert!(a.labels.contains(&"0.035".to_string()), "{:?}", a.labels);
        for (lo, hi) in [
            (0.0301, 0.0449),
            (999.0, 1001.0),
            (1_000_000.0, 1_000_050.0),
            (0.0, 1e-6),
            (-1e-4, 3e-4),
            (12_000.0, 12_600.0),
        ] {
            well_formed(&axis(lo, hi, &lin(), 8));
        }
        for (lo, hi) in [(800.0, 1000.0), (5.0, 7.0), (1e-5, 2e-5), (99.0, 101.0)] {
            well_formed(&axis(lo, hi, &log(), 8));
        }
    }

    /// Log axes labelled some decades and ran labels together (`8009001000`).
    #[test]
    fn log_axes_with_few_decades_are_labelled() {
        // Less than a decade: nice linear values, all labelled, near the data.
        let a = axis(800.0, 1000.0, &log(), 6);
        well_formed(&a);
        assert!(
            a.ticks.len() >= 3 && a.lo >= 700.0 && a.hi <= 1100.0,
            "{a:?}"
        );
        // One to two decades: 1-2-5 subdivisions.
        let a = axis(30.0, 900.0, &log(), 8);
        well_formed(&a);
        assert_eq!(a.labels, ["20", "50", "100", "200", "500", "1k"]);
        // Many decades: every decade labelled.
        let a = axis(3.0, 2e6, &log(), 10);
        well_formed(&a);
        assert_eq!(a.labels, ["10", "100", "1k", "10k", "100k", "1M"]);
        assert!(!a.minor.is_empty());
        // More decades than room: every other decade, still decades.
        let a = axis(1e-18, 1e18, &log(), 8);
        well_formed(&a);
        assert!(a.ticks.len() <= 8);
        assert!(a
            .ticks
            .iter()
            .all(|t| (t.log10() - t.log10().round()).abs() < 1e-9));
    }

    /// The exceedance axis (a fraction) went up to 10.
    #[test]
    fn fraction_axis_is_capped_at_one() {
        let frac = AxisOpts {
            max: Some(1.0),
            ..log()
        };
        let a = axis(1e-5, 0.98, &frac, 8);
        well_formed(&a);
        assert_eq!(a.hi, 1.0);
        assert_eq!(a.labels.last().map(String::as_str), Some("1"));
        assert!(a.labels.contains(&"1e-5".to_string()), "{:?}", a.labels);
        let l = axis(
            0.0,
            0.93,
            &AxisOpts {
                max: Some(1.0),
                ..lin()
            },
            6,
        );
        well_formed(&l);
        assert_eq!(l.hi, 1.0);
    }

    /// One value on a capped or an integer log axis: the cap and whole numbers still hold.
    #[test]
    fn single_value_keeps_cap_and_integers() {
        let a = axis(
            1.0,
            1.0,
            &AxisOpts {
                max: Some(1.0),
                ..log()
            },
            8,
        );
        well_formed(&a);
        assert_eq!(a.hi, 1.0);
        let a = axis(
            1.0,
            1.0,
            &AxisOpts {
                max: Some(1.0),
                ..lin()
            },
            8,
        );
        well_formed(&a);
        assert_eq!(a.hi, 1.0);
        for qd in [1.0, 4.0, 32.0] {
            let a = axis(
                qd,
                qd,
                &AxisOpts {
                    integer: true,
                    ..log()
                },
                8,
            );
            well_formed(&a);
            assert!(a.ticks.iter().all(|t| t.fract() == 0.0), "{a:?}");
        }
    }

    /// The IOPS-by-mix chart ran to 100M for data under 117k.
    #[test]
    fn axis_ends_near_the_data() {
        let a = axis(400.0, 116_800.0, &log(), 8);
        well_formed(&a);
        assert!(a.hi <= 200_000.0 && a.lo >= 100.0, "{a:?}");
        let a = axis(0.0, 116_800.0, &lin(), 8);
        assert!(a.hi <= 140_000.0, "{a:?}");
    }

    /// About a decade: evenly spaced values rather than three 1-2-5 marks.
    #[test]
    fn log_axis_within_a_decade_has_even_ticks() {
        let a = axis(98.0, 453.0, &log(), 8);
        well_formed(&a);
        assert_eq!(a.labels, ["100", "200", "300", "400", "500"]);
    }

    /// GB written up to 1,600 in steps of 200 was labelled 0.2k, 0.4k, ... 1.6k.
    #[test]
    fn whole_steps_under_ten_thousand_are_written_out() {
        assert_eq!(
            label_linear(&[0.0, 200.0, 400.0, 1000.0, 1600.0], 200.0),
            ["0", "200", "400", "1,000", "1,600"]
        );
        assert_eq!(
            label_linear(&[-2000.0, 0.0, 2000.0], 2000.0),
            ["-2k", "0", "2k"]
        );
        assert_eq!(
            label_linear(&[0.0, 5000.0, 10000.0], 5000.0),
            ["0", "5k", "10k"]
        );
    }

    #[test]
    fn labels_use_si_prefixes() {
        assert_eq!(
            axis(0.0, 2e6, &lin(), 5).labels,
            ["0", "0.5M", "1.0M", "1.5M", "2.0M"]
        );
        assert_eq!(si(16_505.0, 3), "16.5k");
        assert_eq!(si(2.5e9, 3), "2.5G");
        assert_eq!(si(1e-5, 3), "1e-5");
        assert_eq!(si(0.001, 3), "0.001");
        assert_eq!(human_opt(None), "–");
        assert_eq!(human_opt(Some(f64::NAN)), "–");
        // Huge ranges: still a handful of labelled ticks.
        let a = axis(-1e18, 1e18, &lin(), 6);
        well_formed(&a);
        assert!(a.labels.iter().any(|l| l.ends_with('E')), "{:?}", a.labels);
        well_formed(&axis(f64::NAN, 1.0, &lin(), 6));
    }

    #[test]
    fn many_random_ranges_are_well_formed() {
        // A fixed pseudo-random walk over magnitudes and widths.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..3000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let m = 10f64.powi((x % 30) as i32 - 12);
            let lo = m * ((x >> 8) % 1000) as f64 / 100.0;
            let w = m * 10f64.powi(((x >> 20) % 8) as i32 - 4);
            let o = AxisOpts {
                log: x & 1 == 1,
                integer: x & 2 == 2 && lo >= 1.0,
                from_zero: x & 4 == 4,
                max: None,
            };
            for n in [2, 4, 8] {
                let a = axis(lo.max(1e-300), lo.max(1e-300) + w, &o, n);
                well_formed(&a);
                if o.integer {
                    assert!(a.ticks.iter().all(|t| t.fract() == 0.0), "{a:?}");
                }
            }
        }
    }
}
