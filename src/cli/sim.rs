//! `sgctl sim ...`: the virtual drive's own commands. The simtarget area adds its subcommands
//! (list, ...) to [`SimCommand`]; `sim bench` is the media model's (src/cli/sim_bench.rs).

use super::{Ctx, Report};

/// Arguments of `sgctl sim`.
#[derive(Debug, clap::Args)]
pub struct SimArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: SimCommand,
}

/// `sgctl sim` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum SimCommand {
    /// Benchmark the media model of virtual drives (FOB vs steady state vs extra OP).
    Bench(super::sim_bench::BenchArgs),
}

/// Runs `sgctl sim ...`.
pub fn run(ctx: &mut Ctx, args: SimArgs) -> anyhow::Result<Report> {
    match args.command {
        SimCommand::Bench(a) => super::sim_bench::run(ctx, a),
    }
}
