//! `sgctl reservations DEVICE`: SCSI-3 persistent reservations of a logical unit as a cluster
//! admin needs them — PRgeneration, registered keys, the reservation (holder key and type) and
//! every registrant with the target port it registered through (PERSISTENT RESERVE IN: READ
//! KEYS, READ RESERVATION, READ FULL STATUS). Read-only: nothing is registered or released
//! (use sg_persist for that). Destructive sgctl jobs refuse a drive another initiator holds
//! reserved unless given `--ignore-reservation`.

use super::{Ctx, Report};
use sgctl::error::Error;
use sgctl::ops::gate::ReadOnly;
use sgctl::ops::reservations;
use sgctl::scsi::persistent_reserve::type_name;
use std::fmt::Write as _;

/// Arguments of `sgctl reservations`.
#[derive(Debug, clap::Args)]
pub(crate) struct ReservationsArgs {
    /// Device address (/dev/sgN, /dev/sdX, sim:PROFILE...).
    pub device: String,
}

/// Runs `sgctl reservations`.
pub(crate) fn run(ctx: &mut Ctx, args: ReservationsArgs) -> anyhow::Result<Report> {
    let t = sgctl::device::open(
        &args.device,
        sgctl::device::OpenOptions::traced(ctx.verbose),
    )?
    .transport;
    let mut ro = ReadOnly::new(t);
    let dev = Some(args.device.as_str());
    let Some(r) = reservations::read(&mut ro)? else {
        anyhow::bail!(Error::Unsupported(format!(
            "{}: the device does not implement PERSISTENT RESERVE IN",
            args.device
        )));
    };
    let mut s = String::new();
    let _ = writeln!(s, "PRgeneration: 0x{:x}", r.generation);
    if let Some(p) = r.this_port {
        let _ = writeln!(s, "this path: relative target port {p}");
    }
    if r.keys.is_empty() {
        let _ = writeln!(s, "registered keys: none");
    } else {
        let keys: Vec<String> = r.keys.iter().map(|k| format!("0x{k:x}")).collect();
        let _ = writeln!(s, "registered keys: {}", keys.join(", "));
    }
    match r.reservation {
        Some(res) => {
            let who = match r.held_by_other() {
                Some(_) => "another initiator",
                None => "this path (or an initiator on the same target port)",
            };
            let _ = writeln!(
                s,
                "reservation: {} (type {}), key 0x{:x}, held by {who}",
                type_name(res.rtype),
                res.rtype,
                res.key
            );
        }
        None => {
            let _ = writeln!(s, "reservation: none");
        }
    }
    for g in &r.registrants {
        let port = if g.all_target_ports {
            "all target ports".to_string()
        } else {
            format!("target port {}", g.relative_target_port)
        };
        let _ = writeln!(
            s,
            "  key 0x{:x} via {port}{}  TransportID {}",
            g.key,
            if g.holder { " [holder]" } else { "" },
            g.transport_id
        );
    }
    let held_by_other = r.held_by_other().is_some();
    Ok(Report::new(
        dev,
        &serde_json::json!({ "reservations": r, "held_by_other_initiator": held_by_other }),
        s,
    ))
}
