//! Health tests with a table-driven fake drive. Page bytes are the real fixtures where they
//! exist (scsi_debug 0x00/0x0D/0x2F, a real drive's 0x02) and constructed ones (docs/protocols.md
//! §E.3 layouts) for 0x11/0x15.

use super::*;
use crate::sense::{build_fixed, SenseKey};
use crate::transport::{Completion, DataBuf};
use std::collections::BTreeMap;

#[derive(Clone)]
pub(crate) struct FakeDrive {
    pub pages: BTreeMap<(u8, u8), Vec<u8>>,
    pub hang: bool,
}

impl FakeDrive {
    pub(super) fn answer(&self, cdb: &[u8]) -> std::result::Result<Vec<u8>, Vec<u8>> {
        let illegal = || build_fixed(SenseKey::IllegalRequest, 0x24, 0);
        match cdb[0] {
            0x12 if cdb[1] & 1 == 0 => {
                let mut d = vec![0u8; 36];
                d[2] = 6;
                d[4] = 31;
                d[8..16].copy_from_slice(b"TOSHIBA ");
                d[16..32].copy_from_slice(b"PX03SNF040      ");
                d[32..36].copy_from_slice(b"NA02");
                Ok(d)
            }
            0x12 if cdb[2] == 0x00 => Ok(vec![0, 0x00, 0, 2, 0x00, 0x80]),
            0x12 if cdb[2] == 0x80 => Ok(b"\x00\x80\x00\x08SER12345".to_vec()),
            0x9e => {
                let mut d = vec![0u8; 32];
                d[0..8].copy_from_slice(&((400_000_000_000u64 / 512) - 1).to_be_bytes());
                d[8..12].copy_from_slice(&512u32.to_be_bytes());
                Ok(d)
            }
            0x37 => Ok(vec![0, 0x0c, 0, 16]), // GLISTV, format 4, 16 bytes = 2 defects
            0x4d => {
                let pg = cdb[2] & 0x3f;
                let sub = cdb[3];
                if pg == 0 && sub == 0 {
                    let mut v = vec![0, 0, 0, 0];
                    let codes: std::collections::BTreeSet<u8> =
                        self.pages.keys().map(|k| k.0).collect();
                    v.push(0);
                    v.extend(codes);
                    v[3] = (v.len() - 4) as u8;
                    return Ok(v);
                }
                if pg == 0 && sub == 0xff {
                    let mut v = vec![0x40, 0xff, 0, 0, 0, 0, 0, 0xff];
                    for k in self.pages.keys() {
                        v.push(k.0);
                        v.push(k.1);
                    }
                    v[3] = (v.len() - 4) as u8;
                    return Ok(v);
                }
                self.pages.get(&(pg, sub)).cloned().ok_or_else(illegal)
            }
            _ => Err(build_fixed(SenseKey::IllegalRequest, 0x20, 0)),
        }
    }
}

impl Transport for FakeDrive {
    fn execute(&mut self, cdb: &[u8], data: DataBuf<'_>, _t: Duration) -> Result<Completion> {
        if self.hang {
            std::thread::sleep(Duration::from_secs(3600));
        }
        match self.answer(cdb) {
            Ok(d) => {
                let DataBuf::In(buf) = data else {
                    return Ok(Completion::good());
                };
                let n = d.len().min(buf.len());
                buf[..n].copy_from_slice(&d[..n]);
                Ok(Completion {
                    resid: buf.len() - n,
                    ..Completion::good()
                })
            }
            Err(sense) => Ok(Completion::check_condition(sense)),
        }
    }
    fn address(&self) -> String {
        "fake".into()
    }
}

fn fixture(name: &str) -> Vec<Vec<u8>> {
    let path = format!("{}/fixtures/logpages/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    let b = crate::bytes::parse_inhex(&text).unwrap();
    logpage::split_pages(&b)
        .into_iter()
        .map(<[u8]>::to_vec)
        .collect()
}

fn param(code: u16, value: &[u8]) -> Vec<u8> {
    let mut v = code.to_be_bytes().to_vec();
    v.extend_from_slice(&[3, value.len() as u8]);
    v.extend_from_slice(value);
    v
}

fn page(code: u8, params: &[Vec<u8>]) -> Vec<u8> {
    let body = params.concat();
    let mut v = vec![code, 0];
    v.extend_from_slice(&(body.len() as u16).to_be_bytes());
    v.extend(body);
    v
}

/// A drive: scsi_debug temperature/IE pages, a real write-error page, SSM `used`%,
/// background scan with `minutes` power-on minutes.
pub(crate) fn drive(used: u8, minutes: u32) -> FakeDrive {
    let sdeb = fixture("sdeb_aa.hex");
    let mut pages = BTreeMap::new();
    pages.insert((0x0d, 0), sdeb[2].clone());
    pages.insert((0x2f, 0), sdeb[4].clone());
    pages.insert((0x02, 0), fixture("libscsicmd_write_errors.hex").remove(0));
    pages.insert((0x11, 0), page(0x11, &[param(1, &[0, 0, 0, used])]));
    let mut st = minutes.to_be_bytes().to_vec();
    st.extend_from_slice(&[0, 8, 0, 1, 0, 0, 0, 1]);
    pages.insert((0x15, 0), page(0x15, &[param(0, &st)]));
    FakeDrive { pages, hang: false }
}

fn now() -> SystemTime {
    // 2026-01-01T00:00:00Z
    UNIX_EPOCH + Duration::from_secs(1_767_225_600)
}

#[test]
fn collect_and_project() {
    let mut d = drive(6, 10_000 * 60);
    let mut h = collect(&mut d, "fake0", now());
    assert!(h.read_errors.is_empty(), "{:?}", h.read_errors);
    assert_eq!(h.model.as_deref(), Some("PX03SNF040"));
    assert_eq!(h.serial.as_deref(), Some("SER12345"));
    assert_eq!(h.endurance.used_percent, Some(6));
    assert_eq!(h.endurance.power_on_hours, Some(10_000.0));
    assert_eq!(h.endurance.capacity_bytes, Some(400_000_000_000));
    assert_eq!(h.endurance.bytes_written, Some(0xe58e_6361_3a00));
    // 94% left at 6% per 10000 h -> 156666.7 h -> 6527.8 days.
    let days = h.endurance.remaining_days.unwrap();
    assert!((days - 94.0 * 10_000.0 / 6.0 / 24.0).abs() < 1e-6, "{days}");
    assert_eq!(
        h.endurance.projected_wear_out_date.as_deref(),
        Some("2043-11-15")
    );
    let dwpd = h.endurance.drive_writes_per_day.unwrap();
    let expect = 0xe58e_6361_3a00u64 as f64 / 400e9 / (10_000.0 / 24.0);
    assert!((dwpd - expect).abs() < 1e-9);
    assert_eq!(h.temperature.current_c, Some(38));
    assert_eq!(h.temperature.drive_trip_c, Some(65));
    assert_eq!(h.defects.grown, Some(2));
    assert_eq!(h.errors.write_uncorrected, Some(0));
    assert_eq!(h.errors.read_uncorrected, None);
    assert_eq!(h.informational_exception.as_ref().unwrap().asc, 0);
    assess(&mut h, &[]);
    assert_eq!(h.state, State::Ok, "{:?}", h.reasons);
    assert_eq!(h.exit_bits, 0);
}

#[test]
fn more_wear_moves_the_projection() {
    let mut a = collect(&mut drive(6, 10_000 * 60), "a", now());
    let mut b = collect(&mut drive(12, 11_000 * 60), "b", now());
    assess(&mut a, &[]);
    assess(&mut b, &[]);
    assert!(b.endurance.remaining_days.unwrap() < a.endurance.remaining_days.unwrap());
    let zero = collect(&mut drive(0, 60), "z", now());
    assert_eq!(zero.endurance.remaining_days, None);
    assert!(zero
        .endurance
        .projection_note
        .unwrap()
        .contains("no measurable wear"));
}

#[test]
fn rule_breach_sets_bit4() {
    let rules = vec![
        rules::parse_flag(Bound::Max, "endurance_used=5").unwrap(),
        rules::parse_flag(Bound::Min, "remaining_days=365").unwrap(),
        rules::parse_flag(Bound::Max, "pending_defects=0").unwrap(),
    ];
    let mut h = collect(&mut drive(6, 600_000), "x", now());
    assess(&mut h, &rules);
    assert_eq!(h.exit_bits, bits::RULE_BREACHED);
    assert_eq!(h.state, State::Warning);
    assert!(h.rules[0].breached && !h.rules[1].breached);
    assert_eq!(h.rules[2].value, None); // drive has no 0x15/0x01: not evaluated
    assert!(!h.rules[2].breached);
    let mut h = collect(&mut drive(5, 600_000), "x", now());
    assess(&mut h, &rules);
    assert_eq!(h.exit_bits, 0);
    // assess is idempotent: judging the same report again with other rules starts afresh.
    assess(&mut h, &rules[..1]);
    assess(&mut h, &[]);
    assert_eq!((h.exit_bits, h.state, h.reasons.len()), (0, State::Ok, 0));
}

#[test]
fn informational_exception_5d_is_failing() {
    let mut d = drive(6, 600_000);
    d.pages
        .insert((0x2f, 0), page(0x2f, &[param(0, &[0x5d, 0x10, 30])]));
    let mut h = collect(&mut d, "x", now());
    assess(&mut h, &[]);
    assert_eq!(h.state, State::Failing);
    assert_eq!(h.exit_bits & bits::FAILING, bits::FAILING);
    assert!(
        h.reasons.iter().any(|r| r.contains("5D/10")),
        "{:?}",
        h.reasons
    );
    // 5D/FF (mode page 0x1C TEST) is reported as failing too.
    d.pages
        .insert((0x2f, 0), page(0x2f, &[param(0, &[0x5d, 0xff, 30])]));
    let mut h = collect(&mut d, "x", now());
    assess(&mut h, &[]);
    assert_eq!(h.state, State::Failing);
}

#[test]
fn hot_drive_and_self_test_and_errors() {
    let mut d = drive(6, 600_000);
    d.pages.insert(
        (0x0d, 0),
        page(0x0d, &[param(0, &[0, 66]), param(1, &[0, 65])]),
    );
    let mut e1 = vec![(1 << 5) | 5, 1, 0, 10];
    e1.extend_from_slice(&7u64.to_be_bytes());
    e1.extend_from_slice(&[3, 0x11, 0, 0]);
    d.pages.insert((0x10, 0), page(0x10, &[param(1, &e1)]));
    let mut rd = fixture("libscsicmd_write_errors.hex").remove(0);
    rd[0] = 0x03;
    let n = rd.len();
    rd[n - 1] = 4; // 4 uncorrected read errors
    d.pages.insert((0x03, 0), rd);
    let mut h = collect(&mut d, "x", now());
    assess(&mut h, &[]);
    assert_eq!(h.state, State::Failing);
    assert_eq!(
        h.exit_bits,
        bits::FAILING | bits::SELF_TEST_ERRORS | bits::ERROR_COUNTERS
    );
    assert_eq!(h.errors.read_uncorrected, Some(4));
    assert_eq!(
        h.self_test.last.as_ref().unwrap().first_failure_lba,
        Some(7)
    );
}

#[test]
fn unreadable_page_sets_bit2_and_parallel_timeout() {
    // Drive lists 0x18 but rejects it.
    let mut d = drive(6, 600_000);
    d.pages.insert((0x18, 0), vec![0x2f, 0, 0, 0]); // wrong page code answered
    let mut h = collect(&mut d, "x", now());
    assess(&mut h, &[]);
    assert_eq!(h.exit_bits, bits::COMMAND_FAILED);
    assert!(h.read_errors[0].contains("0x18"), "{:?}", h.read_errors);

    let good = drive(6, 600_000);
    let opener: Opener = Arc::new(move |a: &str| -> Result<Box<dyn Transport>> {
        match a {
            "hung" => Ok(Box::new(FakeDrive {
                hang: true,
                ..good.clone()
            })),
            "missing" => Err(Error::NotScsi {
                path: a.into(),
                reason: "no such device".into(),
            }),
            _ => Ok(Box::new(good.clone())),
        }
    });
    let devs: Vec<String> = ["ok1", "hung", "missing", "ok2"].map(String::from).to_vec();
    let t0 = Instant::now();
    let rows = check_many(&devs, &[], Duration::from_millis(1500), opener);
    assert!(t0.elapsed() < Duration::from_secs(10));
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0].state, State::Ok);
    assert_eq!(rows[3].state, State::Ok);
    assert_eq!(rows[1].state, State::Unreadable);
    assert!(rows[1].reasons[0].contains("timed out"));
    assert_eq!(rows[1].exit_bits, bits::COMMAND_FAILED);
    assert_eq!(rows[2].exit_bits, bits::OPEN_FAILED);
}

#[test]
fn prometheus_output() {
    let mut h = collect(&mut drive(6, 600_000), "/dev/sg1", now());
    assess(&mut h, &[]);
    let text = prom::render(&[h]);
    let labels = "device=\"/dev/sg1\",serial=\"SER12345\",model=\"PX03SNF040\"";
    assert!(
        text.contains(&format!("sgctl_endurance_used_percent{{{labels}}} 6\n")),
        "{text}"
    );
    assert!(text.contains(&format!("sgctl_temperature_celsius{{{labels}}} 38\n")));
    assert!(text.contains("# TYPE sgctl_bytes_written_total counter\n"));
    assert!(text.contains(&format!(
        "sgctl_uncorrected_errors_total{{{labels},direction=\"write\"}} 0\n"
    )));
    assert!(!text.contains("sgctl_sas_phy_invalid_dwords_total")); // no 0x18 on this drive
                                                                   // Every non-comment line is `name{labels} number`.
    for l in text.lines().filter(|l| !l.starts_with('#')) {
        let (_, v) = l.rsplit_once(' ').unwrap();
        v.parse::<f64>().unwrap();
    }
}

#[test]
fn dates() {
    assert_eq!(date_after(UNIX_EPOCH, 0.0), "1970-01-01");
    assert_eq!(date_after(now(), 59.0), "2026-03-01");
    assert_eq!(date_after(now(), 365.0 * 4.0 + 1.0), "2030-01-01");
}

#[test]
fn all_disks_from_sysfs() {
    let d = tempfile::tempdir().unwrap();
    for (sg, ty) in [("sg0", "0"), ("sg1", "13"), ("sg10", "0"), ("sg2", "0")] {
        let p = d.path().join(format!("sys/class/scsi_generic/{sg}/device"));
        std::fs::create_dir_all(&p).unwrap();
        std::fs::write(p.join("type"), format!("{ty}\n")).unwrap();
    }
    assert_eq!(
        all_disks(d.path()).unwrap(),
        vec!["/dev/sg0", "/dev/sg2", "/dev/sg10"]
    );
    assert_eq!(
        all_disks(&d.path().join("nope")).unwrap(),
        Vec::<String>::new()
    );
}

/// Drives in an enclosure (the built ses-jbod tree) carry enclosure and slot as labels; a
/// drive in none, and a virtual drive, carry neither.
#[test]
fn enclosure_and_slot_labels() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sysfs/ses-jbod");
    let mut drives = vec![
        DriveHealth::unreadable("/dev/sg6", bits::OPEN_FAILED, "gone".into()),
        DriveHealth::unreadable("/dev/sdc", bits::OPEN_FAILED, "gone".into()),
        DriveHealth::unreadable("/dev/sg0", bits::OPEN_FAILED, "gone".into()),
        DriveHealth::unreadable("sim:px02smf080", bits::OPEN_FAILED, "gone".into()),
    ];
    super::label_slots(&mut drives, &root);
    assert_eq!(drives[0].enclosure.as_deref(), Some("0x500605b0000272bf"));
    assert_eq!(drives[0].slot, Some(1));
    assert_eq!(drives[1].slot, Some(3));
    assert_eq!((drives[2].enclosure.as_ref(), drives[2].slot), (None, None));
    assert_eq!((drives[3].enclosure.as_ref(), drives[3].slot), (None, None));
    let text = prom::render(&drives);
    assert!(
        text.contains(
            "sgctl_health_read_ok{device=\"/dev/sg6\",serial=\"\",model=\"\",\
             enclosure=\"0x500605b0000272bf\",slot=\"1\"} 0\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("sgctl_health_read_ok{device=\"/dev/sg0\",serial=\"\",model=\"\"} 0\n"),
        "{text}"
    );
    let v = serde_json::to_value(&drives[1]).unwrap();
    assert_eq!(v["slot"], 3);
    assert!(serde_json::to_value(&drives[2])
        .unwrap()
        .get("slot")
        .is_none());
}
