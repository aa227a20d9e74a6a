//! Write data and `--verify` block headers.
//!
//! Random data: each buffer is filled with random bytes once; before every write, 8 bytes of
//! every 512-byte sector are replaced with fresh random bits (fio's `scramble_buffers`), so no
//! two writes are alike (drives that dedupe or compress see incompressible, unique data) at a
//! cost of one 64-bit store per 512 bytes.
//!
//! Verify: every logical block written carries a 32-byte header — magic `SGCTLVFY`, its LBA,
//! the run's sequence number of that write, and a 64-bit checksum over the whole block (with
//! the checksum field taken as zero). A read checks magic, LBA and checksum, and the
//! sequence number against the last write this run made to the block.

use super::workload::{DataPattern, Rng};
use std::collections::HashMap;

/// Header magic.
pub const MAGIC: &[u8; 8] = b"SGCTLVFY";
/// Header bytes at the start of every verified block.
pub const HEADER_LEN: usize = 32;

/// Fills a fresh buffer with the pattern.
pub fn fill(buf: &mut [u8], pattern: &DataPattern, rng: &mut Rng) {
    match pattern {
        DataPattern::Random => {
            for c in buf.chunks_mut(8) {
                let v = rng.next_u64().to_le_bytes();
                c.copy_from_slice(&v[..c.len()]);
            }
        }
        DataPattern::Zeros => buf.fill(0),
        DataPattern::Bytes(p) if !p.is_empty() => {
            for (i, b) in buf.iter_mut().enumerate() {
                *b = p[i % p.len()];
            }
        }
        DataPattern::Bytes(_) => buf.fill(0),
    }
}

/// Makes a random buffer unique before a write: 8 fresh random bytes per 512-byte sector.
#[inline]
pub fn scramble(buf: &mut [u8], rng: &mut Rng) {
    let mut off = 0;
    while off + 8 <= buf.len() {
        buf[off..off + 8].copy_from_slice(&rng.next_u64().to_le_bytes());
        off += 512;
    }
}

/// 64-bit checksum of a block, the checksum field (bytes 24..32) taken as zero.
pub fn checksum(block: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ block.len() as u64;
    let mut i = 0;
    while i + 8 <= block.len() {
        let w = if (24..32).contains(&i) {
            0
        } else {
            u64::from_le_bytes(block[i..i + 8].try_into().unwrap_or([0; 8]))
        };
        h = (h ^ w).wrapping_mul(0x0000_0100_0000_01b3).rotate_left(23);
        i += 8;
    }
    for &b in &block[i..] {
        h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    // Final avalanche (SplitMix64 finaliser).
    h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    h ^ (h >> 31)
}

/// Writes the header of one block.
pub(crate) fn stamp(block: &mut [u8], lba: u64, seq: u64) {
    if block.len() < HEADER_LEN {
        return;
    }
    block[0..8].copy_from_slice(MAGIC);
    block[8..16].copy_from_slice(&lba.to_le_bytes());
    block[16..24].copy_from_slice(&seq.to_le_bytes());
    block[24..32].fill(0);
    let c = checksum(block);
    block[24..32].copy_from_slice(&c.to_le_bytes());
}

/// What a read block holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// No header: never written by a verifying run.
    Unwritten,
    /// A good header with this sequence number.
    Seq(u64),
    /// A damaged or misplaced block.
    Bad(String),
}

/// Checks one block read from `lba`.
pub fn check(block: &[u8], lba: u64) -> Found {
    if block.len() < HEADER_LEN || &block[0..8] != MAGIC {
        return Found::Unwritten;
    }
    let got_lba = u64::from_le_bytes(block[8..16].try_into().unwrap_or([0; 8]));
    let seq = u64::from_le_bytes(block[16..24].try_into().unwrap_or([0; 8]));
    let sum = u64::from_le_bytes(block[24..32].try_into().unwrap_or([0; 8]));
    if checksum(block) != sum {
        return Found::Bad(format!(
            "checksum mismatch (header says seq {seq}, LBA {got_lba})"
        ));
    }
    if got_lba != lba {
        return Found::Bad(format!(
            "block written for LBA {got_lba} found at LBA {lba}"
        ));
    }
    Found::Seq(seq)
}

/// What this run wrote where: per LBA the last sequence number, the writes in flight and
/// the lowest sequence number the block may hold once they end.
///
/// Writes to the same block that are in flight together may reach the medium in either
/// order: neither the block layer nor SCSI (SIMPLE task attribute) orders them, and the
/// device does reorder them when its queue is full (io_uring's workers wait for requests
/// and are served out of order). So when a write begins while another to the block is still
/// in flight, the block's floor stays at the earliest write of that overlap: after they all
/// end it may hold any of them. A write that begins with none in flight sets the floor to
/// itself: reading anything older afterwards is stale. (Found by `--verify` at QD 16 ×
/// 2 jobs on a loop device with `nr_requests` 8: blocks reported stale by 16 sequence
/// numbers, the write before the last.)
#[derive(Debug, Default)]
pub(crate) struct VerifyMap {
    next_seq: u64,
    /// LBA → (last sequence number, writes in flight, floor).
    blocks: HashMap<u64, (u64, u32, u64)>,
}

impl VerifyMap {
    /// Stamps the blocks of a write at `lba` and marks them in flight.
    pub(crate) fn begin_write(&mut self, buf: &mut [u8], lba: u64, block_len: usize) {
        for (i, b) in buf.chunks_mut(block_len).enumerate() {
            self.next_seq += 1;
            let l = lba + i as u64;
            stamp(b, l, self.next_seq);
            let e = self.blocks.entry(l).or_insert((0, 0, 0));
            let floor = if e.1 == 0 { self.next_seq } else { e.2 };
            *e = (self.next_seq, e.1 + 1, floor);
        }
    }

    /// A write finished (successfully or not).
    pub(crate) fn end_write(&mut self, lba: u64, blocks: u64) {
        for l in lba..lba + blocks {
            if let Some(e) = self.blocks.get_mut(&l) {
                e.1 = e.1.saturating_sub(1);
            }
        }
    }

    /// Sequence numbers a read of these blocks must see at least (taken at submission): the
    /// block's floor; `None` for blocks with a write in flight (either version may come back).
    pub(crate) fn expect(&self, lba: u64, blocks: u64) -> Vec<Option<u64>> {
        (lba..lba + blocks)
            .map(|l| match self.blocks.get(&l) {
                Some(&(_, n, _)) if n > 0 => None,
                Some(&(_, _, floor)) => Some(floor),
                None => Some(0),
            })
            .collect()
    }

    /// Checks the blocks of a completed read against what was expected at submission.
    /// Returns `(checked, unwritten, failures)`.
    pub(crate) fn check_read(
        &self,
        buf: &[u8],
        lba: u64,
        block_len: usize,
        expect: &[Option<u64>],
    ) -> (u64, u64, Vec<(u64, String)>) {
        let (mut checked, mut unwritten, mut bad) = (0, 0, Vec::new());
        for (i, b) in buf.chunks(block_len).enumerate() {
            let l = lba + i as u64;
            let Some(&Some(min)) = expect.get(i) else {
                continue; // write in flight: no claim
            };
            let now = self.blocks.get(&l);
            // A write may have been submitted and finished after this read was submitted.
            let max = now.map_or(0, |x| x.0);
            let racing = now.is_some_and(|x| x.1 > 0) || max > min;
            match check(b, l) {
                Found::Unwritten if min == 0 => unwritten += 1,
                Found::Unwritten if racing => {}
                Found::Unwritten => bad.push((l, format!("header missing (wrote seq {min})"))),
                Found::Bad(why) => bad.push((l, why)),
                // Not written by this run when the read was submitted: what comes back is an
                // earlier run's block (any sequence number of that run) or, when a write of
                // this run to it was submitted since, that write. Self-consistent (magic,
                // LBA, checksum: checked above) is all we can ask.
                Found::Seq(_) if min == 0 => checked += 1,
                Found::Seq(s) if s >= min && s <= max => checked += 1,
                Found::Seq(s) => bad.push((
                    l,
                    format!("stale data: sequence number {s}, expected {min}..={max}"),
                )),
            }
        }
        (checked, unwritten, bad)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamp_and_check_any_block_length() {
        for bl in [512usize, 520, 4096, 4104, 4160] {
            let mut b = vec![0u8; bl];
            fill(&mut b, &DataPattern::Random, &mut Rng::new(1));
            stamp(&mut b, 77, 5);
            assert_eq!(check(&b, 77), Found::Seq(5));
            assert!(matches!(check(&b, 78), Found::Bad(_)));
            let mut c = b.clone();
            c[bl - 1] ^= 1;
            assert!(matches!(check(&c, 77), Found::Bad(_)), "{bl}");
            c = b.clone();
            c[100] ^= 0x80;
            assert!(matches!(check(&c, 77), Found::Bad(_)), "{bl}");
        }
        assert_eq!(check(&[0u8; 512], 1), Found::Unwritten);
    }

    #[test]
    fn map_detects_stale_and_missing() {
        let mut m = VerifyMap::default();
        let mut buf = vec![0u8; 1024];
        m.begin_write(&mut buf, 10, 512);
        assert_eq!(m.expect(10, 2), vec![None, None]);
        m.end_write(10, 2);
        let e = m.expect(10, 2);
        assert_eq!(m.check_read(&buf, 10, 512, &e), (2, 0, vec![]));
        let old = buf.clone();
        m.begin_write(&mut buf, 10, 512);
        m.end_write(10, 2);
        let e = m.expect(10, 2);
        let (_, _, bad) = m.check_read(&old, 10, 512, &e);
        assert_eq!(bad.len(), 2, "{bad:?}");
        let (_, _, bad) = m.check_read(&[0u8; 1024], 10, 512, &e);
        assert_eq!(bad.len(), 2);
        // Unwritten blocks are counted, not failed.
        let e = m.expect(100, 1);
        assert_eq!(m.check_read(&[0u8; 512], 100, 512, &e), (0, 1, vec![]));
    }

    /// Two writes to a block in flight together may land in either order: after both end,
    /// the first one's data is not stale. A write begun after they ended sets the floor
    /// again, and the overlap's data is stale from then on.
    #[test]
    fn overlapping_writes_may_land_in_either_order() {
        let mut m = VerifyMap::default();
        let (mut a, mut b, mut c) = (vec![0u8; 512], vec![0u8; 512], vec![0u8; 512]);
        m.begin_write(&mut a, 7, 512);
        m.begin_write(&mut b, 7, 512);
        m.end_write(7, 1);
        m.end_write(7, 1);
        let e = m.expect(7, 1);
        assert_eq!(m.check_read(&a, 7, 512, &e), (1, 0, vec![]));
        assert_eq!(m.check_read(&b, 7, 512, &e), (1, 0, vec![]));
        m.begin_write(&mut c, 7, 512);
        m.end_write(7, 1);
        let e = m.expect(7, 1);
        assert_eq!(m.check_read(&c, 7, 512, &e), (1, 0, vec![]));
        assert_eq!(m.check_read(&a, 7, 512, &e).2.len(), 1);
        assert_eq!(m.check_read(&b, 7, 512, &e).2.len(), 1);
    }

    /// A read submitted before this run's first write to a block may return the block an
    /// earlier run left there, with that run's (higher) sequence number: not stale. (Found
    /// by a QD8 randrw --verify run on a file an earlier run had written.)
    #[test]
    fn earlier_runs_block_racing_a_first_write_is_not_stale() {
        let mut earlier = VerifyMap::default();
        let mut old = vec![0u8; 512];
        for _ in 0..892 {
            earlier.begin_write(&mut old, 249, 512);
        }
        let mut m = VerifyMap::default();
        let e = m.expect(249, 1);
        assert_eq!(e, vec![Some(0)]);
        let mut new = vec![0u8; 512];
        m.begin_write(&mut new, 249, 512);
        // Still in flight, then completed: the old block is right either way.
        assert_eq!(m.check_read(&old, 249, 512, &e), (1, 0, vec![]));
        assert_eq!(m.check_read(&new, 249, 512, &e), (1, 0, vec![]));
        m.end_write(249, 1);
        assert_eq!(m.check_read(&old, 249, 512, &e), (1, 0, vec![]));
        // A corrupted block is still caught.
        old[300] ^= 1;
        assert_eq!(m.check_read(&old, 249, 512, &e).2.len(), 1);
    }

    #[test]
    fn scrambled_buffers_differ() {
        let mut rng = Rng::new(3);
        let mut a = vec![0u8; 4096];
        fill(&mut a, &DataPattern::Random, &mut rng);
        let b0 = a.clone();
        scramble(&mut a, &mut rng);
        assert_ne!(a, b0);
        assert_eq!(a[8..512], b0[8..512]);
    }
}
