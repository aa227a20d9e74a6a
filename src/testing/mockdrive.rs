//! A small scripted drive for the erase jobs' unit tests (the full virtual drive is `sim:`).
//! It models just what FORMAT UNIT / SANITIZE flows need, with faults: power cycle,
//! failing sanitize, refused PI types, a silent block-size substitution, a no-op sanitize.
//! Progress advances one step per REQUEST SENSE poll.

use crate::error::Result;
use crate::sense::{build_fixed, SenseKey};
use crate::transport::{Completion, DataBuf, Transport};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    Idle,
    Formatting { step: u32 },
    Sanitizing { sa: u8, step: u32, ause: bool },
    FormatCorrupt,
    SanitizeFailed { ause: bool },
}

#[derive(Debug)]
pub struct State {
    pub serial: String,
    /// Low 32 bits of the NAA LU name.
    pub lu: u32,
    pub lb_len: u32,
    pub blocks: u64,
    pub prot: u8,
    pub pie: u8,
    pub pending: (u32, u64),
    pub supported_pi: Vec<u8>,
    pub sp_savable: bool,
    pub sizes: Vec<u32>,
    pub op: Op,
    pub steps: u32,
    pub ua: bool,
    pub supported_sa: Vec<u8>,
    pub fail_sanitize: bool,
    pub noop_sanitize: bool,
    pub substitute_block: Option<u32>,
    pub data: HashMap<u64, Vec<u8>>,
    pub erased: Option<u8>,
    pub log: Vec<Vec<u8>>,
}

#[derive(Clone)]
pub struct MockDrive(pub Arc<Mutex<State>>);

impl MockDrive {
    // Each call is another drive (its own logical unit): not a `Default` value.
    #[allow(clippy::new_without_default)]
    pub fn new() -> MockDrive {
        // Every mock drive is its own logical unit (its own NAA in VPD 0x83), as two real
        // drives are: the per-LU job lock must not see tests running in parallel as one drive.
        static NEXT_LU: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);
        let lu = NEXT_LU.fetch_add(1, std::sync::atomic::Ordering::Relaxed) ^ std::process::id();
        MockDrive(Arc::new(Mutex::new(State {
            lu,
            serial: "MOCK0001".into(),
            lb_len: 512,
            blocks: 1 << 20,
            prot: 0,
            pie: 0,
            pending: (512, 1 << 20),
            supported_pi: vec![0, 1, 2],
            sp_savable: false,
            sizes: vec![512, 520, 4096],
            op: Op::Idle,
            steps: 4,
            ua: false,
            supported_sa: vec![1, 2, 3, 0x1f],
            fail_sanitize: false,
            noop_sanitize: false,
            substitute_block: None,
            data: HashMap::new(),
            erased: None,
            log: vec![],
        })))
    }

    pub fn st(&self) -> std::sync::MutexGuard<'_, State> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Power cycle: a running format leaves the medium corrupt; sanitize resumes.
    pub fn power_cycle(&self) {
        let mut s = self.st();
        if matches!(s.op, Op::Formatting { .. }) {
            s.op = Op::FormatCorrupt;
        }
        s.ua = true;
    }

    pub fn opcodes(&self) -> Vec<u8> {
        self.st().log.iter().map(|c| c[0]).collect()
    }
}

fn sense(key: SenseKey, asc: u8, ascq: u8) -> Completion {
    Completion::check_condition(build_fixed(key, asc, ascq))
}

fn illegal(asc: u8) -> Completion {
    sense(SenseKey::IllegalRequest, asc, 0)
}

fn fill_in(data: DataBuf<'_>, bytes: &[u8]) -> Completion {
    if let DataBuf::In(b) = data {
        let n = b.len().min(bytes.len());
        b[..n].copy_from_slice(&bytes[..n]);
        Completion {
            resid: b.len() - n,
            ..Completion::good()
        }
    } else {
        Completion::good()
    }
}

fn progress_sense(asc: u8, ascq: u8, step: u32, steps: u32) -> Vec<u8> {
    let mut s = build_fixed(SenseKey::NotReady, asc, ascq);
    let p = (u64::from(step) * 65536 / u64::from(steps.max(1))).min(65535) as u16;
    s[15] = 0x80;
    s[16..18].copy_from_slice(&p.to_be_bytes());
    s
}

impl State {
    fn user_block(&self, lba: u64) -> Vec<u8> {
        if let Some(d) = self.data.get(&lba) {
            return d.clone();
        }
        match self.erased {
            Some(fill) => vec![fill; self.lb_len as usize],
            None => (0..self.lb_len)
                .map(|i| (lba as u32).wrapping_mul(31).wrapping_add(i) as u8 | 1)
                .collect(),
        }
    }

    fn busy(&self) -> Option<Completion> {
        match &self.op {
            Op::Formatting { step } => Some(Completion::check_condition(progress_sense(
                4, 4, *step, self.steps,
            ))),
            Op::Sanitizing { step, .. } => Some(Completion::check_condition(progress_sense(
                4, 0x1b, *step, self.steps,
            ))),
            Op::FormatCorrupt => Some(sense(SenseKey::MediumError, 0x31, 0)),
            Op::SanitizeFailed { .. } => Some(sense(SenseKey::MediumError, 0x31, 3)),
            Op::Idle => None,
        }
    }

    fn request_sense(&mut self, data: DataBuf<'_>) -> Completion {
        if self.ua {
            self.ua = false;
            return fill_in(data, &build_fixed(SenseKey::UnitAttention, 0x29, 0));
        }
        let steps = self.steps;
        let bytes = match self.op.clone() {
            Op::Formatting { step } if step + 1 >= steps => {
                self.op = Op::Idle;
                self.lb_len = self.substitute_block.unwrap_or(self.pending.0);
                let bytes = self.blocks * 512;
                self.blocks = if self.pending.1 == 0 {
                    bytes / u64::from(self.lb_len)
                } else {
                    self.pending.1
                };
                build_fixed(SenseKey::NoSense, 0, 0)
            }
            Op::Formatting { step } => {
                self.op = Op::Formatting { step: step + 1 };
                progress_sense(4, 4, step, steps)
            }
            Op::Sanitizing { sa, step, ause } if step + 1 >= steps => {
                if self.fail_sanitize {
                    self.op = Op::SanitizeFailed { ause };
                    build_fixed(SenseKey::MediumError, 0x31, 3)
                } else {
                    self.op = Op::Idle;
                    if !self.noop_sanitize {
                        self.data.clear();
                        self.erased = Some(if sa == 2 { 0 } else { 0x5c });
                    }
                    build_fixed(SenseKey::NoSense, 0, 0)
                }
            }
            Op::Sanitizing { sa, step, ause } => {
                self.op = Op::Sanitizing {
                    sa,
                    step: step + 1,
                    ause,
                };
                progress_sense(4, 0x1b, step, steps)
            }
            Op::FormatCorrupt => build_fixed(SenseKey::MediumError, 0x31, 0),
            Op::SanitizeFailed { .. } => build_fixed(SenseKey::MediumError, 0x31, 3),
            Op::Idle => build_fixed(SenseKey::NoSense, 0, 0),
        };
        fill_in(data, &bytes)
    }

    fn exec(&mut self, cdb: &[u8], data: DataBuf<'_>) -> Completion {
        let op = cdb[0];
        if op == 0x03 {
            return self.request_sense(data);
        }
        if op != 0x12 && op != 0xa3 {
            if self.ua {
                self.ua = false;
                return sense(SenseKey::UnitAttention, 0x29, 0);
            }
            let sanitize_exit = op == 0x48 && !matches!(self.op, Op::Sanitizing { .. });
            let format_recovery = op == 0x04 && self.op == Op::FormatCorrupt;
            let mode_ok = (op == 0x5a || op == 0x55) && self.op == Op::FormatCorrupt;
            if !(sanitize_exit || format_recovery || mode_ok) {
                if let Some(c) = self.busy() {
                    return c;
                }
            }
        }
        match op {
            0x00 => Completion::good(),
            0x12 if cdb[1] & 1 == 0 => {
                let mut d = vec![0u8; 96];
                d[2] = 6;
                d[4] = 91;
                d[5] = 1; // PROTECT
                d[8..16].copy_from_slice(b"MOCKVEND");
                d[16..32].copy_from_slice(b"MOCK SAS SSD    ");
                d[32..36].copy_from_slice(b"0001");
                fill_in(data, &d)
            }
            0x12 => match cdb[2] {
                0x00 => fill_in(data, &[0, 0x00, 0, 3, 0x00, 0x80, 0x83]),
                0x80 => {
                    let mut d = vec![0, 0x80, 0, self.serial.len() as u8];
                    d.extend_from_slice(self.serial.as_bytes());
                    fill_in(data, &d)
                }
                0x83 => {
                    let mut d = vec![0, 0x83, 0, 12, 0x01, 0x03, 0, 8, 0x50, 0x00, 0x0c, 0x50];
                    d.extend_from_slice(&self.lu.to_be_bytes());
                    fill_in(data, &d)
                }
                _ => illegal(0x24),
            },
            0x9e => {
                let mut d = vec![0u8; 32];
                d[0..8].copy_from_slice(&(self.blocks - 1).to_be_bytes());
                d[8..12].copy_from_slice(&self.lb_len.to_be_bytes());
                if self.prot > 0 {
                    d[12] = ((self.prot - 1) << 1) | 1;
                    d[13] = self.pie << 4;
                }
                fill_in(data, &d)
            }
            0x5a => {
                let mut d = vec![0u8; 8 + 16 + 12];
                d[1] = (d.len() - 2) as u8;
                d[4] = 1;
                d[7] = 16;
                d[8..16].copy_from_slice(&self.blocks.to_be_bytes());
                d[20..24].copy_from_slice(&self.pending.0.to_be_bytes());
                d[24] = 0x81; // PS + page 1
                d[25] = 10;
                fill_in(data, &d)
            }
            0x55 => {
                let DataBuf::Out(p) = data else {
                    return illegal(0x24);
                };
                if cdb[1] & 1 != 0 && !self.sp_savable {
                    return illegal(0x24);
                }
                if p.len() < 24 || p[24] & 0x80 != 0 {
                    return illegal(0x26);
                }
                let len = u32::from_be_bytes([p[20], p[21], p[22], p[23]]);
                if !self.sizes.contains(&len) {
                    return illegal(0x26);
                }
                let n = u64::from_be_bytes(p[8..16].try_into().unwrap_or([0; 8]));
                self.pending = (len, n);
                Completion::good()
            }
            0x04 => {
                let DataBuf::Out(p) = data else {
                    return illegal(0x24);
                };
                let fmtpinfo = cdb[1] >> 6;
                let pfu = p.first().copied().unwrap_or(0) & 7;
                let target = match (fmtpinfo, pfu) {
                    (0, 0) => 0,
                    (2, 0) => 1,
                    (3, 0) => 2,
                    (3, 1) => 3,
                    _ => return illegal(0x24),
                };
                if !self.supported_pi.contains(&target) {
                    return illegal(0x24);
                }
                self.prot = target;
                self.pie = if cdb[1] & 0x20 != 0 { p[3] & 0xf } else { 0 };
                self.data.clear();
                self.erased = Some(0);
                self.op = Op::Formatting { step: 0 };
                Completion::good()
            }
            0x48 => {
                let sa = cdb[1] & 0x1f;
                let ause = cdb[1] & 0x20 != 0;
                if !self.supported_sa.contains(&sa) {
                    return illegal(0x24);
                }
                if sa == 0x1f {
                    return match self.op {
                        Op::SanitizeFailed { ause: true } => {
                            self.op = Op::Idle;
                            Completion::good()
                        }
                        _ => illegal(0x24),
                    };
                }
                if let Op::SanitizeFailed { ause: false } = self.op {
                    if ause {
                        return illegal(0x24);
                    }
                }
                self.op = Op::Sanitizing { sa, step: 0, ause };
                Completion::good()
            }
            0xa3 => {
                let sa = u16::from_be_bytes([cdb[4], cdb[5]]);
                let sup = cdb[3] != 0x48 || self.supported_sa.contains(&(sa as u8));
                // One-command format: support, CDB size 10, CDB usage bitmap (10 bytes).
                let d = [
                    0,
                    if sup { 3 } else { 1 },
                    0,
                    10,
                    0x48,
                    0xff,
                    0,
                    0,
                    0,
                    0,
                    0,
                    0xff,
                    0xff,
                    0x07,
                ];
                fill_in(data, &d)
            }
            0x88 => {
                let lba = u64::from_be_bytes(cdb[2..10].try_into().unwrap_or([0; 8]));
                if lba >= self.blocks {
                    return illegal(0x21);
                }
                let blk = self.user_block(lba);
                fill_in(data, &blk)
            }
            _ => illegal(0x20),
        }
    }
}

impl Transport for MockDrive {
    fn execute(&mut self, cdb: &[u8], data: DataBuf<'_>, _t: Duration) -> Result<Completion> {
        let mut s = self.st();
        s.log.push(cdb.to_vec());
        Ok(s.exec(cdb, data))
    }
    fn address(&self) -> String {
        "mock:0".into()
    }
}
