//! The persisted state of one virtual drive (serialised to the `state=` file) and the
//! time-driven parts of its behaviour: long operations (FORMAT UNIT, SANITIZE), resets and
//! power cycles, temperature.

use crate::sim::profile::{self, Profile};
use crate::sim::sense::{key, SimSense};
use crate::sim::store::Store;
use crate::sim::tcg::SedState;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeSet;

/// State-file format version.
pub(crate) const STATE_VERSION: u32 = 1;

/// A block length/count set by MODE SELECT, applied by the next FORMAT UNIT.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingFormat {
    /// New logical block length.
    pub lb_len: u32,
    /// Requested number of blocks (already resolved: 0/all-ones mean "maximum").
    pub num_blocks: u64,
}

/// Parameters of an accepted FORMAT UNIT.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormatJob {
    /// Logical block length after the format.
    pub lb_len: u32,
    /// Number of logical blocks after the format.
    pub num_blocks: u64,
    /// Protection type after the format (0 = none).
    pub prot_type: u8,
    /// P_I exponent after the format.
    pub p_i_exp: u8,
    /// The parameter list as received (log page 0x08 parameter 0000).
    pub param_list: Vec<u8>,
    /// Injected failure: the format ends with 31/01 and leaves the medium corrupt.
    pub fail: bool,
    /// Port that issued it (the other port gets UA 2A/09).
    pub port: u16,
    /// Initialization pattern (IP descriptor, pattern type 1), written to every block.
    pub pattern: Option<Vec<u8>>,
    /// Fast format with unchanged block length: old data stays readable ("unspecified").
    pub keep_data: bool,
    /// Fast format (FFMT != 0).
    #[serde(default)]
    pub fast: bool,
}

/// Parameters of an accepted SANITIZE.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SanitizeJob {
    /// Service action (1 overwrite, 2 block erase, 3 crypto erase).
    pub sa: u8,
    /// AUSE bit.
    pub ause: bool,
    /// Overwrite pattern (after INVERT processing of the last pass).
    pub pattern: Vec<u8>,
    /// Overwrite passes.
    #[serde(default)]
    pub passes: u32,
    /// Injected failure: ends in sanitize failure mode (31/03).
    pub fail: bool,
    /// Injected defect: completes with GOOD status and leaves the medium as it was (a
    /// firmware that reports an erase it did not do; what validation reads must catch).
    #[serde(default)]
    pub noop: bool,
}

/// A long operation in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum LongOp {
    /// FORMAT UNIT running.
    Format {
        /// Start, drive clock ns.
        start_ns: u64,
        /// Duration ns.
        dur_ns: u64,
        /// What it does.
        job: FormatJob,
    },
    /// SANITIZE running (survives power cycles and resets: SBC-4 4.11.4).
    Sanitize {
        /// Start, drive clock ns.
        start_ns: u64,
        /// Duration ns.
        dur_ns: u64,
        /// What it does.
        job: SanitizeJob,
    },
}

impl LongOp {
    /// Progress indication 0..=65535 at `now` (SPC-5 4.4.2.4.4: fraction of 65536).
    pub fn progress(&self, now: u64) -> u16 {
        let (start, dur) = match self {
            LongOp::Format {
                start_ns, dur_ns, ..
            }
            | LongOp::Sanitize {
                start_ns, dur_ns, ..
            } => (*start_ns, *dur_ns),
        };
        if dur == 0 {
            return 65535;
        }
        let done = u128::from(now.saturating_sub(start)) * 65536 / u128::from(dur);
        done.min(65535) as u16
    }

    /// Drive time at which it completes.
    pub(crate) fn end_ns(&self) -> u64 {
        match self {
            LongOp::Format {
                start_ns, dur_ns, ..
            }
            | LongOp::Sanitize {
                start_ns, dur_ns, ..
            } => start_ns.saturating_add(*dur_ns),
        }
    }

    /// The NOT READY sense reported while it runs.
    pub(crate) fn not_ready(&self, now: u64) -> SimSense {
        match self {
            LongOp::Format { .. } => SimSense::progress(0x04, 0x04, self.progress(now)),
            LongOp::Sanitize { .. } => SimSense::progress(0x04, 0x1B, self.progress(now)),
        }
    }
}

/// Mode parameters that can be changed (SPC-5 7.5, SBC-4 6.5). One copy is current, one
/// saved (restored at power on).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModeValues {
    /// 0x01: AWRE.
    pub awre: bool,
    /// 0x01: ARRE.
    pub arre: bool,
    /// 0x01: PER.
    pub per: bool,
    /// 0x01: read retry count.
    pub read_retry: u8,
    /// 0x01: write retry count.
    pub write_retry: u8,
    /// 0x01: recovery time limit (ms).
    pub recovery_time_limit: u16,
    /// 0x08: WCE.
    pub wce: bool,
    /// 0x08: RCD.
    pub rcd: bool,
    /// 0x0A: D_SENSE (descriptor-format sense).
    pub d_sense: bool,
    /// 0x0A: GLTSD.
    pub gltsd: bool,
    /// 0x19: I_T nexus loss time (ms).
    pub it_nexus_loss_time: u16,
    /// 0x19: initiator response timeout (ms).
    pub initiator_response_timeout: u16,
    /// 0x1C: PERF.
    pub perf: bool,
    /// 0x1C: EBF.
    pub ebf: bool,
    /// 0x1C: EWASC.
    pub ewasc: bool,
    /// 0x1C: DEXCPT.
    pub dexcpt: bool,
    /// 0x1C: TEST.
    pub test: bool,
    /// 0x1C: LOGERR.
    pub logerr: bool,
    /// 0x1C: MRIE.
    pub mrie: u8,
    /// 0x1C: interval timer (100 ms units).
    pub interval_timer: u32,
    /// 0x1C: report count.
    pub report_count: u32,
    /// 0x1A: power condition timers.
    #[serde(default)]
    pub power: PowerConditionValues,
}

/// SPC-6 7.5.14 Power Condition mode page (0x1A): which condition timers are enabled, their
/// values (100 ms units) and the CCF fields. While the timers control the power condition
/// ([`Drive::power_condition`]), an enabled timer that runs out with no medium access puts the
/// drive in its condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PowerConditionValues {
    /// STANDBY_Y.
    pub standby_y: bool,
    /// IDLE_C.
    pub idle_c: bool,
    /// IDLE_B.
    pub idle_b: bool,
    /// IDLE_A.
    pub idle_a: bool,
    /// STANDBY_Z.
    pub standby_z: bool,
    /// IDLE_A CONDITION TIMER.
    pub idle_a_timer: u32,
    /// STANDBY_Z CONDITION TIMER.
    pub standby_z_timer: u32,
    /// IDLE_B CONDITION TIMER.
    pub idle_b_timer: u32,
    /// IDLE_C CONDITION TIMER.
    pub idle_c_timer: u32,
    /// STANDBY_Y CONDITION TIMER.
    pub standby_y_timer: u32,
    /// Byte 39: CCF IDLE 7-6, CCF STANDBY 5-4, CCF STOPPED 3-2.
    pub ccf: u8,
}

impl Default for PowerConditionValues {
    fn default() -> Self {
        PowerConditionValues {
            standby_y: false,
            idle_c: false,
            idle_b: false,
            idle_a: true,
            standby_z: false,
            idle_a_timer: 20,
            standby_z_timer: 0,
            idle_b_timer: 0,
            idle_c_timer: 0,
            standby_y_timer: 0,
            ccf: 0x54,
        }
    }
}

impl Default for ModeValues {
    fn default() -> Self {
        ModeValues {
            awre: true,
            arre: true,
            per: false,
            read_retry: 8,
            write_retry: 8,
            recovery_time_limit: 0,
            wce: true,
            rcd: false,
            d_sense: false,
            gltsd: false,
            it_nexus_loss_time: 2000,
            initiator_response_timeout: 0,
            perf: false,
            ebf: false,
            ewasc: false,
            dexcpt: false,
            test: false,
            logerr: false,
            mrie: 4,
            interval_timer: 0,
            report_count: 0,
            power: PowerConditionValues::default(),
        }
    }
}

/// Counters behind the error-counter log pages (0x02, 0x03, 0x05; SPC-5 7.3.x). LOG SELECT
/// PCR=1 zeroes them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorCounters {
    /// 0000 errors corrected without substantial delay.
    pub corrected_fast: u64,
    /// 0001 errors corrected with possible delays.
    pub corrected_delayed: u64,
    /// 0002 total rewrites or rereads.
    pub retries: u64,
    /// 0003 total errors corrected.
    pub corrected_total: u64,
    /// 0004 total times correction algorithm processed.
    pub algorithm_processed: u64,
    /// 0005 total bytes processed.
    pub bytes: u64,
    /// 0006 total uncorrected errors.
    pub uncorrected: u64,
}

/// Usage statistics of the drive (log pages 0x06, 0x0E, 0x19, 0x11 and the media model).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// Read commands (0x19 0001 bytes 4-11).
    pub read_cmds: u64,
    /// Write commands (0x19 0001 bytes 12-19).
    pub write_cmds: u64,
    /// Logical blocks received (written).
    pub blocks_written: u64,
    /// Logical blocks transmitted (read).
    pub blocks_read: u64,
    /// Host bytes written (all time; never reset).
    pub host_bytes_written: u64,
    /// Host bytes read (all time).
    pub host_bytes_read: u64,
    /// Read processing time, ns.
    pub read_busy_ns: u64,
    /// Write processing time, ns.
    pub write_busy_ns: u64,
    /// Non-medium errors (0x06 0000).
    pub non_medium_errors: u64,
    /// Accumulated start-stop cycles = power cycles (0x0E 0004).
    pub start_stop_cycles: u64,
    /// NAND bytes programmed (from the media model, scaled to the drive's capacity).
    pub nand_bytes_written: u64,
    /// Whole-drive erase passes done by format/sanitize.
    pub full_erases: u64,
    /// Background scans performed (0x15).
    pub background_scans: u64,
}

/// Self-test result (log page 0x10 entry).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SelfTestResult {
    /// SELF-TEST CODE (1 background short, 2 background extended, 5/6 foreground).
    pub code: u8,
    /// SELF-TEST RESULTS (0 ok, 1 aborted by SEND DIAGNOSTIC, 0xF in progress).
    pub result: u8,
    /// Accumulated power-on hours at completion.
    pub hours: u16,
    /// Failing LBA (u64::MAX = none).
    pub lba: u64,
    /// Sense key / ASC / ASCQ.
    pub sense: (u8, u8, u8),
}

/// A self-test started by SEND DIAGNOSTIC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunningSelfTest {
    /// SELF-TEST CODE (1/2 background short/extended, 5/6 foreground short/extended).
    pub code: u8,
    /// Start, drive clock ns.
    pub start_ns: u64,
    /// Duration ns.
    pub dur_ns: u64,
}

/// The power condition of the logical unit (SBC-5 4.19): what START STOP UNIT set. A command
/// that needs the medium moves an idle or standby drive back to active; a stopped one answers
/// NOT READY 04/02 until started.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PowerState {
    /// Active.
    #[default]
    Active,
    /// Idle: 0 idle_a, 1 idle_b, 2 idle_c.
    Idle(u8),
    /// Standby: 0 standby_z, 1 standby_y.
    Standby(u8),
    /// Stopped (START=0).
    Stopped,
}

/// Short self-test duration, seconds.
pub(crate) const SHORT_SELF_TEST_SECS: u64 = 30;
/// Extended self-test duration, seconds (VPD 0x86 and the Control mode page say 2 minutes).
pub(crate) const EXTENDED_SELF_TEST_SECS: u64 = 120;

/// Injected faults that persist until used up or cleared.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Faults {
    /// Next N commands complete with BUSY status.
    pub busy: u32,
    /// Next N commands time out (DID_TIME_OUT, followed by an LU reset from error handling).
    pub timeout: u32,
    /// Next N commands fail with DID_NO_CONNECT.
    #[serde(default)]
    pub disconnect: u32,
    /// LBAs whose reads fail with MEDIUM ERROR 11/00 until rewritten.
    pub medium_errors: BTreeSet<u64>,
    /// LBAs whose reads return the stored data with one byte flipped and GOOD status
    /// (silent data corruption, for `sgctl bench run --verify`), until faults are cleared.
    #[serde(default)]
    pub corrupt: BTreeSet<u64>,
    /// The next FORMAT UNIT fails (31/01, then 31/00).
    pub fail_format: bool,
    /// The next SANITIZE fails (31/03).
    pub fail_sanitize: bool,
    /// The next SANITIZE (or ATA erase) reports success and erases nothing.
    #[serde(default)]
    pub noop_sanitize: bool,
    /// The next FORMAT UNIT silently ends with this logical block length instead of the one
    /// asked for (a Toshiba MG07SCA formatted to 528 when 4096 was requested:
    /// Seagate/openSeaChest#156). Used by the erase tests to prove the READ CAPACITY check catches it.
    #[serde(default)]
    pub substitute_lb_len: Option<u32>,
    /// VPD 0xB4 leaves this logical block length out.
    #[serde(default)]
    pub unlisted_lb_len: Option<u32>,
    /// The K-th WRITE BUFFER of the next microcode download is cut short (DID_ERROR); the
    /// drive discards the download.
    #[serde(default)]
    pub fail_microcode: Option<u32>,
    /// Extended INQUIRY byte 19 is ANDed with this mask (the `microcode_modes` option).
    #[serde(default)]
    pub dm_md_mask: Option<u8>,
    /// Degrees added to the modelled temperature (a hot enclosure, a failing fan).
    #[serde(default)]
    pub heat_c: i16,
}

/// Everything that persists about one drive.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Drive {
    /// State-file format version.
    pub version: u32,
    /// Profile name.
    pub profile: String,
    /// Unit serial number.
    pub serial: String,
    /// NAA-5 logical unit name.
    pub lu_naa: u64,
    /// SAS addresses of target ports 1 and 2 (NAA-5).
    pub port_sas: [u64; 2],
    /// Target device name (NAA-5).
    pub target_naa: u64,
    /// User capacity in bytes at the factory block size (after scaling).
    pub capacity_bytes: u64,
    /// Logical block length.
    pub lb_len: u32,
    /// Number of logical blocks.
    pub num_blocks: u64,
    /// Protection type (0 none, 1..=3).
    pub prot_type: u8,
    /// P_I exponent.
    pub p_i_exp: u8,
    /// Block descriptor from MODE SELECT waiting for FORMAT UNIT.
    pub pending: Option<PendingFormat>,
    /// Long operation in progress.
    pub op: Option<LongOp>,
    /// Medium format corrupted (31/00) until a successful FORMAT UNIT.
    pub format_corrupt: bool,
    /// Sanitize failure mode (31/03): Some(AUSE of the failed sanitize).
    pub sanitize_failed: Option<bool>,
    /// Drive clock, ns since manufacture (virtual or real-time driven).
    pub now_ns: u64,
    /// Wall clock (ns since the Unix epoch) when the state was saved (real-clock catch-up).
    pub saved_unix_ns: u64,
    /// Pending unit attentions per target port (index = relative port - 1).
    pub ua: [Vec<(u8, u8)>; 2],
    /// Persistent reservations (SPC-5 5.14), per I_T nexus = target port.
    #[serde(default)]
    pub pr: crate::sim::cmd::pr::PrState,
    /// A deferred error to report on the next command.
    pub deferred: Option<SimSense>,
    /// Current mode values.
    pub mode: ModeValues,
    /// Saved mode values.
    pub mode_saved: ModeValues,
    /// Write error counters (page 0x02).
    pub write_errors: ErrorCounters,
    /// Read error counters (page 0x03).
    pub read_errors: ErrorCounters,
    /// Verify error counters (page 0x05).
    pub verify_errors: ErrorCounters,
    /// Usage statistics.
    pub stats: Stats,
    /// Parameter list of the last successful FORMAT UNIT (log page 0x08).
    pub last_format: Option<Vec<u8>>,
    /// Self-test results, most recent first (max 20).
    pub self_tests: Vec<SelfTestResult>,
    /// Self-test in progress.
    #[serde(default)]
    pub self_test: Option<RunningSelfTest>,
    /// Power condition set by START STOP UNIT (SBC-5 5.27, 4.19).
    #[serde(default)]
    pub power: PowerState,
    /// A START STOP UNIT with POWER CONDITION ACTIVE, IDLE or STANDBY took the control of the
    /// power condition from the timers (SBC-5 5.27), until LU_CONTROL, a logical unit reset or
    /// a power on gives it back.
    #[serde(default)]
    pub power_timers_off: bool,
    /// Drive clock when the power condition timers last started: the last command that needed
    /// the medium, LU_CONTROL, a reset or power on.
    #[serde(default)]
    pub power_timers_since_ns: u64,
    /// Drive clock at the end of the last successful FORMAT UNIT.
    #[serde(default)]
    pub last_format_ns: Option<u64>,
    /// Recent activity (0..), drives the temperature model.
    pub activity: f64,
    /// Clock when `activity` was last updated.
    pub activity_ns: u64,
    /// Average erase count per flash block (drive-equivalent, from the media model).
    pub wear_pe: f64,
    /// Rated P/E cycles of the flash (from the media model; 0 until known).
    pub pe_cycles: u32,
    /// Media work of completed long operations, applied by the media link.
    #[serde(default)]
    pub media_ops: Vec<crate::sim::medium::MediaOp>,
    /// When the long operation that queued `media_ops` started (drive clock ns): its media
    /// work (the block erases) runs during the operation, not after it.
    #[serde(default)]
    pub media_ops_since_ns: u64,
    /// Injected faults.
    pub faults: Faults,
    /// LBAs reallocated after an unrecovered read error (rewritten: AWRE), the grown defect
    /// list READ DEFECT DATA reports (SBC-4 5.19). Survives FORMAT UNIT.
    #[serde(default)]
    pub grown_defects: BTreeSet<u64>,
    /// Spare locations used by reallocations (REASSIGN BLOCKS and automatic write
    /// reallocation): reassigning an LBA again takes another one (SBC-4 REASSIGN BLOCKS, the
    /// NOTE in its overview).
    #[serde(default)]
    pub spares_used: u64,
    /// User data.
    pub store: Store,
    /// TCG state.
    pub sed: SedState,
    /// ATA state of a SATA profile behind the SATL (sim/src/sim/ata).
    #[serde(default)]
    pub ata: crate::sim::ata::AtaState,
    /// Microcode: the running revision, a deferred one (WRITE BUFFER, sim/src/sim/cmd/firmware.rs).
    #[serde(default)]
    pub firmware: crate::sim::cmd::firmware::FirmwareState,
}

fn hash64(parts: &[&[u8]]) -> u64 {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p);
    }
    let d = h.finalize();
    u64::from_be_bytes([d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]])
}

/// NAA-5 (IEEE registered): 4-bit NAA 5, 24-bit OUI, 36-bit vendor specific.
fn naa5(oui: u32, vendor: u64) -> u64 {
    (5u64 << 60) | (u64::from(oui & 0xFF_FFFF) << 36) | (vendor & 0xF_FFFF_FFFF)
}

impl Drive {
    /// A factory-fresh drive of `p` with this serial and user capacity (bytes).
    pub fn new(p: &Profile, serial: &str, capacity_bytes: u64) -> Drive {
        let id = hash64(&[p.name.as_bytes(), serial.as_bytes()]) & 0xF_FFFF_FFF0;
        let lu_naa = naa5(p.oui, id);
        let lb = p.default_block_len;
        let num_blocks = capacity_bytes / u64::from(lb);
        // A used drive (ex-array) comes pre-aged: the media profile's average erase count
        // and what it implies (sim/src/sim/aging.rs), over the hours the profile states.
        let (preworn, pe_cycles) = p
            .media()
            .map_or((0, 0), |m| (m.preworn_pe, m.geometry.pe_cycles));
        let mut d = Drive {
            version: STATE_VERSION,
            profile: p.name.to_string(),
            serial: serial.to_string(),
            lu_naa,
            port_sas: [naa5(p.oui, id | 0x1), naa5(p.oui, id | 0x2)],
            target_naa: naa5(p.oui, id | 0x3),
            capacity_bytes,
            lb_len: lb,
            num_blocks,
            prot_type: p.default_prot_type,
            p_i_exp: 0,
            pending: None,
            op: None,
            format_corrupt: false,
            sanitize_failed: None,
            now_ns: 0,
            saved_unix_ns: 0,
            ua: [Vec::new(), Vec::new()],
            pr: Default::default(),
            deferred: None,
            mode: ModeValues::default(),
            mode_saved: ModeValues::default(),
            write_errors: ErrorCounters::default(),
            read_errors: ErrorCounters::default(),
            verify_errors: ErrorCounters::default(),
            stats: Stats::default(),
            last_format: None,
            self_tests: Vec::new(),
            self_test: None,
            power: PowerState::Active,
            power_timers_off: false,
            power_timers_since_ns: 0,
            last_format_ns: None,
            activity: 0.0,
            activity_ns: 0,
            wear_pe: 0.0,
            pe_cycles,
            media_ops: Vec::new(),
            media_ops_since_ns: 0,
            faults: Faults::default(),
            grown_defects: BTreeSet::new(),
            spares_used: 0,
            store: Store::new(lb, id),
            sed: SedState::new(p.sed, serial, p.ships_locked, lb),
            ata: crate::sim::ata::AtaState::default(),
            firmware: Default::default(),
        };
        if preworn > 0 || p.initial_power_on_hours > 0 {
            let hours = (p.initial_power_on_hours > 0).then(|| f64::from(p.initial_power_on_hours));
            let a = crate::sim::aging::derive(p, capacity_bytes, f64::from(preworn), hours);
            d.age_to(&a);
        }
        d
    }

    /// The profile this drive was built from.
    pub fn profile(&self) -> Option<&'static Profile> {
        profile::find(&self.profile)
    }

    /// Spare locations the firmware sets aside for reallocated LBAs: one per 512 KiB of
    /// user capacity, at least 8 (about 0.1 % of a 512-byte-block drive's LBAs; an SSD takes
    /// them from its over-provisioning, whose page map could hold more, but the reallocation
    /// table is sized by the firmware). When they are used up REASSIGN BLOCKS fails with
    /// 04/32/00 NO DEFECT SPARE LOCATION AVAILABLE.
    pub(crate) fn spare_locations(&self) -> u64 {
        (self.capacity_bytes >> 19).max(8)
    }

    /// Spare locations still free.
    pub(crate) fn spares_left(&self) -> u64 {
        self.spare_locations().saturating_sub(self.spares_used)
    }

    /// Records LBA `lba` as reallocated: it joins the grown defect list and takes a spare
    /// (automatic write reallocation keeps going when none is left: the write succeeded).
    pub fn reallocate(&mut self, lba: u64) {
        self.grown_defects.insert(lba);
        self.spares_used = self.spares_used.saturating_add(1);
    }

    /// A write of `blocks` blocks at `lba` succeeded: each of them that failed to read is
    /// reallocated (SBC-4 4.14 automatic write reallocation, AWRE=1) and joins the grown
    /// defect list.
    pub(crate) fn heal_written(&mut self, lba: u64, blocks: u64) {
        let healed: Vec<u64> = self
            .faults
            .medium_errors
            .range(lba..lba.saturating_add(blocks))
            .copied()
            .collect();
        for l in healed {
            self.faults.medium_errors.remove(&l);
            self.reallocate(l);
        }
    }

    /// Largest number of blocks of `lb_len` bytes the medium holds.
    pub(crate) fn max_blocks(&self, lb_len: u32) -> u64 {
        self.capacity_bytes / u64::from(lb_len.max(1))
    }

    /// Queues a unit attention on `port` (1 or 2); 0 = all ports.
    pub(crate) fn add_ua(&mut self, port: u16, asc: u8, ascq: u8) {
        for (i, q) in self.ua.iter_mut().enumerate() {
            if port == 0 || usize::from(port) == i + 1 {
                if q.len() >= 8 {
                    q.remove(0);
                }
                if !q.contains(&(asc, ascq)) {
                    q.push((asc, ascq));
                }
            }
        }
    }

    /// Completes a long operation whose time has come. Returns the sense for a failure.
    pub fn tick(&mut self) -> Option<SimSense> {
        let st = self.finish_self_test();
        let op = match self.op.as_ref() {
            Some(op) => op,
            None => return st,
        };
        if self.now_ns < op.end_ns() {
            return None;
        }
        let end_ns = op.end_ns();
        let op = self.op.take()?;
        let (LongOp::Format { start_ns, .. } | LongOp::Sanitize { start_ns, .. }) = op;
        self.media_ops_since_ns = start_ns;
        // The operation used the medium to its end: the power condition timers start there.
        self.power_timers_since_ns = self.power_timers_since_ns.max(end_ns);
        match op {
            LongOp::Format { job, .. } => self.finish_format(job),
            LongOp::Sanitize { job, .. } => self.finish_sanitize(job),
        }
    }

    /// Ends a self-test whose time has come and logs its result (SPC-5 5.x self-test
    /// operations). An extended self-test reads the whole medium, so it finds injected
    /// medium errors; a foreground one reports its failure as 3E/03.
    fn finish_self_test(&mut self) -> Option<SimSense> {
        let t = self.self_test?;
        if self.now_ns < t.start_ns.saturating_add(t.dur_ns) {
            return None;
        }
        self.self_test = None;
        self.power_timers_since_ns = self
            .power_timers_since_ns
            .max(t.start_ns.saturating_add(t.dur_ns));
        let bad = if t.code == 2 || t.code == 6 {
            self.faults.medium_errors.iter().next().copied()
        } else {
            None
        };
        self.log_self_test(SelfTestResult {
            code: t.code,
            result: if bad.is_some() { 7 } else { 0 },
            hours: (self.now_ns / 3_600_000_000_000).min(0xFFFF) as u16,
            lba: bad.unwrap_or(u64::MAX),
            sense: if bad.is_some() {
                (3, 0x11, 0)
            } else {
                (0, 0, 0)
            },
        });
        (bad.is_some() && t.code >= 5).then(|| SimSense::new(key::HARDWARE_ERROR, 0x3E, 0x03))
    }

    /// Adds a self-test result (most recent first, 20 kept).
    pub(crate) fn log_self_test(&mut self, r: SelfTestResult) {
        self.self_tests.insert(0, r);
        self.self_tests.truncate(20);
    }

    fn finish_format(&mut self, job: FormatJob) -> Option<SimSense> {
        if !job.fast {
            self.stats.full_erases += 1;
        }
        if job.fail {
            // SBC-4 5.3: FORMAT UNIT failure; the medium stays unusable (31/00) until formatted.
            self.format_corrupt = true;
            return Some(SimSense::new(key::MEDIUM_ERROR, 0x31, 0x01));
        }
        let mut job = job;
        if let Some(lb) = self.faults.substitute_lb_len.take() {
            let bytes = job.num_blocks.saturating_mul(u64::from(job.lb_len));
            job.num_blocks = bytes / u64::from(lb.max(1));
            job.lb_len = lb;
        }
        let changed = job.lb_len != self.lb_len || job.num_blocks != self.num_blocks;
        self.lb_len = job.lb_len;
        self.num_blocks = job.num_blocks;
        self.prot_type = job.prot_type;
        self.p_i_exp = job.p_i_exp;
        self.format_corrupt = false;
        if !job.keep_data {
            self.store.reset(job.lb_len);
            self.media_ops.push(if job.fast {
                crate::sim::medium::MediaOp::TrimAll
            } else {
                crate::sim::medium::MediaOp::EraseAll
            });
        } else {
            self.store.truncate(job.num_blocks);
        }
        if let Some(pat) = &job.pattern {
            self.store.fill_pattern(pat);
        }
        self.sed.logical_block_size = job.lb_len;
        self.faults.medium_errors.clear();
        if changed {
            // Other I_T nexuses learn about it through 2A/09 CAPACITY DATA HAS CHANGED.
            let other = if job.port == 1 { 2 } else { 1 };
            self.add_ua(other, 0x2A, 0x09);
        }
        self.last_format = Some(job.param_list);
        self.last_format_ns = Some(self.now_ns);
        None
    }

    fn finish_sanitize(&mut self, job: SanitizeJob) -> Option<SimSense> {
        if job.fail {
            self.sanitize_failed = Some(job.ause);
            return Some(SimSense::new(key::MEDIUM_ERROR, 0x31, 0x03));
        }
        self.sanitize_failed = None;
        if job.noop {
            return None;
        }
        self.format_corrupt = false;
        self.faults.medium_errors.clear();
        match job.sa {
            0x01 => {
                self.store.fill_pattern(&job.pattern);
                // Each pass programs the whole medium: one erase per block per pass.
                for _ in 0..job.passes.max(1) {
                    self.media_ops.push(crate::sim::medium::MediaOp::EraseAll);
                }
                self.stats.full_erases += u64::from(job.passes.max(1));
            }
            0x02 => {
                let lb = self.lb_len;
                self.store.reset(lb);
                self.media_ops.push(crate::sim::medium::MediaOp::EraseAll);
                self.stats.full_erases += 1;
            }
            _ => {
                self.sed.crypto_erase();
                self.store.drop_background();
            }
        }
        None
    }

    /// The INQUIRY PRODUCT REVISION LEVEL running: the profile's until microcode changes it.
    pub fn revision<'a>(&'a self, p: &'a Profile) -> &'a str {
        self.firmware.revision.as_deref().unwrap_or(p.revision)
    }

    /// Power cycle: a format in progress is lost (31/00), a sanitize resumes, mode values
    /// revert to saved, a MODE SELECT block descriptor is forgotten, UA 29/00 on all ports.
    pub fn power_cycle(&mut self) {
        self.reset_common();
        self.power = PowerState::Active;
        self.mode = self.mode_saved;
        self.stats.start_stop_cycles += 1;
        self.sed.power_cycle();
        self.ata.power_cycle();
        self.firmware.power_on();
        for q in self.ua.iter_mut() {
            q.clear();
        }
        self.add_ua(0, 0x29, 0x00);
    }

    /// Logical unit reset (SAM-5 6.x): UA 29/03 BUS DEVICE RESET FUNCTION OCCURRED on all
    /// ports; a format in progress is lost, a sanitize resumes.
    pub fn lu_reset(&mut self) {
        self.reset_common();
        self.add_ua(0, 0x29, 0x03);
    }

    fn reset_common(&mut self) {
        if let Some(LongOp::Format { .. }) = self.op {
            self.op = None;
            self.format_corrupt = true;
        }
        if let Some(t) = self.self_test.take() {
            // A reset aborts a self-test: result 2 "aborted by some other method".
            self.log_self_test(SelfTestResult {
                code: t.code,
                result: 2,
                hours: (self.now_ns / 3_600_000_000_000).min(0xFFFF) as u16,
                lba: u64::MAX,
                sense: (0, 0, 0),
            });
        }
        self.pending = None;
        self.deferred = None;
        // SBC-5 5.27: a reset gives the power condition back to the timers, which restart.
        self.power_timers_off = false;
        self.power_timers_since_ns = self.now_ns;
    }

    /// The power condition now, and whether a timer put the drive in it (SPC-6 5.12 power
    /// condition state machine, timers of the Power Condition mode page in 100 ms units): a
    /// condition START STOP UNIT set stays; else, while the timers control it, the lowest-power
    /// condition whose enabled timer has run out since the last medium access (standby_y,
    /// standby_z, idle_c, idle_b, idle_a, from the lowest power up); else active. No timer runs
    /// out during a FORMAT UNIT, SANITIZE or self-test.
    pub fn power_condition(&self) -> (PowerState, bool) {
        if self.power != PowerState::Active
            || self.power_timers_off
            || self.op.is_some()
            || self.self_test.is_some()
        {
            return (self.power, false);
        }
        let pc = &self.mode.power;
        let idle_ns = self.now_ns.saturating_sub(self.power_timers_since_ns);
        // A timer of zero runs out at once: the drive's minimum, 100 ms.
        let ran_out = |on: bool, t: u32| on && idle_ns >= u64::from(t.max(1)) * 100_000_000;
        [
            (pc.standby_y, pc.standby_y_timer, PowerState::Standby(1)),
            (pc.standby_z, pc.standby_z_timer, PowerState::Standby(0)),
            (pc.idle_c, pc.idle_c_timer, PowerState::Idle(2)),
            (pc.idle_b, pc.idle_b_timer, PowerState::Idle(1)),
            (pc.idle_a, pc.idle_a_timer, PowerState::Idle(0)),
        ]
        .into_iter()
        .find(|&(on, t, _)| ran_out(on, t))
        .map_or((PowerState::Active, false), |(_, _, s)| (s, true))
    }

    /// A command that needs the medium: an idle or standby drive goes back to active and the
    /// power condition timers start again (SBC-5 4.19).
    pub(crate) fn medium_access(&mut self) {
        if self.power != PowerState::Stopped {
            self.power = PowerState::Active;
        }
        self.power_timers_since_ns = self.now_ns;
    }

    /// Records recent activity for the temperature model: busy for `busy_ns` at `now`.
    pub(crate) fn note_activity(&mut self, busy_ns: u64) {
        const TAU_NS: f64 = 60e9;
        let dt = self.now_ns.saturating_sub(self.activity_ns) as f64;
        self.activity = self.activity * (-dt / TAU_NS).exp() + busy_ns as f64 / TAU_NS;
        self.activity_ns = self.now_ns;
    }

    /// Current temperature, degrees C: idle temperature plus up to 15 degrees of load heat.
    pub fn temperature(&self, p: &Profile) -> u8 {
        const TAU_NS: f64 = 60e9;
        let dt = self.now_ns.saturating_sub(self.activity_ns) as f64;
        let a = self.activity * (-dt / TAU_NS).exp();
        let heat = (a.min(1.0) * 15.0).round() as i16;
        (i16::from(p.idle_temp_c) + heat + self.faults.heat_c).clamp(0, 0xFE) as u8
    }

    /// The informational exception condition, if any (SPC-5 5.x; log page 0x2F parameter 0):
    /// TEST=1 false failure 5D/FF; endurance limit reached 5D/73; temperature at or above the
    /// reference temperature 0B/01. DEXCPT=1 disables reporting (not the log page).
    pub(crate) fn ie_condition(&self, p: &Profile) -> Option<(u8, u8)> {
        if self.mode.test {
            Some((0x5D, 0xFF))
        } else if self.endurance_used(p) >= 100 {
            Some((0x5D, 0x73))
        } else if self.temperature(p) >= p.trip_temp_c {
            Some((0x0B, 0x01))
        } else {
            None
        }
    }

    /// Accumulated power-on time in minutes.
    pub fn power_on_minutes(&self) -> u64 {
        self.now_ns / 60_000_000_000
    }

    /// Percentage used endurance (0..=255): average erase count of the flash blocks against
    /// the rated P/E cycles (SBC-4 6.4.12; the media model counts the erases).
    pub fn endurance_used(&self, p: &Profile) -> u8 {
        let pe = if self.pe_cycles > 0 {
            self.pe_cycles
        } else {
            p.media().map_or(3000, |m| m.geometry.pe_cycles)
        };
        let pct = self.wear_pe * 100.0 / f64::from(pe.max(1));
        pct.floor().clamp(0.0, 255.0) as u8
    }
}
