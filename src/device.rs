//! Device addresses: `/dev/sgN`, `/dev/sdX`, `/dev/bsg/H:C:T:L`, or `sim:<profile>[?opts]`.
//!
//! This is the device factory: the only place that looks at the form of an address. What it
//! opened comes back as an [`Opened`] (the transport, its [`DeviceKind`] and, for a virtual
//! drive, its clock), so nothing above it needs to test for `"sim:"`.

use crate::error::Result;
use crate::transport::Transport;
use std::sync::Arc;
use std::time::Duration;

/// What kind of device an address named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeviceKind {
    /// `/dev/sgN` (SG_IO v3 on the sg driver).
    Sg,
    /// `/dev/sdX` (SG_IO v3 through the block layer).
    Block,
    /// `/dev/bsg/H:C:T:L` (sg_io_v4).
    Bsg,
    /// Another character device tried with SG_IO v3.
    OtherChar,
    /// The in-process virtual drive (`sim:`): no host node, nothing on the host can mount it.
    Virtual,
}

impl DeviceKind {
    /// True for a virtual drive (lives in this process; not in sysfs).
    pub fn is_virtual(self) -> bool {
        self == DeviceKind::Virtual
    }
}

/// The prefix of a virtual drive's address. Only this module reads it.
const VIRTUAL_PREFIX: &str = "sim:";

/// What an address names, read without opening anything: for code that must decide before
/// opening (the safety gate's host view, the HBA key of the parallel runner, the lock key, the
/// benchmark's engine choice and report header).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Address<'a> {
    /// `sim:PROFILE[?opts]`: the in-process virtual drive.
    Virtual(VirtualSpec<'a>),
    /// Anything else: a host path (`/dev/sgN`, `/dev/sdX`, `/dev/bsg/H:C:T:L`, a file), or a
    /// name only an in-process test double answers to.
    Host(&'a str),
}

impl<'a> Address<'a> {
    /// True for a virtual drive.
    pub fn is_virtual(&self) -> bool {
        matches!(self, Address::Virtual(_))
    }

    /// A virtual drive's spec (`PROFILE[?opts]`, without the prefix); `None` for a host path.
    pub fn virtual_spec(&self) -> Option<VirtualSpec<'a>> {
        match self {
            Address::Virtual(v) => Some(*v),
            Address::Host(_) => None,
        }
    }
}

/// A virtual drive's spec: `PROFILE[?key=value&...]` (the sgctl-sim crate validates it when
/// the drive is opened; this is only the split).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VirtualSpec<'a> {
    spec: &'a str,
}

impl<'a> VirtualSpec<'a> {
    /// The whole spec, `PROFILE[?opts]`, as `sim::open` takes it.
    pub fn as_str(&self) -> &'a str {
        self.spec
    }

    /// The profile name (before `?`).
    pub fn profile(&self) -> &'a str {
        self.spec.split_once('?').map_or(self.spec, |(p, _)| p)
    }

    /// The options, in order, as `(key, value)` (`value` is empty for a bare key).
    pub fn options(&self) -> impl Iterator<Item = (&'a str, &'a str)> {
        self.spec
            .split_once('?')
            .map_or("", |(_, q)| q)
            .split('&')
            .filter(|kv| !kv.is_empty())
            .map(|kv| kv.split_once('=').unwrap_or((kv, "")))
    }

    /// The value of the first option `key`, if given.
    pub fn option(&self, key: &str) -> Option<&'a str> {
        self.options().find(|(k, _)| *k == key).map(|(_, v)| v)
    }
}

/// Reads the form of `address` (nothing is opened).
pub fn classify_address(address: &str) -> Address<'_> {
    match address.strip_prefix(VIRTUAL_PREFIX) {
        Some(spec) => Address::Virtual(VirtualSpec { spec }),
        None => Address::Host(address),
    }
}

/// True when `address` names a virtual drive (`sim:...`): `classify_address(address).is_virtual()`.
pub fn is_virtual_address(address: &str) -> bool {
    classify_address(address).is_virtual()
}

/// The address of the virtual drive with `spec` (`PROFILE[?opts]`).
pub fn virtual_address(spec: &str) -> String {
    format!("{VIRTUAL_PREFIX}{spec}")
}

/// An opened device.
pub struct Opened {
    /// The transport (traced when opened with `verbose > 0`).
    pub transport: Box<dyn Transport>,
    /// What was opened.
    pub kind: DeviceKind,
    /// A virtual drive's clock (advance it instead of sleeping when it is virtual time).
    #[cfg(feature = "sim")]
    pub clock: Option<crate::sim::SimClock>,
}

impl Opened {
    /// For a virtual drive on virtual time: a sleep that advances the drive's clock by the
    /// duration instead of waiting (nothing else moves that clock). `None` for real devices
    /// and for a virtual drive on real time.
    pub(crate) fn virtual_sleep(&self) -> Option<Arc<dyn Fn(Duration) + Send + Sync>> {
        #[cfg(feature = "sim")]
        if let Some(clock) = self
            .clock
            .clone()
            .filter(|c| c.mode() == crate::sim::ClockMode::Virtual)
        {
            return Some(Arc::new(move |d: Duration| clock.advance(d)));
        }
        None
    }
}

/// How [`open`] opens a device.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OpenOptions {
    /// The global `-v` count: above 0 the transport is wrapped in
    /// [`Traced`](crate::transport::trace::Traced), so every CDB, status and sense (and at
    /// `-vv` the data bytes) is printed on stderr like sg3_utils `-v`.
    pub verbose: u8,
}

impl OpenOptions {
    /// Traced at `verbose` (`-v` count; 0 opens untraced, as [`OpenOptions::default`]).
    pub const fn traced(verbose: u8) -> OpenOptions {
        OpenOptions { verbose }
    }
}

/// Opens any device address sgctl accepts (`/dev/sgN`, `/dev/sdX`, `/dev/bsg/H:C:T:L`,
/// `sim:PROFILE[?opts]`) and says what it opened: the transport, its kind and, for a virtual
/// drive, its clock. The one way a device is opened: every command, job and benchmark
/// session calls it (`device::open(address, OpenOptions::traced(ctx.verbose))?.transport`).
pub fn open(address: &str, opts: OpenOptions) -> Result<Opened> {
    let opened = if let Address::Virtual(spec) = classify_address(address) {
        open_virtual(address, spec.as_str())?
    } else {
        let (transport, kind) = open_real(address)?;
        Opened {
            transport,
            kind,
            #[cfg(feature = "sim")]
            clock: None,
        }
    };
    if opts.verbose == 0 {
        return Ok(opened);
    }
    Ok(Opened {
        transport: Box::new(crate::transport::trace::Traced::new(
            opened.transport,
            opts.verbose,
        )),
        ..opened
    })
}

/// A virtual drive (`sim:PROFILE[?opts]`), from the sgctl-sim crate.
#[cfg(feature = "sim")]
fn open_virtual(address: &str, spec: &str) -> Result<Opened> {
    // `sim:enclosure[?opts]`: the virtual enclosure services device (no clock of its own).
    if classify_address(address)
        .virtual_spec()
        .map(|v| v.profile())
        == Some(crate::sim::enclosure::PROFILE)
    {
        return Ok(Opened {
            transport: Box::new(crate::sim::enclosure::open(spec)?),
            kind: DeviceKind::Virtual,
            clock: None,
        });
    }
    let dev = crate::sim::open(spec)?;
    let clock = dev.clock();
    Ok(Opened {
        transport: Box::new(dev),
        kind: DeviceKind::Virtual,
        clock: Some(clock),
    })
}

/// Built without the virtual drive: a `sim:` address is refused as a bad address (exit 3).
#[cfg(not(feature = "sim"))]
fn open_virtual(address: &str, _spec: &str) -> Result<Opened> {
    Err(without_sim(address))
}

/// The error for a `sim:` address when sgctl is built without the virtual drive.
#[cfg(not(feature = "sim"))]
pub(crate) fn without_sim(address: &str) -> crate::Error {
    crate::Error::BadAddress {
        address: address.to_string(),
        reason: "this sgctl was built without the virtual drive (cargo feature `sim`)".into(),
    }
}

/// Real device nodes: bsg nodes get sg_io_v4, everything else SG_IO v3 (sg or block layer);
/// regular files, directories and character devices that do not answer SG_GET_VERSION_NUM
/// (`/dev/null`) are [`crate::Error::NotScsi`], missing paths `Error::Os { op: "open", .. }`.
fn open_real(address: &str) -> Result<(Box<dyn Transport>, DeviceKind)> {
    use crate::transport::{bsg::Bsg, sgio};
    Ok(match sgio::classify(address)? {
        sgio::NodeKind::Bsg => (Box::new(Bsg::open(address)?), DeviceKind::Bsg),
        k => {
            let kind = match k {
                sgio::NodeKind::Sg => DeviceKind::Sg,
                sgio::NodeKind::Block => DeviceKind::Block,
                _ => DeviceKind::OtherChar,
            };
            (Box::new(sgio::SgIo::open(address)?), kind)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::exit;

    fn open_err(address: &str) -> Error {
        match open(address, OpenOptions::default()) {
            Ok(_) => panic!("{address} opened"),
            Err(e) => e,
        }
    }

    #[test]
    fn classify_addresses() {
        assert_eq!(classify_address("/dev/sg0"), Address::Host("/dev/sg0"));
        assert_eq!(classify_address("simx"), Address::Host("simx"));
        assert!(!is_virtual_address("/dev/sim:0"));
        let a = classify_address("sim:px02smf080?serial=X&state=/tmp/a.json&overlap");
        assert!(a.is_virtual());
        let v = a.virtual_spec().unwrap();
        assert_eq!(v.as_str(), "px02smf080?serial=X&state=/tmp/a.json&overlap");
        assert_eq!(v.profile(), "px02smf080");
        assert_eq!(v.option("state"), Some("/tmp/a.json"));
        assert_eq!(v.option("overlap"), Some(""));
        assert_eq!(v.option("clock"), None);
        assert_eq!(v.options().count(), 3);
        let bare = classify_address("sim:px02").virtual_spec().unwrap();
        assert_eq!((bare.profile(), bare.options().count()), ("px02", 0));
        assert_eq!(virtual_address(bare.as_str()), "sim:px02");
        assert_eq!(classify_address("/dev/sg0").virtual_spec(), None);
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
        assert!(matches!(
            open(&p, OpenOptions::traced(2)),
            Err(Error::NotScsi { .. })
        ));
    }
}
