//! SBC-4 READ(10/16/32), WRITE(10/16/32), SYNCHRONIZE CACHE(10/16), UNMAP: user data kept
//! in the sparse store, T10 PI (types 1 and 3 through 10/16-byte CDBs, type 2 through the
//! 32-byte CDBs; see `super::pi`), injected medium errors, locked SED bands.

use super::{alloc, pi, CmdCtx};
use crate::sim::sense::{key, SimSense};

/// Largest transfer in bytes (VPD 0xB0 MAXIMUM TRANSFER LENGTH is 8 MiB worth of blocks).
const MAX_TRANSFER_BYTES: u64 = 8 << 20;

/// DID_ERROR: the initiator did not supply the data the command announced.
const DID_ERROR: u16 = 0x07;

/// The T10-DIF CRC of each byte value (MSB first, polynomial 0x8BB7), built at compile time:
/// the guard of a block costs one table look-up per byte instead of eight shift steps.
const CRC_T10DIF: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut i = 0;
    while i < 256 {
        let mut crc = (i as u16) << 8;
        let mut bit = 0;
        while bit < 8 {
            crc = if crc & 0x8000 != 0 {
                (crc << 1) ^ 0x8BB7
            } else {
                crc << 1
            };
            bit += 1;
        }
        t[i] = crc;
        i += 1;
    }
    t
};

/// CRC-16 T10-DIF (polynomial 0x8BB7, initial value 0, no reflection, no final XOR), the PI
/// guard tag (SBC-4 4.22.4), by table.
pub fn crc16_t10dif(data: &[u8]) -> u16 {
    data.iter().fold(0u16, |crc, &b| {
        (crc << 8) ^ CRC_T10DIF[usize::from((crc >> 8) as u8 ^ b)]
    })
}

/// The fields of a READ/WRITE/VERIFY/WRITE SAME CDB of any length.
pub(super) struct Xfer {
    pub lba: u64,
    pub blocks: u64,
    /// RDPROTECT / WRPROTECT / VRPROTECT.
    pub protect: u8,
    /// CDB byte holding the protect field (1, or 10 in a 32-byte CDB).
    pub flags_off: u16,
    /// CDB offset of the TRANSFER LENGTH field (for field pointers).
    pub len_off: u16,
    /// A 32-byte CDB (SBC-4 5.16 READ(32), 5.48 WRITE(32), 5.35 VERIFY(32)).
    pub cdb32: bool,
    /// Tags the CDB expects (32-byte CDBs carry them; otherwise type 1 rules).
    pub expect: pi::Expected,
}

/// Decodes the LBA, length and protection fields of the 10-, 16- and 32-byte layouts.
pub(super) fn decode(ctx: &CmdCtx<'_>) -> Result<Xfer, SimSense> {
    let cdb = ctx.cdb;
    if cdb[0] == super::VARIABLE_LENGTH {
        // SPC-5 4.2.5.3: ADDITIONAL CDB LENGTH (byte 7) is 18h for these commands.
        if cdb[7] != 0x18 {
            return Err(SimSense::invalid_cdb(7, None));
        }
        return Ok(Xfer {
            lba: ctx.be(12, 8),
            blocks: ctx.be(28, 4),
            protect: cdb[10] >> 5,
            flags_off: 10,
            len_off: 28,
            cdb32: true,
            expect: pi::Expected {
                initial_ref: Some(ctx.be(20, 4) as u32),
                app: Some((ctx.be(24, 2) as u16, ctx.be(26, 2) as u16)),
            },
        });
    }
    let type1 = pi::Expected {
        initial_ref: None,
        app: None,
    };
    let protect = cdb[1] >> 5;
    Ok(
        if cdb.len() >= 16 && matches!(cdb[0], 0x88 | 0x8A | 0x8F | 0x91 | 0x93) {
            Xfer {
                lba: ctx.be(2, 8),
                blocks: ctx.be(10, 4),
                protect,
                flags_off: 1,
                len_off: 10,
                cdb32: false,
                expect: type1,
            }
        } else {
            Xfer {
                lba: ctx.be(2, 4),
                blocks: ctx.be(7, 2),
                protect,
                flags_off: 1,
                len_off: 7,
                cdb32: false,
                expect: type1,
            }
        },
    )
}

/// The protect field against the format (SBC-4 4.22.2 and the READ/WRITE/VERIFY(32)
/// clauses): a non-zero field needs a PI format and values above 5 are reserved (24/00 on
/// the field); on a type 2 format the 10/16-byte CDBs cannot carry protection information
/// (INVALID COMMAND OPERATION CODE, 20/00), and the 32-byte CDBs exist for type 2 only
/// (20/00 on a type 1 or type 3 format). Returns bytes per block on the wire.
pub(super) fn check_protect(ctx: &CmdCtx<'_>, x: &Xfer) -> Result<u64, SimSense> {
    let d = &ctx.sh.d;
    if x.cdb32 && matches!(d.prot_type, 1 | 3) {
        return Err(SimSense::invalid_opcode());
    }
    if x.protect == 0 {
        return Ok(u64::from(d.lb_len));
    }
    if d.prot_type == 0 || x.protect > 5 {
        return Err(SimSense::invalid_cdb(x.flags_off, Some(7)));
    }
    if d.prot_type == 2 && !x.cdb32 {
        return Err(SimSense::invalid_opcode());
    }
    Ok(u64::from(d.lb_len) + 8)
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
    let wire = check_protect(ctx, x)?;
    if x.blocks.saturating_mul(wire) > MAX_TRANSFER_BYTES {
        return Err(SimSense::invalid_cdb(x.len_off, None));
    }
    d.sed.check_access(x.lba, x.blocks, write)?;
    Ok(wire)
}

/// READ(10) / READ(16) / READ(32).
pub fn read(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let x = decode(ctx)?;
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
    let need = (x.blocks * wire) as usize;
    // Built in the initiator's buffer when it holds the whole transfer (no copy), else in
    // a buffer of our own (a short buffer gets the first bytes).
    let direct = need > 0 && ctx.in_buf.as_deref().is_some_and(|b| b.len() >= need);
    let mut own = Vec::new();
    let in_place = match ctx.in_buf.as_deref_mut() {
        Some(b) if b.len() >= need => &mut b[..need],
        _ => {
            own.resize(need, 0);
            &mut own[..]
        }
    };
    let checks = if wire as usize > lb {
        pi::Checks::for_protect(x.protect)
    } else {
        pi::Checks::unprotected_read(d.prot_type, x.cdb32)
    };
    for (i, chunk) in in_place.chunks_mut(wire as usize).enumerate() {
        let lba = x.lba + i as u64;
        d.store
            .read_into(lba, &mut chunk[..lb], d.sed.key_generation(lba));
        if d.faults.corrupt.contains(&lba) {
            chunk[lb / 2] ^= 0x01; // injected silent corruption (Fault::CorruptBlock)
        }
        if wire as usize > lb {
            let (user, tail) = chunk.split_at_mut(lb);
            let t = pi::stored(d, lba, user);
            // RDPROTECT 001b/010b/100b/101b: the device server checks what it read before
            // it transfers it (SBC-4 READ(10) protect table).
            pi::check_block(d.prot_type, checks, &x.expect, x.lba, i as u64, user, &t)?;
            tail.copy_from_slice(&t);
        } else if let Some(t) = d.store.pi(lba) {
            // RDPROTECT 000b on a PI format: the device server still checks the block's
            // protection information, without transferring it. Only blocks whose tags the
            // host sent can fail: what the drive generated itself (WRPROTECT 000b) is the
            // CRC of these very bytes and the LBA as reference tag.
            pi::check_block(
                d.prot_type,
                checks,
                &x.expect,
                x.lba,
                i as u64,
                &chunk[..lb],
                &t,
            )?;
        }
    }
    let bytes = need as u64;
    d.stats.blocks_read += x.blocks;
    d.stats.host_bytes_read += bytes;
    d.read_errors.bytes += bytes;
    let now = d.now_ns;
    let t = sh.medium.read(p, d, x.lba, x.blocks, now);
    d.stats.read_busy_ns += t;
    ctx.service_ns = t;
    if direct {
        ctx.in_place = Some(need);
    }
    Ok(own)
}

/// WRITE(10) / WRITE(16) / WRITE(32).
pub fn write(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let x = decode(ctx)?;
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
        // WRPROTECT != 0: check every block's protection information before writing any.
        let checks = pi::Checks::for_protect(x.protect);
        for (i, chunk) in data.chunks(wire as usize).enumerate() {
            let (user, t) = chunk.split_at(lb);
            pi::check_block(d.prot_type, checks, &x.expect, x.lba, i as u64, user, t)?;
        }
    }
    let w = wire as usize;
    let user_of = |i: usize| &data[i * w..i * w + lb];
    let count = x.blocks as usize;
    if d.prot_type == 0 {
        // Consecutive blocks with the same bytes and key generation are stored as one run
        // (one store operation for a 128 KiB fill, not 256).
        let mut i = 0usize;
        while i < count {
            let lba = x.lba + i as u64;
            let gen = d.sed.key_generation(lba);
            let user = user_of(i);
            let mut n = 1usize;
            while i + n < count
                && user_of(i + n) == user
                && d.sed.key_generation(lba + n as u64) == gen
            {
                n += 1;
            }
            d.store.write_run(lba, n as u64, user, gen);
            i += n;
        }
    } else {
        for i in 0..count {
            let lba = x.lba + i as u64;
            let gen = d.sed.key_generation(lba);
            let user = user_of(i);
            d.store.write(lba, user, gen);
            // Keep what the host sent (or, for a 32-byte CDB without PI, the reference tag
            // the CDB asked for) where it differs from what a read would generate.
            let t = if w > lb {
                <[u8; 8]>::try_from(&data[i * w + lb..(i + 1) * w]).unwrap_or([0xFF; 8])
            } else {
                pi::generated(d.prot_type, x.expect.ref_tag(x.lba, i as u64), user)
            };
            let default = pi::generated(d.prot_type, lba as u32, user);
            d.store.set_pi(lba, (t != default).then_some(t));
        }
    }
    // Writing a block that failed to read reallocates it (SBC-4 4.14, AWRE=1).
    d.heal_written(x.lba, x.blocks);
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
pub(crate) fn synchronize_cache(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let x = decode(ctx)?;
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

    /// The bit-at-a-time definition the table is built from.
    fn crc_bitwise(data: &[u8]) -> u16 {
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

    #[test]
    fn crc_known_vectors() {
        // CRC-16/T10-DIF catalogue check value: "123456789" -> D0DBh.
        assert_eq!(crc16_t10dif(b"123456789"), 0xD0DB);
        assert_eq!(crc16_t10dif(b""), 0);
        // A 512-byte block of zeros has guard 0000h (initial value 0, no final XOR).
        assert_eq!(crc16_t10dif(&[0u8; 512]), 0);
        // The guards the VM checks send with sg_raw / sg_write_same (52-commands.sh,
        // 55-write-same32.sh): 512 x A5h = 9EC6h, 512 x 3Ch = 97E0h (both also from a separate
        // bit-at-a-time CRC in Python when this test was written).
        assert_eq!(crc16_t10dif(&[0xA5; 512]), 0x9EC6);
        assert_eq!(crc16_t10dif(&[0x3C; 512]), 0x97E0);
        // Table entries: 01h -> the polynomial itself; 80h -> one shift past it.
        assert_eq!(CRC_T10DIF[1], 0x8BB7);
        assert_eq!(CRC_T10DIF[0x80], crc_bitwise(&[0x80]));
    }

    #[test]
    fn crc_table_matches_the_bitwise_definition() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let data: Vec<u8> = (0..4096)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        for len in [1, 2, 7, 512, 520, 4096] {
            assert_eq!(
                crc16_t10dif(&data[..len]),
                crc_bitwise(&data[..len]),
                "{len}"
            );
        }
        for b in 0..=255u8 {
            assert_eq!(crc16_t10dif(&[b]), crc_bitwise(&[b]));
        }
    }
}
