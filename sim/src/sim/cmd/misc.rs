//! TEST UNIT READY, REQUEST SENSE, REPORT LUNS, REPORT SUPPORTED OPERATION CODES and the
//! SECURITY PROTOCOL IN/OUT entry points.

use super::{alloc, CmdCtx, COMMANDS};
use crate::sim::drive::PowerState;
use crate::sim::sense::{key, SimSense};
use crate::sim::tcg;

/// SPC-5 6.47 TEST UNIT READY: the common checks (UA, NOT READY, 31/xx) are all it does.
pub fn test_unit_ready(_ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    Ok(Vec::new())
}

/// SPC-5 6.39 REQUEST SENSE: reports (and clears) a pending unit attention or deferred error,
/// else the progress of FORMAT UNIT / SANITIZE (NOT READY 04/04 / 04/1B with SKS progress),
/// else that of a background self-test (NO SENSE 04/09 with SKS progress),
/// else the medium state (31/03, 31/00), else NO SENSE. Status is GOOD in every case.
/// Byte 1 bit 0 DESC selects descriptor format; byte 4 is the allocation length.
pub fn request_sense(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let desc = ctx.cdb[1] & 0x01 != 0;
    let alloc_len = ctx.be(4, 1);
    let d = &mut ctx.sh.d;
    let idx = usize::from(ctx.port.clamp(1, 2) - 1);
    let s = if !d.ua[idx].is_empty() {
        let (asc, ascq) = d.ua[idx].remove(0);
        SimSense::new(key::UNIT_ATTENTION, asc, ascq)
    } else if let Some(s) = d.deferred.take() {
        s
    } else if let Some(op) = &d.op {
        op.not_ready(d.now_ns)
    } else if d.power == PowerState::Stopped {
        // SBC-5 4.19: stopped; START STOP UNIT with START=1 is needed.
        SimSense::new(key::NOT_READY, 0x04, 0x02)
    } else if let Some(t) = d.self_test {
        // SPC-6 5.17.4.3: a background self-test in progress is reported with NO SENSE,
        // 04/09 (self-test in progress) and the progress indication (65536ths done).
        let done = d.now_ns.saturating_sub(t.start_ns);
        let p = (u128::from(done) * 65_536 / u128::from(t.dur_ns.max(1))).min(65_535) as u16;
        SimSense {
            key: key::NO_SENSE,
            ..SimSense::progress(0x04, 0x09, p)
        }
    } else if d.sanitize_failed.is_some() {
        SimSense::new(key::MEDIUM_ERROR, 0x31, 0x03)
    } else if d.format_corrupt {
        SimSense::new(key::MEDIUM_ERROR, 0x31, 0x00)
    } else if let Some((asc, ascq)) = d
        .ie_condition(ctx.sh.profile)
        .filter(|_| !d.mode.dexcpt && d.mode.mrie == 6)
    {
        // Informational exceptions, MRIE 6 "only report on request" (SPC-5 7.5.13).
        SimSense::new(key::NO_SENSE, asc, ascq)
    } else if let Some(ascq) = match d.power {
        // SPC-6 Table "ASC and ASCQ assignments" 5E/xx: the low power condition the
        // device is in, entered by command.
        PowerState::Idle(0) => Some(0x03),
        PowerState::Idle(1) => Some(0x06),
        PowerState::Idle(_) => Some(0x08),
        PowerState::Standby(0) => Some(0x04),
        PowerState::Standby(_) => Some(0x0A),
        _ => None,
    } {
        SimSense::new(key::NO_SENSE, 0x5E, ascq)
    } else {
        SimSense::new(key::NO_SENSE, 0, 0)
    };
    Ok(alloc(s.render(desc), alloc_len))
}

/// SPC-5 6.33 REPORT LUNS: one LUN (0). SELECT REPORT 0x00/0x01/0x02 accepted; allocation
/// length below 16 is 24/00.
pub fn report_luns(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let select = ctx.cdb[2];
    if select > 0x02 {
        return Err(SimSense::invalid_cdb(2, None));
    }
    let alloc_len = ctx.be(6, 4);
    if alloc_len < 16 {
        return Err(SimSense::invalid_cdb(6, None));
    }
    let mut r = vec![0u8; 16];
    r[3] = 8; // LUN list length: one 8-byte LUN (LUN 0)
    Ok(alloc(r, alloc_len))
}

/// SPC-5 6.35 REPORT SUPPORTED OPERATION CODES (MAINTENANCE IN, SA 0x0C). Byte 2 bit 7
/// RCTD, bits 2-0 REPORTING OPTIONS; byte 3 requested opcode; 4-5 requested SA;
/// 6-9 allocation length (protocols.md §D.4).
pub fn report_supported_operation_codes(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let p = ctx.sh.profile;
    let rctd = ctx.cdb[2] & 0x80 != 0;
    let option = ctx.cdb[2] & 0x07;
    let req_op = ctx.cdb[3];
    let req_sa = ctx.be(4, 2);
    let alloc_len = ctx.be(6, 4);
    let timeouts = |def: &super::CmdDef| -> Vec<u8> {
        let (nominal, recommended) = (def.timeouts)(p);
        let mut t = vec![0u8; 12];
        t[1] = 0x0A; // descriptor length
        t[4..8].copy_from_slice(&nominal.to_be_bytes());
        t[8..12].copy_from_slice(&recommended.to_be_bytes());
        t
    };
    let supported: Vec<&super::CmdDef> = COMMANDS.iter().filter(|d| (d.supported)(p)).collect();
    let r = match option {
        0 => {
            let mut r = vec![0u8; 4];
            for d in &supported {
                let mut e = vec![0u8; 8];
                e[0] = d.opcode;
                if let Some(sa) = d.sa {
                    e[3] = sa;
                    e[5] |= 0x01; // SERVACTV
                }
                if rctd {
                    e[5] |= 0x02; // CTDP
                }
                e[6..8].copy_from_slice(&(d.len as u16).to_be_bytes());
                r.extend_from_slice(&e);
                if rctd {
                    r.extend_from_slice(&timeouts(d));
                }
            }
            let n = (r.len() - 4) as u32;
            r[0..4].copy_from_slice(&n.to_be_bytes());
            r
        }
        1..=3 => {
            let has_sa = COMMANDS
                .iter()
                .any(|d| d.opcode == req_op && d.sa.is_some());
            if option == 1 && has_sa {
                // The opcode has service actions: option 1 cannot name one (24/00 on byte 2).
                return Err(SimSense::invalid_cdb(2, Some(2)));
            }
            if option == 2 && !has_sa {
                return Err(SimSense::invalid_cdb(2, Some(2)));
            }
            let found = supported.iter().find(|d| {
                d.opcode == req_op && (d.sa.is_none() || u64::from(d.sa.unwrap_or(0)) == req_sa)
            });
            let mut r = vec![0u8; 4];
            match found {
                Some(d) => {
                    r[1] = 0x03 | if rctd { 0x80 } else { 0 }; // SUPPORT = 011b
                    r[2..4].copy_from_slice(&(d.len as u16).to_be_bytes());
                    r.extend_from_slice(&(d.usage)(p));
                    if rctd {
                        r.extend_from_slice(&timeouts(d));
                    }
                }
                None => r[1] = 0x01, // SUPPORT = 001b: not supported
            }
            r
        }
        _ => return Err(SimSense::invalid_cdb(2, Some(2))),
    };
    Ok(alloc(r, alloc_len))
}

/// Allocation/transfer length of SECURITY PROTOCOL IN/OUT: bytes 6-9, in 512-byte units when
/// INC_512 (byte 4 bit 7) is set (SPC-5 6.40/6.41).
fn security_len(ctx: &CmdCtx<'_>) -> u64 {
    let n = ctx.be(6, 4);
    if ctx.cdb[4] & 0x80 != 0 {
        n.saturating_mul(512)
    } else {
        n
    }
}

/// SPC-5 6.40 SECURITY PROTOCOL IN → sim/src/sim/tcg.
pub fn security_protocol_in(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let protocol = ctx.cdb[1];
    let sps = ctx.be(2, 2) as u16;
    let len = security_len(ctx);
    let r = tcg::security_in(
        &mut ctx.sh.d.sed,
        protocol,
        sps,
        usize::try_from(len).unwrap_or(usize::MAX),
    )?;
    Ok(alloc(r, len))
}

/// SPC-5 6.41 SECURITY PROTOCOL OUT → sim/src/sim/tcg.
pub fn security_protocol_out(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let protocol = ctx.cdb[1];
    let sps = ctx.be(2, 2) as u16;
    let len = usize::try_from(security_len(ctx)).unwrap_or(usize::MAX);
    if len > 1 << 20 {
        return Err(SimSense::invalid_cdb(6, None));
    }
    if ctx.short_data_out(len) {
        ctx.host_status = 0x07;
        return Ok(Vec::new());
    }
    let data = ctx.param_list(len);
    tcg::security_out(&mut ctx.sh.d.sed, protocol, sps, &data)?;
    Ok(Vec::new())
}

/// SBC-5 5.27 START STOP UNIT: byte 1 bit 0 IMMED; byte 3 bits 3-0 POWER CONDITION
/// MODIFIER; byte 4 bits 7-4 POWER CONDITION (0 START_VALID, 1 ACTIVE, 2 IDLE, 3 STANDBY,
/// 7 LU_CONTROL, Ah FORCE_IDLE_0, Bh FORCE_STANDBY_0), bit 2 NO_FLUSH, bit 1 LOEJ, bit 0 START.
pub fn start_stop_unit(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let pc = ctx.cdb[4] >> 4;
    let modifier = ctx.cdb[3] & 0x0F;
    let start = ctx.cdb[4] & 0x01 != 0;
    if ctx.cdb[4] & 0x02 != 0 {
        // LOEJ: no removable medium to load or eject.
        return Err(SimSense::invalid_cdb(4, Some(1)));
    }
    let new = match (pc, modifier) {
        (0, 0) if start => PowerState::Active,
        (0, 0) => PowerState::Stopped,
        (1, 0) | (7, 0) => PowerState::Active,
        (2, m @ 0..=2) => PowerState::Idle(m),
        (3, m @ 0..=1) => PowerState::Standby(m),
        (0x0A, 0) => PowerState::Idle(0),
        (0x0B, 0) => PowerState::Standby(0),
        (0 | 1 | 2 | 3 | 7 | 0x0A | 0x0B, _) => return Err(SimSense::invalid_cdb(3, Some(3))),
        _ => return Err(SimSense::invalid_cdb(4, Some(7))),
    };
    let d = &mut ctx.sh.d;
    if new == PowerState::Stopped && d.power != PowerState::Stopped {
        d.stats.start_stop_cycles += 1;
    }
    d.power = new;
    Ok(Vec::new())
}
