use super::tests::*;
use super::*;
use crate::transport::DataBuf;
use std::time::{Duration, Instant};

/// QD32 closed loop of 4K writes or reads on a fake ring (run with `--ignored
/// --nocapture`): wall-clock deferral on a real-clock drive, and virtual-clock service.
#[test]
#[ignore = "a measurement (prints IOPS and out-of-order counts); scripts/test-all.sh runs it with --ignored"]
fn qd32_closed_loop() {
    for (spec, write) in [
        ("px02smf080?capacity_gib=1", false),
        ("px02smf080?capacity_gib=1", true),
        ("px02smf080?capacity_gib=1&clock=virtual", false),
        ("px02smf080?capacity_gib=1&clock=virtual", true),
    ] {
        let drive = crate::sim::open(spec).unwrap();
        let virt = drive.clock().mode() == crate::sim::ClockMode::Virtual;
        drive.set_deferred_service(!virt);
        let mut s = RingServer::new(drive.port(1));
        s.defer = !virt;
        if virt {
            let mut q = drive.port(1);
            s.queued = Some(Box::new(move |c: &[u8], d: DataBuf<'_>, t, at| {
                q.execute_queued(c, d, t, at)
            }));
        }
        let mut k = FakeKernel::with_sizes(FLAG_CAP_READ_LEN, 64 * 1024, 32 * 4096);
        let data0 = RING_OFF + 64 * 1024;
        let mut free: Vec<usize> = (0..32).collect();
        let mut slot_of = std::collections::HashMap::new();
        let mut lba = 1u32;
        let t = Instant::now();
        let mut done = 0u64;
        let op = if write { 0x2a } else { 0x28 };
        while t.elapsed() < Duration::from_secs(1) {
            while let Some(slot) = free.pop() {
                lba = lba.wrapping_mul(1_103_515_245).wrapping_add(12345) % 200_000;
                let b = lba.to_be_bytes();
                let cdb = [op, 0, b[0], b[1], b[2], b[3], 0, 0, 8, 0];
                let (_, id) = k.try_push_at(&cdb, &[(data0 + slot * 4096, 4096)]).unwrap();
                slot_of.insert(id, slot);
            }
            if let Some(due) = s.next_due() {
                std::thread::sleep(due.saturating_duration_since(Instant::now()));
            }
            s.process(&mut k.mem).unwrap();
            for (id, st) in k.reap() {
                assert_eq!(st, 0);
                free.push(slot_of.remove(&id).unwrap());
                done += 1;
            }
        }
        let wall = t.elapsed().as_secs_f64();
        let modeled = if virt {
            format!(
                ", modeled {:.0} IOPS",
                done as f64 / (s.max_done as f64 / 1e9)
            )
        } else {
            String::new()
        };
        eprintln!(
            "{spec} {}: {:.0} IOPS wall{modeled}, {} out of order",
            if write { "write" } else { "read" },
            done as f64 / wall,
            s.stats.out_of_order
        );
    }
}
