//! A toy drive for the round-loop tests: write IOPS fall from FOB toward a steady value as
//! the drive fills (exp(−written/capacity)), reads are constant, idling recovers a little.
//! Deterministic; no engine, no simulator.

use super::defs::{Access, Amount, Stimulus};
use super::driver::{Driver, Measurement, RunSettings};
use super::purge::{PurgeMethod, PurgeRecord};
use super::runner::Control;
use crate::error::Result;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

#[derive(Debug, Default)]
pub(super) struct State {
    pub capacity: u64,
    pub written: f64,
    pub runs: u32,
    pub purges: u32,
    pub formats: Vec<Option<u8>>,
    pub idle_s: f64,
    /// Set `interrupt` after this many runs.
    pub interrupt_after: Option<u32>,
}

pub(super) struct FakeDrive {
    pub st: Arc<Mutex<State>>,
    pub interrupt: Arc<AtomicBool>,
}

pub(super) struct FakeControl {
    pub st: Arc<Mutex<State>>,
}

pub(super) fn new(capacity: u64) -> (FakeDrive, FakeControl, Arc<AtomicBool>) {
    let st = Arc::new(Mutex::new(State {
        capacity,
        ..State::default()
    }));
    let flag = Arc::new(AtomicBool::new(false));
    (
        FakeDrive {
            st: st.clone(),
            interrupt: flag.clone(),
        },
        FakeControl { st },
        flag,
    )
}

impl Driver for FakeDrive {
    fn engine(&self) -> String {
        "fake".into()
    }
    fn capacity_bytes(&self) -> u64 {
        self.st.lock().unwrap().capacity
    }
    fn block_len(&self) -> u32 {
        512
    }
    fn run(&mut self, s: &Stimulus, r: &RunSettings) -> Result<Measurement> {
        let mut st = self.st.lock().unwrap();
        st.runs += 1;
        if st.interrupt_after == Some(st.runs) {
            self.interrupt.store(true, Ordering::Relaxed);
        }
        let cap = st.capacity as f64;
        let bs =
            s.bs.iter()
                .map(|b| f64::from(b.0) * f64::from(b.1))
                .sum::<f64>()
                / s.bs.iter().map(|b| f64::from(b.1)).sum::<f64>();
        let oio = f64::from(s.tc.unwrap_or(1) * s.qd.unwrap_or(1));
        let fill = (st.written / cap).max(0.0);
        let w_iops = 16_000.0 + 24_000.0 * (-fill).exp();
        let r_iops = 100_000.0;
        let seq = if s.access == Access::Sequential {
            3.0
        } else {
            1.0
        };
        let scale_bs = (4096.0 / bs).min(1.0) * seq;
        let q = (oio / 32.0).clamp(0.05, 1.0);
        let rp = f64::from(s.read_pct) / 100.0;
        let iops = q * scale_bs * 1.0 / (rp / r_iops + (1.0 - rp) / w_iops);
        let (secs, ios) = match s.amount {
            Amount::Seconds(x) => {
                let d = super::driver::scaled_seconds(x, r.time_scale);
                (d, iops * d)
            }
            Amount::Capacities(c) => {
                let ios = c * r.range.len_bytes as f64 / bs;
                (ios / iops, ios)
            }
        };
        let wbytes = ios * (1.0 - rp) * bs;
        st.written += wbytes;
        let lat = oio / iops * 1e6;
        Ok(Measurement {
            ios: ios as u64,
            bytes: (ios * bs) as u64,
            elapsed_s: secs,
            iops,
            mbps: iops * bs / 1e6,
            read_iops: iops * rp,
            write_iops: iops * (1.0 - rp),
            read_mbps: iops * rp * bs / 1e6,
            write_mbps: iops * (1.0 - rp) * bs / 1e6,
            write_bytes: wbytes as u64,
            mean_lat_us: lat,
            max_lat_us: lat * 10.0,
            p99_lat_us: lat * 3.0,
            p9999_lat_us: lat * 5.0,
            p99999_lat_us: lat * 6.0,
            read_mean_lat_us: lat * 0.5,
            write_mean_lat_us: lat * 1.5,
            errors: 0,
            run: serde_json::json!({"histogram": [[10.0, 1]], "intervals": []}),
        })
    }
    fn idle(&mut self, s: f64) -> Result<()> {
        let mut st = self.st.lock().unwrap();
        st.idle_s += s;
        st.written = (st.written - s * 1e6).max(0.0);
        Ok(())
    }
}

impl Control for FakeControl {
    fn purge(&mut self, m: PurgeMethod) -> Result<PurgeRecord> {
        let mut st = self.st.lock().unwrap();
        st.purges += 1;
        st.written = 0.0;
        Ok(PurgeRecord {
            requested: m.name().into(),
            method: Some("FAKE".into()),
            purged: true,
            status: "purged (FAKE)".into(),
            ..PurgeRecord::default()
        })
    }
    fn format_capacity(&mut self, pct: Option<u8>) -> Result<(u64, PurgeRecord)> {
        let mut st = self.st.lock().unwrap();
        st.formats.push(pct);
        st.written = 0.0;
        let full = 1u64 << 30;
        st.capacity = full * u64::from(pct.unwrap_or(100)) / 100;
        Ok((
            st.capacity,
            PurgeRecord {
                requested: "format".into(),
                method: Some("FORMAT UNIT".into()),
                purged: true,
                status: "formatted".into(),
                ..PurgeRecord::default()
            },
        ))
    }
}
