//! `power_cycle=1` on a `state=` drive: reopening the state of a
//! drive that was switched off mid-job (a killed `sgctl sim serve`) is a power cycle without
//! clock catch-up: a format in progress is lost (MEDIUM ERROR 31/00 until formatted again), a
//! sanitize resumes (NOT READY 04/1B). Without it the drive stayed powered and goes on.

use crate::sim_common::*;
use sgctl::sim::SimDevice;
use std::time::Duration;

fn spec(dir: &std::path::Path, extra: &str) -> String {
    format!(
        "px02smf080?clock=virtual&capacity_blocks=8192&state={}{extra}",
        dir.join("d.json").display()
    )
}

/// TUR, skipping the power-on unit attention (which must come first when `ua`).
fn tur_after(d: &mut SimDevice, ua: bool) -> (u8, u8, u8) {
    if ua {
        assert_eq!(kcq(&tur(d)), (6, 0x29, 0x00), "power-on unit attention");
    }
    kcq(&tur(d))
}

#[test]
fn a_format_in_progress_is_lost_and_a_new_format_recovers() {
    let dir = tempfile::tempdir().unwrap();
    let mut d = open(&spec(dir.path(), ""));
    // FORMAT UNIT, FMTDATA with IMMED: runs 90 s on the drive clock.
    good(&dout(&mut d, &[0x04, 0x10, 0, 0, 0, 0], &[0, 0x02, 0, 0]));
    d.clock().advance(Duration::from_secs(10));
    assert_eq!(kcq(&tur(&mut d)), (2, 0x04, 0x04));
    drop(d);
    // Still powered (no power_cycle): the format goes on.
    let mut d = open(&spec(dir.path(), ""));
    assert_eq!(kcq(&tur(&mut d)), (2, 0x04, 0x04));
    drop(d);
    // Switched off: lost, 31/00 (and stays so across reopenings).
    let mut d = open(&spec(dir.path(), "&power_cycle=1"));
    assert_eq!(tur_after(&mut d, true), (3, 0x31, 0x00));
    d.clock().advance(Duration::from_secs(200));
    assert_eq!(kcq(&tur(&mut d)), (3, 0x31, 0x00));
    drop(d);
    let mut d = open(&spec(dir.path(), ""));
    assert_eq!(kcq(&tur(&mut d)), (3, 0x31, 0x00));
    // The way out: format again (what `sgctl format --recover` sends), to completion.
    good(&dout(&mut d, &[0x04, 0x10, 0, 0, 0, 0], &[0, 0x02, 0, 0]));
    d.clock().advance(Duration::from_secs(91));
    good(&tur(&mut d));
}

#[test]
fn a_sanitize_in_progress_resumes_after_the_power_cycle() {
    let dir = tempfile::tempdir().unwrap();
    let mut d = open(&spec(dir.path(), ""));
    // SANITIZE BLOCK ERASE, IMMED.
    good(&none(&mut d, &[0x48, 0x82, 0, 0, 0, 0, 0, 0, 0, 0]));
    assert_eq!(kcq(&tur(&mut d)), (2, 0x04, 0x1b));
    drop(d);
    let mut d = open(&spec(dir.path(), "&power_cycle=1"));
    assert_eq!(tur_after(&mut d, true), (2, 0x04, 0x1b), "sanitize resumes");
    d.clock().advance(Duration::from_secs(3600));
    good(&tur(&mut d));
}
