//! Persistent reservations on the dual-port virtual drive: each target port is one I_T nexus
//! (SPC-5 5.14, 6.16, 6.17), CDBs and parameter lists built from the spec tables.

use crate::sim_common::*;

const PX: &str = "px02smf080?clock=virtual&capacity_blocks=4096";

fn pr_out(
    d: &mut sgctl::sim::SimDevice,
    sa: u8,
    rtype: u8,
    key: u64,
    sa_key: u64,
    aptpl: bool,
) -> u8 {
    let cdb = [0x5F, sa, rtype, 0, 0, 0, 0, 0, 24, 0];
    let mut p = [0u8; 24];
    p[0..8].copy_from_slice(&key.to_be_bytes());
    p[8..16].copy_from_slice(&sa_key.to_be_bytes());
    p[20] = u8::from(aptpl);
    dout(d, &cdb, &p).status
}

fn pr_in(d: &mut sgctl::sim::SimDevice, sa: u8) -> Vec<u8> {
    let (c, b) = din(d, &[0x5E, sa, 0, 0, 0, 0, 0, 0x10, 0, 0], 0x1000);
    good(&c);
    b
}

const GOOD: u8 = 0x00;
const CONFLICT: u8 = 0x18;
const WE: u8 = 0x01;
const EA: u8 = 0x03;

#[test]
fn register_reserve_conflict_on_the_other_port_release() {
    let mut a = open(PX);
    let mut b = a.port(2);
    // Clear the power-on unit attentions on both nexuses.
    tur(&mut a);
    tur(&mut b);
    assert_eq!(pr_out(&mut a, 0x00, 0, 0, 0xAAAA, false), GOOD);
    assert_eq!(pr_out(&mut b, 0x00, 0, 0, 0xBBBB, false), GOOD);
    let keys = pr_in(&mut a, 0x00);
    assert_eq!(be(&keys[0..4]), 2, "generation");
    assert_eq!(be(&keys[4..8]), 16);
    assert_eq!(be(&keys[8..16]), 0xAAAA);
    assert_eq!(be(&keys[16..24]), 0xBBBB);
    // Wrong key: RESERVATION CONFLICT.
    assert_eq!(pr_out(&mut a, 0x01, EA, 0x1234, 0, false), CONFLICT);
    assert_eq!(pr_out(&mut a, 0x01, EA, 0xAAAA, 0, false), GOOD);
    let r = pr_in(&mut b, 0x01);
    assert_eq!(be(&r[4..8]), 16);
    assert_eq!(be(&r[8..16]), 0xAAAA);
    assert_eq!(r[21] & 0x0F, EA);
    // Exclusive Access: the other port can neither read nor write, but INQUIRY and TUR work.
    let (c, _) = read10(&mut b, 0, 1, 512);
    assert_eq!(c.status, CONFLICT);
    assert_eq!(write10(&mut b, 0, &[0u8; 512], 512).status, CONFLICT);
    good(&tur(&mut b));
    let (c, _) = din(&mut b, &[0x12, 0, 0, 0, 36, 0], 36);
    good(&c);
    // The holder can.
    good(&write10(&mut a, 0, &[7u8; 512], 512));
    // The other port cannot reserve; releasing with the wrong type is 26/04.
    assert_eq!(pr_out(&mut b, 0x01, EA, 0xBBBB, 0, false), CONFLICT);
    let c = dout(&mut a, &[0x5F, 0x02, WE, 0, 0, 0, 0, 0, 24, 0], &{
        let mut p = [0u8; 24];
        p[0..8].copy_from_slice(&0xAAAAu64.to_be_bytes());
        p
    });
    assert_eq!(kcq(&c), (5, 0x26, 0x04));
    assert_eq!(pr_out(&mut a, 0x02, EA, 0xAAAA, 0, false), GOOD);
    let (c, _) = read10(&mut b, 0, 1, 512);
    good(&c);
    // Full status lists both registrants with their relative target ports.
    let f = pr_in(&mut a, 0x03);
    assert_eq!(be(&f[4..8]) as usize, f.len() - 8);
    assert_eq!(be(&f[8..16]), 0xAAAA);
    assert_eq!(be(&f[26..28]), 1);
}

#[test]
fn write_exclusive_lets_others_read_and_preempt_takes_over() {
    let mut a = open(PX);
    let mut b = a.port(2);
    tur(&mut a);
    tur(&mut b);
    assert_eq!(pr_out(&mut a, 0x00, 0, 0, 1, false), GOOD);
    assert_eq!(pr_out(&mut b, 0x00, 0, 0, 2, false), GOOD);
    assert_eq!(pr_out(&mut a, 0x01, WE, 1, 0, false), GOOD);
    let (c, _) = read10(&mut b, 0, 1, 512);
    good(&c);
    assert_eq!(write10(&mut b, 0, &[0u8; 512], 512).status, CONFLICT);
    // Port 2 preempts port 1: port 1's registration is gone (it gets 2A/03), port 2 holds.
    assert_eq!(pr_out(&mut b, 0x04, WE, 2, 1, false), GOOD);
    let c = tur(&mut a);
    assert_eq!(kcq(&c), (6, 0x2A, 0x03));
    assert_eq!(write10(&mut a, 0, &[0u8; 512], 512).status, CONFLICT);
    good(&write10(&mut b, 0, &[0u8; 512], 512));
    let keys = pr_in(&mut a, 0x00);
    assert_eq!(be(&keys[4..8]), 8);
    assert_eq!(be(&keys[8..16]), 2);
    // REGISTER AND IGNORE EXISTING KEY re-registers port 1 whatever it sends; CLEAR wipes all.
    assert_eq!(pr_out(&mut a, 0x06, 0, 0x999, 5, false), GOOD);
    assert_eq!(pr_out(&mut a, 0x03, 0, 5, 0, false), GOOD);
    assert_eq!(be(&pr_in(&mut a, 0x00)[4..8]), 0);
    assert_eq!(be(&pr_in(&mut a, 0x01)[4..8]), 0);
    good(&write10(&mut a, 0, &[0u8; 512], 512));
}

#[test]
fn capabilities_and_bad_requests() {
    let mut a = open(PX);
    tur(&mut a);
    let c = pr_in(&mut a, 0x02);
    assert_eq!(be(&c[0..2]), 8);
    assert_eq!(c[2] & 0x01, 1, "PTPL_C");
    assert_eq!(c[4], 0xEA);
    // Parameter list length other than 24: 1A/00.
    let c = dout(&mut a, &[0x5F, 0, 0, 0, 0, 0, 0, 0, 16, 0], &[0u8; 16]);
    assert_eq!(kcq(&c), (5, 0x1A, 0x00));
    // Reservation type 2 does not exist: 24/00.
    assert_eq!(pr_out(&mut a, 0x00, 0, 0, 9, false), GOOD);
    let c = dout(&mut a, &[0x5F, 0x01, 0x02, 0, 0, 0, 0, 0, 24, 0], &{
        let mut p = [0u8; 24];
        p[0..8].copy_from_slice(&9u64.to_be_bytes());
        p
    });
    assert_eq!(kcq(&c), (5, 0x24, 0x00));
    // Unknown PR IN service action.
    let (c, _) = din(&mut a, &[0x5E, 0x07, 0, 0, 0, 0, 0, 0x10, 0, 0], 0x1000);
    assert_eq!(kcq(&c), (5, 0x24, 0x00));
}

#[test]
fn aptpl_keeps_registrations_through_a_power_cycle() {
    let dir = tempfile::tempdir().unwrap();
    let st = dir.path().join("pr.state");
    let spec = format!("{PX}&state={}", st.display());
    {
        let mut a = open(&spec);
        tur(&mut a);
        assert_eq!(pr_out(&mut a, 0x00, 0, 0, 0x77, true), GOOD);
        assert_eq!(pr_out(&mut a, 0x01, WE, 0x77, 0, false), GOOD);
    }
    {
        let mut a = open(&spec);
        let r = pr_in(&mut a, 0x01);
        assert_eq!(be(&r[8..16]), 0x77, "reservation persisted with APTPL");
        // Re-register without APTPL: the next power cycle forgets.
        assert_eq!(pr_out(&mut a, 0x00, 0, 0x77, 0x78, false), GOOD);
    }
    let mut a = open(&spec);
    assert_eq!(be(&pr_in(&mut a, 0x00)[4..8]), 0);
}
