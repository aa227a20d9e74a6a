//! Device addresses: `/dev/sgN`, `/dev/sdX`, `/dev/bsg/H:C:T:L`, or `sim:<profile>[?opts]`.

use crate::error::{Error, Result};
use crate::transport::Transport;

/// Opens any device address sgctl accepts and returns its transport.
pub fn open(address: &str) -> Result<Box<dyn Transport>> {
    if let Some(spec) = address.strip_prefix("sim:") {
        return open_sim(address, spec);
    }
    open_real(address)
}

fn open_sim(address: &str, _spec: &str) -> Result<Box<dyn Transport>> {
    Err(Error::BadAddress {
        address: address.into(),
        reason: "virtual drives are not built yet".into(),
    })
}

fn open_real(address: &str) -> Result<Box<dyn Transport>> {
    Err(Error::NotScsi {
        path: address.into(),
        reason: "SG_IO backend not built yet".into(),
    })
}
