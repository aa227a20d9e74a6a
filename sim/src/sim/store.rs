//! Sparse logical-block store: only written blocks are kept, as runs of identical blocks (one
//! map entry per run, however long), so memory follows what was written, not the capacity: a
//! sequential fill costs one entry per write command, a full-size drive fits in a few hundred
//! MB. The state file lists the same runs as extents.
//!
//! A state file is input anyone may have edited: [`Store`]'s decoder checks every extent
//! (block length, run length, order, hex) and lists what is wrong instead of allocating what
//! the file claims; an extent of 2^40 blocks is one run, not 2^40 entries.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::ops::Bound;
use std::sync::Arc;

/// Largest logical block length a store holds (bytes of user data per block).
pub(crate) const MAX_BLOCK_LEN: u32 = 65536;
/// Problems listed in one decode error (the rest are counted).
const MAX_PROBLEMS: usize = 20;

/// Contents of every block of a stored run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Block {
    /// Every byte equals this value.
    Fill(u8),
    /// Arbitrary data (exactly one logical block), shared by every block of the run.
    Data(Arc<[u8]>),
}

impl Block {
    /// The block that holds `data`: a fill when every byte is the same.
    fn of(data: &[u8]) -> Block {
        match data.first() {
            Some(&f) if data.iter().all(|&x| x == f) => Block::Fill(f),
            _ => Block::Data(data.into()),
        }
    }
}

/// `len` consecutive blocks holding the same bytes, written under media key generation
/// `gen`. When the drive's generation for the LBA has moved on (cryptographic erase), reads
/// return what the old ciphertext decrypts to under the new key: deterministic pseudo-random
/// bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Run {
    len: u64,
    gen: u64,
    block: Block,
}

/// What blocks that are not in the map read as.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub(crate) enum Background {
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
#[serde(try_from = "StoreRepr", into = "StoreRepr")]
pub struct Store {
    lb_len: u32,
    background: Background,
    /// Runs by first LBA; they never overlap and none is empty.
    runs: BTreeMap<u64, Run>,
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
pub(crate) fn to_hex(b: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut v = Vec::with_capacity(b.len() * 2);
    for &x in b {
        v.push(DIGITS[usize::from(x >> 4)]);
        v.push(DIGITS[usize::from(x & 15)]);
    }
    // Only ASCII hex digits were pushed.
    String::from_utf8(v).unwrap_or_default()
}

/// Decodes hex; invalid digits decode as zero nibbles (for strings this program wrote; the
/// decoder of a state file uses [`parse_hex`]).
pub(crate) fn from_hex(s: &str) -> Vec<u8> {
    s.as_bytes()
        .chunks(2)
        .map(|p| (nibble(p[0]).unwrap_or(0) << 4) | p.get(1).and_then(|&c| nibble(c)).unwrap_or(0))
        .collect()
}

fn nibble(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// Strict hex: an even number of hex digits, nothing else.
pub(crate) fn parse_hex(s: &str) -> Option<Vec<u8>> {
    if s.len() % 2 != 0 {
        return None;
    }
    s.as_bytes()
        .chunks(2)
        .map(|p| Some((nibble(p[0])? << 4) | nibble(p[1])?))
        .collect()
}

/// What is wrong with a decoded input: the first `MAX_PROBLEMS` messages and a count.
#[derive(Debug, Default)]
pub(crate) struct Problems {
    list: Vec<String>,
    more: usize,
}

impl Problems {
    /// Notes one problem.
    pub(crate) fn push(&mut self, p: impl Into<String>) {
        if self.list.len() < MAX_PROBLEMS {
            self.list.push(p.into());
        } else {
            self.more += 1;
        }
    }

    /// Notes a problem when `bad`.
    pub(crate) fn check(&mut self, bad: bool, p: impl FnOnce() -> String) {
        if bad {
            self.push(p());
        }
    }

    /// No problem noted.
    pub(crate) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// `Ok(())`, or every problem in one line.
    pub(crate) fn into_result(self) -> Result<(), String> {
        if self.list.is_empty() {
            return Ok(());
        }
        let mut s = self.list.join("; ");
        if self.more > 0 {
            s.push_str(&format!("; and {} more", self.more));
        }
        Err(s)
    }
}

impl TryFrom<StoreRepr> for Store {
    type Error = String;

    /// Checks every number and string of the stored data. Memory is bounded by the input's
    /// size: a run is kept as one entry whatever its claimed length, and a data block must be
    /// spelled out in full (2 × block length hex digits).
    fn try_from(r: StoreRepr) -> Result<Store, String> {
        let mut bad = Problems::default();
        if r.lb_len == 0 || r.lb_len > MAX_BLOCK_LEN {
            return Err(format!(
                "store: lb_len {} is not 1..={MAX_BLOCK_LEN}",
                r.lb_len
            ));
        }
        let lb = r.lb_len as usize;
        if let Background::Pattern { hex } = &r.background {
            bad.check(
                parse_hex(hex).is_none_or(|p| p.is_empty() || p.len() > lb),
                || format!("store: background pattern is not 1..={lb} bytes of hex"),
            );
        }
        for (i, &(a, b)) in r.zero_ranges.iter().enumerate() {
            bad.check(a >= b, || {
                format!("store: zero range {i} [{a}, {b}) is empty or reversed")
            });
        }
        let mut runs: BTreeMap<u64, Run> = BTreeMap::new();
        let mut last: Option<(u64, u64)> = None; // (start, end) of the last run kept
        let mut prev_end = 0u64;
        for (i, e) in r.extents.into_iter().enumerate() {
            let Some(end) = e.lba.checked_add(e.n).filter(|_| e.n > 0) else {
                bad.push(format!(
                    "store: extent {i} (lba {}, n {}) is empty or runs past the last LBA",
                    e.lba, e.n
                ));
                continue;
            };
            if i > 0 && e.lba < prev_end {
                bad.push(format!(
                    "store: extent {i} (lba {}) overlaps or precedes the one before (ends at {prev_end})",
                    e.lba
                ));
            }
            prev_end = prev_end.max(end);
            let block = match (e.fill, e.hex) {
                (Some(f), None) => Block::Fill(f),
                (None, Some(h)) => match parse_hex(&h) {
                    Some(d) if d.len() == lb => Block::of(&d),
                    _ => {
                        bad.push(format!(
                            "store: extent {i} (lba {}): hex is not {} hex digits (one {lb}-byte block)",
                            e.lba,
                            2 * lb
                        ));
                        continue;
                    }
                },
                (Some(_), Some(_)) => {
                    bad.push(format!(
                        "store: extent {i} (lba {}) has both fill and hex",
                        e.lba
                    ));
                    continue;
                }
                (None, None) => {
                    bad.push(format!(
                        "store: extent {i} (lba {}) has neither fill nor hex",
                        e.lba
                    ));
                    continue;
                }
            };
            if !bad.is_empty() {
                continue; // keep checking, stop building
            }
            let run = Run {
                len: e.n,
                gen: e.gen,
                block,
            };
            match last {
                Some((s, le)) if le == e.lba && runs.get(&s).is_some_and(|p| p.same(&run)) => {
                    if let Some(p) = runs.get_mut(&s) {
                        p.len += e.n;
                    }
                    last = Some((s, end));
                }
                _ => {
                    runs.insert(e.lba, run);
                    last = Some((e.lba, end));
                }
            }
        }
        let mut pi = BTreeMap::new();
        for (i, (lba, h)) in r.pi.iter().enumerate() {
            match parse_hex(h).and_then(|v| <[u8; 8]>::try_from(v.as_slice()).ok()) {
                Some(t) => {
                    pi.insert(*lba, t);
                }
                None => bad.push(format!(
                    "store: pi entry {i} (lba {lba}) is not 16 hex digits"
                )),
            }
        }
        bad.into_result()?;
        Ok(Store {
            lb_len: r.lb_len,
            background: r.background,
            runs,
            seed: r.seed,
            zero_ranges: r.zero_ranges,
            pi,
        })
    }
}

impl Run {
    /// Same contents and key generation (adjacent runs like this are one).
    fn same(&self, o: &Run) -> bool {
        self.gen == o.gen && self.block == o.block
    }
}

impl From<Store> for StoreRepr {
    fn from(s: Store) -> StoreRepr {
        let mut extents: Vec<Extent> = Vec::with_capacity(s.runs.len());
        let mut cur: Option<(u64, Run)> = None;
        let push = |extents: &mut Vec<Extent>, (lba, r): (u64, Run)| {
            let (fill, hex) = match &r.block {
                Block::Fill(f) => (Some(*f), None),
                Block::Data(d) => (None, Some(to_hex(d))),
            };
            extents.push(Extent {
                lba,
                n: r.len,
                fill,
                hex,
                gen: r.gen,
            });
        };
        for (lba, r) in s.runs {
            match &mut cur {
                Some((start, c)) if start.saturating_add(c.len) == lba && c.same(&r) => {
                    c.len += r.len;
                }
                _ => {
                    if let Some(c) = cur.take() {
                        push(&mut extents, c);
                    }
                    cur = Some((lba, r));
                }
            }
        }
        if let Some(c) = cur {
            push(&mut extents, c);
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
            runs: BTreeMap::new(),
            seed,
            zero_ranges: Vec::new(),
            pi: BTreeMap::new(),
        }
    }

    /// Logical block length.
    pub fn lb_len(&self) -> u32 {
        self.lb_len
    }

    /// Number of blocks holding written data.
    pub fn stored_blocks(&self) -> usize {
        let n = self
            .runs
            .values()
            .fold(0u64, |a, r| a.saturating_add(r.len));
        usize::try_from(n).unwrap_or(usize::MAX)
    }

    /// Number of runs (map entries) holding them: what the store's memory follows.
    pub fn stored_runs(&self) -> usize {
        self.runs.len()
    }

    /// One past the last LBA holding data, host protection information or an unmapped range
    /// (0 when none): the state-file check compares it with the drive's capacity.
    pub(crate) fn end_lba(&self) -> u64 {
        let runs = self
            .runs
            .iter()
            .next_back()
            .map_or(0, |(s, r)| s.saturating_add(r.len));
        let pi = self
            .pi
            .keys()
            .next_back()
            .map_or(0, |l| l.saturating_add(1));
        let zr = self.zero_ranges.iter().map(|&(_, b)| b).max().unwrap_or(0);
        runs.max(pi).max(zr)
    }

    /// Drops all data and sets a new block length (FORMAT UNIT, BLOCK ERASE).
    pub fn reset(&mut self, lb_len: u32) {
        self.lb_len = lb_len.max(1);
        self.runs.clear();
        self.pi.clear();
        self.background = Background::Zero;
        self.zero_ranges.clear();
    }

    /// Every block reads as `pattern` repeated (SANITIZE OVERWRITE).
    pub(crate) fn fill_pattern(&mut self, pattern: &[u8]) {
        self.runs.clear();
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
    pub(crate) fn drop_background(&mut self) {
        self.background = Background::Zero;
        self.zero_ranges.clear();
    }

    /// Marks every unwritten block as holding old user data written under key generation
    /// `generation` (a used drive).
    pub(crate) fn fill_user_data(&mut self, generation: u64) {
        self.zero_ranges.clear();
        self.background = Background::UserData { generation };
    }

    /// The run holding `lba`, if any.
    fn run_at(&self, lba: u64) -> Option<(u64, &Run)> {
        self.runs
            .range(..=lba)
            .next_back()
            .filter(|(s, r)| lba - **s < r.len)
            .map(|(s, r)| (*s, r))
    }

    /// Reads block `lba` into `out` (`out.len() == lb_len`); `gen` is the drive's current
    /// media key generation for the LBA.
    pub(crate) fn read_into(&self, lba: u64, out: &mut [u8], gen: u64) {
        match self.run_at(lba).map(|(_, r)| r) {
            // The old ciphertext decrypted under the current key: it depends on both keys, so
            // each further crypto erase changes it again.
            Some(r) if r.gen != gen => {
                self.garbage(r.gen.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ gen, lba, out)
            }
            Some(Run {
                block: Block::Fill(f),
                ..
            }) => out.fill(*f),
            Some(Run {
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
    pub(crate) fn is_written(&self, lba: u64) -> bool {
        self.run_at(lba).is_some()
    }

    /// Writes one block under media key generation `gen`.
    pub fn write(&mut self, lba: u64, data: &[u8], gen: u64) {
        self.write_run(lba, 1, data, gen);
    }

    /// Writes `data` (one block) to each of the `n` blocks from `lba` under media key
    /// generation `gen`: one run, however long.
    pub(crate) fn write_run(&mut self, lba: u64, n: u64, data: &[u8], gen: u64) {
        let end = lba.saturating_add(n);
        if end == lba {
            return;
        }
        self.drop_pi(lba, end);
        let block = Block::of(data);
        if block == Block::Fill(0) && self.background == Background::Zero {
            self.cut(lba, end);
        } else {
            self.put(lba, end, block, gen);
        }
    }

    /// Removes every run's part inside `[a, b)`.
    fn cut(&mut self, a: u64, b: u64) {
        if a >= b {
            return;
        }
        // A run starting before `a` that reaches into the range: keep its head (and its tail
        // beyond `b`).
        if let Some((&s, r)) = self.runs.range_mut(..a).next_back() {
            let end = s.saturating_add(r.len);
            if end > a {
                r.len = a - s;
                if end > b {
                    let tail = Run {
                        len: end - b,
                        gen: r.gen,
                        block: r.block.clone(),
                    };
                    self.runs.insert(b, tail);
                    return;
                }
            }
        }
        // Runs starting inside the range.
        while let Some(s) = self.runs.range(a..b).next().map(|(s, _)| *s) {
            let Some(r) = self.runs.remove(&s) else {
                break;
            };
            let end = s.saturating_add(r.len);
            if end > b {
                self.runs.insert(b, Run { len: end - b, ..r });
                break;
            }
        }
    }

    /// Stores `block` in `[a, b)`, merged with equal neighbours.
    fn put(&mut self, a: u64, b: u64, block: Block, gen: u64) {
        self.cut(a, b);
        let run = Run {
            len: b - a,
            gen,
            block,
        };
        let left = self
            .runs
            .range(..a)
            .next_back()
            .filter(|(s, r)| s.saturating_add(r.len) == a && r.same(&run))
            .map(|(s, _)| *s);
        let right = self.runs.get(&b).filter(|r| r.same(&run)).map(|r| r.len);
        let mut len = run.len;
        if let Some(n) = right {
            self.runs.remove(&b);
            len += n;
        }
        match left.and_then(|s| self.runs.get_mut(&s)) {
            Some(l) => l.len += len,
            None => {
                self.runs.insert(a, Run { len, ..run });
            }
        }
    }

    /// Forgets host protection information in `[a, b)`.
    fn drop_pi(&mut self, a: u64, b: u64) {
        if self.pi.is_empty() {
            return;
        }
        let keys: Vec<u64> = self.pi.range(a..b).map(|(k, _)| *k).collect();
        for k in keys {
            self.pi.remove(&k);
        }
    }

    /// Deallocates `count` blocks from `lba` (UNMAP): they read as zeros (LBPRZ=1).
    pub fn unmap(&mut self, lba: u64, count: u64) {
        let end = lba.saturating_add(count);
        self.cut(lba, end);
        self.drop_pi(lba, end);
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
        self.cut(num_blocks, u64::MAX);
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
    pub(crate) fn set_pi(&mut self, lba: u64, pi: Option<[u8; 8]>) {
        match pi {
            Some(t) => {
                self.pi.insert(lba, t);
            }
            None => {
                self.pi.remove(&lba);
            }
        }
    }

    /// The ranges `[start, end)` inside `[lba, lba + count)` whose blocks hold written data
    /// or host protection information (the others read as the background, whose protection
    /// information is all FFh), in order and merged: as many as the store holds there, not
    /// one entry per block.
    pub(crate) fn written_ranges(&self, lba: u64, count: u64) -> Vec<(u64, u64)> {
        let end = lba.saturating_add(count);
        let mut v: Vec<(u64, u64)> = Vec::new();
        if end == lba {
            return v;
        }
        if let Some((s, r)) = self.run_at(lba) {
            v.push((lba, s.saturating_add(r.len).min(end)));
        }
        for (s, r) in self
            .runs
            .range((Bound::Excluded(lba), Bound::Excluded(end)))
        {
            v.push((*s, s.saturating_add(r.len).min(end)));
        }
        v.extend(self.pi.range(lba..end).map(|(k, _)| (*k, k + 1)));
        v.sort_unstable();
        let mut out: Vec<(u64, u64)> = Vec::with_capacity(v.len());
        for (a, b) in v {
            match out.last_mut() {
                Some(l) if a <= l.1 => l.1 = l.1.max(b),
                _ => out.push((a, b)),
            }
        }
        out
    }

    /// Whether block `lba` is mapped (holds data, or the background's old data) rather than
    /// deallocated (reads as zeros because nothing is stored for it).
    pub fn mapped(&self, lba: u64) -> bool {
        if self.is_written(lba) {
            return true;
        }
        self.background != Background::Zero
            && !self.zero_ranges.iter().any(|&(a, b)| lba >= a && lba < b)
    }

    /// The run of blocks from `lba` (before `end`) sharing `lba`'s mapped state, at most
    /// `max` long: (mapped, length).
    pub(crate) fn provisioning_run(&self, lba: u64, end: u64, max: u64) -> (bool, u64) {
        let mapped = self.mapped(lba);
        let limit = end.min(lba.saturating_add(max)).max(lba);
        if self.background == Background::Zero {
            // Only stored blocks are mapped: walk the runs.
            if mapped {
                let mut next = self
                    .run_at(lba)
                    .map_or(lba, |(s, r)| s.saturating_add(r.len));
                while next < limit {
                    match self.runs.get(&next) {
                        Some(r) => next = next.saturating_add(r.len),
                        None => break,
                    }
                }
                return (true, next.min(limit) - lba);
            }
            let next = self
                .runs
                .range(lba..limit)
                .next()
                .map_or(limit, |(s, _)| *s);
            return (false, next - lba);
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

    /// Runs split and merge where writes, unmaps and truncation cut them; reads, the mapped
    /// state and the state-file round trip follow a block-by-block model.
    mod model {
        use super::super::*;
        use proptest::prelude::*;
        use std::collections::BTreeMap;

        #[derive(Debug, Clone)]
        enum Op {
            Write(u64, u64, u8, bool, u64),
            Unmap(u64, u64),
            Truncate(u64),
        }

        const N: u64 = 64;

        fn op() -> impl Strategy<Value = Op> {
            prop_oneof![
                6 => (0..N, 1..20u64, 0..3u8, any::<bool>(), 0..2u64)
                    .prop_map(|(l, n, f, d, g)| Op::Write(l, n, f, d, g)),
                2 => (0..N, 1..20u64).prop_map(|(l, n)| Op::Unmap(l, n)),
                1 => (0..N).prop_map(Op::Truncate),
            ]
        }

        fn block(f: u8, data: bool) -> Vec<u8> {
            let mut b = vec![f; 8];
            if data {
                b[3] ^= 0x5A;
            }
            b
        }

        proptest! {
            #[test]
            fn runs_behave_like_blocks(ops in proptest::collection::vec(op(), 1..40)) {
                let mut s = Store::new(8, 3);
                let mut m: BTreeMap<u64, (Vec<u8>, u64)> = BTreeMap::new();
                for o in ops {
                    match o {
                        Op::Write(l, n, f, d, g) => {
                            let b = block(f, d);
                            if n == 1 {
                                s.write(l, &b, g);
                            } else {
                                s.write_run(l, n, &b, g);
                            }
                            for x in l..l + n {
                                if b.iter().all(|&y| y == 0) {
                                    m.remove(&x);
                                } else {
                                    m.insert(x, (b.clone(), g));
                                }
                            }
                        }
                        Op::Unmap(l, n) => {
                            s.unmap(l, n);
                            m.retain(|&x, _| x < l || x >= l + n);
                        }
                        Op::Truncate(n) => {
                            s.truncate(n);
                            m.retain(|&x, _| x < n);
                        }
                    }
                }
                let json = serde_json::to_string(&s).unwrap();
                let t: Store = serde_json::from_str(&json).unwrap();
                prop_assert!(t.stored_runs() <= s.stored_runs());
                prop_assert_eq!(s.stored_blocks(), m.len());
                for st in [&s, &t] {
                    for x in 0..2 * N {
                        let mut out = [0xEEu8; 8];
                        st.read_into(x, &mut out, 0);
                        let want = match m.get(&x) {
                            None => vec![0u8; 8],
                            Some((b, 0)) => b.clone(),
                            // Written under key `k`, read under key 0: the old ciphertext
                            // decrypted under the current key (`read_into`).
                            Some((_, k)) => {
                                let mut g = [0u8; 8];
                                st.garbage(k.wrapping_mul(0x9e37_79b9_7f4a_7c15), x, &mut g);
                                g.to_vec()
                            }
                        };
                        prop_assert_eq!(out.to_vec(), want, "lba {}", x);
                        prop_assert_eq!(st.mapped(x), m.contains_key(&x));
                    }
                    let (mapped, n) = st.provisioning_run(0, 2 * N, u64::MAX);
                    let same = (0..2 * N).take_while(|x| m.contains_key(x) == mapped).count();
                    prop_assert_eq!(n as usize, same);
                    prop_assert!(st.written_ranges(7, 0).is_empty());
                    prop_assert!(st.written_ranges(u64::MAX, 5).is_empty());
                    let ranges = st.written_ranges(5, 40);
                    let lbas: Vec<u64> = ranges.iter().flat_map(|&(a, b)| a..b).collect();
                    let want: Vec<u64> = m.range(5..45).map(|(k, _)| *k).collect();
                    prop_assert_eq!(lbas, want);
                }
            }
        }
    }

    /// A sequential fill of a full-size (800 GB) drive, 128 KiB per write with a different
    /// byte each time as `bench pts`'s WIPC writes it, keeps one run per write command (not
    /// one map entry per block: 2 × 1.56 G entries ran the host out of memory), and a second
    /// pass over the same blocks replaces them rather than adding any.
    #[test]
    fn a_sequential_fill_keeps_one_run_per_write() {
        let blocks_per_write = 256u64; // 128 KiB of 512-byte blocks
        let full = 1_562_824_368u64; // px02smf080: 800 GB / 512
        let mut s = Store::new(512, 1);
        let writes = 20_000u64;
        let stride = full / writes / blocks_per_write * blocks_per_write;
        for pass in 0..2u64 {
            for w in 0..writes {
                let lba = w * stride;
                for i in 0..stride / blocks_per_write {
                    let b = [((w + i + pass) % 250 + 1) as u8; 512];
                    if i % 64 == 0 {
                        s.write_run(lba + i * blocks_per_write, blocks_per_write, &b, 0);
                    }
                }
                let b = [((w + pass) % 250 + 1) as u8; 512];
                s.write_run(lba, stride, &b, 0);
            }
        }
        assert_eq!(s.stored_blocks() as u64, writes * stride);
        // Adjacent writes with equal bytes merge: at most one run per write of the pass.
        assert!(s.stored_runs() as u64 <= writes, "{}", s.stored_runs());
        // A 4 KiB overwrite in the middle of a run splits it into three.
        let before = s.stored_runs();
        s.write_run(stride / 2, 8, &[0xAB; 512], 0);
        assert_eq!(s.stored_runs(), before + 2);
        let mut out = [0u8; 512];
        s.read_into(stride / 2 + 7, &mut out, 0);
        assert_eq!(out, [0xAB; 512]);
        s.read_into(stride / 2 + 8, &mut out, 0);
        assert_eq!(out, [2; 512]);
    }
}
