//! CLI tests for `sgctl sim bench` on a tiny simulated drive. They check the document's shape
//! and the model's relations on its virtual clock; they time nothing on the host.

use crate::util::run as sgctl;

#[test]
fn bench_json_reports_fob_steady_state_and_op() {
    let (code, out, err) = sgctl(&[
        "--json",
        "sim",
        "bench",
        "mk4001grzb",
        "--capacity-gib",
        "0.0625",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let p = &v["data"]["profiles"][0];
    assert_eq!(p["profile"], "mk4001grzb");
    assert_eq!(p["user_bytes"], 64 << 20);
    assert_eq!(p["datasheet_read_iops"], 90_000);
    let f = |k: &str| p[k].as_f64().unwrap_or_else(|| panic!("{k} in {p}"));
    let fob = p["fob_random_write"]["iops"].as_f64().unwrap();
    let ss = p["steady_state"]["average"].as_f64().unwrap();
    let ss_op = p["steady_state_op"]["average"].as_f64().unwrap();
    let wa = p["steady_state"]["write_amplification"].as_f64().unwrap();
    let wa_op = p["steady_state_op"]["write_amplification"]
        .as_f64()
        .unwrap();
    assert!(ss < fob, "steady state {ss} not below FOB {fob}");
    assert!(ss_op > ss, "extra OP {ss_op} not above {ss}");
    assert!(wa > wa_op && wa_op > 1.0, "WA {wa} / with OP {wa_op}");
    assert!(f("erase_count_max") >= f("erase_count_min"));
    assert!(p["round_iops"].as_array().unwrap().len() >= 8);
    assert!((f("op_extra") - 0.2).abs() < 1e-9);
}

#[test]
fn bench_text_and_bad_arguments() {
    let (code, out, _) = sgctl(&["sim", "bench", "hk4e", "--capacity-gib", "0.0625"]);
    assert_eq!(code, 0);
    assert!(out.contains("hk4e") && out.contains("datasheet") && out.contains("review:"));
    let (code, _, err) = sgctl(&["sim", "bench", "nosuchdrive", "--capacity-gib", "0.0625"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("nosuchdrive"));
    let (code, _, _) = sgctl(&["sim", "bench", "--op-extra", "95"]);
    assert_eq!(code, 2);
    let (code, _, _) = sgctl(&["sim", "bench", "--capacity-gib", "0"]);
    assert_eq!(code, 2);
}

/// A state file whose drive clock is at `u64::MAX` made `bench run --runtime 1` run forever
/// (no command took drive time once the clock saturated; a debug build overflowed in the
/// media model). It is refused, naming the field, within a bounded time.
#[test]
fn a_state_file_with_the_clock_at_its_end_is_refused_not_run_forever() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d.json");
    let addr = format!(
        "sim:px02smf080?capacity_gib=0.0625&state={}",
        path.display()
    );
    let (code, _, err) = sgctl(&["inquiry", &addr]);
    assert_eq!(code, 0, "{err}");
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    v["now_ns"] = serde_json::json!(u64::MAX);
    std::fs::write(&path, serde_json::to_vec(&v).unwrap()).unwrap();
    let mut child = crate::util::sgctl_cmd()
        .args(["bench", "run", &addr, "--rw", "randread", "--runtime", "1"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let t = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t.elapsed() > std::time::Duration::from_secs(120) {
            let _ = child.kill();
            panic!("bench run did not end within 120 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(!status.success(), "{err}");
    assert!(err.contains("now_ns 18446744073709551615"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
