//! A rack-scale purge at test scale: 32 virtual drives sanitized by one command with the
//! default validation and the per-HBA cap, through the binary. One audit log holding one
//! chain (a start and an end record per drive, then the manifest's), one manifest listing
//! every drive, one certificate record per drive, all verifying. The same purge with one
//! thread (`SGCTL_THREADS=1`) and with eight gives the same records, reports, manifests and
//! audit records, but for times and job ids. The 256-drive measurement with the same command
//! is in docs/discovery.md ("Rack-scale purges").

use serde_json::Value;
use std::path::Path;

const N: usize = 32;

fn sgctl(dir: &Path, args: &[String]) -> (i32, Value, String) {
    sgctl_threads(dir, args, None)
}

/// `sgctl --json ARGS` with the audit log in `dir` (and `SGCTL_THREADS` when given; a fixed
/// validation seed, so two runs sample the same blocks).
fn sgctl_threads(dir: &Path, args: &[String], threads: Option<usize>) -> (i32, Value, String) {
    let mut c = crate::util::sgctl_cmd();
    c.arg("--json")
        .args(args)
        .env("SGCTL_AUDIT_LOG", dir.join("audit.jsonl"))
        .env("SGCTL_VALIDATION_SEED", "5eed")
        .env_remove("SGCTL_SIGNING_KEY")
        .env_remove("SGCTL_THREADS");
    if let Some(n) = threads {
        c.env("SGCTL_THREADS", n.to_string());
    }
    let out = c.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        serde_json::from_slice(&out.stdout).unwrap_or(Value::Null),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn s(x: &str) -> String {
    x.to_string()
}

/// What a purge left in `d`: the command's report, the certificate, the manifest and the audit
/// log's records.
struct Purge {
    report: Value,
    certificate: Value,
    manifest: Value,
    audit: Vec<Value>,
}

/// Sanitizes the N drives in one command, in `d`, with `threads` threads.
fn purge(d: &Path, threads: usize, serials: &[String]) -> Purge {
    let key = d.join("key.pem");
    let (code, j, err) = sgctl(
        d,
        &[s("certificate"), s("keygen"), key.display().to_string()],
    );
    assert_eq!(code, 0, "{err} {j}");
    let mut args = vec![s("sanitize"), s("--crypto")];
    for sn in serials {
        // used=1: every block holds earlier data, so the default validation (quick: 66
        // sampled blocks hashed before and read back after) has something to show purged.
        args.push(format!(
            "sim:px02smf080?clock=virtual&capacity_blocks=65536&used=1&serial={sn}"
        ));
    }
    for sn in serials {
        args.extend([s("--confirm"), sn.clone()]);
    }
    let cert = d.join("rack.json");
    args.extend([
        s("--certificate"),
        cert.display().to_string(),
        s("--signing-key"),
        key.display().to_string(),
    ]);
    let (code, report, err) = sgctl_threads(d, &args, Some(threads));
    assert_eq!(code, 0, "{err}\n{report}");
    let read = |p: &Path| -> Value { serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap() };
    let audit = std::fs::read_to_string(d.join("audit.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    Purge {
        report,
        certificate: read(&cert),
        manifest: read(&d.join("rack.json.manifest.json")),
        audit,
    }
}

/// `v` without what differs from run to run by design: times, durations (`*_ms` too), job
/// ids, process ids, the hashes and signatures over them, the directory the run wrote to,
/// and the envelope's argv.
fn stable(v: &Value, dir: &str) -> Value {
    const VARIES: &[&str] = &[
        "time",
        "started",
        "ended",
        "since",
        "duration_s",
        "pid",
        "job_id",
        "job_ids",
        "argv",
        "value",
        "public_key",
        "key_fingerprint",
        "signed_by_key",
        "prev",
        "hash",
        "prev_hash",
        "prev_sha256",
        "record_sha256",
        "certificate_sha256",
        "manifest_sha256",
        "manifest_body_sha256",
    ];
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, x)| {
                    let x = if VARIES.contains(&k.as_str()) || k.ends_with("_ms") {
                        Value::String("<varies>".into())
                    } else {
                        stable(x, dir)
                    };
                    (k.clone(), x)
                })
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(|x| stable(x, dir)).collect()),
        Value::String(t) => Value::String(t.replace(dir, "<dir>")),
        x => x.clone(),
    }
}

#[test]
fn thirty_two_drives_one_command_one_chain_one_manifest() {
    let serials: Vec<String> = (0..N).map(|i| format!("RACK{i:03}")).collect();
    let (one_dir, many_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let one = purge(one_dir.path(), 1, &serials);
    let many = purge(many_dir.path(), 8, &serials);
    let d = many_dir.path();
    let cert = d.join("rack.json");
    let doc = &many.certificate;

    // One certificate record per drive, in the order the drives were given, each validated
    // and passed, all under one signature.
    let certs = doc["certificates"].as_array().unwrap();
    assert_eq!(certs.len(), N);
    let seen: Vec<&str> = certs
        .iter()
        .map(|c| c["drive"]["serial"].as_str().unwrap())
        .collect();
    assert_eq!(seen, serials.iter().map(String::as_str).collect::<Vec<_>>());
    for c in certs {
        assert_eq!(c["outcome"], "success", "{c}");
        assert_eq!(c["validation"]["result"], "passed", "{}", c["validation"]);
    }
    // The report lists the same records as the certificate, in the same order.
    assert_eq!(many.report["data"]["drives"].as_array(), Some(certs));
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
    let m = &many.manifest;
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
    let events = &many.audit;
    assert_eq!(
        events.iter().filter(|e| e["event"] == "manifest").count(),
        1
    );
    assert_eq!(events.last().unwrap()["event"], "manifest");
    // Start and end records follow the jobs' own timing (docs/discovery.md): each drive has
    // one start and, after it, one end record, under the job id its certificate record has.
    for c in certs {
        let id = &c["job_id"];
        let at = |ev: &str| {
            let v: Vec<usize> = (events.iter().enumerate())
                .filter(|(_, e)| e["event"] == ev && e["job_id"] == *id)
                .map(|(i, _)| i)
                .collect();
            assert_eq!(v.len(), 1, "{ev} records of job {id}: {v:?}");
            v[0]
        };
        assert!(at("start") < at("end"), "{id}");
    }
    // The manifest record names the jobs in the order the drives were given.
    let ids: Vec<&Value> = certs.iter().map(|c| &c["job_id"]).collect();
    let listed: Vec<&Value> = events.last().unwrap()["job_ids"]
        .as_array()
        .unwrap()
        .iter()
        .collect();
    assert_eq!(listed, ids);

    // One thread or eight: the same records, report, manifest and audit records (the start
    // and end records compared as a set, their order being the jobs' timing).
    let (od, md) = (
        one_dir.path().display().to_string(),
        many_dir.path().display().to_string(),
    );
    assert_eq!(
        stable(&one.certificate["certificates"], &od),
        stable(&many.certificate["certificates"], &md)
    );
    assert_eq!(
        stable(&one.report["data"], &od),
        stable(&many.report["data"], &md)
    );
    assert_eq!(
        stable(&one.manifest["drives"], &od),
        stable(&many.manifest["drives"], &md)
    );
    assert_eq!(
        stable(&one.manifest["manifest"], &od),
        stable(&many.manifest["manifest"], &md)
    );
    let sorted = |p: &Purge, dir: &str| {
        let mut v: Vec<String> = p.audit.iter().map(|e| stable(e, dir).to_string()).collect();
        v.sort();
        v
    };
    let (a, b) = (sorted(&one, &od), sorted(&many, &md));
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        // Where two records part, with some context (a whole record is long).
        let at = (x.bytes().zip(y.bytes()))
            .position(|(p, q)| p != q)
            .unwrap_or(x.len().min(y.len()));
        let near = |t: &str| {
            t.get(at.saturating_sub(200)..(at + 200).min(t.len()))
                .unwrap_or(t)
                .to_string()
        };
        assert!(x == y, "audit records differ:\n{}\n{}", near(x), near(y));
    }
}
