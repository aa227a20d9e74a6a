//! SBC-4 READ(10/16), WRITE(10/16), SYNCHRONIZE CACHE(10/16), UNMAP: user data kept in the
//! sparse store, T10 PI (types 1 and 3 through 10/16-byte CDBs), injected medium errors,
//! locked SED bands.

use super::{alloc, CmdCtx};
use crate::sim::sense::{key, SimSense};

/// Largest transfer in bytes (VPD 0xB0 MAXIMUM TRANSFER LENGTH is 8 MiB worth of blocks).
const MAX_TRANSFER_BYTES: u64 = 8 << 20;

/// DID_ERROR: the initiator did not supply the data the command announced.
const DID_ERROR: u16 = 0x07;

/// CRC-16 T10-DIF (polynomial 0x8BB7), the PI guard tag (SBC-4 4.22.4).
pub fn crc16_t10dif(data: &[u8]) -> u16 {
    let mut crc: u16 = 0;
    for &b in data {
        crc ^= u16::from(b) << 8;
        for _ in 0..8 {
            crc = if crc & 0x8000 != 0 {
                (crc << 1) ^ 0x8BB7
            } else {
                crc << 1
            };
        }
    }
    crc
}

struct Xfer {
    lba: u64,
    blocks: u64,
    protect: u8,
    /// CDB offset of the LBA and TRANSFER LENGTH fields (for field pointers).
    lba_off: u16,
    len_off: u16,
}

fn decode(ctx: &CmdCtx<'_>) -> Xfer {
    let protect = ctx.cdb[1] >> 5;
    if ctx.cdb.len() >= 16 && matches!(ctx.cdb[0], 0x88 | 0x8A | 0x91) {
        Xfer {
            lba: ctx.be(2, 8),
            blocks: ctx.be(10, 4),
            protect,
            lba_off: 2,
            len_off: 10,
        }
    } else {
        Xfer {
            lba: ctx.be(2, 4),
            blocks: ctx.be(7, 2),
            protect,
            lba_off: 2,
            len_off: 7,
        }
    }
}

/// Range and protection checks shared by READ and WRITE. Returns bytes per block on the wire.
fn check(ctx: &CmdCtx<'_>, x: &Xfer, write: bool) -> Result<u64, SimSense> {
    let d = &ctx.sh.d;
    if x.lba
        .checked_add(x.blocks)
        .is_none_or(|end| end > d.num_blocks)
    {
        return Err(SimSense::lba_out_of_range());
    }
    let lb = u64::from(d.lb_len);
    let mut wire = lb;
    if x.protect != 0 {
        // SBC-4 5.16/5.47: RDPROTECT/WRPROTECT need a PI format; type 2 needs the 32-byte
        // CDBs; values above 5 are reserved.
        if d.prot_type == 0 || d.prot_type == 2 || x.protect > 5 {
            return Err(SimSense::invalid_cdb(1, Some(7)));
        }
        wire += 8;
    }
    if x.blocks.saturating_mul(wire) > MAX_TRANSFER_BYTES {
        return Err(SimSense::invalid_cdb(x.len_off, None));
    }
    d.sed.check_access(x.lba, x.blocks, write)?;
    let _ = x.lba_off;
    Ok(wire)
}

/// READ(10) / READ(16).
pub fn read(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let x = decode(ctx);
    let wire = check(ctx, &x, false)?;
    let sh = &mut *ctx.sh;
    let p = sh.profile;
    let d = &mut sh.d;
    let lb = d.lb_len as usize;
    d.stats.read_cmds += 1;
    if let Some(&bad) = d.faults.medium_errors.range(x.lba..x.lba + x.blocks).next() {
        // SBC-4 4.13: unrecovered read error, INFORMATION = first failing LBA.
        d.read_errors.uncorrected += 1;
        // The drive retried hard before giving up: 50 ms of error recovery.
        let now = d.now_ns;
        ctx.service_ns = sh.medium.read(p, d, x.lba, bad - x.lba + 1, now) + 50_000_000;
        return Err(SimSense::new(key::MEDIUM_ERROR, 0x11, 0x00).with_info(bad));
    }
    let mut out = vec![0u8; (x.blocks * wire) as usize];
    for (i, chunk) in out.chunks_mut(wire as usize).enumerate() {
        let lba = x.lba + i as u64;
        d.store
            .read_into(lba, &mut chunk[..lb], d.sed.key_generation(lba));
        if d.faults.corrupt.contains(&lba) {
            chunk[lb / 2] ^= 0x01; // injected silent corruption (Fault::CorruptBlock)
        }
        if wire as usize > lb {
            let pi = if d.store.is_written(lba) {
                let mut pi = [0u8; 8];
                pi[0..2].copy_from_slice(&crc16_t10dif(&chunk[..lb]).to_be_bytes());
                let rt = if d.prot_type == 3 {
                    u32::MAX
                } else {
                    lba as u32
                };
                pi[4..8].copy_from_slice(&rt.to_be_bytes());
                pi
            } else {
                [0xFF; 8] // as FORMAT UNIT left it (SBC-4 4.22.2)
            };
            chunk[lb..].copy_from_slice(&pi);
        }
    }
    let bytes = out.len() as u64;
    d.stats.blocks_read += x.blocks;
    d.stats.host_bytes_read += bytes;
    d.read_errors.bytes += bytes;
    let now = d.now_ns;
    let t = sh.medium.read(p, d, x.lba, x.blocks, now);
    d.stats.read_busy_ns += t;
    ctx.service_ns = t;
    Ok(out)
}

/// WRITE(10) / WRITE(16).
pub fn write(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let x = decode(ctx);
    let wire = check(ctx, &x, true)?;
    let need = (x.blocks * wire) as usize;
    if ctx.short_data_out(need) {
        ctx.host_status = DID_ERROR;
        return Ok(Vec::new());
    }
    let sh = &mut *ctx.sh;
    let p = sh.profile;
    let d = &mut sh.d;
    let lb = d.lb_len as usize;
    let data = &ctx.out[..need];
    if wire as usize > lb {
        // WRPROTECT != 0: check guard and (type 1) reference tag of every block first.
        for (i, chunk) in data.chunks(wire as usize).enumerate() {
            let lba = x.lba + i as u64;
            let (user, pi) = chunk.split_at(lb);
            let app = u16::from_be_bytes([pi[2], pi[3]]);
            if app == 0xFFFF {
                continue; // application tag escape disables checking
            }
            if u16::from_be_bytes([pi[0], pi[1]]) != crc16_t10dif(user) {
                return Err(SimSense::new(key::ABORTED_COMMAND, 0x10, 0x01).with_info(lba));
            }
            let rt = u32::from_be_bytes([pi[4], pi[5], pi[6], pi[7]]);
            if d.prot_type == 1 && rt != lba as u32 {
                return Err(SimSense::new(key::ABORTED_COMMAND, 0x10, 0x03).with_info(lba));
            }
        }
    }
    for (i, chunk) in data.chunks(wire as usize).enumerate() {
        let lba = x.lba + i as u64;
        let gen = d.sed.key_generation(lba);
        d.store.write(lba, &chunk[..lb], gen);
        d.faults.medium_errors.remove(&lba);
    }
    let bytes = (x.blocks as usize * lb) as u64;
    d.stats.write_cmds += 1;
    d.stats.blocks_written += x.blocks;
    d.stats.host_bytes_written += bytes;
    d.write_errors.bytes += bytes;
    let now = d.now_ns;
    let t = sh.medium.write(p, d, x.lba, x.blocks, now);
    d.stats.write_busy_ns += t;
    ctx.service_ns = t;
    Ok(Vec::new())
}

/// SYNCHRONIZE CACHE(10/16): byte 1 bit 1 IMMED; LBA and NUMBER OF LOGICAL BLOCKS (0 = to
/// the end) must lie within the medium. The cache is power-loss protected, so nothing to do.
pub fn synchronize_cache(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let x = decode(ctx);
    let d = &ctx.sh.d;
    if x.lba.checked_add(x.blocks).is_none_or(|e| e > d.num_blocks) || x.lba >= d.num_blocks {
        return Err(SimSense::lba_out_of_range());
    }
    ctx.service_ns = 100_000;
    Ok(Vec::new())
}

/// SBC-4 5.31 UNMAP: bytes 7-8 PARAMETER LIST LENGTH. Parameter list: 0-1 UNMAP DATA LENGTH
/// (n-1), 2-3 UNMAP BLOCK DESCRIPTOR DATA LENGTH (n-7), 8.. 16-byte descriptors (LBA 0-7,
/// NUMBER OF LOGICAL BLOCKS 8-11).
pub fn unmap(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let len = ctx.be(7, 2) as usize;
    if len == 0 {
        return Ok(Vec::new());
    }
    if len < 8 {
        return Err(SimSense::param_list_length(7));
    }
    if ctx.short_data_out(len) {
        ctx.host_status = DID_ERROR;
        return Ok(Vec::new());
    }
    let pl = ctx.param_list(len);
    let data_len = super::be(&pl, 0, 2) as usize;
    let desc_len = super::be(&pl, 2, 2) as usize;
    if data_len + 2 > len {
        return Err(SimSense::invalid_param(0, None));
    }
    if desc_len + 8 > len || desc_len + 6 > data_len + 2 {
        return Err(SimSense::invalid_param(2, None));
    }
    let n = desc_len / 16; // an incomplete last descriptor is ignored
    if n > 64 {
        return Err(SimSense::invalid_param(2, None));
    }
    let d = &mut ctx.sh.d;
    let mut ranges = Vec::with_capacity(n);
    for i in 0..n {
        let off = 8 + 16 * i;
        let lba = super::be(&pl, off, 8);
        let count = super::be(&pl, off + 8, 4);
        if count > 0x0040_0000 {
            return Err(SimSense::invalid_param((off + 8) as u16, None));
        }
        if lba.checked_add(count).is_none_or(|e| e > d.num_blocks) {
            return Err(SimSense::lba_out_of_range());
        }
        d.sed.check_access(lba, count, true)?;
        ranges.push((lba, count));
    }
    let sh = &mut *ctx.sh;
    let mut t = 0;
    for (lba, count) in ranges {
        sh.d.store.unmap(lba, count);
        let now = sh.d.now_ns + t;
        t += sh.medium.trim(sh.profile, &mut sh.d, lba, count, now);
    }
    ctx.service_ns = ctx.service_ns.max(t);
    Ok(alloc(Vec::new(), 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_known_vector() {
        // T10-DIF CRC of "123456789" is 0xD0DB.
        assert_eq!(crc16_t10dif(b"123456789"), 0xD0DB);
    }
}
