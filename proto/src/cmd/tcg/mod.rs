//! TCG Storage over SECURITY PROTOCOL IN/OUT (protocols.md §F.4, §F.7): discovery, the
//! session manager and the exchange loop; the Enterprise SSC operations in [`enterprise`]. The
//! payloads and their answers are built and parsed by [`crate::tcg`].
//!
//! [`Tper::open`] probes the drive (protocol list, Level 0), picks the ComID and the dialect;
//! [`Tper::properties`] negotiates sizes; [`Tper::start_session`] opens a session (SyncSession
//! reply checked), optionally authenticating; [`Session`] calls methods and ends with
//! EndOfSession.

pub mod enterprise;

use crate::cmd::security_protocol as spio;
use crate::scsi::security_protocol::{self as sp, Inc512};
use crate::sense::SenseKey;
use crate::tcg::level0::{self, Level0, Ssc};
use crate::tcg::method::{self, Response};
use crate::tcg::packet::{self, Received};
use crate::tcg::session::{
    authority_name, column, columns, prop_list, properties_call, start_session_call, tries_note,
    ColumnRange, EMPTY_POLLS, FIRST_HSN,
};
use crate::tcg::token::{Encoder, Value};
use crate::tcg::uid::{self, Uid};
use crate::tcg::{comid, Pin, TcgError};
use crate::transport::Transport;
use std::time::Duration;

pub use crate::tcg::session::{Dialect, Properties};

/// A TCG-speaking drive and the exchange parameters for it.
pub struct Tper<'t> {
    t: &'t mut dyn Transport,
    /// ComID used for sessions.
    pub comid: u16,
    /// INC_512 choice for this drive.
    pub inc: Inc512,
    /// Receive buffer size.
    pub recv_len: usize,
    /// Maximum number of "not ready" polls before giving up.
    pub poll_limit: u32,
    /// Sleep between polls after the first few.
    pub poll_interval: Duration,
    /// Dialect.
    pub dialect: Dialect,
    /// The Level 0 discovery data.
    pub level0: Level0,
    next_hsn: u32,
}

impl std::fmt::Debug for Tper<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tper")
            .field("comid", &self.comid)
            .field("inc", &self.inc)
            .field("dialect", &self.dialect)
            .finish()
    }
}

fn is_invalid_cdb_field(e: &crate::Error) -> bool {
    e.sense()
        .is_some_and(|s| s.key == SenseKey::IllegalRequest && s.asc == 0x24)
}

/// ILLEGAL REQUEST 2C/00 COMMAND SEQUENCE ERROR on an IF-SEND: the TPer still holds an
/// unretrieved response on the ComID (left by a host that died between IF-SEND and IF-RECV)
/// and refused the new ComPacket without processing it.
fn is_sequence_error(e: &crate::Error) -> bool {
    e.sense()
        .is_some_and(|s| s.key == SenseKey::IllegalRequest && s.asc == 0x2C && s.ascq == 0)
}

fn is_illegal(e: &crate::Error) -> bool {
    e.sense()
        .is_some_and(|s| s.key == SenseKey::IllegalRequest && (s.asc == 0x20 || s.asc == 0x24))
}

/// Reads the supported protocol list and Level 0 discovery. Returns the INC_512 choice that
/// worked. ILLEGAL REQUEST on the protocol list ⇒ not a TCG drive.
pub fn discover(t: &mut dyn Transport) -> Result<(Level0, Inc512, Vec<u8>), TcgError> {
    let mut inc = Inc512::Bytes;
    // Ask REPORT SUPPORTED OPERATION CODES first ([`crate::probe`]): a drive without SECURITY
    // PROTOCOL IN would count the rejected command as a non-medium error.
    if crate::probe::command_supported(t, sp::OPCODE_IN, None) == Some(false) {
        return Err(TcgError::NotTcg(
            "SECURITY PROTOCOL IN is not supported (REPORT SUPPORTED OPERATION CODES does not list it)"
                .into(),
        ));
    }
    let protocols = match spio::supported_protocols(t, inc) {
        Ok(p) => p,
        Err(e) if is_invalid_cdb_field(&e) => {
            // Some drives only accept INC_512 = 1 (protocols.md §F.1).
            inc = Inc512::Blocks;
            match spio::supported_protocols(t, inc) {
                Ok(p) => p,
                Err(e) if is_illegal(&e) => {
                    return Err(TcgError::NotTcg(format!(
                        "SECURITY PROTOCOL IN is rejected ({e})"
                    )))
                }
                Err(e) => return Err(e.into()),
            }
        }
        Err(e) if is_illegal(&e) => {
            return Err(TcgError::NotTcg(format!(
                "SECURITY PROTOCOL IN is not supported ({e})"
            )))
        }
        Err(e) => return Err(e.into()),
    };
    if !protocols.contains(&sp::PROTOCOL_TCG) {
        return Err(TcgError::NotTcg(format!(
            "security protocol 0x01 is not in the supported list {protocols:02x?}"
        )));
    }
    let buf = match spio::security_in(t, sp::PROTOCOL_TCG, level0::COMID, level0::ALLOC, inc) {
        Ok(b) => b,
        Err(e) if is_illegal(&e) => {
            return Err(TcgError::NotTcg(format!(
                "Level 0 discovery is rejected ({e})"
            )))
        }
        Err(e) => return Err(e.into()),
    };
    Ok((level0::parse(&buf)?, inc, protocols))
}

impl<'t> Tper<'t> {
    /// Probes the drive and prepares to talk to it.
    pub fn open(t: &'t mut dyn Transport) -> Result<Tper<'t>, TcgError> {
        let (l0, inc, _) = discover(t)?;
        let ssc = l0.ssc().ok_or_else(|| {
            TcgError::NotTcg("Level 0 discovery lists no SSC feature descriptor".into())
        })?;
        if l0.buffer_mgmt() {
            return Err(TcgError::Unsupported(
                "the TPer requires buffer management (not implemented by any tool)".into(),
            ));
        }
        let dialect = if ssc.ssc == Ssc::Enterprise {
            Dialect::Enterprise
        } else {
            Dialect::Opal
        };
        Ok(Tper {
            comid: ssc.base_comid,
            inc,
            recv_len: 2048,
            poll_limit: 1000,
            poll_interval: Duration::from_millis(10),
            dialect,
            next_hsn: FIRST_HSN,
            level0: l0,
            t,
        })
    }

    /// Sends protocol-0x02 `code` and reads the answer, polling while it is pending.
    fn comid_request(&mut self, code: u32) -> Result<Vec<u8>, TcgError> {
        let req = comid::request(self.comid, 0, code);
        spio::security_out(self.t, sp::PROTOCOL_TCG_COMID, self.comid, &req, self.inc)?;
        for n in 0..self.poll_limit {
            let buf = spio::security_in(self.t, sp::PROTOCOL_TCG_COMID, self.comid, 512, self.inc)?;
            let r = comid::parse_response(&buf, self.comid)?;
            if !r.data.is_empty() {
                return Ok(r.data);
            }
            if n > 3 {
                std::thread::sleep(self.poll_interval);
            }
        }
        Err(TcgError::NoResponse(self.poll_limit))
    }

    /// STACK_RESET: drops any session state left on the ComID by another tool.
    pub fn stack_reset(&mut self) -> Result<(), TcgError> {
        let d = self.comid_request(comid::STACK_RESET)?;
        match crate::bytes::Bytes::new(&d, "STACK_RESET").be32(0)? {
            0 => Ok(()),
            v => Err(TcgError::Framing(format!(
                "STACK_RESET failed (status {v})"
            ))),
        }
    }

    /// VERIFY_COMID_VALID.
    pub fn verify_comid(&mut self) -> Result<comid::ComIdState, TcgError> {
        let d = self.comid_request(comid::VERIFY_COMID_VALID)?;
        comid::ComIdState::from_data(&d)
    }

    /// Sends one ComPacket and returns the response payload, polling while the TPer answers
    /// with empty ComPackets (OutstandingData ≠ 0) and growing the buffer on MinTransfer.
    pub fn exchange(&mut self, tsn: u32, hsn: u32, payload: &[u8]) -> Result<Vec<u8>, TcgError> {
        let out = packet::build(self.comid, 0, tsn, hsn, payload);
        if let Err(e) = spio::security_out(self.t, sp::PROTOCOL_TCG, self.comid, &out, self.inc) {
            if !is_sequence_error(&e) {
                return Err(e.into());
            }
            // Someone else's stale response is pending: retrieve and discard it, then send
            // ours, which the TPer refused unprocessed (so this is not a duplicate).
            spio::security_in(
                self.t,
                sp::PROTOCOL_TCG,
                self.comid,
                self.recv_len,
                self.inc,
            )?;
            spio::security_out(self.t, sp::PROTOCOL_TCG, self.comid, &out, self.inc)?;
        }
        let mut len = self.recv_len;
        let mut polls = 0u32;
        let mut empty = 0u32;
        loop {
            let buf = spio::security_in(self.t, sp::PROTOCOL_TCG, self.comid, len, self.inc)?;
            match packet::parse(&buf)? {
                Received::Data {
                    comid,
                    tsn: rt,
                    hsn: rh,
                    payload,
                } => {
                    if comid != self.comid {
                        return Err(TcgError::Framing(format!(
                            "answer on ComID 0x{comid:04x}, expected 0x{:04x}",
                            self.comid
                        )));
                    }
                    if (rt, rh) != (tsn, hsn) {
                        return Err(TcgError::Framing(format!(
                            "answer for session {rt}/{rh}, expected {tsn}/{hsn}"
                        )));
                    }
                    return Ok(payload);
                }
                Received::Pending {
                    outstanding,
                    min_transfer,
                } => {
                    if outstanding == 0 && min_transfer == 0 {
                        // Nothing queued. sedutil stops polling here; some TPers answer 0/0
                        // until they start processing, so give them a few more polls before
                        // concluding the call was dropped (RevertSP ends this way by design).
                        empty += 1;
                        if empty > EMPTY_POLLS {
                            return Err(TcgError::NoResponse(polls));
                        }
                        std::thread::sleep(self.poll_interval);
                        continue;
                    }
                    polls += 1;
                    if polls > self.poll_limit {
                        return Err(TcgError::NoResponse(polls));
                    }
                    let want = min_transfer as usize;
                    if want > len {
                        if want > 1 << 20 {
                            return Err(TcgError::Framing(format!("MinTransfer of {want} bytes")));
                        }
                        len = sp::pad_len(want);
                    } else if polls > 3 {
                        std::thread::sleep(self.poll_interval);
                    }
                }
            }
        }
    }

    /// Sends a payload expecting no answer (RevertSP / Revert: the TPer drops the session).
    pub fn send_only(&mut self, tsn: u32, hsn: u32, payload: &[u8]) -> Result<(), TcgError> {
        let out = packet::build(self.comid, 0, tsn, hsn, payload);
        spio::security_out(self.t, sp::PROTOCOL_TCG, self.comid, &out, self.inc)?;
        Ok(())
    }

    /// Properties: announces our sizes, returns the TPer's.
    pub fn properties(&mut self) -> Result<Properties, TcgError> {
        let payload = properties_call(self.dialect);
        let r = method::parse_response(&self.exchange(0, 0, &payload)?)?.ok()?;
        let mut p = Properties::default();
        if let Some(first) = r.results.first() {
            p.tper = prop_list(first);
        }
        for v in &r.results[1.min(r.results.len())..] {
            if let Value::Named(_, l) = v {
                p.host = prop_list(l);
            }
        }
        if let Some(m) = p.tper("MaxComPacketSize") {
            self.recv_len = sp::pad_len((m as usize).clamp(2048, 1 << 20));
        }
        Ok(p)
    }

    /// StartSession on `sp`. With `auth`, Opal passes HostChallenge/HostSigningAuthority in
    /// StartSession; Enterprise calls `ThisSP.Authenticate` right after (what sedutil and
    /// go-tcg do; protocols.md §F.7).
    pub fn start_session<'s>(
        &'s mut self,
        sp_uid: Uid,
        write: bool,
        auth: Option<(Uid, &Pin)>,
    ) -> Result<Session<'s, 't>, TcgError> {
        match self.open_session(sp_uid, write, auth) {
            Ok((tsn, hsn)) => Ok(Session {
                tper: self,
                tsn,
                hsn,
                open: true,
            }),
            // A wrong PIN: say what the drive's try counter shows now.
            Err(TcgError::AuthFailed(name)) => {
                let counter = auth.and_then(|(who, _)| self.try_counter(sp_uid, who));
                Err(TcgError::AuthFailed(format!(
                    "{name}{}",
                    tries_note(counter)
                )))
            }
            Err(e) => Err(e),
        }
    }

    /// StartSession (and, Enterprise, Authenticate): the session's (TSN, HSN).
    fn open_session(
        &mut self,
        sp_uid: Uid,
        write: bool,
        auth: Option<(Uid, &Pin)>,
    ) -> Result<(u32, u32), TcgError> {
        let hsn = self.next_hsn;
        self.next_hsn = self.next_hsn.wrapping_add(1).max(1);
        let payload = start_session_call(self.dialect, hsn, sp_uid, write, auth);
        let r = method::parse_response(&self.exchange(0, 0, &payload)?)?;
        let r = r.ok()?;
        if r.call != Some((uid::SMUID, uid::sm::SYNC_SESSION)) {
            return Err(TcgError::Token(
                "StartSession was not answered by SyncSession".into(),
            ));
        }
        let got_hsn = r.results.first().and_then(Value::as_uint);
        let tsn = r.results.get(1).and_then(Value::as_uint);
        let (Some(got_hsn), Some(tsn)) = (got_hsn, tsn) else {
            return Err(TcgError::Token("SyncSession without HSN/TSN".into()));
        };
        if got_hsn != u64::from(hsn) {
            return Err(TcgError::Framing(format!(
                "SyncSession for HSN {got_hsn}, we sent {hsn}"
            )));
        }
        let tsn = u32::try_from(tsn).map_err(|_| TcgError::Token("TSN over 32 bits".into()))?;
        let mut s = Session {
            tper: self,
            tsn,
            hsn,
            open: true,
        };
        if let (Dialect::Enterprise, Some((who, pin))) = (s.tper.dialect, auth) {
            if let Err(e) = s.authenticate(who, pin) {
                let _ = s.end();
                return Err(e);
            }
        }
        // The caller's Session is built again below; this one must not end the session.
        s.open = false;
        Ok((tsn, hsn))
    }

    /// The try counter of authority `who` in `sp`: (C_PIN TryLimit, Tries), read in an
    /// anonymous read-only session; `None` when the drive does not show it to Anybody (or
    /// is not an Enterprise drive).
    pub fn try_counter(&mut self, sp_uid: Uid, who: Uid) -> Option<(u64, u64)> {
        if self.dialect != Dialect::Enterprise {
            return None;
        }
        let row = uid::c_pin_of(who)?;
        let mut s = self.start_session(sp_uid, false, None).ok()?;
        let r = s.get(row, Some((("TryLimit", 5), ("Tries", 6))));
        let _ = s.end();
        let r = r.ok()?;
        let c = columns(&r);
        let limit = column(&c, "TryLimit", 5).and_then(Value::as_uint)?;
        let tries = column(&c, "Tries", 6).and_then(Value::as_uint)?;
        Some((limit, tries))
    }
}

/// An open session. End it with [`Session::end`]; dropping it sends EndOfSession best-effort.
pub struct Session<'s, 't> {
    tper: &'s mut Tper<'t>,
    /// TPer session number.
    pub tsn: u32,
    /// Host session number.
    pub hsn: u32,
    open: bool,
}

impl std::fmt::Debug for Session<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Session(tsn={}, hsn={})", self.tsn, self.hsn)
    }
}

impl Session<'_, '_> {
    /// The dialect of the drive.
    pub fn dialect(&self) -> Dialect {
        self.tper.dialect
    }

    /// Calls a method in this session and checks its status.
    pub fn call(
        &mut self,
        invoking: Uid,
        method_uid: Uid,
        args: &[u8],
    ) -> Result<Response, TcgError> {
        let payload = method::call(invoking, method_uid, args);
        let reply = self.tper.exchange(self.tsn, self.hsn, &payload);
        let r = match reply.and_then(|p| method::parse_response(&p)) {
            Ok(r) => r,
            Err(TcgError::SessionClosed) => {
                self.open = false;
                return Err(TcgError::SessionClosed);
            }
            Err(e) => return Err(e),
        };
        if r.call == Some((uid::SMUID, uid::sm::CLOSE_SESSION)) {
            // TPer-initiated abort (session timeout and the like).
            self.open = false;
            return Err(TcgError::SessionClosed);
        }
        r.ok()
    }

    /// Calls a method after which the TPer ends the session without answering (RevertSP,
    /// Revert). A reply, if one comes, is checked for a failure status.
    pub fn call_and_drop(mut self, invoking: Uid, method_uid: Uid) -> Result<(), TcgError> {
        let payload = method::call(invoking, method_uid, &[]);
        let (tsn, hsn) = (self.tsn, self.hsn);
        self.open = false;
        match self.tper.exchange(tsn, hsn, &payload) {
            Ok(p) => match method::parse_response(&p) {
                Ok(r) => r.ok().map(|_| ()),
                Err(TcgError::SessionClosed) => Ok(()),
                Err(e) => Err(e),
            },
            // No answer queued: the TPer dropped the session as the spec says.
            Err(TcgError::NoResponse(_)) => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Authenticates `who` with `pin`. Enterprise: `ThisSP.Authenticate(who, Challenge=pin)`
    /// whose result is a boolean with SUCCESS status (check it! [SEDU-ISS #474]).
    pub(crate) fn authenticate(&mut self, who: Uid, pin: &Pin) -> Result<(), TcgError> {
        let mut e = Encoder::new();
        e.uid(who);
        let m = match self.tper.dialect {
            Dialect::Enterprise => {
                e.named_str_bytes("Challenge", pin.expose());
                uid::method::E_AUTHENTICATE
            }
            Dialect::Opal => {
                e.start_name().uint(0).bytes(pin.expose()).end_name();
                uid::method::AUTHENTICATE
            }
        };
        let r = self.call(uid::THIS_SP, m, e.as_bytes())?;
        match r.results.first().and_then(Value::as_uint) {
            Some(1) => Ok(()),
            Some(0) => Err(TcgError::AuthFailed(authority_name(who))),
            _ => Err(TcgError::Token(
                "Authenticate result is not a boolean".into(),
            )),
        }
    }

    /// Get a whole row (or the columns `range` by name/number) and return the results.
    pub fn get(
        &mut self,
        obj: Uid,
        range: Option<ColumnRange<'_>>,
    ) -> Result<Vec<Value>, TcgError> {
        let mut e = Encoder::new();
        e.start_list();
        let m = match self.tper.dialect {
            Dialect::Enterprise => {
                if let Some(((a, _), (b, _))) = range {
                    e.start_name()
                        .bytes(b"startColumn")
                        .bytes(a.as_bytes())
                        .end_name();
                    e.start_name()
                        .bytes(b"endColumn")
                        .bytes(b.as_bytes())
                        .end_name();
                }
                uid::method::E_GET
            }
            Dialect::Opal => {
                if let Some(((_, a), (_, b))) = range {
                    e.named_uint(3, a).named_uint(4, b);
                }
                uid::method::GET
            }
        };
        e.end_list();
        Ok(self.call(obj, m, e.as_bytes())?.results)
    }

    /// Set columns of a row. `values` are (Enterprise name, Opal number, value).
    pub fn set(&mut self, obj: Uid, values: &[(&str, u64, Value)]) -> Result<(), TcgError> {
        let mut e = Encoder::new();
        let m = match self.tper.dialect {
            Dialect::Enterprise => {
                e.start_list().end_list().start_list().start_list();
                for (n, _, v) in values {
                    e.start_name().bytes(n.as_bytes());
                    v.encode(&mut e);
                    e.end_name();
                }
                e.end_list().end_list();
                uid::method::E_SET
            }
            Dialect::Opal => {
                e.start_name().uint(1).start_list();
                for (_, n, v) in values {
                    e.start_name().uint(*n);
                    v.encode(&mut e);
                    e.end_name();
                }
                e.end_list().end_name();
                uid::method::SET
            }
        };
        self.call(obj, m, e.as_bytes())?;
        Ok(())
    }

    /// Ends the session (EndOfSession; the TPer answers with EndOfSession).
    pub fn end(mut self) -> Result<(), TcgError> {
        self.open = false;
        let (tsn, hsn) = (self.tsn, self.hsn);
        let p = self
            .tper
            .exchange(tsn, hsn, &[crate::tcg::token::ctl::END_OF_SESSION])?;
        match crate::tcg::token::parse(&p)?.first() {
            Some(crate::tcg::token::Item::EndOfSession) => Ok(()),
            _ => Err(TcgError::Token("EndOfSession not acknowledged".into())),
        }
    }
}

impl Drop for Session<'_, '_> {
    fn drop(&mut self) {
        if self.open {
            self.open = false;
            let (tsn, hsn) = (self.tsn, self.hsn);
            let _ = self
                .tper
                .exchange(tsn, hsn, &[crate::tcg::token::ctl::END_OF_SESSION]);
        }
    }
}
