//! The tests as data: SNIA PTS-E 1.1 / PTS 2.0 procedures (each test's
//! stimulus and rounds) and the published reviews' workloads. Nothing here does I/O;
//! [`super::runner`] turns a [`Stimulus`] into an engine workload.
//!
//! Durations are drive seconds at full scale. The runner multiplies them by the run's time
//! scale (a `capacity_gib`-scaled virtual drive, or `--time-scale`), so a scaled drive is
//! written the same number of times per round as the full-size one.

use serde::{Deserialize, Serialize};

/// KiB.
pub const K: u32 = 1024;

/// Access pattern of one stimulus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Access {
    /// Sequential (reads or writes per `read_pct`: 100 or 0).
    Sequential,
    /// Uniform random over the ActiveRange (or zoned, see [`Stimulus::zones`]).
    Random,
}

/// How long a stimulus runs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Amount {
    /// Drive seconds at full scale (scaled by the run's time scale).
    Seconds(f64),
    /// Multiples of the ActiveRange written (or read) — not time-scaled.
    Capacities(f64),
}

/// One workload the engine runs ("cell").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stimulus {
    /// Short label, unique within a round: `65/35-4k`, `wipc`, `tc32-qd8`.
    pub label: String,
    /// Sequential or random.
    pub access: Access,
    /// Read percentage (100 = all reads).
    pub read_pct: u8,
    /// Block sizes and weights (a single size is one entry).
    pub bs: Vec<(u32, u32)>,
    /// Threads (TC); `None` = the run's `--tc`.
    pub tc: Option<u32>,
    /// Queue depth per thread (QD); `None` = the run's `--qd`.
    pub qd: Option<u32>,
    /// How long.
    pub amount: Amount,
    /// Zoned access: (% of I/O, % of range) pairs (JESD219). Empty = uniform.
    pub zones: Vec<(f64, f64)>,
}

impl Stimulus {
    fn new(
        label: impl Into<String>,
        access: Access,
        read_pct: u8,
        bs: u32,
        amount: Amount,
    ) -> Self {
        Stimulus {
            label: label.into(),
            access,
            read_pct,
            bs: vec![(bs, 1)],
            tc: None,
            qd: None,
            amount,
            zones: Vec::new(),
        }
    }

    /// With a fixed TC/QD.
    pub fn at(mut self, tc: u32, qd: u32) -> Self {
        self.tc = Some(tc);
        self.qd = Some(qd);
        self
    }

    /// The one block size, if there is one.
    pub fn single_bs(&self) -> Option<u32> {
        (self.bs.len() == 1).then(|| self.bs[0].0)
    }

    /// True for a 100 % write.
    pub fn is_write_only(&self) -> bool {
        self.read_pct == 0
    }
}

/// "1024k", "4k", "0.5k".
pub(crate) fn bs_label(bs: u32) -> String {
    if bs.is_multiple_of(K) {
        format!("{}k", bs / K)
    } else {
        format!("{}k", f64::from(bs) / f64::from(K))
    }
}

/// One minute, the PTS unit of a cell.
pub(crate) const MINUTE: f64 = 60.0;

/// The PTS tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum TestId {
    /// IOPS: 7 R/W mixes × 8 block sizes.
    Iops,
    /// Throughput, 128 KiB and 1024 KiB sequential.
    Tp,
    /// Latency at TC1/QD1.
    Lat,
    /// Write saturation from FOB.
    Wsat,
    /// Host idle recovery.
    Hir,
    /// Cross-stimulus recovery.
    Xsr,
    /// Enterprise composite workload (JESD219).
    Ecw,
    /// Demand intensity / response-time histogram.
    Dirth,
}

impl TestId {
    /// All, in the order `--test all` runs them.
    pub const ALL: [TestId; 8] = [
        TestId::Iops,
        TestId::Tp,
        TestId::Lat,
        TestId::Wsat,
        TestId::Hir,
        TestId::Xsr,
        TestId::Ecw,
        TestId::Dirth,
    ];

    /// The `--test` name.
    pub fn name(self) -> &'static str {
        match self {
            TestId::Iops => "iops",
            TestId::Tp => "tp",
            TestId::Lat => "lat",
            TestId::Wsat => "wsat",
            TestId::Hir => "hir",
            TestId::Xsr => "xsr",
            TestId::Ecw => "ecw",
            TestId::Dirth => "dirth",
        }
    }

    /// Parses a `--test` name.
    pub fn parse(s: &str) -> Option<TestId> {
        TestId::ALL.into_iter().find(|t| t.name() == s)
    }
}

/// IOPS test R/W mixes, read percent (outer loop).
pub(crate) const IOPS_MIXES: [u8; 7] = [100, 95, 65, 50, 35, 5, 0];
/// IOPS test block sizes (inner loop).
pub(crate) const IOPS_BLOCK_SIZES: [u32; 8] =
    [1024 * K, 128 * K, 64 * K, 32 * K, 16 * K, 8 * K, 4 * K, 512];

/// The mix label of a read percentage: `65/35`.
pub(crate) fn mix_label(read_pct: u8) -> String {
    format!("{}/{}", read_pct, 100 - read_pct)
}

/// WIPC: 2 × capacity of sequential writes at `bs` (128 KiB, or the TP test's own size).
pub(crate) fn wipc(bs: u32) -> Stimulus {
    Stimulus::new("wipc", Access::Sequential, 0, bs, Amount::Capacities(2.0))
}

/// One IOPS round: 56 cells, 1 min each, outer loop mixes, inner loop block sizes.
pub(crate) fn iops_round() -> Vec<Stimulus> {
    let mut v = Vec::with_capacity(56);
    for mix in IOPS_MIXES {
        for bs in IOPS_BLOCK_SIZES {
            v.push(Stimulus::new(
                format!("{}-{}", mix_label(mix), bs_label(bs)),
                Access::Random,
                mix,
                bs,
                Amount::Seconds(MINUTE),
            ));
        }
    }
    v
}

/// The IOPS test's tracking cell: RND 4 KiB 100 % write.
pub(crate) const IOPS_TRACK: &str = "0/100-4k";

/// TP block sizes (PTS-E: each run separately; PTS-C only 1024 KiB).
pub(crate) const TP_BLOCK_SIZES: [u32; 2] = [128 * K, 1024 * K];

/// One TP round at `bs`: SEQ 100 % read 1 min, then SEQ 100 % write 1 min.
pub(crate) fn tp_round(bs: u32) -> Vec<Stimulus> {
    vec![
        Stimulus::new(
            format!("100/0-{}", bs_label(bs)),
            Access::Sequential,
            100,
            bs,
            Amount::Seconds(MINUTE),
        ),
        Stimulus::new(
            format!("0/100-{}", bs_label(bs)),
            Access::Sequential,
            0,
            bs,
            Amount::Seconds(MINUTE),
        ),
    ]
}

/// LAT block sizes and mixes (TC1/QD1).
pub(crate) const LAT_BLOCK_SIZES: [u32; 3] = [8 * K, 4 * K, 512];
/// LAT mixes.
pub(crate) const LAT_MIXES: [u8; 3] = [100, 65, 0];

/// One LAT round: 9 cells at TC1/QD1, 1 min each.
pub(crate) fn lat_round() -> Vec<Stimulus> {
    let mut v = Vec::new();
    for mix in LAT_MIXES {
        for bs in LAT_BLOCK_SIZES {
            v.push(
                Stimulus::new(
                    format!("{}-{}", mix_label(mix), bs_label(bs)),
                    Access::Random,
                    mix,
                    bs,
                    Amount::Seconds(MINUTE),
                )
                .at(1, 1),
            );
        }
    }
    v
}

/// LAT tracking cell (its mean response time, ART).
pub(crate) const LAT_TRACK: &str = "0/100-4k";

/// WSAT: one 1-minute sample of RND 4 KiB writes.
pub(crate) fn wsat_sample() -> Stimulus {
    Stimulus::new(
        "0/100-4k",
        Access::Random,
        0,
        4 * K,
        Amount::Seconds(MINUTE),
    )
}
/// WSAT stops at this many capacities written ...
pub(crate) const WSAT_CAPACITIES: f64 = 4.0;
/// ... or after this many drive seconds (24 h).
pub(crate) const WSAT_MAX_SECONDS: f64 = 24.0 * 3600.0;

/// HIR: steady-state preconditioning round of RND 4 KiB writes (1 min, tracked).
pub(crate) fn hir_precondition_round() -> Vec<Stimulus> {
    vec![wsat_sample()]
}
/// HIR wait states, seconds of idle after each 5-s write burst.
pub(crate) const HIR_WAITS: [f64; 5] = [5.0, 10.0, 15.0, 25.0, 50.0];
/// HIR bursts per wait state.
pub(crate) const HIR_SEGMENTS: u32 = 360;
/// HIR burst length, seconds.
pub(crate) const HIR_BURST: f64 = 5.0;
/// HIR return-to-baseline after each wait state: continuous RND 4 KiB W, seconds.
pub(crate) const HIR_BASELINE: f64 = 1800.0;

/// HIR burst stimulus.
pub(crate) fn hir_burst() -> Stimulus {
    Stimulus::new(
        "burst",
        Access::Random,
        0,
        4 * K,
        Amount::Seconds(HIR_BURST),
    )
}

/// XSR segments (TC1/QD32): SEQ 1024 KiB W 8 h → RND 8 KiB W 6 h → SEQ 1024 KiB W 8 h,
/// sampled each minute.
pub(crate) fn xsr_segments() -> Vec<(Stimulus, f64)> {
    let seq = |l: &str| {
        Stimulus::new(l, Access::Sequential, 0, 1024 * K, Amount::Seconds(MINUTE)).at(1, 32)
    };
    vec![
        (seq("seq-1024k-w-1"), 8.0 * 3600.0),
        (
            Stimulus::new(
                "rnd-8k-w",
                Access::Random,
                0,
                8 * K,
                Amount::Seconds(MINUTE),
            )
            .at(1, 32),
            6.0 * 3600.0,
        ),
        (seq("seq-1024k-w-2"), 8.0 * 3600.0),
    ]
}

/// TC values of the DIRTH/ECW sweep (outer loop).
pub(crate) const SWEEP_TC: [u32; 7] = [32, 16, 8, 6, 4, 2, 1];
/// QD values of the sweep (inner loop).
pub(crate) const SWEEP_QD: [u32; 7] = [32, 16, 8, 6, 4, 2, 1];
/// DIRTH/ECW: MaxIOPS is the highest-IOPS cell whose ART stays below this (µs).
pub(crate) const DIRTH_ART_LIMIT_US: f64 = 5000.0;
/// Pre-write before each sweep round, seconds (TC32/QD32).
pub(crate) const SWEEP_PREWRITE: f64 = 300.0;
/// Pre-write before each MaxIOPS/MidIOPS/MinIOPS capture, seconds.
pub(crate) const CAPTURE_PREWRITE: f64 = 3600.0;
/// Response-time histogram capture, seconds.
pub(crate) const CAPTURE_SECONDS: f64 = 600.0;

/// The JEDEC JESD219 enterprise block-size split (bytes, weight %).
pub(crate) const JESD219_BSSPLIT: [(u32, u32); 12] = [
    (512, 4),
    (1024, 1),
    (1536, 1),
    (2048, 1),
    (2560, 1),
    (3072, 1),
    (3584, 1),
    (4096, 67),
    (8192, 10),
    (16384, 7),
    (32768, 3),
    (65536, 3),
];
/// JESD219 access zones: 50 % of I/O to the first 5 % of LBAs, 30 % to the next 15 %,
/// 20 % to the remaining 80 %.
pub(crate) const JESD219_ZONES: [(f64, f64); 3] = [(50.0, 5.0), (30.0, 15.0), (20.0, 80.0)];

/// The sweep's base stimulus: DIRTH is RND 4 KiB 100 % W; ECW is the JESD219 mix (40/60).
pub(crate) fn sweep_base(test: TestId) -> Stimulus {
    match test {
        TestId::Ecw => Stimulus {
            label: "jesd219".into(),
            access: Access::Random,
            read_pct: 40,
            bs: JESD219_BSSPLIT.to_vec(),
            tc: None,
            qd: None,
            amount: Amount::Seconds(MINUTE),
            zones: JESD219_ZONES.to_vec(),
        },
        _ => Stimulus::new(
            "0/100-4k",
            Access::Random,
            0,
            4 * K,
            Amount::Seconds(MINUTE),
        ),
    }
}

/// One sweep round: a 5-min TC32/QD32 pre-write, then 49 TC × QD cells of 1 min.
pub(crate) fn sweep_round(test: TestId) -> Vec<Stimulus> {
    let base = sweep_base(test);
    let mut pre = base.clone().at(32, 32);
    pre.label = "prewrite".into();
    pre.amount = Amount::Seconds(SWEEP_PREWRITE);
    let mut v = vec![pre];
    for tc in SWEEP_TC {
        for qd in SWEEP_QD {
            let mut s = base.clone().at(tc, qd);
            s.label = format!("tc{tc}-qd{qd}");
            v.push(s);
        }
    }
    v
}

/// The sweep's tracking cell.
pub(crate) const SWEEP_TRACK: &str = "tc32-qd32";

/// Drops block sizes the drive cannot address (smaller than, or not a multiple of, its
/// logical block) from a split; returns the dropped sizes (a 4Kn drive cannot do JESD219's
/// sub-4K sizes: the report says so).
pub(crate) fn fit_split(bs: &[(u32, u32)], block_len: u32) -> (Vec<(u32, u32)>, Vec<u32>) {
    let bl = block_len.max(1);
    let (keep, drop): (Vec<_>, Vec<_>) = bs.iter().partition(|(b, _)| *b >= bl && b % bl == 0);
    (keep, drop.into_iter().map(|d| d.0).collect())
}

/// A server profile: name, read %, block-size split (bytes, weight).
pub(crate) type ServerProfile = (&'static str, u8, Vec<(u32, u32)>);

/// Review (The SSD Review / Tom's IT Pro) server profiles: (name, read %,
/// block-size split).
pub(crate) fn review_profiles() -> Vec<ServerProfile> {
    let file_server = vec![
        (512, 10),
        (1024, 5),
        (2048, 5),
        (4096, 60),
        (8192, 2),
        (16384, 4),
        (32768, 4),
        (65536, 10),
    ];
    // Web server: the file-server split plus 128K and 512K, 100 % read. The reviews give no
    // weights for the two extra sizes; 2 % each with 4K reduced to 56 keeps the sum at 100.
    let mut web = file_server.clone();
    web[3].1 = 56;
    web.push((128 * K, 2));
    web.push((512 * K, 2));
    vec![
        ("database", 67, vec![(8 * K, 1)]),
        ("email", 68, vec![(32 * K, 1)]),
        ("file_server", 80, file_server),
        ("web_server", 100, web),
    ]
}

/// Review QD sweep.
pub(crate) const REVIEW_QDS: [u32; 9] = [1, 2, 4, 8, 16, 32, 64, 128, 256];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iops_round_is_56_cells_in_pts_order() {
        let r = iops_round();
        assert_eq!(r.len(), 56);
        assert_eq!(r[0].label, "100/0-1024k");
        assert_eq!(r[7].label, "100/0-0.5k");
        assert_eq!(r[55].label, "0/100-0.5k");
        assert!(r.iter().any(|c| c.label == IOPS_TRACK));
        assert!(r.iter().all(|c| c.amount == Amount::Seconds(60.0)));
        let labels: std::collections::HashSet<_> = r.iter().map(|c| &c.label).collect();
        assert_eq!(labels.len(), 56);
    }

    #[test]
    fn sweep_round_is_prewrite_plus_49() {
        let r = sweep_round(TestId::Dirth);
        assert_eq!(r.len(), 50);
        assert_eq!(r[0].amount, Amount::Seconds(300.0));
        assert_eq!((r[0].tc, r[0].qd), (Some(32), Some(32)));
        // TC is the thread count and QD the depth per thread (the ADATA fork swapped them).
        let c = r.iter().find(|c| c.label == "tc2-qd16").unwrap();
        assert_eq!((c.tc, c.qd), (Some(2), Some(16)));
        let e = sweep_round(TestId::Ecw);
        assert_eq!(e[1].read_pct, 40);
        assert_eq!(e[1].bs.iter().map(|b| b.1).sum::<u32>(), 100);
        assert_eq!(e[1].zones.iter().map(|z| z.0).sum::<f64>(), 100.0);
        assert_eq!(e[1].zones.iter().map(|z| z.1).sum::<f64>(), 100.0);
    }

    #[test]
    fn lat_and_tp_rounds() {
        let l = lat_round();
        assert_eq!(l.len(), 9);
        assert!(l.iter().all(|c| c.tc == Some(1) && c.qd == Some(1)));
        assert!(l.iter().any(|c| c.label == LAT_TRACK));
        let t = tp_round(128 * K);
        assert_eq!(t.len(), 2);
        assert_eq!((t[0].read_pct, t[1].read_pct), (100, 0));
        assert!(t.iter().all(|c| c.access == Access::Sequential));
    }

    #[test]
    fn fit_split_drops_sub_block_sizes() {
        let (keep, drop) = fit_split(&JESD219_BSSPLIT, 4096);
        assert_eq!(drop, vec![512, 1024, 1536, 2048, 2560, 3072, 3584]);
        assert_eq!(keep.len(), 5);
        let (keep, drop) = fit_split(&JESD219_BSSPLIT, 512);
        assert!(drop.is_empty() && keep.len() == 12);
        // 520-byte sectors: only multiples of 520 can be addressed.
        let (keep, _) = fit_split(&[(520, 1), (4096, 1), (4160, 1)], 520);
        assert_eq!(keep, vec![(520, 1), (4160, 1)]);
    }

    #[test]
    fn review_profiles_sum_to_100() {
        for (name, _, split) in review_profiles() {
            let s: u32 = split.iter().map(|b| b.1).sum();
            assert!(split.len() == 1 || s == 100, "{name}: {s}");
        }
    }

    #[test]
    fn names_round_trip() {
        for t in TestId::ALL {
            assert_eq!(TestId::parse(t.name()), Some(t));
        }
        assert_eq!(TestId::parse("nope"), None);
        assert_eq!(bs_label(512), "0.5k");
        assert_eq!(bs_label(1024 * K), "1024k");
    }
}
