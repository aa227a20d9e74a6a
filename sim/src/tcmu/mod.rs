//! Serving a model (normally the virtual SAS SSD) to the Linux kernel as a real SCSI disk through
//! LIO's user-space backstore (TCMU) and the tcm_loop fabric: `sgctl sim serve --tcmu`.
//!
//! One user backstore per target port (a TCMU entry does not say which port a command came in
//! on, so each port needs its own ring; linux/target_core_user.h), each answered by its own thread from
//! that port's [`Transport`] handle onto one shared model; one tcm_loop target per port, so the
//! kernel sees one LU on two SCSI hosts. Layers:
//! - [`ring`]: the command ring layout and the loop answering entries (pure, unit-tested),
//! - `uio`: the `/dev/uioN` mapping (the only unsafe code here),
//! - [`configfs`]: creating and removing the LIO objects,
//! - `adopt`: taking over the objects a killed server left (same uio, ring reset).

pub(crate) mod adopt;
pub mod configfs;
pub mod ring;
pub mod uio;

use crate::cmd::run_query;
use crate::error::{Error, Result};
use crate::scsi::read_capacity;
use crate::transport::Transport;
use configfs::{Backstore, LoopTarget, Undo};
use nix::sys::signal::{SigSet, Signal};
use ring::{RingMem, RingServer, Stats, TmrHandler};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// One target port's view of the model.
pub struct PortModel {
    /// Relative target port number the model answers as (1, 2, ...).
    pub relative_port: u16,
    /// The model handle for this port.
    pub transport: Box<dyn Transport>,
    /// Called on TMR notifications (LU reset → reset the model).
    pub on_tmr: Option<TmrHandler>,
    /// The transport returns at once and reports its service time in `Completion::duration`
    /// (a virtual drive with deferred service): the ring answers each command when that time
    /// has passed, so up to the queue depth of commands overlap.
    pub defer_service: bool,
    /// Virtual-clock service ([`ring::RingServer::queued`]): commands are submitted here at
    /// modeled drive times and answered without real waits in modeled completion order.
    pub queued: Option<ring::QueuedExec>,
}

/// How to serve.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// Base name of the backstores (`<name>_p<port>`); unique per run.
    pub name: String,
    /// `dev_config` subtype/cfg prefix shown in the uio name (`sgctl/<profile>`).
    pub dev_config: String,
    /// Capacity in bytes told to LIO.
    pub dev_size: u64,
    /// Logical block size told to LIO (the model answers READ CAPACITY itself).
    pub block_size: u32,
    /// Touched once the LUNs exist and their device nodes appeared (or the wait timed out).
    pub ready_file: Option<PathBuf>,
    /// How long to wait for `/dev/sgN` of each port before reporting ready anyway.
    pub wait_devices: Duration,
    /// LIO's configfs root (normally [`configfs::TARGET_ROOT`]).
    pub root: PathBuf,
    /// Seed for the tcm_loop WWNs.
    pub wwn_seed: u64,
}

/// What happened on one port.
#[derive(Debug, Clone, Serialize)]
pub struct PortReport {
    /// Relative target port.
    pub relative_port: u16,
    /// `uioN`.
    pub uio: String,
    /// tcm_loop target WWN.
    pub target_wwn: String,
    /// SCSI address `H:C:T:L` the kernel gave the LU on this port.
    pub scsi_address: Option<String>,
    /// `/dev/sgN` of this path.
    pub sg: Option<String>,
    /// `/dev/sdX` of this path (absent for block sizes sd refuses, e.g. 520).
    pub block: Option<String>,
    /// Ring counters.
    pub stats: Stats,
    /// Why the ring thread stopped early, if it did.
    pub error: Option<String>,
}

/// What `serve` did.
#[derive(Debug, Clone, Serialize)]
pub struct ServeReport {
    /// Per port.
    pub ports: Vec<PortReport>,
    /// The signal that ended serving.
    pub signal: String,
    /// Seconds served.
    pub seconds: f64,
    /// Objects that could not be removed.
    pub teardown_errors: Vec<String>,
}

/// Capacity of the model: (bytes, logical block length) from READ CAPACITY(16) (SBC-4 5.21),
/// decoded by the shared [`crate::scsi::read_capacity`] parser.
pub fn model_capacity(t: &mut dyn Transport) -> Result<(u64, u32)> {
    let cdb = read_capacity::ReadCapacity16Cdb::new(32).build();
    let mut buf = [0u8; 32];
    let n = run_query(t, &cdb, &mut buf, Duration::from_secs(30))?;
    let rc = read_capacity::parse16(&buf[..n])?;
    if rc.block_len == 0 {
        return Err(Error::CheckFailed(
            "model reports a logical block length of 0".into(),
        ));
    }
    let bytes = rc
        .lba_count
        .checked_mul(u64::from(rc.block_len))
        .ok_or_else(|| Error::CheckFailed("model capacity overflows".into()))?;
    Ok((bytes, rc.block_len))
}

struct Running {
    relative_port: u16,
    uio: String,
    handle: std::thread::JoinHandle<(Stats, Option<String>)>,
}

/// Answers one ring until `stop` is set and the ring is idle. On a fatal error it asks the
/// process to shut down (SIGTERM to itself, collected by `serve`'s sigwait).
/// After a pass that answered something, the serving thread may re-read the mailbox's
/// `cmd_head` for a while before it sleeps in poll(), to find the host's next commands
/// without the uio event's wake-up of a sleeping thread (under emulation an IPI between vCPUs,
/// a host thread wake-up). Bounded, and armed only by a pass that answered: an idle ring is
/// never spun on. `SGCTL_TCMU_SPIN_US=N` sets it (at most 1000 µs). Off by default: in the
/// VM benchmark (fio 4K randread QD32 against rd_mcp, QEMU TCG, 6 interleaved rounds each) a
/// 50 µs spin gave a median 0.54× of rd_mcp against 0.55× without it, and 200 µs 0.48×: the
/// spinning vCPU is the one the guest's kernel and fio need (docs/sim.md).
pub(crate) const SPIN: Duration = Duration::ZERO;

fn spin_budget() -> Duration {
    budget_from(std::env::var("SGCTL_TCMU_SPIN_US").ok().as_deref())
}

/// The spin budget `SGCTL_TCMU_SPIN_US=v` asks for ([`SPIN`] when unset or not a number).
fn budget_from(v: Option<&str>) -> Duration {
    v.and_then(|v| v.trim().parse::<u64>().ok())
        .map_or(SPIN, |us| Duration::from_micros(us.min(1000)))
}

/// Spins until the kernel queues an entry, an answer falls due (within the batching slack) or
/// `budget` has passed; true if there is work for a pass.
fn spin<M: RingMem, T: Transport>(m: &M, server: &RingServer<T>, budget: Duration) -> bool {
    let start = Instant::now();
    let due = server.next_due();
    loop {
        if server.has_new(m) {
            return true;
        }
        let now = Instant::now();
        if due.is_some_and(|d| d <= now + ring::ANSWER_SLACK) {
            return true;
        }
        if now.duration_since(start) >= budget {
            return false;
        }
        for _ in 0..32 {
            std::hint::spin_loop();
        }
    }
}

fn ring_thread(
    mut uio: uio::Uio,
    mut server: RingServer<Box<dyn Transport>>,
    stop: Arc<AtomicBool>,
) -> (Stats, Option<String>) {
    let fail = |msg: String, stats: Stats| {
        eprintln!("sgctl: {msg}; shutting down");
        let _ = nix::sys::signal::kill(nix::unistd::Pid::this(), Signal::SIGTERM);
        (stats, Some(msg))
    };
    let budget = spin_budget();
    let mut spin_next = false;
    loop {
        let stopping = stop.load(Ordering::Acquire);
        let ready = spin_next && !stopping && {
            let t = Instant::now();
            let hit = spin(&uio, &server, budget);
            server.stats.spin_us += t.elapsed().as_micros() as u64;
            server.stats.spin_hits += u64::from(hit);
            hit
        };
        if !ready {
            // Sleep until the ring has news or the earliest answer is due (at most 100 ms).
            let wait = server.next_due().map_or(Duration::from_millis(100), |due| {
                due.saturating_duration_since(Instant::now())
                    .min(Duration::from_millis(100))
            });
            server.stats.waits += 1;
            if let Err(e) = uio.wait(wait) {
                return fail(e.to_string(), server.stats);
            }
        }
        let t = Instant::now();
        let n = match server.process(&mut uio) {
            Ok(n) => n,
            Err(e) => return fail(format!("/dev/{}: {e}", uio.name), server.stats),
        };
        server.stats.passes += 1;
        server.stats.busy_us += t.elapsed().as_micros() as u64;
        spin_next = n > 0 && !budget.is_zero();
        if n > 0 {
            // Every answer of the pass is in the ring: one poke tells the kernel about all.
            server.stats.kicks += 1;
            if let Err(e) = uio.notify() {
                return fail(e.to_string(), server.stats);
            }
        } else if stopping && server.in_flight() == 0 {
            return (server.stats, None);
        }
    }
}

/// `/dev/sgN` and `/dev/sdX` of the LU at `H:C:T:0`, from sysfs.
fn nodes_of(scsi_device: &str) -> (Option<String>, Option<String>) {
    let dir = Path::new("/sys/class/scsi_device")
        .join(scsi_device)
        .join("device");
    let first = |sub: &str| {
        std::fs::read_dir(dir.join(sub))
            .ok()?
            .flatten()
            .next()
            .map(|e| format!("/dev/{}", e.file_name().to_string_lossy()))
    };
    (first("scsi_generic"), first("block"))
}

/// Creates the LIO objects, serves every port until SIGINT/SIGTERM, tears everything down.
/// SIGINT and SIGTERM are blocked in the calling thread (and so in the ring threads) and
/// collected with sigwait; the previous mask is restored before returning.
pub fn serve(opts: &ServeOptions, ports: Vec<PortModel>) -> Result<ServeReport> {
    let root = opts.root.as_path();
    configfs::load_lio(root);
    configfs::check_lio(root)?;
    let mut signals = SigSet::empty();
    signals.add(Signal::SIGINT);
    signals.add(Signal::SIGTERM);
    let mut old = SigSet::empty();
    nix::sys::signal::pthread_sigmask(
        nix::sys::signal::SigmaskHow::SIG_BLOCK,
        Some(&signals),
        Some(&mut old),
    )
    .map_err(|e| Error::Os {
        op: "sigprocmask",
        path: String::new(),
        errno: e,
        hint: None,
    })?;
    let result = serve_blocked(opts, ports, &signals);
    let _ = nix::sys::signal::pthread_sigmask(
        nix::sys::signal::SigmaskHow::SIG_SETMASK,
        Some(&old),
        None,
    );
    result
}

fn serve_blocked(
    opts: &ServeOptions,
    ports: Vec<PortModel>,
    signals: &SigSet,
) -> Result<ServeReport> {
    let root = opts.root.as_path();
    let start = Instant::now();
    // A server of this drive killed with SIGKILL left its LUNs and rings: take them over.
    let port_numbers: Vec<u16> = ports.iter().map(|p| p.relative_port).collect();
    let stale = adopt::find(
        root,
        Path::new("/sys/class/uio"),
        Path::new("/proc"),
        &opts.dev_config,
        &port_numbers,
    );
    let hba = stale
        .as_ref()
        .map_or_else(|| configfs::free_hba(root), |s| s.hba);
    let stop = Arc::new(AtomicBool::new(false));
    let mut backstore_undo = Undo::default();
    let mut fabric_undo = Undo::default();
    let mut running: Vec<Running> = vec![];
    let mut reports: Vec<PortReport> = vec![];
    let mut teardown_errors: Vec<String> = vec![];

    let setup = (|| -> Result<()> {
        // 1. Backstores and their rings, served before any LUN exists (the kernel's scan sends
        //    INQUIRY and friends as soon as the LUN is linked).
        let mut paths = vec![];
        if let Some(s) = &stale {
            eprintln!(
                "sgctl: taking over the LUNs a killed server of this drive left (core/user_{}: {}); resetting their rings",
                s.hba,
                s.ports.iter().map(|p| p.dev.as_str()).collect::<Vec<_>>().join(", ")
            );
            adopt::undo_backstores(root, s, &mut backstore_undo);
        }
        let stale_port = |port: u16| {
            stale
                .as_ref()
                .and_then(|s| s.ports.iter().find(|p| p.relative_port == port))
        };
        for p in ports {
            let bs = Backstore {
                hba,
                dev: stale_port(p.relative_port).map_or_else(
                    || format!("{}_p{}", opts.name, p.relative_port),
                    |s| s.dev.clone(),
                ),
                dev_config: format!("{}-p{}", opts.dev_config, p.relative_port),
                dev_size: opts.dev_size,
                block_size: opts.block_size,
            };
            if stale_port(p.relative_port).is_some() {
                adopt::reset_ring(&bs.path(root))?;
            } else {
                bs.create(root, &mut backstore_undo)?;
            }
            let sys_uio = Path::new("/sys/class/uio");
            let name = uio::find_uio(sys_uio, hba, &bs.dev).ok_or_else(|| {
                Error::Unsupported(format!(
                    "no /dev/uioN appeared for {} (is the uio module loaded?)",
                    bs.path(root).display()
                ))
            })?;
            let dev = uio::Uio::open(Path::new("/dev"), sys_uio, &name)?;
            let mut server = RingServer::new(p.transport);
            server.on_tmr = p.on_tmr;
            server.defer = p.defer_service;
            server.queued = p.queued;
            let stop2 = stop.clone();
            let handle = std::thread::Builder::new()
                .name(format!("tcmu-{name}"))
                .spawn(move || ring_thread(dev, server, stop2))
                .map_err(|e| Error::io("spawn ring thread", e))?;
            running.push(Running {
                relative_port: p.relative_port,
                uio: name.clone(),
                handle,
            });
            let wwn = stale_port(p.relative_port).map(|s| s.wwn.clone());
            paths.push((p.relative_port, name, bs.path(root), wwn));
        }
        // 2. One tcm_loop target per port: target, TPG, nexus, then LUN 0.
        for (i, (port, uio_name, bs_path, stale_wwn)) in paths.into_iter().enumerate() {
            let seed = opts.wwn_seed.wrapping_mul(16).wrapping_add(i as u64 * 2);
            let t = LoopTarget {
                wwn: stale_wwn
                    .clone()
                    .unwrap_or_else(|| configfs::naa_name(seed)),
                initiator: configfs::naa_name(seed + 1),
            };
            if stale_wwn.is_some() {
                adopt::undo_target(root, &t.wwn, &mut fabric_undo);
            } else {
                t.create(root, &bs_path, &mut fabric_undo)?;
            }
            reports.push(PortReport {
                relative_port: port,
                uio: uio_name,
                target_wwn: t.wwn.clone(),
                scsi_address: t.address(root),
                sg: None,
                block: None,
                stats: Stats::default(),
                error: None,
            });
        }
        Ok(())
    })();

    let mut signal = String::new();
    if setup.is_ok() {
        // 3. Wait for the kernel's scan to make the device nodes, then report ready.
        let deadline = Instant::now() + opts.wait_devices;
        loop {
            for r in reports.iter_mut() {
                if let Some(addr) = &r.scsi_address {
                    let (sg, block) = nodes_of(&format!("{addr}:0"));
                    r.sg = sg;
                    r.block = block;
                }
            }
            if reports.iter().all(|r| r.sg.is_some()) || Instant::now() >= deadline {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        for r in &reports {
            eprintln!(
                "sgctl: port {}: /dev/{} -> tcm_loop {} (scsi {}) {} {}",
                r.relative_port,
                r.uio,
                r.target_wwn,
                r.scsi_address.as_deref().unwrap_or("?"),
                r.sg.as_deref().unwrap_or("(no sg node yet)"),
                r.block.as_deref().unwrap_or("")
            );
        }
        if let Some(f) = &opts.ready_file {
            if let Err(e) = crate::files::write_atomic(
                f,
                b"ready\n",
                crate::files::MODE_PUBLIC,
                crate::files::Replace::Always,
            ) {
                eprintln!("sgctl: cannot write ready file {}: {e}", f.display());
            }
        }
        eprintln!("sgctl: serving; stop with SIGINT or SIGTERM");
        signal = match signals.wait() {
            Ok(s) => s.as_str().to_string(),
            Err(e) => format!("sigwait failed: {e}"),
        };
        eprintln!("sgctl: {signal}: tearing down");
    }

    // 4. Teardown: fabric first while the rings are still answered, then stop the threads,
    //    unmap, and remove the backstores.
    teardown_errors.extend(fabric_undo.run());
    stop.store(true, Ordering::Release);
    for r in running {
        let (stats, error) = r
            .handle
            .join()
            .unwrap_or_else(|_| (Stats::default(), Some("ring thread panicked".into())));
        if let Some(rep) = reports.iter_mut().find(|p| p.uio == r.uio) {
            rep.stats = stats;
            rep.error = error;
        } else {
            reports.push(PortReport {
                relative_port: r.relative_port,
                uio: r.uio,
                target_wwn: String::new(),
                scsi_address: None,
                sg: None,
                block: None,
                stats,
                error,
            });
        }
    }
    teardown_errors.extend(backstore_undo.run());
    setup?;
    Ok(ServeReport {
        ports: reports,
        signal,
        seconds: start.elapsed().as_secs_f64(),
        teardown_errors,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::{Completion, DataBuf};

    struct Cap(Vec<u8>);
    impl Transport for Cap {
        fn execute(&mut self, cdb: &[u8], data: DataBuf<'_>, _: Duration) -> Result<Completion> {
            assert_eq!(&cdb[..2], &[0x9e, 0x10]);
            if let DataBuf::In(b) = data {
                let n = b.len().min(self.0.len());
                b[..n].copy_from_slice(&self.0[..n]);
                return Ok(Completion {
                    resid: b.len() - n,
                    ..Completion::good()
                });
            }
            unreachable!()
        }
        fn address(&self) -> String {
            "cap".into()
        }
    }

    #[test]
    fn the_spin_finds_new_entries_and_stops_when_nothing_comes() {
        use ring::tests::{FakeKernel, Toy};
        let mut k = FakeKernel::new(0);
        let mut s = RingServer::new(Toy::default());
        assert!(s.has_new(&k.mem), "before the first pass");
        k.push_cmd(&[0, 0, 0, 0, 0, 0], &[], &[]);
        assert_eq!(s.process(&mut k.mem).unwrap(), 1);
        assert!(!s.has_new(&k.mem));
        // Nothing queued: the spin gives up after its budget (an idle ring is not spun on).
        let t = Instant::now();
        assert!(!spin(&k.mem, &s, Duration::from_micros(300)));
        let took = t.elapsed();
        assert!(took >= Duration::from_micros(300) && took < Duration::from_secs(5));
        assert!(!spin(&k.mem, &s, Duration::ZERO));
        // An entry queued: found at once, whatever the budget.
        k.push_cmd(&[0, 0, 0, 0, 0, 0], &[], &[]);
        let t = Instant::now();
        assert!(spin(&k.mem, &s, Duration::from_secs(60)));
        assert!(t.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn spin_budget_from_the_environment_word() {
        assert_eq!(budget_from(None), SPIN);
        assert_eq!(budget_from(Some("0")), Duration::ZERO);
        assert_eq!(budget_from(Some(" 120 ")), Duration::from_micros(120));
        assert_eq!(budget_from(Some("99999")), Duration::from_micros(1000));
        assert_eq!(budget_from(Some("fast")), SPIN);
        assert_eq!(SPIN, Duration::ZERO, "off unless asked for");
    }

    #[test]
    fn capacity_from_read_capacity_16() {
        let mut r = vec![0u8; 32];
        r[..8].copy_from_slice(&2_097_151u64.to_be_bytes());
        r[8..12].copy_from_slice(&520u32.to_be_bytes());
        assert_eq!(model_capacity(&mut Cap(r)).unwrap(), (2_097_152 * 520, 520));
        // Truncated, zero block length, overflowing.
        assert!(model_capacity(&mut Cap(vec![0u8; 10])).is_err());
        assert!(model_capacity(&mut Cap(vec![0u8; 32])).is_err());
        let mut r = vec![0xffu8; 32];
        r[8..12].copy_from_slice(&512u32.to_be_bytes());
        assert!(model_capacity(&mut Cap(r)).is_err());
    }
}
