//! Path fail-over while a job runs: the gate knows every path of the logical unit
//! (both SAS ports of a dual-port drive); when the path the job talks through goes away — the
//! kernel removed the device (`ENODEV`, `ENXIO`) or the midlayer answers `DID_NO_CONNECT` — a
//! command that changes nothing on the drive (the REQUEST SENSE polls, READ CAPACITY, the
//! verification READs) is sent again through the next path of the same LU, and every later
//! command goes there too. A state-changing command is never sent twice: whether the first one
//! reached the drive is unknown, so its error goes to the job as it came.
//!
//! Each switch is kept ([`PathSwitch`]) for the job's record and its audit end record.

use crate::clock::rfc3339;
use crate::error::{Error, Result};
use crate::ops::gate::Cleared;
use crate::ops::record::PathSwitch;
use crate::scsi::opcodes;
use crate::transport::{Completion, DataBuf, Transport};
use nix::errno::Errno;
use std::collections::VecDeque;
use std::time::{Duration, SystemTime};

/// Opens another path of the drive by its address.
pub(crate) type PathOpener<'a> = dyn FnMut(&str) -> Result<Box<dyn Transport>> + Send + 'a;

/// Why a command's result means the path is gone, or `None` when it does not.
pub(crate) fn path_gone(r: &Result<Completion>) -> Option<String> {
    match r {
        Err(
            e @ Error::Os {
                errno: Errno::ENODEV | Errno::ENXIO,
                ..
            },
        ) => Some(e.to_string()),
        Ok(c) if c.host_status == 0x01 => Some("transport error: DID_NO_CONNECT".into()),
        _ => None,
    }
}

/// The addresses (`/dev/sgN`) of the drive's paths other than `address`, in the gate's order.
pub(crate) fn alternates(gate: &Cleared, address: &str) -> Vec<String> {
    let dev = |n: &Option<String>| n.as_ref().map(|n| format!("/dev/{n}"));
    gate.paths
        .iter()
        .filter(|p| {
            dev(&p.sg).as_deref() != Some(address) && dev(&p.block).as_deref() != Some(address)
        })
        .filter_map(|p| dev(&p.sg))
        .collect()
}

/// A transport that moves to another path of the same LU when its path goes away.
pub(crate) struct Failover<'a> {
    cur: Box<dyn Transport>,
    alternates: VecDeque<String>,
    open: Box<PathOpener<'a>>,
    switches: Vec<PathSwitch>,
}

impl<'a> Failover<'a> {
    /// Talks through `t`; `alternates` are the other paths of its LU, opened with `open` when
    /// needed.
    pub(crate) fn new(
        t: Box<dyn Transport>,
        alternates: Vec<String>,
        open: Box<PathOpener<'a>>,
    ) -> Failover<'a> {
        Failover {
            cur: t,
            alternates: alternates.into(),
            open,
            switches: Vec::new(),
        }
    }

    /// The switches made so far.
    pub(crate) fn switches(&self) -> &[PathSwitch] {
        &self.switches
    }

    /// Opens the next alternate that opens; the errors of those that did not are added to
    /// `reason`.
    fn next_path(&mut self, reason: &mut String) -> Option<Box<dyn Transport>> {
        while let Some(a) = self.alternates.pop_front() {
            match (self.open)(&a) {
                Ok(t) => return Some(t),
                Err(e) => reason.push_str(&format!("; {a} did not open either: {e}")),
            }
        }
        None
    }
}

/// Reborrows a data buffer for a second attempt.
fn again<'b>(d: &'b mut DataBuf<'_>) -> DataBuf<'b> {
    match d {
        DataBuf::None => DataBuf::None,
        DataBuf::In(b) => DataBuf::In(b),
        DataBuf::Out(b) => DataBuf::Out(b),
    }
}

impl Transport for Failover<'_> {
    fn execute(
        &mut self,
        cdb: &[u8],
        mut data: DataBuf<'_>,
        timeout: Duration,
    ) -> Result<Completion> {
        loop {
            let r = self.cur.execute(cdb, again(&mut data), timeout);
            let Some(mut reason) = path_gone(&r) else {
                return r;
            };
            if crate::scsi::changes_state(cdb) {
                return r;
            }
            let Some(next) = self.next_path(&mut reason) else {
                return r;
            };
            let from = self.cur.address();
            self.cur = next;
            self.switches.push(PathSwitch {
                time: rfc3339(SystemTime::now()),
                from,
                to: self.cur.address(),
                command: opcodes::name(cdb).unwrap_or("unknown command").into(),
                reason,
            });
        }
    }

    fn address(&self) -> String {
        self.cur.address()
    }
}

// The tests run on the virtual drive (the `sim` feature).
#[cfg(all(test, feature = "sim"))]
mod tests {
    use super::*;
    use crate::sim::SimDevice;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    /// A path to a virtual drive that answers ENODEV once `gone` is set (the kernel deleted it).
    struct Path {
        dev: SimDevice,
        name: String,
        gone: Arc<AtomicBool>,
    }

    impl Transport for Path {
        fn execute(&mut self, cdb: &[u8], d: DataBuf<'_>, t: Duration) -> Result<Completion> {
            if self.gone.load(Ordering::SeqCst) {
                return Err(crate::transport::sgio::os_error(
                    "SG_IO",
                    &self.name,
                    Errno::ENODEV,
                ));
            }
            self.dev.execute(cdb, d, t)
        }
        fn address(&self) -> String {
            self.name.clone()
        }
    }

    fn two_paths() -> (Failover<'static>, Arc<AtomicBool>, Arc<AtomicBool>) {
        let dev = crate::sim::open("px02smf080?clock=virtual&capacity_blocks=4096").unwrap();
        let (ga, gb) = (
            Arc::new(AtomicBool::new(false)),
            Arc::new(AtomicBool::new(false)),
        );
        let a = Path {
            dev: dev.port(1),
            name: "/dev/sga".into(),
            gone: ga.clone(),
        };
        let gb2 = gb.clone();
        let open = move |addr: &str| -> Result<Box<dyn Transport>> {
            assert_eq!(addr, "/dev/sgb");
            Ok(Box::new(Path {
                dev: dev.port(2),
                name: addr.into(),
                gone: gb2.clone(),
            }))
        };
        let f = Failover::new(Box::new(a), vec!["/dev/sgb".into()], Box::new(open));
        (f, ga, gb)
    }

    #[test]
    fn a_read_only_command_moves_to_the_other_path() {
        let (mut f, ga, _) = two_paths();
        let mut buf = [0u8; 18];
        let rs = crate::scsi::request_sense::RequestSenseCdb::new(18).build();
        f.execute(&rs, DataBuf::In(&mut buf), Duration::from_secs(5))
            .unwrap();
        assert!(f.switches().is_empty());
        ga.store(true, Ordering::SeqCst);
        let c = f
            .execute(&rs, DataBuf::In(&mut buf), Duration::from_secs(5))
            .unwrap();
        assert_eq!(c.status, 0);
        assert_eq!(f.address(), "/dev/sgb");
        let s = &f.switches()[0];
        assert_eq!((s.from.as_str(), s.to.as_str()), ("/dev/sga", "/dev/sgb"));
        assert_eq!(s.command, "Request Sense");
        assert!(s.reason.contains("ENODEV"), "{s:?}");
    }

    #[test]
    fn a_state_changing_command_is_never_sent_twice() {
        let (mut f, ga, _) = two_paths();
        ga.store(true, Ordering::SeqCst);
        // FORMAT UNIT: the error comes back as it came, still on the first path.
        let e = f
            .execute(
                &[0x04, 0, 0, 0, 0, 0],
                DataBuf::None,
                Duration::from_secs(5),
            )
            .unwrap_err();
        assert!(e.to_string().contains("ENODEV"), "{e}");
        assert_eq!(f.address(), "/dev/sga");
        assert!(f.switches().is_empty());
    }

    #[test]
    fn when_every_path_is_gone_the_error_says_so() {
        let (mut f, ga, gb) = two_paths();
        ga.store(true, Ordering::SeqCst);
        gb.store(true, Ordering::SeqCst);
        let mut buf = [0u8; 18];
        let e = f
            .execute(
                &crate::scsi::request_sense::RequestSenseCdb::new(18).build(),
                DataBuf::In(&mut buf),
                Duration::from_secs(5),
            )
            .unwrap_err();
        assert!(e.to_string().contains("/dev/sgb"), "{e}");
        assert_eq!(f.switches().len(), 1, "tried the other path once");
        // No path left: the next command fails at once.
        assert!(f
            .execute(
                &crate::scsi::request_sense::RequestSenseCdb::new(18).build(),
                DataBuf::In(&mut buf),
                Duration::from_secs(5)
            )
            .is_err());
    }
}
