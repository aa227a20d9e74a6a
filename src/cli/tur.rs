//! `sgctl tur DEVICE`: TEST UNIT READY. Exit 0 when ready; when not, the sense data is printed
//! (with progress of a running format/sanitize) and the exit status is 4.

use super::{text, Ctx, Report};
use crate::cmd::run_none;
use crate::error::Error;
use crate::scsi::tur;
use crate::transport::DEFAULT_TIMEOUT;
use serde::Serialize;

/// Arguments of `sgctl tur`.
#[derive(Debug, clap::Args)]
pub struct TurArgs {
    /// Device address.
    pub device: String,
}

#[derive(Serialize)]
struct Out {
    ready: bool,
    sense: Option<crate::sense::Sense>,
}

/// Runs `sgctl tur`.
pub fn run(ctx: &mut Ctx, args: TurArgs) -> anyhow::Result<Report> {
    let mut t = crate::device::open(
        &args.device,
        crate::device::OpenOptions::traced(ctx.verbose),
    )?
    .transport;
    let cdb = tur::cdb();
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
            .with_exit(crate::exit::COMMAND))
        }
        Err(e) => Err(e.into()),
    }
}
