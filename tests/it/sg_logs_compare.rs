//! sgctl's log page decoders against Debian's `sg_logs --inhex` (an independent decoder) on the
//! same bytes: the real fixtures, every page of the virtual drive after a workload, and the
//! hand-assembled self-test page. Every field listed below must have the same value in both.
//!
//! Needs the `sg3-utils` package. Without it the tests print why they skip; scripts/test-all.sh
//! installs it and sets SGCTL_REQUIRE_SG3=1, which turns a missing sg_logs into a failure.

use serde_json::Value;
use sgctl::cmd::{run_out, run_query};
use sgctl::logpage;
use sgctl::transport::{Transport, DEFAULT_TIMEOUT};
use std::process::Command;

fn sg_logs_available() -> bool {
    let found = Command::new("sg_logs").arg("--version").output().is_ok();
    if !found {
        if std::env::var("SGCTL_REQUIRE_SG3").as_deref() == Ok("1") {
            panic!("sg_logs not found but SGCTL_REQUIRE_SG3=1 (install Debian's sg3-utils)");
        }
        eprintln!("SKIP: sg_logs is not installed (apt-get install sg3-utils; scripts/test-all.sh does this and runs the comparison)");
    }
    found
}

/// `sg_logs --inhex` on one page; returns (key, value) pairs in output order. Lines hold
/// `key = value` or `key: value` pieces separated by ", ".
fn sg_logs(page: &[u8]) -> Vec<(String, String)> {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("page.hex");
    let text: Vec<String> = page.iter().map(|b| format!("{b:02x}")).collect();
    std::fs::write(&f, text.join(" ")).unwrap();
    let out = Command::new("sg_logs")
        .arg(format!("--inhex={}", f.display()))
        .output()
        .expect("run sg_logs");
    let s = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut kv = Vec::new();
    for line in s.lines() {
        for piece in line.split(", ") {
            let piece = piece.trim();
            let split = piece.split_once(" = ").or_else(|| piece.split_once(": "));
            if let Some((k, v)) = split {
                kv.push((k.trim().to_string(), v.trim().to_string()));
            }
        }
    }
    kv
}

/// sg_logs value -> comparable string: text before " [", then the first token, hex → decimal.
fn sg_num(v: &str) -> String {
    let t = v
        .split(" [")
        .next()
        .unwrap_or("")
        .split_whitespace()
        .next()
        .unwrap_or("");
    match t.strip_prefix("0x") {
        Some(h) => u128::from_str_radix(h, 16)
            .map(|x| x.to_string())
            .unwrap_or(t.into()),
        None => t.to_string(),
    }
}

/// Values at a JSON path where `*` walks every array element (nulls, i.e. fields the page does
/// not report, are skipped: sg_logs prints nothing for them either).
fn json_at(v: &Value, path: &str) -> Vec<Value> {
    let mut cur = vec![v.clone()];
    for seg in path.split('/').filter(|s| !s.is_empty()) {
        let mut next = Vec::new();
        for c in cur {
            if seg == "*" {
                next.extend(c.as_array().cloned().unwrap_or_default());
            } else if let Some(x) = c.get(seg).filter(|x| !x.is_null()) {
                next.push(x.clone());
            }
        }
        cur = next;
    }
    cur
}

#[derive(Clone, Copy)]
enum Kind {
    /// Integer (sg_logs decimal or 0x hex).
    Num,
    /// sgctl hex string vs sg_logs 0x number.
    Hex,
    /// Whole text before " [".
    Text,
}

fn ours(v: &Value, kind: Kind) -> String {
    match (kind, v) {
        (Kind::Hex, Value::String(s)) => u128::from_str_radix(s, 16).unwrap().to_string(),
        (_, Value::String(s)) => s.clone(),
        (_, other) => other.to_string(),
    }
}

/// Compares every (sgctl path, sg_logs key) pair for one page; returns how many values matched.
fn compare(page: &[u8], checks: &[(&str, &str, Kind)]) -> usize {
    let d = logpage::decode(&logpage::parse(page).unwrap());
    let sg = sg_logs(page);
    let mut matched = 0;
    for (path, key, kind) in checks {
        let a: Vec<String> = json_at(&d.decoded, path)
            .iter()
            .map(|v| ours(v, *kind))
            .collect();
        let b: Vec<String> = sg
            .iter()
            .filter(|(k, _)| k == key)
            .map(|(_, v)| match kind {
                Kind::Text => v.split(" [").next().unwrap_or("").trim().to_string(),
                _ => sg_num(v),
            })
            .collect();
        assert!(
            !a.is_empty(),
            "page 0x{:02x}: sgctl has no {path}",
            page[0] & 0x3f
        );
        assert_eq!(
            a,
            b,
            "page 0x{:02x}: sgctl {path} vs sg_logs '{key}'\nsg_logs: {sg:?}",
            page[0] & 0x3f
        );
        matched += a.len();
    }
    matched
}

const COUNTERS: &[(&str, &str, Kind)] = &[
    (
        "errors_corrected_by_eccdelayed",
        "Errors corrected with possible delays",
        Kind::Num,
    ),
    (
        "errors_corrected_by_rereads_rewrites",
        "Total rewrites or rereads",
        Kind::Num,
    ),
    (
        "total_errors_corrected",
        "Total errors corrected",
        Kind::Num,
    ),
    (
        "correction_algorithm_invocations",
        "Total times correction algorithm processed",
        Kind::Num,
    ),
    ("bytes_processed", "Total bytes processed", Kind::Num),
    (
        "total_uncorrected_errors",
        "Total uncorrected errors",
        Kind::Num,
    ),
];
const ECC_FAST: (&str, &str, Kind) = (
    "errors_corrected_by_eccfast",
    "Errors corrected without substantial delay",
    Kind::Num,
);
const TEMPERATURE: &[(&str, &str, Kind)] = &[
    ("current_c", "Current temperature", Kind::Num),
    ("drive_trip_c", "Reference temperature", Kind::Num),
];

fn fixture(name: &str) -> Vec<Vec<u8>> {
    let path = format!("{}/fixtures/logpages/{name}", env!("CARGO_MANIFEST_DIR"));
    let b = sgctl::bytes::parse_inhex(&std::fs::read_to_string(path).unwrap()).unwrap();
    logpage::split_pages(&b)
        .into_iter()
        .map(<[u8]>::to_vec)
        .collect()
}

#[test]
fn real_fixtures_agree_with_sg_logs() {
    if !sg_logs_available() {
        return;
    }
    let sdeb = fixture("sdeb_aa.hex");
    let mut n = compare(&sdeb[2], TEMPERATURE);
    n += compare(
        &sdeb[4],
        &[
            ("asc", "IE asc", Kind::Num),
            ("ascq", "ascq", Kind::Num),
            (
                "most_recent_temperature_c",
                "Current temperature",
                Kind::Num,
            ),
        ],
    );
    n += compare(&fixture("libscsicmd_write_errors.hex")[0], COUNTERS);
    n += compare(&fixture("libscsicmd_temperature.hex")[0], TEMPERATURE);
    assert_eq!(n, 13);
}

/// Writes `mib` MiB from LBA 4096 on with WRITE(16) and reads it back with READ(16) (LBA 1234,
/// the injected medium error, is left alone so the background scan page lists it).
fn workload(t: &mut dyn Transport, mib: u64) {
    let per = (1u64 << 20) / 512;
    let buf = vec![0x5au8; 1 << 20];
    let mut rbuf = vec![0u8; 1 << 20];
    for i in 0..mib {
        let mut cdb = [0u8; 16];
        cdb[0] = 0x8a;
        cdb[2..10].copy_from_slice(&(4096 + i * per).to_be_bytes());
        cdb[10..14].copy_from_slice(&(per as u32).to_be_bytes());
        run_out(t, &cdb, &buf, DEFAULT_TIMEOUT).unwrap();
        cdb[0] = 0x88;
        run_query(t, &cdb, &mut rbuf, DEFAULT_TIMEOUT).unwrap();
    }
}

#[test]
fn virtual_drive_pages_agree_with_sg_logs() {
    if !sg_logs_available() {
        return;
    }
    let mut d =
        sgctl::sim::open("px02smf080?capacity_blocks=65536&serial=CMP1&medium_error=1234").unwrap();
    d.clock()
        .advance(std::time::Duration::from_secs(5 * 3600 + 7 * 60));
    workload(&mut d, 24);
    // A background extended self-test that hits the medium error, then a short one that passes.
    for code in [2u8, 1] {
        run_out(&mut d, &[0x1d, code << 5, 0, 0, 0, 0], &[], DEFAULT_TIMEOUT).unwrap();
        d.clock().advance(std::time::Duration::from_secs(600));
    }
    let all =
        sgctl::ops::health::read::read_all(&mut d, sgctl::scsi::log_sense::PageControl::Cumulative)
            .unwrap();
    assert!(all.errors.is_empty(), "{:?}", all.errors);
    let page = |c: u8| {
        all.pages
            .iter()
            .find(|p| p.page_code == c && p.subpage_code == 0)
            .unwrap()
            .to_bytes()
    };
    let mut counters = COUNTERS.to_vec();
    counters.push(ECC_FAST);
    let mut n = 0;
    for c in [0x02, 0x03, 0x05] {
        n += compare(&page(c), &counters);
    }
    n += compare(
        &page(0x06),
        &[(
            "non_medium_error_count",
            "Non-medium error count",
            Kind::Num,
        )],
    );
    n += compare(&page(0x0d), TEMPERATURE);
    n += compare(
        &page(0x0e),
        &[
            ("date_of_manufacture/year", "year", Kind::Num),
            (
                "specified_cycle_count_over_device_lifetime",
                "Specified cycle count over device lifetime",
                Kind::Num,
            ),
            (
                "accumulated_start_stop_cycles",
                "Accumulated start-stop cycles",
                Kind::Num,
            ),
        ],
    );
    n += compare(
        &page(0x11),
        &[(
            "percentage_used_endurance_indicator",
            "Percentage used endurance indicator",
            Kind::Num,
        )],
    );
    n += compare(
        &page(0x15),
        &[
            (
                "status/accumulated_power_on_minutes",
                "Accumulated power on minutes",
                Kind::Num,
            ),
            (
                "status/number_of_background_scans_performed",
                "Number of background scans performed",
                Kind::Num,
            ),
            (
                "medium_scan_entries/*/power_on_minutes",
                "Power on minutes when error detected",
                Kind::Num,
            ),
            (
                "medium_scan_entries/*/lba",
                "LBA (associated with medium error)",
                Kind::Num,
            ),
        ],
    );
    n += compare(
        &page(0x18),
        &[
            (
                "ports/*/relative_target_port",
                "relative target port id",
                Kind::Num,
            ),
            ("ports/*/generation_code", "generation code", Kind::Num),
            ("ports/*/phys/*/phy_identifier", "phy identifier", Kind::Num),
            (
                "ports/*/phys/*/negotiated_logical_link_rate_str",
                "negotiated logical link rate",
                Kind::Text,
            ),
            ("ports/*/phys/*/sas_address", "SAS address", Kind::Hex),
            (
                "ports/*/phys/*/attached_sas_address",
                "attached SAS address",
                Kind::Hex,
            ),
            (
                "ports/*/phys/*/attached_phy_identifier",
                "attached phy identifier",
                Kind::Num,
            ),
            (
                "ports/*/phys/*/invalid_dword_count",
                "Invalid DWORD count",
                Kind::Num,
            ),
            (
                "ports/*/phys/*/running_disparity_error_count",
                "Running disparity error count",
                Kind::Num,
            ),
            (
                "ports/*/phys/*/loss_of_dword_synchronization",
                "Loss of DWORD synchronization count",
                Kind::Num,
            ),
            (
                "ports/*/phys/*/phy_reset_problem",
                "Phy reset problem count",
                Kind::Num,
            ),
        ],
    );
    n += compare(
        &page(0x19),
        &[
            (
                "statistics/read_commands",
                "number of read commands",
                Kind::Num,
            ),
            (
                "statistics/write_commands",
                "number of write commands",
                Kind::Num,
            ),
            (
                "statistics/logical_blocks_received",
                "number of logical blocks received",
                Kind::Num,
            ),
            (
                "statistics/logical_blocks_transmitted",
                "number of logical blocks transmitted",
                Kind::Num,
            ),
            (
                "statistics/read_command_processing_intervals",
                "read command processing intervals",
                Kind::Num,
            ),
            (
                "statistics/write_command_processing_intervals",
                "write command processing intervals",
                Kind::Num,
            ),
            ("idle_time_intervals", "idle time intervals", Kind::Num),
            (
                "time_interval/exponent",
                "time interval negative exponent",
                Kind::Num,
            ),
            ("time_interval/integer", "time interval integer", Kind::Num),
        ],
    );
    n += compare(
        &page(0x2f),
        &[
            ("asc", "IE asc", Kind::Num),
            ("ascq", "ascq", Kind::Num),
            (
                "most_recent_temperature_c",
                "Current temperature",
                Kind::Num,
            ),
            (
                "vendor_trip_temperature_c",
                "Threshold temperature",
                Kind::Num,
            ),
        ],
    );
    n += compare(
        &page(0x10),
        &[
            ("entries/*/parameter_code", "Parameter code", Kind::Num),
            (
                "entries/*/power_on_hours",
                "accumulated power-on hours",
                Kind::Num,
            ),
            ("entries/*/self_test", "self-test code", Kind::Text),
            (
                "entries/*/first_failure_lba",
                "address of first error",
                Kind::Num,
            ),
        ],
    );
    // 3 counter pages x 7, 1, 2, 3, 1, 4, 2 ports x 10 + 2, 9, 4, 2 self-tests x 3 + 1 LBA.
    assert_eq!(n, 21 + 1 + 2 + 3 + 1 + 4 + 22 + 9 + 4 + 7);
    // The workload is visible in both decoders (not just zeros agreeing).
    let w = logpage::decode(&logpage::parse(&page(0x02)).unwrap());
    assert_eq!(w.decoded["bytes_processed"], 24u64 << 20);
}

#[test]
fn constructed_self_test_page_agrees_with_sg_logs() {
    if !sg_logs_available() {
        return;
    }
    // Assembled from the SPC-5 self-test results layout (protocols.md §E.3); sg_logs wants all 20.
    let mut body = Vec::new();
    let mut e1 = vec![(2 << 5) | 6, 2, 0x01, 0x00];
    e1.extend_from_slice(&0x1234u64.to_be_bytes());
    e1.extend_from_slice(&[0x03, 0x11, 0x00, 0]);
    let mut e2 = vec![5 << 5, 0, 0x00, 0xf0];
    e2.extend_from_slice(&[0xff; 8]);
    e2.extend_from_slice(&[0, 0, 0, 0]);
    for code in 1..=20u16 {
        body.extend_from_slice(&code.to_be_bytes());
        body.extend_from_slice(&[3, 16]);
        match code {
            1 => body.extend_from_slice(&e1),
            2 => body.extend_from_slice(&e2),
            _ => body.extend_from_slice(&[0; 16]),
        }
    }
    let mut page = vec![0x10, 0];
    page.extend_from_slice(&(body.len() as u16).to_be_bytes());
    page.extend(body);
    let n = compare(
        &page,
        &[
            ("entries/*/parameter_code", "Parameter code", Kind::Num),
            (
                "entries/*/power_on_hours",
                "accumulated power-on hours",
                Kind::Num,
            ),
            ("entries/*/self_test", "self-test code", Kind::Text),
            (
                "entries/*/first_failure_lba",
                "address of first error",
                Kind::Num,
            ),
        ],
    );
    assert_eq!(n, 7);
}
