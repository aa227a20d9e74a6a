//! Charts as inline SVG (text is SVG `<text>`, laid out by the browser; no font files).
//!
//! The chart types are the ones benchmark reports need: x/y line and point charts (with
//! horizontal bands and reference lines for the steady-state window), histograms on a log
//! latency axis, grouped bars and a heat map. Each takes plain data, so any report can use it.
//!
//! Axes come from `super::ticks` (nice numbers, log decades, integer and capped axes), so a
//! flat series, a single point or a range of 36 decades still gets labelled ticks near the
//! data. The layout measures its labels (an estimate of their width in the sans-serif face)
//! and keeps fewer ticks rather than letting labels touch. The legend sits in rows above the
//! plot, never over the data. Every `<svg>` has a `viewBox` and `width="100%"`: it fills the
//! page or column it is put in. Elements carry classes a test can find: `plot` (the plot
//! area, `data-plot`), `tick tick-x` / `tick tick-y` (tick labels), `title`, `axis-title`,
//! `legend`.

use super::html::esc;
use super::ticks::{self, Axis, AxisOpts};
use std::fmt::Write as _;

/// Chart width and height in SVG user units (the `viewBox`; drawn at the page's width).
pub const DEFAULT_SIZE: (u32, u32) = (760, 380);

/// The colour cycle for series (colour-blind friendly, after Okabe & Ito 2008).
const PALETTE: [&str; 8] = [
    "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#787878", "#f0e442",
];

/// The colour of series number `i` (`#rrggbb`).
pub(crate) fn palette(i: usize) -> &'static str {
    PALETTE[i % PALETTE.len()]
}

/// How a series is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// Joined by straight lines.
    Line,
    /// Dots only.
    Points,
    /// Line with a dot at each point.
    LinePoints,
    /// Dashed line (reference lines such as a fit or an average).
    Dashed,
}

/// One named data series.
#[derive(Debug, Clone)]
pub struct Series {
    /// Legend text.
    pub name: String,
    /// Points (x, y); non-finite points are skipped.
    pub points: Vec<(f64, f64)>,
    /// How it is drawn.
    pub mark: Mark,
    /// Colour index into the palette (None: the series' position).
    pub color: Option<usize>,
}

impl Series {
    /// A line series.
    pub fn line(name: impl Into<String>, points: Vec<(f64, f64)>) -> Series {
        Series {
            name: name.into(),
            points,
            mark: Mark::Line,
            color: None,
        }
    }

    /// The same series drawn another way.
    pub fn mark(mut self, mark: Mark) -> Series {
        self.mark = mark;
        self
    }

    /// The same series in palette colour `i`.
    pub fn color(mut self, i: usize) -> Series {
        self.color = Some(i);
        self
    }
}

/// A shaded horizontal band (e.g. ±20 % of the steady-state average).
#[derive(Debug, Clone)]
pub struct Band {
    /// Legend text.
    pub name: String,
    /// Lower y.
    pub lo: f64,
    /// Upper y.
    pub hi: f64,
    /// Opacity 0..1.
    pub alpha: f64,
}

/// An x/y chart.
#[derive(Debug, Clone)]
pub struct XyChart {
    /// Title drawn above the plot.
    pub title: String,
    /// X axis label: the quantity with its unit ("time (s)").
    pub x_label: String,
    /// Y axis label: the quantity with its unit ("latency (µs)", "IOPS").
    pub y_label: String,
    /// The series.
    pub series: Vec<Series>,
    /// Shaded bands behind the series.
    pub bands: Vec<Band>,
    /// Logarithmic x axis.
    pub log_x: bool,
    /// Logarithmic y axis.
    pub log_y: bool,
    /// Start the y axis at zero (linear axes only).
    pub y_from_zero: bool,
    /// Only whole numbers on the x axis (rounds, queue depths).
    pub x_integer: bool,
    /// Only whole numbers on the y axis (counts).
    pub y_integer: bool,
    /// The y axis ends here at most (a fraction: 1).
    pub y_max: Option<f64>,
    /// Size in SVG units.
    pub size: (u32, u32),
}

impl XyChart {
    /// An empty chart with titles.
    pub fn new(title: impl Into<String>, x: impl Into<String>, y: impl Into<String>) -> XyChart {
        XyChart {
            title: title.into(),
            x_label: x.into(),
            y_label: y.into(),
            series: Vec::new(),
            bands: Vec::new(),
            log_x: false,
            log_y: false,
            y_from_zero: true,
            x_integer: false,
            y_integer: false,
            y_max: None,
            size: DEFAULT_SIZE,
        }
    }

    /// Adds a series.
    pub fn with(mut self, s: Series) -> XyChart {
        self.series.push(s);
        self
    }

    /// The x axis counts whole things (rounds, queue depths): no tick at 1.5.
    pub fn integer_x(mut self) -> XyChart {
        self.x_integer = true;
        self
    }

    /// The y axis is a fraction: it ends at 1 at most.
    pub fn fraction_y(mut self) -> XyChart {
        self.y_max = Some(1.0);
        self
    }
}

/// Why a chart could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum ChartError {
    /// No finite data point to draw.
    #[error("{0}: no data to plot")]
    NoData(String),
    /// The drawing failed.
    #[error("{title}: {msg}")]
    Draw {
        /// Chart title.
        title: String,
        /// What failed.
        msg: String,
    },
}

impl ChartError {
    /// The title of the chart that was not drawn.
    pub fn title(&self) -> &str {
        match self {
            ChartError::NoData(t) => t,
            ChartError::Draw { title, .. } => title,
        }
    }
}

/// Largest magnitude drawn: 1e18 is beyond any figure a report holds (latencies in µs, IOPS,
/// bytes below 2^60); a report is a file anyone can edit, and a value of 1e250 must neither
/// hang nor break the axis.
const MAX_ABS: f64 = 1e18;

/// Smallest value on a log axis.
const MIN_LOG: f64 = 1e-18;

/// A value the charts draw: finite and at most [`MAX_ABS`] in magnitude.
fn plottable(v: f64) -> bool {
    v.is_finite() && v.abs() <= MAX_ABS
}

/// A value a log axis draws: [`plottable`] and at least [`MIN_LOG`].
fn log_plottable(v: f64) -> bool {
    plottable(v) && v >= MIN_LOG
}

fn finite(
    points: &[(f64, f64)],
    log_x: bool,
    log_y: bool,
) -> impl Iterator<Item = (f64, f64)> + '_ {
    points.iter().copied().filter(move |&(x, y)| {
        plottable(x) && plottable(y) && (!log_x || log_plottable(x)) && (!log_y || log_plottable(y))
    })
}

// ---- layout -------------------------------------------------------------------------------

const TITLE_PX: f64 = 15.0;
const TICK_PX: f64 = 11.0;
const AXIS_PX: f64 = 12.0;
const LEGEND_PX: f64 = 11.0;
const PAD: f64 = 10.0;

/// Estimated width of `s` in a sans-serif face at `px` (DejaVu Sans, the widest common
/// default, so the estimate errs on the wide side).
pub(crate) fn text_width(s: &str, px: f64) -> f64 {
    let em: f64 = s
        .chars()
        .map(|c| match c {
            '.' | ',' | ':' | ';' | '|' | '!' | '\'' | 'i' | 'j' | 'l' | ' ' => 0.34,
            'f' | 't' | 'r' | '(' | ')' | '[' | ']' | '-' | '/' => 0.42,
            'm' | 'w' | 'M' | 'W' | '%' | '—' => 0.95,
            c if c.is_ascii_uppercase() => 0.74,
            _ => 0.64,
        })
        .sum();
    em * px
}

/// The font size at most `px` at which `s` fits in `avail` units (not below 6).
fn fit_px(s: &str, px: f64, avail: f64) -> f64 {
    let w = text_width(s, 1.0);
    if w * px <= avail || w <= 0.0 {
        px
    } else {
        (avail / w).max(6.0)
    }
}

/// `s` shortened with "…" to fit `avail` units at `px`.
fn ellipsize(s: &str, px: f64, avail: f64) -> String {
    if text_width(s, px) <= avail {
        return s.to_string();
    }
    let mut out: String = String::new();
    for c in s.chars() {
        if text_width(&format!("{out}{c}…"), px) > avail {
            break;
        }
        out.push(c);
    }
    out + "…"
}

/// Colour swatch of a legend entry.
#[derive(Debug, Clone, Copy)]
enum Swatch {
    Line(&'static str, bool),
    Fill(&'static str, f64),
}

struct Legend {
    entries: Vec<(String, Swatch)>,
    /// (x, row) per entry.
    pos: Vec<(f64, usize)>,
    rows: usize,
}

const LEGEND_ROW: f64 = 16.0;

impl Legend {
    fn new(entries: Vec<(String, Swatch)>, width: f64) -> Legend {
        let mut pos = Vec::new();
        let (mut x, mut row) = (PAD, 0);
        let entries: Vec<(String, Swatch)> = entries
            .into_iter()
            .map(|(n, sw)| (ellipsize(&n, LEGEND_PX, width - 2.0 * PAD - 40.0), sw))
            .collect();
        for (name, _) in &entries {
            let w = 22.0 + text_width(name, LEGEND_PX) + 14.0;
            if x > PAD && x + w > width - PAD {
                x = PAD;
                row += 1;
            }
            pos.push((x, row));
            x += w;
        }
        let rows = if entries.is_empty() { 0 } else { row + 1 };
        Legend { entries, pos, rows }
    }

    fn height(&self) -> f64 {
        if self.rows == 0 {
            0.0
        } else {
            self.rows as f64 * LEGEND_ROW + 4.0
        }
    }

    fn draw(&self, o: &mut String, top: f64) {
        for ((name, sw), (x, row)) in self.entries.iter().zip(&self.pos) {
            let y = top + *row as f64 * LEGEND_ROW + 8.0;
            match sw {
                Swatch::Line(c, dashed) => {
                    let _ = write!(
                        o,
                        r#"<line x1="{x:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{c}" stroke-width="3"{}/>"#,
                        x + 18.0,
                        if *dashed {
                            r#" stroke-dasharray="5 3""#
                        } else {
                            ""
                        }
                    );
                }
                Swatch::Fill(c, a) => {
                    let _ = write!(
                        o,
                        r#"<rect x="{x:.1}" y="{:.1}" width="18" height="10" fill="{c}" fill-opacity="{a:.2}"/>"#,
                        y - 5.0
                    );
                }
            }
            let _ = write!(
                o,
                r#"<text class="legend" x="{:.1}" y="{:.1}" font-size="{LEGEND_PX}">{}</text>"#,
                x + 22.0,
                y + 4.0,
                esc(name)
            );
        }
    }
}

/// The plot area in SVG units.
#[derive(Debug, Clone, Copy)]
struct Frame {
    left: f64,
    top: f64,
    right: f64,
    bottom: f64,
}

impl Frame {
    fn px(&self, a: &Axis, v: f64) -> f64 {
        self.left + a.frac(v) * (self.right - self.left)
    }
    fn py(&self, a: &Axis, v: f64) -> f64 {
        self.bottom - a.frac(v) * (self.bottom - self.top)
    }
}

/// Space under the plot: tick labels and the axis title.
const BELOW: f64 = 8.0 + TICK_PX + 8.0 + AXIS_PX + 6.0;

/// A y axis whose labels are at least 16 units apart.
fn fit_y(lo: f64, hi: f64, o: &AxisOpts, height: f64) -> Axis {
    let n = ((height / 34.0) as usize).clamp(2, 10);
    let a = ticks::axis(lo, hi, o, n);
    thin_to_fit(a, height, |_| TICK_PX + 5.0)
}

/// Keeps every k-th tick until neighbouring labels (of extent `size`) do not touch.
fn thin_to_fit(a: Axis, length: f64, size: impl Fn(&str) -> f64) -> Axis {
    for k in 1..=a.ticks.len().max(1) {
        let t = a.thinned(k);
        let ok = t.ticks.windows(2).zip(t.labels.windows(2)).all(|(p, l)| {
            let gap = (t.frac(p[1]) - t.frac(p[0])) * length;
            gap >= (size(&l[0]) + size(&l[1])) / 2.0 + 6.0
        });
        if ok {
            return t;
        }
    }
    a.thinned(a.ticks.len().max(1))
}

/// An x axis with as many ticks as fit the plot width, and the right margin its last label
/// needs.
fn fit_x(lo: f64, hi: f64, o: &AxisOpts, left: f64, width: f64) -> (Axis, f64) {
    let mut best = None;
    for n in (2..=12).rev() {
        let a = ticks::axis(lo, hi, o, n);
        let last = a.labels.last().map_or(0.0, |l| text_width(l, TICK_PX));
        let right = width - (last / 2.0 + 4.0).max(PAD + 6.0);
        let len = right - left;
        let t = thin_to_fit(a, len, |l| text_width(l, TICK_PX));
        let fits = t.ticks.len() >= 2 || n == 2;
        if fits {
            best = Some((t, right));
            break;
        }
    }
    match best {
        Some(b) => b,
        None => {
            let a = ticks::axis(lo, hi, o, 2);
            (a, width - PAD - 6.0)
        }
    }
}

/// The left margin for a y axis's labels and title.
fn left_margin(y: &Axis, has_title: bool) -> f64 {
    let w = y
        .labels
        .iter()
        .map(|l| text_width(l, TICK_PX))
        .fold(0.0, f64::max);
    PAD + if has_title { AXIS_PX + 8.0 } else { 0.0 } + w + 8.0
}

struct Svg {
    w: f64,
    h: f64,
    body: String,
}

impl Svg {
    fn new(size: (u32, u32)) -> Svg {
        let (w, h) = (f64::from(size.0.max(200)), f64::from(size.1.max(150)));
        let mut body = String::new();
        let _ = write!(body, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
        Svg { w, h, body }
    }

    fn title(&mut self, t: &str) {
        let px = fit_px(t, TITLE_PX * 1.08, self.w - 2.0 * PAD) / 1.08;
        let _ = write!(
            self.body,
            r#"<text class="title" x="{:.1}" y="{:.1}" font-size="{px:.1}" font-weight="600" text-anchor="middle">{}</text>"#,
            self.w / 2.0,
            PAD + TITLE_PX,
            esc(t)
        );
    }

    /// Top of whatever follows the title.
    fn below_title() -> f64 {
        PAD + TITLE_PX + 10.0
    }

    fn finish(self, title: &str, kind: &str) -> String {
        // A clip-path id unique to this drawing (several charts share one HTML page).
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for b in self.body.bytes().chain(title.bytes()) {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        let id = format!("clip{hash:016x}");
        format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="100%" preserveAspectRatio="xMidYMid meet" font-family="'DejaVu Sans', Verdana, sans-serif" role="img" data-kind="{kind}" aria-label="{t}"><title>{t}</title>{b}</svg>"#,
            w = self.w,
            h = self.h,
            t = esc(title),
            b = self.body.replace("@CLIP@", &id)
        )
    }

    fn clip(&mut self, f: &Frame) {
        let _ = write!(
            self.body,
            r#"<defs><clipPath id="@CLIP@"><rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}"/></clipPath></defs>"#,
            f.left,
            f.top - 1.0,
            f.right - f.left,
            f.bottom - f.top + 2.0
        );
    }

    /// Plot area, grid, ticks, tick labels and axis titles of an x/y frame.
    fn axes(&mut self, f: &Frame, x: Option<&Axis>, y: &Axis, x_title: &str, y_title: &str) {
        let o = &mut self.body;
        let _ = write!(
            o,
            r##"<rect class="plot" data-plot="1" x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#fcfcfd" stroke="#c8cdd2"/>"##,
            f.left,
            f.top,
            f.right - f.left,
            f.bottom - f.top
        );
        for v in &y.minor {
            let py = f.py(y, *v);
            let _ = write!(
                o,
                r##"<line x1="{:.1}" y1="{py:.1}" x2="{:.1}" y2="{py:.1}" stroke="#f0f0f0"/>"##,
                f.left, f.right
            );
        }
        for (v, l) in y.ticks.iter().zip(&y.labels) {
            let py = f.py(y, *v);
            let _ = write!(
                o,
                r##"<line x1="{:.1}" y1="{py:.1}" x2="{:.1}" y2="{py:.1}" stroke="#e4e4e4"/><line x1="{:.1}" y1="{py:.1}" x2="{:.1}" y2="{py:.1}" stroke="#555"/><text class="tick tick-y" x="{:.1}" y="{:.1}" font-size="{TICK_PX}" text-anchor="end">{}</text>"##,
                f.left,
                f.right,
                f.left - 4.0,
                f.left,
                f.left - 6.0,
                py + TICK_PX * 0.35,
                esc(l)
            );
        }
        if let Some(x) = x {
            for v in &x.minor {
                let px = f.px(x, *v);
                let _ = write!(
                    o,
                    r##"<line x1="{px:.1}" y1="{:.1}" x2="{px:.1}" y2="{:.1}" stroke="#f0f0f0"/>"##,
                    f.top, f.bottom
                );
            }
            for (v, l) in x.ticks.iter().zip(&x.labels) {
                let px = f.px(x, *v);
                let _ = write!(
                    o,
                    r##"<line x1="{px:.1}" y1="{:.1}" x2="{px:.1}" y2="{:.1}" stroke="#e4e4e4"/><line x1="{px:.1}" y1="{:.1}" x2="{px:.1}" y2="{:.1}" stroke="#555"/><text class="tick tick-x" x="{px:.1}" y="{:.1}" font-size="{TICK_PX}" text-anchor="middle">{}</text>"##,
                    f.top,
                    f.bottom,
                    f.bottom,
                    f.bottom + 4.0,
                    f.bottom + 6.0 + TICK_PX,
                    esc(l)
                );
            }
        }
        let _ = write!(
            o,
            r##"<line x1="{l:.1}" y1="{b:.1}" x2="{r:.1}" y2="{b:.1}" stroke="#555"/><line x1="{l:.1}" y1="{t:.1}" x2="{l:.1}" y2="{b:.1}" stroke="#555"/>"##,
            l = f.left,
            r = f.right,
            t = f.top,
            b = f.bottom
        );
        if !x_title.is_empty() {
            let px = fit_px(x_title, AXIS_PX, f.right - f.left);
            let _ = write!(
                o,
                r#"<text class="axis-title" x="{:.1}" y="{:.1}" font-size="{px:.1}" text-anchor="middle">{}</text>"#,
                (f.left + f.right) / 2.0,
                f.bottom + BELOW - 6.0,
                esc(x_title)
            );
        }
        if !y_title.is_empty() {
            let (cx, cy) = (PAD + AXIS_PX * 0.8, (f.top + f.bottom) / 2.0);
            let px = fit_px(y_title, AXIS_PX, f.bottom - f.top);
            let _ = write!(
                o,
                r#"<text class="axis-title" x="{cx:.1}" y="{cy:.1}" font-size="{px:.1}" text-anchor="middle" transform="rotate(-90 {cx:.1} {cy:.1})">{}</text>"#,
                esc(y_title)
            );
        }
    }
}

/// Data bounds of an iterator of values (None when empty).
fn bounds(vals: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    vals.fold(None, |acc, v| match acc {
        None => Some((v, v)),
        Some((a, b)) => Some((f64::min(a, v), f64::max(b, v))),
    })
}

// ---- x/y charts ---------------------------------------------------------------------------

/// Draws an x/y chart; returns the `<svg>` element.
pub fn xy_svg(c: &XyChart) -> Result<String, ChartError> {
    let pts: Vec<(f64, f64)> = c
        .series
        .iter()
        .flat_map(|s| finite(&s.points, c.log_x, c.log_y))
        .collect();
    let (Some((x0, x1)), Some((mut y0, mut y1))) = (
        bounds(pts.iter().map(|p| p.0)),
        bounds(pts.iter().map(|p| p.1)),
    ) else {
        return Err(ChartError::NoData(c.title.clone()));
    };
    for b in &c.bands {
        let ok = |v: f64| {
            if c.log_y {
                log_plottable(v)
            } else {
                plottable(v)
            }
        };
        if ok(b.lo) && ok(b.hi) {
            y0 = y0.min(b.lo);
            y1 = y1.max(b.hi);
        }
    }
    let mut svg = Svg::new(c.size);
    svg.title(&c.title);
    let entries: Vec<(String, Swatch)> = c
        .bands
        .iter()
        .enumerate()
        .map(|(i, b)| {
            (
                b.name.clone(),
                Swatch::Fill(palette(6 - (i % 2)), b.alpha.clamp(0.05, 1.0)),
            )
        })
        .chain(c.series.iter().enumerate().map(|(i, s)| {
            (
                s.name.clone(),
                Swatch::Line(palette(s.color.unwrap_or(i)), s.mark == Mark::Dashed),
            )
        }))
        .collect();
    let legend = Legend::new(
        if entries.len() > 1 {
            entries
        } else {
            Vec::new()
        },
        svg.w,
    );
    let top = Svg::below_title() + legend.height();
    legend.draw(&mut svg.body, Svg::below_title());
    let bottom = svg.h - BELOW;
    let yo = AxisOpts {
        log: c.log_y,
        integer: c.y_integer,
        from_zero: c.y_from_zero && !c.log_y,
        max: c.y_max,
    };
    let y = fit_y(y0, y1, &yo, bottom - top);
    let xo = AxisOpts {
        log: c.log_x,
        integer: c.x_integer,
        from_zero: false,
        max: None,
    };
    let first_half = |a: &Axis| {
        a.labels
            .first()
            .map_or(0.0, |l| text_width(l, TICK_PX) / 2.0 + 4.0)
    };
    let mut left = left_margin(&y, !c.y_label.is_empty());
    let (mut x, mut right) = fit_x(x0, x1, &xo, left, svg.w);
    if first_half(&x) > left {
        left = first_half(&x);
        (x, right) = fit_x(x0, x1, &xo, left, svg.w);
    }
    let f = Frame {
        left,
        top,
        right,
        bottom,
    };
    svg.clip(&f);
    svg.axes(&f, Some(&x), &y, &c.x_label, &c.y_label);
    let _ = write!(svg.body, r#"<g clip-path="url(#@CLIP@)">"#);
    for (i, b) in c.bands.iter().enumerate() {
        if !(plottable(b.lo) && plottable(b.hi)) || (c.log_y && !log_plottable(b.lo)) {
            continue;
        }
        let (ya, yb) = (f.py(&y, b.hi), f.py(&y, b.lo));
        let _ = write!(
            svg.body,
            r#"<rect x="{:.1}" y="{ya:.1}" width="{:.1}" height="{:.1}" fill="{}" fill-opacity="{:.2}"/>"#,
            f.left,
            f.right - f.left,
            (yb - ya).max(0.5),
            palette(6 - (i % 2)),
            b.alpha.clamp(0.05, 1.0)
        );
    }
    for (i, s) in c.series.iter().enumerate() {
        let col = palette(s.color.unwrap_or(i));
        let data: Vec<(f64, f64)> = finite(&s.points, c.log_x, c.log_y)
            .map(|(a, b)| (f.px(&x, a), f.py(&y, b)))
            .collect();
        let line = matches!(s.mark, Mark::Line | Mark::LinePoints | Mark::Dashed);
        if line && data.len() > 1 {
            let _ = write!(
                svg.body,
                r#"<polyline fill="none" stroke="{col}" stroke-width="2" stroke-linejoin="round"{} points=""#,
                if s.mark == Mark::Dashed {
                    r#" stroke-dasharray="6 4""#
                } else {
                    ""
                }
            );
            for (px, py) in &data {
                let _ = write!(svg.body, "{px:.1},{py:.1} ");
            }
            svg.body.push_str(r#""/>"#);
        }
        // Dots where asked, and for a lone point (a line through one point draws nothing).
        if !line || s.mark == Mark::LinePoints || data.len() == 1 {
            for (px, py) in &data {
                let _ = write!(
                    svg.body,
                    r#"<circle cx="{px:.1}" cy="{py:.1}" r="3" fill="{col}"/>"#
                );
            }
        }
    }
    svg.body.push_str("</g>");
    Ok(svg.finish(&c.title, "xy"))
}

// ---- histograms ---------------------------------------------------------------------------

/// A histogram: bars over bins `[lo, hi)` with counts, on a log x axis when `log_x`.
#[derive(Debug, Clone)]
pub struct Histogram {
    /// Title.
    pub title: String,
    /// X label (e.g. "latency (µs)").
    pub x_label: String,
    /// Y label.
    pub y_label: String,
    /// (lower edge, upper edge, count).
    pub bins: Vec<(f64, f64, f64)>,
    /// Logarithmic x axis.
    pub log_x: bool,
    /// Size.
    pub size: (u32, u32),
}

/// Draws a histogram. Counts that are all whole numbers get whole y ticks.
pub fn histogram_svg(h: &Histogram) -> Result<String, ChartError> {
    let bins: Vec<(f64, f64, f64)> = h
        .bins
        .iter()
        .copied()
        .filter(|&(a, b, n)| plottable(a) && plottable(b) && plottable(n) && b > a && n >= 0.0)
        .filter(|&(a, _, _)| !h.log_x || log_plottable(a))
        .collect();
    let (Some((x0, _)), Some((_, x1)), Some((_, y1))) = (
        bounds(bins.iter().map(|b| b.0)),
        bounds(bins.iter().map(|b| b.1)),
        bounds(bins.iter().map(|b| b.2)),
    ) else {
        return Err(ChartError::NoData(h.title.clone()));
    };
    let integer = bins.iter().all(|b| b.2.fract() == 0.0);
    let mut svg = Svg::new(h.size);
    svg.title(&h.title);
    let top = Svg::below_title();
    let bottom = svg.h - BELOW;
    let yo = AxisOpts {
        log: false,
        integer,
        from_zero: true,
        max: None,
    };
    let y = fit_y(0.0, if y1 > 0.0 { y1 } else { 1.0 }, &yo, bottom - top);
    let xo = AxisOpts {
        log: h.log_x,
        ..AxisOpts::default()
    };
    let left = left_margin(&y, !h.y_label.is_empty());
    let (x, right) = fit_x(x0, x1, &xo, left, svg.w);
    let f = Frame {
        left,
        top,
        right,
        bottom,
    };
    svg.clip(&f);
    svg.axes(&f, Some(&x), &y, &h.x_label, &h.y_label);
    let _ = write!(svg.body, r#"<g clip-path="url(#@CLIP@)">"#);
    for (a, b, n) in &bins {
        let (xa, xb) = (f.px(&x, *a), f.px(&x, *b));
        let yt = f.py(&y, *n);
        let _ = write!(
            svg.body,
            r#"<rect x="{xa:.2}" y="{yt:.1}" width="{:.2}" height="{:.1}" fill="{}" fill-opacity="0.8"/>"#,
            (xb - xa).max(0.8),
            (f.bottom - yt).max(0.0),
            palette(0)
        );
    }
    svg.body.push_str("</g>");
    Ok(svg.finish(&h.title, "histogram"))
}

// ---- heat maps ----------------------------------------------------------------------------

/// A heat map: a value per (row, column) cell, shaded from low to high and labelled.
#[derive(Debug, Clone)]
pub struct HeatMap {
    /// Title.
    pub title: String,
    /// Row names (top to bottom).
    pub rows: Vec<String>,
    /// Column names (left to right).
    pub cols: Vec<String>,
    /// `values[row][col]`; None: not measured.
    pub values: Vec<Vec<Option<f64>>>,
    /// Size.
    pub size: (u32, u32),
}

/// Viridis (van der Walt & Smith), interpolated between five of its colours; `t` in 0..=1.
fn viridis(t: f64) -> (u8, u8, u8) {
    const STOPS: [(f64, f64, f64); 5] = [
        (68.0, 1.0, 84.0),
        (59.0, 82.0, 139.0),
        (33.0, 145.0, 140.0),
        (94.0, 201.0, 98.0),
        (253.0, 231.0, 37.0),
    ];
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.5
    } * 4.0;
    let i = (t.floor() as usize).min(3);
    let u = t - i as f64;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    let m = |p: f64, q: f64| (p + (q - p) * u).round() as u8;
    (m(a.0, b.0), m(a.1, b.1), m(a.2, b.2))
}

/// Draws a heat map with each cell's value printed in it ("–" for a cell not measured).
pub fn heatmap_svg(h: &HeatMap) -> Result<String, ChartError> {
    let all = || {
        h.values
            .iter()
            .flatten()
            .flatten()
            .copied()
            .filter(|&v| plottable(v))
    };
    let Some((lo, hi)) = bounds(all()) else {
        return Err(ChartError::NoData(h.title.clone()));
    };
    if h.rows.is_empty() || h.cols.is_empty() {
        return Err(ChartError::NoData(h.title.clone()));
    }
    let (nr, nc) = (h.rows.len(), h.cols.len());
    let mut svg = Svg::new(h.size);
    svg.title(&h.title);
    let top = Svg::below_title();
    let bottom = svg.h - (8.0 + TICK_PX + 10.0);
    let rows: Vec<String> = h
        .rows
        .iter()
        .map(|r| ellipsize(r, TICK_PX, svg.w / 3.0))
        .collect();
    let left = PAD
        + rows
            .iter()
            .map(|r| text_width(r, TICK_PX))
            .fold(0.0, f64::max)
        + 8.0;
    let right = svg.w - PAD;
    let (cw, ch) = ((right - left) / nc as f64, (bottom - top) / nr as f64);
    let _ = write!(
        svg.body,
        r#"<rect class="plot" data-plot="1" x="{left:.1}" y="{top:.1}" width="{:.1}" height="{:.1}" fill="none"/>"#,
        right - left,
        bottom - top
    );
    for (r, name) in rows.iter().enumerate() {
        let _ = write!(
            svg.body,
            r#"<text class="tick tick-y" x="{:.1}" y="{:.1}" font-size="{TICK_PX}" text-anchor="end">{}</text>"#,
            left - 6.0,
            top + (r as f64 + 0.5) * ch + TICK_PX * 0.35,
            esc(name)
        );
    }
    for (c, name) in h.cols.iter().enumerate() {
        let name = &ellipsize(name, TICK_PX, cw - 4.0);
        let _ = write!(
            svg.body,
            r#"<text class="tick tick-x" x="{:.1}" y="{:.1}" font-size="{TICK_PX}" text-anchor="middle">{}</text>"#,
            left + (c as f64 + 0.5) * cw,
            bottom + 6.0 + TICK_PX,
            esc(name)
        );
    }
    for r in 0..nr {
        for c in 0..nc {
            let v = h
                .values
                .get(r)
                .and_then(|row| row.get(c))
                .copied()
                .flatten()
                .filter(|v| plottable(*v));
            let (fill, text, dark) = match v {
                Some(v) => {
                    let t = if hi > lo { (v - lo) / (hi - lo) } else { 0.5 };
                    let (cr, cg, cb) = viridis(t);
                    let lum =
                        0.2126 * f64::from(cr) + 0.7152 * f64::from(cg) + 0.0722 * f64::from(cb);
                    (format!("rgb({cr},{cg},{cb})"), human(v), lum > 140.0)
                }
                None => ("#e6e6e6".to_string(), "–".to_string(), true),
            };
            let (x, y) = (left + c as f64 * cw, top + r as f64 * ch);
            let px = TICK_PX
                .min(cw / (text_width(&text, 1.0) + 0.8))
                .min(ch * 0.8)
                .max(6.0);
            let _ = write!(
                svg.body,
                r#"<rect x="{x:.1}" y="{y:.1}" width="{:.1}" height="{:.1}" fill="{fill}" stroke="white" stroke-width="0.5"/><text class="cell" x="{:.1}" y="{:.1}" font-size="{px:.1}" text-anchor="middle" fill="{}">{}</text>"#,
                cw,
                ch,
                x + cw / 2.0,
                y + ch / 2.0 + px * 0.35,
                if dark { "#111" } else { "#fff" },
                esc(&text)
            );
        }
    }
    Ok(svg.finish(&h.title, "heatmap"))
}

// ---- grouped bars -------------------------------------------------------------------------

/// Grouped bars: one group per category, one bar per named series.
#[derive(Debug, Clone)]
pub struct BarChart {
    /// Title.
    pub title: String,
    /// Y label.
    pub y_label: String,
    /// Category names (x axis).
    pub categories: Vec<String>,
    /// (series name, one value per category).
    pub series: Vec<(String, Vec<Option<f64>>)>,
    /// Size.
    pub size: (u32, u32),
}

/// Draws grouped bars.
pub fn bars_svg(b: &BarChart) -> Result<String, ChartError> {
    let vals = || {
        b.series
            .iter()
            .flat_map(|s| s.1.iter().flatten())
            .copied()
            .filter(|&v| plottable(v))
    };
    let Some((lo, hi)) = bounds(vals()) else {
        return Err(ChartError::NoData(b.title.clone()));
    };
    if b.categories.is_empty() || b.series.is_empty() {
        return Err(ChartError::NoData(b.title.clone()));
    }
    let n = b.categories.len();
    let k = b.series.len() as f64;
    let mut svg = Svg::new(b.size);
    svg.title(&b.title);
    let legend = Legend::new(
        if b.series.len() > 1 {
            b.series
                .iter()
                .enumerate()
                .map(|(i, s)| (s.0.clone(), Swatch::Fill(palette(i), 1.0)))
                .collect()
        } else {
            Vec::new()
        },
        svg.w,
    );
    legend.draw(&mut svg.body, Svg::below_title());
    let top = Svg::below_title() + legend.height();
    let bottom = svg.h - BELOW;
    let yo = AxisOpts {
        from_zero: true,
        ..AxisOpts::default()
    };
    let y = fit_y(lo, hi, &yo, bottom - top);
    let left = left_margin(&y, !b.y_label.is_empty());
    let f = Frame {
        left,
        top,
        right: svg.w - PAD - 6.0,
        bottom,
    };
    svg.clip(&f);
    svg.axes(&f, None, &y, "", &b.y_label);
    let gw = (f.right - f.left) / n as f64;
    let widest = b
        .categories
        .iter()
        .map(|c| text_width(c, TICK_PX))
        .fold(0.0, f64::max);
    let px = if widest + 6.0 > gw {
        (TICK_PX * gw / (widest + 6.0)).max(8.0)
    } else {
        TICK_PX
    };
    for (ci, name) in b.categories.iter().enumerate() {
        let name = &ellipsize(name, px, gw - 6.0);
        let _ = write!(
            svg.body,
            r#"<text class="tick tick-x" x="{:.1}" y="{:.1}" font-size="{px:.1}" text-anchor="middle">{}</text>"#,
            f.left + (ci as f64 + 0.5) * gw,
            f.bottom + 6.0 + TICK_PX,
            esc(name)
        );
    }
    let _ = write!(svg.body, r#"<g clip-path="url(#@CLIP@)">"#);
    let zero = f.py(&y, 0.0);
    for (si, (_, vals)) in b.series.iter().enumerate() {
        let w = 0.8 / k * gw;
        for (ci, v) in vals.iter().enumerate().take(n) {
            let Some(v) = v.filter(|v| plottable(*v)) else {
                continue;
            };
            let x = f.left + ci as f64 * gw + 0.1 * gw + si as f64 * w;
            let yv = f.py(&y, v);
            let _ = write!(
                svg.body,
                r#"<rect x="{x:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{}"/>"#,
                yv.min(zero),
                w * 0.92,
                (yv - zero).abs(),
                palette(si)
            );
        }
    }
    svg.body.push_str("</g>");
    Ok(svg.finish(&b.title, "bars"))
}

/// A short human number for tables and cells: 12.5k, 3.2M, 0.75, 1e-5.
pub fn human(v: f64) -> String {
    let a = v.abs();
    if !v.is_finite() {
        "–".into()
    } else if a == 0.0 {
        "0".into()
    } else if a >= 1e18 {
        trim(format!("{:.2}", v / 1e18)) + "E"
    } else if a >= 1e15 {
        trim(format!("{:.2}", v / 1e15)) + "P"
    } else if a >= 1e12 {
        trim(format!("{:.2}", v / 1e12)) + "T"
    } else if a >= 1e9 {
        trim(format!("{:.2}", v / 1e9)) + "G"
    } else if a >= 1e6 {
        trim(format!("{:.2}", v / 1e6)) + "M"
    } else if a >= 1e4 {
        trim(format!("{:.1}", v / 1e3)) + "k"
    } else if a >= 100.0 {
        format!("{v:.0}")
    } else if a >= 0.01 {
        trim(format!("{v:.2}"))
    } else {
        format!("{v:.0e}")
    }
}

/// A count for people: digits grouped by thousands (298,445), as tables print sample counts.
pub fn count(n: u64) -> String {
    let d = n.to_string();
    let mut out = String::with_capacity(d.len() + d.len() / 3);
    for (i, c) in d.chars().enumerate() {
        if i > 0 && (d.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn trim(s: String) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (position, label) of the tick labels of one axis ("x" or "y") in an SVG.
    fn tick_labels(svg: &str, axis: &str) -> Vec<(f64, String)> {
        let key = format!("<text class=\"tick tick-{axis}\" x=\"");
        svg.split(&key)
            .skip(1)
            .filter_map(|s| {
                let x: f64 = s.split('"').next()?.parse().ok()?;
                let y: f64 = s.split("y=\"").nth(1)?.split('"').next()?.parse().ok()?;
                let text = s.split('>').nth(1)?.split('<').next()?.to_string();
                Some((if axis == "x" { x } else { y }, text))
            })
            .collect()
    }

    /// Labels present, distinct, and (x axis) not touching by their estimated widths.
    fn readable(svg: &str) {
        let x = tick_labels(svg, "x");
        let y = tick_labels(svg, "y");
        assert!(x.len() >= 2, "x tick labels {x:?}");
        assert!(y.len() >= 2, "y tick labels {y:?}");
        for l in [&x, &y] {
            assert!(
                l.windows(2).all(|w| w[0].1 != w[1].1),
                "repeated tick labels {l:?}"
            );
        }
        for w in x.windows(2) {
            let need = (text_width(&w[0].1, TICK_PX) + text_width(&w[1].1, TICK_PX)) / 2.0;
            assert!(w[1].0 - w[0].0 >= need, "x labels touch: {x:?}");
        }
        for w in y.windows(2) {
            assert!((w[0].0 - w[1].0).abs() >= TICK_PX, "y labels touch: {y:?}");
        }
    }

    fn labels(svg: &str, axis: &str) -> Vec<String> {
        tick_labels(svg, axis).into_iter().map(|p| p.1).collect()
    }

    /// Sample counts in tables were printed as "n = 298445" and "n ≥ 1000000".
    #[test]
    fn counts_are_grouped_by_thousands() {
        for (n, s) in [
            (0, "0"),
            (999, "999"),
            (1000, "1,000"),
            (298_445, "298,445"),
            (1_000_000, "1,000,000"),
        ] {
            assert_eq!(count(n), s);
        }
    }

    #[test]
    fn xy_chart_is_svg_with_title_and_legend() {
        let c = XyChart::new("IOPS per round", "round", "IOPS")
            .with(Series::line(
                "4 KiB",
                vec![(1.0, 100.0), (2.0, 80.0), (3.0, 60.0)],
            ))
            .with(Series::line("avg", vec![(1.0, 80.0), (3.0, 80.0)]).mark(Mark::Dashed));
        let svg = xy_svg(&c).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..40]);
        assert!(svg.contains("IOPS per round"));
        assert!(svg.contains("4 KiB") && svg.contains("avg"));
        readable(&svg);
    }

    /// Charts used half the page: the SVG now scales to its container.
    #[test]
    fn svg_is_responsive() {
        let svg =
            xy_svg(&XyChart::new("t", "x", "y").with(Series::line("a", vec![(1.0, 2.0)]))).unwrap();
        let open = &svg[..svg.find('>').unwrap()];
        assert!(open.contains("viewBox=\"0 0 760 380\""), "{open}");
        assert!(open.contains("width=\"100%\""), "{open}");
        assert!(!open.contains("height="), "{open}");
    }

    /// A flat series had a y axis without tick labels.
    #[test]
    fn flat_series_has_labelled_y_ticks() {
        for from_zero in [false, true] {
            let mut c = XyChart::new("flat", "time (s)", "IOPS").with(Series::line(
                "a",
                (0..20).map(|i| (i as f64, 1234.0)).collect(),
            ));
            c.y_from_zero = from_zero;
            let svg = xy_svg(&c).unwrap();
            readable(&svg);
            assert!(labels(&svg, "y").len() >= 3, "{:?}", labels(&svg, "y"));
        }
    }

    #[test]
    fn single_point_is_drawn_with_axes() {
        let c = XyChart::new("one", "queue depth", "IOPS")
            .integer_x()
            .with(Series::line("a", vec![(4.0, 5000.0)]));
        let svg = xy_svg(&c).unwrap();
        readable(&svg);
        assert!(svg.contains("<circle"), "a lone point is drawn as a dot");
        assert!(labels(&svg, "x").iter().all(|l| !l.contains('.')));
    }

    /// Log axes labelled some decades and ran labels together (`8009001000`).
    #[test]
    fn log_axes_label_decades_without_touching() {
        for (lo, hi) in [(800.0, 1000.0), (20.0, 900.0), (3.0, 2e6), (1e-3, 1e9)] {
            let mut c = XyChart::new("lat", "latency (µs)", "IOPS")
                .with(Series::line("a", vec![(lo, 1.0), (hi, 2.0)]));
            c.log_x = true;
            let svg = xy_svg(&c).unwrap();
            readable(&svg);
        }
        let mut c = XyChart::new("lat", "latency (µs)", "IOPS")
            .with(Series::line("a", vec![(5.0, 1.0), (4000.0, 2.0)]));
        c.log_x = true;
        let l = labels(&xy_svg(&c).unwrap(), "x");
        for d in ["10", "100", "1k"] {
            assert!(l.contains(&d.to_string()), "decade {d} not labelled: {l:?}");
        }
    }

    /// The IOPS-by-mix chart (log y, 8 series) ran to 100M for data under 117k: the legend
    /// pushed the axis up. The legend now sits above the plot.
    #[test]
    fn legend_does_not_stretch_the_axis() {
        let mut c = XyChart::new("IOPS by mix", "read (%)", "IOPS");
        c.log_y = true;
        for i in 0..8 {
            let k = f64::from(i);
            c.series.push(Series::line(
                format!("{} B", 512 << i),
                vec![(0.0, 400.0 * (k + 1.0)), (100.0, 116_800.0 / (k + 1.0))],
            ));
        }
        let svg = xy_svg(&c).unwrap();
        readable(&svg);
        let top = labels(&svg, "y");
        assert!(
            top.iter().all(|l| !l.ends_with('M')),
            "y axis far above the data: {top:?}"
        );
        for i in 0..8 {
            assert!(svg.contains(&format!(">{} B<", 512 << i)));
        }
    }

    /// The exceedance axis went up to 10 for a fraction.
    #[test]
    fn exceedance_axis_ends_at_one() {
        let mut c = XyChart::new("exceedance", "latency (µs)", "fraction of I/Os slower")
            .fraction_y()
            .with(Series::line(
                "x",
                vec![(10.0, 0.9), (20.0, 0.1), (50.0, 1e-3), (80.0, 1e-5)],
            ));
        c.log_x = true;
        c.log_y = true;
        let svg = xy_svg(&c).unwrap();
        readable(&svg);
        let y = labels(&svg, "y");
        assert_eq!(y.last().map(String::as_str), Some("1"), "{y:?}");
        assert!(!y.contains(&"10".to_string()), "{y:?}");
    }

    /// Histogram y ticks repeated (`0.04 0.04 0.04 0.03`), count axes had 1.5 and 2.5.
    #[test]
    fn histogram_ticks_are_distinct_and_whole_for_counts() {
        let mut h = Histogram {
            title: "latency".into(),
            x_label: "completion latency (µs)".into(),
            y_label: "fraction of I/Os".into(),
            bins: vec![(10.0, 12.0, 0.031), (12.0, 15.0, 0.047), (15.0, 20.0, 0.04)],
            log_x: true,
            size: DEFAULT_SIZE,
        };
        readable(&histogram_svg(&h).unwrap());
        h.bins = vec![(10.0, 12.0, 1.0), (12.0, 15.0, 3.0)];
        h.y_label = "I/Os".into();
        let svg = histogram_svg(&h).unwrap();
        readable(&svg);
        assert!(
            labels(&svg, "y").iter().all(|l| !l.contains('.')),
            "{:?}",
            labels(&svg, "y")
        );
        // One bin: still an x axis with labels.
        h.bins = vec![(100.0, 110.0, 7.0)];
        readable(&histogram_svg(&h).unwrap());
    }

    #[test]
    fn log_axes_and_bad_points_do_not_fail() {
        let mut c = XyChart::new("exceedance", "latency (µs)", "fraction");
        c.log_x = true;
        c.log_y = true;
        c.series.push(Series::line(
            "read",
            vec![(0.0, 1.0), (10.0, 0.5), (f64::NAN, 0.1), (100.0, 1e-5)],
        ));
        readable(&xy_svg(&c).unwrap());
    }

    /// Runs `f` on a thread; fails when it takes longer than 60 s (a hang).
    fn within_a_minute<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(f());
        });
        rx.recv_timeout(std::time::Duration::from_secs(60))
            .expect("the chart was not drawn within a minute (hang)")
    }

    #[test]
    fn huge_values_neither_hang_nor_panic() {
        for v in [
            1e250,
            f64::MAX,
            1e19,
            1e18,
            -1e300,
            f64::MIN_POSITIVE,
            5e-324,
            1e-18,
        ] {
            for (log_x, log_y) in [(false, false), (false, true), (true, true)] {
                let r = within_a_minute(move || {
                    let mut c = XyChart::new("lat", "t", "µs");
                    c.log_x = log_x;
                    c.log_y = log_y;
                    c.series
                        .push(Series::line("a", vec![(1.0, 50.0), (2.0, 60.0)]));
                    c.series.push(Series::line("b", vec![(1.0, v), (2.0, v)]));
                    xy_svg(&c)
                });
                let svg = r.unwrap_or_else(|e| panic!("{v} {log_x} {log_y}: {e}"));
                readable(&svg);
            }
            let r = within_a_minute(move || {
                histogram_svg(&Histogram {
                    title: "h".into(),
                    x_label: "x".into(),
                    y_label: "y".into(),
                    bins: vec![(1.0, 2.0, 3.0), (v, v * 2.0, 1.0)],
                    log_x: true,
                    size: DEFAULT_SIZE,
                })
                .map(|s| s.len())
            });
            assert!(r.is_ok(), "{v}: {r:?}");
        }
    }

    #[test]
    fn empty_data_is_an_error_not_a_panic() {
        let c = XyChart::new("nothing", "x", "y").with(Series::line("s", vec![(f64::NAN, 1.0)]));
        assert!(matches!(xy_svg(&c), Err(ChartError::NoData(_))));
        let h = HeatMap {
            title: "h".into(),
            rows: vec![],
            cols: vec![],
            values: vec![],
            size: DEFAULT_SIZE,
        };
        assert!(heatmap_svg(&h).is_err());
    }

    #[test]
    fn heatmap_and_bars_and_histogram_draw() {
        let h = HeatMap {
            title: "IOPS".into(),
            rows: vec!["512".into(), "4096".into()],
            cols: vec!["0/100".into(), "100/0".into()],
            values: vec![vec![Some(1000.0), None], vec![Some(50_000.0), Some(9.0)]],
            size: DEFAULT_SIZE,
        };
        let s = heatmap_svg(&h).unwrap();
        assert!(s.contains("50k") && s.contains("4096"));
        assert!(s.contains(">–<"), "an absent cell reads –");
        let b = BarChart {
            title: "bars".into(),
            y_label: "IOPS".into(),
            categories: vec!["a".into(), "b".into()],
            series: vec![("x".into(), vec![Some(1.0), Some(2.0)])],
            size: DEFAULT_SIZE,
        };
        let s = bars_svg(&b).unwrap();
        assert!(s.contains("<rect"));
        readable(&s);
        let hist = Histogram {
            title: "latency".into(),
            x_label: "µs".into(),
            y_label: "I/Os".into(),
            bins: vec![(10.0, 20.0, 5.0), (20.0, 40.0, 9.0), (0.0, 1.0, 3.0)],
            log_x: true,
            size: DEFAULT_SIZE,
        };
        assert!(histogram_svg(&hist).unwrap().contains("<rect"));
    }

    #[test]
    fn clip_ids_differ_between_charts() {
        let a = xy_svg(&XyChart::new("a", "x", "y").with(Series::line("s", vec![(1.0, 2.0)])));
        let b = xy_svg(&XyChart::new("b", "x", "y").with(Series::line("s", vec![(1.0, 3.0)])));
        let id = |s: &str| {
            s.split("clipPath id=\"")
                .nth(1)
                .map(|x| x[..20].to_string())
        };
        assert_ne!(id(&a.unwrap()), id(&b.unwrap()));
    }

    #[test]
    fn human_numbers() {
        assert_eq!(human(16_505.0), "16.5k");
        assert_eq!(human(0.73), "0.73");
        assert_eq!(human(1e15), "1P");
        assert_eq!(human(f64::NAN), "–");
    }
}
