//! The uring engine on a real file with O_DIRECT (issue 12): the submit/wait loop at QD 1 and
//! 8 loses no completion and counts none twice (a `--bytes` run completes exactly that many
//! bytes), and `--verify` over a mixed run finds every block it reads back intact. Needs
//! io_uring; the target directory (the build's file system, not tmpfs) takes O_DIRECT.

use crate::util::run_audited as sgctl;

#[test]
fn uring_on_a_file_exact_bytes_and_verify_at_qd1_and_qd8() {
    let d = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let audit = d.path().join("audit.jsonl");
    let file = d.path().join("target.img");
    std::fs::write(&file, vec![0u8; 16 << 20]).unwrap();
    let f = file.to_str().unwrap();
    for qd in ["1", "8"] {
        // Exactly 4 MiB of random writes: every completion counted once.
        let (code, out, err) = sgctl(
            &[
                "--json",
                "bench",
                "run",
                f,
                "--engine",
                "uring",
                "--rw",
                "randwrite",
                "--bs",
                "4k",
                "--qd",
                qd,
                "--bytes",
                "4m",
                "--confirm",
                f,
            ],
            &audit,
        );
        assert_eq!(code, 0, "qd {qd}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let r = &v["data"];
        assert_eq!(r["engine"], "uring");
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
        let (code, out, err) = sgctl(
            &[
                "--json",
                "bench",
                "run",
                f,
                "--engine",
                "uring",
                "--rw",
                "randrw",
                "--mix",
                "50",
                "--bs",
                "4k",
                "--qd",
                qd,
                "--range",
                "0:1m",
                "--bytes",
                "8m",
                "--verify",
                "--confirm",
                f,
            ],
            &audit,
        );
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

/// A loop device with direct I/O over a 64 MiB file in /dev/shm, detached on drop.
struct LoopDev {
    path: String,
    img: std::path::PathBuf,
}

impl LoopDev {
    fn new() -> Option<LoopDev> {
        // losetup fails without root: the caller skips.
        let img =
            std::path::PathBuf::from(format!("/dev/shm/sgctl-it-uring-{}", std::process::id()));
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
        Some(LoopDev { path, img })
    }
}

impl Drop for LoopDev {
    fn drop(&mut self) {
        let _ = std::process::Command::new("losetup")
            .args(["-d", &self.path])
            .status();
        let _ = std::fs::remove_file(&self.img);
    }
}
