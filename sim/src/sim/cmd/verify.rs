//! SBC-4 5.33 VERIFY(10), 5.34 VERIFY(16), 5.35 VERIFY(32): the medium is read back and,
//! with BYTCHK, compared with the Data-Out Buffer. BYTCHK 00b: medium verification only (an
//! unreadable block is MEDIUM ERROR 11/00; with VRPROTECT the stored protection information
//! is checked); 01b: VERIFICATION LENGTH blocks of data-out compared block for block; 11b:
//! one block of data-out compared with every block; 10b is reserved. A difference is
//! MISCOMPARE 1D/00 MISCOMPARE DURING VERIFY OPERATION with INFORMATION = the offset from
//! the start of the Data-Out Buffer of the first byte that differs.

use super::rw::{check_protect, decode};
use super::{pi, CmdCtx};
use crate::sim::sense::{key, SimSense};

/// Largest Data-Out Buffer a BYTCHK=01b VERIFY may transfer (the MAXIMUM TRANSFER LENGTH
/// of VPD 0xB0, as for READ and WRITE).
const MAX_TRANSFER_BYTES: u64 = 8 << 20;

/// VERIFY(10/16/32).
pub(crate) fn verify(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let x = decode(ctx)?;
    let bytchk = (ctx.cdb[usize::from(x.flags_off)] >> 1) & 0x03;
    if bytchk == 0b10 {
        return Err(SimSense::invalid_cdb(x.flags_off, Some(2)));
    }
    let d = &ctx.sh.d;
    if x.lba
        .checked_add(x.blocks)
        .is_none_or(|end| end > d.num_blocks)
    {
        return Err(SimSense::lba_out_of_range());
    }
    let wire = check_protect(ctx, &x)?;
    let need = match bytchk {
        0 => 0,
        1 => x.blocks.saturating_mul(wire),
        _ => wire.min(x.blocks.saturating_mul(wire)),
    };
    if need > MAX_TRANSFER_BYTES {
        return Err(SimSense::invalid_cdb(x.len_off, None));
    }
    d.sed.check_access(x.lba, x.blocks, false)?;
    if ctx.short_data_out(need as usize) {
        ctx.host_status = 0x07; // DID_ERROR: the data-out transfer ended early
        return Ok(Vec::new());
    }
    let sh = &mut *ctx.sh;
    let p = sh.profile;
    let d = &mut sh.d;
    let lb = d.lb_len as usize;
    let now = d.now_ns;
    let t = if x.blocks > 0 {
        sh.medium.read(p, d, x.lba, x.blocks, now)
    } else {
        0
    };
    ctx.service_ns = ctx.service_ns.max(t);
    if let Some(&bad) = d.faults.medium_errors.range(x.lba..x.lba + x.blocks).next() {
        d.verify_errors.uncorrected += 1;
        ctx.service_ns += 50_000_000; // error recovery before giving up, as READ
        return Err(SimSense::new(key::MEDIUM_ERROR, 0x11, 0x00).with_info(bad));
    }
    let checks = pi::Checks::for_protect(x.protect);
    let mut user = vec![0u8; lb];
    if bytchk == 0 {
        if x.protect != 0 {
            // Only written blocks can fail: the others carry the FFh escape.
            let ranges = d.store.written_ranges(x.lba, x.blocks);
            for lba in ranges.into_iter().flat_map(|(a, b)| a..b) {
                d.store.read_into(lba, &mut user, d.sed.key_generation(lba));
                let t = pi::stored(d, lba, &user);
                pi::check_block(
                    d.prot_type,
                    checks,
                    &x.expect,
                    x.lba,
                    lba - x.lba,
                    &user,
                    &t,
                )?;
            }
        }
    } else {
        let out = &ctx.out[..need as usize];
        for i in 0..x.blocks {
            let lba = x.lba + i;
            let base = if bytchk == 1 { (i * wire) as usize } else { 0 };
            let sent = &out[base..base + wire as usize];
            if wire as usize > lb {
                // The protection information in the Data-Out Buffer is checked as a WRITE
                // with the same protect value would check it (the VRPROTECT table).
                pi::check_block(
                    d.prot_type,
                    checks,
                    &x.expect,
                    x.lba,
                    i,
                    &sent[..lb],
                    &sent[lb..],
                )?;
            }
            d.store.read_into(lba, &mut user, d.sed.key_generation(lba));
            if d.faults.corrupt.contains(&lba) {
                user[lb / 2] ^= 0x01;
            }
            if let Some(j) = user.iter().zip(&sent[..lb]).position(|(a, b)| a != b) {
                // Not a medium error: the block read fine and differs from the host's data,
                // so no error counter moves.
                return Err(SimSense::new(key::MISCOMPARE, 0x1D, 0x00).with_info((base + j) as u64));
            }
        }
    }
    d.verify_errors.bytes += x.blocks * lb as u64;
    Ok(Vec::new())
}
