//! Statistics with their confidence: when a latency percentile is supported by the number
//! of I/Os behind it, its distribution-free confidence interval, and the interval of a mean
//! of repeated measurements (the rounds of a PTS measurement window, batches of a run).
//!
//! # The percentile rule
//!
//! The p-th percentile of `n` samples is reported only when at least [`MIN_TAIL`] (10)
//! samples lie beyond it: `n × (1 − p/100) ≥ 10`. So the 99th percentile needs 1,000 I/Os,
//! the 99.99th 100,000 and the 99.999th ("five nines") 1,000,000.
//!
//! Why 10: the estimate of a quantile is an order statistic, and its distribution-free
//! confidence interval is a pair of order statistics whose ranks come from the binomial
//! distribution of the count of samples beyond the quantile (W. J. Conover, *Practical
//! Nonparametric Statistics*, 3rd ed., 1999, §3.2, "confidence interval for a quantile";
//! G. J. Hahn and W. Q. Meeker, *Statistical Intervals*, 1991, §5.2). With an expected tail
//! count `m = n(1 − p)`, the 95 % interval runs about `m ± 1.96 √m` samples from the top:
//! for `m = 10` from the 4th to the 16th largest sample — bounded on both sides by samples
//! that were observed. Below about `m = 4` its upper end lies beyond the largest sample, so
//! the "percentile" is the maximum of a handful of I/Os, and the interval has no upper bound.
//! [`quantile_rank_interval`] computes that interval; [`percentile_supported`] is the rule.

/// Samples that must lie beyond a reported percentile.
pub(crate) const MIN_TAIL: f64 = 10.0;

/// `1 − p/100`, rounded to 1e-11 so 99.999 gives exactly 1e-5.
fn tail_fraction(p_pct: f64) -> f64 {
    (((100.0 - p_pct) * 1e9).round() / 1e11).max(0.0)
}

/// The fewest samples for which the `p_pct`-th percentile is reported (`u64::MAX` for 100).
pub(crate) fn min_samples(p_pct: f64) -> u64 {
    let q = tail_fraction(p_pct);
    if q <= 0.0 {
        return u64::MAX;
    }
    let n = (MIN_TAIL / q - 1e-6).ceil();
    if n >= u64::MAX as f64 {
        u64::MAX
    } else {
        n.max(1.0) as u64
    }
}

/// The rule: `n × (1 − p/100) ≥` [`MIN_TAIL`].
pub(crate) fn percentile_supported(p_pct: f64, n: u64) -> bool {
    n >= min_samples(p_pct)
}

/// The text a report prints instead of an unsupported percentile.
#[cfg(test)]
pub(crate) fn insufficient(p_pct: f64, n: u64) -> String {
    format!(
        "insufficient samples (n = {n}; the {p_pct}th percentile needs ≥ {})",
        min_samples(p_pct)
    )
}

/// The ranks (1-based, ascending) of the order statistics bounding the 95 % distribution-free
/// confidence interval of the `p_pct`-th percentile of `n` samples (Conover §3.2, normal
/// approximation of the binomial): `None` when either end falls outside `1..=n`.
pub(crate) fn quantile_rank_interval(p_pct: f64, n: u64) -> Option<(u64, u64)> {
    if n == 0 {
        return None;
    }
    let q = tail_fraction(p_pct);
    let p = 1.0 - q;
    let nf = n as f64;
    let half = 1.96 * (nf * p * q).sqrt();
    let lo = (nf * p - half).ceil();
    let hi = (nf * p + half).ceil() + 1.0;
    (lo >= 1.0 && hi <= nf).then_some((lo as u64, hi as u64))
}

/// The value of the sample at `rank` (1-based, ascending) of a histogram
/// `[(upper edge, count), ...]` in ascending order: the upper edge of its bucket.
pub(crate) fn value_at_rank(hist: &[(f64, u64)], rank: u64) -> Option<f64> {
    let mut seen = 0u64;
    for (up, c) in hist {
        seen = seen.saturating_add(*c);
        if seen >= rank && *c > 0 {
            return Some(*up);
        }
    }
    None
}

/// The 95 % confidence interval `(low, high)` of the `p_pct`-th percentile read from a
/// latency histogram (bucket upper edges; the intervals are as coarse as the buckets).
pub(crate) fn percentile_interval(hist: &[(f64, u64)], p_pct: f64) -> Option<(f64, f64)> {
    let n = hist.iter().fold(0u64, |a, b| a.saturating_add(b.1));
    let (lo, hi) = quantile_rank_interval(p_pct, n)?;
    Some((value_at_rank(hist, lo)?, value_at_rank(hist, hi)?))
}

/// Student's t, two-sided 95 % (0.975 quantile), for `df` degrees of freedom.
pub(crate) fn t95(df: usize) -> Option<f64> {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => None,
        d if d <= 30 => Some(T[d - 1]),
        d if d <= 60 => Some(2.000 + (2.042 - 2.000) * (60 - d) as f64 / 30.0),
        _ => Some(1.96),
    }
}

/// Mean and the half-width of its 95 % confidence interval (Student's t) of repeated,
/// independent measurements; `None` for fewer than two or non-finite values.
pub(crate) fn mean_ci95(xs: &[f64]) -> Option<(f64, f64)> {
    let n = xs.len();
    if n < 2 || xs.iter().any(|x| !x.is_finite()) {
        return None;
    }
    let mean = xs.iter().sum::<f64>() / n as f64;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    Some((mean, t95(n - 1)? * (var / n as f64).sqrt()))
}

/// Batch means (A. M. Law, *Simulation Modeling and Analysis*, 5th ed., §9.5.3): the series
/// of a run cut into `batches` consecutive batches, the interval of the mean of their means.
/// Per-interval samples are correlated; means of long batches nearly are not. `None` with
/// fewer than `2 × batches` samples.
pub(crate) fn batch_means_ci95(series: &[f64], batches: usize) -> Option<(f64, f64)> {
    if batches < 2 || series.len() < 2 * batches {
        return None;
    }
    let size = series.len() / batches;
    let means: Vec<f64> = series
        .chunks_exact(size)
        .take(batches)
        .map(|c| c.iter().sum::<f64>() / c.len() as f64)
        .collect();
    mean_ci95(&means)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_needs_ten_samples_beyond_the_percentile() {
        assert_eq!(min_samples(50.0), 20);
        assert_eq!(min_samples(99.0), 1_000);
        assert_eq!(min_samples(99.9), 10_000);
        assert_eq!(min_samples(99.99), 100_000);
        assert_eq!(min_samples(99.999), 1_000_000);
        assert_eq!(min_samples(100.0), u64::MAX);
        assert!(percentile_supported(99.0, 1_000));
        assert!(!percentile_supported(99.0, 999));
        // The PTS LAT cell of a scaled virtual drive: ~1,400 I/Os per round.
        assert!(!percentile_supported(99.999, 1_400));
        assert!(percentile_supported(99.999, 1_000_000));
        assert!(insufficient(99.999, 1_400).contains("n = 1400"));
        assert!(insufficient(99.999, 1_400).contains("≥ 1000000"));
    }

    #[test]
    fn the_rank_interval_is_bounded_exactly_where_the_rule_allows() {
        // 10 samples beyond the 99th percentile of 1,000: both ends inside the sample.
        let (lo, hi) = quantile_rank_interval(99.0, 1_000).unwrap();
        assert!(lo < 990 && hi > 990 && hi <= 1_000, "{lo} {hi}");
        // Five nines of 1,400 I/Os: the upper end is past the largest sample.
        assert_eq!(quantile_rank_interval(99.999, 1_400), None);
        // The median of 100: about 40th to 61st.
        let (lo, hi) = quantile_rank_interval(50.0, 100).unwrap();
        assert!(
            (39..=41).contains(&lo) && (60..=62).contains(&hi),
            "{lo} {hi}"
        );
        // Every supported percentile has a bounded interval.
        for p in [50.0, 90.0, 99.0, 99.9, 99.99, 99.999] {
            assert!(quantile_rank_interval(p, min_samples(p)).is_some(), "{p}");
        }
    }

    #[test]
    fn percentile_interval_reads_bucket_edges() {
        // 1,000 samples: 985 at ≤ 10 µs, 13 at ≤ 20 µs, 2 at ≤ 40 µs; the 99th
        // percentile's interval runs from rank 984 to rank 998.
        let h = [(10.0, 985), (20.0, 13), (40.0, 2)];
        assert_eq!(quantile_rank_interval(99.0, 1_000), Some((984, 998)));
        let (lo, hi) = percentile_interval(&h, 99.0).unwrap();
        assert_eq!((lo, hi), (10.0, 20.0));
        assert_eq!(value_at_rank(&h, 1_000), Some(40.0));
        assert_eq!(value_at_rank(&h, 1_001), None);
        assert_eq!(percentile_interval(&h, 99.999), None);
    }

    #[test]
    fn mean_interval_of_repetitions() {
        let (m, h) = mean_ci95(&[100.0, 102.0, 98.0, 101.0, 99.0]).unwrap();
        assert!((m - 100.0).abs() < 1e-9);
        // s = 1.58, t(4) = 2.776: 2.776 × 1.58 / √5 = 1.96.
        assert!((h - 1.963).abs() < 0.01, "{h}");
        assert_eq!(mean_ci95(&[1.0]), None);
        assert_eq!(mean_ci95(&[1.0, f64::NAN]), None);
        assert_eq!(t95(0), None);
        assert_eq!(t95(4), Some(2.776));
        // Ten batches of a flat series: no width.
        let (m, h) = batch_means_ci95(&[5.0; 100], 10).unwrap();
        assert_eq!((m, h), (5.0, 0.0));
        assert_eq!(batch_means_ci95(&[5.0; 19], 10), None);
    }
}
