//! `sgctl sim serve --tcmu PROFILE`: serve a virtual drive to the running kernel as a real SCSI
//! disk through LIO's user-space backstore (TCMU) and tcm_loop, one target port per SAS port of
//! the profile, until SIGINT/SIGTERM (see [`sgctl::tcmu`]). Needs root, configfs and the
//! `target_core_user`, `tcm_loop` and `uio` modules (loaded on demand).
//!
//! `--tcmu enclosure?...` serves the virtual enclosure (`sim:enclosure`, SES-4, peripheral
//! device type 0Dh) instead, on one port: TCMU hands every CDB but REPORT LUNS to the handler
//! (target_core_user.c `tcmu_parse_cdb` → `passthrough_parse_cdb`), so INQUIRY, RECEIVE
//! DIAGNOSTIC RESULTS and SEND DIAGNOSTIC are the enclosure's own, and the kernel's ses driver
//! binds to it as to a real enclosure services device.

use super::{Ctx, Report};
use sgctl::sim;
use sgctl::tcmu::{self, ring::Tmr, PortModel, ServeOptions};
use sgctl::transport::{trace::Traced, DataBuf, Transport};
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `sgctl sim serve`.
#[derive(Debug, clap::Args)]
pub(crate) struct ServeArgs {
    /// The virtual drive to serve: `PROFILE[?key=val&...]` as in `sim:` addresses (for example
    /// `px02smf080?capacity_gib=1&state=/tmp/d.json`), or `enclosure?slots=N&...` for the
    /// virtual enclosure services device (peripheral type 0Dh, for the kernel's ses driver;
    /// `serials=` puts the drives served next to it in its first slots).
    #[arg(long, value_name = "PROFILE")]
    pub tcmu: String,
    /// Number of target ports (default: the profile's; 2 for a dual-port drive). Each port is its
    /// own backstore + tcm_loop target, so the kernel sees one LU on that many paths.
    #[arg(long)]
    pub ports: Option<u16>,
    /// Name prefix for the LIO objects (default `sgctl<pid>`).
    #[arg(long)]
    pub name: Option<String>,
    /// Write `ready` to this file once the LUNs exist and their device nodes appeared.
    #[arg(long, value_name = "FILE")]
    pub ready_file: Option<PathBuf>,
    /// How long to wait for the kernel to create the device nodes before reporting ready
    /// (a duration: 30, 30s, 2m; whole seconds, rounded up; at most a day).
    #[arg(long, default_value_t = 30, value_name = "DURATION", value_parser = super::num::wait_seconds)]
    pub wait: u64,
    /// On a real-clock drive, keep the queue's commands in flight and answer each when its
    /// modeled service time has passed (out of order as the media model says) instead of one
    /// at a time. Off by default: it needs real sleeps of tens of microseconds, which an
    /// emulated guest cannot honour. A `clock=virtual` drive always overlaps, on its own clock
    /// and without sleeping.
    #[arg(long)]
    pub overlap: bool,
}

/// Runs `sgctl sim serve`.
pub(crate) fn run(ctx: &mut Ctx, args: ServeArgs) -> anyhow::Result<Report> {
    let spec = sgctl::device::classify_address(&args.tcmu)
        .virtual_spec()
        .map_or(args.tcmu.as_str(), |v| v.as_str());
    if spec.split('?').next() == Some(sim::enclosure::PROFILE) {
        let spec = spec.to_string();
        return serve_enclosure(ctx, &spec, args);
    }
    let drive = sim::open(spec)?;
    let have = drive.profile().ports.max(1);
    let ports = args.ports.unwrap_or(have);
    if ports == 0 || ports > have {
        return Err(sgctl::Error::InvalidArgument(format!(
            "--ports {ports}: the {} profile has {have} target port(s)",
            drive.profile().name
        ))
        .into());
    }
    // A drive switched off mid-sanitize or mid-format (power_cycle=1) answers READ CAPACITY
    // with NOT READY (sanitize in progress) or MEDIUM ERROR (medium format corrupted) until the
    // way out has run: it is served all the same, with the geometry it holds, so that `sgctl
    // wait` / `sgctl format --recover` can reach it through the LUNs.
    let (dev_size, block_size) = match tcmu::model_capacity(&mut drive.port(1)) {
        Ok(c) => c,
        Err(e) if e.sense().is_some() => {
            let i = drive.info();
            ctx.warn(format!(
                "READ CAPACITY: {e}; serving the drive's {} blocks of {} bytes",
                i.logical_blocks, i.logical_block_length
            ));
            (i.capacity_bytes, i.logical_block_length)
        }
        Err(e) => return Err(e.into()),
    };
    // A virtual-clock drive is served on its own clock: commands overlap and complete in the
    // media model's order without real sleeps (see tcmu::ring::RingServer::queued). -v traces
    // every command through the plain path instead.
    let virtual_clock = drive.clock().mode() == sim::ClockMode::Virtual && ctx.verbose == 0;
    let models = (1..=ports)
        .map(|p| {
            let handle = drive.port(p);
            let port = drive.port(p);
            // --overlap: commands return at once with their service time and the ring answers
            // each when it has passed, so the queue depth overlaps on the media model's
            // timing. Without it (and on a virtual clock, which the queued path serves) the
            // ring answers in order, each command after its service time.
            let overlap = args.overlap && !virtual_clock;
            port.set_deferred_service(overlap);
            let transport: Box<dyn Transport> = if ctx.verbose > 0 {
                Box::new(Traced::new(port, ctx.verbose))
            } else {
                Box::new(port)
            };
            let on_tmr = move |t: &Tmr| {
                super::output::err_line(&format!(
                    "sgctl: port {p}: task management: {} (commands {:?})",
                    t.name(),
                    t.cmd_ids
                ));
                // LUN and target resets reset the model (unit attention 29/03 follows); aborted
                // commands still in flight are answered when due (the kernel drops them).
                if matches!(t.tmr_type, 5..=7 | 128) {
                    handle.lu_reset();
                }
            };
            let queued = virtual_clock.then(|| {
                let mut q = drive.port(p);
                Box::new(
                    move |cdb: &[u8], data: DataBuf<'_>, timeout: Duration, at: u64| {
                        q.execute_queued(cdb, data, timeout, at)
                    },
                ) as tcmu::ring::QueuedExec
            });
            PortModel {
                relative_port: p,
                transport,
                on_tmr: Some(Box::new(on_tmr)),
                defer_service: overlap,
                queued,
            }
        })
        .collect();
    let pid = std::process::id();
    let opts = ServeOptions {
        name: args.name.unwrap_or_else(|| format!("sgctl{pid}")),
        dev_config: format!("sgctl/{}", drive.profile().name),
        dev_size,
        block_size,
        ready_file: args.ready_file,
        wait_devices: Duration::from_secs(args.wait),
        root: tcmu::configfs::TARGET_ROOT.into(),
        wwn_seed: u64::from(pid),
    };
    super::output::err_line(&format!(
        "sgctl: serving {} ({} bytes, {}-byte blocks) on {} port(s) through TCMU",
        drive.address(),
        dev_size,
        block_size,
        ports
    ));
    let report = tcmu::serve(&opts, models)?;
    drop(drive);
    finish(ctx, &report)
}

/// Capacity told to LIO for the enclosure's backstore (TCMU wants one; no command reads it).
const ENCLOSURE_DEV_SIZE: u64 = 1 << 20;

/// Serves `sim:enclosure?...` on one port (an enclosure services device has no second port
/// here: a dual-expander enclosure is two SES devices, two `sgctl sim serve` runs).
fn serve_enclosure(ctx: &mut Ctx, spec: &str, args: ServeArgs) -> anyhow::Result<Report> {
    if args.ports.is_some_and(|p| p != 1) {
        return Err(sgctl::Error::InvalidArgument(
            "--ports: the virtual enclosure is served on one port".into(),
        )
        .into());
    }
    if args.overlap {
        return Err(sgctl::Error::InvalidArgument(
            "--overlap: the virtual enclosure answers at once; nothing to overlap".into(),
        )
        .into());
    }
    let enclosure = sim::enclosure::open(spec)?;
    let address = sgctl::transport::Transport::address(&enclosure);
    let slots = enclosure.slots.len();
    let transport: Box<dyn Transport> = if ctx.verbose > 0 {
        Box::new(Traced::new(enclosure, ctx.verbose))
    } else {
        Box::new(enclosure)
    };
    let models = vec![PortModel {
        relative_port: 1,
        transport,
        on_tmr: None,
        defer_service: false,
        queued: None,
    }];
    let pid = std::process::id();
    let opts = ServeOptions {
        name: args.name.unwrap_or_else(|| format!("sgctl{pid}")),
        dev_config: format!("sgctl/{}", sim::enclosure::PROFILE),
        dev_size: ENCLOSURE_DEV_SIZE,
        block_size: 512,
        ready_file: args.ready_file,
        wait_devices: Duration::from_secs(args.wait),
        root: tcmu::configfs::TARGET_ROOT.into(),
        wwn_seed: u64::from(pid),
    };
    super::output::err_line(&format!(
        "sgctl: serving {address} ({slots} slots, enclosure services device) through TCMU"
    ));
    let report = tcmu::serve(&opts, models)?;
    finish(ctx, &report)
}

/// The report of a serve run: per port its counters; exit OTHER when a ring stopped early.
fn finish(ctx: &mut Ctx, report: &tcmu::ServeReport) -> anyhow::Result<Report> {
    for e in &report.teardown_errors {
        ctx.warn(format!("teardown: {e}"));
    }
    let mut text = String::new();
    let mut failed = false;
    for p in &report.ports {
        text.push_str(&format!(
            "port {}: /dev/{} {} {} {}: {} commands ({} refused as malformed), {} TMRs, \
             {} out of order, at most {} in flight, {} passes ({} µs busy), {} kicks, \
             {} poll waits, {} spin hits ({} µs spinning)\n",
            p.relative_port,
            p.uio,
            p.target_wwn,
            p.sg.as_deref().unwrap_or("-"),
            p.block.as_deref().unwrap_or("-"),
            p.stats.commands,
            p.stats.malformed,
            p.stats.tmrs,
            p.stats.out_of_order,
            p.stats.max_in_flight,
            p.stats.passes,
            p.stats.busy_us,
            p.stats.kicks,
            p.stats.waits,
            p.stats.spin_hits,
            p.stats.spin_us
        ));
        if let Some(e) = &p.error {
            text.push_str(&format!("port {}: stopped: {e}\n", p.relative_port));
            failed = true;
        }
    }
    text.push_str(&format!(
        "stopped by {} after {:.1} s\n",
        report.signal, report.seconds
    ));
    let r = Report::new(None, report, text);
    Ok(if failed {
        r.with_exit(sgctl::exit::OTHER)
    } else {
        r
    })
}
