//! Validation plans: which blocks are read back after a purge, so a reader of the record can
//! repeat the selection (NIST SP 800-88 Rev. 2 separates *verification* — the technique
//! completed — from *validation* — the data is gone; Rev. 1 §4.7 names "full" and "quick
//! sampling" reads; docs/records.md).
//!
//! - `quick` (the default): the first and the last block of every erased extent, plus one
//!   pseudo-random block in each of [`QUICK_SUBSECTIONS`] equal subsections of the erased
//!   blocks. The generator (xorshift64*) and its seed are recorded, so the same LBAs can be
//!   listed again from the record.
//! - `N` blocks (`--verify N` is the same): first, last, then N-2 pseudo-random blocks.
//! - `full`: the quick sample compared before and after, and every block in scope read back
//!   afterwards in large sequential reads (counted readable/unreadable; an OVERWRITE also
//!   compares each block with its pattern).
//! - `none`: nothing is read; the record says "not validated".

use crate::error::{Error, Result};
use serde::Serialize;

/// Subsections of the `quick` plan (one pseudo-random block in each).
pub const QUICK_SUBSECTIONS: u64 = 64;

/// How a purge is validated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Plan {
    /// Nothing read: "not validated".
    None,
    /// First/last of each extent plus one random block per subsection.
    #[default]
    Quick,
    /// First, last and N-2 random blocks.
    Blocks(u32),
    /// Quick sample compared, then every block read back.
    Full,
}

impl Plan {
    /// `quick`, `full`, `none` or a block count (`0` = `none`).
    pub fn parse(s: &str) -> Result<Plan> {
        match s.trim() {
            "quick" => Ok(Plan::Quick),
            "full" => Ok(Plan::Full),
            "none" => Ok(Plan::None),
            n => match n.parse::<u32>() {
                Ok(0) => Ok(Plan::None),
                Ok(k) => Ok(Plan::Blocks(k)),
                Err(_) => Err(Error::InvalidArgument(format!(
                    "--validate {s:?}: give quick, full, none or a number of blocks"
                ))),
            },
        }
    }

    /// The recorded name: `quick`, `blocks`, `full`, `none`.
    pub fn name(self) -> &'static str {
        match self {
            Plan::None => "none",
            Plan::Quick => "quick",
            Plan::Blocks(_) => "blocks",
            Plan::Full => "full",
        }
    }

    /// How the blocks are chosen, in words (recorded).
    pub fn describe(self) -> String {
        match self {
            Plan::None => {
                "not validated: no block was read back (asked for with --validate none)".into()
            }
            Plan::Quick | Plan::Full => format!(
                "first and last block of each erased extent, plus one pseudo-random block \
                 (xorshift64* from the recorded seed) in each of {QUICK_SUBSECTIONS} equal \
                 subsections of the erased blocks; each hashed (SHA-256) before and read after{}",
                if self == Plan::Full {
                    "; then every erased block read back in sequential reads"
                } else {
                    ""
                }
            ),
            Plan::Blocks(n) => format!(
                "{n} blocks: the first and last erased block, then pseudo-random blocks \
                 (xorshift64* from the recorded seed); each hashed (SHA-256) before and read after"
            ),
        }
    }
}

/// Environment variable fixing the validation seed (hex) for a reproducible run (a demo, a
/// test, repeating a recorded selection); unset: the clock picks it.
pub const SEED_ENV: &str = "SGCTL_VALIDATION_SEED";

/// The seed of a run: [`SEED_ENV`] when set to hex digits, else from the clock.
pub fn run_seed() -> u64 {
    std::env::var(SEED_ENV)
        .ok()
        .and_then(|s| u64::from_str_radix(s.trim().trim_start_matches("0x"), 16).ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::SystemTime::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(1)
        })
}

/// The next value of the xorshift64* generator.
fn next(x: &mut u64) -> u64 {
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    x.wrapping_mul(0x2545_f491_4f6c_dd1d)
}

/// The LBA at offset `k` of the blocks in `extents` (`(start, length)`, in order).
fn at(extents: &[(u64, u64)], mut k: u64) -> Option<u64> {
    for &(s, l) in extents {
        if k < l {
            return s.checked_add(k);
        }
        k -= l;
    }
    None
}

/// Blocks in `extents`.
pub fn total(extents: &[(u64, u64)]) -> u64 {
    extents.iter().fold(0u64, |a, e| a.saturating_add(e.1))
}

/// The LBAs `plan` samples in `extents` (`(start, length)`) with `seed`; deterministic.
pub fn lbas(plan: Plan, extents: &[(u64, u64)], seed: u64) -> Vec<u64> {
    let n = total(extents);
    let mut v: Vec<u64> = Vec::new();
    if n == 0 {
        return v;
    }
    let push = |v: &mut Vec<u64>, l: Option<u64>| {
        if let Some(l) = l {
            if !v.contains(&l) {
                v.push(l);
            }
        }
    };
    let mut x = seed | 1;
    match plan {
        Plan::None => {}
        Plan::Quick | Plan::Full => {
            for &(s, l) in extents.iter().filter(|e| e.1 > 0) {
                push(&mut v, Some(s));
                push(&mut v, s.checked_add(l - 1));
            }
            let sub = QUICK_SUBSECTIONS.min(n);
            for i in 0..sub {
                let (a, b) = (
                    n / sub * i,
                    if i + 1 == sub { n } else { n / sub * (i + 1) },
                );
                let k = a + next(&mut x) % (b - a).max(1);
                push(&mut v, at(extents, k));
            }
        }
        Plan::Blocks(k) => {
            let want = u64::from(k).min(n);
            push(&mut v, at(extents, 0));
            if want >= 2 {
                push(&mut v, at(extents, n - 1));
            }
            let mut tries = 0u64;
            while (v.len() as u64) < want && tries < 10 * want {
                tries += 1;
                let r = next(&mut x) % n;
                push(&mut v, at(extents, r));
            }
        }
    }
    v
}

/// What a read after the erase returns, per the drive (VPD B1h byte 7, SBC-4 6.6.2):
/// WABEREQ (block erase) or WACEREQ (crypto erase), in words.
pub(crate) fn read_after_erase(code: u8) -> String {
    match code & 3 {
        0 => "not specified by the drive (code 00b)".into(),
        1 => "reads of erased blocks complete with GOOD status (code 01b)".into(),
        2 => "reads of erased blocks fail until written (CHECK CONDITION; code 10b)".into(),
        c => format!("code {c:02b}b (see the drive's manual)"),
    }
}

/// The validation summary on the record: the plan, its coverage and its result.
#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq, Default)]
#[serde(default)]
pub struct Validation {
    /// `quick`, `blocks`, `full`, `none`.
    pub plan: String,
    /// How the blocks were chosen.
    pub description: String,
    /// The generator's seed (hex), so the LBAs can be listed again.
    pub seed: Option<String>,
    /// Subsections of a quick plan.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subsections: Option<u64>,
    /// Blocks in scope (the erased blocks).
    pub blocks_in_scope: Option<u64>,
    /// Blocks compared before and after.
    pub blocks_sampled: usize,
    /// Blocks read back after (sampled, or every block for `full`).
    pub blocks_read_after: u64,
    /// `blocks_read_after` as a percentage of the blocks in scope.
    pub coverage_percent: Option<f64>,
    /// A full read: blocks that could not be read after.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub full_read_unreadable: Option<u64>,
    /// A full read of an OVERWRITE: blocks that do not hold the pattern.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub full_read_not_pattern: Option<u64>,
    /// What the drive says reads return after this erase (WABEREQ/WACEREQ).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_after_erase: Option<String>,
    /// Protection information of the medium, and how reads treat it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protection_information: Option<String>,
    /// `passed`, `failed`, `inconclusive`, `not_validated` (plan `none`), or `not_run` (the
    /// job ended before the blocks were read back).
    pub result: String,
}

impl Validation {
    /// The summary of a plan about to run (result filled in later).
    pub fn planned(plan: Plan, seed: u64, in_scope: Option<u64>, sampled: usize) -> Validation {
        Validation {
            plan: plan.name().into(),
            description: plan.describe(),
            seed: (plan != Plan::None).then(|| format!("{seed:016x}")),
            subsections: matches!(plan, Plan::Quick | Plan::Full).then_some(QUICK_SUBSECTIONS),
            blocks_in_scope: in_scope,
            blocks_sampled: sampled,
            blocks_read_after: 0,
            coverage_percent: None,
            full_read_unreadable: None,
            full_read_not_pattern: None,
            read_after_erase: None,
            protection_information: None,
            result: if plan == Plan::None {
                "not_validated".into()
            } else {
                "not_run".into()
            },
        }
    }

    /// Sets `blocks_read_after` and the coverage from it.
    pub(crate) fn read_after(&mut self, n: u64) {
        self.blocks_read_after = n;
        self.coverage_percent = self
            .blocks_in_scope
            .filter(|t| *t > 0)
            .map(|t| n as f64 * 100.0 / t as f64);
    }
}

/// Reads every block of `extents` after the erase, `chunk` blocks at a time; counts blocks
/// that cannot be read and (with `pattern`) blocks that do not hold it. `progress` gets the
/// percentage done; `stop` ends the read early (Ctrl-C): `None` then.
pub(crate) fn full_read(
    t: &mut dyn crate::transport::Transport,
    extents: &[(u64, u64)],
    block_len: u32,
    pattern: Option<&[u8]>,
    progress: &mut dyn FnMut(Option<f64>),
    stop: &dyn Fn() -> bool,
) -> Option<(u64, u64, u64)> {
    use crate::scsi::read_write::Read16Cdb;
    use crate::transport::{DataBuf, DEFAULT_TIMEOUT};
    let bl = u64::from(block_len.max(1));
    let chunk = (1u64 << 20) / bl;
    let chunk = chunk.clamp(1, 2048);
    let all = total(extents);
    let (mut done, mut unreadable, mut not_pattern) = (0u64, 0u64, 0u64);
    let mut buf = vec![0u8; (chunk * bl) as usize];
    for &(s, l) in extents {
        let mut off = 0u64;
        while off < l {
            if stop() {
                return None;
            }
            let n = chunk.min(l - off);
            let b = &mut buf[..(n * bl) as usize];
            let ok = u32::try_from(n).ok().and_then(|n32| {
                let c = t
                    .execute(
                        &Read16Cdb::new(s + off, n32).build(),
                        DataBuf::In(b),
                        DEFAULT_TIMEOUT,
                    )
                    .ok()?;
                crate::transport::check(&c).ok()
            });
            match ok {
                Some(()) => {
                    if let Some(p) = pattern.filter(|p| !p.is_empty()) {
                        for blk in b.chunks(bl as usize) {
                            if !blk.iter().enumerate().all(|(i, x)| *x == p[i % p.len()]) {
                                not_pattern += 1;
                            }
                        }
                    }
                }
                None => unreadable += n,
            }
            off += n;
            done += n;
            if all > 0 {
                progress(Some(done as f64 * 100.0 / all as f64));
            }
        }
    }
    Some((done, unreadable, not_pattern))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_parse_and_sample_reproducibly() {
        assert_eq!(Plan::parse("quick").unwrap(), Plan::Quick);
        assert_eq!(Plan::parse("0").unwrap(), Plan::None);
        assert_eq!(Plan::parse("16").unwrap(), Plan::Blocks(16));
        assert!(Plan::parse("most").is_err());
        let ext = [(0u64, 1_000_000u64)];
        let a = lbas(Plan::Quick, &ext, 7);
        assert_eq!(a, lbas(Plan::Quick, &ext, 7), "same seed, same LBAs");
        assert!(a.contains(&0) && a.contains(&999_999));
        assert_eq!(a.len() as u64, QUICK_SUBSECTIONS + 2);
        // One block in each subsection.
        let w = 1_000_000 / QUICK_SUBSECTIONS;
        for i in 0..QUICK_SUBSECTIONS - 1 {
            assert!(
                a.iter().any(|l| *l >= i * w && *l < (i + 1) * w),
                "subsection {i}"
            );
        }
        assert_eq!(lbas(Plan::Blocks(16), &ext, 3).len(), 16);
        assert!(lbas(Plan::None, &ext, 3).is_empty());
        // Only inside the extents (a band).
        let band = [(1000u64, 50u64), (5000, 10)];
        let b = lbas(Plan::Quick, &band, 9);
        assert!(b
            .iter()
            .all(|l| (1000..1050).contains(l) || (5000..5010).contains(l)));
        assert!(b.contains(&1000) && b.contains(&1049) && b.contains(&5000) && b.contains(&5009));
        assert_eq!(lbas(Plan::Blocks(500), &band, 1).len(), 60);
    }
}
