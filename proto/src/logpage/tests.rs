//! Decoder tests. Real bytes come from fixtures/logpages (sources in each file's header);
//! vectors marked "constructed" are assembled by hand from the byte layouts in
//! docs/protocols.md §E.3 because no public raw dump of that page was found.

use super::*;
use crate::bytes::parse_inhex;

fn fixture(name: &str) -> Vec<Vec<u8>> {
    let path = format!("{}/../fixtures/logpages/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let bytes = parse_inhex(&text).unwrap();
    split_pages(&bytes)
        .into_iter()
        .map(<[u8]>::to_vec)
        .collect()
}

fn page(bytes: &[u8]) -> LogPage {
    parse(bytes).unwrap()
}

fn notes() -> Vec<String> {
    Vec::new()
}

#[test]
fn scsi_debug_pages_decode_like_sg_logs() {
    let pages = fixture("sdeb_aa.hex");
    assert_eq!(pages.len(), 5);

    let p0 = page(&pages[0]);
    let s = supported::decode(&p0, &mut notes());
    let codes: Vec<u8> = s.pages.iter().map(|p| p.page_code).collect();
    assert_eq!(codes, vec![0x00, 0x0d, 0x2f]);

    let pff = page(&pages[1]);
    assert!(pff.spf);
    assert_eq!(pff.subpage_code, 0xff);
    let s = supported::decode(&pff, &mut notes());
    let pairs: Vec<(u8, u8)> = s
        .pages
        .iter()
        .map(|p| (p.page_code, p.subpage_code))
        .collect();
    assert_eq!(
        pairs,
        vec![
            (0, 0),
            (0, 0xff),
            (0x0d, 0),
            (0x0d, 1),
            (0x0d, 0xff),
            (0x2f, 0),
            (0x2f, 0xff)
        ]
    );

    // sg_logs prints "Current temperature = 38 C", "Reference temperature = 65 C".
    let t = environment::temperature(&page(&pages[2]), &mut notes());
    assert_eq!(t.current_c, Some(38));
    assert_eq!(t.drive_trip_c, Some(65));

    let mut n = notes();
    let e = environment::env_reporting(&page(&pages[3]), &mut n);
    assert!(n.is_empty(), "{n:?}");
    assert_eq!(e.temperature.len(), 1);
    let t0 = &e.temperature[0];
    assert_eq!(t0.temperature_c, Some(40));
    assert_eq!(t0.lifetime_max_c, Some(72));
    assert_eq!(t0.lifetime_min_c, Some(-1));
    assert_eq!(t0.max_since_power_on_c, Some(45));
    assert_eq!(t0.min_since_power_on_c, Some(18));
    assert!(!t0.other_valid);
    assert_eq!(t0.max_other_c, None);
    assert_eq!(e.relative_humidity.len(), 1);
    assert_eq!(e.relative_humidity[0].relative_humidity, Some(55));
    assert_eq!(e.relative_humidity[0].lifetime_max, Some(72));

    let ie = environment::informational_exceptions(&page(&pages[4]), &mut notes());
    assert_eq!((ie.asc, ie.ascq), (Some(0), Some(0)));
    assert_eq!(ie.most_recent_temperature_c, Some(38));
    assert!(!ie.failure_predicted);
}

#[test]
fn real_drive_write_error_counters() {
    let pages = fixture("libscsicmd_write_errors.hex");
    let p = page(&pages[0]);
    assert!(p.problems.is_empty(), "{:?}", p.problems);
    let mut n = notes();
    let c = counters::error_counters(&p, &mut n);
    assert!(n.is_empty(), "{n:?}");
    assert_eq!(c.direction, "write");
    assert_eq!(c.errors_corrected_by_eccfast, None); // parameter 0000 absent on this drive
    assert_eq!(c.errors_corrected_by_eccdelayed, Some(0));
    assert_eq!(c.errors_corrected_by_rereads_rewrites, Some(0x102));
    assert_eq!(c.total_errors_corrected, Some(0x102));
    assert_eq!(c.correction_algorithm_invocations, Some(0x102));
    assert_eq!(c.bytes_processed, Some(0xe58e_6361_3a00)); // 8-byte counter
    assert_eq!(c.total_uncorrected_errors, Some(0));
}

#[test]
fn real_drive_temperature_with_vendor_params() {
    let pages = fixture("libscsicmd_temperature.hex");
    let p = page(&pages[0]);
    assert_eq!(p.params.len(), 16);
    let mut n = notes();
    let t = environment::temperature(&p, &mut n);
    assert_eq!(t.current_c, Some(21));
    assert_eq!(t.drive_trip_c, Some(68));
    assert_eq!(t.vendor_parameters.len(), 13);
    // Parameter 0002 is not defined by SPC-5: reported, not silently dropped.
    assert_eq!(n.len(), 1, "{n:?}");
    assert!(n[0].contains("0x0002"));
}

#[test]
fn real_vendor_page_is_listed_and_kept_raw() {
    let pages = fixture("sandisk_extreme_vendor_0x30.hex");
    let list = supported::decode(&page(&pages[0]), &mut notes());
    let codes: Vec<u8> = list.pages.iter().map(|p| p.page_code).collect();
    assert_eq!(codes, vec![0x00, 0x30, 0x31, 0x32]);
    let v = page(&pages[1]);
    assert_eq!(v.page_code, 0x30);
    assert!(v.ds);
    let d = decode(&v);
    assert!(d.vendor_specific);
    assert_eq!(d.name, "Vendor specific");
    assert!(d.decoded.is_null());
    assert_eq!(d.raw, pages[1]);
    let txt = text::render(&d, false);
    assert!(txt.contains("vendor specific page, shown in hex"), "{txt}");
    assert!(txt.contains("b0 00 00 a5"), "{txt}");
}

// ---- malformed pages ----

#[test]
fn overrunning_parameter_decodes_the_rest_and_says_what_failed() {
    // Real write-error page, last parameter's length byte raised from 4 to 9: it now overruns.
    let mut b = fixture("libscsicmd_write_errors.hex").remove(0);
    let last_len = b.len() - 5;
    assert_eq!(b[last_len], 4);
    b[last_len] = 9;
    let p = page(&b);
    assert_eq!(p.params.len(), 5);
    assert_eq!(p.problems.len(), 1);
    assert!(
        p.problems[0].contains("parameter 0x0006"),
        "{:?}",
        p.problems
    );
    assert!(
        p.problems[0].contains("overruns the page by 5"),
        "{:?}",
        p.problems
    );
    let c = counters::error_counters(&p, &mut notes());
    assert_eq!(c.bytes_processed, Some(0xe58e_6361_3a00));
    assert_eq!(c.total_uncorrected_errors, None);
}

#[test]
fn page_length_longer_than_data() {
    let mut b = fixture("sdeb_aa.hex").remove(2); // temperature, 16 bytes
    b.truncate(14); // cut inside parameter 0001
    let p = page(&b);
    assert_eq!(p.params.len(), 1);
    assert_eq!(p.problems.len(), 2, "{:?}", p.problems);
    assert!(p.problems[0].contains("page length 12 but only 10 bytes"));
    assert!(p.problems[1].contains("parameter 0x0001"));
    let t = environment::temperature(&p, &mut notes());
    assert_eq!(t.current_c, Some(38));
    assert_eq!(t.drive_trip_c, None);
}

#[test]
fn empty_and_tiny_pages() {
    let p = page(&[0x0d, 0, 0, 0]);
    assert!(p.params.is_empty() && p.problems.is_empty());
    let d = decode(&p);
    assert_eq!(d.decoded["current_c"], serde_json::Value::Null);
    assert!(parse(&[0x0d, 0, 0]).is_err());
    assert!(parse(&[]).is_err());
    // Two stray bytes after the header.
    let p = page(&[0x2f, 0, 0, 2, 0, 0]);
    assert!(p.problems[0].contains("too short for a parameter header"));
}

#[test]
fn unknown_parameter_codes_are_reported() {
    // Constructed: 0x1A page with a defined 0001 and an undefined 0x0042.
    let b = [
        0x1a, 0, 0, 16, 0, 1, 3, 4, 0, 0, 0, 7, 0, 0x42, 3, 4, 0, 0, 0, 9,
    ];
    let p = page(&b);
    let mut n = notes();
    let t = counters::power_transitions(&p, &mut n);
    assert_eq!(t.transitions_to_active, Some(7));
    assert_eq!(n.len(), 1);
    assert!(n[0].contains("0x0042"));
    let d = decode(&p);
    assert_eq!(d.parameters.len(), 2);
    assert_eq!(d.problems.len(), 1);
}

#[test]
fn parameter_flags() {
    let b = [0x02, 0, 0, 6, 0, 1, 0b1011_0110, 2, 0x01, 0x02];
    let p = page(&b);
    let prm = &p.params[0];
    assert!(prm.du() && prm.tsd() && prm.etc());
    assert_eq!(prm.tmc(), 1);
    assert_eq!(prm.format_linking(), FormatLinking::DataCounter);
    assert_eq!(prm.uint(), Some(0x0102));
}

// ---- constructed vectors (layouts from protocols.md §E.3) ----

fn param(code: u16, control: u8, value: &[u8]) -> Vec<u8> {
    let mut v = code.to_be_bytes().to_vec();
    v.push(control);
    v.push(value.len() as u8);
    v.extend_from_slice(value);
    v
}

fn page_bytes(code: u8, sub: u8, params: &[Vec<u8>]) -> Vec<u8> {
    let body: Vec<u8> = params.concat();
    let mut v = vec![code | if sub != 0 { 0x40 } else { 0 }, sub];
    v.extend_from_slice(&(body.len() as u16).to_be_bytes());
    v.extend(body);
    v
}

#[test]
fn solid_state_media_every_parameter() {
    // Constructed. 0001 percentage used = 6 (the PX03SNF040 value in protocols.md [PB]),
    // plus a vendor parameter that must be listed, not dropped.
    let b = page_bytes(
        0x11,
        0,
        &[param(1, 3, &[0, 0, 0, 6]), param(0x8001, 3, &[0, 0, 1, 0])],
    );
    let s = counters::solid_state_media(&page(&b), &mut notes());
    assert_eq!(s.percentage_used_endurance_indicator, Some(6));
    assert_eq!(s.other_parameters.len(), 1);
    assert_eq!(s.other_parameters[0].parameter_code, 0x8001);
    assert_eq!(s.other_parameters[0].value, Some(256));
}

#[test]
fn self_test_results() {
    // Constructed: entry 1 = background extended, failed segment 2 at LBA 0x1234 with 3/11/00;
    // entry 2 = foreground short ok; entry 3 empty.
    let mut e1 = vec![(2 << 5) | 6, 2, 0x01, 0x00];
    e1.extend_from_slice(&0x1234u64.to_be_bytes());
    e1.extend_from_slice(&[0x03, 0x11, 0x00, 0]);
    let mut e2 = vec![5 << 5, 0, 0x00, 0xf0];
    e2.extend_from_slice(&[0xff; 8]);
    e2.extend_from_slice(&[0, 0, 0, 0]);
    let b = page_bytes(
        0x10,
        0,
        &[param(1, 3, &e1), param(2, 3, &e2), param(3, 3, &[0; 16])],
    );
    let r = selftest::self_test_results(&page(&b), &mut notes());
    assert_eq!(r.entries.len(), 2);
    assert_eq!(r.failed_entries, 1);
    let a = &r.entries[0];
    assert_eq!(a.self_test, "background extended");
    assert!(a.failed);
    assert_eq!(a.power_on_hours, Some(256));
    assert_eq!(a.first_failure_lba, Some(0x1234));
    assert_eq!((a.sense_key, a.asc, a.ascq), (3, 0x11, 0));
    assert_eq!(r.entries[1].first_failure_lba, None);
    assert_eq!(r.entries[1].power_on_hours, Some(240));
}

#[test]
fn background_scan_and_pending_defects() {
    // Constructed.
    let status = [0, 0, 0x0e, 0x10, 0, 8, 0, 3, 0x80, 0, 0, 1];
    let mut entry = vec![0, 0, 1, 0, 0x13, 0x11, 0x00, 0, 0, 0, 0, 0];
    entry.extend_from_slice(&77u64.to_be_bytes());
    let b = page_bytes(0x15, 0, &[param(0, 3, &status), param(1, 3, &entry)]);
    let s = selftest::background_scan(&page(&b), &mut notes());
    let st = s.status.unwrap();
    assert_eq!(st.accumulated_power_on_minutes, Some(0x0e10));
    assert_eq!(st.status_code, Some(8));
    assert_eq!(st.number_of_background_scans_performed, Some(3));
    assert_eq!(st.scan_progress_percent, Some(50.0));
    assert_eq!(s.medium_scan_entries[0].reassign_status, 1);
    assert_eq!(s.medium_scan_entries[0].sense_key, 3);
    assert_eq!(s.medium_scan_entries[0].lba, Some(77));

    let mut d = vec![0, 0, 0, 5];
    d.extend_from_slice(&99u64.to_be_bytes());
    let b = page_bytes(0x15, 1, &[param(0, 3, &[0, 0, 0, 1]), param(1, 3, &d)]);
    let p = selftest::pending_defects(&page(&b), &mut notes());
    assert_eq!(p.pending_defect_count, Some(1));
    assert_eq!(p.defects[0].power_on_hours, Some(5));
    assert_eq!(p.defects[0].lba, Some(99));
}

fn phy_descriptor(id: u8, rate: u8, sas: u64, counters: [u32; 4], events: &[(u8, u32)]) -> Vec<u8> {
    let mut d = vec![0, id, 0, 0, 0x10, rate, 0x08, 0x00];
    d.extend_from_slice(&sas.to_be_bytes());
    d.extend_from_slice(&0x5000_c500_0000_0001u64.to_be_bytes());
    d.extend_from_slice(&[id, 0, 0, 0, 0, 0, 0, 0]);
    for c in counters {
        d.extend_from_slice(&c.to_be_bytes());
    }
    d.extend_from_slice(&[0, 0, 12, events.len() as u8]);
    for (src, v) in events {
        d.extend_from_slice(&[0, 0, 0, *src]);
        d.extend_from_slice(&v.to_be_bytes());
        d.extend_from_slice(&0u32.to_be_bytes());
    }
    d[3] = (d.len() - 4) as u8;
    d
}

#[test]
fn sas_port_page_both_ports_every_counter() {
    // Constructed: port A 12G with errors and one phy event, port B link down (rate 1).
    let pa = phy_descriptor(0, 0xb, 0x5000_c500_1234_5671, [1, 2, 3, 4], &[(0x01, 1)]);
    let pb = phy_descriptor(1, 0x1, 0x5000_c500_1234_5672, [0, 0, 0, 0], &[]);
    let mk = |d: &[u8]| {
        let mut v = vec![0x06, 0, 1, 1];
        v.extend_from_slice(d);
        v
    };
    let b = page_bytes(0x18, 0, &[param(1, 3, &mk(&pa)), param(2, 3, &mk(&pb))]);
    let mut n = notes();
    let s = sas::protocol_port(&page(&b), &mut n);
    assert!(n.is_empty(), "{n:?}");
    assert_eq!(s.ports.len(), 2);
    let a = &s.ports[0].phys[0];
    assert_eq!(s.ports[0].relative_target_port, 1);
    assert_eq!(a.negotiated_logical_link_rate_str, "12 Gbps");
    assert_eq!(a.sas_address, "5000c50012345671");
    assert_eq!(a.attached_sas_address, "5000c50000000001");
    assert!(a.attached_ssp_initiator && !a.attached_ssp_target);
    assert_eq!(a.attached_device_type, 1);
    assert_eq!(
        (
            a.invalid_dword_count,
            a.running_disparity_error_count,
            a.loss_of_dword_synchronization,
            a.phy_reset_problem
        ),
        (Some(1), Some(2), Some(3), Some(4))
    );
    assert_eq!(a.phy_events[0].name, "invalid word count");
    let bp = &s.ports[1].phys[0];
    assert_eq!(bp.negotiated_logical_link_rate_str, "phy disabled");
    assert_eq!(bp.phy_identifier, 1);
}

#[test]
fn sas1_descriptor_without_length() {
    // SAS-1 drives put 0 in the descriptor length: the descriptor is 48 bytes, no phy events.
    let mut d = phy_descriptor(3, 0x9, 0x5000_c500_0000_0009, [5, 6, 7, 8], &[]);
    d.truncate(48);
    d[3] = 0;
    let mut v = vec![0x06, 0, 1, 2];
    v.extend_from_slice(&d);
    v.extend_from_slice(&d);
    let b = page_bytes(0x18, 0, &[param(1, 3, &v)]);
    let mut n = notes();
    let s = sas::protocol_port(&page(&b), &mut n);
    assert!(n.is_empty(), "{n:?}");
    assert_eq!(s.ports[0].phys.len(), 2);
    assert_eq!(s.ports[0].phys[1].phy_reset_problem, Some(8));
    assert_eq!(
        s.ports[0].phys[1].negotiated_logical_link_rate_str,
        "3 Gbps"
    );
}

#[test]
fn sas_port_truncated_descriptor() {
    let pa = phy_descriptor(0, 0xb, 1, [9, 9, 9, 9], &[]);
    let mut v = vec![0x06, 0, 1, 2]; // claims two phys, has one (cut short)
    v.extend_from_slice(&pa[..40]);
    let b = page_bytes(0x18, 0, &[param(1, 3, &v)]);
    let mut n = notes();
    let s = sas::protocol_port(&page(&b), &mut n);
    assert_eq!(s.ports[0].phys.len(), 1);
    assert_eq!(s.ports[0].phys[0].invalid_dword_count, Some(9));
    assert_eq!(s.ports[0].phys[0].phy_reset_problem, None);
    assert!(n.len() >= 2, "{n:?}");
}

#[test]
fn general_statistics_and_subpages() {
    let mut v = Vec::new();
    for i in 1..=8u64 {
        v.extend_from_slice(&i.to_be_bytes());
    }
    let b = page_bytes(
        0x19,
        0,
        &[
            param(1, 2, &v),
            param(2, 2, &42u64.to_be_bytes()),
            param(3, 3, &[0, 0, 0, 3, 0, 0, 0, 5]),
        ],
    );
    let g = stats::general_statistics(&page(&b), &mut notes());
    let s = g.statistics.unwrap();
    assert_eq!(s.read_commands, Some(1));
    assert_eq!(s.logical_blocks_received, Some(3));
    assert_eq!(s.weighted_read_write_processing, Some(8));
    assert_eq!(g.idle_time_intervals, Some(42));
    let ti = g.time_interval.unwrap();
    assert!((ti.seconds.unwrap() - 0.005).abs() < 1e-12);

    let b = page_bytes(0x19, 0x05, &[param(1, 2, &v)]);
    let gs = stats::group_statistics(&page(&b), &mut notes());
    assert_eq!(gs.group, 5);
    assert_eq!(gs.write_fua_commands, Some(8));
    assert_eq!(gs.read_fua_nv_commands, None); // parameter too short for it

    let b = page_bytes(0x19, 0x20, &[param(1, 2, &[0, 0, 0, 9])]);
    let c = stats::cache_statistics(&page(&b), &mut notes());
    assert_eq!(c.read_cache_memory_hits, Some(9));
}

#[test]
fn start_stop_utilization_limits_format_nonmedium() {
    let b = page_bytes(
        0x0e,
        0,
        &[
            param(1, 1, b"201727"),
            param(3, 3, &10000u32.to_be_bytes()),
            param(4, 3, &56u32.to_be_bytes()),
            param(5, 3, &300000u32.to_be_bytes()),
            param(6, 3, &3067u32.to_be_bytes()),
        ],
    );
    let s = environment::start_stop(&page(&b), &mut notes());
    let d = s.date_of_manufacture.unwrap();
    assert_eq!(
        (d.year.as_deref(), d.week.as_deref()),
        (Some("2017"), Some("27"))
    );
    assert_eq!(s.accumulated_start_stop_cycles, Some(56));
    assert_eq!(s.accumulated_load_unload_cycles, Some(3067));

    let b = page_bytes(0x0e, 1, &[param(0, 3, &[0x13, 0x88]), param(1, 3, &[42])]);
    let u = environment::utilization(&page(&b), &mut notes());
    assert_eq!(u.workload_utilization_hundredths_percent, Some(5000));
    assert_eq!(u.utilization_usage_rate_percent, Some(42));

    let b = page_bytes(0x0d, 2, &[param(0, 3, &[70, 65, 0x80, 0x80, 60, 55, 5, 0])]);
    let l = environment::env_limits(&page(&b), &mut notes());
    assert_eq!(l.temperature[0].high_critical_trigger_c, Some(70));
    assert_eq!(l.temperature[0].low_critical_trigger_c, None);
    assert_eq!(l.temperature[0].high_operating_trigger_c, Some(60));

    let b = page_bytes(
        0x08,
        0,
        &[
            param(0, 3, &[0xff; 4]),
            param(3, 3, &[0, 0, 0, 2]),
            param(4, 3, &[0xff; 4]),
        ],
    );
    let f = counters::format_status(&page(&b), &mut notes());
    assert_eq!(f.format_data_out, None);
    assert_eq!(f.total_new_blocks_reassigned, Some(2));
    assert_eq!(f.power_on_minutes_since_format, None);

    let b = page_bytes(0x06, 0, &[param(0, 2, &[0, 0, 0x1e, 0x44])]);
    let m = counters::non_medium(&page(&b), &mut notes());
    assert_eq!(m.non_medium_error_count, Some(7748));
}

#[test]
fn informational_exception_failure_predicted() {
    let b = page_bytes(0x2f, 0, &[param(0, 3, &[0x5d, 0x10, 40, 65])]);
    let ie = environment::informational_exceptions(&page(&b), &mut notes());
    assert!(ie.failure_predicted);
    assert_eq!(ie.vendor_trip_temperature_c, Some(65));
    let b = page_bytes(0x2f, 0, &[param(0, 3, &[0x0b, 0x01, 71])]);
    let ie = environment::informational_exceptions(&page(&b), &mut notes());
    assert!(!ie.failure_predicted);
    assert_eq!(ie.asc, Some(0x0b));
}

#[test]
fn text_rendering_uses_decoded_fields() {
    let pages = fixture("sdeb_aa.hex");
    let d = decode(&page(&pages[2]));
    let t = text::render(&d, false);
    assert!(t.starts_with("Temperature log page [0x0d,0x00]"), "{t}");
    assert!(t.contains("Current: 38 C"), "{t}");
    assert!(t.contains("Drive trip: 65 C"), "{t}");
}

proptest::proptest! {
    #[test]
    fn never_panics_on_random_pages(code in 0u8..0x40, sub in proptest::prelude::any::<u8>(),
                                    body in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300),
                                    len_delta in -8i32..8) {
        let mut b = vec![code | if sub != 0 { 0x40 } else { 0 }, sub];
        let len = (body.len() as i32 + len_delta).clamp(0, 0xffff) as u16;
        b.extend_from_slice(&len.to_be_bytes());
        b.extend(body);
        let p = parse(&b).unwrap();
        let d = decode(&p);
        let _ = text::render(&d, false);
    }
}
