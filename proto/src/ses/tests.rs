//! SES pages built by hand from the SES-4 tables (each test names its clause), the Areca
//! enclosure's published pages (fixtures/commands/sg3_utils_inhex/ses_areca_all.hex), and
//! truncated/corrupted pages that must decode with problems, never panic.

use super::*;

/// A page: code, byte 1, then the body; PAGE LENGTH filled in (SPC-6 7.3.1 header).
fn page(code: u8, byte1: u8, body: &[u8]) -> Vec<u8> {
    let mut p = vec![code, byte1];
    p.extend_from_slice(&(body.len() as u16).to_be_bytes());
    p.extend_from_slice(body);
    p
}

/// SES-4 7.2.2 Configuration page: one primary enclosure descriptor (table "Enclosure
/// descriptor", 40 bytes + 4 vendor specific), four type descriptor headers (table "Type
/// descriptor header"): 4 Array Device Slots, 1 Power Supply, 1 Cooling, 1 Temperature
/// Sensor; then their texts. Generation code 0x12345678.
fn config_page() -> Vec<u8> {
    let mut b = vec![0x12, 0x34, 0x56, 0x78]; // GENERATION CODE
                                              // Enclosure descriptor: RELATIVE ES PROCESS ID 1, NUMBER OF ES PROCESSES 2; SUBENCLOSURE
                                              // ID 0; 4 type headers; ENCLOSURE DESCRIPTOR LENGTH 40 (44 - 4).
    b.extend_from_slice(&[0x12, 0x00, 4, 40]);
    b.extend_from_slice(&[0x50, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x01]); // logical id
    b.extend_from_slice(b"ACME    "); // vendor
    b.extend_from_slice(b"JBOD-4          "); // product
    b.extend_from_slice(b"0102"); // revision
    b.extend_from_slice(&[0xde, 0xad, 0xbe, 0xef]); // vendor specific
                                                    // Type descriptor headers: type, possible elements, subenclosure id, text length.
    b.extend_from_slice(&[0x17, 4, 0, 5]);
    b.extend_from_slice(&[0x02, 1, 0, 3]);
    b.extend_from_slice(&[0x03, 1, 0, 0]);
    b.extend_from_slice(&[0x04, 1, 0, 4]);
    b.extend_from_slice(b"Slots");
    b.extend_from_slice(b"PSU");
    b.extend_from_slice(b"Temp");
    page(0x01, 0, &b)
}

/// SES-4 7.2.4 Enclosure Status page for [`config_page`]: byte 1 CRIT; 4 overall + 7 elements.
fn status_page(generation: u32) -> Vec<u8> {
    let mut b = generation.to_be_bytes().to_vec();
    b.extend_from_slice(&[0, 0, 0, 0]); // overall array device slot
                                        // 7.3.3 Array Device Slot status elements:
    b.extend_from_slice(&[0x01, 0x80, 0x00, 0x00]); // OK, byte 1 OK
    b.extend_from_slice(&[0x01, 0x00, 0x02, 0x00]); // IDENT
    b.extend_from_slice(&[0x42, 0x00, 0x00, 0x60]); // PRDFAIL, Critical, FAULT SENSED+REQSTD
    b.extend_from_slice(&[0x05, 0x00, 0x48, 0x10]); // Not installed, DO NOT REMOVE, READY TO INSERT, DEVICE OFF
    b.extend_from_slice(&[0, 0, 0, 0]); // overall power supply
                                        // 7.3.4 Power Supply: DC OVER-VOLTAGE, RQSTED ON, AC FAIL
    b.extend_from_slice(&[0x03, 0x80, 0x08, 0x22]);
    b.extend_from_slice(&[0, 0, 0, 0]); // overall cooling
                                        // 7.3.5 Cooling: ACTUAL FAN SPEED 0x1f4 (5000 rpm), RQSTED ON, speed code 4
    b.extend_from_slice(&[0x01, 0x01, 0xf4, 0x24]);
    b.extend_from_slice(&[0, 0, 0, 0]); // overall temperature
                                        // 7.3.6 Temperature Sensor: TEMPERATURE 0x3c (40 C), OT WARNING
    b.extend_from_slice(&[0x03, 0x00, 0x3c, 0x04]);
    page(0x02, 0x02, &b)
}

fn config() -> Config {
    let d = decode_config(&config_page()).unwrap();
    assert!(d.problems.is_empty(), "{:?}", d.problems);
    d.page
}

#[test]
fn configuration_page_fields() {
    let c = config();
    assert_eq!(c.generation_code, 0x12345678);
    assert_eq!(c.secondary_subenclosures, 0);
    let e = &c.enclosures[0];
    assert_eq!((e.relative_es_process_id, e.es_processes), (1, 2));
    assert_eq!(e.logical_identifier, "500a0b0c0d0e0f01");
    assert_eq!(
        (e.vendor.as_str(), e.product.as_str(), e.revision.as_str()),
        ("ACME", "JBOD-4", "0102")
    );
    assert_eq!(e.vendor_specific, "deadbeef");
    let t: Vec<_> = c
        .types
        .iter()
        .map(|t| {
            (
                t.element_type,
                t.possible_elements,
                t.text.as_str(),
                t.first_element_index,
            )
        })
        .collect();
    assert_eq!(
        t,
        [
            (0x17, 4, "Slots", 0),
            (0x02, 1, "PSU", 4),
            (0x03, 1, "", 5),
            (0x04, 1, "Temp", 6)
        ]
    );
    assert_eq!(c.types[0].type_name, "Array device slot");
    assert_eq!(c.locate(5), Some((2, 0)));
    assert_eq!(c.locate(7), None);
    assert_eq!(c.slots_with_overall(), 11);
}

#[test]
fn configuration_with_a_secondary_subenclosure() {
    // SES-4 7.2.2: NUMBER OF SECONDARY SUBENCLOSURES 1 -> two enclosure descriptors, then the
    // headers of both (1 + 1), then the texts.
    let mut b = vec![0, 0, 0, 7];
    for (id, n) in [(0u8, 1u8), (1, 1)] {
        b.extend_from_slice(&[0x11, id, n, 36]);
        b.extend_from_slice(&[0x50, 0, 0, 0, 0, 0, 0, id]);
        b.extend_from_slice(b"V       P               R   ");
    }
    b.extend_from_slice(&[0x17, 2, 0, 0, 0x0e, 1, 1, 2]);
    b.extend_from_slice(b"E1");
    let d = decode_config(&page(0x01, 1, &b)).unwrap();
    assert!(d.problems.is_empty(), "{:?}", d.problems);
    assert_eq!(d.page.enclosures.len(), 2);
    assert_eq!(d.page.enclosures[1].subenclosure_id, 1);
    assert_eq!(d.page.enclosures[1].logical_identifier, "5000000000000001");
    assert_eq!(d.page.types[1].subenclosure_id, 1);
    assert_eq!(d.page.types[1].text, "E1");
    assert_eq!(d.page.types[1].first_element_index, 2);
}

#[test]
fn status_elements_decode_per_type() {
    let c = config();
    let d = decode_status(&c, &status_page(0x12345678)).unwrap();
    assert!(d.problems.is_empty(), "{:?}", d.problems);
    let s = &d.page;
    assert!(s.crit && !s.invop && !s.info && !s.non_crit && !s.unrecov);
    assert_eq!(s.types.len(), 4);
    let slot = |i: u32| match &s.element(i).unwrap().1.detail {
        Detail::Slot(x) => x.clone(),
        other => panic!("{other:?}"),
    };
    assert!(slot(0).array.unwrap().ok);
    assert!(slot(1).ident && !slot(1).fault_sensed);
    let (_, e2) = s.element(2).unwrap();
    assert!(e2.prdfail && e2.status == "Critical");
    assert!(slot(2).fault_sensed && slot(2).fault_requested && !slot(2).ident);
    let s3 = slot(3);
    assert!(s3.do_not_remove && s3.ready_to_insert && s3.device_off && !s3.rmv);
    assert_eq!(s.element(3).unwrap().1.status, "Not installed");
    match &s.element(4).unwrap().1.detail {
        Detail::PowerSupply(p) => {
            assert!(p.ident && p.dc_overvoltage && p.requested_on && p.ac_fail && !p.dc_fail)
        }
        o => panic!("{o:?}"),
    }
    match &s.element(5).unwrap().1.detail {
        Detail::Cooling(f) => {
            assert_eq!((f.actual_speed_rpm, f.speed_code), (5000, 4));
            assert!(f.requested_on && !f.off);
        }
        o => panic!("{o:?}"),
    }
    match &s.element(6).unwrap().1.detail {
        Detail::Temperature(t) => {
            assert_eq!(t.celsius, Some(40));
            assert!(t.ot_warning && !t.ot_failure);
        }
        o => panic!("{o:?}"),
    }
}

#[test]
fn common_status_byte_positions() {
    // SES-4 7.3.1 "Status element format": byte 0 bit 7 reserved, bit 6 PRDFAIL, bit 5
    // DISABLED, bit 4 SWAP, bits 3-0 ELEMENT STATUS CODE.
    let e = |b0| status::decode_element(element_type::COOLING, [b0, 0, 0, 0], None);
    let f = |x: Element| (x.prdfail, x.disabled, x.swap, x.status_code);
    assert_eq!(f(e(0x41)), (true, false, false, 1));
    assert_eq!(f(e(0x22)), (false, true, false, 2));
    assert_eq!(f(e(0x13)), (false, false, true, 3));
    assert_eq!(f(e(0x80)), (false, false, false, 0));
    assert_eq!(e(0x08).status, "No access allowed");
    assert_eq!(e(0x0f).status, "reserved");
}

#[test]
fn device_slot_status_has_a_slot_address() {
    // SES-4 7.3.2 Device Slot status element: byte 1 SLOT ADDRESS.
    let e = status::decode_element(element_type::DEVICE_SLOT, [0x01, 0x07, 0x02, 0x20], Some(0));
    match e.detail {
        Detail::Slot(s) => {
            assert_eq!((s.slot_address, s.array), (Some(7), None));
            assert!(s.ident && s.fault_requested);
        }
        o => panic!("{o:?}"),
    }
    // SES-4 7.3.16 Enclosure: TIME UNTIL POWER CYCLE 3, FAILURE INDICATION; REQUESTED
    // POWER OFF DURATION 5, WARNING REQUESTED.
    match status::decode_element(element_type::ENCLOSURE, [1, 0x80, 0x0e, 0x15], None).detail {
        Detail::Enclosure(e) => {
            assert!(e.ident && e.failure_indication && !e.warning_indication);
            assert_eq!(
                (e.time_until_power_cycle, e.requested_power_off_duration),
                (3, 5)
            );
            assert!(e.warning_requested && !e.failure_requested);
        }
        o => panic!("{o:?}"),
    }
}

#[test]
fn status_problems_stale_generation_and_short_page() {
    let c = config();
    let d = decode_status(&c, &status_page(0x99)).unwrap();
    assert!(
        d.problems[0].contains("generation code 0x99"),
        "{:?}",
        d.problems
    );
    let mut p = status_page(0x12345678);
    p.truncate(8 + 4 * 6);
    let d = decode_status(&c, &p).unwrap();
    assert!(d.problems.iter().any(|p| p.contains("truncated")));
    assert!(d
        .problems
        .iter()
        .any(|p| p.contains("before the configuration's 11")));
    assert_eq!(d.page.types.len(), 2);
    assert_eq!(d.page.types[1].elements.len(), 0);
    assert!(
        decode_status(&c, &config_page()).is_err(),
        "wrong page code"
    );
}

/// SES-4 7.2.10 Element Descriptor page for [`config_page`]: texts for 4 overall + 7 elements.
fn element_desc_page() -> Vec<u8> {
    let mut b = 0x12345678u32.to_be_bytes().to_vec();
    for t in [
        "Slots", "SLOT 00", "SLOT 01", "SLOT 02", "SLOT 03", "", "PSU A", "", "FAN 1", "",
        "Ambient",
    ] {
        b.extend_from_slice(&[0, 0]);
        b.extend_from_slice(&(t.len() as u16).to_be_bytes());
        b.extend_from_slice(t.as_bytes());
    }
    page(0x07, 0, &b)
}

#[test]
fn element_descriptor_texts() {
    let c = config();
    let d = decode_element_desc(&c, &element_desc_page()).unwrap();
    assert!(d.problems.is_empty(), "{:?}", d.problems);
    assert_eq!(d.page.types[0].overall.as_deref(), Some("Slots"));
    assert_eq!(d.page.text(2), Some("SLOT 02"));
    assert_eq!(d.page.text(4), Some("PSU A"));
    assert_eq!(d.page.text(6), Some("Ambient"));
    // A descriptor length that overruns: the ones before it are kept.
    let mut p = element_desc_page();
    let at = 8 + 9 + 11; // third descriptor ("SLOT 01") length field
    p[at + 2] = 0x40;
    let d = decode_element_desc(&c, &p).unwrap();
    assert_eq!(d.page.text(0), Some("SLOT 00"));
    assert_eq!(d.page.text(1), None);
    assert!(d.problems[0].contains("overruns"), "{:?}", d.problems);
}

/// SES-4 7.6 SAS phy descriptor (28 bytes): end device, SSP target, both addresses.
fn phy(attached: u64, sas: u64, phy_id: u8) -> Vec<u8> {
    let mut v = vec![0x10, 0, 0, 0x08];
    v.extend_from_slice(&attached.to_be_bytes());
    v.extend_from_slice(&sas.to_be_bytes());
    v.push(phy_id);
    v.extend_from_slice(&[0; 7]);
    v
}

/// SES-4 7.2.13 Additional Element Status descriptor, EIP=1, SAS, descriptor type 00b.
fn slot_desc_eip(index: u8, slot_number: u8, phys: &[Vec<u8>]) -> Vec<u8> {
    let mut psi = vec![phys.len() as u8, 0x00, 0, slot_number];
    for p in phys {
        psi.extend_from_slice(p);
    }
    let mut d = vec![0x16, (psi.len() + 2) as u8, 0x00, index];
    d.extend_from_slice(&psi);
    d
}

#[test]
fn additional_element_status_eip_both_ways() {
    let c = config();
    // EIP=1: slot 1 holds a dual-ported drive (two phy descriptors, one per port: SAS
    // addresses ...01 and ...02, each attached to another expander).
    let mut b = 0x12345678u32.to_be_bytes().to_vec();
    b.extend(slot_desc_eip(
        1,
        11,
        &[
            phy(0x5000_0000_0000_aa00, 0x5000_c500_1234_5601, 0),
            phy(0x5000_0000_0000_bb00, 0x5000_c500_1234_5602, 0),
        ],
    ));
    let d = decode_addl_status(&c, &page(0x0a, 0, &b)).unwrap();
    assert!(d.problems.is_empty(), "{:?}", d.problems);
    let x = d.page.for_element(1).unwrap();
    assert_eq!(
        (x.eip, x.eiioe, x.element_type),
        (true, Some(0), Some(0x17))
    );
    match x.sas.as_ref().unwrap() {
        SasInfo::Slot {
            device_slot_number,
            phys,
            ..
        } => {
            assert_eq!(*device_slot_number, Some(11));
            assert_eq!(phys.len(), 2);
            assert_eq!(phys[0].sas_address, "0x5000c50012345601");
            assert_eq!(phys[1].attached_sas_address, "0x500000000000bb00");
            assert!(phys[0].ssp_target && phys[0].device_type == 1);
            assert_eq!(phys[0].device_type_name, "end device");
        }
        o => panic!("{o:?}"),
    }
    // EIP=0: no element index and no device slot number; the descriptors are the slots'
    // in order (SES-4 7.2.13), phy descriptors from byte 2 of the SAS information.
    let mut b = 0x12345678u32.to_be_bytes().to_vec();
    for n in 0..2u64 {
        let mut psi = vec![1, 0x00];
        psi.extend(phy(
            0x5000_0000_0000_aa00,
            0x5000_c500_0000_0010 + n,
            n as u8,
        ));
        b.extend_from_slice(&[0x06, psi.len() as u8]);
        b.extend(psi);
    }
    let d = decode_addl_status(&c, &page(0x0a, 0, &b)).unwrap();
    assert!(d.problems.is_empty(), "{:?}", d.problems);
    assert_eq!(d.page.descriptors.len(), 2);
    let x = d.page.for_element(1).unwrap();
    assert!(!x.eip);
    match x.sas.as_ref().unwrap() {
        SasInfo::Slot {
            device_slot_number,
            phys,
            ..
        } => {
            assert_eq!(*device_slot_number, None);
            assert_eq!(phys[0].sas_address, "0x5000c50000000011");
            assert_eq!(phys[0].phy_identifier, 1);
        }
        o => panic!("{o:?}"),
    }
}

#[test]
fn eiioe_counts_overall_elements() {
    let c = config();
    // EIIOE=1: index 3 counts the overall element of the first type: it is element 2.
    let mut d = slot_desc_eip(3, 2, &[phy(1, 2, 0)]);
    d[2] = 0x01;
    let mut b = 0x12345678u32.to_be_bytes().to_vec();
    b.extend(d);
    let p = decode_addl_status(&c, &page(0x0a, 0, &b)).unwrap();
    assert!(p.problems.is_empty(), "{:?}", p.problems);
    assert_eq!(p.page.descriptors[0].element_index, Some(2));
    assert_eq!(p.page.descriptors[0].element_index_field, Some(3));
    // Index 0 with EIIOE=1 is the overall element: a problem, no element.
    let mut d = slot_desc_eip(0, 2, &[phy(1, 2, 0)]);
    d[2] = 0x01;
    let mut b = 0x12345678u32.to_be_bytes().to_vec();
    b.extend(d);
    let p = decode_addl_status(&c, &page(0x0a, 0, &b)).unwrap();
    assert_eq!(p.page.descriptors[0].element_index, None);
    assert!(
        p.problems[0].contains("names no element"),
        "{:?}",
        p.problems
    );
}

#[test]
fn additional_element_status_problems() {
    let c = config();
    // More phy descriptors announced than the descriptor holds; a descriptor naming a power
    // supply (no additional status); a last descriptor that overruns the page.
    let mut d = slot_desc_eip(0, 0, &[phy(1, 2, 0)]);
    d[4] = 3;
    let mut b = 0x12345678u32.to_be_bytes().to_vec();
    b.extend(d);
    b.extend(slot_desc_eip(4, 0, &[]));
    b.extend_from_slice(&[0x16, 0x40, 0, 1]);
    let p = decode_addl_status(&c, &page(0x0a, 0, &b)).unwrap();
    assert_eq!(p.page.descriptors.len(), 2);
    let all = p.problems.join("\n");
    assert!(
        all.contains("3 phy descriptors announced, room for 1"),
        "{all}"
    );
    // The power supply named by the second descriptor cannot have one; its position (the
    // second slot) can: taken as slot 1.
    assert!(all.contains("ELEMENT INDEX 4 names an element"), "{all}");
    assert_eq!(p.page.descriptors[1].element_index, Some(1));
    assert!(all.contains("overruns the page"), "{all}");
}

#[test]
fn expander_descriptor() {
    // SES-4 7.6, descriptor type 01b on a SAS Expander element: SAS ADDRESS at bytes 4-11,
    // 2-byte expander phy descriptors after it.
    let mut b = vec![0, 0, 0, 1];
    b.extend_from_slice(&[0x11, 0, 1, 36]);
    b.extend_from_slice(&[0x50, 0, 0, 0, 0, 0, 0, 1]);
    b.extend_from_slice(b"V       P               R   ");
    b.extend_from_slice(&[0x18, 1, 0, 0]);
    let c = decode_config(&page(1, 0, &b)).unwrap().page;
    let mut d = vec![0x16, 0, 0, 0, 3, 0x40, 0, 0];
    d.extend_from_slice(&0x5001_b4d5_16ec_c03fu64.to_be_bytes());
    d.extend_from_slice(&[0xff, 0x0d, 0x02, 0xff, 0xff, 0xff]);
    d[1] = (d.len() - 2) as u8;
    let mut b = vec![0, 0, 0, 1];
    b.extend(d);
    let p = decode_addl_status(&c, &page(0x0a, 0, &b)).unwrap();
    assert!(p.problems.is_empty(), "{:?}", p.problems);
    match p.page.descriptors[0].sas.as_ref().unwrap() {
        SasInfo::Expander {
            sas_address, phys, ..
        } => {
            assert_eq!(sas_address, "0x5001b4d516ecc03f");
            assert_eq!(phys.len(), 3);
            assert_eq!(phys[0].other_element_index, 0x0d);
            assert_eq!(phys[1].connector_element_index, 2);
        }
        o => panic!("{o:?}"),
    }
}

#[test]
fn control_page_sets_ident_and_fault() {
    let c = config();
    let st = status_page(0x12345678);
    // Slot 1 (IDENT on in status): fault on, ident left as it is.
    let p = control_page_set_leds(
        &c,
        &st,
        1,
        LedRequest {
            ident: None,
            fault: Some(true),
        },
    )
    .unwrap();
    assert_eq!(p.len(), 8 + 4 * 11);
    assert_eq!(&p[..8], &[0x02, 0, 0, 48, 0x12, 0x34, 0x56, 0x78]);
    // Control element of slot 1 is the third element (overall, slot 0, slot 1): SELECT,
    // byte 2 RQST IDENT kept, byte 3 RQST FAULT set.
    assert_eq!(&p[16..20], &[0x80, 0x00, 0x02, 0x20]);
    assert!(p[8..16].iter().chain(&p[20..]).all(|&b| b == 0));
    // Slot 2 (PRDFAIL, Critical, FAULT SENSED + REQSTD): fault off, ident on. PRDFAIL, the
    // status code and FAULT SENSED (status-only bits) are not sent back.
    let p = control_page_set_leds(
        &c,
        &st,
        2,
        LedRequest {
            ident: Some(true),
            fault: Some(false),
        },
    )
    .unwrap();
    assert_eq!(&p[20..24], &[0x80, 0x00, 0x02, 0x00]);
    // Slot 3: DO NOT REMOVE, byte 2 bit 3 (READY TO INSERT in status, RQST INSERT in
    // control) and DEVICE OFF are kept.
    let p = control_page_set_leds(&c, &st, 3, LedRequest::default()).unwrap();
    assert_eq!(&p[24..28], &[0x80, 0x00, 0x48, 0x10]);
    // Array device slot byte 1 (RQST OK...) is kept: slot 0.
    let p = control_page_set_leds(&c, &st, 0, LedRequest::default()).unwrap();
    assert_eq!(&p[12..16], &[0x80, 0x80, 0x00, 0x00]);
}

#[test]
fn control_page_refusals() {
    let c = config();
    let st = status_page(0x12345678);
    let on = LedRequest {
        ident: Some(true),
        fault: None,
    };
    let e = control_page_set_leds(&c, &st, 4, on).unwrap_err();
    assert!(
        e.reason.contains("Power supply element, not a device slot"),
        "{e}"
    );
    assert!(control_page_set_leds(&c, &st, 7, on).is_err());
    let e = control_page_set_leds(&c, &status_page(1), 0, on).unwrap_err();
    assert!(e.reason.contains("generation code"), "{e}");
    let mut short = st.clone();
    short.truncate(20);
    assert!(control_page_set_leds(&c, &short, 0, on).is_err());
}

#[test]
fn supported_pages_and_split() {
    let mut all = page(0x00, 0, &[0x00, 0x01, 0x02, 0x07, 0x0a]);
    all.extend(config_page());
    all.extend(status_page(0x12345678));
    let pages = split_pages(&all);
    assert_eq!(
        pages.iter().map(|p| p.0).collect::<Vec<_>>(),
        [0x00, 0x01, 0x02]
    );
    let s = decode_supported(pages[0].1).unwrap();
    assert_eq!(s.page.pages, [0, 1, 2, 7, 0x0a]);
    assert_eq!(s.page.names[4], "Additional Element Status (SES-2)");
    // A last page cut short is returned as far as it goes.
    assert_eq!(split_pages(&all[..all.len() - 3]).len(), 3);
    assert!(split_pages(&[1, 0, 0]).is_empty());
}

fn areca() -> Vec<(u8, Vec<u8>)> {
    let text = include_str!("../../../fixtures/commands/sg3_utils_inhex/ses_areca_all.hex");
    let bytes = crate::bytes::parse_inhex(text).unwrap();
    split_pages(&bytes)
        .into_iter()
        .map(|(c, p)| (c, p.to_vec()))
        .collect()
}

#[test]
fn areca_enclosure_pages() {
    // Values as `sg_ses --inhex=ses_areca_all.hex --page=...` prints them (sg3-utils 1.46).
    let pages = areca();
    let get = |c: u8| &pages.iter().find(|p| p.0 == c).unwrap().1;
    let c = decode_config(get(1)).unwrap();
    assert!(c.problems.is_empty(), "{:?}", c.problems);
    let c = c.page;
    let e = c.primary().unwrap();
    assert_eq!(e.logical_identifier, "d5b401503fc0ec16");
    assert_eq!(
        (e.vendor.as_str(), e.product.as_str()),
        ("Areca", "ARC-802801.33.63")
    );
    assert_eq!(e.revision, "0133");
    assert_eq!(c.types.len(), 9);
    assert_eq!(c.types[0].text, "ArrayDevicesInSubEnclsr0");
    assert_eq!(c.element_count(), 41);
    let s = decode_status(&c, get(2)).unwrap();
    assert!(s.problems.is_empty(), "{:?}", s.problems);
    assert!(s.page.crit);
    assert_eq!(s.page.element(0).unwrap().1.status, "Not installed");
    match &s.page.element(30).unwrap().1.detail {
        Detail::Cooling(f) => assert_eq!((f.actual_speed_rpm, f.speed_code), (7500, 7)),
        o => panic!("{o:?}"),
    }
    match &s.page.element(31).unwrap().1.detail {
        Detail::Temperature(t) => assert_eq!(t.celsius, Some(49)),
        o => panic!("{o:?}"),
    }
    let d = decode_element_desc(&c, get(7)).unwrap();
    assert!(d.problems.is_empty(), "{:?}", d.problems);
    assert_eq!(d.page.text(0), Some("SLOT 01"));
    assert_eq!(d.page.text(23), Some("SLOT 24"));
    let a = decode_addl_status(&c, get(0x0a)).unwrap();
    // The expander's descriptor says element index 0 (an array device slot); it is the 25th
    // descriptor and has the expander's layout: element 25, as sg_ses shows it.
    assert_eq!(a.problems.len(), 1, "{:?}", a.problems);
    assert!(a.problems[0].contains("ELEMENT INDEX 0 names an element"));
    assert_eq!(a.page.descriptors.len(), 25);
    match a.page.for_element(12).unwrap().sas.as_ref().unwrap() {
        SasInfo::Slot {
            device_slot_number,
            phys,
            ..
        } => {
            assert_eq!(*device_slot_number, Some(12));
            assert_eq!(phys[0].attached_sas_address, "0x5001b4d516ecc03f");
            assert_eq!(phys[0].sas_address, "0x5001517e85c3efff");
            assert_eq!(phys[0].phy_identifier, 0x14);
        }
        o => panic!("{o:?}"),
    }
    match a.page.for_element(25).unwrap().sas.as_ref().unwrap() {
        SasInfo::Expander {
            sas_address, phys, ..
        } => {
            assert_eq!(sas_address, "0x5001b4d516ecc03f");
            assert_eq!(phys.len(), 36);
            assert_eq!(phys[16].connector_element_index, 2);
        }
        o => panic!("{o:?}"),
    }
    // A control page for slot 5 from the real status page.
    let p = control_page_set_leds(
        &c,
        get(2),
        5,
        LedRequest {
            ident: Some(true),
            fault: None,
        },
    )
    .unwrap();
    assert_eq!(p.len(), get(2).len());
    assert_eq!(&p[8 + 4 * 6..8 + 4 * 7], &[0x80, 0, 0x02, 0]);
}

/// Every prefix and many single-byte corruptions of every page: decoders return, never panic.
#[test]
fn truncated_and_corrupted_pages_never_panic() {
    let pages = areca();
    let c = decode_config(&pages[1].1).unwrap().page;
    let mine = [config_page(), status_page(0x12345678), element_desc_page()];
    let all: Vec<Vec<u8>> = pages.iter().map(|p| p.1.clone()).chain(mine).collect();
    let run = |b: &[u8]| {
        let _ = decode_supported(b);
        if let Ok(d) = decode_config(b) {
            let _ = d.page.slots_with_overall();
        }
        for cfg in [&c, &config()] {
            let _ = decode_status(cfg, b);
            let _ = decode_element_desc(cfg, b);
            let _ = decode_addl_status(cfg, b);
            let _ = control_page_set_leds(cfg, b, 1, LedRequest::default());
        }
    };
    for p in &all {
        for n in 0..=p.len() {
            run(&p[..n]);
        }
        for i in 0..p.len() {
            for v in [0x00, 0xff, 0x80, 0x7f] {
                let mut q = p.clone();
                q[i] = v;
                run(&q);
            }
        }
    }
}
