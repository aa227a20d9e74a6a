//! Persistent reservations as a cluster admin sees them (`sgctl reservations`) and the safety
//! gate's refusal to run a destructive job on a drive another initiator holds reserved.
//!
//! "Another initiator": the holder registered through a different target port than the one
//! this path uses (relative target port from VPD 0x83), or through all target ports while
//! not being on this path's port. Two initiators behind the *same* target port cannot be
//! told apart from the target's answers (sgctl does not know its own TransportID), so such a
//! holder counts as this path.

use crate::cmd::run_query;
use crate::error::{Error, Result};
use crate::ops::query;
use crate::scsi::persistent_reserve::{self as pr, InServiceAction, Registrant, Reservation};
use crate::scsi::vpd::device_id;
use crate::transport::{Transport, DEFAULT_TIMEOUT};
use serde::Serialize;

/// What the drive reports.
#[derive(Debug, Clone, Serialize)]
pub struct Reservations {
    /// PRgeneration.
    pub generation: u32,
    /// Registered keys (READ KEYS).
    pub keys: Vec<u64>,
    /// The reservation (READ RESERVATION).
    pub reservation: Option<Reservation>,
    /// Its type's name.
    pub reservation_type: Option<&'static str>,
    /// Registrants with port and holder flag (READ FULL STATUS; empty if not supported).
    pub registrants: Vec<Registrant>,
    /// Relative target port of the path asked through.
    pub this_port: Option<u16>,
}

impl Reservations {
    /// The holder's relative target port when it is not this path's port.
    pub fn held_by_other(&self) -> Option<&Registrant> {
        self.reservation?;
        let this = self.this_port?;
        let holders: Vec<&Registrant> = self.registrants.iter().filter(|r| r.holder).collect();
        if holders
            .iter()
            .any(|r| !r.all_target_ports && r.relative_target_port == this)
        {
            return None;
        }
        holders.into_iter().next()
    }
}

fn pr_in(t: &mut dyn Transport, sa: InServiceAction) -> Result<Vec<u8>> {
    let mut buf = vec![0u8; 8192];
    let n = run_query(
        t,
        &pr::PersistentReserveInCdb::new(sa, 8192).build(),
        &mut buf,
        DEFAULT_TIMEOUT,
    )?;
    buf.truncate(n);
    Ok(buf)
}

/// Reads keys, reservation and full status. `Ok(None)` when the device does not implement
/// PERSISTENT RESERVE IN (ILLEGAL REQUEST).
pub fn read(t: &mut dyn Transport) -> Result<Option<Reservations>> {
    let keys = match pr_in(t, InServiceAction::ReadKeys) {
        Ok(b) => b,
        Err(Error::Sense(s)) if s.key == crate::sense::SenseKey::IllegalRequest => return Ok(None),
        Err(e) => return Err(e),
    };
    let (generation, keys) = pr::parse_read_keys(&keys);
    let (_, reservation) = pr::parse_read_reservation(&pr_in(t, InServiceAction::ReadReservation)?);
    let registrants = pr_in(t, InServiceAction::ReadFullStatus)
        .map(|b| pr::parse_read_full_status(&b).1)
        .unwrap_or_default();
    let this_port = query::vpd(t, 0x83)
        .ok()
        .and_then(|b| device_id::parse(&b).ok())
        .and_then(|d| d.relative_target_port());
    Ok(Some(Reservations {
        generation,
        keys,
        reservation_type: reservation.map(|r| pr::type_name(r.rtype)),
        reservation,
        registrants,
        this_port,
    }))
}

/// The gate's check: refuses when another initiator holds a reservation, unless `allow`.
pub(crate) fn check_not_reserved_by_other(
    t: &mut dyn Transport,
    address: &str,
    allow: bool,
) -> Result<()> {
    if allow {
        return Ok(());
    }
    // A drive that cannot answer (no PR support, or in a failure mode such as sanitize
    // failure that a job must be able to get it out of) has no reservation the gate can see.
    let r = match read(t) {
        Ok(Some(r)) => r,
        Ok(None) | Err(Error::Sense(_)) => return Ok(()),
        Err(e) => return Err(e),
    };
    if let Some(h) = r.held_by_other() {
        return Err(Error::Refused(crate::error::Refusal::Reserved {
            address: address.to_string(),
            rtype: pr::type_name(h.rtype).to_string(),
            key: h.key,
            port: h.relative_target_port,
        }));
    }
    Ok(())
}
