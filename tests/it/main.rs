//! The one integration-test binary (as ripgrep's tests/): each file below is a module.
//! Add a new test file here as `tests/it/NAME.rs` and list it with `mod NAME;`.

mod bench_engine;
mod bench_suites;
mod browser;
mod cli_commands;
mod cli_sim_commands;
mod commands_fixtures;
mod commands_proptest;
mod discover_fixtures;
mod epipe;
mod erase_sim;
mod golden;
mod health_sim;
mod job_lock;
mod jobs_lib;
mod logs_health_cli;
mod output_errors;
mod sata;
mod sg3_compare;
mod sg_logs_compare;
mod signed_records;
mod sim_basic;
mod sim_bench_cli;
mod sim_cli;
mod sim_common;
mod sim_format;
mod sim_fuzz;
mod sim_pages;
mod sim_sanitize;
mod sim_serve_cli;
mod tcg_cli;
mod tcg_conformance;
mod tcg_fixtures;
mod tcg_ops;
mod vpd_corrupt;
