//! Text renderings of the SES diagnostic pages, worded and laid out like sg3_utils' `sg_ses`
//! (1.46) so the output is familiar and field-by-field comparable (tests/it/ses_compare.rs
//! checks this on the published and the spec-built enclosure pages).

use crate::ses::{
    AddlDescriptor, AddlStatus, Config, Detail, Element, ElementDescriptors, SasInfo, Status,
};
use std::fmt::Write;

fn b(v: bool) -> u8 {
    u8::from(v)
}

/// The Configuration page (`sg_ses --page=cf`).
pub(crate) fn config(c: &Config) -> String {
    let mut t = String::from("Configuration diagnostic page:\n");
    let _ = writeln!(
        t,
        "  number of secondary subenclosures: {}",
        c.secondary_subenclosures
    );
    let _ = writeln!(t, "  generation code: 0x{:x}", c.generation_code);
    t.push_str("  enclosure descriptor list\n");
    for e in &c.enclosures {
        let primary = if e.subenclosure_id == 0 {
            " [primary]"
        } else {
            ""
        };
        let _ = writeln!(
            t,
            "    Subenclosure identifier: {}{primary}",
            e.subenclosure_id
        );
        let _ = writeln!(
            t,
            "      relative ES process id: {}, number of ES processes: {}",
            e.relative_es_process_id, e.es_processes
        );
        let _ = writeln!(
            t,
            "      number of type descriptor headers: {}",
            e.type_headers
        );
        let _ = writeln!(
            t,
            "      enclosure logical identifier (hex): {}",
            e.logical_identifier
        );
        let _ = writeln!(
            t,
            "      enclosure vendor: {}  product: {}  rev: {}",
            e.vendor, e.product, e.revision
        );
        if !e.vendor_specific.is_empty() {
            let _ = writeln!(t, "      vendor-specific data (hex): {}", e.vendor_specific);
        }
    }
    t.push_str("  type descriptor header and text list\n");
    for h in &c.types {
        let _ = writeln!(
            t,
            "    Element type: {}, subenclosure id: {}",
            h.type_name, h.subenclosure_id
        );
        let _ = writeln!(
            t,
            "      number of possible elements: {}",
            h.possible_elements
        );
        if !h.text.is_empty() {
            let _ = writeln!(t, "      text: {}", h.text);
        }
    }
    t
}

fn type_line(t: &mut String, name: &str, sub: u8, ti: usize) {
    let _ = writeln!(
        t,
        "    Element type: {name}, subenclosure id: {sub} [ti={ti}]"
    );
}

/// The Enclosure Status page (`sg_ses --page=es`).
pub(crate) fn status(s: &Status) -> String {
    let mut t = String::from("Enclosure Status diagnostic page:\n");
    let _ = writeln!(
        t,
        "  INVOP={}, INFO={}, NON-CRIT={}, CRIT={}, UNRECOV={}",
        b(s.invop),
        b(s.info),
        b(s.non_crit),
        b(s.crit),
        b(s.unrecov)
    );
    let _ = writeln!(t, "  generation code: 0x{:x}", s.generation_code);
    t.push_str("  status descriptor list\n");
    for ty in &s.types {
        type_line(&mut t, &ty.type_name, ty.subenclosure_id, ty.type_index);
        if let Some(o) = &ty.overall {
            t.push_str("      Overall descriptor:\n");
            element(&mut t, o);
        }
        for (n, e) in ty.elements.iter().enumerate() {
            let _ = writeln!(t, "      Element {n} descriptor:");
            element(&mut t, e);
        }
    }
    t
}

fn element(t: &mut String, e: &Element) {
    let p = "        ";
    let _ = writeln!(
        t,
        "{p}Predicted failure={}, Disabled={}, Swap={}, status: {}",
        b(e.prdfail),
        b(e.disabled),
        b(e.swap),
        e.status
    );
    match &e.detail {
        Detail::Slot(s) => {
            if let Some(a) = &s.array {
                let _ = writeln!(
                    t,
                    "{p}OK={}, Reserved device={}, Hot spare={}, Cons check={}",
                    b(a.ok),
                    b(a.reserved_device),
                    b(a.hot_spare),
                    b(a.cons_check)
                );
                let _ = writeln!(
                    t,
                    "{p}In crit array={}, In failed array={}, Rebuild/remap={}, R/R abort={}",
                    b(a.in_crit_array),
                    b(a.in_failed_array),
                    b(a.rebuild_remap),
                    b(a.rr_abort)
                );
            }
            if let Some(a) = s.slot_address {
                // sg_ses words a Device Slot's bits differently from an Array Device Slot's.
                let _ = writeln!(t, "{p}Slot address: {a}");
                let _ = writeln!(
                    t,
                    "{p}App client bypassed A={}, Do not remove={}, Enc bypassed A={}",
                    b(s.app_client_bypassed_a),
                    b(s.do_not_remove),
                    b(s.enclosure_bypassed_a)
                );
                let _ = writeln!(
                    t,
                    "{p}Enc bypassed B={}, Ready to insert={}, RMV={}, Ident={}",
                    b(s.enclosure_bypassed_b),
                    b(s.ready_to_insert),
                    b(s.rmv),
                    b(s.ident)
                );
                let _ = writeln!(
                    t,
                    "{p}Report={}, App client bypassed B={}, Fault sensed={}, Fault requested={}",
                    b(s.report),
                    b(s.app_client_bypassed_b),
                    b(s.fault_sensed),
                    b(s.fault_requested)
                );
                let _ = writeln!(
                    t,
                    "{p}Device off={}, Bypassed A={}, Bypassed B={}, Device bypassed A={}",
                    b(s.device_off),
                    b(s.bypassed_a),
                    b(s.bypassed_b),
                    b(s.device_bypassed_a)
                );
                let _ = writeln!(t, "{p}Device bypassed B={}", b(s.device_bypassed_b));
                return;
            }
            let _ = writeln!(
                t,
                "{p}App client bypass A={}, Do not remove={}, Enc bypass A={}, Enc bypass B={}",
                b(s.app_client_bypassed_a),
                b(s.do_not_remove),
                b(s.enclosure_bypassed_a),
                b(s.enclosure_bypassed_b)
            );
            let _ = writeln!(
                t,
                "{p}Ready to insert={}, RMV={}, Ident={}, Report={}",
                b(s.ready_to_insert),
                b(s.rmv),
                b(s.ident),
                b(s.report)
            );
            let _ = writeln!(
                t,
                "{p}App client bypass B={}, Fault sensed={}, Fault reqstd={}, Device off={}",
                b(s.app_client_bypassed_b),
                b(s.fault_sensed),
                b(s.fault_requested),
                b(s.device_off)
            );
            let _ = writeln!(
                t,
                "{p}Bypassed A={}, Bypassed B={}, Dev bypassed A={}, Dev bypassed B={}",
                b(s.bypassed_a),
                b(s.bypassed_b),
                b(s.device_bypassed_a),
                b(s.device_bypassed_b)
            );
        }
        Detail::PowerSupply(s) => {
            let _ = writeln!(
                t,
                "{p}Ident={}, Do not remove={}, DC overvoltage={}, DC undervoltage={}",
                b(s.ident),
                b(s.do_not_remove),
                b(s.dc_overvoltage),
                b(s.dc_undervoltage)
            );
            let _ = writeln!(
                t,
                "{p}DC overcurrent={}, Hot swap={}, Fail={}, Requested on={}, Off={}",
                b(s.dc_overcurrent),
                b(s.hot_swap),
                b(s.fail),
                b(s.requested_on),
                b(s.off)
            );
            let _ = writeln!(
                t,
                "{p}Overtmp fail={}, Temperature warn={}, AC fail={}, DC fail={}",
                b(s.overtemp_fail),
                b(s.temp_warn),
                b(s.ac_fail),
                b(s.dc_fail)
            );
        }
        Detail::Cooling(c) => {
            let _ = writeln!(
                t,
                "{p}Ident={}, Do not remove={}, Hot swap={}, Fail={}, Requested on={}",
                b(c.ident),
                b(c.do_not_remove),
                b(c.hot_swap),
                b(c.fail),
                b(c.requested_on)
            );
            let _ = writeln!(
                t,
                "{p}Off={}, Actual speed={} rpm, {}",
                b(c.off),
                c.actual_speed_rpm,
                c.speed
            );
        }
        Detail::Temperature(s) => {
            let _ = writeln!(
                t,
                "{p}Ident={}, Fail={}, OT failure={}, OT warning={}, UT failure={}",
                b(s.ident),
                b(s.fail),
                b(s.ot_failure),
                b(s.ot_warning),
                b(s.ut_failure)
            );
            let _ = writeln!(t, "{p}UT warning={}", b(s.ut_warning));
            match s.celsius {
                Some(c) => {
                    let _ = writeln!(t, "{p}Temperature={c} C");
                }
                None => {
                    let _ = writeln!(t, "{p}Temperature: <reserved>");
                }
            }
        }
        Detail::Enclosure(s) => {
            let _ = writeln!(
                t,
                "{p}Ident={}, Time until power cycle={}, Failure indication={}",
                b(s.ident),
                s.time_until_power_cycle,
                b(s.failure_indication)
            );
            let _ = writeln!(
                t,
                "{p}Warning indication={}, Requested power off duration={}",
                b(s.warning_indication),
                s.requested_power_off_duration
            );
            let _ = writeln!(
                t,
                "{p}Failure requested={}, Warning requested={}",
                b(s.failure_requested),
                b(s.warning_requested)
            );
        }
        Detail::Expander { ident, fail } => {
            let _ = writeln!(t, "{p}Ident={}, Fail={}", b(*ident), b(*fail));
        }
        Detail::Other => {
            let _ = writeln!(t, "{p}status element (hex): {}", e.raw);
        }
    }
}

/// The Element Descriptor page (`sg_ses --page=ed`).
pub(crate) fn element_desc(d: &ElementDescriptors) -> String {
    let mut t = String::from("Element Descriptor In diagnostic page:\n");
    let _ = writeln!(t, "  generation code: 0x{:x}", d.generation_code);
    t.push_str("  element descriptor list (grouped by type):\n");
    for ty in &d.types {
        type_line(&mut t, &ty.type_name, ty.subenclosure_id, ty.type_index);
        if let Some(o) = &ty.overall {
            let _ = writeln!(t, "      Overall descriptor: {o}");
        }
        for (n, e) in ty.elements.iter().enumerate() {
            let _ = writeln!(t, "      Element {n} descriptor: {}", e.text);
        }
    }
    t
}

/// `0x` and the address without leading zeros, as sg_ses prints it.
fn addr(s: &str) -> String {
    match u64::from_str_radix(s.trim_start_matches("0x"), 16) {
        Ok(v) => format!("0x{v:x}"),
        Err(_) => s.to_string(),
    }
}

/// The Additional Element Status page (`sg_ses --page=aes`).
pub(crate) fn addl_status(a: &AddlStatus) -> String {
    let mut t = String::from("Additional element status diagnostic page:\n");
    let _ = writeln!(t, "  generation code: 0x{:x}", a.generation_code);
    t.push_str("  additional element status descriptor list\n");
    let mut last_type = None;
    for d in &a.descriptors {
        if d.type_index != last_type {
            if let (Some(ti), Some(name), Some(sub)) =
                (d.type_index, &d.type_name, d.subenclosure_id)
            {
                type_line(&mut t, name, sub, ti);
            }
            last_type = d.type_index;
        }
        addl(&mut t, d);
    }
    t
}

fn addl(t: &mut String, d: &AddlDescriptor) {
    match d.element_index {
        Some(i) => {
            let field = match (d.eiioe, d.element_index_field) {
                (Some(e), Some(f)) if e != 0 && u32::from(f) != i => {
                    format!(" (ELEMENT INDEX field {f})")
                }
                _ => String::new(),
            };
            let _ = writeln!(
                t,
                "      Element index: {i}  eiioe={}{field}",
                d.eiioe.unwrap_or(0)
            );
        }
        None => t.push_str("      Element index: unknown\n"),
    }
    let p = "        ";
    if d.invalid {
        let _ = writeln!(t, "{p}flagged as invalid (no further information)");
    }
    let _ = writeln!(t, "{p}Transport protocol: {}", d.protocol_name);
    match &d.sas {
        Some(SasInfo::Slot {
            phy_descriptors,
            not_all_phys,
            device_slot_number,
            phys,
        }) => {
            let slot = device_slot_number
                .map(|n| format!(", device slot number: {n}"))
                .unwrap_or_default();
            let _ = writeln!(
                t,
                "{p}number of phys: {phy_descriptors}, not all phys: {}{slot}",
                b(*not_all_phys)
            );
            for (i, ph) in phys.iter().enumerate() {
                let _ = writeln!(t, "{p}phy index: {i}");
                let q = "          ";
                let _ = writeln!(t, "{q}SAS device type: {}", ph.device_type_name);
                let flag = |on: bool, s: &'static str| if on { s } else { "" };
                let _ = writeln!(
                    t,
                    "{q}initiator port for:{}{}{}",
                    flag(ph.ssp_initiator, " SSP"),
                    flag(ph.stp_initiator, " STP"),
                    flag(ph.smp_initiator, " SMP")
                );
                let _ = writeln!(
                    t,
                    "{q}target port for:{}{}{}{}{}",
                    flag(ph.sata_port_selector, " SATA_port_selector"),
                    flag(ph.ssp_target, " SSP"),
                    flag(ph.stp_target, " STP"),
                    flag(ph.smp_target, " SMP"),
                    flag(ph.sata_device, " SATA_device")
                );
                let _ = writeln!(
                    t,
                    "{q}attached SAS address: {}",
                    addr(&ph.attached_sas_address)
                );
                let _ = writeln!(t, "{q}SAS address: {}", addr(&ph.sas_address));
                let _ = writeln!(t, "{q}phy identifier: 0x{:x}", ph.phy_identifier);
            }
        }
        Some(SasInfo::Expander {
            phy_descriptors,
            sas_address,
            phys,
        }) => {
            let _ = writeln!(t, "{p}number of phys: {phy_descriptors}");
            let _ = writeln!(t, "{p}SAS address: {}", addr(sas_address));
            let _ = writeln!(t, "{p}Attached connector; other_element pairs:");
            for (i, ph) in phys.iter().enumerate() {
                let c = ph.connector_element_index;
                let o = ph.other_element_index;
                let line = match (c, o) {
                    (0xff, 0xff) => "no connector".to_string(),
                    (0xff, o) => format!("no connector; other ei: {o}"),
                    (c, 0xff) => format!("connector ei: {c}"),
                    (c, o) => format!("connector ei: {c}; other ei: {o}"),
                };
                let _ = writeln!(t, "{p}  [{i}] {line}");
            }
        }
        Some(SasInfo::Port {
            phy_descriptors,
            phys,
        }) => {
            let _ = writeln!(t, "{p}number of phys: {phy_descriptors}");
            for (i, ph) in phys.iter().enumerate() {
                let _ = writeln!(
                    t,
                    "{p}  [{i}] phy identifier: 0x{:x}, connector ei: {}, other ei: {}, SAS \
                     address: {}",
                    ph.phy_identifier,
                    ph.connector_element_index,
                    ph.other_element_index,
                    addr(&ph.sas_address)
                );
            }
        }
        Some(SasInfo::Reserved { descriptor_type }) => {
            let _ = writeln!(
                t,
                "{p}descriptor type {descriptor_type} (reserved), data (hex): {}",
                d.data
            );
        }
        None => {
            let _ = writeln!(t, "{p}protocol-specific information (hex): {}", d.data);
        }
    }
}
