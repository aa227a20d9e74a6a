//! The review's write cliff against GB written, with and without extra over-provisioning in
//! one chart, drawn from a real `sgctl bench review --part write_cliff,op` on a small virtual
//! drive (64 MiB px02smf080): the chart has both series, the axis in GB written on the
//! full-size drive, and the cliff the run measured (FOB above steady state) is what it draws.

use serde_json::Value;

use crate::util::run_audited as sgctl;

/// The `<polyline points="...">` of an SVG as (x, y) pixel lists.
fn polylines(svg: &str) -> Vec<Vec<(f64, f64)>> {
    svg.split("<polyline")
        .skip(1)
        .filter_map(|p| {
            let pts = p.split("points=\"").nth(1)?.split('"').next()?;
            Some(
                pts.split_whitespace()
                    .filter_map(|xy| {
                        let (x, y) = xy.split_once(',')?;
                        Some((x.parse().ok()?, y.parse().ok()?))
                    })
                    .collect(),
            )
        })
        .collect()
}

#[test]
fn the_write_cliff_chart_is_drawn_from_a_real_review_run() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("r");
    let (code, out, err) = sgctl(
        &[
            "--json",
            "bench",
            "review",
            "sim:px02smf080?capacity_gib=0.0625&serial=CLIFF001",
            "--part",
            "write_cliff,op",
            "--confirm",
            "CLIFF001",
            "--report",
            dir.to_str().unwrap(),
        ],
        &d.path().join("audit.jsonl"),
    );
    assert_eq!(code, 0, "{err}\n{out}");
    let r: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    let test = |name: &str| {
        r["tests"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["test"] == name)
            .unwrap_or_else(|| panic!("no {name} in {r}"))
            .clone()
    };
    let (cliff, op) = (test("write_cliff"), test("op"));
    let fob = cliff["results"]["fob_iops"].as_f64().unwrap();
    let ss = cliff["results"]["ss_iops"].as_f64().unwrap();
    assert!(
        fob > 1.5 * ss,
        "no cliff measured: FOB {fob:.0}, SS {ss:.0}"
    );
    let scale = r["settings"]["time_scale"].as_f64().unwrap();
    assert!(scale > 0.0 && scale < 0.001, "time scale {scale}");

    // The page as `bench review` wrote it, and as the renderer makes it from the JSON.
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert_eq!(html, sgctl::bench::report::page::render(&r));
    let start = html
        .find("Write cliff against data written")
        .expect("no write-cliff-by-GB chart");
    let svg = &html[start..start + html[start..].find("</svg>").unwrap()];
    assert!(svg.contains("GB written (full-size drive)"), "{svg}");
    assert!(svg.contains("4 KiB random write IOPS"), "{svg}");
    assert!(svg.contains("as shipped (no extra OP)"), "{svg}");
    let pct = op["results"]["capacity_pct"].as_f64().unwrap();
    assert_eq!(pct, 80.0);
    assert!(svg.contains("+20 % OP (capacity 80 %)"), "{svg}");
    let lines = polylines(svg);
    assert_eq!(lines.len(), 2, "{svg}");
    for l in &lines {
        assert!(l.len() >= 10, "a series of {} points", l.len());
        // x (GB written) only grows.
        assert!(l.windows(2).all(|w| w[1].0 >= w[0].0), "{l:?}");
    }
    // The cliff is drawn: the as-shipped series starts higher on the page (smaller y) than
    // it ends, as the run's FOB is above its steady state.
    let shipped = &lines[0];
    let (first, last) = (shipped[0].1, shipped[shipped.len() - 1].1);
    assert!(
        first < last,
        "FOB drawn at y {first}, steady state at y {last}"
    );
    // The x axis is GB written on the full-size drive: the as-shipped series' total (IOPS ×
    // 4 KiB × interval, ÷ the time scale) is at least twice the 800 GB drive (the rounds
    // wrote twice its capacity), and an x tick label is of its order (y ticks are IOPS,
    // ten times more).
    let mut prev = 0.0;
    let total: f64 = cliff["results"]["series"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let (t, iops) = (p[0].as_f64().unwrap(), p[1].as_f64().unwrap());
            let dt = t - prev;
            prev = t;
            iops * 4096.0 * dt / 1e9 / scale
        })
        .sum();
    assert!(total >= 1600.0, "{total} GB");
    let ticks: Vec<f64> = svg
        .split("<text")
        .filter_map(|t| t.split('>').nth(1)?.split('<').next())
        .filter_map(|t| {
            let t = t.trim().replace(',', "");
            let (num, mult) = match t.strip_suffix('k') {
                Some(n) => (n.to_string(), 1e3),
                None => (t, 1.0),
            };
            num.parse::<f64>().ok().map(|v| v * mult)
        })
        .collect();
    assert!(
        ticks.iter().any(|&t| t >= 0.3 * total && t <= 1.5 * total),
        "no x tick near {total:.0} GB: {ticks:?}"
    );
}
