//! The terminal summary of a benchmark report and its key figures, both computed from the
//! report document (`report.json`'s shape): `sgctl bench run|pts|review` print [`text`] of
//! the report they just wrote, `sgctl bench compare` lines up [`key_figures`] of each report
//! it reads. Every field is read defensively: a missing one prints as `-`.

use serde::Serialize;
use serde_json::Value;
use std::fmt::Write as _;

/// Which way is better for a figure (for the reader of a difference, not a verdict).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Better {
    /// IOPS, MB/s.
    Higher,
    /// Latency, errors, rounds.
    Lower,
    /// A setting or a yes/no.
    Neither,
}

/// One key figure of a report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Figure {
    /// Test or part (`run`, `iops`, `write_cliff` ...).
    pub group: String,
    /// What (`IOPS`, `mean latency`, `100/0 4k IOPS` ...).
    pub name: String,
    /// Unit (`IOPS`, `MB/s`, `µs`, ``).
    pub unit: &'static str,
    /// The value (None: not in this report).
    pub value: Option<f64>,
    /// Which way is better.
    pub better: Better,
    /// Half-width of the 95 % confidence interval of the value, where the report holds
    /// repetitions to estimate it from (the rounds of a PTS window, batch means of a run's
    /// intervals); the run-to-run noise `bench compare` weighs a difference against.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ci95: Option<f64>,
    /// A percentile the report's I/O count does not support
    /// (`crate::bench::suite::confidence::percentile_supported`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub insufficient_samples: bool,
}

impl Figure {
    /// `group: name`, the key compare matches figures by.
    pub fn key(&self) -> String {
        format!("{}: {}", self.group, self.name)
    }
}

fn fig(
    out: &mut Vec<Figure>,
    group: &str,
    name: String,
    unit: &'static str,
    v: Option<f64>,
    b: Better,
) {
    out.push(Figure {
        group: group.into(),
        name,
        unit,
        value: v.filter(|x| x.is_finite()),
        better: b,
        ci95: None,
        insufficient_samples: false,
    });
}

/// Sets the interval of the figure just pushed.
fn noise(out: &mut [Figure], ci: Option<f64>) {
    if let Some(f) = out.last_mut() {
        f.ci95 = ci.filter(|x| x.is_finite());
    }
}

/// Batch means of a run's per-interval `k` (10 batches).
fn batch_ci(res: &Value, k: &str) -> Option<f64> {
    let xs: Vec<f64> = arr(&res["intervals"])
        .iter()
        .filter_map(|i| n(&i[k]))
        .collect();
    crate::bench::suite::confidence::batch_means_ci95(&xs, 10).map(|x| x.1)
}

fn n(v: &Value) -> Option<f64> {
    v.as_f64()
}

fn arr(v: &Value) -> &[Value] {
    v.as_array().map_or(&[], Vec::as_slice)
}

fn st(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

/// `(percent, µs)` of a latency summary.
fn percentile(lat: &Value, p: f64) -> Option<f64> {
    arr(&lat["percentiles"])
        .iter()
        .find(|x| n(&x[0]).is_some_and(|q| (q - p).abs() < 1e-9))
        .and_then(|x| n(&x[1]))
}

/// The key figures of a report, in a stable order (compare lines them up by [`Figure::key`]).
pub fn key_figures(r: &Value) -> Vec<Figure> {
    let mut out = Vec::new();
    if r["suite"] == "run" {
        run_figures(&mut out, &r["result"]);
    } else {
        for t in arr(&r["tests"]) {
            test_figures(&mut out, t);
        }
    }
    out
}

fn run_figures(out: &mut Vec<Figure>, res: &Value) {
    use Better::{Higher, Lower};
    let g = "run";
    fig(out, g, "IOPS".into(), "IOPS", n(&res["iops"]), Higher);
    noise(out, batch_ci(res, "iops"));
    fig(out, g, "MB/s".into(), "MB/s", n(&res["mbps"]), Higher);
    noise(out, batch_ci(res, "mbps"));
    let lat = &res["latency"];
    for (k, name) in [
        ("min_us", "latency min"),
        ("mean_us", "latency mean"),
        ("stdev_us", "latency stdev"),
        ("max_us", "latency max"),
    ] {
        fig(out, g, name.into(), "µs", n(&lat[k]), Lower);
        if k == "mean_us" {
            noise(out, batch_ci(res, "mean_lat_us"));
        }
    }
    let ios = res["ios"].as_u64();
    // fio's headline percentiles (the report keeps all of them).
    for q in [50.0, 90.0, 99.0, 99.9, 99.99, 99.999] {
        fig(
            out,
            g,
            format!("latency p{q}"),
            "µs",
            percentile(lat, q),
            Lower,
        );
        if let (Some(f), Some(n)) = (out.last_mut(), ios) {
            f.insufficient_samples = !crate::bench::suite::confidence::percentile_supported(q, n);
        }
    }
    for d in ["read", "write"] {
        if res[d].is_object() {
            fig(
                out,
                g,
                format!("{d} IOPS"),
                "IOPS",
                n(&res[d]["iops"]),
                Higher,
            );
            fig(
                out,
                g,
                format!("{d} latency mean"),
                "µs",
                n(&res[d]["latency"]["mean_us"]),
                Lower,
            );
        }
    }
    fig(
        out,
        g,
        "CPU per I/O".into(),
        "µs",
        n(&res["cpu_s_per_io"]).map(|c| c * 1e6),
        Lower,
    );
    fig(out, g, "errors".into(), "", n(&res["errors"]), Lower);
}

fn test_figures(out: &mut Vec<Figure>, t: &Value) {
    use Better::{Higher, Lower, Neither};
    let g = st(&t["test"]);
    for s in arr(&t["stages"]) {
        let ss = &s["steady_state"];
        if ss.is_object() {
            let name = st(&s["name"]);
            fig(
                out,
                g,
                format!("{name} steady state reached"),
                "",
                ss["reached"].as_bool().map(|b| f64::from(u8::from(b))),
                Neither,
            );
            fig(
                out,
                g,
                format!("{name} rounds"),
                "",
                n(&ss["rounds"]),
                Lower,
            );
            fig(
                out,
                g,
                format!("{name} window average ({})", st(&ss["tracking"])),
                "",
                n(&ss["window"]["average"]),
                Neither,
            );
        }
    }
    let res = &t["results"];
    match g {
        "iops" => {
            for row in arr(&res["table"]) {
                for b in arr(&res["block_sizes"]) {
                    let b = st(b);
                    fig(
                        out,
                        g,
                        format!("{} {b}", st(&row["rw_mix"])),
                        "IOPS",
                        n(&row["iops"][b]),
                        Higher,
                    );
                    noise(out, n(&row["iops_ci95"][b]));
                }
            }
        }
        "tp" => {
            for row in arr(&res["table"]) {
                for d in ["read", "write"] {
                    fig(
                        out,
                        g,
                        format!("{} {d}", st(&row["block_size"])),
                        "MB/s",
                        n(&row[format!("{d}_mbps")]),
                        Higher,
                    );
                }
            }
        }
        "lat" => {
            for row in arr(&res["table"]) {
                let c = format!("{} {}", st(&row["rw_mix"]), st(&row["block_size"]));
                fig(out, g, format!("{c} ART"), "µs", n(&row["art_us"]), Lower);
                noise(out, n(&row["art_ci95_us"]));
                fig(out, g, format!("{c} MRT"), "µs", n(&row["mrt_us"]), Lower);
                fig(
                    out,
                    g,
                    format!("{c} 5 9s"),
                    "µs",
                    n(&row["p99999_us"]),
                    Lower,
                );
                if let (Some(f), Some(k)) = (out.last_mut(), row["ios_per_round"].as_u64()) {
                    f.insufficient_samples =
                        !crate::bench::suite::confidence::percentile_supported(99.999, k);
                }
            }
        }
        "wsat" => {
            let s = arr(&res["series"]);
            fig(
                out,
                g,
                "first sample".into(),
                "IOPS",
                s.first().and_then(|x| n(&x["iops"])),
                Higher,
            );
            fig(
                out,
                g,
                "last sample".into(),
                "IOPS",
                s.last().and_then(|x| n(&x["iops"])),
                Higher,
            );
            fig(
                out,
                g,
                "GB written".into(),
                "GB",
                n(&res["total_gb_written"]),
                Neither,
            );
        }
        "hir" => {
            for w in arr(&res["wait_states"]) {
                fig(
                    out,
                    g,
                    format!("wait {} s mean burst", w["wait_s"]),
                    "IOPS",
                    n(&w["mean_burst_iops"]),
                    Higher,
                );
            }
        }
        "xsr" => {
            fig(
                out,
                g,
                "baseline SEQ 1024K W".into(),
                "MB/s",
                n(&res["baseline_seq_mbps"]),
                Higher,
            );
            fig(
                out,
                g,
                "recovery samples".into(),
                "",
                n(&res["recovery_samples"]),
                Lower,
            );
        }
        "ecw" | "dirth" => {
            for c in arr(&res["captures"]) {
                let p = st(&c["point"]);
                fig(out, g, format!("{p} IOPS"), "IOPS", n(&c["iops"]), Higher);
                fig(out, g, format!("{p} ART"), "µs", n(&c["art_us"]), Lower);
            }
        }
        "write_cliff" | "op" => {
            fig(out, g, "FOB".into(), "IOPS", n(&res["fob_iops"]), Higher);
            fig(
                out,
                g,
                "steady state".into(),
                "IOPS",
                n(&res["ss_iops"]),
                Higher,
            );
            fig(out, g, "drop".into(), "%", n(&res["drop_pct"]), Lower);
            fig(
                out,
                g,
                "steady-state mean latency".into(),
                "µs",
                n(&res["ss_mean_lat_us"]),
                Lower,
            );
        }
        "qd_sweep" => {
            for row in arr(&res["table"]) {
                for d in ["read_4k", "write_4k"] {
                    fig(
                        out,
                        g,
                        format!("QD{} {d}", row["qd"]),
                        "IOPS",
                        n(&row[d]["iops"]),
                        Higher,
                    );
                }
            }
            fig(
                out,
                g,
                "knee read QD".into(),
                "",
                n(&res["knee_read_qd"]),
                Neither,
            );
            fig(
                out,
                g,
                "knee write QD".into(),
                "",
                n(&res["knee_write_qd"]),
                Neither,
            );
        }
        "basics" | "profiles" => {
            for row in arr(&res["table"]) {
                if let Some(per) = row["by_qd"].as_array() {
                    for p in per {
                        fig(
                            out,
                            g,
                            format!("{} QD{}", st(&row["profile"]), p["qd"]),
                            "IOPS",
                            n(&p["iops"]),
                            Higher,
                        );
                    }
                } else {
                    let w = st(&row["workload"]);
                    fig(out, g, w.to_string(), "IOPS", n(&row["iops"]), Higher);
                    fig(
                        out,
                        g,
                        format!("{w} mean latency"),
                        "µs",
                        n(&row["mean_lat_us"]),
                        Lower,
                    );
                }
            }
        }
        _ => {}
    }
}

/// `12.3k`-style counts.
pub fn k(v: f64) -> String {
    if !v.is_finite() {
        "-".into()
    } else if v >= 1e6 {
        format!("{:.2}M", v / 1e6)
    } else if v >= 1e3 {
        format!("{:.1}k", v / 1e3)
    } else {
        format!("{v:.0}")
    }
}

fn fl(v: &Value) -> f64 {
    v.as_f64().unwrap_or(f64::NAN)
}

/// The terminal summary of a report (a `bench run` one or a suite's).
pub fn text(r: &Value) -> String {
    if r["suite"] == "run" {
        run_text(r)
    } else {
        suite_text(r)
    }
}

fn run_text(r: &Value) -> String {
    let mut s = String::new();
    let (w, res) = (&r["settings"], &r["result"]);
    let bs = arr(&w["bs"]);
    let bs = if bs.len() == 1 {
        format!("{} B", bs[0][0])
    } else {
        let parts: Vec<String> = bs.iter().map(|b| format!("{}/{}", b[0], b[1])).collect();
        format!("bssplit {}", parts.join(":"))
    };
    let _ = writeln!(
        s,
        "{}: engine {}, {} {}{}, QD{} x {} job(s), {}-byte blocks",
        st(&res["device"]),
        st(&res["engine"]),
        st(&w["rw"]),
        bs,
        if w["rw"] == "randrw" {
            format!(" ({}% reads)", w["read_pct"])
        } else {
            String::new()
        },
        w["qd"],
        w["jobs"],
        res["block_len"]
    );
    let id = &r["header"];
    if !st(&id["model"]).is_empty() {
        let _ = writeln!(
            s,
            "  drive: {} {} serial {} fw {}, write cache {}",
            st(&id["vendor"]),
            st(&id["model"]),
            st(&id["serial"]),
            st(&id["firmware"]),
            match r["write_cache"]["wce_before"].as_bool() {
                Some(true) => "enabled (WCE=1)",
                Some(false) => "disabled (WCE=0)",
                None => "unknown",
            }
        );
    }
    let _ = writeln!(
        s,
        "  total: {} IOPS, {:.1} MB/s, {} I/Os in {:.2} s{}",
        k(fl(&res["iops"])),
        fl(&res["mbps"]),
        res["ios"],
        fl(&res["elapsed_s"]),
        if res["partial"] == true {
            " (PARTIAL)"
        } else {
            ""
        }
    );
    for name in ["read", "write"] {
        let d = &res[name];
        if !d.is_object() {
            continue;
        }
        let l = &d["latency"];
        let ios = d["ios"].as_u64();
        let mut short = Vec::new();
        let mut p = |x: f64| {
            let v = format!("{:.1}", percentile(l, x).unwrap_or(0.0));
            match ios {
                Some(n) if !crate::bench::suite::confidence::percentile_supported(x, n) => {
                    short.push(x);
                    format!("{v}*")
                }
                _ => v,
            }
        };
        let (p50, p99, p999, p9999) = (p(50.0), p(99.0), p(99.9), p(99.99));
        let _ = writeln!(
            s,
            "  {name:<5}: {} IOPS, {:.1} MB/s; lat (us) mean {:.1}, stdev {:.1}, min {:.1}, \
             p50 {p50}, p99 {p99}, p99.9 {p999}, p99.99 {p9999}, max {:.1}",
            k(fl(&d["iops"])),
            fl(&d["mbps"]),
            fl(&l["mean_us"]),
            fl(&l["stdev_us"]),
            fl(&l["min_us"]),
            fl(&l["max_us"])
        );
        if let (Some(first), Some(n)) = (short.first(), ios) {
            let _ = writeln!(
                s,
                "         * insufficient samples: {n} I/Os, the p{first} needs ≥ {} (10 beyond it)",
                crate::bench::suite::confidence::min_samples(*first)
            );
        }
    }
    if let Some(c) = res["cpu_s_per_io"].as_f64() {
        let _ = writeln!(
            s,
            "  cpu  : {:.2} us per I/O (user {:.2} s, sys {:.2} s)",
            c * 1e6,
            res["cpu_user_s"].as_f64().unwrap_or(0.0),
            res["cpu_sys_s"].as_f64().unwrap_or(0.0)
        );
    }
    if res["errors"].as_u64().unwrap_or(0) > 0 {
        let _ = writeln!(s, "  errors: {}", res["errors"]);
        if let Some(m) = res["error_counts"].as_object() {
            for (kind, n) in m {
                let _ = writeln!(s, "    {n} x {kind}");
            }
        }
        for e in arr(&res["first_errors"]).iter().take(5) {
            let _ = writeln!(
                s,
                "    {} LBA {} (+{} B) at {:.3} s: {}",
                st(&e["op"]),
                e["lba"],
                e["len"],
                fl(&e["t_s"]),
                st(&e["error"])
            );
        }
    }
    let v = &res["verify"];
    if v.is_object() {
        let _ = writeln!(
            s,
            "  verify: {} blocks checked, {} never written, {} bad",
            v["blocks_checked"], v["blocks_unwritten"], v["failures"]
        );
        for f in arr(&v["first_failures"]) {
            let _ = writeln!(s, "    bad block at LBA {}: {}", f["lba"], st(&f["reason"]));
        }
    }
    for x in arr(&res["notes"]).iter().chain(arr(&r["notes"])) {
        let _ = writeln!(s, "  note: {}", st(x));
    }
    s
}

fn wce(v: &Value) -> &'static str {
    match v.as_bool() {
        Some(true) => "1",
        Some(false) => "0",
        None => "?",
    }
}

/// The (TC, QD) pairs a test measured at, from its cells' stimuli, in order of first use;
/// preconditioning stages (`wipc*`, `prewrite-*`, HIR's `precondition`) left out.
pub(crate) fn test_tc_qd(t: &Value) -> Vec<(u64, u64)> {
    let mut v: Vec<(u64, u64)> = Vec::new();
    for stg in arr(&t["stages"]) {
        let name = st(&stg["name"]);
        if ["wipc", "prewrite", "precondition"]
            .iter()
            .any(|p| name.starts_with(p))
        {
            continue;
        }
        for r in arr(&stg["rounds"]) {
            for c in arr(&r["cells"]) {
                let st = &c["stimulus"];
                if let (Some(tc), Some(qd)) = (st["tc"].as_u64(), st["qd"].as_u64()) {
                    if !v.contains(&(tc, qd)) {
                        v.push((tc, qd));
                    }
                }
            }
        }
    }
    v
}

/// `TC1 × QD1 (TOIO 1)`, or for a sweep `36 TC × QD points, TOIO 1–1024`.
pub(crate) fn tc_qd_text(pairs: &[(u64, u64)]) -> String {
    match pairs {
        [] => "–".into(),
        [(tc, qd)] => format!("TC{tc} × QD{qd} (TOIO {})", tc.saturating_mul(*qd)),
        _ => {
            let toio = pairs.iter().map(|(a, b)| a.saturating_mul(*b));
            format!(
                "{} TC × QD points, TOIO {}–{}",
                pairs.len(),
                toio.clone().min().unwrap_or(0),
                toio.max().unwrap_or(0)
            )
        }
    }
}

/// The TC × QD each test ran at (the settings' `tc`/`qd` apply only to the tests that
/// leave them to the operator; LAT is TC1 × QD1 whatever they say). Before any test ran:
/// the settings as asked.
pub(crate) fn tc_qd_line(r: &Value) -> String {
    let per: Vec<String> = arr(&r["tests"])
        .iter()
        .filter_map(|t| {
            let p = test_tc_qd(t);
            (!p.is_empty()).then(|| format!("{} {}", st(&t["test"]).to_uppercase(), tc_qd_text(&p)))
        })
        .collect();
    if per.is_empty() {
        let se = &r["settings"];
        format!(
            "TC{} × QD{} (TOIO {}) as asked",
            se["tc"], se["qd"], se["toio"]
        )
    } else {
        per.join("; ")
    }
}

fn suite_text(r: &Value) -> String {
    let mut s = String::new();
    let h = &r["header"];
    let _ = writeln!(
        s,
        "{} {} {} serial {} fw {}, {} bytes, {}-byte blocks, engine {}",
        st(&h["address"]),
        st(&h["vendor"]),
        st(&h["model"]),
        st(&h["serial"]),
        st(&h["firmware"]),
        h["capacity_bytes"],
        h["block_len"],
        st(&h["engine"])
    );
    let (se, wc) = (&r["settings"], &r["write_cache"]);
    let after = if wc["wce_after"].is_null() && wc["restored"] == true {
        &wc["wce_before"]
    } else {
        &wc["wce_after"]
    };
    let _ = writeln!(
        s,
        "{}, ActiveRange {} %, max {} rounds, purge {}, write cache {} (WCE {} -> {} -> {})",
        tc_qd_line(r),
        se["active_range_pct"],
        se["max_rounds"],
        st(&se["purge"]),
        st(&wc["required"]),
        wce(&wc["wce_before"]),
        wce(&wc["wce_during"]),
        wce(after)
    );
    for x in arr(&r["notes"]) {
        let _ = writeln!(s, "NOTE: {}", st(x));
    }
    for t in arr(&r["tests"]) {
        test_text(&mut s, t);
    }
    let find = |name: &str| arr(&r["tests"]).iter().find(|t| t["test"] == name);
    if let (Some(c), Some(o)) = (find("write_cliff"), find("op")) {
        let a = fl(&c["results"]["ss_iops"]);
        let b = fl(&o["results"]["ss_iops"]);
        if a > 0.0 && b.is_finite() {
            let _ = writeln!(
                s,
                "\nover-provisioning gain: {:+.1} % steady-state 4K random write IOPS",
                100.0 * (b / a - 1.0)
            );
        }
    }
    s
}

fn test_text(s: &mut String, t: &Value) {
    let _ = writeln!(s, "\n== {} [{}]", st(&t["test"]), st(&t["state"]));
    for x in arr(&t["stages"]) {
        if x["purge"].is_object() {
            let _ = writeln!(s, "  {}", st(&x["purge"]["status"]));
        }
    }
    for x in arr(&t["stages"]) {
        let ss = &x["steady_state"];
        if !ss.is_object() {
            continue;
        }
        let w = &ss["window"];
        let win = if w.is_object() {
            let avg = fl(&w["average"]);
            format!(
                " — window rounds {}-{}: average {:.1}, data excursion {:.1} ({:.1} % ≤ 20 %), slope excursion {:.1} ({:.1} % ≤ 10 %), fit {}",
                w["start_round"],
                w["stop_round"],
                avg,
                fl(&w["largest_data_excursion"]),
                100.0 * fl(&w["largest_data_excursion"]) / avg.max(1e-12),
                fl(&w["largest_slope_excursion"]),
                100.0 * fl(&w["largest_slope_excursion"]) / avg.max(1e-12),
                st(&w["linear_fit_formula"])
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            s,
            "  {}: {} after {} of max {} rounds on {}{win}",
            st(&x["name"]),
            if ss["reached"] == true {
                "steady state"
            } else {
                "steady state NOT reached"
            },
            ss["rounds"],
            ss["max_rounds"],
            st(&ss["tracking"]),
        );
    }
    let res = &t["results"];
    match st(&t["test"]) {
        "iops" => {
            let bss: Vec<&str> = arr(&res["block_sizes"]).iter().map(st).collect();
            if res["table"].is_array() {
                let _ = write!(s, "  {:>7}", "R/W");
                for b in &bss {
                    let _ = write!(s, " {b:>8}");
                }
                s.push('\n');
                for row in arr(&res["table"]) {
                    let _ = write!(s, "  {:>7}", st(&row["rw_mix"]));
                    for b in &bss {
                        let _ = write!(s, " {:>8}", k(fl(&row["iops"][*b])));
                    }
                    s.push('\n');
                }
            }
        }
        "tp" => {
            for row in arr(&res["table"]) {
                let _ = writeln!(
                    s,
                    "  {}: read {:.1} MB/s, write {:.1} MB/s",
                    st(&row["block_size"]),
                    fl(&row["read_mbps"]),
                    fl(&row["write_mbps"])
                );
            }
        }
        "lat" => {
            let mut short = false;
            for row in arr(&res["table"]) {
                let five = match row["ios_per_round"].as_u64() {
                    Some(n)
                        if !crate::bench::suite::confidence::percentile_supported(99.999, n) =>
                    {
                        short = true;
                        format!(
                            "{:9.1} µs (n = {n}: insufficient samples)",
                            fl(&row["p99999_us"])
                        )
                    }
                    _ => format!("{:9.1} µs", fl(&row["p99999_us"])),
                };
                let _ = writeln!(
                    s,
                    "  {:>6} {:>5}: ART {:8.1} µs  MRT {:9.1} µs  5 9s {five}",
                    st(&row["rw_mix"]),
                    st(&row["block_size"]),
                    fl(&row["art_us"]),
                    fl(&row["mrt_us"]),
                );
            }
            if short {
                let _ = writeln!(
                    s,
                    "  note: a 99.999th percentile needs ≥ {} I/Os (10 beyond it) to be more than the largest few",
                    crate::bench::suite::confidence::min_samples(99.999)
                );
            }
        }
        "wsat" => {
            let series = arr(&res["series"]);
            let _ = writeln!(
                s,
                "  {} samples, {:.2} GB written: first {} IOPS, last {} IOPS",
                series.len(),
                fl(&res["total_gb_written"]),
                k(series.first().map_or(f64::NAN, |x| fl(&x["iops"]))),
                k(series.last().map_or(f64::NAN, |x| fl(&x["iops"])))
            );
        }
        "hir" => {
            for w in arr(&res["wait_states"]) {
                let _ = writeln!(
                    s,
                    "  wait {:>2} s: mean burst {} IOPS",
                    fl(&w["wait_s"]),
                    k(fl(&w["mean_burst_iops"]))
                );
            }
        }
        "xsr" => {
            let _ = writeln!(
                s,
                "  baseline SEQ 1024K W {:.1} MB/s; recovery after RND 8K W: {} samples",
                fl(&res["baseline_seq_mbps"]),
                res["recovery_samples"]
                    .as_u64()
                    .map(|v| v.to_string())
                    .unwrap_or_else(|| "not within the segment".into())
            );
        }
        "ecw" | "dirth" => {
            for c in arr(&res["captures"]) {
                let _ = writeln!(
                    s,
                    "  {} at TC{} QD{}: {} IOPS, ART {:.1} µs, 5 9s {:.1} µs",
                    st(&c["point"]),
                    c["tc"],
                    c["qd"],
                    k(fl(&c["iops"])),
                    fl(&c["art_us"]),
                    fl(&c["p99999_us"])
                );
            }
        }
        "write_cliff" | "op" => {
            let _ = writeln!(
                s,
                "  4K random write QD32: FOB {} IOPS -> steady state {} IOPS ({:.0} % drop), mean latency {:.0} µs{}",
                k(fl(&res["fob_iops"])),
                k(fl(&res["ss_iops"])),
                fl(&res["drop_pct"]),
                fl(&res["ss_mean_lat_us"]),
                res["capacity_pct"]
                    .as_u64()
                    .map(|p| format!(
                        "; at {p} % capacity; returned to full capacity: {}",
                        res["restored"]
                    ))
                    .unwrap_or_default()
            );
        }
        "qd_sweep" => {
            for row in arr(&res["table"]) {
                let (r, w) = (&row["read_4k"], &row["write_4k"]);
                let _ = writeln!(
                    s,
                    "  QD{:<4} read {:>8} IOPS {:>8.1} µs (99.99 % {:>8.1})   write {:>8} IOPS {:>8.1} µs (99.99 % {:>8.1})",
                    row["qd"],
                    k(fl(&r["iops"])),
                    fl(&r["mean_lat_us"]),
                    fl(&r["p9999_lat_us"]),
                    k(fl(&w["iops"])),
                    fl(&w["mean_lat_us"]),
                    fl(&w["p9999_lat_us"])
                );
            }
            let _ = writeln!(
                s,
                "  knee: read QD{}, write QD{}",
                res["knee_read_qd"], res["knee_write_qd"]
            );
        }
        "basics" | "profiles" => {
            for row in arr(&res["table"]) {
                if let Some(per) = row["by_qd"].as_array() {
                    let line: Vec<String> = per
                        .iter()
                        .map(|p| format!("QD{} {}", p["qd"], k(fl(&p["iops"]))))
                        .collect();
                    let _ = writeln!(s, "  {}: {}", st(&row["profile"]), line.join(", "));
                } else {
                    let _ = writeln!(
                        s,
                        "  {:<11} {:>8} IOPS {:>8.1} MB/s {:>8.1} µs",
                        st(&row["workload"]),
                        k(fl(&row["iops"])),
                        fl(&row["mbps"]),
                        fl(&row["mean_lat_us"])
                    );
                }
            }
        }
        _ => {}
    }
    for x in arr(&t["notes"]) {
        let _ = writeln!(s, "  NOTE: {}", st(x));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn run_figures_and_text_come_from_the_document() {
        let r = json!({"suite": "run", "settings": {"rw": "randread", "bs": [[4096, 1]],
            "qd": 4, "jobs": 1},
            "result": {"device": "sim:x", "engine": "sim", "block_len": 512, "iops": 12345.0,
            "mbps": 50.6, "ios": 100, "elapsed_s": 1.0, "errors": 0, "cpu_s_per_io": null,
            "latency": {"mean_us": 80.0, "stdev_us": 5.0, "min_us": 10.0, "max_us": 400.0,
                "percentiles": [[50.0, 75.0], [99.0, 120.0]]},
            "read": {"iops": 12345.0, "mbps": 50.6, "latency": {"mean_us": 80.0,
                "percentiles": [[99.0, 120.0]]}}}});
        let f = key_figures(&r);
        let get = |k: &str| f.iter().find(|x| x.key() == k).and_then(|x| x.value);
        assert_eq!(get("run: IOPS"), Some(12345.0));
        assert_eq!(get("run: latency p99"), Some(120.0));
        assert_eq!(get("run: CPU per I/O"), None);
        let t = text(&r);
        assert!(t.contains("total: 12.3k IOPS, 50.6 MB/s"), "{t}");
        assert!(t.contains("p99 120.0"), "{t}");
        // With the direction's I/O count: 2,000 I/Os support the p99, not the p99.9.
        let mut r = r;
        r["result"]["read"]["ios"] = json!(2000);
        r["result"]["ios"] = json!(2000);
        let t = text(&r);
        assert!(t.contains("p99 120.0,") && t.contains("p99.9 0.0*"), "{t}");
        assert!(
            t.contains("insufficient samples: 2000 I/Os, the p99.9 needs ≥ 10000"),
            "{t}"
        );
        let f = key_figures(&r);
        let fig = |k: &str| f.iter().find(|x| x.key() == k).cloned();
        assert!(!fig("run: latency p99").unwrap().insufficient_samples);
        assert!(fig("run: latency p99.9").unwrap().insufficient_samples);
    }

    #[test]
    fn suite_text_says_whether_steady_state_was_reached() {
        let r = json!({"suite": "pts", "header": {"model": "M"}, "settings": {},
            "write_cache": {}, "notes": [],
            "tests": [{"test": "iops", "state": "done", "stages": [{"name": "wdpc",
                "steady_state": {"reached": false, "rounds": 25, "max_rounds": 25,
                "tracking": "0/100-4k iops", "window": {"average": 900.0}}}],
                "results": {"block_sizes": ["4k"], "table": [{"rw_mix": "0/100",
                    "iops": {"4k": 900.0}}]}}]});
        let t = text(&r);
        assert!(
            t.contains("steady state NOT reached after 25 of max 25"),
            "{t}"
        );
        assert!(t.contains("average 900.0"), "{t}");
        let f = key_figures(&r);
        assert!(f
            .iter()
            .any(|x| x.key() == "iops: 0/100 4k" && x.value == Some(900.0)));
        // Garbage in: no panic.
        for v in [
            json!(null),
            json!({"tests": [1, {"stages": 2}]}),
            json!({"suite": "run"}),
        ] {
            let _ = text(&v);
            let _ = key_figures(&v);
        }
    }
}
