//! The benchmark suites on top of the engine: the SNIA PTS tests
//! (`sgctl bench pts`) and the review tests (`sgctl bench review`).
//!
//! * [`steady`] — the PTS steady-state test (5-round window, 20 % data / 10 % slope excursion).
//! * [`defs`] — the tests as data (cells, block sizes, mixes, durations).
//! * `driver` — what the suites need from an engine; `engine_driver` adapts the engine.
//! * [`runner`] — stages, the round loop, progress with ETA, resume.
//! * `pts`, [`review`] — the tests.
//! * `cache` — WCE off per PTS-E, read back, restored.
//! * [`purge`] — purge through the `sgctl sanitize`/`format` jobs.
//! * [`session`] — a `bench pts|review` run below the CLI: gate, audit, engine, write cache, report.
//! * `report.json` (versioned, docs/bench-report.md) is [`crate::bench::report::suite`].
//! * `confidence` — when a percentile means something, intervals of repeated measurements.

pub(crate) mod cache;
pub(crate) mod confidence;
pub mod defs;
pub(crate) mod driver;
pub(crate) mod engine_driver;
pub(crate) mod pts;
pub mod purge;
pub mod review;
pub mod runner;
pub mod session;
pub mod steady;

#[cfg(test)]
mod fake;

#[cfg(test)]
mod tests;
