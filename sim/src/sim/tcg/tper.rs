//! The virtual drive's TCG Enterprise SSC TPer (protocols.md §F.14): session manager, Admin
//! SP and Enterprise Locking SP with authorities, C_PIN rows, bands, sessions and access
//! control, protocol 0x02 ComID management, and the per-ComID response queue with polling.
//!
//! Access control (a model of SGT-SED pp.14–24 and sedutil's Enterprise flows; vendor ACLs
//! vary):
//! * Anybody: Get C_PIN_MSID.PIN, Get the try counter of every C_PIN row (TryLimit, Tries,
//!   Persistence; never PIN), Get LockingInfo, Get band rows (real drives may require the
//!   BandMaster; reading is harmless here), Authenticate.
//! * SID (Admin SP): Set C_PIN_SID. RevertSP is refused (NOT_AUTHORIZED), as on the drives in
//!   sedutil issues #469/#474.
//! * PSID (Admin SP, if the profile offers it): `ThisSP.RevertSP` → factory state, every band
//!   crypto-erased; the TPer ends the session without answering.
//! * EraseMaster: Set C_PIN_EraseMaster, Set Authority BandMaster n "Enabled", `Band n.Erase`.
//! * BandMaster n: Set its own C_PIN and Band n.
//! * Wrong PIN: Authenticate returns FALSE with SUCCESS status; after TryLimit failures the
//!   authority answers AUTHORITY_LOCKED_OUT until a power cycle.
//! * Band n Erase: new key generation for the band, unlocked, BandMaster n PIN = MSID.
//! * Power cycle: bands with LockOnReset = \[PowerCycle\] relock (per their *LockEnabled),
//!   sessions end, try counters reset.
//! * Anybody may also Get the Admin SP's TPerInfo row and SP rows, and call Next on every
//!   table of the session's SP (row UIDs are not secret) and `ThisSP.Random`.
//! * Sessions: MaxSessions 2, one write session per SP (else SP_BUSY), SessionTimeout within
//!   [MinSessionTimeout, MaxSessionTimeout] (else INVALID_PARAMETER), default
//!   DefSessionTimeout; a session idle for its timeout is ended by the TPer.
//! * One outstanding ComPacket per ComID: a second IF-SEND before the IF-RECV is refused
//!   with ILLEGAL REQUEST 2C/00 (see [`Reject::Sequence`]).

use crate::tcg::method::{self, Call};
use crate::tcg::packet::{self, Received};
use crate::tcg::token::{Encoder, Value};
use crate::tcg::uid::{self, Uid};
use crate::tcg::{comid, MethodStatus};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Enterprise SSC base ComID (as the ST4000NM0043 in protocols.md §F.2).
pub(crate) const BASE_COMID: u16 = 0x07FE;
/// Number of ComIDs.
pub(crate) const NUM_COMIDS: u16 = 2;
/// MaxRanges reported in LockingInfo (bands 1..=15 besides the global band 0).
pub(crate) const MAX_RANGES: u16 = 15;
/// TryLimit of SID, EraseMaster and BandMasters.
pub const TRY_LIMIT: u32 = 5;
/// Largest response the TPer sends in one IF-RECV (its MaxComPacketSize).
pub(crate) const MAX_COMPACKET: usize = 2048;
/// MaxSessions in Properties: at most this many sessions at once (then
/// NO_SESSIONS_AVAILABLE); a second session to an SP with a write session open is SP_BUSY.
pub(crate) const MAX_SESSIONS: usize = 2;
/// DefSessionTimeout (ms): sessions that ask for no SessionTimeout expire after this long
/// without a method.
pub(crate) const DEF_SESSION_TIMEOUT_MS: u64 = 30_000;
/// MinSessionTimeout (ms) reported in Properties; a smaller SessionTimeout is refused.
pub(crate) const MIN_SESSION_TIMEOUT_MS: u64 = 1_000;
/// MaxSessionTimeout (ms) reported in Properties; a larger SessionTimeout is refused.
pub(crate) const MAX_SESSION_TIMEOUT_MS: u64 = 600_000;
/// Largest `ThisSP.Random` Count (bytes) answered in one call.
pub(crate) const MAX_RANDOM: u64 = 256;

/// Why an IF-SEND / IF-RECV is rejected at the SCSI level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reject {
    /// ILLEGAL REQUEST 24/00, field pointer at this CDB byte.
    Cdb(u16),
    /// ILLEGAL REQUEST 26/00, field pointer at this parameter byte.
    Param(u16),
    /// ILLEGAL REQUEST 2C/00 COMMAND SEQUENCE ERROR: an IF-SEND to a ComID whose previous
    /// response the host has not yet retrieved (the SIIS "synchronous protocol violation"
    /// of the Core spec's synchronous communication rules). The pending response is kept
    /// and the new ComPacket is not processed.
    Sequence,
}

/// One authority with its C_PIN row.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Authority {
    /// Authority UID.
    pub uid: u64,
    /// SP it belongs to.
    pub sp: u64,
    /// Enabled column.
    pub enabled: bool,
    /// C_PIN.PIN.
    pub pin: Vec<u8>,
    /// C_PIN.TryLimit (0 = unlimited).
    pub try_limit: u32,
    /// C_PIN.Tries.
    pub tries: u32,
    /// C_PIN.Persistence (tries survive power cycles).
    pub persistence: bool,
}

/// One band (Locking table row).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct BandState {
    /// RangeStart.
    pub range_start: u64,
    /// RangeLength.
    pub range_length: u64,
    /// ReadLockEnabled.
    pub read_lock_enabled: bool,
    /// WriteLockEnabled.
    pub write_lock_enabled: bool,
    /// ReadLocked.
    pub read_locked: bool,
    /// WriteLocked.
    pub write_locked: bool,
    /// LockOnReset contains PowerCycle.
    pub lock_on_reset: bool,
    /// Media key generation: bumped by Erase.
    pub key_generation: u32,
}

/// An open session.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct OpenSession {
    /// TPer session number.
    pub tsn: u32,
    /// Host session number.
    pub hsn: u32,
    /// SP UID.
    pub sp: u64,
    /// Write session.
    pub write: bool,
    /// Authorities authenticated in it.
    pub authenticated: Vec<u64>,
    /// SessionTimeout in force (ms of inactivity).
    #[serde(default)]
    pub timeout_ms: u64,
    /// Wall-clock deadline (ms since the epoch, `Tper::now_ms`); 0 = none.
    #[serde(default)]
    pub deadline_ms: u64,
}

/// Faults the tests inject.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct TperFaults {
    /// StartSession answers SP_BUSY this many times.
    pub sp_busy: u32,
    /// The next in-session method times out: the TPer closes the session
    /// (`SMUID.CloseSession`) instead of answering.
    pub session_timeout: bool,
    /// Empty "not ready" ComPackets before every answer (exercises host polling).
    pub polls_before_answer: u32,
}

/// The TPer state (persisted with the drive).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Tper {
    /// MSID (C_PIN_MSID.PIN).
    pub msid: Vec<u8>,
    /// PSID (printed on the label), if the drive offers PSID revert.
    pub psid: Option<Vec<u8>>,
    /// Authorities of both SPs.
    pub authorities: Vec<Authority>,
    /// Bands 0..=MAX_RANGES.
    pub bands: Vec<BandState>,
    /// Open sessions.
    pub sessions: Vec<OpenSession>,
    /// Next TSN.
    pub next_tsn: u32,
    /// Queued responses per ComID.
    pub outbox: BTreeMap<u16, Vec<Vec<u8>>>,
    /// Polls still to answer "not ready" for the queued response.
    pub polls_left: u32,
    /// Injected faults.
    pub faults: TperFaults,
    /// Source of new key generations.
    pub key_counter: u32,
    /// Counter of the `ThisSP.Random` generator.
    #[serde(default)]
    pub random_counter: u64,
    /// Added to the wall clock (tests move time forward to expire sessions).
    #[serde(skip)]
    pub clock_skew_ms: u64,
}

fn msid_for(serial: &str) -> Vec<u8> {
    // 32 ASCII characters, like real MSIDs (protocols.md §F.10 step 1).
    let mut s = format!("MSID{serial:0>28}");
    s.truncate(32);
    s.into_bytes()
}

/// The PSID a profile prints on the label of drive `serial` (deterministic, for tests).
pub fn psid_for(serial: &str) -> Vec<u8> {
    use sha2::{Digest, Sha256};
    let h = Sha256::digest(format!("psid:{serial}").as_bytes());
    // 32 upper-case alphanumerics, as printed on labels.
    const A: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    h.iter().map(|b| A[usize::from(b & 31)]).collect()
}

impl Tper {
    /// A factory-fresh Enterprise TPer: every credential = MSID, BandMaster0/1 enabled, bands
    /// unconfigured and unlocked (SGT-SED). With `ex_array`, the drive comes as pulled from a
    /// storage array: owned (SID/EraseMaster/BandMaster PINs unknown), band 0 locked with
    /// LockOnReset; only the PSID on the label can recover it.
    pub fn new(serial: &str, psid_revert: bool, ex_array: bool) -> Tper {
        let msid = msid_for(serial);
        let mut auths = vec![
            auth(uid::AUTH_SID, uid::ADMIN_SP, true, &msid, TRY_LIMIT),
            auth(
                uid::AUTH_ERASEMASTER,
                uid::LOCKING_SP_ENTERPRISE,
                true,
                &msid,
                TRY_LIMIT,
            ),
        ];
        if psid_revert {
            auths.push(auth(
                uid::AUTH_PSID,
                uid::ADMIN_SP,
                true,
                &psid_for(serial),
                0,
            ));
        }
        for n in 0..=MAX_RANGES {
            auths.push(auth(
                uid::auth_bandmaster(n),
                uid::LOCKING_SP_ENTERPRISE,
                n < 2,
                &msid,
                TRY_LIMIT,
            ));
        }
        let mut t = Tper {
            msid: msid.clone(),
            psid: psid_revert.then(|| psid_for(serial)),
            authorities: auths,
            bands: vec![BandState::default(); usize::from(MAX_RANGES) + 1],
            sessions: vec![],
            next_tsn: 1,
            outbox: BTreeMap::new(),
            polls_left: 0,
            faults: TperFaults::default(),
            key_counter: 1,
            random_counter: 0,
            clock_skew_ms: 0,
        };
        if ex_array {
            let array_pin = format!("array-owned-{serial}").into_bytes();
            for a in t.authorities.iter_mut() {
                if a.uid != uid::AUTH_PSID.as_u64() {
                    a.pin = array_pin.clone();
                }
            }
            let b0 = &mut t.bands[0];
            b0.read_lock_enabled = true;
            b0.write_lock_enabled = true;
            b0.read_locked = true;
            b0.write_locked = true;
            b0.lock_on_reset = true;
        }
        t
    }

    /// True if any band is locked for reading or writing (Level 0 Locking "Locked").
    pub fn any_locked(&self) -> bool {
        self.bands.iter().any(|b| {
            (b.read_lock_enabled && b.read_locked) || (b.write_lock_enabled && b.write_locked)
        })
    }

    /// The band an LBA belongs to (bands 1.. with a non-zero length, else band 0).
    pub(crate) fn band_of(&self, lba: u64) -> u16 {
        for (n, b) in self.bands.iter().enumerate().skip(1) {
            if b.range_length > 0 && lba >= b.range_start && lba - b.range_start < b.range_length {
                return n as u16;
            }
        }
        0
    }

    /// Key generation for an LBA (changes when its band is erased).
    pub fn key_generation(&self, lba: u64) -> u32 {
        self.bands
            .get(usize::from(self.band_of(lba)))
            .map_or(0, |b| b.key_generation)
    }

    /// Is access to `count` blocks at `lba` refused by a locked band? Checks every band
    /// the range touches (band 0 for any part outside the configured bands).
    pub fn locked_for(&self, lba: u64, count: u64, write: bool) -> bool {
        let end = lba.saturating_add(count.max(1));
        let locked = |b: &BandState| {
            if write {
                b.write_lock_enabled && b.write_locked
            } else {
                b.read_lock_enabled && b.read_locked
            }
        };
        let mut covered = 0u64;
        for b in self.bands.iter().skip(1) {
            if b.range_length == 0 {
                continue;
            }
            let bend = b.range_start.saturating_add(b.range_length);
            let (s, e) = (lba.max(b.range_start), end.min(bend));
            if s < e {
                if locked(b) {
                    return true;
                }
                covered += e - s;
            }
        }
        covered < end - lba && locked(&self.bands[0])
    }

    /// Power cycle: LockOnReset, sessions dropped, try counters reset (unless Persistence).
    pub fn power_cycle(&mut self) {
        for b in self.bands.iter_mut() {
            if b.lock_on_reset {
                b.read_locked = b.read_lock_enabled;
                b.write_locked = b.write_lock_enabled;
            }
        }
        for a in self.authorities.iter_mut() {
            if !a.persistence {
                a.tries = 0;
            }
        }
        self.sessions.clear();
        self.outbox.clear();
        self.polls_left = 0;
    }

    fn new_key(&mut self) -> u32 {
        self.key_counter = self.key_counter.wrapping_add(1);
        self.key_counter
    }

    fn authority(&mut self, u: Uid) -> Option<&mut Authority> {
        self.authorities.iter_mut().find(|a| a.uid == u.as_u64())
    }

    /// The TPer's clock: wall time in ms plus [`Tper::clock_skew_ms`].
    pub(crate) fn now_ms(&self) -> u64 {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        t.saturating_add(self.clock_skew_ms)
    }

    /// Ends sessions whose SessionTimeout elapsed without a method (Core: the TPer aborts a
    /// session that times out; its resources become available again).
    pub(crate) fn expire_sessions(&mut self) {
        let now = self.now_ms();
        self.sessions
            .retain(|s| s.deadline_ms == 0 || now < s.deadline_ms);
    }

    fn authority_ref(&self, u: Uid) -> Option<&Authority> {
        self.authorities.iter().find(|a| a.uid == u.as_u64())
    }

    /// Does `obj` exist in SP `sp`? A TPer refuses methods on objects it does not have
    /// (INVALID_PARAMETER here) instead of treating them as someone else's.
    pub fn exists(&self, sp: Uid, obj: Uid) -> bool {
        let in_sp = |a: &Authority| a.sp == sp.as_u64();
        if obj == uid::THIS_SP {
            return true;
        }
        if let Some(owner) = uid::authority_of_c_pin(obj) {
            // C_PIN_MSID exists without an Authority row of ours (MSID is never used to
            // authenticate here); the others exist with their authority.
            return (obj == uid::C_PIN_MSID && sp == uid::ADMIN_SP)
                || self.authority_ref(owner).is_some_and(in_sp);
        }
        if self.authority_ref(obj).is_some_and(in_sp) {
            return true;
        }
        if sp == uid::ADMIN_SP {
            return obj == uid::AUTH_ANYBODY
                || obj == uid::AUTH_ADMINS
                || obj == uid::AUTH_MAKERS
                || obj == uid::TPER_INFO
                || obj == uid::ADMIN_SP
                || obj == uid::LOCKING_SP_ENTERPRISE;
        }
        obj == uid::AUTH_ANYBODY
            || obj == uid::LOCKING_INFO_ENTERPRISE
            || uid::band_number(obj).is_some_and(|n| usize::from(n) < self.bands.len())
    }

    // ---- SECURITY PROTOCOL OUT / IN ----

    /// IF-SEND (protocol 0x01) and ComID management requests (0x02).
    pub fn if_send(&mut self, protocol: u8, sps: u16, data: &[u8]) -> Result<(), Reject> {
        if !is_comid(sps) {
            return Err(Reject::Cdb(2));
        }
        match protocol {
            0x02 => {
                let b = crate::bytes::Bytes::new(data, "ComID request");
                let (c, code) = match (b.be16(0), b.be32(4)) {
                    (Ok(c), Ok(code)) => (c, code),
                    _ => return Err(Reject::Param(0)),
                };
                if c != sps {
                    return Err(Reject::Param(0));
                }
                let reply = match code {
                    comid::VERIFY_COMID_VALID => 2u32.to_be_bytes(), // Issued
                    comid::STACK_RESET => {
                        self.sessions.clear();
                        self.outbox.remove(&sps);
                        0u32.to_be_bytes()
                    }
                    _ => return Err(Reject::Param(4)),
                };
                self.outbox.insert(
                    0x8000 | sps,
                    vec![comid::build_response(sps, code, &reply, 12 + 4)],
                );
                Ok(())
            }
            0x01 => {
                let got = crate::bytes::Bytes::new(data, "ComPacket")
                    .be16(4)
                    .map_err(|_| Reject::Param(0))?;
                if got != sps {
                    // The ComPacket's ComID must equal the CDB's (protocols.md §F.14).
                    return Err(Reject::Param(4));
                }
                if self.outbox.get(&sps).is_some_and(|q| !q.is_empty()) {
                    // Synchronous communication: one outstanding ComPacket per ComID. A second
                    // IF-SEND (e.g. an SG_IO restarted after a signal) is refused, so the
                    // host can never read a stale reply.
                    return Err(Reject::Sequence);
                }
                self.expire_sessions();
                let (tsn, hsn, payload) = match packet::parse(data) {
                    Ok(Received::Data {
                        tsn, hsn, payload, ..
                    }) => (tsn, hsn, payload),
                    _ => return Err(Reject::Param(16)),
                };
                if let Some(reply) = self.handle(tsn, hsn, &payload) {
                    let pkt = packet::build(sps, 0, reply.0, reply.1, &reply.2);
                    self.outbox.entry(sps).or_default().push(pkt);
                    self.polls_left = self.faults.polls_before_answer;
                }
                Ok(())
            }
            _ => Err(Reject::Cdb(1)),
        }
    }

    /// IF-RECV: the next queued answer, an empty ComPacket while "processing", or MinTransfer
    /// when the host's buffer is too small.
    pub fn if_recv(&mut self, protocol: u8, sps: u16, alloc: usize) -> Result<Vec<u8>, Reject> {
        if !is_comid(sps) {
            return Err(Reject::Cdb(2));
        }
        match protocol {
            0x02 => {
                let r = self
                    .outbox
                    .remove(&(0x8000 | sps))
                    .and_then(|mut v| v.pop())
                    .unwrap_or_else(|| comid::build_response(sps, 0, &[], 12));
                Ok(r)
            }
            0x01 => {
                let q = self.outbox.entry(sps).or_default();
                let Some(first) = q.first() else {
                    return Ok(packet::build_pending(sps, 0, 0, 512));
                };
                if self.polls_left > 0 {
                    self.polls_left -= 1;
                    return Ok(packet::build_pending(sps, first.len() as u32, 0, 512));
                }
                // Size of the meaningful part (before the 512 padding).
                let need =
                    20 + u32::from_be_bytes([first[16], first[17], first[18], first[19]]) as usize;
                if alloc < need {
                    return Ok(packet::build_pending(
                        sps,
                        first.len() as u32,
                        need as u32,
                        512,
                    ));
                }
                Ok(q.remove(0))
            }
            _ => Err(Reject::Cdb(1)),
        }
    }

    // ---- method dispatch ----

    /// Handles one ComPacket payload; returns (tsn, hsn, reply payload) or None (no answer).
    fn handle(&mut self, tsn: u32, hsn: u32, payload: &[u8]) -> Option<(u32, u32, Vec<u8>)> {
        let call = match method::parse_call(payload) {
            Ok(Some(c)) => c,
            Ok(None) => {
                // EndOfSession: close and acknowledge.
                let before = self.sessions.len();
                self.sessions.retain(|s| !(s.tsn == tsn && s.hsn == hsn));
                if self.sessions.len() == before {
                    return None;
                }
                return Some((tsn, hsn, vec![0xFA]));
            }
            Err(_) => {
                return Some((
                    tsn,
                    hsn,
                    method::response(&[], MethodStatus::InvalidParameter.code()),
                ))
            }
        };
        if tsn == 0 && hsn == 0 {
            return Some((0, 0, self.session_manager(&call)));
        }
        let idx = self
            .sessions
            .iter()
            .position(|s| s.tsn == tsn && s.hsn == hsn)?;
        let now = self.now_ms();
        let sess = &mut self.sessions[idx];
        if sess.timeout_ms > 0 {
            sess.deadline_ms = now.saturating_add(sess.timeout_ms);
        }
        if self.faults.session_timeout {
            self.faults.session_timeout = false;
            self.sessions.remove(idx);
            let mut e = Encoder::new();
            e.uint(u64::from(hsn)).uint(u64::from(tsn));
            return Some((
                tsn,
                hsn,
                method::call(uid::SMUID, uid::sm::CLOSE_SESSION, e.as_bytes()),
            ));
        }
        match self.in_session(idx, &call) {
            Outcome::Reply(results, status) => Some((tsn, hsn, method::response(&results, status))),
            Outcome::DropSession => {
                self.sessions.retain(|s| s.tsn != tsn);
                None
            }
        }
    }

    fn session_manager(&mut self, c: &Call) -> Vec<u8> {
        if c.invoking != uid::SMUID {
            return method::response(&[], MethodStatus::InvalidParameter.code());
        }
        match c.method {
            uid::sm::PROPERTIES => {
                let tper: Vec<Value> = [
                    ("MaxMethods", 1u64),
                    ("MaxSubpackets", 1),
                    ("MaxPacketSize", MAX_COMPACKET as u64 - 20),
                    ("MaxPackets", 1),
                    ("MaxComPacketSize", MAX_COMPACKET as u64),
                    ("MaxResponseComPacketSize", MAX_COMPACKET as u64),
                    ("MaxSessions", MAX_SESSIONS as u64),
                    ("MaxIndTokenSize", MAX_COMPACKET as u64 - 56),
                    ("MaxAuthentications", 2),
                    ("MaxTransactionLimit", 1),
                    ("DefSessionTimeout", DEF_SESSION_TIMEOUT_MS),
                    ("MaxSessionTimeout", MAX_SESSION_TIMEOUT_MS),
                    ("MinSessionTimeout", MIN_SESSION_TIMEOUT_MS),
                ]
                .iter()
                .map(|(n, v)| named(n, Value::Uint(*v)))
                .collect();
                let host = c
                    .args
                    .iter()
                    .find_map(|a| match a {
                        Value::Named(_, v) => Some(v.as_ref().clone()),
                        _ => None,
                    })
                    .unwrap_or(Value::List(vec![]));
                // An Enterprise TPer answers as a Call to SMUID.Properties ([SEDU-ISS] #392).
                let mut e = Encoder::new();
                Value::List(tper).encode(&mut e);
                named("HostProperties", host).encode(&mut e);
                method::call(uid::SMUID, uid::sm::PROPERTIES, e.as_bytes())
            }
            uid::sm::START_SESSION => self.start_session(c),
            _ => method::response(&[], MethodStatus::InvalidParameter.code()),
        }
    }

    fn start_session(&mut self, c: &Call) -> Vec<u8> {
        let fail = |s: MethodStatus| method::response(&[], s.code());
        let hsn = c.args.first().and_then(Value::as_uint);
        let sp = c
            .args
            .get(1)
            .and_then(Value::as_bytes)
            .and_then(Uid::from_slice);
        let write = c.args.get(2).and_then(Value::as_uint);
        let (Some(hsn), Some(sp), Some(write)) = (hsn, sp, write) else {
            return fail(MethodStatus::InvalidParameter);
        };
        let Ok(hsn) = u32::try_from(hsn) else {
            return fail(MethodStatus::InvalidParameter);
        };
        if sp != uid::ADMIN_SP && sp != uid::LOCKING_SP_ENTERPRISE {
            return fail(MethodStatus::InvalidParameter);
        }
        // Optional parameters (Enterprise names or Core numbers).
        let opt = &c.args[3.min(c.args.len())..];
        // SessionTimeout (Core optional parameter 5, ms): within [Min, Max]SessionTimeout or
        // the StartSession fails with INVALID_PARAMETER; absent = DefSessionTimeout.
        let timeout_ms = match method::named(opt, "SessionTimeout", Some(5)) {
            None => DEF_SESSION_TIMEOUT_MS,
            Some(v) => match v.as_uint() {
                Some(t) if (MIN_SESSION_TIMEOUT_MS..=MAX_SESSION_TIMEOUT_MS).contains(&t) => t,
                _ => return fail(MethodStatus::InvalidParameter),
            },
        };
        if self.faults.sp_busy > 0 {
            self.faults.sp_busy -= 1;
            return fail(MethodStatus::SpBusy);
        }
        self.expire_sessions();
        // Core spec StartSession: an SP has at most one read-write session, and no read-write
        // session while others are open to it → SP_BUSY (what drives answer while another
        // tool holds the SP, sedutil issue #36); the TPer out of sessions (MaxSessions) →
        // NO_SESSIONS_AVAILABLE.
        let same_sp: Vec<&OpenSession> = self
            .sessions
            .iter()
            .filter(|s| s.sp == sp.as_u64())
            .collect();
        if same_sp.iter().any(|s| s.write) || (write != 0 && !same_sp.is_empty()) {
            return fail(MethodStatus::SpBusy);
        }
        if self.sessions.len() >= MAX_SESSIONS {
            return fail(MethodStatus::NoSessionsAvailable);
        }
        let challenge = method::named(opt, "HostChallenge", Some(0)).and_then(Value::as_bytes);
        let signer = method::named(opt, "HostSigningAuthority", Some(3))
            .and_then(Value::as_bytes)
            .and_then(Uid::from_slice);
        let mut authenticated = vec![];
        if let Some(who) = signer {
            match self.check_pin(sp, who, challenge.unwrap_or(&[])) {
                Ok(true) => authenticated.push(who.as_u64()),
                Ok(false) => return fail(MethodStatus::NotAuthorized),
                Err(s) => return fail(s),
            }
        }
        let tsn = self.next_tsn;
        self.next_tsn = self.next_tsn.wrapping_add(1).max(1);
        self.sessions.push(OpenSession {
            tsn,
            hsn,
            sp: sp.as_u64(),
            write: write != 0,
            authenticated,
            timeout_ms,
            deadline_ms: self.now_ms().saturating_add(timeout_ms),
        });
        let mut e = Encoder::new();
        e.uint(u64::from(hsn)).uint(u64::from(tsn));
        method::call(uid::SMUID, uid::sm::SYNC_SESSION, e.as_bytes())
    }

    /// Checks a PIN, counting failures. `Err` when the authority is unusable.
    fn check_pin(&mut self, sp: Uid, who: Uid, pin: &[u8]) -> Result<bool, MethodStatus> {
        let a = self
            .authority(who)
            .filter(|a| a.sp == sp.as_u64())
            .ok_or(MethodStatus::InvalidParameter)?;
        if !a.enabled {
            return Err(MethodStatus::NotAuthorized);
        }
        if a.try_limit > 0 && a.tries >= a.try_limit {
            return Err(MethodStatus::AuthorityLockedOut);
        }
        if a.pin == pin {
            a.tries = 0;
            Ok(true)
        } else {
            a.tries += 1;
            Ok(false)
        }
    }

    fn in_session(&mut self, idx: usize, c: &Call) -> Outcome {
        let s = self.sessions[idx].clone();
        let sp = Uid::from_u64(s.sp);
        let is = |a: Uid| s.authenticated.contains(&a.as_u64());
        let ok = |r: Vec<Value>| Outcome::Reply(r, 0);
        let err = |st: MethodStatus| Outcome::Reply(vec![], st.code());
        match (c.invoking, c.method) {
            (uid::THIS_SP, uid::method::E_AUTHENTICATE | uid::method::AUTHENTICATE) => {
                let who = c
                    .args
                    .first()
                    .and_then(Value::as_bytes)
                    .and_then(Uid::from_slice);
                let pin = method::named(&c.args[1.min(c.args.len())..], "Challenge", Some(0))
                    .and_then(Value::as_bytes)
                    .unwrap_or(&[]);
                let Some(who) = who else {
                    return err(MethodStatus::InvalidParameter);
                };
                match self.check_pin(sp, who, pin) {
                    Ok(true) => {
                        self.sessions[idx].authenticated.push(who.as_u64());
                        ok(vec![Value::Uint(1)])
                    }
                    Ok(false) => ok(vec![Value::Uint(0)]),
                    Err(st) => err(st),
                }
            }
            (uid::THIS_SP, uid::method::RANDOM) => {
                // Crypto Template Random(Count): Count bytes from the TPer's generator.
                let count =
                    c.args.first().and_then(Value::as_uint).or_else(|| {
                        method::named(&c.args, "Count", Some(0)).and_then(Value::as_uint)
                    });
                match count {
                    Some(n) if (1..=MAX_RANDOM).contains(&n) => {
                        ok(vec![Value::Bytes(self.random_bytes(n as usize))])
                    }
                    _ => err(MethodStatus::InvalidParameter),
                }
            }
            (table, uid::method::NEXT) => match self.rows_of(sp, table) {
                // Base Template Next([Where], [Count]): the rows after Where (or from the
                // first), at most Count of them, as a list of uidrefs.
                Some(rows) => {
                    let where_ = method::named(&c.args, "Where", Some(0))
                        .or_else(|| c.args.first().filter(|v| v.as_bytes().is_some()))
                        .and_then(Value::as_bytes);
                    let count = method::named(&c.args, "Count", Some(1)).and_then(Value::as_uint);
                    let from = match where_ {
                        None => 0,
                        Some(w) => match Uid::from_slice(w)
                            .and_then(|w| rows.iter().position(|r| *r == w))
                        {
                            Some(i) => i + 1,
                            None => return err(MethodStatus::InvalidParameter),
                        },
                    };
                    let n = count.map_or(usize::MAX, |n| n as usize);
                    let out: Vec<Value> = rows
                        .iter()
                        .skip(from)
                        .take(n)
                        .map(|r| Value::Bytes(r.0.to_vec()))
                        .collect();
                    ok(vec![Value::List(out)])
                }
                None => err(MethodStatus::InvalidParameter),
            },
            (obj, _) if !self.exists(sp, obj) => err(MethodStatus::InvalidParameter),
            (obj, uid::method::E_GET | uid::method::GET) => {
                let enterprise = c.method == uid::method::E_GET;
                match self.get(sp, obj) {
                    Some(cols) => {
                        let cols = filter_columns(cols, c.args.first());
                        let row: Vec<Value> = cols
                            .into_iter()
                            .map(|(n, num, v)| {
                                if enterprise {
                                    named(n, v)
                                } else {
                                    Value::Named(Box::new(Value::Uint(num)), Box::new(v))
                                }
                            })
                            .collect();
                        // Enterprise nests one list deeper than Opal (protocols.md §F.9).
                        if enterprise {
                            ok(vec![Value::List(vec![Value::List(row)])])
                        } else {
                            ok(vec![Value::List(row)])
                        }
                    }
                    None => err(MethodStatus::NotAuthorized),
                }
            }
            (obj, uid::method::E_SET | uid::method::SET) => {
                if !s.write {
                    return err(MethodStatus::NotAuthorized);
                }
                let values = set_values(&c.args);
                match self.set(sp, obj, &values, &is) {
                    Ok(()) => ok(vec![]),
                    Err(st) => err(st),
                }
            }
            (obj, uid::method::ERASE) => {
                let Some(n) = uid::band_number(obj).filter(|n| *n <= MAX_RANGES) else {
                    return err(MethodStatus::InvalidParameter);
                };
                if sp != uid::LOCKING_SP_ENTERPRISE || !s.write || !is(uid::AUTH_ERASEMASTER) {
                    return err(MethodStatus::NotAuthorized);
                }
                self.erase_band(n);
                ok(vec![])
            }
            (uid::THIS_SP, uid::method::REVERT_SP) | (uid::ADMIN_SP, uid::method::REVERT) => {
                if sp == uid::ADMIN_SP && s.write && self.psid.is_some() && is(uid::AUTH_PSID) {
                    self.revert();
                    Outcome::DropSession
                } else {
                    err(MethodStatus::NotAuthorized)
                }
            }
            _ => err(MethodStatus::InvalidParameter),
        }
    }

    fn erase_band(&mut self, n: u16) {
        let k = self.new_key();
        let msid = self.msid.clone();
        let b = &mut self.bands[usize::from(n)];
        b.key_generation = k;
        b.read_locked = false;
        b.write_locked = false;
        if let Some(a) = self.authority(uid::auth_bandmaster(n)) {
            a.pin = msid;
            a.tries = 0;
        }
    }

    /// PSID RevertSP: factory state, every band crypto-erased.
    fn revert(&mut self) {
        let msid = self.msid.clone();
        for a in self.authorities.iter_mut() {
            if a.uid != uid::AUTH_PSID.as_u64() {
                a.pin = msid.clone();
                a.tries = 0;
            }
            if let Some(n) = uid::bandmaster_number(Uid::from_u64(a.uid)) {
                a.enabled = n < 2;
            }
        }
        for n in 0..self.bands.len() {
            let k = self.new_key();
            self.bands[n] = BandState {
                key_generation: k,
                ..BandState::default()
            };
        }
    }

    /// The rows of `table` in `sp`, in UID order (for Next); None if `sp` has no such table.
    fn rows_of(&self, sp: Uid, table: Uid) -> Option<Vec<Uid>> {
        let auths_in = |me: &Self| -> Vec<Uid> {
            me.authorities
                .iter()
                .filter(|a| a.sp == sp.as_u64())
                .map(|a| Uid::from_u64(a.uid))
                .collect()
        };
        let mut rows = match table {
            t if t == uid::AUTHORITY_TABLE => {
                let mut v = auths_in(self);
                v.push(uid::AUTH_ANYBODY);
                if sp == uid::ADMIN_SP {
                    v.extend([uid::AUTH_ADMINS, uid::AUTH_MAKERS]);
                }
                v
            }
            t if t == uid::C_PIN_TABLE => {
                let mut v: Vec<Uid> = auths_in(self)
                    .into_iter()
                    .filter_map(uid::c_pin_of)
                    .collect();
                if sp == uid::ADMIN_SP {
                    v.push(uid::C_PIN_MSID);
                }
                v
            }
            t if t == uid::SP_TABLE && sp == uid::ADMIN_SP => {
                vec![uid::ADMIN_SP, uid::LOCKING_SP_ENTERPRISE]
            }
            t if t == uid::TPER_INFO_TABLE && sp == uid::ADMIN_SP => vec![uid::TPER_INFO],
            t if t == uid::LOCKING_TABLE && sp == uid::LOCKING_SP_ENTERPRISE => {
                (0..self.bands.len()).map(|n| uid::band(n as u16)).collect()
            }
            _ => return None,
        };
        rows.sort();
        rows.dedup();
        Some(rows)
    }

    /// `ThisSP.Random`: SHA-256 in counter mode over a per-drive seed, the wall clock and a
    /// persisted counter (a simulator's generator, not a certified DRBG).
    fn random_bytes(&mut self, n: usize) -> Vec<u8> {
        use sha2::{Digest, Sha256};
        let mut out = Vec::with_capacity(n + 32);
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        while out.len() < n {
            self.random_counter = self.random_counter.wrapping_add(1);
            let mut h = Sha256::new();
            h.update(b"sgctl-sim-random");
            h.update(&self.msid);
            h.update(now.to_be_bytes());
            h.update(self.random_counter.to_be_bytes());
            out.extend_from_slice(&h.finalize());
        }
        out.truncate(n);
        out
    }

    /// Row columns visible to this session: (name, Opal number, value).
    fn get(&self, sp: Uid, obj: Uid) -> Option<Vec<(&'static str, u64, Value)>> {
        let uidcol = |u: Uid| ("UID", 0, Value::Bytes(u.0.to_vec()));
        if obj == uid::C_PIN_MSID && sp == uid::ADMIN_SP {
            return Some(vec![("PIN", 3, Value::Bytes(self.msid.clone()))]);
        }
        // The try counter of a credential (every column but PIN): readable by Anybody on this
        // virtual drive, so a host can say how many tries a wrong PIN left.
        if let Some(a) = uid::authority_of_c_pin(obj)
            .and_then(|owner| self.authority_ref(owner))
            .filter(|a| a.sp == sp.as_u64())
        {
            return Some(vec![
                uidcol(obj),
                ("TryLimit", 5, Value::Uint(u64::from(a.try_limit))),
                ("Tries", 6, Value::Uint(u64::from(a.tries))),
                ("Persistence", 7, Value::Uint(u64::from(a.persistence))),
            ]);
        }
        // Admin SP TPerInfo row and SP table rows: readable by Anybody (the
        // Enterprise SSC's Admin SP access control grants Get on them to Anybody, as the
        // independent client expected). Columns per the Core spec's TPerInfo / SP tables.
        if sp == uid::ADMIN_SP && obj == uid::TPER_INFO {
            use sha2::{Digest, Sha256};
            let gudid = Sha256::digest(&self.msid)[..12].to_vec();
            return Some(vec![
                uidcol(obj),
                ("Bytes", 1, Value::Uint(0)),
                ("GUDID", 2, Value::Bytes(gudid)),
                ("Generation", 3, Value::Uint(1)),
                ("FirmwareVersion", 4, Value::Uint(1)),
                ("ProtocolVersion", 5, Value::Uint(1)),
                ("SpaceForIssuance", 6, Value::Uint(0)),
                (
                    "SSC",
                    7,
                    Value::List(vec![Value::Bytes(b"Enterprise".to_vec())]),
                ),
            ]);
        }
        if sp == uid::ADMIN_SP && (obj == uid::ADMIN_SP || obj == uid::LOCKING_SP_ENTERPRISE) {
            let name: &[u8] = if obj == uid::ADMIN_SP {
                b"Admin"
            } else {
                b"Locking"
            };
            return Some(vec![
                uidcol(obj),
                ("Name", 1, Value::Bytes(name.to_vec())),
                ("Bytes", 5, Value::Uint(0)),
                // LifeCycleState 9 = Manufactured: Enterprise SPs are never issued.
                ("LifeCycleState", 6, Value::Uint(9)),
                ("Frozen", 7, Value::Uint(0)),
            ]);
        }
        if sp != uid::LOCKING_SP_ENTERPRISE {
            return None;
        }
        if obj == uid::LOCKING_INFO_ENTERPRISE {
            // The whole LockingInfo row (columns of the Core LockingInfo table).
            return Some(vec![
                uidcol(obj),
                ("Name", 1, Value::Bytes(vec![])),
                ("Version", 2, Value::Uint(1)),
                // EncryptSupport 1 = Media Encryption.
                ("EncryptSupport", 3, Value::Uint(1)),
                ("MaxRanges", 4, Value::Uint(u64::from(MAX_RANGES))),
                ("MaxReEncryptions", 5, Value::Uint(0)),
                ("KeysAvailableCfg", 6, Value::Uint(0)),
            ]);
        }
        let n = uid::band_number(obj).filter(|n| *n <= MAX_RANGES)?;
        let b = &self.bands[usize::from(n)];
        let lor = if b.lock_on_reset {
            vec![Value::Uint(0)]
        } else {
            vec![]
        };
        Some(vec![
            ("RangeStart", 3, Value::Uint(b.range_start)),
            ("RangeLength", 4, Value::Uint(b.range_length)),
            (
                "ReadLockEnabled",
                5,
                Value::Uint(u64::from(b.read_lock_enabled)),
            ),
            (
                "WriteLockEnabled",
                6,
                Value::Uint(u64::from(b.write_lock_enabled)),
            ),
            ("ReadLocked", 7, Value::Uint(u64::from(b.read_locked))),
            ("WriteLocked", 8, Value::Uint(u64::from(b.write_locked))),
            ("LockOnReset", 9, Value::List(lor)),
        ])
    }

    fn set(
        &mut self,
        sp: Uid,
        obj: Uid,
        values: &[(String, Value)],
        is: &dyn Fn(Uid) -> bool,
    ) -> Result<(), MethodStatus> {
        let get_uint = |n: &str| {
            values
                .iter()
                .find(|(k, _)| k == n)
                .map(|(_, v)| v.as_uint())
        };
        // C_PIN rows: the owner comes from the explicit authority ↔ C_PIN table
        // ([Ent] Admin SP / Locking SP C_PIN tables), and only that authority may change its
        // PIN (C_PIN_SID `…0B 00 00 00 01` belongs to SID `…09 00 00 00 06`).
        if obj.0[..4] == uid::C_PIN_TABLE.0[..4] {
            let owner = uid::authority_of_c_pin(obj)
                .filter(|o| self.authority_ref(*o).is_some_and(|a| a.sp == sp.as_u64()))
                .ok_or(MethodStatus::InvalidParameter)?;
            if !is(owner) {
                return Err(MethodStatus::NotAuthorized);
            }
            let pin = values
                .iter()
                .find(|(k, _)| k == "PIN")
                .and_then(|(_, v)| v.as_bytes())
                .ok_or(MethodStatus::InvalidParameter)?
                .to_vec();
            let a = self
                .authority(owner)
                .ok_or(MethodStatus::InvalidParameter)?;
            a.pin = pin;
            return Ok(());
        }
        // Authority rows: EraseMaster enables BandMasters.
        if let Some(n) = uid::bandmaster_number(obj) {
            if !is(uid::AUTH_ERASEMASTER) {
                return Err(MethodStatus::NotAuthorized);
            }
            let en = get_uint("Enabled")
                .flatten()
                .ok_or(MethodStatus::InvalidParameter)?;
            let a = self
                .authority(uid::auth_bandmaster(n))
                .ok_or(MethodStatus::InvalidParameter)?;
            a.enabled = en != 0;
            return Ok(());
        }
        let n = uid::band_number(obj)
            .filter(|n| *n <= MAX_RANGES && sp == uid::LOCKING_SP_ENTERPRISE)
            .ok_or(MethodStatus::InvalidParameter)?;
        if !is(uid::auth_bandmaster(n)) {
            return Err(MethodStatus::NotAuthorized);
        }
        // Every column is independent: a Set carries any subset of them.
        let flag = |n: &str| -> Result<Option<bool>, MethodStatus> {
            match get_uint(n) {
                None => Ok(None),
                Some(Some(v)) if v <= 1 => Ok(Some(v != 0)),
                Some(_) => Err(MethodStatus::InvalidParameter),
            }
        };
        let rle = flag("ReadLockEnabled")?;
        let wle = flag("WriteLockEnabled")?;
        let rl = flag("ReadLocked")?;
        let wl = flag("WriteLocked")?;
        let start = get_uint("RangeStart");
        let len = get_uint("RangeLength");
        if n == 0 && (start.is_some() || len.is_some()) {
            // Band 0 always covers the whole drive.
            return Err(MethodStatus::InvalidParameter);
        }
        let lor = values
            .iter()
            .find(|(k, _)| k == "LockOnReset")
            .map(|(_, v)| {
                v.as_list()
                    .map(|l| l.iter().any(|x| x.as_uint() == Some(0)))
                    .ok_or(MethodStatus::InvalidParameter)
            })
            .transpose()?;
        let b = &mut self.bands[usize::from(n)];
        if let Some(Some(s)) = start {
            b.range_start = s;
        }
        if let Some(Some(l)) = len {
            b.range_length = l;
        }
        if let Some(v) = rle {
            b.read_lock_enabled = v;
        }
        if let Some(v) = wle {
            b.write_lock_enabled = v;
        }
        if let Some(v) = rl {
            b.read_locked = v;
        }
        if let Some(v) = wl {
            b.write_locked = v;
        }
        if let Some(l) = lor {
            b.lock_on_reset = l;
        }
        Ok(())
    }
}

enum Outcome {
    Reply(Vec<Value>, u8),
    DropSession,
}

fn auth(u: Uid, sp: Uid, enabled: bool, pin: &[u8], try_limit: u32) -> Authority {
    Authority {
        uid: u.as_u64(),
        sp: sp.as_u64(),
        enabled,
        pin: pin.to_vec(),
        try_limit,
        tries: 0,
        persistence: false,
    }
}

fn named(n: &str, v: Value) -> Value {
    Value::Named(Box::new(Value::Bytes(n.as_bytes().to_vec())), Box::new(v))
}

fn is_comid(c: u16) -> bool {
    (BASE_COMID..BASE_COMID + NUM_COMIDS).contains(&c)
}

fn column_name(v: &Value, opal_cols: &[(&'static str, u64, Value)]) -> Option<String> {
    match v {
        Value::Bytes(b) => Some(String::from_utf8_lossy(b).into_owned()),
        Value::Uint(n) => opal_cols
            .iter()
            .find(|(_, num, _)| num == n)
            .map(|(name, _, _)| name.to_string()),
        _ => None,
    }
}

/// Applies a Get Cellblock (`startColumn`/`endColumn` by name, or 3/4 by number).
fn filter_columns(
    cols: Vec<(&'static str, u64, Value)>,
    cellblock: Option<&Value>,
) -> Vec<(&'static str, u64, Value)> {
    let items = cellblock.and_then(Value::as_list).unwrap_or(&[]);
    let start = method::named(items, "startColumn", Some(3)).and_then(|v| column_name(v, &cols));
    let end = method::named(items, "endColumn", Some(4)).and_then(|v| column_name(v, &cols));
    let pos = |n: &Option<String>| n.as_ref().and_then(|n| cols.iter().position(|c| c.0 == n));
    let s = pos(&start).unwrap_or(0);
    let e = pos(&end).unwrap_or(cols.len().saturating_sub(1));
    cols.into_iter()
        .enumerate()
        .filter(|(i, _)| *i >= s && *i <= e)
        .map(|(_, c)| c)
        .collect()
}

/// Extracts (column name, value) pairs from Enterprise (`[where] [[named…]]`) or Opal
/// (`Values(1) = [named…]`) Set arguments; Opal column numbers are mapped to names.
fn set_values(args: &[Value]) -> Vec<(String, Value)> {
    let mut out = vec![];
    let mut push = |n: &Value, v: &Value| {
        let name = match n {
            Value::Bytes(b) => String::from_utf8_lossy(b).into_owned(),
            Value::Uint(k) => match k {
                3 => "PIN/RangeStart".into(),
                4 => "RangeLength".into(),
                5 => "ReadLockEnabled".into(),
                6 => "WriteLockEnabled".into(),
                7 => "ReadLocked".into(),
                8 => "WriteLocked".into(),
                9 => "LockOnReset".into(),
                o => format!("column{o}"),
            },
            _ => return,
        };
        if name == "PIN/RangeStart" {
            // Opal column 3 is PIN on C_PIN and RangeStart on Locking rows.
            out.push(("PIN".into(), v.clone()));
            out.push(("RangeStart".into(), v.clone()));
        } else {
            out.push((name, v.clone()));
        }
    };
    fn walk(v: &Value, push: &mut dyn FnMut(&Value, &Value), depth: usize) {
        match v {
            Value::Named(n, val) if n.as_uint() == Some(1) && val.as_list().is_some() => {
                walk(val, push, depth + 1)
            }
            Value::Named(n, val) => push(n, val),
            Value::List(l) if depth < 4 => {
                for x in l {
                    walk(x, push, depth + 1);
                }
            }
            _ => {}
        }
    }
    for a in args {
        walk(a, &mut push, 0);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn psid_is_stable_and_label_like() {
        let p = psid_for("X1");
        assert_eq!(p, psid_for("X1"));
        assert_eq!(p.len(), 32);
        assert!(p.iter().all(|c| c.is_ascii_alphanumeric()));
    }

    #[test]
    fn min_transfer_when_buffer_too_small() {
        let mut t = Tper::new("S", false, false);
        let call = crate::tcg::session::properties_call(crate::tcg::session::Dialect::Enterprise);
        t.if_send(1, BASE_COMID, &packet::build(BASE_COMID, 0, 0, 0, &call))
            .unwrap();
        let r = t.if_recv(1, BASE_COMID, 64).unwrap();
        match packet::parse(&r).unwrap() {
            Received::Pending { min_transfer, .. } => assert!(min_transfer > 64),
            other => panic!("{other:?}"),
        }
        let r = t.if_recv(1, BASE_COMID, 2048).unwrap();
        assert!(matches!(packet::parse(&r).unwrap(), Received::Data { .. }));
        // Nothing left: an empty ComPacket with no outstanding data.
        let r = t.if_recv(1, BASE_COMID, 2048).unwrap();
        assert_eq!(
            packet::parse(&r).unwrap(),
            Received::Pending {
                outstanding: 0,
                min_transfer: 0
            }
        );
        // Wrong ComID in the CDB.
        assert_eq!(t.if_recv(1, 0x1234, 512), Err(Reject::Cdb(2)));
    }

    #[test]
    fn lock_geometry() {
        let mut t = Tper::new("S", true, false);
        t.bands[1].range_start = 100;
        t.bands[1].range_length = 50;
        t.bands[1].read_lock_enabled = true;
        t.bands[1].read_locked = true;
        assert!(t.locked_for(120, 1, false));
        assert!(!t.locked_for(120, 1, true));
        assert!(t.locked_for(90, 20, false));
        assert!(!t.locked_for(0, 100, false));
        assert_eq!(t.band_of(149), 1);
        assert_eq!(t.band_of(150), 0);
        t.bands[0].write_lock_enabled = true;
        t.bands[0].write_locked = true;
        assert!(t.locked_for(0, 1, true));
        assert!(!t.locked_for(100, 50, true));
    }
}
