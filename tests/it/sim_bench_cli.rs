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
