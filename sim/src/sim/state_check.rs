//! The checks a state file passes before it becomes a drive. The file is JSON anyone with
//! access to it may have edited: every number is checked against the profile and the drive's
//! own geometry (in range, consistent with the others), and every problem found is listed in
//! one error. Nothing the file merely claims is allocated or iterated: the store keeps runs
//! (see [`crate::sim::store`]), counts that drive work (queued erase passes, overwrite passes,
//! TCG bands) are capped, and clock values stay far enough below `u64::MAX` that the drive's
//! clock arithmetic never saturates in use.

use crate::sim::drive::{Drive, LongOp, STATE_VERSION};
use crate::sim::profile::Profile;
use crate::sim::store::Problems;
use crate::sim::tcg::tper::MAX_RANGES;

/// Largest user capacity of a virtual drive, bytes (1 PiB, as `capacity_gib=` allows).
pub(crate) const MAX_CAPACITY_BYTES: u64 = 1 << 50;
/// Latest drive clock a state file may hold, ns (2^62 ns ≈ 146 years of power-on time): the
/// clock then has more than 400 years to go before `u64::MAX`, so adding service times,
/// long-operation durations or a benchmark's run to it never saturates.
pub(crate) const MAX_CLOCK_NS: u64 = 1 << 62;
/// Longest long operation (FORMAT UNIT, SANITIZE, self-test) a state file may hold, ns (a
/// year).
pub(crate) const MAX_OP_NS: u64 = 365 * 24 * 3600 * 1_000_000_000;
/// Media operations a state file may queue (each erases the whole flash model once).
pub(crate) const MAX_MEDIA_OPS: usize = 64;
/// Most overwrite passes of a SANITIZE (SBC-4 5.30.2: OVERWRITE COUNT is 5 bits).
pub(crate) const MAX_OVERWRITE_PASSES: u32 = 31;
/// Largest average erase count (and recent-activity figure) a state file may hold.
pub(crate) const MAX_WEAR: f64 = 1e9;

/// Every problem of a decoded state file, checked against profile `p`; `Ok` when none.
pub(crate) fn check(d: &Drive, p: &Profile) -> Result<(), String> {
    let mut bad = Problems::default();
    bad.check(d.version != STATE_VERSION, || {
        format!("version {} (this sgctl reads {STATE_VERSION})", d.version)
    });
    bad.check(d.profile != p.name, || {
        format!("holds a {} drive, not {}", d.profile, p.name)
    });
    for (what, rev) in [
        ("firmware.revision", &d.firmware.revision),
        ("firmware.deferred", &d.firmware.deferred),
    ] {
        bad.check(
            rev.as_ref().is_some_and(|r| {
                r.is_empty() || r.len() > 4 || !r.bytes().all(|c| (0x20..0x7F).contains(&c))
            }),
            || format!("{what} {rev:?} is not 1 to 4 printable ASCII characters"),
        );
    }
    bad.check(!p.block_lens.contains(&d.lb_len), || {
        format!(
            "lb_len {} is not one of the profile's {:?}",
            d.lb_len, p.block_lens
        )
    });
    bad.check(
        d.capacity_bytes == 0 || d.capacity_bytes > MAX_CAPACITY_BYTES,
        || {
            format!(
                "capacity_bytes {} is not 1..={MAX_CAPACITY_BYTES}",
                d.capacity_bytes
            )
        },
    );
    let max_blocks = d.max_blocks(d.lb_len);
    bad.check(d.num_blocks == 0 || d.num_blocks > max_blocks, || {
        format!(
            "num_blocks {} is not 1..={max_blocks} (capacity_bytes / lb_len)",
            d.num_blocks
        )
    });
    bad.check(d.prot_type > 3, || {
        format!("prot_type {} is not 0..=3", d.prot_type)
    });
    bad.check(d.p_i_exp > 15, || {
        format!("p_i_exp {} is not 0..=15", d.p_i_exp)
    });
    bad.check(d.store.lb_len() != d.lb_len, || {
        format!(
            "store.lb_len {} differs from lb_len {}",
            d.store.lb_len(),
            d.lb_len
        )
    });
    bad.check(d.store.end_lba() > d.num_blocks, || {
        format!(
            "store holds data up to LBA {} beyond the last block ({})",
            d.store.end_lba().saturating_sub(1),
            d.num_blocks.saturating_sub(1)
        )
    });
    // Clocks.
    for (name, v) in [
        ("now_ns", d.now_ns),
        ("saved_unix_ns", d.saved_unix_ns),
        ("activity_ns", d.activity_ns),
        ("media_ops_since_ns", d.media_ops_since_ns),
        ("last_format_ns", d.last_format_ns.unwrap_or(0)),
    ] {
        bad.check(v > MAX_CLOCK_NS, || {
            format!("{name} {v} is beyond {MAX_CLOCK_NS} (146 years)")
        });
    }
    let op_times = |what: &str, start: u64, dur: u64, bad: &mut Problems| {
        bad.check(start > MAX_CLOCK_NS, || {
            format!("{what} start_ns {start} is beyond {MAX_CLOCK_NS}")
        });
        bad.check(dur > MAX_OP_NS, || {
            format!("{what} dur_ns {dur} is longer than a year")
        });
    };
    if let Some(t) = &d.self_test {
        op_times("self_test", t.start_ns, t.dur_ns, &mut bad);
    }
    match &d.op {
        Some(LongOp::Format {
            start_ns,
            dur_ns,
            job,
        }) => {
            op_times("format", *start_ns, *dur_ns, &mut bad);
            bad.check(!p.block_lens.contains(&job.lb_len), || {
                format!("format lb_len {} is not one of the profile's", job.lb_len)
            });
            bad.check(
                job.num_blocks == 0 || job.num_blocks > d.max_blocks(job.lb_len),
                || format!("format num_blocks {} exceeds the capacity", job.num_blocks),
            );
            bad.check(job.prot_type > 3 || job.p_i_exp > 15, || {
                "format prot_type/p_i_exp out of range".to_string()
            });
            bad.check(
                job.pattern
                    .as_ref()
                    .is_some_and(|p| p.len() > job.lb_len.max(d.lb_len) as usize),
                || "format pattern is longer than a block".to_string(),
            );
        }
        Some(LongOp::Sanitize {
            start_ns,
            dur_ns,
            job,
        }) => {
            op_times("sanitize", *start_ns, *dur_ns, &mut bad);
            bad.check(!(1..=3).contains(&job.sa), || {
                format!("sanitize service action {} is not 1..=3", job.sa)
            });
            bad.check(job.passes > MAX_OVERWRITE_PASSES, || {
                format!(
                    "sanitize passes {} is more than {MAX_OVERWRITE_PASSES}",
                    job.passes
                )
            });
            bad.check(job.pattern.len() > d.lb_len as usize, || {
                "sanitize pattern is longer than a block".to_string()
            });
        }
        None => {}
    }
    if let Some(pf) = &d.pending {
        bad.check(
            !p.block_lens.contains(&pf.lb_len) || pf.num_blocks > d.max_blocks(pf.lb_len),
            || {
                format!(
                    "pending format ({} blocks of {}) does not fit the drive",
                    pf.num_blocks, pf.lb_len
                )
            },
        );
    }
    bad.check(d.media_ops.len() > MAX_MEDIA_OPS, || {
        format!(
            "{} queued media_ops (at most {MAX_MEDIA_OPS})",
            d.media_ops.len()
        )
    });
    for (name, v) in [("wear_pe", d.wear_pe), ("activity", d.activity)] {
        bad.check(!(v.is_finite() && (0.0..=MAX_WEAR).contains(&v)), || {
            format!("{name} {v} is not 0..={MAX_WEAR}")
        });
    }
    // Per-LBA lists: inside the drive.
    for (name, set) in [
        ("faults.medium_errors", &d.faults.medium_errors),
        ("faults.corrupt", &d.faults.corrupt),
        ("grown_defects", &d.grown_defects),
    ] {
        if let Some(&l) = set.iter().next_back().filter(|&&l| l >= d.num_blocks) {
            bad.push(format!(
                "{name} holds LBA {l} beyond the last block ({})",
                d.num_blocks.saturating_sub(1)
            ));
        }
    }
    bad.check(
        d.faults
            .substitute_lb_len
            .is_some_and(|n| !(256..=65536).contains(&n)),
        || "faults.substitute_lb_len is not 256..=65536".to_string(),
    );
    bad.check(d.self_tests.len() > 20, || {
        format!("{} self-test results (at most 20)", d.self_tests.len())
    });
    bad.check(d.ua.iter().any(|q| q.len() > 8), || {
        "more than 8 unit attentions queued on a port".to_string()
    });
    if let Some(t) = &d.sed.tper {
        let max_bands = usize::from(MAX_RANGES) + 1;
        bad.check(t.bands.len() > max_bands, || {
            format!("{} TCG bands (at most {max_bands})", t.bands.len())
        });
        for (i, b) in t.bands.iter().enumerate() {
            bad.check(
                b.range_start
                    .checked_add(b.range_length)
                    .is_none_or(|e| e > d.num_blocks && b.range_length > 0),
                || {
                    format!(
                        "TCG band {i} ({} + {} blocks) runs past the last block",
                        b.range_start, b.range_length
                    )
                },
            );
        }
    }
    bad.into_result()
}

#[cfg(test)]
mod tests {
    use crate::sim::{open_state_bytes, SimDevice};
    use proptest::prelude::*;
    use serde_json::{json, Value};

    const SPEC: &str = "px02smf080?clock=virtual";

    /// A valid state file of a 64 MiB px02smf080 (512-byte blocks), as JSON.
    fn state() -> Value {
        let p = crate::sim::profile::find("px02smf080").expect("profile");
        let d = crate::sim::drive::Drive::new(p, "S1", 64 << 20);
        serde_json::to_value(&d).expect("serialises")
    }

    fn open(v: &Value) -> Result<SimDevice, String> {
        let bytes = serde_json::to_vec(v).expect("serialises");
        open_state_bytes(SPEC, &bytes).map_err(|e| e.to_string())
    }

    fn runs(dev: &SimDevice) -> usize {
        crate::sim::lock(&dev.shared).d.store.stored_runs()
    }

    fn refused(v: &Value, words: &[&str]) {
        match open(v) {
            Ok(_) => panic!("accepted: {words:?}"),
            Err(e) => {
                for w in words {
                    assert!(e.contains(w), "{w:?} not in {e}");
                }
            }
        }
    }

    #[test]
    fn a_valid_state_file_opens() {
        assert!(open(&state()).is_ok());
    }

    /// An 11 KB file with one extent of 2^24 blocks made the drive allocate ~10 GB (one map
    /// entry per block) and abort. Now a run is one entry whatever its length; one past the
    /// drive's last block is refused.
    #[test]
    fn a_huge_extent_is_one_run_and_an_extent_past_the_end_is_refused() {
        let mut v = state();
        let blocks = v["num_blocks"].as_u64().expect("num_blocks");
        v["store"]["extents"] = json!([{"lba": 0, "n": blocks, "fill": 7}]);
        let dev = open(&v).expect("a full-drive extent is valid");
        assert_eq!(dev.info().stored_blocks as u64, blocks);
        assert_eq!(runs(&dev), 1);
        v["store"]["extents"] = json!([{"lba": 0, "n": 1u64 << 24, "fill": 7}]);
        refused(
            &v,
            &[
                "store holds data up to LBA 16777215",
                "beyond the last block",
            ],
        );
        // Several extents: checked in total against the capacity, each one entry.
        v["store"]["extents"] = json!([
            {"lba": 0, "n": 1u64 << 20, "fill": 1},
            {"lba": 1u64 << 20, "n": 1u64 << 40, "fill": 2},
        ]);
        refused(&v, &["beyond the last block"]);
    }

    #[test]
    fn every_problem_of_the_store_is_listed() {
        let mut v = state();
        v["store"]["extents"] = json!([
            {"lba": 10, "n": 0, "fill": 1},
            {"lba": 5, "n": 10, "fill": 1, "hex": "00"},
            {"lba": 20, "n": 1},
            {"lba": 30, "n": 1, "hex": "zz"},
            {"lba": 40, "n": 5, "fill": 3},
            {"lba": 42, "n": 1, "fill": 3},
            {"lba": u64::MAX, "n": 2, "fill": 3},
        ]);
        v["store"]["pi"] = json!([[1, "0102"]]);
        refused(
            &v,
            &[
                "extent 0 (lba 10, n 0) is empty",
                "extent 1 (lba 5) has both fill and hex",
                "extent 2 (lba 20) has neither",
                "extent 3 (lba 30): hex is not 1024 hex digits",
                "extent 5 (lba 42) overlaps",
                "extent 6 (lba 18446744073709551615, n 2) is empty or runs past",
                "pi entry 0 (lba 1) is not 16 hex digits",
            ],
        );
        let mut v = state();
        v["store"]["lb_len"] = json!(u32::MAX);
        refused(&v, &["lb_len 4294967295 is not 1..=65536"]);
    }

    /// `now_ns` at u64::MAX made `bench run --runtime 1` never end (the clock saturated, so
    /// no command took time); the debug build's FTL overflowed.
    #[test]
    fn clocks_near_the_end_of_u64_are_refused() {
        let mut v = state();
        v["now_ns"] = json!(u64::MAX);
        v["activity_ns"] = json!(u64::MAX - 1);
        refused(
            &v,
            &["now_ns 18446744073709551615 is beyond", "activity_ns"],
        );
        let mut v = state();
        v["now_ns"] = json!(super::MAX_CLOCK_NS);
        let dev = open(&v).expect("the latest clock a file may hold");
        // The clock stops at the limit instead of saturating.
        dev.clock()
            .advance(std::time::Duration::from_secs(u64::MAX));
        assert_eq!(
            dev.clock().now().as_nanos(),
            u128::from(super::MAX_CLOCK_NS)
        );
    }

    #[test]
    fn counts_that_drive_work_are_capped() {
        let mut v = state();
        v["op"] = json!({"kind": "sanitize", "start_ns": 0, "dur_ns": 1,
            "job": {"sa": 1, "ause": false, "pattern": [1], "passes": u32::MAX, "fail": false}});
        refused(&v, &["sanitize passes 4294967295 is more than 31"]);
        let mut v = state();
        v["media_ops"] = json!(vec!["EraseAll"; 1000]);
        refused(&v, &["1000 queued media_ops"]);
        let mut v = state();
        v["capacity_bytes"] = json!(u64::MAX);
        v["wear_pe"] = json!(1e300);
        v["faults"]["medium_errors"] = json!([u64::MAX]);
        refused(
            &v,
            &[
                "capacity_bytes 18446744073709551615 is not",
                "wear_pe",
                "faults.medium_errors holds LBA 18446744073709551615",
            ],
        );
    }

    /// A mutation of a valid state file: a number set to an extreme, a field dropped, an
    /// extent added.
    #[derive(Debug, Clone)]
    enum Edit {
        Number(usize, u64),
        Drop(usize),
        Extent(u64, u64, u8),
        Float(usize, f64),
    }

    fn paths(v: &Value, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        if let Value::Object(m) = v {
            for (k, x) in m {
                prefix.push(k.clone());
                out.push(prefix.clone());
                paths(x, prefix, out);
                prefix.pop();
            }
        }
    }

    fn at<'a>(v: &'a mut Value, path: &[String]) -> Option<&'a mut Value> {
        path.iter().try_fold(v, |v, k| v.get_mut(k))
    }

    fn edit() -> impl Strategy<Value = Edit> {
        let big = prop_oneof![
            Just(0u64),
            Just(1),
            Just(u64::MAX),
            Just(u64::from(u32::MAX)),
            Just(1 << 24),
            Just(1 << 62),
            any::<u64>()
        ];
        prop_oneof![
            (any::<usize>(), big.clone()).prop_map(|(i, n)| Edit::Number(i, n)),
            any::<usize>().prop_map(Edit::Drop),
            (big.clone(), big, any::<u8>()).prop_map(|(l, n, f)| Edit::Extent(l, n, f)),
            (
                any::<usize>(),
                prop_oneof![Just(-1.0), Just(1e308), any::<f64>()]
            )
                .prop_map(|(i, x)| Edit::Float(i, x)),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]
        /// Random edits of a valid state file: never a panic, an error that says something,
        /// and a drive that opens holds no more runs than the file lists extents.
        #[test]
        fn edited_state_files_are_refused_or_bounded(edits in proptest::collection::vec(edit(), 1..6)) {
            let mut v = state();
            let mut all = Vec::new();
            paths(&v, &mut Vec::new(), &mut all);
            let mut extents = 0usize;
            for e in edits {
                match e {
                    Edit::Number(i, n) => {
                        if let Some(x) = at(&mut v, &all[i % all.len()]).filter(|x| x.is_number()) {
                            *x = json!(n);
                        }
                    }
                    Edit::Float(i, f) => {
                        if let Some(x) = at(&mut v, &all[i % all.len()]).filter(|x| x.is_f64()) {
                            *x = json!(f);
                        }
                    }
                    Edit::Drop(i) => {
                        let p = &all[i % all.len()];
                        if let Some(Value::Object(m)) = at(&mut v, &p[..p.len() - 1]) {
                            m.remove(&p[p.len() - 1]);
                        }
                    }
                    Edit::Extent(lba, n, fill) => {
                        if let Some(Value::Array(a)) = at(&mut v, &["store".into(), "extents".into()]) {
                            a.push(json!({"lba": lba, "n": n, "fill": fill}));
                            extents += 1;
                        }
                    }
                }
            }
            match open(&v) {
                Ok(dev) => {
                    let runs = runs(&dev);
                    prop_assert!(runs <= extents, "{} runs from {} extents", runs, extents);
                }
                Err(e) => prop_assert!(e.contains("state file"), "{e}"),
            }
        }
    }
}
