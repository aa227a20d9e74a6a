//! `sgctl paths DEVICE`: every path of the drive DEVICE belongs to.

use super::scan::render;
use super::{Ctx, Report};
use crate::discover::{self, IdentMode, ScanOptions};
use std::path::PathBuf;
use std::time::Duration;

/// Show all paths (both SAS ports, every sg/sd/bsg node) of the drive DEVICE belongs to.
#[derive(Debug, clap::Args)]
pub struct PathsArgs {
    /// /dev/sgN, /dev/sdX, /dev/bsg/H:C:T:L, H:C:T:L, an LU name (naa.…) or a sim: address.
    pub device: String,
    /// Read this directory instead of / (see `sgctl scan --sysroot`).
    #[arg(long, value_name = "DIR")]
    pub sysroot: Option<PathBuf>,
    /// Per-device timeout in milliseconds.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub timeout_ms: u64,
}

/// Runs `sgctl paths`.
pub fn run(ctx: &mut Ctx, args: PathsArgs) -> anyhow::Result<Report> {
    let opts = ScanOptions {
        sysroot: args.sysroot.unwrap_or_else(|| PathBuf::from("/")),
        timeout: Duration::from_millis(args.timeout_ms.max(1)),
        verbose: ctx.verbose,
        mode: IdentMode::Auto,
    };
    let drive = discover::paths_of_with(&args.device, &opts)?;
    let text = render(std::slice::from_ref(&drive));
    let exit = if drive.has_errors() {
        crate::exit::PARTIAL
    } else {
        crate::exit::OK
    };
    Ok(Report::new(Some(&args.device), &drive, text).with_exit(exit))
}
