//! A rack-scale purge at test scale: 32 virtual drives sanitized by one command with the
//! default validation and the per-HBA cap, through the binary. One audit log holding one
//! chain (a start and an end record per drive, then the manifest's), one manifest listing
//! every drive, one certificate record per drive, all verifying. The 256-drive measurement
//! with the same command is in docs/discovery.md ("Rack-scale purges").

use serde_json::Value;
use std::path::Path;

const N: usize = 32;

fn sgctl(dir: &Path, args: &[String]) -> (i32, Value, String) {
    let out = crate::util::sgctl_cmd()
        .arg("--json")
        .args(args)
        .env("SGCTL_AUDIT_LOG", dir.join("audit.jsonl"))
        .env_remove("SGCTL_SIGNING_KEY")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        serde_json::from_slice(&out.stdout).unwrap_or(Value::Null),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn s(x: &str) -> String {
    x.to_string()
}

#[test]
fn thirty_two_drives_one_command_one_chain_one_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let key = d.join("key.pem");
    let (code, j, err) = sgctl(
        d,
        &[s("certificate"), s("keygen"), key.display().to_string()],
    );
    assert_eq!(code, 0, "{err} {j}");
    let serials: Vec<String> = (0..N).map(|i| format!("RACK{i:03}")).collect();
    let mut args = vec![s("sanitize"), s("--crypto")];
    for sn in &serials {
        // used=1: every block holds earlier data, so the default validation (quick: 66
        // sampled blocks hashed before and read back after) has something to show purged.
        args.push(format!(
            "sim:px02smf080?clock=virtual&capacity_blocks=65536&used=1&serial={sn}"
        ));
    }
    for sn in &serials {
        args.extend([s("--confirm"), sn.clone()]);
    }
    let cert = d.join("rack.json");
    args.extend([
        s("--certificate"),
        cert.display().to_string(),
        s("--signing-key"),
        key.display().to_string(),
    ]);
    let (code, j, err) = sgctl(d, &args);
    assert_eq!(code, 0, "{err}\n{j}");

    // One certificate record per drive, each validated and passed, all under one signature.
    let doc: Value = serde_json::from_slice(&std::fs::read(&cert).unwrap()).unwrap();
    let certs = doc["certificates"].as_array().unwrap();
    assert_eq!(certs.len(), N);
    let mut seen: Vec<&str> = certs
        .iter()
        .map(|c| c["drive"]["serial"].as_str().unwrap())
        .collect();
    seen.sort_unstable();
    assert_eq!(seen, serials.iter().map(String::as_str).collect::<Vec<_>>());
    for c in certs {
        assert_eq!(c["outcome"], "success", "{c}");
        assert_eq!(c["validation"]["result"], "passed", "{}", c["validation"]);
    }
    let pubkey = d.join("key.pem.pub");
    let verify = |f: &Path| {
        sgctl(
            d,
            &[
                s("certificate"),
                s("verify"),
                f.display().to_string(),
                s("--pubkey"),
                pubkey.display().to_string(),
            ],
        )
    };
    let (code, j, err) = verify(&cert);
    assert_eq!(code, 0, "{err} {j}");

    // One manifest listing every drive, verifying against the certificate beside it.
    let manifest = d.join("rack.json.manifest.json");
    let m: Value = serde_json::from_slice(&std::fs::read(&manifest).unwrap()).unwrap();
    assert_eq!(m["drives"].as_array().map(Vec::len), Some(N), "{m}");
    let (code, j, err) = verify(&manifest);
    assert_eq!(code, 0, "{err} {j}");
    let leftovers: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("manifest") && !n.starts_with("rack.json.manifest.json"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    // One audit log, one unbroken chain: a start and an end record per drive, then one
    // manifest record.
    let log = d.join("audit.jsonl");
    let (code, j, err) = sgctl(d, &[s("audit"), s("verify"), log.display().to_string()]);
    assert_eq!(code, 0, "{err} {j}");
    assert_eq!(j["data"]["chained"], 2 * N + 1, "{j}");
    let text = std::fs::read_to_string(&log).unwrap();
    let events: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        events.iter().filter(|e| e["event"] == "manifest").count(),
        1
    );
    assert_eq!(events.last().unwrap()["event"], "manifest");
}
