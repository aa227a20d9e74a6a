//! A consistently aged drive: from the average erase count of its flash (`wear=`, the
//! ex-array profile's pre-wear, `used=1`'s one fill of the whole drive) follow the NAND bytes
//! written, the host bytes written and read, the power-on hours and the start-stop cycles,
//! so that the log pages agree with one another as a real drive's do.
//!
//! The chain, each step with its meaning:
//! 1. NAND bytes = erase count × raw flash (user capacity × (1 + over-provisioning)): every
//!    erase of every block is one program of the whole raw flash.
//! 2. Host bytes = NAND bytes / lifetime write amplification. A lifetime is a mix: half of
//!    the bytes written as small random writes, whose steady state under greedy garbage
//!    collection amplifies by at most (1 + ρ) / (2ρ) for spare fraction ρ (the uniform
//!    random-write bound of Desnoyers, "Analytic modeling of SSD write performance",
//!    SYSTOR 2012, for LRW cleaning; greedy is a little better), the other half sequential
//!    (amplification 1).
//! 3. Power-on hours = the hours it takes to write those host bytes at half of the rated
//!    write rate (rated: the flash's P/E cycles spent evenly over a five-year warranty at
//!    that write amplification) — an array drive busy but not at its limit — unless the
//!    profile states the hours (the ex-array drive), which then implies its own duty.
//! 4. Host bytes read = 7/3 of those written (a 70/30 read/write mix, the OLTP convention).
//! 5. Start-stop cycles = one power cycle per month of power-on time (maintenance windows).
//! 6. Logical blocks and commands in the general statistics page follow from the bytes at
//!    a 32 KiB mean transfer.

use crate::sim::drive::Drive;
use crate::sim::profile::Profile;

/// Share of lifetime host bytes written as small random writes.
const RANDOM_SHARE: f64 = 0.5;
/// Warranty period over which the rated P/E cycles are spent, hours (5 years).
const WARRANTY_HOURS: f64 = 5.0 * 8766.0;
/// Fraction of the rated write rate the drive was worked at.
const DUTY: f64 = 0.5;
/// Reads per write byte (70/30 mix).
const READ_PER_WRITE: f64 = 7.0 / 3.0;
/// Power-on hours per start-stop cycle (one a month).
const HOURS_PER_CYCLE: f64 = 730.0;
/// Mean transfer size of the lifetime's commands.
const MEAN_TRANSFER: u64 = 32 << 10;

/// What a drive's history implies.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Aging {
    /// Average erase count per flash block.
    pub wear_pe: f64,
    /// NAND bytes programmed.
    pub nand_bytes: u64,
    /// Host bytes written.
    pub host_written: u64,
    /// Host bytes read.
    pub host_read: u64,
    /// Power-on hours.
    pub power_on_hours: f64,
    /// Start-stop (power) cycles.
    pub start_stop_cycles: u64,
}

/// Lifetime write amplification at spare fraction `op` (step 2).
pub(crate) fn lifetime_wa(op: f64) -> f64 {
    let rho = op.max(0.01);
    let random = (1.0 + rho) / (2.0 * rho);
    1.0 + RANDOM_SHARE * (random.max(1.0) - 1.0)
}

/// Rated drive writes per day implied by the flash (step 3's rated write rate).
pub(crate) fn rated_dwpd(pe_cycles: u32, op: f64) -> f64 {
    f64::from(pe_cycles) * (1.0 + op) / lifetime_wa(op) / (WARRANTY_HOURS / 24.0)
}

/// The history of a drive of `p` with `capacity` user bytes whose blocks have been erased
/// `wear_pe` times on average; `hours` if the profile states them.
pub(crate) fn derive(p: &Profile, capacity: u64, wear_pe: f64, hours: Option<f64>) -> Aging {
    let (op, pe) = p
        .media()
        .map_or((0.28, 3000), |m| (m.op_fraction, m.geometry.pe_cycles));
    let raw = capacity as f64 * (1.0 + op);
    let nand = wear_pe.max(0.0) * raw;
    let host = nand / lifetime_wa(op);
    let rate_per_hour = rated_dwpd(pe, op) * capacity as f64 / 24.0 * DUTY;
    let poh = hours.unwrap_or(if rate_per_hour > 0.0 {
        host / rate_per_hour
    } else {
        0.0
    });
    Aging {
        wear_pe: wear_pe.max(0.0),
        nand_bytes: nand as u64,
        host_written: host as u64,
        host_read: (host * READ_PER_WRITE) as u64,
        power_on_hours: poh,
        start_stop_cycles: (poh / HOURS_PER_CYCLE) as u64,
    }
}

/// The erase count at which the host has written the whole capacity once (`used=1`: every
/// block holds old data), at the lifetime write amplification.
pub(crate) fn one_fill_pe(p: &Profile) -> f64 {
    let op = p.media().map_or(0.28, |m| m.op_fraction);
    lifetime_wa(op) / (1.0 + op) * (1.0 + 1e-9)
}

impl Drive {
    /// Brings the counters up to what `a` implies; never lowers one (a drive opened again
    /// with the same `wear=` keeps what it did since).
    pub(crate) fn age_to(&mut self, a: &Aging) {
        let s = &mut self.stats;
        self.wear_pe = self.wear_pe.max(a.wear_pe);
        s.nand_bytes_written = s.nand_bytes_written.max(a.nand_bytes);
        s.host_bytes_written = s.host_bytes_written.max(a.host_written);
        s.host_bytes_read = s.host_bytes_read.max(a.host_read);
        self.write_errors.bytes = self.write_errors.bytes.max(a.host_written);
        self.read_errors.bytes = self.read_errors.bytes.max(a.host_read);
        let lb = u64::from(self.lb_len.max(1));
        s.blocks_written = s.blocks_written.max(a.host_written / lb);
        s.blocks_read = s.blocks_read.max(a.host_read / lb);
        s.write_cmds = s.write_cmds.max(a.host_written / MEAN_TRANSFER);
        s.read_cmds = s.read_cmds.max(a.host_read / MEAN_TRANSFER);
        s.start_stop_cycles = s.start_stop_cycles.max(a.start_stop_cycles);
        let ns = (a.power_on_hours * 3.6e12)
            .clamp(0.0, crate::sim::state_check::MAX_CLOCK_NS as f64) as u64;
        self.now_ns = self.now_ns.max(ns);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::profile;

    #[test]
    fn counters_follow_from_the_erase_count() {
        let p = profile::find("px02smf080").unwrap();
        let m = p.media().unwrap();
        let cap = 800_000_000_000u64;
        let half = f64::from(m.geometry.pe_cycles) / 2.0;
        let a = derive(p, cap, half, None);
        // NAND = erases × raw flash; host = NAND / WA; WA between 1 and the random bound.
        let raw = cap as f64 * (1.0 + m.op_fraction);
        assert!((a.nand_bytes as f64 / (half * raw) - 1.0).abs() < 1e-9);
        let wa = a.nand_bytes as f64 / a.host_written as f64;
        assert!(wa > 1.0 && wa < (1.0 + m.op_fraction) / (2.0 * m.op_fraction));
        // Half the rated life at half the rated rate: the whole five-year warranty.
        assert!((a.power_on_hours / WARRANTY_HOURS - 1.0).abs() < 1e-6);
        // Drive writes per day over that time = half the rating.
        let dwpd = a.host_written as f64 / cap as f64 / (a.power_on_hours / 24.0);
        assert!((dwpd / rated_dwpd(m.geometry.pe_cycles, m.op_fraction) - DUTY).abs() < 1e-6);
        assert_eq!(a.start_stop_cycles, (a.power_on_hours / 730.0) as u64);
        assert!(derive(p, cap, 0.0, None) == derive(p, cap, 0.0, Some(0.0)));
    }

    #[test]
    fn aging_never_lowers_a_counter() {
        let p = profile::find("px02smf080").unwrap();
        let mut d = Drive::new(p, "S", 1 << 30);
        d.stats.host_bytes_written = u64::MAX / 2;
        d.age_to(&derive(p, 1 << 30, 10.0, None));
        assert_eq!(d.stats.host_bytes_written, u64::MAX / 2);
        assert!(d.stats.nand_bytes_written > 0 && d.now_ns > 0);
    }
}
