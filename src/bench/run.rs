//! One workload on one drive (`sgctl bench run`), below the command line: for a workload that
//! writes, the safety gate and the audit records ([`crate::ops::session`]); the engine, the PM
//! QoS request and Ctrl-C; the report document, with the identity the gate read handed to its
//! header rather than read again.
//!
//! The caller hands in typed options ([`RunOptions`]) and what the session needs from the
//! outside world ([`RunEnv`]); the result ([`RunOutcome`]) holds the figures, the report
//! document and how the run ended, for the caller to word.

use std::path::PathBuf;

use crate::bench::engine::{self, Authorization, BenchError, EngineKind};
use crate::bench::report::run::{RunReport, RunSettings};
use crate::bench::report::suite::Header;
use crate::bench::stats::{Interval, RunResult};
use crate::bench::suite::cache::{self, WriteCache};
use crate::bench::workload::{RangeSpec, Workload};
use crate::discover::ident::Identity;
use crate::host::HostView;
use crate::ops::audit::AuditLog;
use crate::ops::gate;
use crate::ops::gate::{Confirmation, DriveName, GateRequest, Prompter};

/// What to run: typed values (the CLI parses its flags into these).
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Device: a block node, an sg node, a file, or a `sim:` address.
    pub device: String,
    /// The workload (its range unresolved: see [`RunOptions::range`]).
    pub workload: Workload,
    /// ActiveRange, resolved against the capacity the engine finds.
    pub range: Option<RangeSpec>,
    /// Engine.
    pub engine: EngineKind,
    /// Hold the CPUs' idle wake-up latency at most this many microseconds for the run.
    pub cpu_latency: Option<u32>,
    /// Serials or WWNs naming the drive (a workload that writes).
    pub confirm: Vec<String>,
    /// Also write `report.json` and `report.html` into this directory.
    pub report: Option<PathBuf>,
}

/// What a run needs from the outside world (as the job layer's `JobEnv`).
pub struct RunEnv<'a> {
    /// The host view for the gate's in-use check of a SCSI drive (a file or a non-SCSI block
    /// device is checked by its own mounts, swap and holders: `crate::bench::PlainHost`).
    pub host: &'a dyn HostView,
    /// Asks for the typed confirmation when `confirm` is empty.
    pub prompter: &'a mut dyn Prompter,
    /// Whether a person can be asked.
    pub interactive: bool,
    /// Where the start and end records of a writing run go.
    pub audit: AuditLog,
    /// Each interval of the time series, as it is measured.
    pub progress: &'a mut dyn FnMut(&Interval),
}

/// How a run ended and what it measured.
#[derive(Debug)]
pub struct RunOutcome {
    /// The workload as run (range resolved).
    pub workload: Workload,
    /// The figures (partial when the device failed or the run was interrupted).
    pub result: RunResult,
    /// The device failed mid-run: the first error, decoded.
    pub failed: Option<String>,
    /// Stopped by Ctrl-C (SIGINT): the results are partial.
    pub interrupted: bool,
    /// The report document (written when [`RunOptions::report`] names a directory).
    pub report: RunReport,
    /// The audit job id of a writing run.
    pub job_id: Option<String>,
    /// The audit log of a writing run.
    pub audit_log: Option<PathBuf>,
}

impl RunOutcome {
    /// `--verify` found a bad block.
    pub fn verify_failed(&self) -> bool {
        self.result.verify.as_ref().is_some_and(|v| v.failures > 0)
    }
}

/// A `sim:` address, a character (sg) node or a SCSI block device.
fn is_scsi(addr: &str) -> bool {
    crate::device::is_virtual_address(addr) || {
        use std::os::unix::fs::FileTypeExt;
        std::fs::metadata(addr).is_ok_and(|m| m.file_type().is_char_device())
            || crate::bench::block_is_scsi(addr)
    }
}

/// The name the gate checks the confirmation against, the identity of a SCSI drive (read
/// once, here) and the host view for the in-use check.
fn identify<'h>(
    addr: &str,
    scsi: bool,
    host: &'h dyn HostView,
    plain: &'h mut Option<crate::bench::PlainHost>,
) -> crate::Result<(DriveName, Option<Identity>, &'h dyn HostView)> {
    if scsi {
        let mut t = crate::device::open(addr, crate::device::OpenOptions::default())?.transport;
        let id = crate::ops::query::identity(&mut *t)?;
        drop(t);
        let name = DriveName {
            serial: id.serial.clone(),
            wwn: id.wwn.clone(),
        };
        return Ok((name, Some(id), host));
    }
    // A non-SCSI block device (loop, nvme, ...) or a regular file: named by its kernel name
    // or its path; in use when it or a partition is mounted, swap or held.
    let p = plain.insert(crate::bench::PlainHost::new(addr));
    let name = DriveName {
        serial: p.name(),
        wwn: None,
    };
    Ok((name, None, &*p))
}

fn kernel() -> String {
    std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .map(|s| s.trim().to_string())
        .unwrap_or_default()
}

/// The report header and the write cache of `addr`, read before the run with read-only
/// commands (READ CAPACITY(16) for the protection type, MODE SENSE(10) of the Caching page;
/// INQUIRY and VPD only when `identity` was not read for the gate) through `held`, the target
/// the engine already holds ([`crate::bench::engine::Engine::transport`]), or through the
/// device opened here when the engine holds none. A non-SCSI block device or a file is named
/// by its path; what cannot be read goes into the notes.
#[allow(clippy::too_many_arguments)]
pub(crate) fn header_of(
    addr: &str,
    identity: Option<Identity>,
    held: Option<&mut dyn crate::Transport>,
    scsi: bool,
    engine: &str,
    capacity: u64,
    block_len: u32,
    notes: &mut Vec<String>,
) -> (Header, WriteCache) {
    let mut h = Header {
        address: addr.into(),
        capacity_bytes: capacity,
        block_len,
        interface: if crate::device::is_virtual_address(addr) {
            "virtual SAS SSD (sgctl sim)".into()
        } else if scsi {
            "SAS/SCSI".into()
        } else if addr.starts_with("/dev/") {
            "block device".into()
        } else {
            "file".into()
        },
        engine: engine.into(),
        host: crate::host::hostname(),
        kernel: kernel(),
        tool: format!(
            "sgctl {} ({})",
            env!("CARGO_PKG_VERSION"),
            env!("SGCTL_GIT_REV")
        ),
        ..Header::default()
    };
    let mut wc = WriteCache {
        required: "unchanged".into(),
        restored: true,
        ..WriteCache::default()
    };
    if !scsi {
        h.serial = crate::bench::PlainHost::new(addr).name();
        wc.notes
            .push("not a SCSI device: the Caching mode page was not read".into());
        return (h, wc);
    }
    let mut opened;
    let t: &mut dyn crate::Transport = match held {
        Some(t) => t,
        None => match crate::device::open(addr, crate::device::OpenOptions::traced(0))
            .map(|o| o.transport)
        {
            Ok(t) => {
                opened = t;
                &mut *opened
            }
            Err(e) => {
                notes.push(format!("identity not read: {e}"));
                return (h, wc);
            }
        },
    };
    let id = match identity {
        Some(id) => Ok(id),
        None => crate::ops::query::identity(t),
    };
    match id {
        Ok(id) => {
            h.vendor = id.vendor;
            h.model = id.model;
            h.serial = id.serial;
            h.firmware = id.firmware;
            h.wwn = id.wwn;
        }
        Err(e) => notes.push(format!("identity not read: {e}")),
    }
    if let Ok(cap) = crate::ops::query::read_capacity16(t) {
        h.protection_type = if cap.prot_en { cap.p_type + 1 } else { 0 };
    }
    match cache::prepare(t, None) {
        Ok(c) => wc = c,
        Err(e) => wc.notes.push(format!("Caching mode page not read: {e}")),
    }
    (h, wc)
}

/// Runs one workload: gate (a workload that writes), engine, audit records, report.
///
/// Errors before the run (a bad option, the gate's refusal, a device that cannot be opened)
/// return `Err` with nothing sent; a device that fails mid-run is a [`RunOutcome`] with
/// `failed` set and the partial results.
pub fn run(opts: &RunOptions, env: RunEnv<'_>) -> Result<RunOutcome, BenchError> {
    let dev = opts.device.as_str();
    let mut w = opts.workload.clone();
    // The report must be writable before the first write reaches the drive.
    if let Some(dir) = &opts.report {
        crate::bench::report::run::preflight(dir, env.audit.path())?;
    }
    let scsi = is_scsi(dev);
    let mut identity = None;
    let mut cleared = None;
    let auth = if w.writes() {
        let mut plain = None;
        let (name, id, host) = identify(dev, scsi, env.host, &mut plain)?;
        identity = id;
        let confirmation = Confirmation {
            tokens: opts.confirm.clone(),
            interactive: opts.confirm.is_empty() && env.interactive,
        };
        let c = gate::clear(
            host,
            GateRequest {
                job: "bench-write",
                address: dev,
                name: &name,
                confirmation: &confirmation,
                audit: env.audit.clone(),
            },
            env.prompter,
        )?;
        let auth = Authorization::from_cleared(&c, dev);
        cleared = Some(c);
        Some(auth)
    } else {
        None
    };
    let mut eng = engine::open(dev, opts.engine, auth.as_ref())?;
    if let Some(r) = opts.range {
        w.range = Some(
            r.resolve(eng.capacity_bytes(), eng.block_len())
                .map_err(BenchError::InvalidArgument)?,
        );
    }
    // Check before the audit start record: a bad option never reaches the drive.
    w.check(eng.capacity_bytes(), eng.block_len())
        .map_err(BenchError::InvalidArgument)?;
    let qos = crate::bench::qos::CpuLatency::for_run(opts.cpu_latency, eng.name() == "sim")?;
    let started = match &cleared {
        Some(c) => Some(c.start(serde_json::json!({ "workload": &w, "engine": eng.name() }))?),
        None => None,
    };
    // Identity and the Caching page before the run (read-only), for the report header.
    let mut report_notes = Vec::new();
    let (eng_name, eng_cap, eng_bl) = (eng.name(), eng.capacity_bytes(), eng.block_len());
    let pre = opts.report.as_ref().map(|_| {
        header_of(
            dev,
            identity,
            eng.transport(),
            scsi,
            eng_name,
            eng_cap,
            eng_bl,
            &mut report_notes,
        )
    });
    // Ctrl-C stops submitting: what is outstanding is reaped, the partial results are
    // reported and the audit record ends "interrupted". A second Ctrl-C exits at once (130).
    let stop = engine::interrupt_flag().clone();
    let _ = signal_hook::flag::register_conditional_shutdown(
        signal_hook::consts::SIGINT,
        130,
        stop.clone(),
    );
    let _ = signal_hook::flag::register(signal_hook::consts::SIGINT, stop);
    let res = eng.run(&w, &mut |i| (env.progress)(i));
    // The PM QoS request ends here (the file is closed), before anything is written.
    let qos_note = qos.map(|q| q.note());
    let res = engine::map_result(res, |r| r.notes.extend(qos_note));
    let interrupted = engine::interrupted();
    if interrupted {
        report_notes.push(format!(
            "interrupted (SIGINT) after {:.1} s: the results are partial",
            res.as_ref().map_or(0.0, |r| r.elapsed_s)
        ));
    }
    let (result, failed) = match res {
        Ok(r) => (r, None),
        Err(BenchError::DeviceFailed { error, partial }) => (*partial, Some(error)),
        Err(e) => {
            if let Some(s) = started {
                let _ = s.end("failure", serde_json::json!({ "error": e.to_string() }));
            }
            return Err(e);
        }
    };
    if let Some(s) = started {
        let outcome = if failed.is_some() {
            "failure"
        } else if interrupted {
            "interrupted"
        } else {
            "success"
        };
        s.end(
            outcome,
            serde_json::json!({
                "ios": result.ios, "bytes": result.bytes, "errors": result.errors,
                "error": failed,
            }),
        )?;
    }
    let (header, wc) = pre.unwrap_or_else(|| {
        let h = Header {
            address: dev.to_string(),
            engine: eng.name().into(),
            capacity_bytes: eng.capacity_bytes(),
            block_len: eng.block_len(),
            ..Default::default()
        };
        (h, Default::default())
    });
    let job_id = cleared.as_ref().map(|c| c.job_id.clone());
    let mut rr = RunReport::new(
        header,
        RunSettings::of(&w, opts.engine.name(), eng.capacity_bytes()),
        wc,
        w.clone(),
        result.clone(),
        failed.clone(),
        job_id.clone(),
        report_notes,
    );
    if interrupted && failed.is_none() {
        rr.complete = false;
        rr.state = "interrupted".into();
    }
    if let Some(dir) = &opts.report {
        rr.save(dir)?;
    }
    Ok(RunOutcome {
        workload: w,
        result,
        failed,
        interrupted,
        report: rr,
        job_id,
        audit_log: cleared.as_ref().map(|c| c.audit_path().to_path_buf()),
    })
}
