//! `sgctl tur DEVICE`: TEST UNIT READY. Exit 0 when ready; when not, the sense data is printed
//! (with progress of a running format/sanitize) and the exit status is 4.

use super::{Ctx, Report};
use serde::Serialize;
use sgctl::cmd::run_none;
use sgctl::decode::text;
use sgctl::error::Error;
use sgctl::scsi::tur;
use sgctl::transport::DEFAULT_TIMEOUT;

/// Arguments of `sgctl tur`.
#[derive(Debug, clap::Args)]
pub(crate) struct TurArgs {
    /// Device address.
    pub device: String,
}

#[derive(Serialize)]
struct Out {
    ready: bool,
    sense: Option<sgctl::sense::Sense>,
}

/// Runs `sgctl tur`.
pub(crate) fn run(ctx: &mut Ctx, args: TurArgs) -> anyhow::Result<Report> {
    let mut t = sgctl::device::open(
        &args.device,
        sgctl::device::OpenOptions::traced(ctx.verbose),
    )?
    .transport;
    let cdb = tur::TestUnitReadyCdb::new().build();
    let dev = Some(args.device.as_str());
    match run_none(t.as_mut(), &cdb, DEFAULT_TIMEOUT) {
        Ok(()) => Ok(Report::new(
            dev,
            &Out {
                ready: true,
                sense: None,
            },
            "ready\n".into(),
        )),
        Err(Error::Sense(s)) => {
            let txt = format!("not ready:\n{}", text::sense(&s));
            Ok(Report::new(
                dev,
                &Out {
                    ready: false,
                    sense: Some(*s),
                },
                txt,
            )
            .with_exit(sgctl::exit::COMMAND))
        }
        Err(e) => Err(e.into()),
    }
}
