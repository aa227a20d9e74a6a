//! Rendering: self-contained HTML documents with inline SVG charts, the printable certificate
//! and the PDF/A documents, built from data their callers hand in. Nothing here reads a
//! drive, the host or the clock, or knows of benchmarks or jobs.
//!
//! - [`html`]: the document builder (inline CSS, print layout, no script, no network fetch).
//! - [`chart`]: x/y, histogram, heat-map and bar charts as SVG.
//! - `ticks`: axis ranges, ticks and labels (nice numbers, log decades, SI prefixes).
//! - [`certificate`]: the printable certificate of sanitization.
//! - `pdf`: the PDF/A certificate and batch manifest.
//!
//! The benchmark's reports (`src/bench/report/`) draw with these.

pub mod certificate;
pub mod chart;
pub mod html;
pub(crate) mod pdf;
pub(crate) mod ticks;
