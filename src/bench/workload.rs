//! One benchmark workload (like one fio job) and the generator of its I/O stream.
//!
//! [`Workload`] is the plain description the CLI and the suites build; `IoGen` turns it into
//! a stream of [`IoReq`] for one job thread: direction from `--rw`/`--mix`, size from
//! `--bs`/`--bssplit`, offset from `--distribution` inside the ActiveRange (`--range`), aligned
//! to `--align` (default: the smallest block size, as fio's `blockalign`). Sequential streams
//! split the range between the jobs, so two jobs never write the same blocks.

use serde::{Deserialize, Serialize};
use std::time::Duration;

/// Access pattern (fio `rw=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rw {
    /// Sequential reads.
    Read,
    /// Sequential writes.
    Write,
    /// Random reads.
    RandRead,
    /// Random writes.
    RandWrite,
    /// Random reads and writes, `read_pct` percent reads.
    RandRw,
}

impl Rw {
    /// Parses the fio name (`read`, `write`, `randread`, `randwrite`, `randrw`).
    pub fn parse(s: &str) -> Result<Rw, String> {
        Ok(match s {
            "read" => Rw::Read,
            "write" => Rw::Write,
            "randread" => Rw::RandRead,
            "randwrite" => Rw::RandWrite,
            "randrw" | "rw" => Rw::RandRw,
            o => {
                return Err(format!(
                    "--rw {o}: expected read, write, randread, randwrite or randrw"
                ))
            }
        })
    }

    /// The fio name.
    pub fn name(self) -> &'static str {
        match self {
            Rw::Read => "read",
            Rw::Write => "write",
            Rw::RandRead => "randread",
            Rw::RandWrite => "randwrite",
            Rw::RandRw => "randrw",
        }
    }

    /// Random offsets (else sequential).
    pub(crate) fn is_random(self) -> bool {
        matches!(self, Rw::RandRead | Rw::RandWrite | Rw::RandRw)
    }

    /// Whether the workload may write (and so needs the safety gate).
    pub fn writes(self, read_pct: u8) -> bool {
        match self {
            Rw::Read | Rw::RandRead => false,
            Rw::Write | Rw::RandWrite => true,
            Rw::RandRw => read_pct < 100,
        }
    }
}

/// Block sizes with weights (fio `bssplit=4k/67:8k/10`); a single size is one entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockSplit(pub Vec<(u32 /*bytes*/, u32 /*weight*/)>);

impl BlockSplit {
    /// One block size.
    pub fn single(bytes: u32) -> BlockSplit {
        BlockSplit(vec![(bytes, 1)])
    }

    /// Parses `4k/67:8k/10:...` (weights need not add up to 100; a size without `/W` gets
    /// what is left of 100, shared equally, as in fio).
    pub fn parse(s: &str) -> Result<BlockSplit, String> {
        let mut v = Vec::new();
        let mut open = Vec::new();
        let mut sum = 0u32;
        for part in s.split(':').filter(|p| !p.is_empty()) {
            let (size, w) = match part.split_once('/') {
                Some((a, b)) => (a, Some(b)),
                None => (part, None),
            };
            let bytes = parse_size(size)
                .map_err(|e| format!("--bssplit {part}: {e}"))?
                .try_into()
                .map_err(|_| format!("--bssplit {part}: size too large"))?;
            match w {
                Some(w) => {
                    let w: u32 = w
                        .parse()
                        .map_err(|_| format!("--bssplit {part}: weight must be an integer"))?;
                    sum = sum.saturating_add(w);
                    if w > 0 {
                        v.push((bytes, w));
                    }
                }
                None => open.push(bytes),
            }
        }
        if !open.is_empty() {
            let left = 100u32.saturating_sub(sum);
            let each = (left / open.len() as u32).max(1);
            v.extend(open.into_iter().map(|b| (b, each)));
        }
        let b = BlockSplit(v);
        b.validate()?;
        Ok(b)
    }

    /// Checks sizes and weights.
    pub fn validate(&self) -> Result<(), String> {
        if self.0.is_empty() || self.0.iter().all(|&(_, w)| w == 0) {
            return Err("block size split is empty".into());
        }
        if self.0.iter().any(|&(b, _)| b == 0) {
            return Err("block size 0".into());
        }
        if self.max() > 32 << 20 {
            return Err("block size above 32 MiB".into());
        }
        Ok(())
    }

    /// Smallest size.
    pub fn min(&self) -> u32 {
        self.0.iter().map(|x| x.0).min().unwrap_or(0)
    }

    /// Largest size.
    pub fn max(&self) -> u32 {
        self.0.iter().map(|x| x.0).max().unwrap_or(0)
    }

    fn total_weight(&self) -> u64 {
        self.0.iter().map(|x| u64::from(x.1)).sum()
    }
}

/// Where in the range the offsets fall (fio `random_distribution=`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Distribution {
    /// Every aligned offset equally likely.
    Uniform,
    /// `(percent of I/O, percent of range)` zones in order from the start of the range.
    Zoned(Vec<(f64 /*% of I/O*/, f64 /*% of range*/)>),
    /// Zipf with exponent θ over the aligned offsets (hot blocks scattered over the range).
    Zipf(f64),
}

impl Distribution {
    /// Parses `uniform`, `zoned:50/5:30/15:20/80`, `zipf:1.2`.
    pub fn parse(s: &str) -> Result<Distribution, String> {
        if s == "uniform" || s == "random" {
            return Ok(Distribution::Uniform);
        }
        if let Some(t) = s.strip_prefix("zipf:") {
            let theta: f64 = t
                .parse()
                .map_err(|_| format!("--distribution {s}: θ must be a number"))?;
            if !(theta.is_finite() && theta > 0.0 && theta <= 10.0) {
                return Err(format!("--distribution {s}: θ must be in (0, 10]"));
            }
            return Ok(Distribution::Zipf(theta));
        }
        if let Some(z) = s.strip_prefix("zoned:") {
            let mut zones = Vec::new();
            for part in z.split(':') {
                let (a, b) = part
                    .split_once('/')
                    .ok_or_else(|| format!("--distribution zoned: '{part}' is not IO%/RANGE%"))?;
                let a: f64 = a
                    .parse()
                    .map_err(|_| format!("--distribution zoned: '{part}': not a number"))?;
                let b: f64 = b
                    .parse()
                    .map_err(|_| format!("--distribution zoned: '{part}': not a number"))?;
                zones.push((a, b));
            }
            let d = Distribution::Zoned(zones);
            d.validate()?;
            return Ok(d);
        }
        Err(format!(
            "--distribution {s}: expected uniform, zoned:IO%/RANGE%:... or zipf:THETA"
        ))
    }

    /// Checks zone percentages (each sum must be 100).
    pub fn validate(&self) -> Result<(), String> {
        if let Distribution::Zoned(z) = self {
            if z.is_empty() {
                return Err("--distribution zoned: no zones".into());
            }
            if z.iter()
                .any(|&(a, b)| !(a.is_finite() && b.is_finite() && a >= 0.0 && b > 0.0))
            {
                return Err("--distribution zoned: percentages must be ≥ 0 (range > 0)".into());
            }
            let io: f64 = z.iter().map(|x| x.0).sum();
            let range: f64 = z.iter().map(|x| x.1).sum();
            if (io - 100.0).abs() > 0.01 || (range - 100.0).abs() > 0.01 {
                return Err(format!(
                    "--distribution zoned: I/O percentages add up to {io}, range percentages to \
                     {range}; both must be 100"
                ));
            }
        }
        Ok(())
    }
}

/// When a run stops (after the ramp).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Limit {
    /// Measure for this long.
    Runtime(#[serde(with = "secs")] Duration),
    /// Transfer this many bytes in total (all jobs).
    Bytes(u64),
}

/// The ActiveRange resolved to bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Range {
    /// First byte.
    pub offset_bytes: u64,
    /// Length in bytes.
    pub len_bytes: u64,
}

/// What the `--range` option said, before the capacity is known.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum RangeSpec {
    /// Percent of capacity from the start (PTS ActiveRange).
    Percent(f64),
    /// Offset and length in bytes.
    Bytes(Range),
}

impl RangeSpec {
    /// Parses `50%`, `OFFSET:LEN` (sizes with k/m/g/t suffixes) or `LEN`.
    pub fn parse(s: &str) -> Result<RangeSpec, String> {
        if let Some(p) = s.strip_suffix('%') {
            let p: f64 = p
                .parse()
                .map_err(|_| format!("--range {s}: not a percentage"))?;
            if !(p > 0.0 && p <= 100.0) {
                return Err(format!("--range {s}: percent must be in (0, 100]"));
            }
            return Ok(RangeSpec::Percent(p));
        }
        let (o, l) = match s.split_once(':') {
            Some((o, l)) => (parse_size(o)?, parse_size(l)?),
            None => (0, parse_size(s)?),
        };
        if l == 0 {
            return Err(format!("--range {s}: length 0"));
        }
        Ok(RangeSpec::Bytes(Range {
            offset_bytes: o,
            len_bytes: l,
        }))
    }

    /// Resolves against a capacity, rounding to whole `block` units.
    pub fn resolve(&self, capacity: u64, block: u32) -> Result<Range, String> {
        let b = u64::from(block.max(1));
        let r = match *self {
            RangeSpec::Percent(p) => Range {
                offset_bytes: 0,
                len_bytes: ((capacity as f64 * p / 100.0) as u64) / b * b,
            },
            RangeSpec::Bytes(r) => r,
        };
        if r.offset_bytes % b != 0 || r.len_bytes % b != 0 {
            return Err(format!(
                "--range: offset and length must be multiples of the {b}-byte logical block"
            ));
        }
        if r.offset_bytes
            .checked_add(r.len_bytes)
            .is_none_or(|e| e > capacity)
        {
            return Err(format!(
                "--range {}+{} runs past the end of the device ({capacity} bytes)",
                r.offset_bytes, r.len_bytes
            ));
        }
        Ok(r)
    }
}

/// Data written (fio `buffer_pattern`, default random).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DataPattern {
    /// Incompressible random data, scrambled per I/O (drives may compress or dedupe).
    Random,
    /// Every byte zero.
    Zeros,
    /// A repeated byte pattern.
    Bytes(Vec<u8>),
}

/// One benchmark workload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Workload {
    /// Access pattern.
    pub rw: Rw,
    /// Read percent for `randrw` (100 for reads, 0 for writes).
    pub read_pct: u8,
    /// Block sizes.
    pub bs: BlockSplit,
    /// Outstanding I/Os per job.
    pub qd: u32,
    /// Job threads (total outstanding = jobs × qd).
    pub jobs: u32,
    /// When to stop.
    pub limit: Limit,
    /// Warm-up before measuring (not counted).
    #[serde(with = "secs")]
    pub ramp: Duration,
    /// ActiveRange (None: the whole device).
    pub range: Option<Range>,
    /// Offset distribution (random patterns).
    pub distribution: Distribution,
    /// Offset alignment in bytes (None: the smallest block size).
    pub align: Option<u32>,
    /// Each written block carries LBA, sequence number and checksum; reads check them.
    pub verify: bool,
    /// Time-series interval.
    #[serde(with = "secs")]
    pub log_interval: Duration,
    /// Write data.
    pub pattern: DataPattern,
    /// Random seed (runs with the same seed issue the same offsets).
    pub seed: u64,
    /// io_uring: poll for completions (IORING_SETUP_IOPOLL).
    pub iopoll: bool,
    /// io_uring: kernel submission thread (IORING_SETUP_SQPOLL).
    pub sqpoll: bool,
    /// io_uring: queued I/Os submitted per `io_uring_enter` (fio's `iodepth_batch_submit`;
    /// 1, the default, submits each I/O with a call of its own).
    #[serde(default = "one")]
    pub submit_batch: u32,
    /// Count I/O errors and keep going instead of stopping the run at the first.
    pub continue_on_error: bool,
}

impl Default for Workload {
    fn default() -> Self {
        Workload {
            rw: Rw::RandRead,
            read_pct: 100,
            bs: BlockSplit::single(4096),
            qd: 1,
            jobs: 1,
            limit: Limit::Runtime(Duration::from_secs(10)),
            ramp: Duration::ZERO,
            range: None,
            distribution: Distribution::Uniform,
            align: None,
            verify: false,
            log_interval: Duration::from_secs(1),
            pattern: DataPattern::Random,
            seed: 0x5eed,
            iopoll: false,
            sqpoll: false,
            submit_batch: 1,
            continue_on_error: false,
        }
    }
}

fn one() -> u32 {
    1
}

impl Workload {
    /// Effective read percent from `rw` and `read_pct`.
    pub(crate) fn effective_read_pct(&self) -> u8 {
        match self.rw {
            Rw::Read | Rw::RandRead => 100,
            Rw::Write | Rw::RandWrite => 0,
            Rw::RandRw => self.read_pct.min(100),
        }
    }

    /// Whether the workload writes.
    pub fn writes(&self) -> bool {
        self.rw.writes(self.read_pct)
    }

    /// Checks the workload against a device of `capacity` bytes with `block`-byte logical
    /// blocks; returns the resolved range. Errors are one line for the user (exit 2).
    pub fn check(&self, capacity: u64, block: u32) -> Result<Range, String> {
        self.bs.validate()?;
        self.distribution.validate()?;
        if self.qd == 0 || self.qd > 4096 {
            return Err("--qd must be in 1..=4096".into());
        }
        if self.jobs == 0 || self.jobs > 256 {
            return Err("--jobs must be in 1..=256".into());
        }
        if self.read_pct > 100 {
            return Err("--mix must be in 0..=100".into());
        }
        if self.log_interval < Duration::from_millis(10) {
            return Err("--log-interval must be at least 10ms".into());
        }
        let b = block.max(1);
        for &(s, _) in &self.bs.0 {
            if s % b != 0 {
                return Err(format!(
                    "block size {s} is not a multiple of the device's {b}-byte logical block"
                ));
            }
        }
        let align = self.align.unwrap_or(self.bs.min());
        if align == 0 || !align.is_multiple_of(b) {
            return Err(format!(
                "--align {align} is not a multiple of the device's {b}-byte logical block"
            ));
        }
        let range = self.range.unwrap_or(Range {
            offset_bytes: 0,
            len_bytes: capacity / u64::from(b) * u64::from(b),
        });
        if !range.offset_bytes.is_multiple_of(u64::from(b))
            || !range.len_bytes.is_multiple_of(u64::from(b))
        {
            return Err("--range must be a multiple of the logical block".into());
        }
        if range
            .offset_bytes
            .checked_add(range.len_bytes)
            .is_none_or(|e| e > capacity)
        {
            return Err(format!(
                "--range ends past the device's capacity of {capacity} bytes"
            ));
        }
        if range.len_bytes < u64::from(self.bs.max()) * u64::from(self.jobs) {
            return Err(format!(
                "--range of {} bytes is smaller than the largest block size times --jobs",
                range.len_bytes
            ));
        }
        if let Limit::Bytes(0) = self.limit {
            return Err("--bytes must be > 0".into());
        }
        if let Limit::Runtime(d) = self.limit {
            if d.is_zero() {
                return Err("--runtime must be > 0".into());
            }
        }
        Ok(range)
    }
}

/// Durations in JSON as seconds (a float).
mod secs {
    use serde::{Deserialize, Deserializer, Serializer};
    use std::time::Duration;

    pub(super) fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(d.as_secs_f64())
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        let v = f64::deserialize(d)?;
        Duration::try_from_secs_f64(v).map_err(serde::de::Error::custom)
    }
}

/// Parses `4096`, `4k`, `4KiB`, `1m`, `2g`, `1t` (binary multiples, as fio).
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let lower = t.to_ascii_lowercase();
    let lower = lower
        .strip_suffix("ib")
        .or_else(|| lower.strip_suffix('b'))
        .unwrap_or(&lower)
        .to_string();
    let (num, mul) = match lower.chars().last() {
        Some('k') => (&lower[..lower.len() - 1], 1u64 << 10),
        Some('m') => (&lower[..lower.len() - 1], 1 << 20),
        Some('g') => (&lower[..lower.len() - 1], 1 << 30),
        Some('t') => (&lower[..lower.len() - 1], 1 << 40),
        _ => (&lower[..], 1),
    };
    let n: u64 = num
        .parse()
        .map_err(|_| format!("'{s}' is not a size (e.g. 4096, 4k, 1m)"))?;
    n.checked_mul(mul)
        .ok_or_else(|| format!("'{s}' is too large"))
}

/// SplitMix64: small, fast, deterministic per seed.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// Next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// Uniform in [0, 1).
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// One I/O to issue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IoReq {
    /// Write (else read).
    pub write: bool,
    /// Byte offset on the device.
    pub offset: u64,
    /// Length in bytes.
    pub len: u32,
}

/// Zipf sampler over ranks 1..=n by rejection-inversion (Hörmann and Derflinger 1996): O(1)
/// set-up and O(1) expected time per sample, whatever n (the zeta sum of YCSB's generator is
/// O(n), too slow for a drive's block count).
#[derive(Debug, Clone)]
struct Zipf {
    n: f64,
    s: f64,
    h_x1: f64,
    h_n: f64,
    cut: f64,
}

impl Zipf {
    fn new(n: u64, s: f64) -> Zipf {
        let mut z = Zipf {
            n: n as f64,
            s,
            h_x1: 0.0,
            h_n: 0.0,
            cut: 0.0,
        };
        z.h_x1 = z.h_int(1.5) - 1.0;
        z.h_n = z.h_int(z.n + 0.5);
        z.cut = 2.0 - z.h_inv(z.h_int(2.5) - z.h(2.0));
        z
    }

    /// x^-s
    fn h(&self, x: f64) -> f64 {
        (-self.s * x.ln()).exp()
    }

    /// Integral of h: (x^(1-s) - 1)/(1-s), with the s → 1 limit ln x.
    fn h_int(&self, x: f64) -> f64 {
        let lx = x.ln();
        helper2((1.0 - self.s) * lx) * lx
    }

    fn h_inv(&self, x: f64) -> f64 {
        let mut t = x * (1.0 - self.s);
        if t < -1.0 {
            t = -1.0; // numerical guard
        }
        (helper1(t) * x).exp()
    }

    /// A rank in 1..=n.
    fn sample(&self, rng: &mut Rng) -> u64 {
        loop {
            let u = self.h_n + rng.unit() * (self.h_x1 - self.h_n);
            let x = self.h_inv(u);
            let mut k = (x + 0.5).floor();
            if k < 1.0 {
                k = 1.0;
            } else if k > self.n {
                k = self.n;
            }
            if k - x <= self.cut || u >= self.h_int(k + 0.5) - self.h(k) {
                return k as u64;
            }
        }
    }
}

/// log(1+x)/x, stable near 0.
fn helper1(x: f64) -> f64 {
    if x.abs() > 1e-8 {
        x.ln_1p() / x
    } else {
        1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x))
    }
}

/// (exp(x)-1)/x, stable near 0.
fn helper2(x: f64) -> f64 {
    if x.abs() > 1e-8 {
        x.exp_m1() / x
    } else {
        1.0 + x * 0.5 * (1.0 + x * (1.0 / 3.0) * (1.0 + 0.25 * x))
    }
}

/// Offset chooser of one job.
#[derive(Debug, Clone)]
enum Picker {
    Seq {
        next: u64,
        start: u64,
        end: u64,
    },
    Uniform,
    Zoned(
        Vec<(
            f64, /*cumulative io fraction*/
            f64, /*start*/
            f64, /*end*/
        )>,
    ),
    Zipf {
        z: Zipf,
        mult: u64,
    },
}

/// The I/O stream of one job.
#[derive(Debug, Clone)]
pub(crate) struct IoGen {
    rng: Rng,
    read_pct: u8,
    sizes: Vec<(u32, u64 /*cumulative weight*/)>,
    total_weight: u64,
    range: Range,
    align: u64,
    picker: Picker,
}

impl IoGen {
    /// The generator of job `job` (0-based) of `w` over `range` (already checked with
    /// [`Workload::check`]).
    pub(crate) fn new(w: &Workload, range: Range, job: u32) -> IoGen {
        let mut acc = 0;
        let sizes =
            w.bs.0
                .iter()
                .filter(|x| x.1 > 0)
                .map(|&(b, wt)| {
                    acc += u64::from(wt);
                    (b, acc)
                })
                .collect();
        let align = u64::from(w.align.unwrap_or(w.bs.min()).max(1));
        // Aligned start positions a block of the largest size still fits behind.
        let slots = ((range.len_bytes - u64::from(w.bs.max())) / align + 1).max(1);
        let picker = if !w.rw.is_random() {
            let jobs = u64::from(w.jobs.max(1));
            let per = range.len_bytes / jobs / align * align;
            let start = range.offset_bytes + per * u64::from(job);
            Picker::Seq {
                next: start,
                start,
                end: if u64::from(job) + 1 == jobs {
                    range.offset_bytes + range.len_bytes
                } else {
                    start + per
                },
            }
        } else {
            match &w.distribution {
                Distribution::Uniform => Picker::Uniform,
                Distribution::Zoned(z) => {
                    let mut cum = 0.0;
                    let mut pos = 0.0;
                    let mut v = Vec::new();
                    for &(io, r) in z {
                        cum += io / 100.0;
                        let end = pos + r / 100.0;
                        v.push((cum, pos, end.min(1.0)));
                        pos = end;
                    }
                    Picker::Zoned(v)
                }
                Distribution::Zipf(theta) => {
                    // Hot ranks are spread over the range by a multiplicative permutation
                    // (an odd prime not dividing the slot count is a bijection mod slots).
                    let mut mult = 0x9E37_79B1u64 % slots.max(2);
                    while mult < 2 || gcd(mult, slots) != 1 {
                        mult += 1;
                    }
                    Picker::Zipf {
                        z: Zipf::new(slots, *theta),
                        mult,
                    }
                }
            }
        };
        IoGen {
            rng: Rng::new(w.seed ^ (u64::from(job) + 1).wrapping_mul(0xD1B5_4A32_D192_ED03)),
            read_pct: w.effective_read_pct(),
            total_weight: w.bs.total_weight().max(1),
            sizes,
            range,
            align,
            picker,
        }
    }

    fn pick_size(&mut self) -> u32 {
        if self.sizes.len() == 1 {
            return self.sizes[0].0;
        }
        let x = self.rng.below(self.total_weight);
        self.sizes
            .iter()
            .find(|&&(_, c)| x < c)
            .map_or(self.sizes[self.sizes.len() - 1].0, |s| s.0)
    }

    /// The next I/O.
    pub(crate) fn next_io(&mut self) -> IoReq {
        let write = match self.read_pct {
            100 => false,
            0 => true,
            p => self.rng.below(100) >= u64::from(p),
        };
        let len = self.pick_size();
        let len64 = u64::from(len);
        let r = self.range;
        let align = self.align;
        // Aligned slots in which a block of this size fits.
        let slots = |lo: u64, hi: u64| -> (u64, u64) {
            let first = lo.div_ceil(align) * align;
            let last_start = hi.saturating_sub(len64);
            if last_start < first {
                (first.min(r.offset_bytes + r.len_bytes - len64), 1)
            } else {
                (first, (last_start - first) / align + 1)
            }
        };
        let offset = match &mut self.picker {
            Picker::Seq { next, start, end } => {
                if *next + len64 > *end {
                    *next = *start;
                }
                let o = *next;
                *next += len64;
                o
            }
            Picker::Uniform => {
                let (first, n) = slots(r.offset_bytes, r.offset_bytes + r.len_bytes);
                first + self.rng.below(n) * align
            }
            Picker::Zoned(z) => {
                let u = self.rng.unit();
                let &(_, a, b) = z.iter().find(|x| u < x.0).unwrap_or(&z[z.len() - 1]);
                let lo = r.offset_bytes + (r.len_bytes as f64 * a) as u64;
                let hi = r.offset_bytes + (r.len_bytes as f64 * b) as u64;
                let (first, n) = slots(lo, hi.max(lo + len64));
                first + self.rng.below(n) * align
            }
            Picker::Zipf { z, mult } => {
                let (first, n) = slots(r.offset_bytes, r.offset_bytes + r.len_bytes);
                let rank = z.sample(&mut self.rng) - 1;
                let slot = ((u128::from(rank) * u128::from(*mult)) % u128::from(n.max(1))) as u64;
                first + slot.min(n - 1) * align
            }
        };
        IoReq { write, offset, len }
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(rw: Rw) -> Workload {
        Workload {
            rw,
            ..Workload::default()
        }
    }

    const CAP: u64 = 1 << 30;

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("4k"), Ok(4096));
        assert_eq!(parse_size("4KiB"), Ok(4096));
        assert_eq!(parse_size("520"), Ok(520));
        assert_eq!(parse_size("1m"), Ok(1 << 20));
        assert!(parse_size("4q").is_err());
        assert!(parse_size("").is_err());
    }

    #[test]
    fn bssplit_parses_and_converges() {
        let b = BlockSplit::parse("4k/67:8k/10:16k/23").unwrap();
        assert_eq!(b.0, vec![(4096, 67), (8192, 10), (16384, 23)]);
        let wl = Workload {
            bs: b,
            ..w(Rw::RandRead)
        };
        let range = wl.check(CAP, 512).unwrap();
        let mut g = IoGen::new(&wl, range, 0);
        let n = 200_000;
        let mut c = [0u32; 3];
        for _ in 0..n {
            match g.next_io().len {
                4096 => c[0] += 1,
                8192 => c[1] += 1,
                16384 => c[2] += 1,
                o => panic!("size {o}"),
            }
        }
        for (got, want) in c.iter().zip([0.67, 0.10, 0.23]) {
            let f = f64::from(*got) / f64::from(n);
            assert!((f - want).abs() < 0.005, "{f} vs {want}");
        }
        assert!(BlockSplit::parse("4k/x").is_err());
        assert!(BlockSplit::parse("").is_err());
        // Sizes without weights share what is left of 100.
        assert_eq!(
            BlockSplit::parse("4k/50:8k:16k").unwrap().0,
            vec![(4096, 50), (8192, 25), (16384, 25)]
        );
    }

    #[test]
    fn mix_converges() {
        let wl = Workload {
            rw: Rw::RandRw,
            read_pct: 70,
            ..Workload::default()
        };
        let range = wl.check(CAP, 512).unwrap();
        let mut g = IoGen::new(&wl, range, 0);
        let n = 100_000;
        let reads = (0..n).filter(|_| !g.next_io().write).count();
        let f = reads as f64 / f64::from(n);
        assert!((f - 0.70).abs() < 0.01, "{f}");
        let mut g = IoGen::new(&w(Rw::RandWrite), range, 0);
        assert!((0..1000).all(|_| g.next_io().write));
    }

    #[test]
    fn zoned_converges_and_range_respected() {
        let wl = Workload {
            distribution: Distribution::parse("zoned:50/5:30/15:20/80").unwrap(),
            range: Some(Range {
                offset_bytes: 1 << 20,
                len_bytes: 100 << 20,
            }),
            ..w(Rw::RandWrite)
        };
        let range = wl.check(CAP, 512).unwrap();
        let mut g = IoGen::new(&wl, range, 0);
        let n = 200_000;
        let mut zone = [0u32; 3];
        for _ in 0..n {
            let io = g.next_io();
            assert!(io.offset >= 1 << 20 && io.offset + u64::from(io.len) <= 101 << 20);
            assert_eq!(io.offset % 4096, 0);
            let rel = (io.offset - (1 << 20)) as f64 / (100u64 << 20) as f64;
            zone[if rel < 0.05 {
                0
            } else if rel < 0.20 {
                1
            } else {
                2
            }] += 1;
        }
        for (got, want) in zone.iter().zip([0.5, 0.3, 0.2]) {
            let f = f64::from(*got) / f64::from(n);
            assert!((f - want).abs() < 0.01, "{f} vs {want}");
        }
        assert!(Distribution::parse("zoned:50/5:30/15").is_err());
        assert!(Distribution::parse("zoned:50/5:50").is_err());
    }

    #[test]
    fn uniform_covers_range_evenly() {
        let wl = Workload {
            range: Some(Range {
                offset_bytes: 0,
                len_bytes: 64 << 20,
            }),
            ..w(Rw::RandRead)
        };
        let range = wl.check(CAP, 512).unwrap();
        let mut g = IoGen::new(&wl, range, 0);
        let mut buckets = [0u32; 16];
        let n = 160_000;
        for _ in 0..n {
            let io = g.next_io();
            assert!(io.offset + 4096 <= 64 << 20);
            buckets[(io.offset / (4 << 20)) as usize] += 1;
        }
        for b in buckets {
            assert!((f64::from(b) / 10_000.0 - 1.0).abs() < 0.05, "{b}");
        }
    }

    #[test]
    fn zipf_is_skewed_and_in_range() {
        let wl = Workload {
            distribution: Distribution::Zipf(1.2),
            range: Some(Range {
                offset_bytes: 0,
                len_bytes: 4096 * 10_000,
            }),
            ..w(Rw::RandRead)
        };
        let range = wl.check(CAP, 512).unwrap();
        let mut g = IoGen::new(&wl, range, 0);
        let mut counts = std::collections::HashMap::new();
        let n = 100_000;
        for _ in 0..n {
            let io = g.next_io();
            assert!(io.offset + 4096 <= 4096 * 10_000);
            *counts.entry(io.offset).or_insert(0u32) += 1;
        }
        let mut v: Vec<u32> = counts.into_values().collect();
        v.sort_unstable_by(|a, b| b.cmp(a));
        // Zipf(1.2) over 10^4 ranks: P(rank 1) = 1/H ≈ 1/4.0 ≈ 0.25 (H = Σ k^-1.2 ≈ 4.01).
        let h: f64 = (1..=10_000).map(|k| (k as f64).powf(-1.2)).sum();
        let p1 = f64::from(v[0]) / f64::from(n);
        assert!((p1 - 1.0 / h).abs() < 0.01, "{p1} vs {}", 1.0 / h);
        let p2 = f64::from(v[1]) / f64::from(n);
        assert!((p2 - 2f64.powf(-1.2) / h).abs() < 0.01, "{p2}");
    }

    #[test]
    fn alignment_and_block_multiples() {
        let wl = Workload {
            bs: BlockSplit::single(8192),
            align: Some(4096),
            ..w(Rw::RandRead)
        };
        let range = wl.check(CAP, 512).unwrap();
        let mut g = IoGen::new(&wl, range, 0);
        let mut odd = false;
        for _ in 0..10_000 {
            let io = g.next_io();
            assert_eq!(io.offset % 4096, 0);
            odd |= !io.offset.is_multiple_of(8192);
        }
        assert!(
            odd,
            "4 KiB alignment of 8 KiB blocks reaches odd 4 KiB slots"
        );
        // 520-byte logical blocks: sizes and alignment in whole blocks.
        let wl = Workload {
            bs: BlockSplit::single(520 * 8),
            ..w(Rw::RandRead)
        };
        let range = wl.check(520 * 100_000, 520).unwrap();
        let mut g = IoGen::new(&wl, range, 0);
        for _ in 0..1000 {
            assert_eq!(g.next_io().offset % (520 * 8), 0);
        }
        assert!(Workload {
            bs: BlockSplit::single(4096),
            ..w(Rw::RandRead)
        }
        .check(520 * 100_000, 520)
        .is_err());
    }

    #[test]
    fn sequential_jobs_split_the_range() {
        let wl = Workload {
            rw: Rw::Write,
            jobs: 2,
            range: Some(Range {
                offset_bytes: 0,
                len_bytes: 1 << 20,
            }),
            ..Workload::default()
        };
        let range = wl.check(CAP, 512).unwrap();
        let mut a = IoGen::new(&wl, range, 0);
        let mut b = IoGen::new(&wl, range, 1);
        let first: Vec<u64> = (0..3).map(|_| a.next_io().offset).collect();
        assert_eq!(first, vec![0, 4096, 8192]);
        assert_eq!(b.next_io().offset, 512 << 10);
        // Wraps at the end of its half.
        for _ in 3..128 {
            assert!(a.next_io().offset < 512 << 10);
        }
        assert_eq!(a.next_io().offset, 0);
    }

    #[test]
    fn range_spec() {
        assert_eq!(
            RangeSpec::parse("50%").unwrap().resolve(1 << 20, 512),
            Ok(Range {
                offset_bytes: 0,
                len_bytes: 512 << 10
            })
        );
        assert_eq!(
            RangeSpec::parse("1m:2m").unwrap().resolve(4 << 20, 512),
            Ok(Range {
                offset_bytes: 1 << 20,
                len_bytes: 2 << 20
            })
        );
        assert!(RangeSpec::parse("3m:2m")
            .unwrap()
            .resolve(4 << 20, 512)
            .is_err());
        assert!(RangeSpec::parse("0%").is_err());
        assert!(RangeSpec::parse("100")
            .unwrap()
            .resolve(4 << 20, 512)
            .is_err());
    }
}
