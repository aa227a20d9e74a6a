//! SAT-4 12.2 ATA PASS-THROUGH (12) A1h / (16) 85h as a SATL answers it for a SATA profile:
//! the CDB's task file goes to the modelled ATA device (IDENTIFY DEVICE, SMART, READ LOG
//! (DMA) EXT, SANITIZE DEVICE, the SECURITY commands, CHECK POWER MODE, SET FEATURES, FLUSH
//! CACHE); an ATA error comes back as ABORTED COMMAND with the ATA Status Return descriptor,
//! and CK_COND=1 returns the registers with RECOVERED ERROR 00/1D after the data, as libata
//! does (SAT-4 12.2.2.5-7).

use super::CmdCtx;
use crate::ata::{cmd, error_bits, sanitize_fn, status, AtaRegisters};
use crate::scsi::ata_pass_through::{encode_descriptor, parse_cdb, AtaCommand, Protocol};
use crate::sim::ata::{data, password_of, MAX_ATTEMPTS};
use crate::sim::drive::{LongOp, RunningSelfTest, SanitizeJob};
use crate::sim::sense::{key, SimSense};

/// STATUS of a good completion: DRDY, no error.
const OK: u8 = status::DRDY;

/// RSOC timeouts (not reported: the SATL has no RSOC).
pub fn timeouts(_: &crate::sim::profile::Profile) -> (u32, u32) {
    (30, 7200)
}

/// The ATA error answer: ABORTED COMMAND 00/00 with the registers (libata's translation of
/// ABRT; UNC would be MEDIUM ERROR 11/04).
fn ata_error(error: u8, lba: u64) -> SimSense {
    let r = AtaRegisters {
        extend: true,
        error,
        count: 0,
        lba,
        device: 0x40,
        status: status::DRDY | status::ERR,
    };
    let (k, asc, ascq) = if error & error_bits::UNC != 0 {
        (key::MEDIUM_ERROR, 0x11, 0x04)
    } else {
        (key::ABORTED_COMMAND, 0x00, 0x00)
    };
    SimSense {
        ata: Some(encode_descriptor(&r)),
        ..SimSense::new(k, asc, ascq)
    }
}

/// ABRT (also the SATL's answer when a translated SCSI command's ATA command aborts).
pub fn abort() -> SimSense {
    ata_error(error_bits::ABRT, 0)
}

/// Output registers of a successful command.
struct Out {
    count: u16,
    lba: u64,
}

impl Out {
    fn none() -> Out {
        Out { count: 0, lba: 0 }
    }
}

/// The ATA PASS-THROUGH handler.
pub fn ata_pass_through(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let c = parse_cdb(ctx.cdb).map_err(|_| SimSense::invalid_cdb(0, None))?;
    // SAT-4 12.2.2.2: PROTOCOL values a SATL does not do → INVALID FIELD IN CDB (byte 1).
    if matches!(c.protocol, Protocol::Unknown(_)) {
        return Err(SimSense::invalid_cdb(1, Some(4)));
    }
    let data_in = c.t_dir_in && c.transfer_len() > 0;
    let data_out = !c.t_dir_in && c.transfer_len() > 0;
    if data_out && ctx.short_data_out(c.transfer_len()) {
        ctx.host_status = 0x07; // DID_ERROR: the initiator sent less than T_LENGTH says
        return Ok(Vec::new());
    }
    if let Some(LongOp::Format { .. }) = ctx.sh.d.op {
        return Err(ctx
            .sh
            .d
            .op
            .as_ref()
            .map(|o| o.not_ready(ctx.sh.d.now_ns))
            .unwrap_or_else(abort));
    }
    let p = ctx.sh.profile;
    let t = ctx.sh.d.temperature(p);
    ctx.sh.d.ata.note_temperature(t);
    let prepared = std::mem::take(&mut ctx.sh.d.ata.erase_prepared);
    let sanitizing = matches!(ctx.sh.d.op, Some(LongOp::Sanitize { .. }));
    // ACS-3 7.30.1: while a sanitize runs only a few commands are processed.
    let allowed_while_sanitizing = matches!(
        (c.tf.command, c.tf.features as u8),
        (cmd::IDENTIFY_DEVICE, _)
            | (cmd::READ_LOG_EXT | 0x47, _)
            | (cmd::SANITIZE, 0x00)
            | (cmd::SMART, 0xDA)
            | (0xE5, _)
    );
    if sanitizing && !allowed_while_sanitizing {
        return Err(abort());
    }
    let (bytes, out) = match c.tf.command {
        cmd::IDENTIFY_DEVICE => (data::identify(p, &ctx.sh.d), Out::none()),
        cmd::SMART => smart(ctx, &c)?,
        cmd::READ_LOG_EXT | 0x47 => (read_log(ctx, &c)?, Out::none()),
        cmd::SANITIZE => (Vec::new(), sanitize(ctx, &c)?),
        cmd::SECURITY_SET_PASSWORD..=cmd::SECURITY_DISABLE_PASSWORD => {
            (Vec::new(), security(ctx, &c, prepared)?)
        }
        // CHECK POWER MODE: COUNT FFh = active or idle.
        0xE5 => (
            Vec::new(),
            Out {
                count: 0xFF,
                lba: 0,
            },
        ),
        // SET FEATURES, FLUSH CACHE (EXT), IDLE IMMEDIATE: accepted, nothing to model.
        0xEF | 0xE7 | 0xEA | 0xE1 => (Vec::new(), Out::none()),
        _ => return Err(abort()),
    };
    if data_in && bytes.len() < c.transfer_len() {
        // The command moves fewer blocks than the CDB said: the device aborts it.
        if bytes.is_empty() {
            return Err(abort());
        }
    }
    if c.ck_cond {
        let r = AtaRegisters {
            extend: c.extend,
            error: 0,
            count: out.count,
            lba: out.lba,
            device: 0x40,
            status: OK,
        };
        ctx.check_with_data = Some(SimSense {
            ata: Some(encode_descriptor(&r)),
            ..SimSense::new(key::RECOVERED_ERROR, 0x00, 0x1D)
        });
    }
    let mut bytes = bytes;
    if data_in {
        bytes.truncate(c.transfer_len());
    } else {
        bytes.clear();
    }
    Ok(bytes)
}

/// SMART (B0h): LBA 23:8 must hold the C24Fh signature.
fn smart(ctx: &mut CmdCtx<'_>, c: &AtaCommand) -> Result<(Vec<u8>, Out), SimSense> {
    if (c.tf.lba >> 8) & 0xFFFF != 0xC24F {
        return Err(abort());
    }
    let p = ctx.sh.profile;
    let d = &mut ctx.sh.d;
    match c.tf.features as u8 {
        0xD0 => Ok((data::smart(p, d).0, Out::none())),
        0xD1 => Ok((data::smart(p, d).1, Out::none())),
        0xD5 => {
            let b = match c.tf.lba as u8 {
                0x00 => data::smart_directory(),
                0x06 => data::smart_self_test(d),
                _ => return Err(abort()),
            };
            Ok((b, Out::none()))
        }
        // EXECUTE OFF-LINE IMMEDIATE: 1 short, 2 extended (off-line mode); 127 abort.
        0xD4 => {
            let code = match c.tf.lba as u8 {
                1 => 1,
                2 => 2,
                127 => {
                    d.self_test = None;
                    return Ok((Vec::new(), Out::none()));
                }
                _ => return Err(abort()),
            };
            let secs = if code == 1 {
                crate::sim::drive::SHORT_SELF_TEST_SECS
            } else {
                crate::sim::drive::EXTENDED_SELF_TEST_SECS
            };
            d.self_test = Some(RunningSelfTest {
                code,
                start_ns: d.now_ns,
                dur_ns: secs * 1_000_000_000,
            });
            Ok((Vec::new(), Out::none()))
        }
        // RETURN STATUS: LBA 23:8 = 2CF4h when a threshold is exceeded.
        0xDA => {
            let failing = d.endurance_used(p) >= 90;
            let lba = if failing { 0x2C_F400 } else { 0xC2_4F00 };
            Ok((Vec::new(), Out { count: 0, lba }))
        }
        // ENABLE/DISABLE OPERATIONS, ATTRIBUTE AUTOSAVE, SAVE ATTRIBUTE VALUES.
        0xD8 | 0xD9 | 0xD2 | 0xD3 => Ok((Vec::new(), Out::none())),
        _ => Err(abort()),
    }
}

/// READ LOG EXT / READ LOG DMA EXT: LBA 7:0 log address, 47:32|15:8 page, COUNT pages.
fn read_log(ctx: &mut CmdCtx<'_>, c: &AtaCommand) -> Result<Vec<u8>, SimSense> {
    let addr = c.tf.lba as u8;
    let first = ((c.tf.lba >> 8) & 0xFF) as u16 | (((c.tf.lba >> 32) & 0xFF) as u16) << 8;
    let pages = if c.tf.count == 0 {
        65536
    } else {
        u32::from(c.tf.count)
    };
    let p = ctx.sh.profile;
    let d = &ctx.sh.d;
    let mut out = Vec::new();
    for pg in u32::from(first)..u32::from(first) + pages {
        let b = match (addr, pg) {
            (0x00, 0) => Some(data::directory()),
            (0x04, pg) if pg < 256 => data::device_statistics(p, d, pg as u8),
            (0x07, 0) => Some(data::ext_self_test(d)),
            (0x10, 0) => Some(data::ncq_error()),
            (0x24, 0) => Some(data::internal_status(p)),
            _ => None,
        };
        match b {
            Some(b) => out.extend_from_slice(&b),
            // ACS-4 9.1: a page beyond the log, or a log that is not supported: ABRT.
            None => return Err(abort()),
        }
    }
    Ok(out)
}

/// SANITIZE DEVICE (B4h).
fn sanitize(ctx: &mut CmdCtx<'_>, c: &AtaCommand) -> Result<Out, SimSense> {
    let p = ctx.sh.profile;
    let d = &mut ctx.sh.d;
    let f = c.tf.features;
    if f == sanitize_fn::STATUS {
        let in_progress = matches!(d.op, Some(LongOp::Sanitize { .. }));
        let progress =
            d.op.as_ref()
                .filter(|_| in_progress)
                .map_or(0xFFFF, |o| o.progress(d.now_ns));
        if !in_progress && d.sanitize_failed.is_some() {
            // COUNT bit 0 CLEAR SANITIZE OPERATION FAILED: allowed after a failure with
            // FAILURE MODE (AUSE) = 1.
            if c.tf.count & 1 != 0 && d.sanitize_failed == Some(true) {
                d.sanitize_failed = None;
            } else {
                // SANITIZE DEVICE ERROR REASON 01h: sanitize command unsuccessful.
                return Err(ata_error(error_bits::ABRT, 0x01));
            }
        }
        let mut count = 0u16;
        if in_progress {
            count |= 0x4000;
        } else if d.ata.sanitize_issued && d.sanitize_failed.is_none() {
            count |= 0x8000;
        }
        if d.ata.sanitize_frozen {
            count |= 0x2000;
        }
        return Ok(Out {
            count,
            lba: u64::from(progress),
        });
    }
    let (sa, ok) = match f {
        sanitize_fn::CRYPTO_SCRAMBLE => (
            0x03,
            p.sanitize.crypto_erase && c.tf.lba & 0xFFFF_FFFF == sanitize_fn::CRYPTO_KEY,
        ),
        sanitize_fn::BLOCK_ERASE => (
            0x02,
            p.sanitize.block_erase && c.tf.lba & 0xFFFF_FFFF == sanitize_fn::BLOCK_ERASE_KEY,
        ),
        sanitize_fn::OVERWRITE => (
            0x01,
            p.sanitize.overwrite && c.tf.lba & 0xFFFF_0000_0000 == sanitize_fn::OVERWRITE_KEY,
        ),
        sanitize_fn::FREEZE_LOCK => {
            if !p.sanitize.any() {
                return Err(abort());
            }
            d.ata.sanitize_frozen = true;
            return Ok(Out::none());
        }
        _ => return Err(abort()),
    };
    // Unsupported function, wrong key, frozen, or a failed sanitize that needs a new one
    // with the same restrictions: ABRT.
    if !ok || d.ata.sanitize_frozen {
        return Err(abort());
    }
    let ause = c.tf.count & 0x10 != 0;
    if ause && d.sanitize_failed == Some(false) {
        return Err(abort());
    }
    let lb = d.lb_len as usize;
    let (pattern, passes) = if sa == 0x01 {
        let pat = (c.tf.lba as u32).to_be_bytes();
        let mut v: Vec<u8> = pat.iter().copied().cycle().take(lb).collect();
        let n = c.tf.count & 0x0F;
        let n = if n == 0 { 16 } else { u32::from(n) };
        // INVERT (COUNT bit 7): alternate passes invert; an even count ends inverted.
        if c.tf.count & 0x80 != 0 && n % 2 == 0 {
            v.iter_mut().for_each(|b| *b = !*b);
        }
        (v, n)
    } else {
        (Vec::new(), 1)
    };
    let secs = match sa {
        0x01 => p.overwrite_pass_secs().saturating_mul(u64::from(passes)),
        0x02 => u64::from(p.block_erase_secs),
        _ => u64::from(p.crypto_erase_secs),
    };
    let fail = std::mem::take(&mut d.faults.fail_sanitize);
    let noop = std::mem::take(&mut d.faults.noop_sanitize);
    d.op = Some(LongOp::Sanitize {
        start_ns: d.now_ns,
        dur_ns: secs.saturating_mul(1_000_000_000).max(1),
        job: SanitizeJob {
            sa,
            ause,
            pattern,
            passes,
            fail,
            noop,
        },
    });
    d.ata.sanitize_issued = true;
    Ok(Out::none())
}

/// The Security feature set (ACS-4 7.40-7.45) with the 512-byte data block of
/// SET PASSWORD / UNLOCK / ERASE UNIT / DISABLE PASSWORD.
fn security(ctx: &mut CmdCtx<'_>, c: &AtaCommand, prepared: bool) -> Result<Out, SimSense> {
    let p = ctx.sh.profile;
    let needs_block = matches!(
        c.tf.command,
        cmd::SECURITY_SET_PASSWORD
            | cmd::SECURITY_UNLOCK
            | cmd::SECURITY_ERASE_UNIT
            | cmd::SECURITY_DISABLE_PASSWORD
    );
    let block = if needs_block {
        if c.t_dir_in || c.transfer_len() != 512 || ctx.out.len() < 512 {
            return Err(abort());
        }
        ctx.out[..512].to_vec()
    } else {
        Vec::new()
    };
    let lb = ctx.sh.d.lb_len;
    let erase_secs = (p.overwrite_pass_secs(), u64::from(p.block_erase_secs));
    let s = &mut ctx.sh.d.ata;
    let master = block.first().is_some_and(|b| b & 1 != 0);
    let pw = password_of(&block);
    let matches = |s: &crate::sim::ata::AtaState| {
        if master {
            s.master_password.as_deref().unwrap_or(&[0u8; 32]) == pw.as_slice()
        } else {
            s.user_password.as_deref() == Some(pw.as_slice())
        }
    };
    match c.tf.command {
        cmd::SECURITY_FREEZE_LOCK => {
            if s.locked {
                return Err(abort());
            }
            s.frozen = true;
        }
        cmd::SECURITY_SET_PASSWORD => {
            if s.frozen || s.locked {
                return Err(abort());
            }
            if master {
                s.master_password = Some(pw);
            } else {
                s.user_password = Some(pw);
                s.master_maximum = block.get(1).is_some_and(|b| b & 1 != 0);
            }
        }
        cmd::SECURITY_UNLOCK => {
            if s.frozen || s.attempts >= MAX_ATTEMPTS {
                return Err(abort());
            }
            if !matches(s) {
                s.attempts += 1;
                return Err(abort());
            }
            s.locked = false;
        }
        cmd::SECURITY_ERASE_PREPARE => {
            if s.frozen {
                return Err(abort());
            }
            s.erase_prepared = true;
        }
        cmd::SECURITY_ERASE_UNIT => {
            if s.frozen || !prepared || s.attempts >= MAX_ATTEMPTS {
                return Err(abort());
            }
            if !matches(s) {
                s.attempts += 1;
                return Err(abort());
            }
            let enhanced = block.first().is_some_and(|b| b & 2 != 0);
            // Normal erase writes zeroes to all user data; enhanced writes the vendor
            // pattern (here: block erase, reads then return zeroes too, LBPRZ).
            let (sa, pattern, secs) = if enhanced {
                (0x02, Vec::new(), erase_secs.1)
            } else {
                (0x01, vec![0u8; lb as usize], erase_secs.0)
            };
            s.user_password = None;
            s.locked = false;
            s.attempts = 0;
            let d = &mut ctx.sh.d;
            let dur = secs.saturating_mul(1_000_000_000).max(1);
            d.op = Some(LongOp::Sanitize {
                start_ns: d.now_ns,
                dur_ns: dur,
                job: SanitizeJob {
                    sa,
                    ause: true,
                    pattern,
                    passes: 1,
                    fail: false,
                    noop: std::mem::take(&mut d.faults.noop_sanitize),
                },
            });
            // SECURITY ERASE UNIT completes when the erase is done.
            ctx.wait_ns = dur;
        }
        cmd::SECURITY_DISABLE_PASSWORD => {
            if s.frozen || s.locked || !s.enabled() {
                return Err(abort());
            }
            if !matches(s) {
                s.attempts += 1;
                return Err(abort());
            }
            s.user_password = None;
        }
        _ => return Err(abort()),
    }
    Ok(Out::none())
}
