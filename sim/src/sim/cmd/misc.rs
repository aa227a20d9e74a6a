//! TEST UNIT READY, REQUEST SENSE, REPORT LUNS, REPORT SUPPORTED OPERATION CODES and the
//! SECURITY PROTOCOL IN/OUT entry points.

use super::{alloc, CmdCtx, COMMANDS};
use crate::sim::drive::PowerState;
use crate::sim::sense::{key, SimSense};
use crate::sim::tcg;

/// SPC-5 6.47 TEST UNIT READY: the common checks (UA, NOT READY, 31/xx) are all it does.
pub(crate) fn test_unit_ready(_ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    Ok(Vec::new())
}

/// SPC-5 6.39 REQUEST SENSE: reports (and clears) a pending unit attention or deferred error,
/// else the progress of FORMAT UNIT / SANITIZE (NOT READY 04/04 / 04/1B with SKS progress),
/// else that of a background self-test (NO SENSE 04/09 with SKS progress),
/// else the medium state (31/03, 31/00), else the low power condition (NO SENSE 5E/xx, by
/// command or by a Power Condition timer), else NO SENSE. Status is GOOD in every case.
/// Byte 1 bit 0 DESC selects descriptor format; byte 4 is the allocation length.
pub(crate) fn request_sense(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
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
    } else if let Some(ascq) = match d.power_condition() {
        // SPC-6 Table "ASC and ASCQ assignments" 5E/xx: the low power condition the
        // device is in, entered by command or by a Power Condition mode page timer.
        (PowerState::Idle(0), false) => Some(0x03),
        (PowerState::Idle(1), false) => Some(0x06),
        (PowerState::Idle(_), false) => Some(0x08),
        (PowerState::Standby(0), false) => Some(0x04),
        (PowerState::Standby(_), false) => Some(0x0A),
        (PowerState::Idle(0), true) => Some(0x01),
        (PowerState::Idle(1), true) => Some(0x05),
        (PowerState::Idle(_), true) => Some(0x07),
        (PowerState::Standby(0), true) => Some(0x02),
        (PowerState::Standby(_), true) => Some(0x09),
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
pub(crate) fn report_luns(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
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
pub(crate) fn report_supported_operation_codes(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
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
pub(crate) fn security_protocol_in(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
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
pub(crate) fn security_protocol_out(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
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
/// ACTIVE, IDLE and STANDBY take the control of the power condition from the Power Condition
/// mode page's timers; LU_CONTROL gives it back ([`crate::sim::drive::Drive::power_condition`]).
pub(crate) fn start_stop_unit(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
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
    match pc {
        // ACTIVE, IDLE, STANDBY: the command takes the control of the power condition from
        // the timers (SBC-5 5.27).
        1..=3 => d.power_timers_off = true,
        // LU_CONTROL: the timers that are enabled start again and control it.
        7 => d.power_timers_off = false,
        _ => {}
    }
    if new == PowerState::Active {
        d.power_timers_since_ns = d.now_ns;
    }
    d.power = new;
    Ok(Vec::new())
}

#[cfg(test)]
mod power_timer_tests {
    //! The Power Condition mode page's timers on the drive's clock (SPC-6 5.12, SBC-5 4.19 and
    //! 5.27): REQUEST SENSE reports 5E/xx "... activated by timer" once a timer ran out with no
    //! medium access, a medium access returns to active and restarts the timers, START STOP
    //! UNIT ACTIVE/IDLE/STANDBY takes the control from the timers and LU_CONTROL gives it back.
    use crate::sim::{open, SimDevice};
    use crate::transport::{DataBuf, Transport};
    use std::time::Duration;

    const T: Duration = Duration::from_secs(5);

    fn drive() -> SimDevice {
        open("px02smf080?clock=virtual&capacity_blocks=8192").unwrap()
    }

    /// REQUEST SENSE (fixed format): (key, ASC, ASCQ).
    fn sense(d: &mut SimDevice) -> (u8, u8, u8) {
        let mut b = [0u8; 18];
        let c = d
            .execute(&[0x03, 0, 0, 0, 18, 0], DataBuf::In(&mut b), T)
            .unwrap();
        assert_eq!(c.status, 0);
        (b[2] & 0x0F, b[12], b[13])
    }

    fn good(d: &mut SimDevice, cdb: &[u8], data: DataBuf<'_>) {
        let c = d.execute(cdb, data, T).unwrap();
        assert_eq!(c.status, 0, "{cdb:02x?}: {:02x?}", c.sense);
    }

    /// READ(10) of one block: a command that needs the medium.
    fn read(d: &mut SimDevice) {
        let mut b = [0u8; 512];
        good(d, &[0x28, 0, 0, 0, 0, 8, 0, 0, 1, 0], DataBuf::In(&mut b));
    }

    /// MODE SELECT(6) of page 1Ah: the enable bits of byte 3 (IDLE_C 3, IDLE_B 2, IDLE_A 1,
    /// STANDBY_Z 0), STANDBY_Y (byte 2 bit 0) and the five timers (100 ms units) in the page's
    /// order: idle_a, standby_z, idle_b, idle_c, standby_y.
    fn timers(d: &mut SimDevice, standby_y: bool, bits: u8, t: [u32; 5]) {
        let mut p = vec![0u8, 0, 0, 0, 0x1A, 0x26, u8::from(standby_y), bits];
        for v in t {
            p.extend_from_slice(&v.to_be_bytes());
        }
        p.resize(4 + 40, 0);
        p[4 + 39] = 0x54;
        good(d, &[0x15, 0x10, 0, 0, p.len() as u8, 0], DataBuf::Out(&p));
    }

    fn ssu(d: &mut SimDevice, pc: u8, modifier: u8) {
        good(d, &[0x1B, 0, 0, modifier, pc << 4, 0], DataBuf::None);
    }

    fn wait(d: &SimDevice, ms: u64) {
        d.clock().advance(Duration::from_millis(ms));
    }

    #[test]
    fn a_timer_that_runs_out_enters_its_condition_and_a_medium_access_leaves_it() {
        let mut d = drive();
        // The factory page: IDLE_A enabled, 2 s.
        read(&mut d);
        wait(&d, 1_900);
        assert_eq!(sense(&mut d), (0, 0, 0), "before the idle_a timer runs out");
        wait(&d, 200);
        assert_eq!(sense(&mut d), (0, 0x5E, 0x01), "idle_a by timer");
        // REQUEST SENSE needs no medium: still idle. A read: active, the timer starts again.
        assert_eq!(sense(&mut d), (0, 0x5E, 0x01));
        read(&mut d);
        assert_eq!(sense(&mut d), (0, 0, 0));
        wait(&d, 2_100);
        assert_eq!(sense(&mut d), (0, 0x5E, 0x01));
    }

    #[test]
    fn the_lowest_power_condition_whose_timer_ran_out_wins() {
        let mut d = drive();
        // idle_a 1 s, standby_z 4 s, idle_b 2 s, idle_c 3 s, standby_y 5 s.
        timers(&mut d, true, 0x0F, [10, 40, 20, 30, 50]);
        read(&mut d);
        let mut at = 0;
        for (ms, ascq, what) in [
            (900, 0x00, "active"),
            (1_100, 0x01, "idle_a"),
            (2_100, 0x05, "idle_b"),
            (3_100, 0x07, "idle_c"),
            (4_100, 0x02, "standby_z"),
            (5_100, 0x09, "standby_y"),
        ] {
            wait(&d, ms - at);
            at = ms;
            let want = (0, if ascq == 0 { 0 } else { 0x5E }, ascq);
            assert_eq!(sense(&mut d), want, "{what} at {ms} ms");
        }
        // A disabled timer does nothing: only standby_z (4 s) left enabled.
        timers(&mut d, false, 0x01, [10, 40, 20, 30, 50]);
        read(&mut d);
        wait(&d, 3_900);
        assert_eq!(sense(&mut d), (0, 0, 0));
        wait(&d, 200);
        assert_eq!(sense(&mut d), (0, 0x5E, 0x02));
    }

    #[test]
    fn start_stop_unit_takes_the_control_and_lu_control_gives_it_back() {
        let mut d = drive();
        read(&mut d);
        // IDLE (idle_b) by command: 5E/06, and no timer changes it.
        ssu(&mut d, 2, 1);
        wait(&d, 10_000);
        assert_eq!(sense(&mut d), (0, 0x5E, 0x06));
        // A medium access: active; the timers stay off (no idle_a after 2 s).
        read(&mut d);
        wait(&d, 10_000);
        assert_eq!(sense(&mut d), (0, 0, 0));
        // ACTIVE keeps them off too.
        ssu(&mut d, 1, 0);
        wait(&d, 10_000);
        assert_eq!(sense(&mut d), (0, 0, 0));
        // LU_CONTROL: the timers start again from now.
        ssu(&mut d, 7, 0);
        wait(&d, 1_900);
        assert_eq!(sense(&mut d), (0, 0, 0));
        wait(&d, 200);
        assert_eq!(sense(&mut d), (0, 0x5E, 0x01));
        // A stopped unit is stopped, whatever the timers.
        ssu(&mut d, 0, 0);
        wait(&d, 10_000);
        assert_eq!(sense(&mut d), (0x02, 0x04, 0x02));
        good(&mut d, &[0x1B, 0, 0, 0, 0x01, 0], DataBuf::None);
        assert_eq!(
            sense(&mut d),
            (0, 0, 0),
            "started: active, the timer restarted"
        );
    }

    #[test]
    fn no_timer_runs_out_during_a_self_test() {
        let mut d = drive();
        read(&mut d);
        // Background extended self-test (2 minutes): 04/09 with progress, never idle.
        good(&mut d, &[0x1D, 0x40, 0, 0, 0, 0], DataBuf::None);
        wait(&d, 60_000);
        assert_eq!(sense(&mut d).1, 0x04);
    }
}
