//! `sgctl paths DEVICE`: every path of the drive DEVICE belongs to.

use super::scan::render;
use super::{Ctx, Report};
use sgctl::discover::{self, IdentMode, ScanOptions};
use std::path::PathBuf;
use std::time::Duration;

/// Show all paths (both SAS ports, every sg/sd/bsg node) of the drive DEVICE belongs to.
#[derive(Debug, clap::Args)]
pub(crate) struct PathsArgs {
    /// /dev/sgN, /dev/sdX, /dev/bsg/H:C:T:L, H:C:T:L, an LU name (naa.…) or a sim: address.
    pub device: String,
    /// Read this directory instead of / (see `sgctl scan --sysroot`).
    #[arg(long, value_name = "DIR")]
    pub sysroot: Option<PathBuf>,
    /// The per-device discovery deadline.
    #[command(flatten)]
    pub timeout: DiscoveryTimeout,
}

/// The per-device deadline of discovery (`scan`, `paths`, `locate`, `fault`): `--timeout
/// DURATION`, default 10 s; `--timeout-ms N` is the older spelling, kept as a hidden alias.
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct DiscoveryTimeout {
    /// Per-device timeout (a duration: 10s, 2000ms, 1m; default 10s); a device that does not
    /// answer in time is reported with an error and the others go on.
    #[arg(
        long = "timeout",
        value_name = "DURATION",
        value_parser = super::num::duration,
        conflicts_with = "timeout_ms"
    )]
    pub timeout: Option<Duration>,
    /// The same in milliseconds (older spelling of --timeout).
    #[arg(long, value_name = "N", hide = true)]
    pub timeout_ms: Option<u64>,
}

impl DiscoveryTimeout {
    /// The deadline: --timeout, else --timeout-ms, else 10 s; at least 1 ms.
    pub(crate) fn get(&self) -> Duration {
        self.timeout
            .or(self.timeout_ms.map(Duration::from_millis))
            .unwrap_or(Duration::from_secs(10))
            .max(Duration::from_millis(1))
    }
}

/// Runs `sgctl paths`.
pub(crate) fn run(ctx: &mut Ctx, args: PathsArgs) -> anyhow::Result<Report> {
    let opts = ScanOptions {
        sysroot: args.sysroot.unwrap_or_else(|| PathBuf::from("/")),
        timeout: args.timeout.get(),
        verbose: ctx.verbose,
        mode: IdentMode::Auto,
    };
    let drive = discover::paths_of_with(&args.device, &opts)?;
    let text = render(std::slice::from_ref(&drive));
    let exit = if drive.has_errors() {
        sgctl::exit::PARTIAL
    } else {
        sgctl::exit::OK
    };
    Ok(Report::new(Some(&args.device), &drive, text).with_exit(exit))
}
