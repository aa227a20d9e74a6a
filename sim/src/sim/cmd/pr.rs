//! SPC-5 5.14 persistent reservations: PERSISTENT RESERVE IN (6.16: READ KEYS, READ
//! RESERVATION, REPORT CAPABILITIES, READ FULL STATUS) and PERSISTENT RESERVE OUT (6.17:
//! REGISTER, RESERVE, RELEASE, CLEAR, PREEMPT, PREEMPT AND ABORT, REGISTER AND IGNORE EXISTING
//! KEY), and the conflict check every other command passes (5.14.1 table "SPC commands that are
//! allowed in the presence of various reservations", SBC-4 4.17 for the block commands).
//!
//! The I_T nexus is the relative target port: each of the dual-port drive's two ports is one
//! initiator path (through TCMU each port is its own tcm_loop target with its own initiator).
//! Registrations and the reservation live in the drive state; with APTPL set they survive a
//! power cycle (they stay in the state file), without it a restart clears them.

use super::{alloc, CmdCtx};
use crate::sim::sense::{key, SimSense};
use serde::{Deserialize, Serialize};

/// RESERVATION CONFLICT status (SAM-5 5.3.1).
pub(crate) const RESERVATION_CONFLICT: u8 = 0x18;

/// Reservation types (SPC-5 table "Persistent reservation type codes").
pub(crate) mod rtype {
    /// Write Exclusive.
    pub(crate) const WE: u8 = 1;
    /// Exclusive Access (no handler branches on it: the table is SPC-5's, complete).
    #[allow(dead_code)]
    pub(crate) const EA: u8 = 3;
    /// Write Exclusive – Registrants Only.
    pub(crate) const WE_RO: u8 = 5;
    /// Exclusive Access – Registrants Only.
    pub(crate) const EA_RO: u8 = 6;
    /// Write Exclusive – All Registrants.
    pub(crate) const WE_AR: u8 = 7;
    /// Exclusive Access – All Registrants.
    pub(crate) const EA_AR: u8 = 8;
}

/// The persistent reservation state of the logical unit.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrState {
    /// PRgeneration: bumped by every REGISTER, REGISTER AND IGNORE, CLEAR, PREEMPT.
    pub generation: u32,
    /// Registered I_T nexuses (relative target port) and their keys.
    pub registrations: Vec<(u16, u64)>,
    /// The reservation: holder nexus (for all-registrants types, the one that reserved) and
    /// type.
    pub reservation: Option<(u16, u8)>,
    /// Activate Persist Through Power Loss (set by the last REGISTER).
    pub aptpl: bool,
}

impl PrState {
    /// The key registered for `port`.
    pub(crate) fn key_of(&self, port: u16) -> Option<u64> {
        self.registrations.iter().find(|r| r.0 == port).map(|r| r.1)
    }

    fn all_registrants(t: u8) -> bool {
        matches!(t, rtype::WE_AR | rtype::EA_AR)
    }

    /// Whether `port` holds the reservation (every registrant does for all-registrants types).
    pub(crate) fn is_holder(&self, port: u16) -> bool {
        match self.reservation {
            Some((_, t)) if Self::all_registrants(t) => self.key_of(port).is_some(),
            Some((h, _)) => h == port,
            None => false,
        }
    }

    fn unregister(&mut self, port: u16) {
        self.registrations.retain(|r| r.0 != port);
        match self.reservation {
            Some((_, t)) if Self::all_registrants(t) && self.registrations.is_empty() => {
                self.reservation = None
            }
            Some((_, t)) if Self::all_registrants(t) => {}
            Some((h, _)) if h == port => self.reservation = None,
            _ => {}
        }
    }

    /// What a power cycle leaves: everything with APTPL, nothing without.
    pub(crate) fn after_power_cycle(&self) -> PrState {
        if self.aptpl {
            self.clone()
        } else {
            PrState {
                generation: self.generation,
                ..PrState::default()
            }
        }
    }
}

fn conflict(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    ctx.status = RESERVATION_CONFLICT;
    Ok(vec![])
}

/// PERSISTENT RESERVE IN (5Eh): service action in byte 1, allocation length bytes 7-8.
pub(crate) fn pr_in(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let sa = ctx.cdb[1] & 0x1F;
    let alloc_len = ctx.be(7, 2);
    let pr = &ctx.sh.d.pr;
    let mut v = pr.generation.to_be_bytes().to_vec();
    match sa {
        0x00 => {
            let keys: Vec<u8> = pr
                .registrations
                .iter()
                .flat_map(|r| r.1.to_be_bytes())
                .collect();
            v.extend_from_slice(&(keys.len() as u32).to_be_bytes());
            v.extend_from_slice(&keys);
        }
        0x01 => match pr.reservation {
            Some((holder, t)) => {
                v.extend_from_slice(&16u32.to_be_bytes());
                // All-registrants types report key 0 (SPC-5 6.16.3.3).
                let k = if PrState::all_registrants(t) {
                    0
                } else {
                    pr.key_of(holder).unwrap_or(0)
                };
                v.extend_from_slice(&k.to_be_bytes());
                v.extend_from_slice(&[0, 0, 0, 0, 0, t & 0x0F, 0, 0]);
            }
            None => v.extend_from_slice(&0u32.to_be_bytes()),
        },
        0x02 => {
            // REPORT CAPABILITIES: length 8; CRH=0, SIP_C=0, ATP_C=0, PTPL_C=1; TMV=1,
            // ALLOW COMMANDS=0, PTPL_A; type mask: WR_EX_AR EX_AC_RO WR_EX_RO EX_AC WR_EX, EX_AC_AR.
            let v = vec![
                0x00,
                0x08,
                0x01,
                0x80 | u8::from(pr.aptpl),
                0xEA,
                0x01,
                0x00,
                0x00,
            ];
            return Ok(alloc(v, alloc_len));
        }
        0x03 => {
            let mut body = vec![];
            for &(port, k) in &pr.registrations {
                let mut d = k.to_be_bytes().to_vec();
                d.extend_from_slice(&[0; 4]);
                let holder = pr.is_holder(port);
                d.push(u8::from(holder));
                d.push(if holder {
                    pr.reservation.map_or(0, |r| r.1 & 0x0F)
                } else {
                    0
                });
                d.extend_from_slice(&[0; 4]);
                d.extend_from_slice(&port.to_be_bytes());
                let tid = transport_id(port);
                d.extend_from_slice(&(tid.len() as u32).to_be_bytes());
                d.extend_from_slice(&tid);
                body.extend_from_slice(&d);
            }
            v.extend_from_slice(&(body.len() as u32).to_be_bytes());
            v.extend_from_slice(&body);
        }
        _ => return Err(SimSense::invalid_cdb(1, Some(4))),
    }
    Ok(alloc(v, alloc_len))
}

/// The SAS TransportID (SPC-5 7.6.4.6, protocol 6) of the initiator on `port`'s path: the
/// model does not learn initiator addresses, so each path has a fixed one.
pub(crate) fn transport_id(port: u16) -> Vec<u8> {
    let mut t = vec![0x06, 0, 0, 0];
    t.extend_from_slice(&initiator_sas_address(port).to_be_bytes());
    t.resize(24, 0);
    t
}

/// The initiator SAS address the model reports for the path through `port`.
pub(crate) fn initiator_sas_address(port: u16) -> u64 {
    0x5000_c500_dead_0000 | u64::from(port)
}

/// PERSISTENT RESERVE OUT (5Fh): service action byte 1, scope/type byte 2, parameter list
/// length bytes 5-8 (24: the basic parameter list).
pub(crate) fn pr_out(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let sa = ctx.cdb[1] & 0x1F;
    let scope = ctx.cdb[2] >> 4;
    let t = ctx.cdb[2] & 0x0F;
    let len = ctx.be(5, 4);
    if len != 24 {
        return Err(SimSense::param_list_length(5));
    }
    let p = ctx.param_list(24);
    let res_key = super::be(&p, 0, 8);
    let sa_key = super::be(&p, 8, 8);
    let aptpl = p[20] & 0x01 != 0;
    if p[20] & 0x0C != 0 {
        // SPEC_I_PT / ALL_TG_PT: not supported (REPORT CAPABILITIES says so).
        return Err(SimSense::invalid_param(
            20,
            Some(if p[20] & 0x08 != 0 { 3 } else { 2 }),
        ));
    }
    let needs_type = matches!(sa, 0x01 | 0x02 | 0x04 | 0x05);
    if needs_type {
        if scope != 0 {
            return Err(SimSense::invalid_cdb(2, Some(4)));
        }
        if !matches!(t, 1 | 3 | 5..=8) {
            return Err(SimSense::invalid_cdb(2, Some(0)));
        }
    }
    let port = ctx.port.clamp(1, 2);
    let other = 3 - port;
    let registered = ctx.sh.d.pr.key_of(port);
    match sa {
        // REGISTER / REGISTER AND IGNORE EXISTING KEY.
        0x00 | 0x06 => {
            match registered {
                None if sa == 0x00 && res_key != 0 => return conflict(ctx),
                Some(k) if sa == 0x00 && k != res_key => return conflict(ctx),
                _ => {}
            }
            let pr = &mut ctx.sh.d.pr;
            if sa_key == 0 {
                if registered.is_some() {
                    let held_by_type = pr.reservation.map(|r| r.1);
                    pr.unregister(port);
                    if pr.reservation.is_none()
                        && matches!(held_by_type, Some(rtype::WE_RO | rtype::EA_RO))
                    {
                        ctx.sh.d.add_ua(other, 0x2A, 0x04);
                    }
                    let pr = &mut ctx.sh.d.pr;
                    pr.generation = pr.generation.wrapping_add(1);
                    pr.aptpl = aptpl;
                }
                return Ok(vec![]);
            }
            match pr.registrations.iter_mut().find(|r| r.0 == port) {
                Some(r) => r.1 = sa_key,
                None => pr.registrations.push((port, sa_key)),
            }
            pr.generation = pr.generation.wrapping_add(1);
            pr.aptpl = aptpl;
            Ok(vec![])
        }
        // RESERVE.
        0x01 => {
            if registered != Some(res_key) {
                return conflict(ctx);
            }
            let pr = &mut ctx.sh.d.pr;
            match pr.reservation {
                None => {
                    pr.reservation = Some((port, t));
                    Ok(vec![])
                }
                Some((_, held)) if pr.is_holder(port) && held == t => Ok(vec![]),
                Some(_) => conflict(ctx),
            }
        }
        // RELEASE.
        0x02 => {
            if registered != Some(res_key) {
                return conflict(ctx);
            }
            let pr = &mut ctx.sh.d.pr;
            match pr.reservation {
                Some((_, held)) if pr.is_holder(port) => {
                    if held != t {
                        return Err(SimSense::new(key::ILLEGAL_REQUEST, 0x26, 0x04));
                    }
                    pr.reservation = None;
                    // Registrants that are not the holder learn of it for these types.
                    if matches!(
                        held,
                        rtype::WE_RO | rtype::EA_RO | rtype::WE_AR | rtype::EA_AR
                    ) && pr.key_of(other).is_some()
                    {
                        ctx.sh.d.add_ua(other, 0x2A, 0x04);
                    }
                    Ok(vec![])
                }
                _ => Ok(vec![]),
            }
        }
        // CLEAR.
        0x03 => {
            if registered != Some(res_key) {
                return conflict(ctx);
            }
            let pr = &mut ctx.sh.d.pr;
            let others = pr.key_of(other).is_some();
            pr.registrations.clear();
            pr.reservation = None;
            pr.generation = pr.generation.wrapping_add(1);
            if others {
                ctx.sh.d.add_ua(other, 0x2A, 0x03);
            }
            Ok(vec![])
        }
        // PREEMPT / PREEMPT AND ABORT (no task set to abort: commands run one at a time).
        0x04 | 0x05 => {
            if registered != Some(res_key) {
                return conflict(ctx);
            }
            let pr = &mut ctx.sh.d.pr;
            let holder_key = match pr.reservation {
                Some((_, rt)) if PrState::all_registrants(rt) => Some(0),
                Some((h, _)) => pr.key_of(h),
                None => None,
            };
            if sa_key == 0 && holder_key != Some(0) {
                return Err(SimSense::invalid_param(8, None));
            }
            let victims: Vec<u16> = pr
                .registrations
                .iter()
                .filter(|r| r.0 != port && (r.1 == sa_key || sa_key == 0))
                .map(|r| r.0)
                .collect();
            if victims.is_empty() && holder_key != Some(sa_key) {
                return conflict(ctx);
            }
            pr.registrations.retain(|r| !victims.contains(&r.0));
            if holder_key == Some(sa_key) {
                pr.reservation = Some((port, t));
            }
            pr.generation = pr.generation.wrapping_add(1);
            for v in victims {
                ctx.sh.d.add_ua(v, 0x2A, 0x03);
            }
            Ok(vec![])
        }
        // REGISTER AND MOVE (07h) and anything else.
        _ => Err(SimSense::invalid_cdb(1, Some(4))),
    }
}

/// Whether a command from `port` conflicts with the reservation (SPC-5 5.14.1, SBC-4 4.17):
/// the holder (and, for registrants-only / all-registrants types, every registrant) may do
/// anything; others may read under the Write Exclusive types, and only the always-allowed
/// commands run under the Exclusive Access types.
pub(crate) fn conflicts(ctx: &CmdCtx<'_>) -> bool {
    let pr = &ctx.sh.d.pr;
    let Some((_, t)) = pr.reservation else {
        return false;
    };
    let port = ctx.port.clamp(1, 2);
    if pr.is_holder(port) {
        return false;
    }
    let registrants_ok = matches!(t, rtype::WE_RO | rtype::EA_RO | rtype::WE_AR | rtype::EA_AR);
    if registrants_ok && pr.key_of(port).is_some() {
        return false;
    }
    let op = ctx.cdb[0];
    let sa = ctx.cdb.get(1).map_or(0, |b| b & 0x1F);
    let always = matches!(
        op,
        0x00 | 0x03 | 0x12 | 0xA0 | 0x25 | 0x4D | 0x1A | 0x5A | 0x5E | 0x5F | 0x1C
    ) || (op == 0x9E && sa == 0x10)
        || (op == 0xA3 && matches!(sa, 0x0A | 0x0C | 0x0D));
    if always {
        return false;
    }
    // Reads (and VERIFY, which reads the medium) pass under the Write Exclusive types.
    let read = matches!(op, 0x08 | 0x28 | 0x88 | 0xA8 | 0x2F | 0x8F | 0x34)
        || (op == 0x7F && ctx.cdb.get(9).is_some_and(|&s| s == 0x09 || s == 0x0A));
    let write_exclusive = matches!(t, rtype::WE | rtype::WE_RO | rtype::WE_AR);
    !(read && write_exclusive)
}
