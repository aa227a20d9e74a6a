//! The page-mapped flash translation layer: mapping, garbage collection, wear and timing.
//!
//! Layout: logical 4 KiB unit `u` lives on die `u % dies` (static striping, as controllers
//! stripe consecutive units over dies); each die has its own free-block pool, one open block
//! (the write point for host data and GC copies) and its own greedy garbage collector. Closed
//! blocks sit in per-die bucket lists indexed by valid-unit count, so picking the greedy victim
//! (fewest valid units) and moving a block when one of its units is invalidated are O(1).
//!
//! Timing: every shared resource (controller, host link, each channel, each die) has a "free at"
//! time; an operation starts when its input is ready and the resource is free (first come, first
//! served) and pushes the resource's free time on. Writes complete when their data is in the
//! power-loss-protected write buffer; buffer space is released when the page holding the data has
//! been programmed, so a die that is busy with garbage collection back-pressures the host.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use serde::{Deserialize, Serialize};

use super::geometry::{Geometry, Timing, GC_FREE_LOW, UNIT_BYTES};
use super::{Completion, MediaError, Stats};

/// "No mapping" / "no block" marker.
const NONE: u32 = u32::MAX;

/// Seed of the read-time and pipeline-latency draws.
const READ_SEED: u64 = 0x5EED_0F0F_7EAD_0001;
/// Share of host page reads that need one read-retry step on an unworn block.
pub(crate) const READ_RETRY_FRESH: f64 = 0.01;
/// The same at the block's rated P/E cycles.
pub(crate) const READ_RETRY_WORN: f64 = 0.10;
/// Relative spread (±) of the fixed command latency.
pub(crate) const PIPELINE_SPREAD: f64 = 0.10;

/// Per-die allocation and timing state.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Die {
    /// Erased blocks (global block numbers), used as a stack.
    free: Vec<u32>,
    /// The open block (write point) or NONE.
    open: u32,
    /// Next unit offset in the open block.
    wp: u32,
    /// Units placed in the current program unit but not yet programmed.
    pending_units: u32,
    /// How many of those came from the host (they occupy write-buffer space).
    pending_host: u32,
    /// Time at which all pending data is available to be sent to the die.
    pending_ready: u64,
    /// The die's array is busy (programs, erases, GC reads, host reads) until this time.
    busy_until: u64,
    /// Host reads queued on this die are done by this time (they go ahead of programs).
    read_free: u64,
    /// Garbage-collection work not yet scheduled: die time (ns) and channel bytes.
    gc_die_debt: u64,
    gc_chan_debt: u64,
    /// Die time of GC work to do before each host page (set when a block is collected).
    gc_pace: u64,
}

/// Raw counters; [`Ftl::stats`] derives the reported figures from them.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Counters {
    commands: u64,
    host_write_bytes: u64,
    host_read_bytes: u64,
    host_write_units: u64,
    host_trim_units: u64,
    nand_write_units: u64,
    nand_read_units: u64,
    gc_copy_units: u64,
    block_erases: u64,
}

/// A simulated SSD's flash translation layer with a virtual-clock timing model.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Ftl {
    geo: Geometry,
    timing: Timing,
    user_units: u64,
    block_len: u32,
    /// Logical unit → physical slot (block × units_per_block + offset) or NONE.
    l2p: Vec<u32>,
    /// Physical slot → logical unit or NONE.
    p2l: Vec<u32>,
    /// Valid units per block.
    valid: Vec<u32>,
    /// Erases per block.
    erase_count: Vec<u32>,
    /// Whether a block is closed (full and in a bucket list).
    closed: Vec<bool>,
    /// Bucket list links (closed blocks of a die with the same valid count).
    prev: Vec<u32>,
    next: Vec<u32>,
    /// Bucket heads, `die * (units_per_block + 1) + valid`.
    heads: Vec<u32>,
    dies: Vec<Die>,
    ctrl_free: u64,
    link_free: u64,
    chan_free: Vec<u64>,
    /// Host read transfers queued on a channel are done by this time.
    chan_read_free: Vec<u64>,
    /// Write buffer occupancy and capacity in units.
    buf_used: u64,
    buf_cap: u64,
    /// Pending buffer releases: (time, units).
    releases: BinaryHeap<Reverse<(u64, u32)>>,
    /// Controller time of garbage-collection copies not yet worked off (ns), and the share
    /// each host unit pays (ns per unit; set from the last victim's copies per freed unit).
    #[serde(default)]
    ctrl_gc_debt: u64,
    #[serde(default)]
    ctrl_gc_pace: u64,
    counters: Counters,
}

impl Ftl {
    /// An erased drive whose user capacity is `raw / (1 + op_fraction)`.
    pub fn new(geometry: Geometry, timing: Timing, op_fraction: f64) -> Result<Ftl, MediaError> {
        geometry.validate()?;
        if !(op_fraction.is_finite() && op_fraction > 0.0) {
            return Err(MediaError::BadGeometry(format!(
                "over-provisioning fraction must be > 0, got {op_fraction}"
            )));
        }
        let user = (geometry.raw_units() as f64 / (1.0 + op_fraction)).floor() as u64;
        Ftl::with_user_units(geometry, timing, user)
    }

    /// An erased drive exposing exactly `user_units` 4 KiB units on `geometry`.
    pub(crate) fn with_user_units(
        geometry: Geometry,
        timing: Timing,
        user_units: u64,
    ) -> Result<Ftl, MediaError> {
        geometry.validate()?;
        let g = geometry;
        let dies = g.dies() as usize;
        let upb = u64::from(g.units_per_block());
        let user_per_die = user_units.div_ceil(dies as u64);
        // Room for the user data, the open block and the GC reserve on every die.
        let needed = user_per_die.div_ceil(upb) + u64::from(GC_FREE_LOW) + 2;
        if user_units == 0 || u64::from(g.blocks_per_die) < needed {
            return Err(MediaError::BadGeometry(format!(
                "{user_units} user units need {needed} blocks per die, geometry has {}",
                g.blocks_per_die
            )));
        }
        let blocks = g.blocks() as usize;
        let raw = g.raw_units() as usize;
        let upp = u64::from(g.units_per_program());
        // The buffer must hold at least one partial program unit per die plus a chunk, or a
        // write could wait for space that only it could free.
        let buf_cap = (timing.write_buffer_bytes / UNIT_BYTES).max(2 * dies as u64 * upp + 64);
        let bpd = g.blocks_per_die;
        let dies_v = (0..g.dies())
            .map(|d| Die {
                free: (d * bpd..(d + 1) * bpd).rev().collect(),
                open: NONE,
                wp: 0,
                pending_units: 0,
                pending_host: 0,
                pending_ready: 0,
                busy_until: 0,
                read_free: 0,
                gc_die_debt: 0,
                gc_chan_debt: 0,
                gc_pace: 0,
            })
            .collect();
        Ok(Ftl {
            geo: g,
            timing,
            user_units,
            block_len: 512,
            l2p: vec![NONE; user_units as usize],
            p2l: vec![NONE; raw],
            valid: vec![0; blocks],
            erase_count: vec![0; blocks],
            closed: vec![false; blocks],
            prev: vec![NONE; blocks],
            next: vec![NONE; blocks],
            heads: vec![NONE; dies * (upb as usize + 1)],
            dies: dies_v,
            ctrl_free: 0,
            link_free: 0,
            chan_free: vec![0; g.channels as usize],
            chan_read_free: vec![0; g.channels as usize],
            buf_used: 0,
            buf_cap,
            releases: BinaryHeap::new(),
            ctrl_gc_debt: 0,
            ctrl_gc_pace: 0,
            counters: Counters::default(),
        })
    }

    /// The geometry.
    pub fn geometry(&self) -> &Geometry {
        &self.geo
    }

    /// The timing parameters.
    pub fn timing(&self) -> &Timing {
        &self.timing
    }

    /// User capacity in bytes.
    pub fn user_bytes(&self) -> u64 {
        self.user_units * UNIT_BYTES
    }

    /// User capacity in 4 KiB units.
    pub(crate) fn user_units(&self) -> u64 {
        self.user_units
    }

    /// Logical block length used to interpret LBAs (default 512).
    pub fn block_len(&self) -> u32 {
        self.block_len
    }

    /// Sets the logical block length (after FORMAT UNIT). Existing mappings are kept; callers
    /// that change the format normally [`trim`](Self::trim) or [`erase_all`](Self::erase_all).
    pub(crate) fn set_block_len(&mut self, block_len: u32) -> Result<(), MediaError> {
        if block_len == 0 {
            return Err(MediaError::BadGeometry("block length must be > 0".into()));
        }
        self.block_len = block_len;
        Ok(())
    }

    /// Number of logical blocks of the current block length.
    pub fn lba_count(&self) -> u64 {
        self.user_bytes() / u64::from(self.block_len)
    }

    /// Sets every block's erase count (a used, pre-worn drive).
    pub(crate) fn set_wear(&mut self, erases_per_block: u32) {
        self.erase_count.fill(erases_per_block);
    }

    /// Whether the 4 KiB unit holding `lba` is mapped (has data on flash).
    pub fn is_mapped(&self, lba: u64) -> bool {
        let unit = lba.saturating_mul(u64::from(self.block_len)) / UNIT_BYTES;
        self.l2p
            .get(unit as usize)
            .is_some_and(|&slot| slot != NONE)
    }

    /// Mapped (valid) 4 KiB units.
    pub(crate) fn mapped_units(&self) -> u64 {
        self.valid.iter().map(|&v| u64::from(v)).sum()
    }

    /// Byte range of `blocks` LBAs at `lba`, checked against the capacity.
    fn byte_range(&self, lba: u64, blocks: u32) -> Result<(u64, u64), MediaError> {
        let bl = u64::from(self.block_len);
        let end = lba.checked_add(u64::from(blocks));
        match end {
            Some(end) if end <= self.lba_count() => Ok((lba * bl, end * bl)),
            _ => Err(MediaError::OutOfRange {
                lba,
                blocks,
                lba_count: self.lba_count(),
            }),
        }
    }

    fn die_of_block(&self, block: u32) -> usize {
        (block / self.geo.blocks_per_die) as usize
    }

    fn head_index(&self, die: usize, valid: u32) -> usize {
        die * (self.geo.units_per_block() as usize + 1) + valid as usize
    }

    fn bucket_link(&mut self, b: u32) {
        let i = self.head_index(self.die_of_block(b), self.valid[b as usize]);
        let h = self.heads[i];
        self.next[b as usize] = h;
        self.prev[b as usize] = NONE;
        if h != NONE {
            self.prev[h as usize] = b;
        }
        self.heads[i] = b;
        self.closed[b as usize] = true;
    }

    fn bucket_unlink(&mut self, b: u32) {
        let i = self.head_index(self.die_of_block(b), self.valid[b as usize]);
        let (p, n) = (self.prev[b as usize], self.next[b as usize]);
        if p != NONE {
            self.next[p as usize] = n;
        } else {
            self.heads[i] = n;
        }
        if n != NONE {
            self.prev[n as usize] = p;
        }
        self.prev[b as usize] = NONE;
        self.next[b as usize] = NONE;
        self.closed[b as usize] = false;
    }

    /// Drops the mapping of logical unit `u` (its old copy becomes garbage).
    fn invalidate(&mut self, u: u64) {
        let slot = self.l2p[u as usize];
        if slot == NONE {
            return;
        }
        self.l2p[u as usize] = NONE;
        self.p2l[slot as usize] = NONE;
        let b = slot / self.geo.units_per_block();
        if self.closed[b as usize] {
            self.bucket_unlink(b);
            self.valid[b as usize] -= 1;
            self.bucket_link(b);
        } else {
            self.valid[b as usize] -= 1;
        }
    }

    /// Makes sure die `d` has an open block with room; may run garbage collection first.
    fn ensure_open(&mut self, d: usize, now: u64, allow_gc: bool) -> Result<(), MediaError> {
        let upb = self.geo.units_per_block();
        let mut rounds = 0u32;
        loop {
            let die = &self.dies[d];
            if die.open != NONE && die.wp < upb {
                return Ok(());
            }
            if die.open != NONE {
                let b = die.open;
                self.dies[d].open = NONE;
                self.bucket_link(b);
            }
            if allow_gc && self.dies[d].free.len() <= GC_FREE_LOW as usize {
                rounds += 1;
                if rounds > 2 * self.geo.blocks_per_die {
                    return Err(MediaError::NoSpace);
                }
                self.collect(d, now)?;
                continue;
            }
            let b = self.dies[d].free.pop().ok_or(MediaError::NoSpace)?;
            self.dies[d].open = b;
            self.dies[d].wp = 0;
            return Ok(());
        }
    }

    /// Places logical unit `u` (already invalidated) on die `d`'s write point.
    fn append(&mut self, d: usize, u: u64, ready: u64, host: bool) -> Result<(), MediaError> {
        self.ensure_open(d, ready, host)?;
        let upb = self.geo.units_per_block();
        let die = &mut self.dies[d];
        let b = die.open;
        let slot = b * upb + die.wp;
        die.wp += 1;
        die.pending_units += 1;
        if host {
            die.pending_host += 1;
        }
        die.pending_ready = die.pending_ready.max(ready);
        let full = die.wp % self.geo.units_per_program() == 0;
        self.p2l[slot as usize] = u as u32;
        self.l2p[u as usize] = slot;
        self.valid[b as usize] += 1;
        self.counters.nand_write_units += 1;
        if full {
            self.program(d);
        }
        Ok(())
    }

    /// Channel of die `d`: dies are interleaved over channels.
    fn channel_of(&self, d: usize) -> usize {
        d % self.geo.channels as usize
    }

    /// Moves `bytes` over channel `c` once `ready`; returns the end time.
    fn channel_xfer(&mut self, c: usize, ready: u64, bytes: u64) -> u64 {
        let start = ready.max(self.chan_free[c]);
        self.chan_free[c] = start + Timing::xfer_ns(bytes, self.timing.channel_bytes_per_s);
        self.chan_free[c]
    }

    /// Moves host read data over channel `c`: like [`die_read`](Self::die_read), read
    /// transfers queue among themselves and go ahead of queued program data, waiting at most
    /// for the one program-unit transfer in progress.
    fn channel_read_xfer(&mut self, c: usize, ready: u64, bytes: u64) -> u64 {
        let rate = self.timing.channel_bytes_per_s;
        let dur = Timing::xfer_ns(bytes, rate);
        let unit = u64::from(self.geo.units_per_program()) * UNIT_BYTES;
        let residual = Timing::xfer_ns(unit, rate);
        let mut start = ready.max(self.chan_read_free[c]);
        let busy = self.chan_free[c];
        if busy > start && self.chan_read_free[c] <= ready {
            start += (busy - start).min(residual);
        }
        let end = start + dur;
        self.chan_read_free[c] = end;
        self.chan_free[c] = if busy > start { busy + dur } else { end };
        end
    }

    /// Occupies die `d` for `dur` once `ready`; returns the end time.
    fn die_op(&mut self, d: usize, ready: u64, dur: u64) -> u64 {
        let die = &mut self.dies[d];
        let start = ready.max(die.busy_until);
        die.busy_until = start + dur;
        die.busy_until
    }

    /// A host read on die `d` at `t`. Host reads queue among themselves but go ahead of queued
    /// programs and erases (program/erase suspend): a read that finds no other read queued waits
    /// only for the operation in progress, on average half a program. The read pushes the queued
    /// background work back by its own duration.
    fn die_read(&mut self, d: usize, t: u64, t_read: u64) -> u64 {
        let residual = self.timing.t_prog_ns / 2;
        let die = &mut self.dies[d];
        let mut start = t.max(die.read_free);
        if die.busy_until > start && die.read_free <= t {
            start += (die.busy_until - start).min(residual);
        }
        let end = start + t_read;
        die.read_free = end;
        die.busy_until = if die.busy_until > start {
            die.busy_until + t_read
        } else {
            end
        };
        end
    }

    /// A deterministic pseudo-random number in [0, 1) for this command and `salt`: the same
    /// commands in the same order give the same draws (runs are reproducible for a seed).
    fn draw(&self, salt: u64) -> f64 {
        let mut z = READ_SEED
            ^ self.counters.commands.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ salt.wrapping_mul(0xD6E8_FEB8_6659_FD93);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Array time of a host read of physical page `page` (a program unit number) in `block`:
    /// the page's sense time by its place on the word line ([`Geometry::read_ns`]), plus one
    /// more sense when the read needs a read-retry step (ECC could not correct the first read;
    /// the controller re-reads with shifted read references). The share of reads that retry
    /// grows with wear: [`READ_RETRY_FRESH`] on a new block, rising linearly to
    /// [`READ_RETRY_WORN`] at the rated P/E cycles (Park et al., "Reducing Solid-State Drive
    /// Read Latency by Optimizing Read-Retry", ASPLOS 2021: retries grow with P/E cycles and
    /// retention age; the two shares are this model's assumption).
    fn host_read_ns(&self, page: u32, block: u32) -> u64 {
        let in_block = page % self.geo.pages_per_block.max(1);
        let t = self.geo.read_ns(self.timing.t_read_ns, in_block);
        let wear = self.erase_count.get(block as usize).copied().unwrap_or(0);
        let worn = (f64::from(wear) / f64::from(self.geo.pe_cycles.max(1))).min(1.0);
        let p = READ_RETRY_FRESH + (READ_RETRY_WORN - READ_RETRY_FRESH) * worn;
        if self.draw(u64::from(page)) < p {
            2 * t
        } else {
            t
        }
    }

    /// A read's fixed command latency (host interface and firmware pipeline, no shared resource),
    /// varying uniformly by ±[`PIPELINE_SPREAD`] around `cmd_latency_ns` from command to
    /// command (firmware scheduling, interrupt timing): its mean is the profile's figure, so
    /// throughput does not move, but latency percentiles of an idle drive differ as a real
    /// drive's do. The spread is this model's assumption.
    fn pipeline_ns(&self) -> u64 {
        let base = self.timing.cmd_latency_ns as f64;
        let f = 1.0 + PIPELINE_SPREAD * (2.0 * self.draw(u64::MAX) - 1.0);
        (base * f).round() as u64
    }

    /// Programs die `d`'s pending program unit.
    fn program(&mut self, d: usize) {
        let (units, host, ready) = {
            let die = &mut self.dies[d];
            let r = (die.pending_units, die.pending_host, die.pending_ready);
            die.pending_units = 0;
            die.pending_host = 0;
            die.pending_ready = 0;
            r
        };
        if units == 0 {
            return;
        }
        let c = self.channel_of(d);
        let bytes = u64::from(units) * UNIT_BYTES;
        if host == 0 {
            // A page of garbage-collection copies: its time was added to the die's GC work
            // when the block was collected, and is paced with the host writes (below).
            return;
        }
        // GC pacing: before each host page the die works off its share of the pending GC work
        // (spread over the host pages the collected space will take), so garbage collection
        // runs alongside the host writes instead of stalling the die for a whole block.
        let (die_pay, chan_pay) = {
            let die = &mut self.dies[d];
            let debt = die.gc_die_debt;
            let pay = debt.min(die.gc_pace);
            let chan = if pay == debt {
                die.gc_chan_debt
            } else {
                (u128::from(die.gc_chan_debt) * u128::from(pay) / u128::from(debt.max(1))) as u64
            };
            die.gc_die_debt -= pay;
            die.gc_chan_debt -= chan;
            (pay, chan)
        };
        if chan_pay > 0 {
            self.channel_xfer(c, ready, chan_pay);
        }
        if die_pay > 0 {
            self.die_op(d, ready, die_pay);
        }
        let sent = self.channel_xfer(c, ready, bytes);
        let done = self.die_op(d, sent, self.timing.t_prog_ns);
        self.releases.push(Reverse((done, host)));
    }

    /// Block erase time for this geometry's block size.
    fn erase_ns(&self) -> u64 {
        self.timing.t_erase_ns * u64::from(self.geo.pages_per_block)
            / u64::from(self.geo.nominal_pages_per_block.max(1))
    }

    /// Greedy garbage collection of one block on die `d`: copy its valid units to the write
    /// point, then erase it.
    fn collect(&mut self, d: usize, now: u64) -> Result<(), MediaError> {
        let upb = self.geo.units_per_block();
        let upp = self.geo.units_per_program();
        let victim = (0..upb)
            .map(|v| self.heads[self.head_index(d, v)])
            .find(|&b| b != NONE)
            .ok_or(MediaError::NoSpace)?;
        self.bucket_unlink(victim);
        let base = victim * upb;
        // Read every page that holds live data and rewrite its units at the write point; the
        // die and channel time this takes is added to the die's GC work (see `program`).
        let mut moved: Vec<u32> = Vec::with_capacity(self.valid[victim as usize] as usize);
        let mut reads = 0u64;
        for page in 0..self.geo.pages_per_block {
            let first = base + page * upp;
            let before = moved.len();
            for s in first..first + upp {
                let u = self.p2l[s as usize];
                if u != NONE {
                    moved.push(u);
                    self.p2l[s as usize] = NONE;
                }
            }
            if moved.len() > before {
                reads += 1;
            }
        }
        let erase = self.erase_ns();
        let copies = moved.len() as u64;
        let die = &mut self.dies[d];
        die.gc_die_debt += reads * self.timing.t_read_ns + erase;
        die.gc_die_debt += copies.div_ceil(u64::from(upp)) * self.timing.t_prog_ns;
        die.gc_chan_debt += 2 * copies * UNIT_BYTES;
        // Host pages that fit in the space this collection frees.
        let host_pages = (u64::from(upb) - copies).div_ceil(u64::from(upp)).max(1);
        die.gc_pace = die.gc_die_debt.div_ceil(host_pages);
        // The copies also pass the controller (ECC, remap): that work is paced over the host
        // units the freed space takes, at this victim's copies-per-freed-unit ratio.
        let freed = (u64::from(upb) - copies).max(1);
        self.ctrl_gc_debt += copies * self.timing.gc_copy_ns;
        self.ctrl_gc_pace = (copies * self.timing.gc_copy_ns).div_ceil(freed);
        self.counters.nand_read_units += moved.len() as u64;
        self.valid[victim as usize] = 0;
        for u in moved {
            self.l2p[u as usize] = NONE;
            self.counters.gc_copy_units += 1;
            self.append(d, u64::from(u), now, false)?;
        }
        self.erase_count[victim as usize] += 1;
        self.counters.block_erases += 1;
        self.dies[d].free.push(victim);
        Ok(())
    }

    /// Waits (in virtual time) for `units` of write-buffer space from `t` on.
    fn admit(&mut self, units: u64, mut t: u64) -> u64 {
        while let Some(&Reverse((r, n))) = self.releases.peek() {
            if r > t {
                break;
            }
            self.releases.pop();
            self.buf_used = self.buf_used.saturating_sub(u64::from(n));
        }
        while self.buf_used + units > self.buf_cap {
            match self.releases.pop() {
                Some(Reverse((r, n))) => {
                    self.buf_used = self.buf_used.saturating_sub(u64::from(n));
                    t = t.max(r);
                }
                None => break,
            }
        }
        self.buf_used += units;
        t
    }

    /// Writes `blocks` logical blocks at `lba`, submitted at virtual time `now` (ns).
    /// Partial 4 KiB units are written whole (read-modify-write inside the controller).
    pub(crate) fn submit_write(
        &mut self,
        lba: u64,
        blocks: u32,
        now: u64,
    ) -> Result<Completion, MediaError> {
        let (b0, b1) = self.byte_range(lba, blocks)?;
        self.counters.commands += 1;
        let (u0, u1) = (b0 / UNIT_BYTES, b1.div_ceil(UNIT_BYTES));
        let n_units = u1 - u0;
        // Controller: the command itself, retiring the old copy of every overwritten unit, and
        // this command's share of pending garbage-collection copy work.
        let overwrites = if self.timing.overwrite_ns == 0 {
            0
        } else {
            self.l2p[u0 as usize..u1 as usize]
                .iter()
                .filter(|&&s| s != NONE)
                .count() as u64
        };
        let gc_pay = self
            .ctrl_gc_debt
            .min(self.ctrl_gc_pace * n_units + self.ctrl_gc_debt / 256);
        self.ctrl_gc_debt -= gc_pay;
        let t0 = now.max(self.ctrl_free);
        self.ctrl_free =
            t0 + self.timing.cmd_write_ns + overwrites * self.timing.overwrite_ns + gc_pay;
        let dies = u64::from(self.geo.dies());
        let chunk = (self.buf_cap / 2).max(1);
        let mut t = self.ctrl_free;
        let mut u = u0;
        while u < u1 {
            let k = chunk.min(u1 - u);
            let admitted = self.admit(k, t);
            let bytes = (b1 - b0) * k / n_units.max(1);
            let ls = admitted.max(self.link_free);
            self.link_free = ls + Timing::xfer_ns(bytes, self.timing.link_bytes_per_s);
            let ready = self.link_free;
            for unit in u..u + k {
                self.invalidate(unit);
                self.append((unit % dies) as usize, unit, ready, true)?;
            }
            t = ready;
            u += k;
        }
        self.counters.host_write_bytes += b1 - b0;
        self.counters.host_write_units += n_units;
        Ok(Completion {
            done_at: t + self.timing.cmd_latency_ns,
        })
    }

    /// Reads `blocks` logical blocks at `lba`, submitted at virtual time `now` (ns). Unmapped
    /// units are answered by the controller without touching flash.
    pub(crate) fn submit_read(
        &mut self,
        lba: u64,
        blocks: u32,
        now: u64,
    ) -> Result<Completion, MediaError> {
        let (b0, b1) = self.byte_range(lba, blocks)?;
        self.counters.commands += 1;
        let t0 = now.max(self.ctrl_free);
        self.ctrl_free = t0 + self.timing.cmd_read_ns;
        let t1 = self.ctrl_free;
        let upp = self.geo.units_per_program();
        let (u0, u1) = (b0 / UNIT_BYTES, b1.div_ceil(UNIT_BYTES));
        // Physical pages to read; units of this command in the same page share one page read.
        let mut pages: Vec<u32> = (u0..u1)
            .map(|u| self.l2p[u as usize])
            .filter(|&s| s != NONE)
            .map(|s| s / upp)
            .collect();
        pages.sort_unstable();
        let mut ready = t1;
        let mut i = 0;
        while i < pages.len() {
            let page = pages[i];
            let k = pages[i..].iter().take_while(|&&p| p == page).count();
            let block = page * upp / self.geo.units_per_block();
            let d = self.die_of_block(block);
            let c = self.channel_of(d);
            let t_read = self.host_read_ns(page, block);
            let sensed = self.die_read(d, t1, t_read);
            let out = self.channel_read_xfer(c, sensed, k as u64 * UNIT_BYTES);
            ready = ready.max(out);
            self.counters.nand_read_units += k as u64;
            i += k;
        }
        let ls = ready.max(self.link_free);
        self.link_free = ls + Timing::xfer_ns(b1 - b0, self.timing.link_bytes_per_s);
        self.counters.host_read_bytes += b1 - b0;
        Ok(Completion {
            done_at: self.link_free + self.pipeline_ns(),
        })
    }

    /// Unmaps (TRIM/UNMAP) the 4 KiB units wholly inside the range; partial units keep their
    /// data, as drives with a 4 KiB unmap granularity do.
    pub fn trim(&mut self, lba: u64, blocks: u32, now: u64) -> Result<Completion, MediaError> {
        let (b0, b1) = self.byte_range(lba, blocks)?;
        self.counters.commands += 1;
        let t0 = now.max(self.ctrl_free);
        self.ctrl_free = t0 + self.timing.cmd_write_ns;
        for u in b0.div_ceil(UNIT_BYTES)..b1 / UNIT_BYTES {
            if self.l2p[u as usize] != NONE {
                self.counters.host_trim_units += 1;
            }
            self.invalidate(u);
        }
        Ok(Completion {
            done_at: t0 + self.timing.cmd_write_ns + self.timing.cmd_latency_ns,
        })
    }

    /// Unmaps the whole user capacity (FORMAT UNIT without overwrite, full UNMAP).
    pub(crate) fn trim_all(&mut self, now: u64) -> Completion {
        for u in 0..self.user_units {
            self.invalidate(u);
        }
        Completion {
            done_at: now.max(self.ctrl_free)
                + self.timing.cmd_write_ns
                + self.timing.cmd_latency_ns,
        }
    }

    /// SANITIZE BLOCK ERASE: erases every block (each gains one erase), drops all mappings and
    /// the write buffer. Dies erase in parallel; returns when the last die is done.
    pub(crate) fn erase_all(&mut self, now: u64) -> Completion {
        let bpd = self.geo.blocks_per_die;
        let erase = self.erase_ns();
        self.l2p.fill(NONE);
        self.p2l.fill(NONE);
        self.valid.fill(0);
        self.closed.fill(false);
        self.prev.fill(NONE);
        self.next.fill(NONE);
        self.heads.fill(NONE);
        for c in self.erase_count.iter_mut() {
            *c = c.saturating_add(1);
        }
        self.counters.block_erases += u64::from(self.geo.blocks());
        self.releases.clear();
        self.buf_used = 0;
        let mut done = now;
        for (d, die) in self.dies.iter_mut().enumerate() {
            let d = d as u32;
            die.free = (d * bpd..(d + 1) * bpd).rev().collect();
            die.open = NONE;
            die.wp = 0;
            die.pending_units = 0;
            die.pending_host = 0;
            die.pending_ready = 0;
            die.busy_until = now.max(die.busy_until) + erase * u64::from(bpd);
            die.read_free = die.busy_until;
            die.gc_die_debt = 0;
            die.gc_chan_debt = 0;
            die.gc_pace = 0;
            done = done.max(die.busy_until);
        }
        self.ctrl_gc_debt = 0;
        self.ctrl_gc_pace = 0;
        Completion {
            done_at: done + self.timing.cmd_latency_ns,
        }
    }

    /// When every resource is idle (pending garbage-collection work not counted: like the
    /// MK4001GRZB, this model collects garbage only while the host writes).
    pub(crate) fn idle_at(&self) -> u64 {
        let dies = self.dies.iter().map(|d| d.busy_until.max(d.read_free));
        let chans = self.chan_free.iter().chain(&self.chan_read_free).copied();
        let released = self.releases.iter().map(|r| r.0 .0);
        dies.chain(chans)
            .chain(released)
            .fold(self.ctrl_free.max(self.link_free), u64::max)
    }

    /// NAND bytes written and block erases so far, in O(1) (every command's wear accounting;
    /// [`Ftl::stats`] walks every block). Each erase adds one to one block's erase count, so
    /// `block_erases / blocks` moves exactly as `erase_count_avg` does after [`Ftl::set_wear`].
    pub(crate) fn wear_tally(&self) -> (u64, u64) {
        (
            self.counters.nand_write_units * UNIT_BYTES,
            self.counters.block_erases,
        )
    }

    /// Rated program/erase cycles of the flash.
    pub(crate) fn pe_cycles(&self) -> u32 {
        self.geo.pe_cycles
    }

    /// Erase blocks of the flash.
    pub(crate) fn erase_blocks(&self) -> usize {
        self.erase_count.len()
    }

    /// Statistics for LOG SENSE and the benchmark.
    pub fn stats(&self) -> Stats {
        let c = &self.counters;
        let (mut min, mut max, mut sum) = (u32::MAX, 0u32, 0u64);
        for &e in &self.erase_count {
            min = min.min(e);
            max = max.max(e);
            sum += u64::from(e);
        }
        let n = self.erase_count.len().max(1) as u64;
        let avg = sum as f64 / n as f64;
        let pe = u64::from(self.geo.pe_cycles.max(1));
        Stats {
            commands: c.commands,
            host_write_bytes: c.host_write_bytes,
            host_read_bytes: c.host_read_bytes,
            host_write_units: c.host_write_units,
            host_trim_units: c.host_trim_units,
            nand_write_bytes: c.nand_write_units * UNIT_BYTES,
            nand_read_bytes: c.nand_read_units * UNIT_BYTES,
            gc_copy_bytes: c.gc_copy_units * UNIT_BYTES,
            block_erases: c.block_erases,
            write_amplification: if c.host_write_units == 0 {
                0.0
            } else {
                c.nand_write_units as f64 / c.host_write_units as f64
            },
            erase_count_min: if self.erase_count.is_empty() { 0 } else { min },
            erase_count_avg: avg,
            erase_count_max: max,
            pe_cycles: self.geo.pe_cycles,
            percentage_used_endurance: (sum * 100 / (n * pe)).min(u64::from(u32::MAX)) as u32,
            mapped_bytes: self.mapped_units() * UNIT_BYTES,
            user_bytes: self.user_bytes(),
            raw_bytes: self.geo.raw_bytes(),
        }
    }

    /// Checks the mapping invariants (for tests and debugging): L2P and P2L are inverse, valid
    /// counts match, every unit sits on its die, closed blocks are in the right bucket, free
    /// blocks hold nothing.
    pub fn check_invariants(&self) -> Result<(), String> {
        let upb = self.geo.units_per_block();
        let dies = u64::from(self.geo.dies());
        for (u, &slot) in self.l2p.iter().enumerate() {
            if slot == NONE {
                continue;
            }
            if self.p2l.get(slot as usize) != Some(&(u as u32)) {
                return Err(format!(
                    "unit {u} -> slot {slot}, but slot does not point back"
                ));
            }
            if self.die_of_block(slot / upb) as u64 != u as u64 % dies {
                return Err(format!("unit {u} on the wrong die"));
            }
        }
        let mut counted = vec![0u32; self.valid.len()];
        for (s, &u) in self.p2l.iter().enumerate() {
            if u == NONE {
                continue;
            }
            if self.l2p.get(u as usize) != Some(&(s as u32)) {
                return Err(format!(
                    "slot {s} -> unit {u}, but unit does not point back"
                ));
            }
            counted[s / upb as usize] += 1;
        }
        if counted != self.valid {
            return Err("valid counts do not match the P2L table".into());
        }
        for (d, die) in self.dies.iter().enumerate() {
            for &b in &die.free {
                if self.valid[b as usize] != 0 || self.closed[b as usize] {
                    return Err(format!("free block {b} has data or is closed"));
                }
                if self.die_of_block(b) != d {
                    return Err(format!("free block {b} in die {d}'s pool"));
                }
            }
            for v in 0..=upb {
                let mut b = self.heads[self.head_index(d, v)];
                while b != NONE {
                    if self.valid[b as usize] != v || !self.closed[b as usize] {
                        return Err(format!("block {b} in bucket {v} of die {d} is wrong"));
                    }
                    b = self.next[b as usize];
                }
            }
        }
        Ok(())
    }
}
