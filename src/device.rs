//! Device addresses: `/dev/sgN`, `/dev/sdX`, `/dev/bsg/H:C:T:L`, or `sim:<profile>[?opts]`.

use crate::error::Result;
use crate::transport::Transport;

/// Opens any device address sgctl accepts and returns its transport.
///
/// CLI commands should call [`open_with`] instead, so `-v` tracing works.
pub fn open(address: &str) -> Result<Box<dyn Transport>> {
    if let Some(spec) = address.strip_prefix("sim:") {
        return open_sim(address, spec);
    }
    open_real(address)
}

/// Opens `address` like [`open`] and, when `verbose > 0` (the global `-v` count), wraps the
/// transport in [`Traced`](crate::transport::trace::Traced) so every CDB, status, sense (and at
/// `-vv` the data bytes) is printed on stderr like sg3_utils `-v`. This is the function every
/// CLI subcommand uses to open its device: `device::open_with(&args.device, ctx.verbose)?`.
/// Its name and signature are a contract with the CLI code; keep them stable.
pub fn open_with(address: &str, verbose: u8) -> Result<Box<dyn Transport>> {
    let t = open(address)?;
    if verbose == 0 {
        Ok(t)
    } else {
        Ok(Box::new(crate::transport::trace::Traced::new(t, verbose)))
    }
}

/// Opens a virtual drive (`sim:PROFILE[?options]`, see [`crate::sim`]).
fn open_sim(_address: &str, spec: &str) -> Result<Box<dyn Transport>> {
    Ok(Box::new(crate::sim::open(spec)?))
}

/// Real device nodes: bsg nodes get sg_io_v4, everything else SG_IO v3 (sg or block layer);
/// regular files, directories and character devices that do not answer SG_GET_VERSION_NUM
/// (`/dev/null`) are [`crate::Error::NotScsi`], missing paths `Error::Os { op: "open", .. }`.
fn open_real(address: &str) -> Result<Box<dyn Transport>> {
    use crate::transport::{bsg::Bsg, sgio};
    match sgio::classify(address)? {
        sgio::NodeKind::Bsg => Ok(Box::new(Bsg::open(address)?)),
        _ => Ok(Box::new(sgio::SgIo::open(address)?)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::exit;

    fn open_err(address: &str) -> Error {
        match open_with(address, 0) {
            Ok(_) => panic!("{address} opened"),
            Err(e) => e,
        }
    }

    #[test]
    fn nonexistent_path() {
        let e = open_err("/nonexistent/sg0");
        assert!(
            matches!(
                e,
                Error::Os {
                    op: "open",
                    errno: nix::errno::Errno::ENOENT,
                    ..
                }
            ),
            "{e:?}"
        );
        assert_eq!(e.exit_code(), exit::OPEN);
        assert_eq!(
            e.to_string(),
            "/nonexistent/sg0: open: ENOENT: No such file or directory (no such device node)"
        );
    }

    #[test]
    fn dev_null_and_regular_file_are_not_scsi() {
        let e = open_err("/dev/null");
        assert!(matches!(e, Error::NotScsi { .. }), "{e:?}");
        assert_eq!(e.exit_code(), exit::OPEN);
        assert!(
            e.to_string()
                .starts_with("/dev/null: not a SCSI device (no SG_IO support"),
            "{e}"
        );

        let f = tempfile::NamedTempFile::new().unwrap();
        let p = f.path().to_str().unwrap().to_string();
        let e = open_err(&p);
        assert_eq!(e.exit_code(), exit::OPEN);
        assert_eq!(
            e.to_string(),
            format!("{p}: not a SCSI device (a regular file, not a device node)")
        );
        // Traced opening fails the same way.
        assert!(matches!(open_with(&p, 2), Err(Error::NotScsi { .. })));
    }
}
