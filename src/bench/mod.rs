//! Benchmarks: the engine (issue 12) and the suites on top of it (issue 13).

pub mod suite;
