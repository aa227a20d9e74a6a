//! Charts as inline SVG, drawn with `plotters` (SVG backend, no font files: text is emitted
//! as SVG `<text>` and the browser lays it out).
//!
//! The chart types are the ones benchmark reports need: x/y line and point charts (with
//! horizontal bands and reference lines for the steady-state window), histograms on a log
//! latency axis, grouped bars and a heat map. Each takes plain data, so any report can use it.

use plotters::coord::Shift;
use plotters::prelude::*;
use std::ops::Range;

/// Chart width and height in SVG user units.
pub const DEFAULT_SIZE: (u32, u32) = (760, 380);

/// The colour cycle for series (colour-blind friendly, after Okabe & Ito 2008).
const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(120, 120, 120),
    RGBColor(240, 228, 66),
];

/// The colour of series number `i`.
pub fn palette(i: usize) -> RGBColor {
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
    /// X axis label.
    pub x_label: String,
    /// Y axis label.
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
            size: DEFAULT_SIZE,
        }
    }

    /// Adds a series.
    pub fn with(mut self, s: Series) -> XyChart {
        self.series.push(s);
        self
    }
}

/// Why a chart could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum ChartError {
    /// No finite data point to draw.
    #[error("chart '{0}': no data")]
    NoData(String),
    /// The drawing backend failed.
    #[error("chart '{title}': {msg}")]
    Draw {
        /// Chart title.
        title: String,
        /// The backend's message.
        msg: String,
    },
}

fn draw_err<E: std::fmt::Debug>(title: &str) -> impl Fn(E) -> ChartError + '_ {
    move |e| ChartError::Draw {
        title: title.to_string(),
        msg: format!("{e:?}"),
    }
}

/// Largest magnitude drawn: 1e18 is beyond any figure a report holds (latencies in µs, IOPS,
/// bytes below 2^60), and plotters' axis code runs for ever on ranges near f64's limit (a
/// report is a file anyone can edit: a latency of 1e250 hung `bench compare --html`).
const MAX_ABS: f64 = 1e18;

/// Smallest value on a log axis: plotters' log key points never end on a range that starts
/// near f64's smallest positive numbers.
const MIN_LOG: f64 = 1e-18;

/// A value the charts draw: finite and at most [`MAX_ABS`] in magnitude.
fn plottable(v: f64) -> bool {
    v.is_finite() && v.abs() <= MAX_ABS
}

/// A value a log axis draws: [`plottable`] and at least [`MIN_LOG`].
fn log_plottable(v: f64) -> bool {
    plottable(v) && v >= MIN_LOG
}

/// Data range with a margin; never empty.
fn span(lo: f64, hi: f64, log: bool, from_zero: bool) -> Range<f64> {
    if log {
        let lo = lo.max(MIN_LOG);
        let hi = hi.max(lo * 1.0001);
        return lo / 1.3..hi * 1.3;
    }
    let lo = if from_zero && lo >= 0.0 { 0.0 } else { lo };
    let pad = ((hi - lo).abs() * 0.06).max(hi.abs() * 1e-6).max(1e-9);
    let lo = if from_zero && lo == 0.0 {
        0.0
    } else {
        lo - pad
    };
    lo..hi + pad
}

/// Raises the top of the y range so the legend (drawn in the upper right when there is more
/// than one entry, ~16 px per entry) sits above the data instead of covering it.
fn legend_headroom(r: Range<f64>, log: bool, entries: usize, height: u32) -> Range<f64> {
    if entries <= 1 {
        return r;
    }
    // The plot area is the height less the caption, margins and x labels (~90 px).
    let plot = f64::from(height.saturating_sub(90).max(60));
    let frac = ((entries as f64 * 16.0 + 14.0) / plot).min(0.6);
    if log {
        let (lo, hi) = (r.start.ln(), r.end.ln());
        lo.exp()..(lo + (hi - lo) / (1.0 - frac)).exp()
    } else {
        r.start..r.start + (r.end - r.start) / (1.0 - frac)
    }
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

/// Draws an x/y chart; returns the `<svg>` element.
pub fn xy_svg(c: &XyChart) -> Result<String, ChartError> {
    let pts: Vec<(f64, f64)> = c
        .series
        .iter()
        .flat_map(|s| finite(&s.points, c.log_x, c.log_y))
        .collect();
    if pts.is_empty() {
        return Err(ChartError::NoData(c.title.clone()));
    }
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in &pts {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    for b in &c.bands {
        if plottable(b.lo) && plottable(b.hi) {
            y0 = y0.min(b.lo);
            y1 = y1.max(b.hi);
        }
    }
    let xr = span(x0, x1, c.log_x, false);
    let yr = legend_headroom(
        span(y0, y1, c.log_y, c.y_from_zero),
        c.log_y,
        c.series.len() + c.bands.len(),
        c.size.1,
    );
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, c.size).into_drawing_area();
        root.fill(&WHITE).map_err(draw_err(&c.title))?;
        match (c.log_x, c.log_y) {
            (false, false) => plot_xy(&root, c, xr, yr)?,
            (true, false) => plot_xy(&root, c, xr.log_scale(), yr)?,
            (false, true) => plot_xy(&root, c, xr, yr.log_scale())?,
            (true, true) => plot_xy(&root, c, xr.log_scale(), yr.log_scale())?,
        }
        root.present().map_err(draw_err(&c.title))?;
    }
    Ok(svg)
}

fn plot_xy<X, Y>(
    root: &DrawingArea<SVGBackend, Shift>,
    c: &XyChart,
    xr: X,
    yr: Y,
) -> Result<(), ChartError>
where
    X: plotters::coord::ranged1d::AsRangedCoord<Value = f64>,
    Y: plotters::coord::ranged1d::AsRangedCoord<Value = f64>,
    X::CoordDescType: plotters::coord::ranged1d::ValueFormatter<f64>,
    Y::CoordDescType: plotters::coord::ranged1d::ValueFormatter<f64>,
{
    let e = draw_err(&c.title);
    let mut chart = ChartBuilder::on(root)
        .caption(&c.title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(42)
        .y_label_area_size(70)
        .build_cartesian_2d(xr, yr)
        .map_err(&e)?;
    chart
        .configure_mesh()
        .x_desc(&c.x_label)
        .y_desc(&c.y_label)
        .label_style(("sans-serif", 12))
        .axis_desc_style(("sans-serif", 13))
        .light_line_style(RGBColor(235, 235, 235))
        .y_label_formatter(&|v| human(*v))
        .x_label_formatter(&|v| human(*v))
        .draw()
        .map_err(&e)?;
    let (xlo, xhi) = {
        let r = chart.x_range();
        (r.start, r.end)
    };
    for (i, b) in c.bands.iter().enumerate() {
        let col = palette(6 - (i % 2)).mix(b.alpha);
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(xlo, b.lo), (xhi, b.hi)],
                col.filled(),
            )))
            .map_err(&e)?
            .label(&b.name)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 16, y + 5)], col.filled()));
    }
    for (i, s) in c.series.iter().enumerate() {
        let col = palette(s.color.unwrap_or(i));
        let data: Vec<(f64, f64)> = finite(&s.points, c.log_x, c.log_y).collect();
        let anno = match s.mark {
            Mark::Line => chart
                .draw_series(LineSeries::new(data, col.stroke_width(2)))
                .map_err(&e)?,
            Mark::Dashed => chart
                .draw_series(DashedLineSeries::new(data, 6, 4, col.stroke_width(2)))
                .map_err(&e)?,
            Mark::Points => chart
                .draw_series(data.into_iter().map(|p| Circle::new(p, 3, col.filled())))
                .map_err(&e)?,
            Mark::LinePoints => {
                chart
                    .draw_series(LineSeries::new(data.clone(), col.stroke_width(2)))
                    .map_err(&e)?;
                chart
                    .draw_series(data.into_iter().map(|p| Circle::new(p, 3, col.filled())))
                    .map_err(&e)?
            }
        };
        anno.label(&s.name)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], col.stroke_width(3)));
    }
    if c.series.len() + c.bands.len() > 1 {
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(200, 200, 200))
            .label_font(("sans-serif", 12))
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(&e)?;
    }
    Ok(())
}

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

/// Draws a histogram.
pub fn histogram_svg(h: &Histogram) -> Result<String, ChartError> {
    let bins: Vec<(f64, f64, f64)> = h
        .bins
        .iter()
        .copied()
        .filter(|&(a, b, n)| plottable(a) && plottable(b) && plottable(n) && b > a && n >= 0.0)
        .filter(|&(a, _, _)| !h.log_x || log_plottable(a))
        .collect();
    if bins.is_empty() {
        return Err(ChartError::NoData(h.title.clone()));
    }
    let x0 = bins.iter().map(|b| b.0).fold(f64::MAX, f64::min);
    let x1 = bins.iter().map(|b| b.1).fold(f64::MIN, f64::max);
    let y1 = bins.iter().map(|b| b.2).fold(0.0, f64::max).max(1.0);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, h.size).into_drawing_area();
        let e = draw_err(&h.title);
        root.fill(&WHITE).map_err(&e)?;
        let xr = span(x0, x1, h.log_x, false);
        let yr = 0.0..y1 * 1.08;
        if h.log_x {
            draw_bars(&root, h, &bins, xr.log_scale(), yr)?;
        } else {
            draw_bars(&root, h, &bins, xr, yr)?;
        }
        root.present().map_err(&e)?;
    }
    Ok(svg)
}

fn draw_bars<X>(
    root: &DrawingArea<SVGBackend, Shift>,
    h: &Histogram,
    bins: &[(f64, f64, f64)],
    xr: X,
    yr: Range<f64>,
) -> Result<(), ChartError>
where
    X: plotters::coord::ranged1d::AsRangedCoord<Value = f64>,
    X::CoordDescType: plotters::coord::ranged1d::ValueFormatter<f64>,
{
    let e = draw_err(&h.title);
    let mut chart = ChartBuilder::on(root)
        .caption(&h.title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(42)
        .y_label_area_size(70)
        .build_cartesian_2d(xr, yr)
        .map_err(&e)?;
    chart
        .configure_mesh()
        .x_desc(&h.x_label)
        .y_desc(&h.y_label)
        .label_style(("sans-serif", 12))
        .axis_desc_style(("sans-serif", 13))
        .light_line_style(RGBColor(235, 235, 235))
        .x_label_formatter(&|v| human(*v))
        .y_label_formatter(&|v| human(*v))
        .draw()
        .map_err(&e)?;
    let col = palette(0);
    chart
        .draw_series(
            bins.iter()
                .map(|&(a, b, n)| Rectangle::new([(a, 0.0), (b, n)], col.mix(0.8).filled())),
        )
        .map_err(&e)?;
    Ok(())
}

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

/// Draws a heat map with each cell's value printed in it.
pub fn heatmap_svg(h: &HeatMap) -> Result<String, ChartError> {
    let all: Vec<f64> = h
        .values
        .iter()
        .flatten()
        .flatten()
        .copied()
        .filter(|&v| plottable(v))
        .collect();
    if all.is_empty() || h.rows.is_empty() || h.cols.is_empty() {
        return Err(ChartError::NoData(h.title.clone()));
    }
    let lo = all.iter().copied().fold(f64::MAX, f64::min);
    let hi = all.iter().copied().fold(f64::MIN, f64::max);
    let (nr, nc) = (h.rows.len(), h.cols.len());
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, h.size).into_drawing_area();
        let e = draw_err(&h.title);
        root.fill(&WHITE).map_err(&e)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(&h.title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(70)
            .build_cartesian_2d(
                (0..nc as i32).into_segmented(),
                (0..nr as i32).into_segmented(),
            )
            .map_err(&e)?;
        let rows = h.rows.clone();
        let cols = h.cols.clone();
        chart
            .configure_mesh()
            .disable_mesh()
            .x_labels(nc)
            .y_labels(nr)
            .label_style(("sans-serif", 12))
            .x_label_formatter(&|v| segment_label(&cols, v, false))
            .y_label_formatter(&|v| segment_label(&rows, v, true))
            .draw()
            .map_err(&e)?;
        for (r, row) in h.values.iter().enumerate().take(nr) {
            for (c, v) in row.iter().enumerate().take(nc) {
                let y = (nr - 1 - r) as i32;
                let x = c as i32;
                let (fill, text) = match v {
                    Some(v) if v.is_finite() => {
                        let t = if hi > lo { (v - lo) / (hi - lo) } else { 0.5 };
                        (ViridisRGB::get_color(t), human(*v))
                    }
                    _ => (RGBColor(230, 230, 230), "-".to_string()),
                };
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [
                            (SegmentValue::Exact(x), SegmentValue::Exact(y + 1)),
                            (SegmentValue::Exact(x + 1), SegmentValue::Exact(y)),
                        ],
                        fill.filled(),
                    )))
                    .map_err(&e)?;
                let ink = if matches!(v, Some(v) if hi > lo && (v - lo) / (hi - lo) > 0.6) {
                    BLACK
                } else {
                    WHITE
                };
                chart
                    .draw_series(std::iter::once(Text::new(
                        text,
                        (SegmentValue::CenterOf(x), SegmentValue::CenterOf(y)),
                        ("sans-serif", 12).into_font().color(&ink).pos(
                            plotters::style::text_anchor::Pos::new(
                                plotters::style::text_anchor::HPos::Center,
                                plotters::style::text_anchor::VPos::Center,
                            ),
                        ),
                    )))
                    .map_err(&e)?;
            }
        }
        root.present().map_err(&e)?;
    }
    Ok(svg)
}

/// The category name at a segment centre (rows are drawn top to bottom, so reversed).
fn segment_label(names: &[String], v: &SegmentValue<i32>, reversed: bool) -> String {
    match v {
        SegmentValue::CenterOf(i) | SegmentValue::Exact(i) if *i >= 0 => {
            let i = *i as usize;
            let idx = if reversed {
                names.len().checked_sub(i + 1)
            } else {
                Some(i)
            };
            idx.and_then(|k| names.get(k)).cloned().unwrap_or_default()
        }
        _ => String::new(),
    }
}

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
    let hi = b
        .series
        .iter()
        .flat_map(|s| s.1.iter().flatten())
        .copied()
        .filter(|&v| plottable(v))
        .fold(f64::MIN, f64::max);
    if hi == f64::MIN || b.categories.is_empty() || b.series.is_empty() {
        return Err(ChartError::NoData(b.title.clone()));
    }
    let n = b.categories.len();
    let k = b.series.len() as f64;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, b.size).into_drawing_area();
        let e = draw_err(&b.title);
        root.fill(&WHITE).map_err(&e)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(&b.title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(70)
            .build_cartesian_2d(0.0..n as f64, 0.0..hi.max(0.0) * 1.1 + 1e-9)
            .map_err(&e)?;
        let cats = b.categories.clone();
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(n * 2 + 1)
            .y_desc(&b.y_label)
            .label_style(("sans-serif", 12))
            .axis_desc_style(("sans-serif", 13))
            .x_label_formatter(&|v| {
                let i = (v - 0.5).round();
                if (v - 0.5 - i).abs() < 0.01 && i >= 0.0 {
                    cats.get(i as usize).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&|v| human(*v))
            .draw()
            .map_err(&e)?;
        for (si, (name, vals)) in b.series.iter().enumerate() {
            let col = palette(si);
            let w = 0.8 / k;
            chart
                .draw_series(vals.iter().enumerate().filter_map(|(ci, v)| {
                    let v = (*v)?;
                    let x = ci as f64 + 0.1 + si as f64 * w;
                    v.is_finite()
                        .then(|| Rectangle::new([(x, 0.0), (x + w * 0.92, v)], col.filled()))
                }))
                .map_err(&e)?
                .label(name)
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 16, y + 5)], col.filled()));
        }
        if b.series.len() > 1 {
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.85))
                .border_style(RGBColor(200, 200, 200))
                .label_font(("sans-serif", 12))
                .draw()
                .map_err(&e)?;
        }
        root.present().map_err(&e)?;
    }
    Ok(svg)
}

/// A short human number for axis labels: 12.5k, 3.2M, 0.75, 1e-5.
pub fn human(v: f64) -> String {
    let a = v.abs();
    if a == 0.0 {
        "0".into()
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

fn trim(s: String) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// Least-squares line through points: (slope, intercept). None for fewer than 2 distinct x.
pub fn least_squares(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    let n = points.len() as f64;
    if points.len() < 2 {
        return None;
    }
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    if sxx == 0.0 {
        return None;
    }
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let slope = sxy / sxx;
    Some((slope, my - slope * mx))
}

/// Trailing moving average over `window` points.
pub fn moving_average(points: &[(f64, f64)], window: usize) -> Vec<(f64, f64)> {
    let w = window.max(1);
    let mut out = Vec::with_capacity(points.len());
    let mut sum = 0.0;
    for (i, p) in points.iter().enumerate() {
        sum += p.1;
        if i >= w {
            sum -= points[i - w].1;
        }
        let k = (i + 1).min(w) as f64;
        out.push((p.0, sum / k));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(xy_svg(&c).unwrap().contains("<svg"));
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
                    xy_svg(&c).map(|s| s.len())
                });
                assert!(r.is_ok(), "{v} {log_x} {log_y}: {r:?}");
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
        let b = BarChart {
            title: "bars".into(),
            y_label: "IOPS".into(),
            categories: vec!["a".into(), "b".into()],
            series: vec![("x".into(), vec![Some(1.0), Some(2.0)])],
            size: DEFAULT_SIZE,
        };
        assert!(bars_svg(&b).unwrap().contains("<rect"));
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
    fn fit_and_moving_average() {
        let (m, b) = least_squares(&[(1.0, 3.0), (2.0, 5.0), (3.0, 7.0)]).unwrap();
        assert!((m - 2.0).abs() < 1e-12 && (b - 1.0).abs() < 1e-12);
        assert!(least_squares(&[(1.0, 1.0), (1.0, 2.0)]).is_none());
        let ma = moving_average(&[(0.0, 2.0), (1.0, 4.0), (2.0, 6.0)], 2);
        assert_eq!(ma, vec![(0.0, 2.0), (1.0, 3.0), (2.0, 5.0)]);
        assert_eq!(human(16_505.0), "16.5k");
        assert_eq!(human(0.73), "0.73");
    }
}
