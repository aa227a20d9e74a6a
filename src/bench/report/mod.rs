//! The benchmark's reports: the documents `sgctl bench run --report`, `bench pts` and `bench
//! review` write (`report.json`, docs/bench-report.md, docs/report.schema.json), their HTML
//! page, the terminal summary and `bench compare`. The HTML builder and the charts they draw
//! with are [`crate::report`]'s; nothing there knows of benchmarks.
//!
//! - [`suite`]: the suites' `report.json` (the envelope the run report shares: format, version,
//!   header).
//! - [`run`]: the `bench run --report DIR` report.
//! - [`load`]: the one checked reader of report files (compare, schema test, fuzz target).
//! - [`summary`]: the terminal summary and key figures of a report.
//! - [`page`]: `report.html` of a benchmark run, from its `report.json`.
//! - [`compare`]: `bench compare`: figures side by side and the charts overlaid.

pub mod compare;
pub mod load;
pub mod page;
pub mod run;
pub mod suite;
pub mod summary;
