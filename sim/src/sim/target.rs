//! Command processing common to every CDB (SAM-5 5.x, SPC-5 5.x): BUSY/timeout faults, unit
//! attentions, deferred errors, opcode and CDB validation against the command's CDB usage map
//! (the same map REPORT SUPPORTED OPERATION CODES returns), NOT READY during FORMAT UNIT and
//! SANITIZE, the medium-state errors (31/00, 31/03), then the command itself; service time
//! and blocking long operations on the drive's clock.

use crate::sim::cmd::{self, CmdCtx, CmdDef};
use crate::sim::sense::{key, SimSense};
use crate::sim::{ClockMode, Shared};
use crate::transport::{status, Completion, DataBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

fn lock(m: &Mutex<Shared>) -> MutexGuard<'_, Shared> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// DID_TIME_OUT (K-status).
const DID_TIME_OUT: u16 = 0x03;
/// DID_NO_CONNECT (K-status).
const DID_NO_CONNECT: u16 = 0x01;

/// Runs one command against the drive behind `shared` as seen through `port`.
pub(crate) fn execute(
    shared: &Arc<Mutex<Shared>>,
    port: u16,
    cdb: &[u8],
    data: DataBuf<'_>,
    timeout: Duration,
) -> Completion {
    execute_at(shared, port, cdb, data, timeout, None)
}

/// [`execute`]; with `queued_at` (virtual clock only) the command is submitted at that drive
/// time and the clock does not run for its service time: the caller keeps several commands
/// in flight (the benchmark engine's closed loop) and `duration` is the time until this one
/// completes given everything queued before it (the media model's queues).
pub(crate) fn execute_at(
    shared: &Arc<Mutex<Shared>>,
    port: u16,
    cdb: &[u8],
    data: DataBuf<'_>,
    timeout: Duration,
    queued_at: Option<u64>,
) -> Completion {
    let timeout_ns = timeout.as_nanos().min(u128::from(u64::MAX)) as u64;
    let mut sh = lock(shared);
    sh.sync();
    if let (Some(at), ClockMode::Virtual) = (queued_at, sh.mode) {
        sh.d.now_ns =
            sh.d.now_ns
                .max(at.min(crate::sim::state_check::MAX_CLOCK_NS));
    }
    let queued = queued_at.is_some() && sh.mode == ClockMode::Virtual;
    if sh.trace.len() >= crate::sim::TRACE_MAX {
        sh.trace.pop_front();
    }
    sh.trace.push_back(crate::sim::TracedCdb::new(cdb));

    // Injected transport faults come first: the command never reaches the device server.
    if sh.d.faults.busy > 0 {
        sh.d.faults.busy -= 1;
        return Completion {
            status: status::BUSY,
            ..Completion::default()
        };
    }
    if sh.d.faults.disconnect > 0 {
        sh.d.faults.disconnect -= 1;
        return Completion {
            host_status: DID_NO_CONNECT,
            ..Completion::default()
        };
    }
    if sh.d.faults.timeout > 0 {
        sh.d.faults.timeout -= 1;
        return timed_out(shared, sh, timeout_ns);
    }

    // Controller latency of a command without media access (the media model's figure).
    let command_ns = sh
        .profile
        .media()
        .map_or(crate::sim::medium::FALLBACK_NS, |m| m.timing.cmd_latency_ns);
    let (out, in_len, mut in_buf): (&[u8], usize, Option<&mut [u8]>) = match data {
        DataBuf::Out(b) => (b, 0, None),
        DataBuf::In(b) => (&[], b.len(), Some(b)),
        DataBuf::None => (&[], 0, None),
    };
    let mut ctx = CmdCtx {
        sh: &mut sh,
        port,
        cdb,
        out,
        in_len,
        in_buf: in_buf.as_deref_mut(),
        in_place: None,
        service_ns: command_ns,
        wait_ns: 0,
        host_status: 0,
        status: 0,
        check_with_data: None,
    };
    let result = dispatch(&mut ctx);
    let scsi_status = ctx.status;
    let service_ns = ctx.service_ns;
    let wait_ns = ctx.wait_ns;
    let host_status = ctx.host_status;
    let check_with_data = ctx.check_with_data.take();
    let in_place = ctx.in_place;

    let mut reported_ns = service_ns;
    match sh.mode {
        ClockMode::Virtual if queued => {}
        ClockMode::Virtual => {
            sh.d.now_ns = crate::sim::clock_add(sh.d.now_ns, service_ns);
            // Nothing waits on a virtual clock: a deferring caller answers at once.
            if sh.defer_service {
                reported_ns = 0;
            }
        }
        // Deferred service: the caller waits (in wall time) before it answers; the clock
        // follows wall time, so the next command queues behind this one in the media model.
        ClockMode::Real if sh.defer_service => {
            reported_ns = (service_ns as f64 / sh.speed) as u64;
        }
        // Real time: the command takes its service time (without holding the drive).
        ClockMode::Real if service_ns > 0 => sh = wait(shared, sh, service_ns),
        ClockMode::Real => {}
    }
    sh.d.note_activity(service_ns);
    let mut completion = Completion {
        duration: Duration::from_nanos(reported_ns),
        ..Completion::default()
    };
    if host_status != 0 {
        completion.host_status = host_status;
        return completion;
    }
    sh.save_if_due();
    let dsense = sh.d.mode.d_sense;
    let result = match result {
        Ok(bytes) if wait_ns > 0 => {
            // IMMED=0 FORMAT UNIT / SANITIZE: status only when the operation ends. The host's
            // timeout is wall time; on a real clock running `speed` times wall time it covers
            // `speed` times as much drive time.
            let budget_ns = match sh.mode {
                ClockMode::Real => (timeout_ns as f64 * sh.speed) as u64,
                ClockMode::Virtual => timeout_ns,
            };
            if wait_ns > budget_ns {
                return timed_out(shared, sh, timeout_ns);
            }
            sh = wait(shared, sh, wait_ns);
            completion.duration += Duration::from_nanos(wait_ns);
            let r = sh.d.tick();
            let sh2 = &mut *sh;
            sh2.medium.apply(sh2.profile, &mut sh2.d);
            match r {
                Some(s) => Err(s),
                None => Ok(bytes),
            }
        }
        r => r,
    };
    match result {
        Ok(bytes) => {
            if let Some(buf) = in_buf.as_mut() {
                let n = match in_place {
                    Some(n) => n.min(buf.len()),
                    None => {
                        let n = bytes.len().min(buf.len());
                        buf[..n].copy_from_slice(&bytes[..n]);
                        n
                    }
                };
                completion.resid = buf.len() - n;
            }
            if scsi_status != 0 {
                completion.status = scsi_status;
            }
            if let Some(s) = check_with_data {
                completion.status = status::CHECK_CONDITION;
                completion.sense = s.render(dsense);
                completion.driver_status = 0x08; // DRIVER_SENSE
            }
        }
        Err(s) => {
            if s.key != key::UNIT_ATTENTION && s.key != key::NOT_READY {
                sh.d.stats.non_medium_errors += u64::from(s.key == key::ILLEGAL_REQUEST);
            }
            completion.status = status::CHECK_CONDITION;
            completion.sense = s.render(dsense);
            completion.driver_status = 0x08; // DRIVER_SENSE
            if let Some(buf) = in_buf {
                completion.resid = buf.len();
            }
        }
    }
    completion
}

/// Lets `ns` of drive time pass for a blocking command: virtual clocks jump, real clocks wait
/// (without holding the drive lock, so other ports keep working).
fn wait<'a>(
    shared: &'a Arc<Mutex<Shared>>,
    mut sh: MutexGuard<'a, Shared>,
    ns: u64,
) -> MutexGuard<'a, Shared> {
    match sh.mode {
        ClockMode::Virtual => {
            sh.d.now_ns = crate::sim::clock_add(sh.d.now_ns, ns);
            sh
        }
        ClockMode::Real => {
            let wall = (ns as f64 / sh.speed) as u64;
            drop(sh);
            std::thread::sleep(Duration::from_nanos(wall));
            let mut sh = lock(shared);
            sh.sync_clock();
            sh
        }
    }
}

/// The host timed the command out: the midlayer aborts it and error handling resets the
/// logical unit (a format in progress is lost; a sanitize resumes).
fn timed_out(
    shared: &Arc<Mutex<Shared>>,
    sh: MutexGuard<'_, Shared>,
    timeout_ns: u64,
) -> Completion {
    // The host gives up after `timeout_ns` of wall time: that much drive time on a virtual
    // clock, `speed` times as much on a real one.
    let drive_ns = match sh.mode {
        ClockMode::Real => (timeout_ns as f64 * sh.speed) as u64,
        ClockMode::Virtual => timeout_ns,
    };
    let mut sh = wait(shared, sh, drive_ns);
    sh.d.lu_reset();
    sh.complete_due();
    Completion {
        host_status: DID_TIME_OUT,
        duration: Duration::from_nanos(timeout_ns),
        ..Completion::default()
    }
}

/// Validation common to all commands, then the command's handler.
fn dispatch(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let op = ctx.cdb[0];
    let found = lookup(ctx);
    // Unit attention (SAM-5 5.14): reported once per I_T nexus to any command except
    // INQUIRY, REPORT LUNS and REQUEST SENSE; then a pending deferred error (SPC-5 4.4.1.2).
    let ua = match found {
        Lookup::Found(d) => d.flags.ua,
        _ => true,
    };
    if ua {
        let idx = usize::from(ctx.port.clamp(1, 2) - 1);
        if !ctx.sh.d.ua[idx].is_empty() {
            let (asc, ascq) = ctx.sh.d.ua[idx].remove(0);
            return Err(SimSense::new(key::UNIT_ATTENTION, asc, ascq));
        }
        if let Some(s) = ctx.sh.d.deferred.take() {
            return Err(s);
        }
    }
    let def = match found {
        Lookup::Found(d) => d,
        Lookup::NoOpcode => return Err(SimSense::invalid_opcode()),
        Lookup::BadServiceAction if op == cmd::VARIABLE_LENGTH => {
            return Err(SimSense::invalid_cdb(8, None))
        }
        Lookup::BadServiceAction => return Err(SimSense::invalid_cdb(1, Some(4))),
    };
    check_cdb(ctx, def)?;
    // Persistent reservation held through the other port (SPC-5 5.14.1).
    if cmd::pr::conflicts(ctx) {
        ctx.status = cmd::pr::RESERVATION_CONFLICT;
        return Ok(vec![]);
    }
    // FORMAT UNIT / SANITIZE in progress (SBC-4 4.34, 4.11): only INQUIRY, REPORT LUNS and
    // REQUEST SENSE are processed.
    if def.flags.not_ready {
        if let Some(op) = &ctx.sh.d.op {
            return Err(op.not_ready(ctx.sh.d.now_ns));
        }
    }
    if !def.flags.keeps_pending && op != cmd::FORMAT_UNIT {
        // A MODE SELECT block descriptor only lives until the next FORMAT UNIT.
        ctx.sh.d.pending = None;
    }
    if def.flags.medium {
        medium_state(ctx)?;
        // SBC-5 4.19: a stopped unit needs START STOP UNIT (NOT READY 04/02); an idle or
        // standby one goes back to active for a command that needs the medium.
        // The power condition timers start again.
        if ctx.sh.d.power == crate::sim::drive::PowerState::Stopped {
            return Err(SimSense::new(key::NOT_READY, 0x04, 0x02));
        }
        ctx.sh.d.medium_access();
    }
    (def.handler)(ctx)
}

/// 31/03 in sanitize failure mode, 31/00 with a corrupt format (MEDIUM ERROR; protocols.md
/// §C.7, §D.5).
pub(crate) fn medium_state(ctx: &CmdCtx<'_>) -> Result<(), SimSense> {
    if ctx.sh.d.sanitize_failed.is_some() {
        return Err(SimSense::new(key::MEDIUM_ERROR, 0x31, 0x03));
    }
    if ctx.sh.d.format_corrupt {
        return Err(SimSense::new(key::MEDIUM_ERROR, 0x31, 0x00));
    }
    Ok(())
}

enum Lookup {
    Found(&'static CmdDef),
    NoOpcode,
    BadServiceAction,
}

/// Finds the command definition among those the profile supports. An unsupported service
/// action of a supported opcode is 24/00 on the SERVICE ACTION field (byte 1 bits 4-0).
fn lookup(ctx: &CmdCtx<'_>) -> Lookup {
    let p = ctx.sh.profile;
    let op = ctx.cdb[0];
    let mut with_op = cmd::COMMANDS
        .iter()
        .filter(|d| d.opcode == op && (d.supported)(p))
        .peekable();
    let Some(first) = with_op.peek() else {
        return Lookup::NoOpcode;
    };
    if first.sa.is_none() {
        return Lookup::Found(first);
    }
    // Variable-length CDBs (SPC-5 4.2.5.3, opcode 7Fh) carry a 16-bit SERVICE ACTION in
    // bytes 8-9; all others five bits in byte 1.
    let sa = if op == cmd::VARIABLE_LENGTH {
        match u8::try_from(cmd::be(ctx.cdb, 8, 2)) {
            Ok(sa) => sa,
            Err(_) => return Lookup::BadServiceAction,
        }
    } else {
        ctx.cdb.get(1).copied().unwrap_or(0) & 0x1F
    };
    match with_op.find(|d| d.sa == Some(sa)) {
        Some(d) => Lookup::Found(d),
        None => Lookup::BadServiceAction,
    }
}

/// CDB length and reserved bits against the usage map (SPC-5 6.35.3: a bit is usable iff
/// set in the CDB USAGE DATA), NACA/LINK in CONTROL.
fn check_cdb(ctx: &CmdCtx<'_>, def: &CmdDef) -> Result<(), SimSense> {
    let cdb = ctx.cdb;
    if cdb.len() < def.len {
        // The CDB is shorter than its operation code's group defines: the fields the device
        // server needs are missing, so the operation code does not describe this CDB.
        return Err(SimSense::invalid_cdb(0, None));
    }
    let usage = (def.usage)(ctx.sh.profile);
    let variable = def.opcode == cmd::VARIABLE_LENGTH;
    for (i, &u) in usage.iter().enumerate().skip(1) {
        let mut mask = u;
        if i == 1 && def.sa.is_some() && !variable {
            mask |= 0x1F;
        }
        if variable && (i == 8 || i == 9) {
            mask = 0xFF; // the service action, matched by the lookup
        }
        let bad = cdb[i] & !mask;
        if bad != 0 {
            let bit = 7 - bad.leading_zeros() as u8;
            return Err(SimSense::invalid_cdb(i as u16, Some(bit)));
        }
    }
    // CONTROL: NACA (bit 2) is not supported (standard INQUIRY NORMACA=0), LINK is obsolete.
    // A variable-length CDB has its CONTROL byte at byte 1 (SPC-5 4.2.5.3).
    let control_at = if variable { 1 } else { def.len - 1 };
    if cdb[control_at] & 0x04 != 0 {
        return Err(SimSense::invalid_cdb(control_at as u16, Some(2)));
    }
    Ok(())
}
