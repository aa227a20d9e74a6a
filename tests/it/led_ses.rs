//! `sgctl locate` / `sgctl fault` through SES pages (src/ops/led/ses.rs) on the virtual
//! enclosure: the library backend in-process, and the command with `--enclosure-device` on an
//! enclosure whose indicators persist (`state=`), read back in-process.

use sgctl::ops::led::ses as led_ses;
use sgctl::ops::led::{self, Led};
use sgctl::scsi::diagnostic;
use sgctl::ses::{self, Detail};
use sgctl::transport::{check, DataBuf, Transport};
use std::process::Command;
use std::time::Duration;

const T: Duration = Duration::from_secs(5);
const DRIVE: &str = "px02smf080";

fn page(t: &mut dyn Transport, code: u8) -> Vec<u8> {
    let mut buf = vec![0u8; 0xffff];
    let c = t
        .execute(
            &diagnostic::ReceiveDiagnosticResultsCdb::new(0xffff)
                .pcv(true)
                .page_code(code)
                .build(),
            DataBuf::In(&mut buf),
            T,
        )
        .unwrap();
    check(&c).unwrap();
    buf.truncate(buf.len() - c.resid);
    buf
}

/// (ident, fault requested) of every slot, from a fresh open of `addr`.
fn slots(addr: &str) -> Vec<(bool, bool)> {
    let mut t = sgctl::device::open(addr, sgctl::device::OpenOptions::default())
        .map(|o| o.transport)
        .unwrap();
    let c = ses::decode_config(&page(&mut *t, 1)).unwrap().page;
    let s = ses::decode_status(&c, &page(&mut *t, 2)).unwrap();
    assert!(s.problems.is_empty(), "{:?}", s.problems);
    (0..u32::from(c.types[0].possible_elements))
        .map(|i| match &s.page.element(i).unwrap().1.detail {
            Detail::Slot(x) => (x.ident, x.fault_requested),
            o => panic!("{o:?}"),
        })
        .collect()
}

/// The target port SAS addresses the drive reports in VPD 0x83, through the discover layer.
fn ports(drive: &str) -> Vec<u64> {
    let d = sgctl::discover::paths_of(drive).unwrap();
    let p = led_ses::sas_addresses(d.paths.iter().filter_map(|p| p.target_port.as_deref()));
    assert!(!p.is_empty(), "{drive}: no target port");
    p
}

#[test]
fn ses_backend_finds_the_slot_sets_and_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    let enc = format!(
        "sim:enclosure?slots=6&state={}",
        dir.path().join("e.json").display()
    );
    let drive = format!("sim:{DRIVE}?serial=E1S04&port=2");
    let found = led_ses::backends_for(std::slice::from_ref(&enc), &ports(&drive), T);
    assert!(found.errors.is_empty(), "{:?}", found.errors);
    assert_eq!(found.backends.len(), 1);
    assert_eq!(found.backends[0].0.slot, Some(4));
    assert_eq!(found.backends[0].0.enclosure_device, enc);
    // Dry run: the planned page, nothing sent.
    let ch = led::apply(&found.backends, Led::Fault, true, true);
    assert!(!ch[0].written && ch[0].error.is_none(), "{ch:?}");
    let planned = ch[0].planned_page.as_deref().unwrap();
    // Element 4 of the first type: control element at 8 + 4 * (1 + 4), SELECT and RQST FAULT.
    assert_eq!(&planned[56..64], "80000020", "{planned}");
    assert!(slots(&enc).iter().all(|&s| s == (false, false)));
    // The change is in the next status page, for that slot only.
    let ch = led::apply(&found.backends, Led::Fault, true, false);
    assert!(ch[0].written && ch[0].after == Some(true), "{ch:?}");
    assert_eq!(ch[0].backend, "ses");
    let s = slots(&enc);
    assert_eq!(s[4], (false, true));
    assert!(s
        .iter()
        .enumerate()
        .all(|(i, &x)| i == 4 || x == (false, false)));
    // Locate keeps the fault LED (read-modify-write); already-on is not written again.
    let ch = led::apply(&found.backends, Led::Locate, true, false);
    assert!(ch[0].written);
    assert_eq!(slots(&enc)[4], (true, true));
    let ch = led::apply(&found.backends, Led::Locate, true, false);
    assert!(!ch[0].written && ch[0].before == Some(true));
    let ch = led::apply(&found.backends, Led::Fault, false, false);
    assert!(ch[0].written && ch[0].after == Some(false));
    assert_eq!(slots(&enc)[4], (true, false));
}

#[test]
fn a_drive_in_no_slot_is_not_matched() {
    // Slot 7 of a 6-slot enclosure, and slot 2 of another enclosure id.
    for drive in ["E1S07", "E2S02"] {
        let found = led_ses::backends_for(
            &["sim:enclosure?slots=6".to_string()],
            &ports(&format!("sim:{DRIVE}?serial={drive}")),
            T,
        );
        assert!(
            found.backends.is_empty() && found.errors.is_empty(),
            "{drive}"
        );
    }
    // An empty slot does not match the drive that would be there.
    let found = led_ses::backends_for(
        &["sim:enclosure?slots=6&empty=3".to_string()],
        &ports(&format!("sim:{DRIVE}?serial=E1S03")),
        T,
    );
    assert!(found.backends.is_empty());
    // A device that is not an enclosure: said, not matched.
    let found = led_ses::backends_for(
        &[format!("sim:{DRIVE}?serial=X")],
        &ports(&format!("sim:{DRIVE}?serial=E1S03")),
        T,
    );
    assert!(found.backends.is_empty());
    assert_eq!(found.errors.len(), 1, "{:?}", found.errors);
}

fn sgctl(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, serde_json::Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_sgctl"))
        .arg("--json")
        .args(args)
        .arg("--audit-log")
        .arg(dir.join("audit.jsonl"))
        .output()
        .unwrap();
    let v = serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
    (out.status.code(), v)
}

#[test]
fn cli_locate_through_enclosure_device_with_dry_run_audit_and_no_slot() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let enc = format!("sim:enclosure?slots=4&state={}", p.join("e.json").display());
    let drive = format!("sim:{DRIVE}?serial=E1S01");
    let (code, v) = sgctl(
        p,
        &[
            "locate",
            &drive,
            "--on",
            "--dry-run",
            "--enclosure-device",
            &enc,
        ],
    );
    assert_eq!(code, Some(0), "{v}");
    let c = &v["data"]["changes"][0];
    assert_eq!(c["backend"], "ses");
    assert_eq!(c["written"], false);
    assert!(c["planned_page"].as_str().unwrap().starts_with("02"), "{v}");
    assert_eq!(slots(&enc)[1], (false, false), "dry run sends nothing");
    assert!(!p.join("audit.jsonl").exists());
    let (code, v) = sgctl(p, &["locate", &drive, "--on", "--enclosure-device", &enc]);
    assert_eq!(code, Some(0), "{v}");
    let c = &v["data"]["changes"][0];
    assert_eq!(
        (c["before"].clone(), c["after"].clone()),
        (false.into(), true.into())
    );
    assert_eq!(c["enclosure"]["slot"], 1);
    assert_eq!(slots(&enc)[1], (true, false));
    let log = std::fs::read_to_string(p.join("audit.jsonl")).unwrap();
    let rec: serde_json::Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    assert_eq!(
        (rec["event"].as_str(), rec["job"].as_str()),
        (Some("led"), Some("locate"))
    );
    assert_eq!(rec["changes"][0]["backend"], "ses");
    // A drive in no slot of the enclosure: exit 7, as when no kernel enclosure holds it.
    let (code, v) = sgctl(
        p,
        &[
            "fault",
            &format!("sim:{DRIVE}?serial=E1S05"),
            "--on",
            "--enclosure-device",
            &enc,
        ],
    );
    assert_eq!(code, Some(7), "{v}");
    assert!(v["sgctl"]["messages"][0]["string"]
        .as_str()
        .unwrap()
        .contains("no enclosure holds the drive"));
    // Without --enclosure-device a virtual drive is in no enclosure: exit 7 too.
    let (code, _) = sgctl(p, &["fault", &drive, "--on"]);
    assert_eq!(code, Some(7));
    assert_eq!(log.lines().count(), 1);
}

/// `--leds` after a purge of virtual drives no kernel enclosure holds: the slots found through
/// the enclosure services device named with `--enclosure-device` (SES pages over the
/// in-process transport), locate for the drive that passed, fault for the one refused, and
/// the drive in no slot said.
#[test]
fn purge_leds_fall_back_to_ses_pages() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let state = p.join("e.json");
    let enc = format!(
        "sim:enclosure?slots=4&drive={DRIVE}&serials=LED001,LED002&state={}",
        state.display()
    );
    let drive = |s: &str| format!("sim:{DRIVE}?clock=virtual&capacity_blocks=65536&serial={s}");
    let out = Command::new(env!("CARGO_BIN_EXE_sgctl"))
        .args(["--json", "sanitize", "--crypto"])
        .args([drive("LED001"), drive("LED002"), drive("LED003")])
        .args([
            "--confirm",
            "LED001",
            "--confirm",
            "LED009",
            "--confirm",
            "LED003",
        ])
        .args(["--leds", "--enclosure-device", &enc])
        .env("SGCTL_AUDIT_LOG", p.join("audit.jsonl"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(8), "{err}\n{v}");
    let leds = v["data"]["leds"].as_array().unwrap();
    assert_eq!(leds.len(), 3, "{v}");
    assert_eq!(
        (leds[0]["led"].as_str(), leds[1]["led"].as_str()),
        (Some("locate"), Some("fault"))
    );
    for l in &leds[..2] {
        assert!(l["error"].is_null(), "{l}");
        assert_eq!(l["changes"][0]["backend"], "ses");
        assert_eq!(l["changes"][0]["after"], true);
    }
    assert_eq!(leds[1]["changes"][0]["enclosure"]["slot"], 1);
    let e = leds[2]["error"].as_str().unwrap();
    assert!(
        e.contains("none of the 1 enclosure services device(s)"),
        "{e}"
    );
    assert!(e.contains("/sys/class/enclosure"), "{e}");
    // The enclosure itself (its state file, opened afresh): slot 0 locate, slot 1 fault.
    assert_eq!(
        slots(&enc),
        [(true, false), (false, true), (false, false), (false, false)]
    );
    let audit = std::fs::read_to_string(p.join("audit.jsonl")).unwrap();
    let led_events = audit
        .lines()
        .filter(|l| l.contains("\"event\":\"led\""))
        .count();
    assert_eq!(led_events, 2, "{audit}");
}

/// The library side: the device list is asked for once, only when a drive is in no kernel
/// enclosure; virtual drives are searched only when asked to.
#[test]
fn purge_fallback_asks_for_devices_once_and_skips_virtual_drives_unless_asked() {
    use sgctl::ops::record::{JobRecord, Outcome};
    use std::cell::Cell;
    let dir = tempfile::tempdir().unwrap();
    let enc = format!(
        "sim:enclosure?slots=3&drive={DRIVE}&state={}",
        dir.path().join("e.json").display()
    );
    let rec = |serial: &str, outcome| JobRecord {
        device: format!("sim:{DRIVE}?serial={serial}"),
        outcome,
        ..JobRecord::default()
    };
    let records = [
        rec("E1S00", Outcome::Failed),
        rec("E1S02", Outcome::Success),
    ];
    let root = dir.path(); // no sys/class/enclosure
    let calls = Cell::new(0);
    let host = sgctl::discover::HostScan::new(sgctl::discover::ScanOptions {
        sysroot: root.to_path_buf(),
        ..Default::default()
    });
    let fallback = |virtual_drives| led::SesFallback {
        devices: Box::new(|| {
            calls.set(calls.get() + 1);
            vec![enc.clone()]
        }),
        host: &host,
        timeout: T,
        virtual_drives,
    };
    let out = led::light_after_purge(root, &records, None, Some(fallback(false)));
    assert!(out
        .iter()
        .all(|o| o.changes.is_empty() && o.error.is_some()));
    assert_eq!(calls.get(), 0);
    assert_eq!(slots(&enc), [(false, false); 3]);
    let out = led::light_after_purge(root, &records, None, Some(fallback(true)));
    assert!(out.iter().all(|o| o.error.is_none()), "{out:?}");
    assert_eq!(calls.get(), 1);
    assert_eq!(out[0].led, Led::Fault);
    assert_eq!(slots(&enc), [(false, true), (false, false), (true, false)]);
    // Virtual drives need no scan of the host.
    assert_eq!(host.walks(), 0);
    // No fallback at all: the sysfs answer, as before.
    let out = led::light_after_purge(root, &records, None, None);
    assert!(out[0]
        .error
        .as_deref()
        .unwrap()
        .contains("no enclosure is bound"));
}

/// Host drives in no kernel enclosure (the scsi_debug fixture's LUs, which sysfs links to no
/// slot): the fallback looks every drive's paths up in one scan of the host, not one per drive.
#[test]
fn purge_fallback_scans_the_host_once_for_all_its_drives() {
    use sgctl::ops::record::{JobRecord, Outcome};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sysfs/scsi-debug");
    let dir = tempfile::tempdir().unwrap();
    let enc = format!(
        "sim:enclosure?slots=3&drive={DRIVE}&state={}",
        dir.path().join("e.json").display()
    );
    let records: Vec<JobRecord> = (0..8)
        .map(|i| JobRecord {
            device: format!("/dev/sg{i}"),
            outcome: Outcome::Success,
            paths: vec![sgctl::host::PathInfo {
                hctl: Some(format!("0:0:{}:{}", i / 8, i % 8)),
                ..Default::default()
            }],
            ..JobRecord::default()
        })
        .collect();
    let host = sgctl::discover::HostScan::new(sgctl::discover::ScanOptions {
        sysroot: root.clone(),
        ..Default::default()
    });
    let out = led::light_after_purge(
        &root,
        &records,
        None,
        Some(led::SesFallback {
            devices: Box::new(|| vec![enc.clone()]),
            host: &host,
            timeout: T,
            virtual_drives: false,
        }),
    );
    assert_eq!(out.len(), 8);
    // Each drive was looked up and found in the fixture (none is in the enclosure) ...
    for o in &out {
        let e = o.error.as_deref().unwrap_or_default();
        assert!(!e.is_empty() && !e.contains("not among"), "{o:?}");
    }
    // ... in one scan of the host.
    assert_eq!(host.walks(), 1);
}
