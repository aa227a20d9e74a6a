//! SES-4 7.2.3 Enclosure Control diagnostic page (02h, sent with SEND DIAGNOSTIC): the builder
//! that turns a slot's locate (identify) and fault indicators on or off.
//!
//! Page: byte 1 INFO/NON-CRIT/CRIT/UNRECOV (0 here), bytes 2-3 PAGE LENGTH, bytes 4-7 EXPECTED
//! GENERATION CODE (the enclosure rejects the page when it differs from its current one), then
//! one 4-byte control element per overall element and element, in the Configuration page's
//! order. Only an element whose SELECT bit (byte 0 bit 7, SES-4 7.3.1 "Control element
//! format") is set is acted on; every other element is sent as zeros.
//!
//! The selected element is its status element read back and masked to the bits that have the
//! same meaning in the control element (the read-modify-write of SES-4 7.2.3, masks as
//! Linux `drivers/scsi/ses.c` `init_device_slot_control` and sg_ses' `ses3_element_cmask_arr`
//! use them): byte 0 is SELECT alone (PRDFAIL is not copied back from the status element, as
//! the kernel does: a predicted failure the device reported itself is not turned into a
//! request; sg_ses keeps it); byte 1 keeps the Array Device Slot's RQST bits (a
//! Device Slot's SLOT ADDRESS is reserved in a control element); byte 2 keeps DO NOT REMOVE,
//! RQST INSERT, RQST REMOVE and RQST IDENT (mask 4Eh); byte 3 keeps RQST FAULT, DEVICE OFF,
//! ENABLE BYP A and ENABLE BYP B (mask 3Ch). Then RQST IDENT (byte 2 bit 1) and RQST FAULT
//! (byte 3 bit 5) are set as asked (SES-4 7.3.2 Device Slot and 7.3.3 Array Device Slot control
//! elements), and SELECT is set.

use super::{decode_status, element_type, page, Config};
use crate::bytes::{ParseError, ParseResult};

/// What to do with a slot's indicators: `None` leaves an indicator as it is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LedRequest {
    /// The identify (locate) indicator: RQST IDENT.
    pub ident: Option<bool>,
    /// The fault indicator: RQST FAULT.
    pub fault: Option<bool>,
}

const WHAT: &str = "Enclosure Control page";

/// Builds the Enclosure Control page that applies `req` to the Device Slot or Array Device
/// Slot at `element_index` (overall elements not counted), from the current Enclosure Status
/// page `status` laid out by `config`. Errors when the element is not a slot, when the status
/// page does not match the configuration (another generation code, too short) or the element
/// is past its end: a control page built from stale data could change another slot.
pub fn control_page_set_leds(
    config: &Config,
    status: &[u8],
    element_index: u32,
    req: LedRequest,
) -> ParseResult<Vec<u8>> {
    let err = |m: String| ParseError::new(WHAT, m);
    let (ti, _) = config.locate(element_index).ok_or_else(|| {
        err(format!(
            "element index {element_index} is past the configuration's {} elements",
            config.element_count()
        ))
    })?;
    let t = config
        .types
        .get(ti)
        .ok_or_else(|| err("type header missing".into()))?;
    let array = match t.element_type {
        element_type::ARRAY_DEVICE_SLOT => true,
        element_type::DEVICE_SLOT => false,
        _ => {
            return Err(err(format!(
                "element {element_index} is a {} element, not a device slot",
                t.type_name
            )))
        }
    };
    let st = decode_status(config, status)?;
    if let Some(p) = st.problems.first() {
        return Err(err(format!("the status page cannot be used: {p}")));
    }
    // Position of the element among all control elements: one overall element per header up
    // to and including its own, plus the elements before it.
    let slot = ti + 1 + element_index as usize;
    let off = 8 + 4 * slot;
    let s = status
        .get(off..off + 4)
        .ok_or_else(|| err(format!("status element {element_index} missing")))?;
    let mut e = [0x80, if array { s[1] } else { 0 }, s[2] & 0x4e, s[3] & 0x3c];
    if let Some(on) = req.ident {
        e[2] = if on { e[2] | 0x02 } else { e[2] & !0x02 };
    }
    if let Some(on) = req.fault {
        e[3] = if on { e[3] | 0x20 } else { e[3] & !0x20 };
    }
    let elements = config.slots_with_overall();
    let len = 4 + 4 * elements;
    let page_length =
        u16::try_from(len).map_err(|_| err(format!("page of {len} bytes is too long")))?;
    let mut out = vec![0u8; 4 + len];
    out[0] = page::ENCLOSURE_STATUS;
    out[2..4].copy_from_slice(&page_length.to_be_bytes());
    out[4..8].copy_from_slice(&st.page.generation_code.to_be_bytes());
    out[off..off + 4].copy_from_slice(&e);
    Ok(out)
}
