//! The uring engine on a real file with O_DIRECT: the submit/wait loop at QD 1 and
//! 8 (one I/O per submit call, and at QD 8 also 3 per call) loses no completion and counts
//! none twice (a `--bytes` run completes exactly that many bytes), and `--verify` over a
//! mixed run finds every block it reads back intact. Needs
//! io_uring; the target directory (the build's file system, not tmpfs) takes O_DIRECT.

use crate::util::run_audited as sgctl;

/// A mixed run's `--verify` over the first MiB, 8 MiB in all: the same blocks written and
/// read back many times.
const VERIFY_1M: [&str; 5] = ["--range", "0:1m", "--bytes", "8m", "--verify"];

#[test]
fn uring_on_a_file_exact_bytes_and_verify_at_qd1_and_qd8() {
    let d = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let audit = d.path().join("audit.jsonl");
    let file = d.path().join("target.img");
    std::fs::write(&file, vec![0u8; 16 << 20]).unwrap();
    let f = file.to_str().unwrap();
    // "" = the default (1: each I/O with a call of its own, as fio).
    for (qd, batch) in [("1", "1"), ("8", "1"), ("8", "3"), ("8", "")] {
        let mut tuning = vec!["--bs", "4k", "--qd", qd];
        if !batch.is_empty() {
            tuning.extend(["--submit-batch", batch]);
        }
        // Exactly 4 MiB of random writes: every completion counted once.
        let mut a = vec!["--json", "bench", "run", f, "--engine", "uring", "--rw"];
        a.extend(["randwrite"].iter().chain(&tuning));
        a.extend(["--bytes", "4m", "--confirm", f]);
        let (code, out, err) = sgctl(&a, &audit);
        assert_eq!(code, 0, "qd {qd}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let r = &v["data"];
        assert_eq!(r["engine"], "uring");
        let want = batch.parse::<u32>().unwrap_or(1);
        assert_eq!(r["workload"]["submit_batch"], want);
        assert_eq!(r["ios"], 1024, "qd {qd}: {r}");
        assert_eq!(r["bytes"], 4 << 20, "qd {qd}");
        assert_eq!(r["errors"], 0);
        let p: Vec<f64> = r["latency"]["percentiles"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x[1].as_f64().unwrap())
            .collect();
        assert!(p.windows(2).all(|w| w[0] <= w[1]), "{p:?}");
        assert!(p[0] > 0.0);
        // A mixed run with --verify: reads check the blocks this run wrote.
        let mut args = vec![
            "--json", "bench", "run", f, "--engine", "uring", "--rw", "randrw",
        ];
        args.extend(["--mix", "50"].iter().chain(&tuning));
        args.extend(VERIFY_1M);
        args.extend(["--confirm", f]);
        let (code, out, err) = sgctl(&args, &audit);
        assert_eq!(code, 0, "qd {qd}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let vr = &v["data"]["verify"];
        assert_eq!(vr["failures"], 0, "qd {qd}: {vr}");
        assert!(
            vr["blocks_checked"].as_u64().unwrap() > 100,
            "qd {qd}: {vr}"
        );
        assert_eq!(v["data"]["ios"], 2048);
    }
}

/// Back-to-back writing runs on one block device: each opens it with O_EXCL and registers it
/// in its rings, and the kernel tears a closed ring down asynchronously. Before the engine
/// unregistered its files on the way out, about half of such runs on this host's loop device
/// were refused with EBUSY (exit 6). Needs root and a loop device (losetup); says so and
/// passes without them (CI runs as root).
#[test]
fn back_to_back_write_runs_on_a_loop_device() {
    let Some(dev) = LoopDev::new() else {
        eprintln!("skipped: needs root and losetup (a loop device over a tmpfs file)");
        return;
    };
    let d = tempfile::tempdir().unwrap();
    let audit = d.path().join("audit.jsonl");
    let name = dev.path.rsplit('/').next().unwrap().to_string();
    let mut failed = Vec::new();
    for i in 0..10 {
        let (code, _, err) = sgctl(
            &[
                "bench",
                "run",
                &dev.path,
                "--engine",
                "uring",
                "--rw",
                "randwrite",
                "--bs",
                "4k",
                "--qd",
                "4",
                "--runtime",
                "0.1",
                "--confirm",
                &name,
            ],
            &audit,
        );
        if code != 0 {
            failed.push(format!("run {i}: exit {code}: {}", err.trim()));
        }
    }
    assert!(failed.is_empty(), "{failed:?}");
}

/// A device queue shorter than what the jobs keep outstanding: the loop device's
/// `nr_requests` set to 8 under `--jobs 2 --qd 16`. Each job then keeps its share (4) with
/// the kernel and queues the rest itself, in order, and says so in a note. Every run must
/// complete exactly its bytes with no error, `--verify` must find every block it reads
/// intact, and two such runs at once (so the queue is full and the kernel's workers wait for
/// requests too) must lose nothing either. Needs root and losetup, as above.
#[test]
fn a_full_device_queue_loses_nothing_on_a_loop_device() {
    let Some(mut dev) = LoopDev::new() else {
        eprintln!("skipped: needs root and losetup (a loop device over a tmpfs file)");
        return;
    };
    let name = dev.path.rsplit('/').next().unwrap().to_string();
    if !dev.set_nr_requests(8) {
        eprintln!(
            "skipped: {} cannot be set to 8 here",
            dev.nr_requests_file()
        );
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let audit = d.path().join("audit.jsonl");
    let json = |out: &str| -> serde_json::Value { serde_json::from_str(out).unwrap() };
    let common = [
        "--engine", "uring", "--bs", "4k", "--qd", "16", "--jobs", "2",
    ];
    // Writes, exact bytes: every request completed once, none lost while held.
    let mut args = vec!["--json", "bench", "run", &dev.path, "--rw", "randwrite"];
    args.extend(common);
    args.extend(["--bytes", "8m", "--confirm", &name]);
    let (code, out, err) = sgctl(&args, &audit);
    assert_eq!(code, 0, "{err}");
    let r = &json(&out)["data"];
    assert_eq!(
        (r["ios"].as_u64(), r["errors"].as_u64()),
        (Some(2048), Some(0)),
        "{r}"
    );
    // Mixed with --verify over 1 MiB: reads and writes of the same blocks held and re-sent.
    let mut args = vec![
        "--json", "bench", "run", &dev.path, "--rw", "randrw", "--mix", "50",
    ];
    args.extend(common);
    args.extend(VERIFY_1M);
    args.extend(["--confirm", &name]);
    let (code, out, err) = sgctl(&args, &audit);
    // Exit 5 is --verify's: its failures are in the JSON.
    let verify =
        serde_json::from_str::<serde_json::Value>(&out).map(|v| v["data"]["verify"].clone());
    assert_eq!(code, 0, "{err} {verify:?}");
    let r = &json(&out)["data"];
    assert_eq!(r["verify"]["failures"], 0, "{}", r["verify"]);
    assert!(
        r["verify"]["blocks_checked"].as_u64().unwrap() > 100,
        "{}",
        r["verify"]
    );
    assert_eq!(r["ios"], 2048);
    let cap_note = "each job kept at most 4 with it and queued the rest itself";
    assert!(r["notes"].to_string().contains(cap_note), "{}", r["notes"]);
    // Two reading runs at once: 2 × 2 jobs × 4 for 8 requests.
    let mut args = vec!["--json", "bench", "run", &dev.path, "--rw", "randread"];
    args.extend(common);
    args.extend(["--bytes", "32m"]);
    let runs: Vec<_> = (0..2)
        .map(|_| {
            crate::util::sgctl_cmd()
                .args(&args)
                .env("SGCTL_AUDIT_LOG", &audit)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in runs {
        let o = c.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{err}");
        let v = json(&String::from_utf8_lossy(&o.stdout));
        let r = &v["data"];
        assert_eq!(
            (r["ios"].as_u64(), r["errors"].as_u64()),
            (Some(8192), Some(0)),
            "{r}"
        );
        assert!(r["notes"].to_string().contains(cap_note), "{}", r["notes"]);
    }
}

/// A loop device with direct I/O over a 64 MiB file of its own in /dev/shm, detached on drop.
struct LoopDev {
    path: String,
    img: std::path::PathBuf,
    /// `queue/nr_requests` as it was before `set_nr_requests`: put back on drop. A loop
    /// device keeps its queue settings after `losetup -d`, so without this the next user of
    /// the node (another test, scripts/bench-engine.sh, fio) would get the short queue.
    nr_requests_was: Option<String>,
}

impl LoopDev {
    fn new() -> Option<LoopDev> {
        // losetup fails without root: the caller skips.
        // One image per device: the tests run in parallel in one process.
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let img = std::path::PathBuf::from(format!(
            "/dev/shm/sgctl-it-uring-{}-{n}",
            std::process::id()
        ));
        std::fs::write(&img, vec![0u8; 64 << 20]).ok()?;
        let out = std::process::Command::new("losetup")
            .args(["--direct-io=on", "-f", "--show"])
            .arg(&img)
            .output()
            .ok()?;
        let path = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if !out.status.success() || path.is_empty() {
            let _ = std::fs::remove_file(&img);
            return None;
        }
        Some(LoopDev {
            path,
            img,
            nr_requests_was: None,
        })
    }

    fn nr_requests_file(&self) -> String {
        let name = self.path.rsplit('/').next().unwrap_or_default();
        format!("/sys/block/{name}/queue/nr_requests")
    }

    /// Sets `queue/nr_requests` (restored on drop); false when it cannot be set here.
    fn set_nr_requests(&mut self, n: u32) -> bool {
        let f = self.nr_requests_file();
        let Ok(was) = std::fs::read_to_string(&f) else {
            return false;
        };
        self.nr_requests_was.get_or_insert(was.trim().to_string());
        std::fs::write(&f, n.to_string()).is_ok()
            && std::fs::read_to_string(&f).is_ok_and(|v| v.trim() == n.to_string())
    }
}

impl Drop for LoopDev {
    fn drop(&mut self) {
        if let Some(was) = &self.nr_requests_was {
            let _ = std::fs::write(self.nr_requests_file(), was);
        }
        let _ = std::process::Command::new("losetup")
            .args(["-d", &self.path])
            .status();
        let _ = std::fs::remove_file(&self.img);
    }
}

/// The aggregate CPU latency limit the kernel applies now (`/dev/cpu_dma_latency` reads back
/// the lowest request held, a native-endian s32 in µs), or None without the device or root.
fn cpu_latency_now() -> Option<i32> {
    let b = std::fs::read(::sgctl::bench::qos::CPU_DMA_LATENCY).ok()?;
    Some(i32::from_ne_bytes(b.get(..4)?.try_into().ok()?))
}

/// `--cpu-latency US` holds a PM QoS request for the run and only for it: while a read run on
/// a file goes, the kernel's limit is US (or a lower one somebody else holds); after it, the
/// limit is back to what it was; the result's note says so. On the sim engine the option is
/// refused (exit 2: a virtual clock has no idle CPUs). Needs root (the device is root's
/// only); says so and passes without it (CI runs as root).
#[test]
fn cpu_latency_is_held_for_the_run_only() {
    let d = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let (code, _, err) = crate::util::run(&[
        "bench",
        "run",
        "sim:hk4e",
        "--runtime",
        "1s",
        "--cpu-latency",
        "0",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("virtual clock"), "{err}");
    let Some(before) = cpu_latency_now() else {
        eprintln!("skipped: needs root and /dev/cpu_dma_latency (the PM QoS device)");
        return;
    };
    let file = d.path().join("target.img");
    std::fs::write(&file, vec![0u8; 4 << 20]).unwrap();
    let out = d.path().join("out.json");
    let mut child = crate::util::sgctl_cmd()
        .args(["--json", "bench", "run"])
        .arg(&file)
        .args(["--engine", "uring", "--rw", "randread", "--qd", "1"])
        .args(["--runtime", "3s", "--cpu-latency", "7"])
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The request is made before the run starts; look for it while the process lives (on a
    // loaded machine the start alone can take seconds, so no fixed window).
    let want = before.min(7);
    let mut during = None;
    while child.try_wait().unwrap().is_none() {
        std::thread::sleep(std::time::Duration::from_millis(50));
        let now = cpu_latency_now();
        if now == Some(want) {
            during = now;
            break;
        }
        during = now;
    }
    let status = child.wait().unwrap();
    assert!(status.success(), "{status}");
    assert_eq!(
        during,
        Some(want),
        "limit during the run (before: {before})"
    );
    assert_eq!(
        cpu_latency_now(),
        Some(before),
        "the request outlived the run"
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let notes = v["data"]["notes"].to_string();
    assert!(notes.contains("limited to 7 us"), "{notes}");
}
