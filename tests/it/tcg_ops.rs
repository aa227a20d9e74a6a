//! Enterprise SSC operations end to end against the simulator's TPer, through the same
//! SECURITY PROTOCOL IN/OUT CDB byte boundary as SG_IO (a thin Transport adapter; the data
//! path — DATA PROTECT on READ/WRITE — is tested through `sim:` devices in tcg_cli.rs).

use sgctl::cmd::tcg::enterprise::{self, BandConfig};
use sgctl::cmd::tcg::{self as session, Tper as Host};
use sgctl::ops::gate::Cleared;
use sgctl::ops::tcg_erase::{erase_band, psid_revert};
use sgctl::scsi::security_protocol::{self as sp, Inc512};
use sgctl::sense::{build_fixed, SenseKey};
use sgctl::sim::tcg::tper::{psid_for, Reject, Tper};
use sgctl::tcg::level0;
use sgctl::tcg::{uid, MethodStatus, Pin, TcgError};
use sgctl::transport::{Completion, DataBuf, Transport};
use std::time::Duration;

/// The safety gate's token for the in-test drive: the gate runs on a fake host (one free
/// path) with the drive named by `serial`; the audit log goes to a temporary directory.
fn gate(serial: &str) -> (tempfile::TempDir, Cleared) {
    use sgctl::host::{HostView, PathInfo};
    use sgctl::ops::audit::AuditLog;
    use sgctl::ops::gate;
    use sgctl::ops::gate::{Confirmation, DriveName, GateRequest, NoPrompter};
    struct OnePath;
    impl HostView for OnePath {
        fn paths_of(&self, _: &str) -> sgctl::Result<Vec<PathInfo>> {
            Ok(vec![PathInfo {
                hctl: None,
                block: None,
                sg: Some("sgt".into()),
            }])
        }
        fn in_use(&self, _: &[PathInfo]) -> sgctl::Result<Vec<sgctl::error::InUse>> {
            Ok(vec![])
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let token = gate::clear(
        &OnePath,
        GateRequest {
            job: "tcg-erase",
            address: "/dev/sgt",
            name: &DriveName {
                serial: serial.into(),
                wwn: None,
            },
            confirmation: &Confirmation {
                tokens: vec![serial.into()],
                interactive: false,
            },
            audit: AuditLog::at(dir.path().join("audit.jsonl")),
        },
        &mut NoPrompter,
    )
    .unwrap();
    (dir, token)
}

struct Drive {
    tper: Option<Tper>,
    /// Answer Level 0 as an Opal 2 drive (ComID 0x07FE) instead of Enterprise.
    opal: bool,
    /// Reject byte-length transfers (a drive that needs INC_512 = 1).
    require_inc512: bool,
    cdbs: Vec<Vec<u8>>,
    /// Answer this many IF-RECVs on the session ComID with an empty 0/0 ComPacket first.
    zero_polls: u32,
}

impl Drive {
    fn sed() -> Drive {
        Drive {
            tper: Some(Tper::new("SER1", true, false)),
            opal: false,
            require_inc512: false,
            cdbs: vec![],
            zero_polls: 0,
        }
    }
    fn t(&mut self) -> &mut Tper {
        self.tper.as_mut().unwrap()
    }
}

fn illegal(asc: u8) -> Completion {
    Completion::check_condition(build_fixed(SenseKey::IllegalRequest, asc, 0))
}

impl Transport for Drive {
    fn execute(
        &mut self,
        cdb: &[u8],
        data: DataBuf<'_>,
        _t: Duration,
    ) -> sgctl::Result<Completion> {
        self.cdbs.push(cdb.to_vec());
        let Ok(c) = sp::parse_cdb(cdb) else {
            return Ok(illegal(0x20));
        };
        if self.require_inc512 && !c.inc_512 {
            return Ok(illegal(0x24));
        }
        let opal = self.opal;
        if c.is_in && c.protocol == 1 && c.sps == 0x07FE && self.zero_polls > 0 {
            self.zero_polls -= 1;
            if let DataBuf::In(buf) = data {
                buf.fill(0);
                buf[4..6].copy_from_slice(&0x07FEu16.to_be_bytes());
            }
            return Ok(Completion::good());
        }
        let Some(tper) = self.tper.as_mut() else {
            return Ok(illegal(0x20));
        };
        let r = match (data, c.is_in) {
            (DataBuf::In(buf), true) => {
                let resp = match (c.protocol, c.sps) {
                    (0, 0) => Ok(vec![0, 0, 0, 0, 0, 0, 0, 3, 0, 1, 2]),
                    (1, 1) => {
                        let locked = if tper.any_locked() { 4 } else { 0 };
                        let ssc = if opal {
                            (
                                0x0203,
                                1,
                                vec![0x07, 0xFE, 0, 1, 0, 0, 4, 0, 9, 0, 0, 0, 0, 0, 0, 0],
                            )
                        } else {
                            (
                                0x0100,
                                1,
                                vec![0x07, 0xFE, 0, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                            )
                        };
                        let mut lk = vec![0u8; 12];
                        lk[0] = 0x0B | locked;
                        Ok(level0::build(&[
                            (0x0001, 1, vec![0x11, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
                            (0x0002, 1, lk),
                            ssc,
                        ]))
                    }
                    (p, s) => tper.if_recv(p, s, c.len_bytes as usize),
                };
                resp.map(|v| {
                    let n = v.len().min(buf.len());
                    buf[..n].copy_from_slice(&v[..n]);
                })
            }
            (DataBuf::Out(buf), false) => tper.if_send(c.protocol, c.sps, buf),
            _ => return Ok(illegal(0x24)),
        };
        Ok(match r {
            Ok(()) => Completion::good(),
            Err(Reject::Cdb(_)) => illegal(0x24),
            Err(Reject::Param(_)) => illegal(0x26),
            Err(Reject::Sequence) => illegal(0x2C),
        })
    }
    fn address(&self) -> String {
        "test:tper".into()
    }
}

fn pin(s: &str) -> Pin {
    Pin::from_text(s)
}

#[test]
fn msid_and_properties() {
    let mut d = Drive::sed();
    let msid = d.t().msid.clone();
    let mut h = Host::open(&mut d).unwrap();
    assert_eq!(h.comid, 0x07FE);
    assert_eq!(h.dialect, session::Dialect::Enterprise);
    let p = h.properties().unwrap();
    assert_eq!(p.tper("MaxComPacketSize"), Some(2048));
    assert_eq!(p.host.len(), 6);
    assert_eq!(enterprise::read_msid(&mut h).unwrap().expose(), &msid[..]);
    h.stack_reset().unwrap();
    assert_eq!(
        h.verify_comid().unwrap(),
        sgctl::tcg::comid::ComIdState::Issued
    );
}

#[test]
fn inc512_fallback() {
    let mut d = Drive::sed();
    d.require_inc512 = true;
    let mut h = Host::open(&mut d).unwrap();
    assert_eq!(h.inc, Inc512::Blocks);
    enterprise::read_msid(&mut h).unwrap();
    drop(h);
    assert!(d.cdbs.iter().skip(2).all(|c| c[4] == 0x80));
}

#[test]
fn ownership_lock_erase_cycle() {
    let mut d = Drive::sed();
    let msid = Pin::new(d.t().msid.clone());
    let new = pin("correct horse battery");
    let (_audit, gate) = gate("SER1");
    {
        let mut h = Host::open(&mut d).unwrap();
        let o = enterprise::take_ownership(&mut h, &new).unwrap();
        assert_eq!(o.authorities.len(), 2 + 16);
        // The MSID no longer opens the EraseMaster.
        let e = erase_band(&mut h, &gate, 1, &msid).unwrap_err();
        assert!(
            matches!(e, TcgError::AuthFailed(ref w) if w.starts_with("EraseMaster:")),
            "{e}"
        );
        assert!(!e.to_string().contains("correct horse"));
        enterprise::configure_band(
            &mut h,
            1,
            &new,
            &BandConfig {
                range_start: 1024,
                range_length: 2048,
                lock_enabled: true,
                lock_on_reset: true,
            },
        )
        .unwrap();
        enterprise::set_locked(&mut h, 1, &new, true).unwrap();
        let b = enterprise::get_band(&mut h, 1, Some(&new)).unwrap();
        assert_eq!((b.range_start, b.range_length), (1024, 2048));
        assert!(b.read_locked && b.write_locked && b.lock_on_reset && b.read_lock_enabled);
        let bands = enterprise::list_bands(&mut h, None).unwrap();
        assert_eq!(bands.len(), 16);
        assert!(!bands[0].read_locked && bands[1].read_locked);
    }
    assert!(d.t().locked_for(1500, 8, false));
    assert!(!d.t().locked_for(0, 8, false));
    let gen_before = d.t().key_generation(1500);
    {
        let mut h = Host::open(&mut d).unwrap();
        erase_band(&mut h, &gate, 1, &new).unwrap();
        // Erase resets BandMaster1 to the MSID and unlocks the band.
        let b = enterprise::get_band(&mut h, 1, Some(&msid)).unwrap();
        assert!(!b.read_locked);
        // Other bandmasters keep the new PIN.
        enterprise::get_band(&mut h, 2, Some(&new)).unwrap();
    }
    assert_ne!(d.t().key_generation(1500), gen_before);
    assert_eq!(d.t().key_generation(0), 0);
    // LockOnReset: lock enabled band relocks at power cycle.
    d.t().power_cycle();
    assert!(d.t().locked_for(1500, 8, true));
}

#[test]
fn wrong_pin_then_lockout_until_power_cycle() {
    let mut d = Drive::sed();
    let msid = Pin::new(d.t().msid.clone());
    {
        let mut h = Host::open(&mut d).unwrap();
        for _ in 0..sgctl::sim::tcg::tper::TRY_LIMIT {
            let e = enterprise::set_locked(&mut h, 0, &pin("nope"), true).unwrap_err();
            assert!(matches!(e, TcgError::AuthFailed(_)), "{e}");
        }
        let e = enterprise::set_locked(&mut h, 0, &msid, true).unwrap_err();
        assert_eq!(
            e.method_status(),
            Some(MethodStatus::AuthorityLockedOut),
            "{e}"
        );
        // Other authorities are unaffected.
        enterprise::set_locked(&mut h, 1, &msid, false).unwrap();
    }
    d.t().power_cycle();
    let mut h = Host::open(&mut d).unwrap();
    enterprise::set_locked(&mut h, 0, &msid, false).unwrap();
}

#[test]
fn sp_busy_and_session_timeout_and_polling() {
    let mut d = Drive::sed();
    d.t().faults.sp_busy = 1;
    {
        let mut h = Host::open(&mut d).unwrap();
        let e = enterprise::read_msid(&mut h).unwrap_err();
        assert_eq!(e.method_status(), Some(MethodStatus::SpBusy));
        assert!(e.to_string().contains("security provider busy"));
        enterprise::read_msid(&mut h).unwrap();
    }
    d.t().faults.session_timeout = true;
    {
        let mut h = Host::open(&mut d).unwrap();
        let e = enterprise::read_msid(&mut h).unwrap_err();
        assert!(matches!(e, TcgError::SessionClosed), "{e}");
        // The TPer forgot the session: a new one opens.
        enterprise::read_msid(&mut h).unwrap();
    }
    d.t().faults.polls_before_answer = 7;
    let n_before = d.cdbs.len();
    {
        let mut h = Host::open(&mut d).unwrap();
        h.poll_interval = Duration::from_millis(0);
        enterprise::read_msid(&mut h).unwrap();
    }
    // 3 exchanges (StartSession, Get, EOS), each polled 7 times before the answer.
    assert!(d.cdbs.len() - n_before >= 2 + 3 * (2 + 7));
}

#[test]
fn dropped_session_sends_end_of_session() {
    let mut d = Drive::sed();
    let mut h = Host::open(&mut d).unwrap();
    let s = h.start_session(uid::ADMIN_SP, false, None).unwrap();
    drop(s); // EOS sent on drop
    let _s = h.start_session(uid::ADMIN_SP, false, None).unwrap();
}

#[test]
fn psid_revert_ex_array() {
    let mut d = Drive {
        tper: Some(Tper::new("EXARR", true, true)),
        opal: false,
        require_inc512: false,
        cdbs: vec![],
        zero_polls: 0,
    };
    assert!(d.t().locked_for(0, 1, false));
    let msid = Pin::new(d.t().msid.clone());
    {
        let mut h = Host::open(&mut d).unwrap();
        // The MSID does not open an ex-array drive.
        let e = enterprise::set_locked(&mut h, 0, &msid, false).unwrap_err();
        assert!(matches!(e, TcgError::AuthFailed(_)));
        // Wrong PSID.
        let (_audit, gate) = gate("EXARR");
        let e = psid_revert(&mut h, &gate, &pin("AAAA")).unwrap_err();
        assert!(
            matches!(e, TcgError::AuthFailed(ref w) if w.starts_with("PSID (")),
            "{e}"
        );
        psid_revert(&mut h, &gate, &Pin::new(psid_for("EXARR"))).unwrap();
        // Factory state: MSID works again, nothing locked.
        enterprise::set_locked(&mut h, 0, &msid, false).unwrap();
    }
    assert!(!d.t().locked_for(0, 1, false));
    assert_ne!(d.t().key_generation(0), 0);
}

#[test]
fn sid_may_not_revert() {
    let mut d = Drive::sed();
    let msid = Pin::new(d.t().msid.clone());
    let mut h = Host::open(&mut d).unwrap();
    let s = h
        .start_session(uid::ADMIN_SP, true, Some((uid::AUTH_SID, &msid)))
        .unwrap();
    let e = s
        .call_and_drop(uid::THIS_SP, uid::method::REVERT_SP)
        .unwrap_err();
    assert_eq!(e.method_status(), Some(MethodStatus::NotAuthorized));
}

#[test]
fn not_a_tcg_drive() {
    let mut d = Drive::sed();
    d.tper = None;
    let e = Host::open(&mut d).unwrap_err();
    assert!(matches!(e, TcgError::NotTcg(_)), "{e}");
    assert!(e.to_string().contains("not a TCG drive"));
}

/// `-vv` traces never show SECURITY PROTOCOL OUT payloads (they carry PINs).
#[test]
fn traces_redact_credentials() {
    use std::io::Write;
    use std::sync::{Arc, Mutex};
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
    let w = Shared::default();
    let mut t = sgctl::transport::trace::Traced::with_writer(Drive::sed(), 3, Box::new(w.clone()));
    let secret = "Sup3rSecretPIN-0123456789";
    {
        let mut h = Host::open(&mut t).unwrap();
        enterprise::take_ownership(&mut h, &pin(secret)).unwrap();
    }
    let out = String::from_utf8(w.0.lock().unwrap().clone()).unwrap();
    assert!(out.contains("Security protocol out"), "{out}");
    assert!(out.contains("<redacted"));
    let hex: String = secret.bytes().map(|b| format!("{b:02x}")).collect();
    let spaced: String = secret.bytes().map(|b| format!("{b:02x} ")).collect();
    assert!(!out.contains(secret) && !out.contains(&hex) && !out.contains(spaced.trim_end()));
    // The first 4 bytes of the PIN do not show up in the ASCII column either.
    assert!(!out.contains("Sup3"));
}

/// Opal PSID revert: authentication inside StartSession (HostChallenge/HostSigningAuthority),
/// then AdminSP.Revert; the TPer drops the session without answering.
#[test]
fn opal_psid_revert() {
    let mut d = Drive {
        tper: Some(Tper::new("OPAL1", true, true)),
        opal: true,
        require_inc512: false,
        cdbs: vec![],
        zero_polls: 0,
    };
    {
        let mut h = Host::open(&mut d).unwrap();
        assert_eq!(h.dialect, session::Dialect::Opal);
        // Enterprise band operations refuse an Opal drive with a clear message.
        let (_audit, gate) = gate("OPAL1");
        let e = erase_band(&mut h, &gate, 1, &pin("x")).unwrap_err();
        assert!(e.to_string().contains("Opal"), "{e}");
        let e = psid_revert(&mut h, &gate, &pin("WRONGPSID")).unwrap_err();
        assert_eq!(e.method_status(), Some(MethodStatus::NotAuthorized), "{e}");
        psid_revert(&mut h, &gate, &Pin::new(psid_for("OPAL1"))).unwrap();
    }
    assert!(!d.t().locked_for(0, 1, false));
    assert!(d.t().sessions.is_empty());
}

proptest::proptest! {
    /// Whatever a host sends, the simulated TPer answers or rejects without panicking, and
    /// whatever comes back parses or errors.
    #[test]
    fn tper_survives_garbage(payload in proptest::collection::vec(proptest::num::u8::ANY, 0..200), tsn in 0u32..3) {
        let mut t = Tper::new("F", true, false);
        let pkt = sgctl::tcg::packet::build(0x07FE, 0, tsn, tsn, &payload);
        let _ = t.if_send(1, 0x07FE, &pkt);
        let _ = t.if_send(1, 0x07FE, &payload);
        if let Ok(r) = t.if_recv(1, 0x07FE, 2048) {
            if let Ok(sgctl::tcg::packet::Received::Data { payload, .. }) = sgctl::tcg::packet::parse(&r) {
                let _ = sgctl::tcg::method::parse_response(&payload);
            }
        }
    }

    #[test]
    fn method_parsers_never_panic(data in proptest::collection::vec(proptest::num::u8::ANY, 0..200)) {
        let _ = sgctl::tcg::method::parse_response(&data);
        let _ = sgctl::tcg::method::parse_call(&data);
        let _ = sgctl::tcg::comid::parse_response(&data, 0x07FE);
        let _ = sp::parse_supported_protocols(&data);
    }
}

/// A TPer that answers "nothing outstanding" a few times before the real answer is still
/// waited for; one that never answers ends in NoResponse instead of a hang.
#[test]
fn empty_answers_are_polled_then_given_up() {
    let mut d = Drive::sed();
    d.zero_polls = 4;
    {
        let mut h = Host::open(&mut d).unwrap();
        h.poll_interval = Duration::from_millis(0);
        enterprise::read_msid(&mut h).unwrap();
    }
    d.zero_polls = 1000;
    let mut h = Host::open(&mut d).unwrap();
    h.poll_interval = Duration::from_millis(0);
    assert!(matches!(
        enterprise::read_msid(&mut h).unwrap_err(),
        TcgError::NoResponse(_)
    ));
}
