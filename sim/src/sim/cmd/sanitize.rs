//! SBC-4 5.30 SANITIZE (protocols.md §D): OVERWRITE, BLOCK ERASE, CRYPTOGRAPHIC ERASE, EXIT
//! FAILURE MODE; AUSE; IMMED with 04/1B progress; survives power cycles (the operation stays
//! in the drive state and simply continues); injected failure → 31/03 failure mode.

use super::CmdCtx;
use crate::sim::drive::{LongOp, SanitizeJob};
use crate::sim::profile::Profile;
use crate::sim::sense::SimSense;

const DID_ERROR: u16 = 0x07;

/// RSOC timeouts for OVERWRITE: one pass of the nominal capacity; recommended allows 31.
pub(crate) fn timeouts_overwrite(p: &Profile) -> (u32, u32) {
    let pass = p.overwrite_pass_secs().min(u64::from(u32::MAX / 32)) as u32;
    (pass, pass.saturating_mul(31).saturating_add(60))
}

/// RSOC timeouts for BLOCK ERASE.
pub(crate) fn timeouts_block_erase(p: &Profile) -> (u32, u32) {
    (p.block_erase_secs, p.block_erase_secs.saturating_mul(3))
}

/// RSOC timeouts for CRYPTOGRAPHIC ERASE.
pub(crate) fn timeouts_crypto_erase(p: &Profile) -> (u32, u32) {
    (
        p.crypto_erase_secs,
        p.crypto_erase_secs.saturating_mul(3).max(30),
    )
}

/// SANITIZE: byte 1 IMMED 7, ZNR 6, AUSE 5, SERVICE ACTION 4-0; bytes 7-8 PARAMETER LIST
/// LENGTH (OVERWRITE: 5..=LB+4; others 0).
pub fn sanitize(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let p = ctx.sh.profile;
    let immed = ctx.cdb[1] & 0x80 != 0;
    let ause = ctx.cdb[1] & 0x20 != 0;
    let sa = ctx.cdb[1] & 0x1F;
    let len = ctx.be(7, 2) as usize;
    let lb = ctx.sh.d.lb_len as usize;
    let len_ok = match sa {
        0x01 => len > 4 && len < lb + 5,
        _ => len == 0,
    };
    if !len_ok {
        return Err(SimSense::invalid_cdb(7, None));
    }
    // A locked SED refuses to be sanitized (sim/src/sim/tcg).
    ctx.sh.d.sed.check_destructive()?;
    // Behind the SATL the SANITIZE becomes an ATA SANITIZE DEVICE command (SAT-4 8.x): it
    // aborts in the Sanitize Frozen state, and its status shows in SANITIZE STATUS EXT.
    if p.sata && sa != 0x1F {
        if ctx.sh.d.ata.sanitize_frozen {
            return Err(super::ata::abort());
        }
        ctx.sh.d.ata.sanitize_issued = true;
    }
    if sa == 0x1F {
        // EXIT FAILURE MODE: only after a sanitize that failed with AUSE=1 (T10-REF 2015).
        return match ctx.sh.d.sanitize_failed {
            Some(false) => Err(SimSense::invalid_cdb(1, Some(4))),
            Some(true) => {
                ctx.sh.d.sanitize_failed = None;
                Ok(Vec::new())
            }
            None => Ok(Vec::new()),
        };
    }
    if ause && ctx.sh.d.sanitize_failed == Some(false) {
        // Restricted completion: a new sanitize must not ask for unrestricted exit.
        return Err(SimSense::invalid_cdb(1, Some(5)));
    }
    let mut pattern = Vec::new();
    let mut count = 1u64;
    if sa == 0x01 {
        if ctx.short_data_out(len) {
            ctx.host_status = DID_ERROR;
            return Ok(Vec::new());
        }
        let pl = ctx.param_list(len);
        // Byte 0: INVERT 7, TEST 6-5, OVERWRITE COUNT 4-0; 1 reserved; 2-3 pattern length.
        if pl[0] & 0x60 != 0 {
            return Err(SimSense::invalid_param(0, Some(6)));
        }
        count = u64::from(pl[0] & 0x1F);
        if count == 0 {
            return Err(SimSense::invalid_param(0, Some(4)));
        }
        if pl[1] != 0 {
            return Err(SimSense::invalid_param(1, None));
        }
        let plen = super::be(&pl, 2, 2) as usize;
        if plen == 0 || plen > lb || plen + 4 != len {
            return Err(SimSense::invalid_param(2, None));
        }
        pattern = pl[4..4 + plen].to_vec();
        // With INVERT the passes alternate pattern / inverse: an even count ends inverted.
        if pl[0] & 0x80 != 0 && count % 2 == 0 {
            pattern.iter_mut().for_each(|b| *b = !*b);
        }
    }
    let secs = match sa {
        0x01 => p.overwrite_pass_secs().saturating_mul(count),
        0x02 => u64::from(p.block_erase_secs),
        _ => u64::from(p.crypto_erase_secs),
    };
    let d = &mut ctx.sh.d;
    let fail = std::mem::take(&mut d.faults.fail_sanitize);
    let noop = std::mem::take(&mut d.faults.noop_sanitize);
    let dur_ns = secs.saturating_mul(1_000_000_000).max(1);
    d.op = Some(LongOp::Sanitize {
        start_ns: d.now_ns,
        dur_ns,
        job: SanitizeJob {
            sa,
            ause,
            pattern,
            passes: count as u32,
            fail,
            noop,
        },
    });
    if !immed {
        ctx.wait_ns = dur_ns;
    }
    Ok(Vec::new())
}
