//! Sparse logical-block store: only written blocks are kept, runs of identical blocks are
//! stored once in the state file.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::ops::Bound;

/// Contents of one stored logical block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    /// Every byte equals this value.
    Fill(u8),
    /// Arbitrary data (exactly one logical block).
    Data(Box<[u8]>),
}

/// A stored block and the media key generation it was written under. When the drive's
/// generation for the LBA has moved on (cryptographic erase), reads return what the old
/// ciphertext decrypts to under the new key: deterministic pseudo-random bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    block: Block,
    gen: u64,
}

/// What blocks that are not in the map read as.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Background {
    /// Zeros (unmapped with LBPRZ=1, or freshly formatted).
    #[default]
    Zero,
    /// A SANITIZE OVERWRITE pattern repeated through the block.
    Pattern {
        /// Pattern bytes as hex.
        hex: String,
    },
    /// A used drive (`sim:...?used=1`): every block holds earlier user data, written under
    /// media key generation `generation`. It reads as deterministic pseudo-random bytes per
    /// LBA while that key is current, and as different bytes once the key changed
    /// (cryptographic erase), so a sanitize's sampled verification has something to prove.
    UserData {
        /// Key generation the old data was written under.
        generation: u64,
    },
}

/// The sparse store.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(from = "StoreRepr", into = "StoreRepr")]
pub struct Store {
    lb_len: u32,
    background: Background,
    blocks: BTreeMap<u64, Entry>,
    seed: u64,
    /// Ranges `[start, end)` unmapped since the background was set: they read as zeros.
    zero_ranges: Vec<(u64, u64)>,
    /// Protection information the host sent for a block (SBC-4 4.22.2: guard, application
    /// and reference tag), kept where it differs from what the device server generates for
    /// a write without PI (guard = CRC of the data, application tag 0, reference tag = the
    /// LBA's low 32 bits). Cleared when the block is rewritten, unmapped or formatted.
    pi: BTreeMap<u64, [u8; 8]>,
}

#[derive(Serialize, Deserialize)]
struct StoreRepr {
    lb_len: u32,
    #[serde(default)]
    background: Background,
    #[serde(default)]
    seed: u64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    zero_ranges: Vec<(u64, u64)>,
    #[serde(default)]
    extents: Vec<Extent>,
    /// `(lba, 8 PI bytes as hex)` for blocks whose protection information the host set.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pi: Vec<(u64, String)>,
}

/// A run of `n` identical blocks starting at `lba`.
#[derive(Serialize, Deserialize)]
struct Extent {
    lba: u64,
    #[serde(default = "one")]
    n: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    fill: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    hex: Option<String>,
    #[serde(default, skip_serializing_if = "is_zero")]
    gen: u64,
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

fn one() -> u64 {
    1
}

/// Lower-case hex of `b`.
pub fn to_hex(b: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut v = Vec::with_capacity(b.len() * 2);
    for &x in b {
        v.push(DIGITS[usize::from(x >> 4)]);
        v.push(DIGITS[usize::from(x & 15)]);
    }
    // Only ASCII hex digits were pushed.
    String::from_utf8(v).unwrap_or_default()
}

/// Decodes hex; invalid digits decode as zero nibbles (state files are ours, but never panic).
pub fn from_hex(s: &str) -> Vec<u8> {
    let nib = |c: u8| -> u8 {
        match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            b'A'..=b'F' => c - b'A' + 10,
            _ => 0,
        }
    };
    s.as_bytes()
        .chunks(2)
        .map(|p| (nib(p[0]) << 4) | p.get(1).map(|&c| nib(c)).unwrap_or(0))
        .collect()
}

impl From<StoreRepr> for Store {
    fn from(r: StoreRepr) -> Store {
        let lb = r.lb_len.max(1) as usize;
        let mut blocks = BTreeMap::new();
        for e in r.extents {
            let b = if let Some(f) = e.fill {
                Block::Fill(f)
            } else if let Some(h) = &e.hex {
                let mut d = from_hex(h);
                d.resize(lb, 0);
                Block::Data(d.into_boxed_slice())
            } else {
                continue;
            };
            // Cap absurd run lengths from a hand-edited file.
            for i in 0..e.n.min(1 << 24) {
                blocks.insert(
                    e.lba.saturating_add(i),
                    Entry {
                        block: b.clone(),
                        gen: e.gen,
                    },
                );
            }
        }
        let pi =
            r.pi.iter()
                .take(1 << 24)
                .filter_map(|(lba, h)| {
                    <[u8; 8]>::try_from(from_hex(h).as_slice())
                        .ok()
                        .map(|t| (*lba, t))
                })
                .collect();
        Store {
            lb_len: r.lb_len.max(1),
            background: r.background,
            blocks,
            seed: r.seed,
            zero_ranges: r.zero_ranges,
            pi,
        }
    }
}

impl From<Store> for StoreRepr {
    fn from(s: Store) -> StoreRepr {
        let mut extents: Vec<Extent> = Vec::new();
        let mut run: Option<(u64, u64, &Entry)> = None;
        let push = |extents: &mut Vec<Extent>, (lba, n, b): (u64, u64, &Entry)| {
            let mut e = Extent {
                lba,
                n,
                fill: None,
                hex: None,
                gen: b.gen,
            };
            match &b.block {
                Block::Fill(f) => e.fill = Some(*f),
                Block::Data(d) => e.hex = Some(to_hex(d)),
            }
            extents.push(e);
        };
        for (lba, b) in &s.blocks {
            match run {
                Some((start, n, rb)) if start + n == *lba && rb == b => {
                    run = Some((start, n + 1, rb))
                }
                Some(r) => {
                    push(&mut extents, r);
                    run = Some((*lba, 1, b));
                }
                None => run = Some((*lba, 1, b)),
            }
        }
        if let Some(r) = run {
            push(&mut extents, r);
        }
        StoreRepr {
            lb_len: s.lb_len,
            background: s.background,
            seed: s.seed,
            zero_ranges: s.zero_ranges,
            extents,
            pi: s.pi.iter().map(|(l, t)| (*l, to_hex(t))).collect(),
        }
    }
}

impl Store {
    /// An empty (all-zero) store of `lb_len`-byte blocks; `seed` individualises scrambled data.
    pub fn new(lb_len: u32, seed: u64) -> Store {
        Store {
            lb_len: lb_len.max(1),
            background: Background::Zero,
            blocks: BTreeMap::new(),
            seed,
            zero_ranges: Vec::new(),
            pi: BTreeMap::new(),
        }
    }

    /// Logical block length.
    pub fn lb_len(&self) -> u32 {
        self.lb_len
    }

    /// Number of blocks held individually.
    pub fn stored_blocks(&self) -> usize {
        self.blocks.len()
    }

    /// Drops all data and sets a new block length (FORMAT UNIT, BLOCK ERASE).
    pub fn reset(&mut self, lb_len: u32) {
        self.lb_len = lb_len.max(1);
        self.blocks.clear();
        self.pi.clear();
        self.background = Background::Zero;
        self.zero_ranges.clear();
    }

    /// Every block reads as `pattern` repeated (SANITIZE OVERWRITE).
    pub fn fill_pattern(&mut self, pattern: &[u8]) {
        self.blocks.clear();
        self.pi.clear();
        self.zero_ranges.clear();
        self.background = if pattern.iter().all(|&b| b == 0) || pattern.is_empty() {
            Background::Zero
        } else {
            Background::Pattern {
                hex: to_hex(pattern),
            }
        };
    }

    /// After a cryptographic erase: a background pattern (SANITIZE OVERWRITE) was written
    /// through the old key as well; it is not enumerable, so it reads as zeros afterwards (as
    /// if the FTL had nothing mapped there).
    pub fn drop_background(&mut self) {
        self.background = Background::Zero;
        self.zero_ranges.clear();
    }

    /// Marks every unwritten block as holding old user data written under key generation
    /// `generation` (a used drive).
    pub fn fill_user_data(&mut self, generation: u64) {
        self.zero_ranges.clear();
        self.background = Background::UserData { generation };
    }

    /// Reads block `lba` into `out` (`out.len() == lb_len`); `gen` is the drive's current
    /// media key generation for the LBA.
    pub fn read_into(&self, lba: u64, out: &mut [u8], gen: u64) {
        match self.blocks.get(&lba) {
            // The old ciphertext decrypted under the current key: it depends on both keys, so
            // each further crypto erase changes it again.
            Some(e) if e.gen != gen => {
                self.garbage(e.gen.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ gen, lba, out)
            }
            Some(Entry {
                block: Block::Fill(f),
                ..
            }) => out.fill(*f),
            Some(Entry {
                block: Block::Data(d),
                ..
            }) => {
                let n = out.len().min(d.len());
                out[..n].copy_from_slice(&d[..n]);
                out[n..].fill(0);
            }
            None if self.zero_ranges.iter().any(|&(a, b)| lba >= a && lba < b) => out.fill(0),
            None => match &self.background {
                Background::Zero => out.fill(0),
                Background::UserData { generation } => {
                    // Old user data: the "plaintext" is a keyed stream; read under any other
                    // key it decrypts to a different stream.
                    let g = if *generation == gen {
                        u64::MAX - generation
                    } else {
                        gen
                    };
                    self.garbage(g, lba, out)
                }
                Background::Pattern { hex } => {
                    let p = from_hex(hex);
                    if p.is_empty() {
                        out.fill(0);
                    } else {
                        for (i, b) in out.iter_mut().enumerate() {
                            *b = p[i % p.len()];
                        }
                    }
                }
            },
        }
    }

    /// True if the block holds written (or scrambled) data rather than the background.
    pub fn is_written(&self, lba: u64) -> bool {
        self.blocks.contains_key(&lba)
    }

    /// Writes one block under media key generation `gen`.
    pub fn write(&mut self, lba: u64, data: &[u8], gen: u64) {
        self.pi.remove(&lba);
        let block = match data.first() {
            Some(&f) if data.iter().all(|&x| x == f) => Block::Fill(f),
            _ => Block::Data(data.into()),
        };
        if block == Block::Fill(0) && self.background == Background::Zero {
            self.blocks.remove(&lba);
        } else {
            self.blocks.insert(lba, Entry { block, gen });
        }
    }

    /// Deallocates `count` blocks from `lba` (UNMAP): they read as zeros (LBPRZ=1).
    pub fn unmap(&mut self, lba: u64, count: u64) {
        let end = lba.saturating_add(count);
        let keys: Vec<u64> = self
            .blocks
            .range((Bound::Included(lba), Bound::Excluded(end)))
            .map(|(k, _)| *k)
            .collect();
        for k in keys {
            self.blocks.remove(&k);
            self.pi.remove(&k);
        }
        if self.background != Background::Zero && count > 0 {
            // Keep the list short: merge with overlapping or adjacent ranges.
            let (mut a, mut b) = (lba, end);
            self.zero_ranges.retain(|&(x, y)| {
                if y < a || x > b {
                    true
                } else {
                    a = a.min(x);
                    b = b.max(y);
                    false
                }
            });
            self.zero_ranges.push((a, b));
        }
    }

    /// Drops blocks at or beyond `num_blocks` (capacity shrink).
    pub fn truncate(&mut self, num_blocks: u64) {
        self.blocks.split_off(&num_blocks);
        self.pi.split_off(&num_blocks);
        self.zero_ranges.retain(|&(a, _)| a < num_blocks);
    }

    /// The protection information the host wrote with block `lba`, if it differs from the
    /// generated one (see [`Store::set_pi`]).
    pub fn pi(&self, lba: u64) -> Option<[u8; 8]> {
        self.pi.get(&lba).copied()
    }

    /// Keeps the protection information the host sent with block `lba` (after
    /// [`Store::write`]); `None` = what the device server generates.
    pub fn set_pi(&mut self, lba: u64, pi: Option<[u8; 8]>) {
        match pi {
            Some(t) => {
                self.pi.insert(lba, t);
            }
            None => {
                self.pi.remove(&lba);
            }
        }
    }

    /// Blocks in `[lba, lba + count)` that hold written data or host protection information
    /// (the others read as the background, whose protection information is all FFh).
    pub fn written_in(&self, lba: u64, count: u64) -> Vec<u64> {
        let r = (
            Bound::Included(lba),
            Bound::Excluded(lba.saturating_add(count)),
        );
        let mut v: Vec<u64> = self.blocks.range(r).map(|(k, _)| *k).collect();
        v.extend(self.pi.range(r).map(|(k, _)| *k));
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Whether block `lba` is mapped (holds data, or the background's old data) rather than
    /// deallocated (reads as zeros because nothing is stored for it).
    pub fn mapped(&self, lba: u64) -> bool {
        if self.blocks.contains_key(&lba) {
            return true;
        }
        self.background != Background::Zero
            && !self.zero_ranges.iter().any(|&(a, b)| lba >= a && lba < b)
    }

    /// The run of blocks from `lba` (before `end`) sharing `lba`'s mapped state, at most
    /// `max` long: (mapped, length).
    pub fn provisioning_run(&self, lba: u64, end: u64, max: u64) -> (bool, u64) {
        let mapped = self.mapped(lba);
        let limit = end.min(lba.saturating_add(max));
        if self.background == Background::Zero {
            // Only stored blocks are mapped: walk the keys.
            let mut next = lba;
            let mut keys = self.blocks.range(lba..limit).map(|(k, _)| *k);
            if mapped {
                for k in keys {
                    if k != next {
                        break;
                    }
                    next += 1;
                }
                return (true, next - lba);
            }
            return (false, keys.next().unwrap_or(limit) - lba);
        }
        if self.zero_ranges.is_empty() {
            return (true, limit - lba);
        }
        let mut n = 1;
        while lba + n < limit && self.mapped(lba + n) == mapped {
            n += 1;
        }
        (mapped, n)
    }

    fn garbage(&self, generation: u64, lba: u64, out: &mut [u8]) {
        for (counter, chunk) in out.chunks_mut(32).enumerate() {
            let mut h = Sha256::new();
            h.update(self.seed.to_be_bytes());
            h.update(generation.to_be_bytes());
            h.update(lba.to_be_bytes());
            h.update((counter as u32).to_be_bytes());
            let d = h.finalize();
            chunk.copy_from_slice(&d[..chunk.len()]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn used_drive_data_changes_with_the_key() {
        let mut s = Store::new(512, 9);
        s.fill_user_data(0);
        let (mut a, mut b, mut c) = ([0u8; 512], [0u8; 512], [0u8; 512]);
        s.read_into(7, &mut a, 0);
        s.read_into(7, &mut b, 0);
        assert_eq!(
            a, b,
            "old data reads back the same while the key is unchanged"
        );
        assert!(a.iter().any(|&x| x != 0));
        s.read_into(8, &mut c, 0);
        assert_ne!(a, c, "each LBA holds its own data");
        s.read_into(7, &mut c, 1);
        assert_ne!(
            a, c,
            "a new key (crypto erase) changes what the block reads as"
        );
        s.unmap(7, 1);
        s.read_into(7, &mut c, 0);
        assert_eq!(c, [0u8; 512], "unmapped blocks read as zeros (LBPRZ)");
    }

    #[test]
    fn each_crypto_erase_changes_a_written_block_again() {
        let mut s = Store::new(512, 9);
        s.write(5, &[0x5a; 512], 0);
        let (mut g1, mut g2) = ([0u8; 512], [0u8; 512]);
        s.read_into(5, &mut g1, 1);
        s.read_into(5, &mut g2, 2);
        assert_ne!(g1, [0x5a; 512]);
        assert_ne!(
            g1, g2,
            "a second key decrypts the old ciphertext to other bytes"
        );
    }

    #[test]
    fn sparse_roundtrip_and_compaction() {
        let mut s = Store::new(512, 7);
        let mut pat = vec![0u8; 512];
        pat[0] = 0xAA;
        for l in 10..20 {
            s.write(l, &[0x55; 512], 0);
        }
        s.write(100, &pat, 0);
        s.write(5, &[0; 512], 0); // zero write of an unwritten block stays sparse
        assert_eq!(s.stored_blocks(), 11);
        let json = serde_json::to_string(&s).unwrap();
        assert!(json.len() < 1300, "{json}");
        let t: Store = serde_json::from_str(&json).unwrap();
        let mut b = vec![0u8; 512];
        t.read_into(15, &mut b, 0);
        assert_eq!(b, vec![0x55; 512]);
        t.read_into(100, &mut b, 0);
        assert_eq!(b, pat);
        t.read_into(3, &mut b, 0);
        assert_eq!(b, vec![0; 512]);
    }

    #[test]
    fn crypto_erase_scrambles_written_blocks_only() {
        let mut s = Store::new(512, 1);
        s.write(1, &[0x11; 512], 0);
        let mut a = vec![0u8; 512];
        s.read_into(1, &mut a, 1 << 32);
        assert_ne!(a, vec![0x11; 512]);
        assert_ne!(a, vec![0; 512]);
        let mut z = vec![1u8; 512];
        s.read_into(2, &mut z, 1 << 32);
        assert_eq!(z, vec![0; 512]);
    }

    #[test]
    fn pattern_background_and_unmap() {
        let mut s = Store::new(8, 0);
        s.fill_pattern(&[1, 2, 3]);
        let mut b = vec![0u8; 8];
        s.read_into(9, &mut b, 0);
        assert_eq!(b, [1, 2, 3, 1, 2, 3, 1, 2]);
        s.unmap(9, 1);
        s.read_into(9, &mut b, 0);
        assert_eq!(b, [0; 8]);
    }
}
