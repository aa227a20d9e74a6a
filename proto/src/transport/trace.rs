//! `-v` tracing: a [`Transport`] wrapper that prints each command on stderr, as sg3_utils
//! tools do with `-v`: the CDB in hex with the command name, the data direction and length,
//! then status, residual, duration, host/driver bytes and sense (bytes and decoded summary).
//! With `-vv` the data-out and data-in bytes are hex-dumped too (first 1 KiB; `-vvv` all).
//!
//! Callers get it through `sgctl::device::open_with`.

use super::{Completion, DataBuf, Transport};
use crate::bytes::hexdump;
use crate::error::{status_name, Result};
use crate::sense::Sense;
use std::io::Write;
use std::time::Duration;

/// Bytes of data dumped at `-vv`; `-vvv` dumps everything.
pub(crate) const DUMP_LIMIT: usize = 1024;

/// Name of the command in `cdb` (the one opcode table, [`crate::scsi::opcodes`]), or "" when
/// the table does not know it.
pub(crate) fn opcode_name(cdb: &[u8]) -> &'static str {
    crate::scsi::opcodes::name(cdb).unwrap_or("")
}

/// Redaction hook: data-out bytes never dumped because they may carry secrets. SECURITY
/// PROTOCOL OUT (0xB5) payloads hold TCG PINs/PSIDs (Authenticate, Set C_PIN, StartSession
/// HostChallenge), so `-vv` prints only their length; so do ATA PASS-THROUGH payloads.
pub fn redact_data_out(cdb: &[u8]) -> bool {
    // ATA PASS-THROUGH data-out carries ATA SECURITY passwords (SET PASSWORD, UNLOCK, ERASE
    // UNIT, DISABLE PASSWORD): redacted too.
    matches!(cdb.first(), Some(0xb5 | 0x85 | 0xa1))
}

fn spaced_hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A transport that prints what goes through it (see the module docs).
pub struct Traced<T: Transport> {
    inner: T,
    verbose: u8,
    out: Box<dyn Write + Send>,
}

impl<T: Transport> Traced<T> {
    /// Traces to stderr at verbosity `verbose` (1 = `-v`, 2 = `-vv`, 3+ = `-vvv`).
    pub fn new(inner: T, verbose: u8) -> Traced<T> {
        Traced::with_writer(inner, verbose, Box::new(std::io::stderr()))
    }

    /// Traces to any writer (tests, log files).
    pub fn with_writer(inner: T, verbose: u8, out: Box<dyn Write + Send>) -> Traced<T> {
        Traced {
            inner,
            verbose,
            out,
        }
    }

    /// The wrapped transport.
    pub fn inner_mut(&mut self) -> &mut T {
        &mut self.inner
    }

    /// Unwraps.
    pub fn into_inner(self) -> T {
        self.inner
    }

    fn dump(&mut self, label: &str, bytes: &[u8]) {
        let shown = if self.verbose >= 3 {
            bytes.len()
        } else {
            bytes.len().min(DUMP_LIMIT)
        };
        let _ = writeln!(self.out, "    {label} ({} bytes):", bytes.len());
        let _ = write!(self.out, "{}", hexdump(&bytes[..shown]));
        if shown < bytes.len() {
            let _ = writeln!(
                self.out,
                "    ... {} more bytes (use -vvv to see all)",
                bytes.len() - shown
            );
        }
    }

    fn completion(&mut self, name: &str, c: &Completion) {
        let mut line = format!(
            "    {name}: status {}, resid {}, duration {:.3} ms",
            status_name(c.status),
            c.resid,
            c.duration.as_secs_f64() * 1000.0
        );
        if c.host_status != 0 {
            let hs = super::HostStatus::from_u16(c.host_status);
            line.push_str(&format!(", host {} (0x{:02x})", hs.name(), c.host_status));
        }
        if c.driver_status != 0 {
            line.push_str(&format!(", driver status 0x{:02x}", c.driver_status));
        }
        let _ = writeln!(self.out, "{line}");
        if !c.sense.is_empty() {
            let _ = writeln!(self.out, "    sense data: {}", spaced_hex(&c.sense));
            let decoded = match Sense::parse(&c.sense) {
                Ok(s) => s.summary(),
                Err(e) => format!("undecodable sense: {e}"),
            };
            let _ = writeln!(self.out, "    {decoded}");
        }
    }
}

impl<T: Transport> Transport for Traced<T> {
    fn execute(&mut self, cdb: &[u8], data: DataBuf<'_>, timeout: Duration) -> Result<Completion> {
        let name = match opcode_name(cdb) {
            "" => format!("opcode 0x{:02x}", cdb.first().copied().unwrap_or(0)),
            n => n.to_string(),
        };
        let dir = match &data {
            DataBuf::None => "no data".to_string(),
            DataBuf::In(b) => format!("data-in {} bytes", b.len()),
            DataBuf::Out(b) => format!("data-out {} bytes", b.len()),
        };
        let _ = writeln!(
            self.out,
            "    {name} cdb: {}  [{dir}, timeout {} s]",
            spaced_hex(cdb),
            timeout.as_secs_f64()
        );
        if self.verbose >= 2 {
            if let DataBuf::Out(b) = &data {
                if redact_data_out(cdb) {
                    let _ = writeln!(
                        self.out,
                        "    data-out: {} bytes <redacted: may carry TCG credentials>",
                        b.len()
                    );
                } else {
                    self.dump("data-out", b);
                }
            }
        }
        match data {
            DataBuf::In(buf) => {
                let r = self.inner.execute(cdb, DataBuf::In(&mut *buf), timeout);
                match &r {
                    Ok(c) => {
                        self.completion(&name, c);
                        if self.verbose >= 2 {
                            let n = c.transferred(buf.len());
                            self.dump("data-in", &buf[..n]);
                        }
                    }
                    Err(e) => {
                        let _ = writeln!(self.out, "    {name}: {e}");
                    }
                }
                r
            }
            other => {
                let r = self.inner.execute(cdb, other, timeout);
                match &r {
                    Ok(c) => self.completion(&name, c),
                    Err(e) => {
                        let _ = writeln!(self.out, "    {name}: {e}");
                    }
                }
                r
            }
        }
    }

    fn address(&self) -> String {
        self.inner.address()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use std::sync::{Arc, Mutex};

    /// A writer the test can read back.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);
    impl Write for Shared {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    impl Shared {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    /// Answers INQUIRY with 5 bytes, anything else with ILLEGAL REQUEST, and fails 0xff.
    struct Fake;
    impl Transport for Fake {
        fn execute(
            &mut self,
            cdb: &[u8],
            data: DataBuf<'_>,
            _timeout: Duration,
        ) -> Result<Completion> {
            match (cdb[0], data) {
                (0x12, DataBuf::In(b)) => {
                    let n = b.len().min(5);
                    b[..n].copy_from_slice(&[0x00, 0x00, 0x06, 0x02, 0x1f][..n]);
                    Ok(Completion {
                        resid: b.len() - n,
                        ..Completion::good()
                    })
                }
                (0xff, _) => Err(crate::transport::sgio::os_error(
                    "SG_IO",
                    "/dev/sg9",
                    nix::errno::Errno::EPERM,
                )),
                _ => Ok(Completion::check_condition(crate::sense::build_fixed(
                    crate::sense::SenseKey::IllegalRequest,
                    0x20,
                    0x00,
                ))),
            }
        }
        fn address(&self) -> String {
            "fake".into()
        }
    }

    #[test]
    fn v_prints_cdb_status_and_sense() {
        let w = Shared::default();
        let mut t = Traced::with_writer(Fake, 1, Box::new(w.clone()));
        let mut buf = [0u8; 36];
        let c = t
            .execute(
                &[0x12, 0, 0, 0, 36, 0],
                DataBuf::In(&mut buf),
                Duration::from_secs(30),
            )
            .unwrap();
        assert_eq!(c.transferred(36), 5);
        assert_eq!(&buf[..5], &[0, 0, 6, 2, 0x1f]);
        t.execute(
            &[0x48, 0x01, 0, 0, 0, 0, 0, 0, 0, 0],
            DataBuf::None,
            Duration::from_secs(1),
        )
        .unwrap();
        let text = w.text();
        assert!(
            text.contains("Inquiry cdb: 12 00 00 00 24 00  [data-in 36 bytes, timeout 30 s]"),
            "{text}"
        );
        assert!(text.contains("Inquiry: status GOOD, resid 31"), "{text}");
        assert!(text.contains("Sanitize, overwrite cdb: 48 01"), "{text}");
        assert!(
            text.contains("Sanitize, overwrite: status CHECK CONDITION"),
            "{text}"
        );
        assert!(text.contains("sense data: 70 00 05"), "{text}");
        assert!(text.contains("(20/00)"), "{text}");
        // No data dump at -v.
        assert!(!text.contains("data-in (5 bytes)"), "{text}");
        assert_eq!(t.address(), "fake");
    }

    #[test]
    fn vv_dumps_data_and_errors_pass_through() {
        let w = Shared::default();
        let mut t = Traced::with_writer(Fake, 2, Box::new(w.clone()));
        let mut buf = [0u8; 36];
        t.execute(
            &[0x12, 0, 0, 0, 36, 0],
            DataBuf::In(&mut buf),
            Duration::from_secs(30),
        )
        .unwrap();
        t.execute(
            &[0x15, 0x10, 0, 0, 4, 0],
            DataBuf::Out(&[1, 2, 3, 4]),
            Duration::from_secs(30),
        )
        .unwrap();
        let e = t
            .execute(
                &[0xff, 0, 0, 0, 0, 0],
                DataBuf::None,
                Duration::from_secs(1),
            )
            .unwrap_err();
        assert!(matches!(e, Error::Os { .. }));
        let text = w.text();
        assert!(
            text.contains("data-in (5 bytes):\n 0000    00 00 06 02 1f"),
            "{text}"
        );
        assert!(
            text.contains("data-out (4 bytes):\n 0000    01 02 03 04"),
            "{text}"
        );
        assert!(text.contains("opcode 0xff cdb: ff 00"), "{text}");
        assert!(
            text.contains("opcode 0xff: /dev/sg9: SG_IO: EPERM"),
            "{text}"
        );
    }

    #[test]
    fn big_dumps_are_cut_at_vv() {
        struct Big;
        impl Transport for Big {
            fn execute(&mut self, _: &[u8], _: DataBuf<'_>, _: Duration) -> Result<Completion> {
                Ok(Completion::good())
            }
            fn address(&self) -> String {
                "big".into()
            }
        }
        let w = Shared::default();
        let mut t = Traced::with_writer(Big, 2, Box::new(w.clone()));
        let mut buf = vec![0u8; 4096];
        t.execute(
            &[0x28, 0, 0, 0, 0, 0, 0, 0, 8, 0],
            DataBuf::In(&mut buf),
            Duration::from_secs(1),
        )
        .unwrap();
        let text = w.text();
        assert!(text.contains("Read(10) cdb"));
        assert!(text.contains("... 3072 more bytes"), "{text}");
        assert_eq!(text.matches("\n 0").count(), DUMP_LIMIT / 16, "{text}");
    }

    #[test]
    fn names() {
        assert_eq!(opcode_name(&[0x9e, 0x10]), "Read capacity(16)");
        assert_eq!(
            opcode_name(&[0xa3, 0x0c]),
            "Report supported operation codes"
        );
        assert_eq!(
            opcode_name(&[0xa3, 0xec]),
            "Report supported operation codes"
        );
        assert_eq!(opcode_name(&[0xc0]), "");
        assert_eq!(opcode_name(&[]), "");
    }
}
