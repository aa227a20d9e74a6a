//! The virtual enclosure (`sim:enclosure`, sim/src/sim/enclosure.rs) through the library: its
//! SES pages decoded with `sgctl::ses`, slots tied to the virtual drives' SAS addresses, the
//! locate and fault indicators set with an Enclosure Control page and seen in the next status
//! page, refused control pages, persistence with `state=`.

use sgctl::scsi::diagnostic;
use sgctl::ses::{self, Detail, LedRequest, SasInfo};
use sgctl::transport::{check, DataBuf, Transport};
use std::time::Duration;

const T: Duration = Duration::from_secs(5);

fn open(addr: &str) -> Box<dyn Transport> {
    sgctl::device::open(addr, sgctl::device::OpenOptions::default())
        .map(|o| o.transport)
        .unwrap_or_else(|e| panic!("{addr}: {e}"))
}

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

fn send(t: &mut dyn Transport, p: &[u8]) -> sgctl::Result<()> {
    let c = t.execute(
        &sgctl::scsi::send_diagnostic::SendDiagnosticCdb::new()
            .pf(true)
            .parameter_list_length(p.len() as u16)
            .build(),
        DataBuf::Out(p),
        T,
    )?;
    check(&c)
}

fn status(t: &mut dyn Transport, c: &ses::Config) -> ses::Status {
    let d = ses::decode_status(c, &page(t, 2)).unwrap();
    assert!(d.problems.is_empty(), "{:?}", d.problems);
    d.page
}

fn slot(s: &ses::Status, i: u32) -> ses::Slot {
    match &s.element(i).unwrap().1.detail {
        Detail::Slot(x) => x.clone(),
        o => panic!("{o:?}"),
    }
}

#[test]
fn enclosure_pages_describe_twelve_slots_of_virtual_drives() {
    let mut t = open("sim:enclosure?slots=12&empty=7");
    let sup = ses::decode_supported(&page(&mut *t, 0)).unwrap();
    assert_eq!(sup.page.pages, [0, 1, 2, 7, 0x0a]);
    let c = ses::decode_config(&page(&mut *t, 1)).unwrap();
    assert!(c.problems.is_empty(), "{:?}", c.problems);
    let c = c.page;
    assert_eq!(c.types[0].element_type, 0x17);
    assert_eq!(c.types[0].possible_elements, 12);
    let e = c.primary().unwrap();
    assert_eq!(
        (e.vendor.as_str(), e.product.as_str()),
        ("SGCTL", "VIRTUAL JBOD 12")
    );
    assert!(
        e.logical_identifier.starts_with("5acde48"),
        "{}",
        e.logical_identifier
    );
    let s = status(&mut *t, &c);
    assert_eq!(s.element(0).unwrap().1.status, "OK");
    assert_eq!(s.element(7).unwrap().1.status, "Not installed");
    let d = ses::decode_element_desc(&c, &page(&mut *t, 7)).unwrap();
    assert!(d.problems.is_empty(), "{:?}", d.problems);
    assert_eq!(d.page.text(3), Some("SLOT 03"));
    let a = ses::decode_addl_status(&c, &page(&mut *t, 0x0a)).unwrap();
    assert!(a.problems.is_empty(), "{:?}", a.problems);
    assert_eq!(a.page.descriptors.len(), 14);
    // Slot 3 holds the virtual drive with serial E1S03: both its ports' SAS addresses are in
    // the slot's phy descriptors, and the drive opened on its own reports each in VPD 0x83.
    let SasInfo::Slot {
        device_slot_number,
        phys,
        ..
    } = a.page.for_element(3).unwrap().sas.clone().unwrap()
    else {
        panic!("not a slot descriptor")
    };
    assert_eq!(device_slot_number, Some(3));
    assert_eq!(phys.len(), 2);
    for (port, ph) in phys.iter().enumerate() {
        let mut drive = open(&format!("sim:px02smf080?serial=E1S03&port={}", port + 1));
        let mut vpd = vec![0u8; 512];
        let cdb = sgctl::scsi::inquiry::InquiryCdb::new(512)
            .evpd(true)
            .page_code(0x83)
            .build();
        let cmp = drive.execute(&cdb, DataBuf::In(&mut vpd), T).unwrap();
        check(&cmp).unwrap();
        let addr = u64::from_str_radix(ph.sas_address.trim_start_matches("0x"), 16).unwrap();
        assert!(
            vpd.windows(8).any(|w| w == addr.to_be_bytes()),
            "port {}: {} not in the drive's VPD 0x83",
            port + 1,
            ph.sas_address
        );
        assert!(ph.ssp_target && ph.device_type == 1);
    }
    assert_ne!(phys[0].attached_sas_address, phys[1].attached_sas_address);
    // The empty slot has no device.
    let SasInfo::Slot { phys, .. } = a.page.for_element(7).unwrap().sas.clone().unwrap() else {
        panic!()
    };
    assert_eq!(phys[0].device_type, 0);
    // The expanders (element indexes 18 and 19) list a phy per slot.
    match a.page.for_element(18).unwrap().sas.as_ref().unwrap() {
        SasInfo::Expander { phys, .. } => assert_eq!(phys.len(), 12),
        o => panic!("{o:?}"),
    }
}

#[test]
fn control_page_turns_locate_and_fault_on_and_off() {
    let mut t = open("sim:enclosure?slots=8");
    let c = ses::decode_config(&page(&mut *t, 1)).unwrap().page;
    let on = |ident, fault| LedRequest { ident, fault };
    let p = ses::control_page_set_leds(&c, &page(&mut *t, 2), 3, on(Some(true), None)).unwrap();
    send(&mut *t, &p).unwrap();
    let p = ses::control_page_set_leds(&c, &page(&mut *t, 2), 5, on(None, Some(true))).unwrap();
    send(&mut *t, &p).unwrap();
    let s = status(&mut *t, &c);
    assert!(slot(&s, 3).ident && !slot(&s, 3).fault_requested);
    assert!(slot(&s, 5).fault_requested && !slot(&s, 5).ident);
    for i in [0, 1, 2, 4, 6, 7] {
        assert!(
            !slot(&s, i).ident && !slot(&s, i).fault_requested,
            "slot {i}"
        );
    }
    assert!(s.non_crit, "a fault LED raises NON-CRIT");
    // Locate on slot 5 keeps its fault LED (read-modify-write); then both off.
    let p = ses::control_page_set_leds(&c, &page(&mut *t, 2), 5, on(Some(true), None)).unwrap();
    send(&mut *t, &p).unwrap();
    let s = status(&mut *t, &c);
    assert!(slot(&s, 5).ident && slot(&s, 5).fault_requested);
    assert!(slot(&s, 3).ident, "slot 3 untouched");
    let p =
        ses::control_page_set_leds(&c, &page(&mut *t, 2), 5, on(Some(false), Some(false))).unwrap();
    send(&mut *t, &p).unwrap();
    let s = status(&mut *t, &c);
    assert!(!slot(&s, 5).ident && !slot(&s, 5).fault_requested);
    assert!(slot(&s, 3).ident);
    assert!(!s.non_crit);
}

#[test]
fn refused_control_pages_change_nothing() {
    let mut t = open("sim:enclosure?slots=4");
    let c = ses::decode_config(&page(&mut *t, 1)).unwrap().page;
    let req = LedRequest {
        ident: Some(true),
        fault: None,
    };
    let mut p = ses::control_page_set_leds(&c, &page(&mut *t, 2), 1, req).unwrap();
    // A stale expected generation code: ILLEGAL REQUEST 35/04.
    p[7] ^= 0xff;
    match send(&mut *t, &p) {
        Err(sgctl::Error::Sense(s)) => assert_eq!((s.asc, s.ascq), (0x35, 0x04)),
        o => panic!("{o:?}"),
    }
    p[7] ^= 0xff;
    // A page shorter than the configuration's: 26/00, and INVOP in the next status page.
    match send(&mut *t, &p[..p.len() - 4]) {
        Err(sgctl::Error::Sense(s)) => assert_eq!((s.asc, s.ascq), (0x26, 0x00)),
        o => panic!("{o:?}"),
    }
    let s = status(&mut *t, &c);
    assert!(s.invop);
    assert!(!slot(&s, 1).ident);
    // The valid page is then applied and clears INVOP.
    send(&mut *t, &p).unwrap();
    let s = status(&mut *t, &c);
    assert!(slot(&s, 1).ident && !s.invop);
}

#[test]
fn indicators_persist_with_state() {
    let dir = tempfile::tempdir().unwrap();
    let addr = format!(
        "sim:enclosure?slots=6&state={}",
        dir.path().join("encl.json").display()
    );
    let mut t = open(&addr);
    let c = ses::decode_config(&page(&mut *t, 1)).unwrap().page;
    let req = LedRequest {
        ident: None,
        fault: Some(true),
    };
    let p = ses::control_page_set_leds(&c, &page(&mut *t, 2), 2, req).unwrap();
    send(&mut *t, &p).unwrap();
    drop(t);
    let mut t = open(&addr);
    assert!(slot(&status(&mut *t, &c), 2).fault_requested);
    // Another slot count over the same state file is refused.
    let other = addr.replace("slots=6", "slots=5");
    assert!(
        sgctl::device::open(&other, sgctl::device::OpenOptions::default())
            .map(|o| o.transport)
            .is_err()
    );
}

#[test]
fn bad_enclosure_addresses() {
    for a in [
        "sim:enclosure?slots=0",
        "sim:enclosure?slots=65",
        "sim:enclosure?empty=12",
        "sim:enclosure?drive=nope",
        "sim:enclosure?colour=red",
    ] {
        match sgctl::device::open(a, sgctl::device::OpenOptions::default()).map(|o| o.transport) {
            Err(sgctl::Error::BadAddress { .. }) => {}
            Err(e) => panic!("{a}: {e}"),
            Ok(_) => panic!("{a} opened"),
        }
    }
}

/// `serials=`: slots 0 and 1 hold the drives with those serials (their SAS addresses in the
/// phy descriptors, as the drives report them in VPD 0x83), slot 2 keeps the default; bad
/// lists are refused.
#[test]
fn serials_put_named_drives_in_the_first_slots() {
    let mut t = open("sim:enclosure?slots=3&drive=px02smf080&serials=TCMU0001,ABC-9");
    let c = ses::decode_config(&page(&mut *t, 1)).unwrap().page;
    let a = ses::decode_addl_status(&c, &page(&mut *t, 0x0a))
        .unwrap()
        .page;
    for (slot, serial) in [(0u32, "TCMU0001"), (1, "ABC-9"), (2, "E1S02")] {
        let SasInfo::Slot { phys, .. } = a.for_element(slot).unwrap().sas.clone().unwrap() else {
            panic!("not a slot descriptor")
        };
        let mut drive = open(&format!("sim:px02smf080?serial={serial}&port=1"));
        let mut vpd = vec![0u8; 512];
        let cmp = drive
            .execute(
                &sgctl::scsi::inquiry::InquiryCdb::new(512)
                    .evpd(true)
                    .page_code(0x83)
                    .build(),
                DataBuf::In(&mut vpd),
                T,
            )
            .unwrap();
        check(&cmp).unwrap();
        let addr = u64::from_str_radix(phys[0].sas_address.trim_start_matches("0x"), 16).unwrap();
        assert!(
            vpd.windows(8).any(|w| w == addr.to_be_bytes()),
            "slot {slot}: {} is not {serial}'s port A",
            phys[0].sas_address
        );
    }
    for bad in [
        "sim:enclosure?slots=1&serials=A,B",
        "sim:enclosure?slots=2&serials=A,,B",
        "sim:enclosure?slots=2&serials=way-too-long-a-serial-number",
    ] {
        assert!(
            sgctl::device::open(bad, sgctl::device::OpenOptions::default())
                .map(|o| o.transport)
                .is_err(),
            "{bad} accepted"
        );
    }
}
