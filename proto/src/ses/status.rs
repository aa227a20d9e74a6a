//! SES-4 7.2.4 Enclosure Status diagnostic page (02h) and the status elements of SES-4 7.3.
//!
//! Page: byte 1 bits 4-0 INVOP, INFO, NON-CRIT, CRIT, UNRECOV; bytes 4-7 GENERATION CODE; from
//! byte 8 one 4-byte status element per overall element and element, in the order of the
//! Configuration page's type descriptor headers. Every status element starts with the common
//! byte (SES-4 7.3.1, table "Status element format"): bit 7 reserved, bit 6 PRDFAIL, bit 5
//! DISABLED, bit 4 SWAP, bits 3-0 ELEMENT STATUS CODE (the same positions as the control
//! element's PRDFAIL, DISABLE and RST SWAP under its bit 7 SELECT). Bytes 1-3 are decoded for Device Slot (7.3.2), Array
//! Device Slot (7.3.3), Power Supply (7.3.4), Cooling (7.3.5), Temperature Sensor (7.3.6),
//! Enclosure (7.3.16) and SAS Expander (7.3.25: IDENT, FAIL) elements; other types keep the bytes in hex.

use super::{body, check_generation, element_type, generation, page, Config, Decoded};
use crate::bytes::{hex, ParseResult};
use serde::Serialize;

/// SES-4 7.3.1 table "ELEMENT STATUS CODE field".
pub(super) fn status_code_name(code: u8) -> &'static str {
    match code & 0xf {
        0 => "Unsupported",
        1 => "OK",
        2 => "Critical",
        3 => "Noncritical",
        4 => "Unrecoverable",
        5 => "Not installed",
        6 => "Unknown",
        7 => "Not available",
        8 => "No access allowed",
        _ => "reserved",
    }
}

/// Device Slot (7.3.2) and Array Device Slot (7.3.3) status: bytes 2-3 are common to both.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Slot {
    /// Device Slot byte 1: SLOT ADDRESS (None for an Array Device Slot).
    pub slot_address: Option<u8>,
    /// Array Device Slot byte 1 (None for a Device Slot).
    pub array: Option<ArrayBits>,
    /// Byte 2 bit 7.
    pub app_client_bypassed_a: bool,
    /// Byte 2 bit 6.
    pub do_not_remove: bool,
    /// Byte 2 bit 5.
    pub enclosure_bypassed_a: bool,
    /// Byte 2 bit 4.
    pub enclosure_bypassed_b: bool,
    /// Byte 2 bit 3.
    pub ready_to_insert: bool,
    /// Byte 2 bit 2: the device is prepared for removal.
    pub rmv: bool,
    /// Byte 2 bit 1: the identify (locate) indicator is on.
    pub ident: bool,
    /// Byte 2 bit 0.
    pub report: bool,
    /// Byte 3 bit 7.
    pub app_client_bypassed_b: bool,
    /// Byte 3 bit 6: the enclosure (or the device) detected a fault.
    pub fault_sensed: bool,
    /// Byte 3 bit 5: an application client requested the fault indicator.
    pub fault_requested: bool,
    /// Byte 3 bit 4: the device is turned off.
    pub device_off: bool,
    /// Byte 3 bit 3.
    pub bypassed_a: bool,
    /// Byte 3 bit 2.
    pub bypassed_b: bool,
    /// Byte 3 bit 1.
    pub device_bypassed_a: bool,
    /// Byte 3 bit 0.
    pub device_bypassed_b: bool,
}

/// Array Device Slot status byte 1 (SES-4 7.3.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ArrayBits {
    /// Bit 7.
    pub ok: bool,
    /// Bit 6.
    pub reserved_device: bool,
    /// Bit 5.
    pub hot_spare: bool,
    /// Bit 4.
    pub cons_check: bool,
    /// Bit 3.
    pub in_crit_array: bool,
    /// Bit 2.
    pub in_failed_array: bool,
    /// Bit 1.
    pub rebuild_remap: bool,
    /// Bit 0.
    pub rr_abort: bool,
}

/// Power Supply status (SES-4 7.3.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PowerSupply {
    /// Byte 1 bit 7.
    pub ident: bool,
    /// Byte 1 bit 6.
    pub do_not_remove: bool,
    /// Byte 2 bit 3.
    pub dc_overvoltage: bool,
    /// Byte 2 bit 2.
    pub dc_undervoltage: bool,
    /// Byte 2 bit 1.
    pub dc_overcurrent: bool,
    /// Byte 3 bit 7.
    pub hot_swap: bool,
    /// Byte 3 bit 6.
    pub fail: bool,
    /// Byte 3 bit 5.
    pub requested_on: bool,
    /// Byte 3 bit 4.
    pub off: bool,
    /// Byte 3 bit 3.
    pub overtemp_fail: bool,
    /// Byte 3 bit 2.
    pub temp_warn: bool,
    /// Byte 3 bit 1.
    pub ac_fail: bool,
    /// Byte 3 bit 0.
    pub dc_fail: bool,
}

/// Cooling status (SES-4 7.3.5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cooling {
    /// Byte 1 bit 7.
    pub ident: bool,
    /// Byte 1 bit 6.
    pub do_not_remove: bool,
    /// ACTUAL FAN SPEED (byte 1 bits 2-0, byte 2) times 10.
    pub actual_speed_rpm: u32,
    /// Byte 3 bit 7.
    pub hot_swap: bool,
    /// Byte 3 bit 6.
    pub fail: bool,
    /// Byte 3 bit 5.
    pub requested_on: bool,
    /// Byte 3 bit 4.
    pub off: bool,
    /// Byte 3 bits 2-0: ACTUAL SPEED CODE.
    pub speed_code: u8,
    /// Its meaning (table "ACTUAL SPEED CODE field").
    pub speed: &'static str,
}

/// Temperature Sensor status (SES-4 7.3.6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Temperature {
    /// Byte 1 bit 7.
    pub ident: bool,
    /// Byte 1 bit 6.
    pub fail: bool,
    /// Byte 2 TEMPERATURE minus 20 (degrees Celsius); None when the field is 0 (reserved).
    pub celsius: Option<i16>,
    /// Byte 3 bit 3.
    pub ot_failure: bool,
    /// Byte 3 bit 2.
    pub ot_warning: bool,
    /// Byte 3 bit 1.
    pub ut_failure: bool,
    /// Byte 3 bit 0.
    pub ut_warning: bool,
}

/// Enclosure status (SES-4 7.3.16).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EnclosureElement {
    /// Byte 1 bit 7.
    pub ident: bool,
    /// Byte 2 bits 7-2 (minutes).
    pub time_until_power_cycle: u8,
    /// Byte 2 bit 1.
    pub failure_indication: bool,
    /// Byte 2 bit 0.
    pub warning_indication: bool,
    /// Byte 3 bits 7-2 (minutes).
    pub requested_power_off_duration: u8,
    /// Byte 3 bit 1.
    pub failure_requested: bool,
    /// Byte 3 bit 0.
    pub warning_requested: bool,
}

/// Bytes 1-3 of a status element, decoded by element type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Detail {
    /// Device Slot or Array Device Slot.
    Slot(Slot),
    /// Power Supply.
    PowerSupply(PowerSupply),
    /// Cooling.
    Cooling(Cooling),
    /// Temperature Sensor.
    Temperature(Temperature),
    /// Enclosure.
    Enclosure(EnclosureElement),
    /// SAS Expander: byte 1 bit 7 IDENT, bit 6 FAIL.
    Expander {
        /// Byte 1 bit 7.
        ident: bool,
        /// Byte 1 bit 6.
        fail: bool,
    },
    /// Another type: bytes 1-3 are in `raw`.
    Other,
}

/// One status element.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Element {
    /// Element index (overall elements not counted); None for the overall element.
    pub element_index: Option<u32>,
    /// The 4 bytes (hex).
    pub raw: String,
    /// Byte 0 bit 6.
    pub prdfail: bool,
    /// Byte 0 bit 5.
    pub disabled: bool,
    /// Byte 0 bit 4.
    pub swap: bool,
    /// Byte 0 bits 3-0.
    pub status_code: u8,
    /// Its name.
    pub status: &'static str,
    /// Bytes 1-3 by element type.
    pub detail: Detail,
}

/// The status elements of one type descriptor header.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TypeStatus {
    /// Index of the type descriptor header (sg_ses' `ti`).
    pub type_index: usize,
    /// ELEMENT TYPE.
    pub element_type: u8,
    /// Its name.
    pub type_name: String,
    /// SUBENCLOSURE IDENTIFIER.
    pub subenclosure_id: u8,
    /// The overall status element (None if the page ends before it).
    pub overall: Option<Element>,
    /// The elements present.
    pub elements: Vec<Element>,
}

/// Decoded Enclosure Status page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Status {
    /// Byte 1 bit 4: an invalid control page was sent.
    pub invop: bool,
    /// Byte 1 bit 3.
    pub info: bool,
    /// Byte 1 bit 2.
    pub non_crit: bool,
    /// Byte 1 bit 1.
    pub crit: bool,
    /// Byte 1 bit 0.
    pub unrecov: bool,
    /// Bytes 4-7.
    pub generation_code: u32,
    /// One entry per type descriptor header reached by the bytes.
    pub types: Vec<TypeStatus>,
}

impl Status {
    /// The status element of an element index, if present.
    pub fn element(&self, element_index: u32) -> Option<(&TypeStatus, &Element)> {
        self.types.iter().find_map(|t| {
            t.elements
                .iter()
                .find(|e| e.element_index == Some(element_index))
                .map(|e| (t, e))
        })
    }
}

fn bit(b: u8, n: u8) -> bool {
    b & (1 << n) != 0
}

/// Decodes one 4-byte status element of `element_type`.
pub(super) fn decode_element(element_type: u8, e: [u8; 4], element_index: Option<u32>) -> Element {
    let [b0, b1, b2, b3] = e;
    let detail = match element_type {
        element_type::DEVICE_SLOT | element_type::ARRAY_DEVICE_SLOT => {
            let array = element_type == element_type::ARRAY_DEVICE_SLOT;
            Detail::Slot(Slot {
                slot_address: (!array).then_some(b1),
                array: array.then_some(ArrayBits {
                    ok: bit(b1, 7),
                    reserved_device: bit(b1, 6),
                    hot_spare: bit(b1, 5),
                    cons_check: bit(b1, 4),
                    in_crit_array: bit(b1, 3),
                    in_failed_array: bit(b1, 2),
                    rebuild_remap: bit(b1, 1),
                    rr_abort: bit(b1, 0),
                }),
                app_client_bypassed_a: bit(b2, 7),
                do_not_remove: bit(b2, 6),
                enclosure_bypassed_a: bit(b2, 5),
                enclosure_bypassed_b: bit(b2, 4),
                ready_to_insert: bit(b2, 3),
                rmv: bit(b2, 2),
                ident: bit(b2, 1),
                report: bit(b2, 0),
                app_client_bypassed_b: bit(b3, 7),
                fault_sensed: bit(b3, 6),
                fault_requested: bit(b3, 5),
                device_off: bit(b3, 4),
                bypassed_a: bit(b3, 3),
                bypassed_b: bit(b3, 2),
                device_bypassed_a: bit(b3, 1),
                device_bypassed_b: bit(b3, 0),
            })
        }
        element_type::POWER_SUPPLY => Detail::PowerSupply(PowerSupply {
            ident: bit(b1, 7),
            do_not_remove: bit(b1, 6),
            dc_overvoltage: bit(b2, 3),
            dc_undervoltage: bit(b2, 2),
            dc_overcurrent: bit(b2, 1),
            hot_swap: bit(b3, 7),
            fail: bit(b3, 6),
            requested_on: bit(b3, 5),
            off: bit(b3, 4),
            overtemp_fail: bit(b3, 3),
            temp_warn: bit(b3, 2),
            ac_fail: bit(b3, 1),
            dc_fail: bit(b3, 0),
        }),
        element_type::COOLING => Detail::Cooling(Cooling {
            ident: bit(b1, 7),
            do_not_remove: bit(b1, 6),
            actual_speed_rpm: 10 * ((u32::from(b1 & 7) << 8) | u32::from(b2)),
            hot_swap: bit(b3, 7),
            fail: bit(b3, 6),
            requested_on: bit(b3, 5),
            off: bit(b3, 4),
            speed_code: b3 & 7,
            speed: speed_name(b3 & 7),
        }),
        element_type::TEMPERATURE => Detail::Temperature(Temperature {
            ident: bit(b1, 7),
            fail: bit(b1, 6),
            celsius: (b2 != 0).then(|| i16::from(b2) - 20),
            ot_failure: bit(b3, 3),
            ot_warning: bit(b3, 2),
            ut_failure: bit(b3, 1),
            ut_warning: bit(b3, 0),
        }),
        element_type::ENCLOSURE => Detail::Enclosure(EnclosureElement {
            ident: bit(b1, 7),
            time_until_power_cycle: b2 >> 2,
            failure_indication: bit(b2, 1),
            warning_indication: bit(b2, 0),
            requested_power_off_duration: b3 >> 2,
            failure_requested: bit(b3, 1),
            warning_requested: bit(b3, 0),
        }),
        element_type::SAS_EXPANDER => Detail::Expander {
            ident: bit(b1, 7),
            fail: bit(b1, 6),
        },
        _ => Detail::Other,
    };
    Element {
        element_index,
        raw: hex(&e),
        prdfail: bit(b0, 6),
        disabled: bit(b0, 5),
        swap: bit(b0, 4),
        status_code: b0 & 0xf,
        status: status_code_name(b0),
        detail,
    }
}

/// SES-4 7.3.5 table "ACTUAL SPEED CODE field", in sg_ses' words.
fn speed_name(code: u8) -> &'static str {
    match code & 7 {
        0 => "Fan stopped",
        1 => "Fan at lowest speed",
        2 => "Fan at second lowest speed",
        3 => "Fan at third lowest speed",
        4 => "Fan at intermediate speed",
        5 => "Fan at third highest speed",
        6 => "Fan at second highest speed",
        _ => "Fan at highest speed",
    }
}

const WHAT: &str = "Enclosure Status diagnostic page";

/// Decodes the Enclosure Status page laid out by `config`. A page that ends before the
/// configuration's last element keeps the elements present, with a problem; bytes after the
/// last element are a problem too.
pub fn decode_status(config: &Config, buf: &[u8]) -> ParseResult<Decoded<Status>> {
    let mut problems = Vec::new();
    let (h, b) = body(buf, page::ENCLOSURE_STATUS, WHAT, &mut problems)?;
    let generation_code = generation(&b, &mut problems);
    if b.len() >= 8 {
        check_generation(generation_code, config, &mut problems);
    }
    let mut off = 8usize;
    let mut types = Vec::new();
    let mut short = false;
    let elem = |off: usize| b.slice(off, 4).ok().map(|s| [s[0], s[1], s[2], s[3]]);
    for (ti, t) in config.types.iter().enumerate() {
        let Some(o) = elem(off) else {
            short = true;
            break;
        };
        off += 4;
        let mut ts = TypeStatus {
            type_index: ti,
            element_type: t.element_type,
            type_name: t.type_name.clone(),
            subenclosure_id: t.subenclosure_id,
            overall: Some(decode_element(t.element_type, o, None)),
            elements: Vec::new(),
        };
        for n in 0..u32::from(t.possible_elements) {
            let Some(e) = elem(off) else {
                short = true;
                break;
            };
            off += 4;
            ts.elements.push(decode_element(
                t.element_type,
                e,
                Some(t.first_element_index + n),
            ));
        }
        types.push(ts);
        if short {
            break;
        }
    }
    if short {
        problems.push(format!(
            "the page ends at byte {} before the configuration's {} status elements (4 bytes \
             each from byte 8)",
            b.len(),
            config.slots_with_overall()
        ));
    } else if off < b.len() {
        problems.push(format!(
            "{} bytes after the last status element the configuration describes",
            b.len() - off
        ));
    }
    Ok(Decoded {
        page: Status {
            invop: bit(h.byte1, 4),
            info: bit(h.byte1, 3),
            non_crit: bit(h.byte1, 2),
            crit: bit(h.byte1, 1),
            unrecov: bit(h.byte1, 0),
            generation_code,
            types,
        },
        problems,
    })
}
