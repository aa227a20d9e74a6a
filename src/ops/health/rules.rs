//! Qualification rules: limits on named health metrics, from flags (`--max endurance_used=80`)
//! or a rules file.
//!
//! Rules file format: a small TOML subset — `[max]` and `[min]` tables of `metric = number`
//! lines, or dotted keys `max.metric = number` at top level; `#` starts a comment. Example:
//! ```toml
//! [max]
//! endurance_used = 80
//! temperature_c = 70
//! [min]
//! remaining_days = 365
//! ```

use crate::error::{Error, Result};
use serde::Serialize;

/// Metric names a rule can use, with what they measure (shown in `--help` and the README).
pub const METRICS: &[(&str, &str)] = &[
    (
        "endurance_used",
        "percentage used endurance indicator (page 0x11), %",
    ),
    (
        "remaining_days",
        "projected days until 100% endurance used at the observed rate",
    ),
    (
        "drive_writes_per_day",
        "bytes written / capacity / powered-on days",
    ),
    (
        "temperature_c",
        "current temperature, °C (page 0x0D, else 0x2F)",
    ),
    (
        "lifetime_max_temperature_c",
        "lifetime maximum temperature, °C (page 0x0D/0x01)",
    ),
    (
        "grown_defects",
        "grown defect list entries (READ DEFECT DATA)",
    ),
    ("pending_defects", "pending defect count (page 0x15/0x01)"),
    (
        "uncorrected_errors",
        "read+write+verify total uncorrected errors (0x03/0x02/0x05 param 6)",
    ),
    ("non_medium_errors", "non-medium error count (page 0x06)"),
    (
        "interface_crc_errors",
        "SATA interface CRC errors (ATA Device Statistics 06h, else SMART 199)",
    ),
    (
        "self_test_failures",
        "failed entries in the self-test log (page 0x10)",
    ),
    (
        "invalid_dwords",
        "sum of invalid dword counts over all SAS phys (page 0x18)",
    ),
    (
        "running_disparity_errors",
        "sum over all SAS phys (page 0x18)",
    ),
    ("loss_of_dword_sync", "sum over all SAS phys (page 0x18)"),
    ("phy_reset_problems", "sum over all SAS phys (page 0x18)"),
    (
        "start_stop_cycles",
        "accumulated start-stop cycles (page 0x0E)",
    ),
    (
        "load_unload_cycles",
        "accumulated load-unload cycles (page 0x0E)",
    ),
    (
        "power_on_hours",
        "power-on hours (page 0x15 accumulated power-on minutes / 60)",
    ),
];

/// Which side of the limit is a breach.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Bound {
    /// Value must be <= limit.
    Max,
    /// Value must be >= limit.
    Min,
}

/// One rule.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rule {
    /// Max or min.
    pub bound: Bound,
    /// Metric name (one of [`METRICS`]).
    pub metric: String,
    /// The limit.
    pub limit: f64,
}

impl Rule {
    /// True when `value` breaks the rule.
    pub(crate) fn breached_by(&self, value: f64) -> bool {
        match self.bound {
            Bound::Max => value > self.limit,
            Bound::Min => value < self.limit,
        }
    }
}

fn check_metric(name: &str) -> Result<()> {
    if METRICS.iter().any(|(m, _)| *m == name) {
        Ok(())
    } else {
        let names: Vec<&str> = METRICS.iter().map(|(m, _)| *m).collect();
        Err(Error::InvalidArgument(format!(
            "unknown health metric '{name}' (known: {})",
            names.join(", ")
        )))
    }
}

/// A limit: a finite number (a NaN limit would never be breached, an infinite one neither:
/// a rule that silently checks nothing).
fn finite(v: &str) -> std::result::Result<f64, String> {
    let v = v.trim();
    match v.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        Ok(_) => Err(format!("'{v}' is not a finite number")),
        Err(_) => Err(format!("'{v}' is not a number")),
    }
}

/// Parses a `metric=value` flag argument.
pub fn parse_flag(bound: Bound, arg: &str) -> Result<Rule> {
    let (k, v) = arg
        .split_once('=')
        .ok_or_else(|| Error::InvalidArgument(format!("rule '{arg}' is not METRIC=NUMBER")))?;
    let metric = k.trim().to_string();
    check_metric(&metric)?;
    let limit = finite(v).map_err(|m| Error::InvalidArgument(format!("rule '{arg}': {m}")))?;
    Ok(Rule {
        bound,
        metric,
        limit,
    })
}

/// Parses a rules file (TOML subset described in the module docs).
pub fn parse_file(text: &str) -> Result<Vec<Rule>> {
    let mut out = Vec::new();
    let mut section: Option<Bound> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let err = |m: &str| Error::InvalidArgument(format!("rules file line {}: {m}", i + 1));
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = Some(match name.trim() {
                "max" => Bound::Max,
                "min" => Bound::Min,
                o => return Err(err(&format!("unknown table [{o}] (use [max] or [min])"))),
            });
            continue;
        }
        let (k, v) = line
            .split_once('=')
            .ok_or_else(|| err("expected KEY = NUMBER"))?;
        let k = k.trim();
        let (bound, metric) = if let Some(m) = k.strip_prefix("max.") {
            (Bound::Max, m)
        } else if let Some(m) = k.strip_prefix("min.") {
            (Bound::Min, m)
        } else {
            (
                section.ok_or_else(|| err("key outside a [max]/[min] table"))?,
                k,
            )
        };
        check_metric(metric).map_err(|e| err(&e.to_string()))?;
        let limit = finite(v).map_err(|m| err(&m))?;
        out.push(Rule {
            bound,
            metric: metric.to_string(),
            limit,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_and_file() {
        let r = parse_flag(Bound::Max, "endurance_used=80").unwrap();
        assert!(r.breached_by(81.0) && !r.breached_by(80.0));
        assert!(parse_flag(Bound::Max, "nope=1").is_err());
        assert!(parse_flag(Bound::Max, "temperature_c").is_err());
        assert!(parse_flag(Bound::Min, "remaining_days=x").is_err());
        for bad in ["NaN", "inf", "-inf", "1e999"] {
            assert!(parse_flag(Bound::Max, &format!("temperature_c={bad}")).is_err());
            assert!(parse_file(&format!("[max]\ntemperature_c = {bad}\n")).is_err());
        }
        let rules = parse_file(
            "# qualification\n[max]\nendurance_used = 80\ntemperature_c=70 # hot\n[min]\nremaining_days = 365\n",
        )
        .unwrap();
        assert_eq!(rules.len(), 3);
        assert_eq!(rules[2].bound, Bound::Min);
        assert!(rules[2].breached_by(300.0));
        let rules = parse_file("max.grown_defects = 0\nmin.remaining_days = 30\n").unwrap();
        assert_eq!(rules[0].metric, "grown_defects");
        assert!(parse_file("endurance_used = 1\n").is_err());
        assert!(parse_file("[avg]\n").is_err());
        let e = parse_file("[max]\nbogus = 1\n").unwrap_err().to_string();
        assert!(e.contains("line 2"), "{e}");
    }
}
