use super::tests::*;
use super::*;
use crate::transport::DataBuf;
use std::time::{Duration, Instant};

/// CPU time of this thread (robust against a loaded host, unlike wall time).
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid pointer to a timespec; the clock id is a constant.
    #[allow(unsafe_code)]
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0);
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Host-side cost of serving 4K reads from the real virtual drive through a fake ring
/// (run with `--ignored --nocapture`): the user-space share of a TCMU command, for the
/// plain path (`-v`, real clock) and the virtual-clock queued path `sim serve` uses by
/// default on `clock=virtual`. The drive's FTL is built (first media command) before the
/// clock starts; batches of 32 as the kernel queues them at QD32. Set
/// `SGCTL_TCMU_PERF_N` for a longer run (profiling).
#[test]
#[ignore = "a measurement (prints the cost per command); scripts/test-all.sh runs it with --ignored"]
fn serve_cost_per_command() {
    let n: u32 = std::env::var("SGCTL_TCMU_PERF_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000)
        .max(32);
    for (spec, queued) in [
        ("px02smf080?capacity_gib=1&clock=virtual", false),
        ("px02smf080?capacity_gib=1&clock=virtual", true),
        (
            "px02smf080?capacity_gib=1&clock=virtual&state=/tmp/perf-tcmu.state",
            true,
        ),
    ] {
        let drive = crate::sim::open(spec).unwrap();
        let mut s = RingServer::new(drive.port(1));
        if queued {
            let mut q = drive.port(1);
            s.queued = Some(Box::new(move |c: &[u8], d: DataBuf<'_>, t, at| {
                q.execute_queued(c, d, t, at)
            }));
        }
        let mut k = FakeKernel::with_sizes(FLAG_CAP_READ_LEN, 64 * 1024, 32 * 4096);
        let mut lba = 1u32;
        let mut batch = |k: &mut FakeKernel, s: &mut RingServer<_>| {
            k.recycle_data();
            for _ in 0..32 {
                lba = lba.wrapping_mul(1_103_515_245).wrapping_add(12345) % 200_000;
                let b = lba.to_be_bytes();
                k.push_cmd(&[0x28, 0, b[0], b[1], b[2], b[3], 0, 0, 8, 0], &[4096], &[]);
            }
            // (PAD entries at the ring's end count as moved entries too.)
            assert!(s.process(&mut k.mem).unwrap() >= 32);
            assert_eq!(k.reap().len(), 32);
        };
        // Warm-up: the FTL is built on the first media command.
        batch(&mut k, &mut s);
        let t = Instant::now();
        let cpu0 = thread_cpu();
        for _ in 0..n / 32 {
            batch(&mut k, &mut s);
        }
        let count = n / 32 * 32;
        let per = t.elapsed() / count;
        let cpu = thread_cpu().saturating_sub(cpu0) / count;
        let path = if queued { "queued" } else { "plain" };
        eprintln!(
            "{spec} ({path}): {per:?} wall, {cpu:?} CPU per 4K read \
             (server and fake kernel)"
        );
    }
}
