//! Readable reports: self-contained HTML documents with inline SVG charts, built from the same
//! data the JSON reports hold.
//!
//! - [`html`]: the document builder (inline CSS, print layout, no script, no network fetch).
//! - [`chart`]: x/y, histogram, heat-map and bar charts as SVG.
//! - [`ticks`]: axis ranges, ticks and labels (nice numbers, log decades, SI prefixes).
//! - [`certificate`]: the printable certificate of sanitization.
//! - [`mod@bench`]: `report.html` of a benchmark run, from its `report.json`.
//! - [`run`]: the `bench run --report DIR` report.
//! - [`load`]: the one checked reader of report files (compare, schema test, fuzz target).
//! - [`summary`]: the terminal summary and key figures of a report.
//! - [`compare`]: `bench compare`: figures side by side and the charts overlaid.

pub mod bench;
pub mod certificate;
pub mod chart;
pub mod compare;
pub mod html;
pub mod load;
pub mod pdf;
pub mod run;
pub mod summary;
pub mod ticks;
