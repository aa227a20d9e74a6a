//! Slots from the enclosure services devices themselves, over SG_IO: for drives the kernel's
//! ses driver did not link to a slot (no ses driver, or — as with TCMU/tcm_loop LUs, iSCSI or
//! any disk not under a SAS transport rphy — the driver bound but could not take the disk's SAS
//! address: drivers/scsi/ses.c `ses_match_to_enclosure`).
//!
//! The Configuration page (01h) lays out the elements; the Additional Element Status page
//! (0Ah, SES-4 7.2.13, SAS protocol-specific descriptors) lists, per Device Slot or Array
//! Device Slot element, the SAS address of each phy of the device in the slot. A path whose
//! target port SAS address (VPD 83h) or SAS transport address is one of them is in that slot.
//! [`crate::ops::led::ses`] drives the slot's LEDs from the same entries.

use super::DrivePath;
use crate::host::SlotRef;
use crate::scsi::diagnostic;
use crate::ses::{self, Config, SasInfo};
use crate::transport::{check, DataBuf, Transport};
use std::time::Duration;

/// Reads diagnostic page `code` (RECEIVE DIAGNOSTIC RESULTS, PCV=1).
pub(crate) fn read_page(
    t: &mut dyn Transport,
    code: u8,
    timeout: Duration,
) -> crate::Result<Vec<u8>> {
    let mut buf = vec![0u8; 0xffff];
    let c = t.execute(
        &diagnostic::ReceiveDiagnosticResultsCdb::new(0xffff)
            .pcv(true)
            .page_code(code)
            .build(),
        DataBuf::In(&mut buf),
        timeout,
    )?;
    check(&c)?;
    buf.truncate(buf.len().saturating_sub(c.resid));
    Ok(buf)
}

/// The Configuration page, refused when it has problems (a slot found through a damaged page
/// could be another slot).
pub(crate) fn config(t: &mut dyn Transport, timeout: Duration) -> crate::Result<Config> {
    let d = ses::decode_config(&read_page(t, ses::page::CONFIGURATION, timeout)?)?;
    if let Some(p) = d.problems.first() {
        return Err(crate::Error::CheckFailed(format!(
            "the enclosure's Configuration page cannot be used: {p}"
        )));
    }
    Ok(d.page)
}

/// A SAS address as sysfs, VPD decoders and SES decoders print it (`0x…`, `naa.…`, bare
/// hex); zero is no address.
pub(crate) fn parse_sas(s: &str) -> Option<u64> {
    let s = s.trim();
    let h = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("naa."))
        .unwrap_or(s);
    u64::from_str_radix(h, 16).ok().filter(|&v| v != 0)
}

/// One slot element of an enclosure services device.
#[derive(Debug, Clone)]
pub(crate) struct SesSlot {
    /// Where (enclosure logical id, vendor, product, slot, element; `enclosure_device` is the
    /// name the SES device was given).
    pub place: SlotRef,
    /// The slot's element index (overall elements not counted, SES-4 7.2.13).
    pub element_index: u32,
    /// The SAS addresses of the phys of the device in the slot (none when empty).
    pub sas: Vec<u64>,
}

/// The Device Slot and Array Device Slot elements of the enclosure services device open as
/// `t`, named `name` in the places, with the SAS addresses page 0Ah gives them.
pub(crate) fn slots(
    t: &mut dyn Transport,
    name: &str,
    timeout: Duration,
) -> crate::Result<Vec<SesSlot>> {
    let c = config(t, timeout)?;
    let a = ses::decode_addl_status(
        &c,
        &read_page(t, ses::page::ADDITIONAL_ELEMENT_STATUS, timeout)?,
    )?;
    let enc = c.primary();
    let own = |s: Option<&String>| s.map(|x| x.trim().to_string()).filter(|x| !x.is_empty());
    // `0x…`, lower case: as the kernel's `id` attribute (ses.c `%#llx`), so one enclosure is
    // one key whichever way its slot was found.
    let id = enc
        .and_then(|e| own(Some(&e.logical_identifier)))
        .map(|x| format!("0x{}", x.trim_start_matches("0x").to_ascii_lowercase()));
    let mut out = Vec::new();
    for d in &a.page.descriptors {
        let (Some(i), Some(et)) = (d.element_index, d.element_type) else {
            continue;
        };
        if d.invalid
            || !matches!(
                et,
                ses::element_type::DEVICE_SLOT | ses::element_type::ARRAY_DEVICE_SLOT
            )
        {
            continue;
        }
        let Some(SasInfo::Slot {
            device_slot_number,
            phys,
            ..
        }) = &d.sas
        else {
            continue;
        };
        let within = c.locate(i).map(|(_, n)| n).unwrap_or(i);
        out.push(SesSlot {
            place: SlotRef {
                id: id.clone(),
                vendor: enc.and_then(|e| own(Some(&e.vendor))),
                product: enc.and_then(|e| own(Some(&e.product))),
                slot: Some(device_slot_number.map_or(within, u32::from)),
                component: format!("element {i}"),
                enclosure_device: name.to_string(),
            },
            element_index: i,
            sas: phys
                .iter()
                .filter_map(|p| parse_sas(&p.sas_address))
                .collect(),
        });
    }
    Ok(out)
}

/// Gives every path in `paths` that has no slot yet the slot an enclosure services device
/// among `paths` (peripheral type 0Dh, identified over SG_IO) lists its SAS address in. Asks
/// nothing when every path has a slot or no 0Dh device is there; a device that cannot be read
/// is skipped (returned as `address: error`).
pub(crate) fn fill(paths: &mut [DrivePath], timeout: Duration) -> Vec<String> {
    let sas_of = |p: &DrivePath| -> Vec<u64> {
        [p.target_port.as_deref(), p.sas_address.as_deref()]
            .into_iter()
            .flatten()
            .filter_map(parse_sas)
            .collect()
    };
    let wanted = paths
        .iter()
        .any(|p| p.enclosure.is_none() && !sas_of(p).is_empty());
    let devices: Vec<(String, String)> = paths
        .iter()
        .filter(|p| p.identity().map(|i| i.peripheral_type) == Some(0x0d))
        .map(|p| {
            (
                p.sg.clone().unwrap_or_else(|| p.address.clone()),
                p.hctl.clone().unwrap_or_else(|| p.address.clone()),
            )
        })
        .collect();
    let mut errors = Vec::new();
    if !wanted || devices.is_empty() {
        return errors;
    }
    let mut all: Vec<SesSlot> = Vec::new();
    for (node, name) in devices {
        let found = crate::device::open(&node, crate::device::OpenOptions::default())
            .map(|o| o.transport)
            .and_then(|mut t| slots(&mut *t, &name, timeout));
        match found {
            Ok(s) => all.extend(s),
            Err(e) => errors.push(format!("{node}: {e}")),
        }
    }
    for p in paths.iter_mut().filter(|p| p.enclosure.is_none()) {
        let mine = sas_of(p);
        if let Some(s) = all.iter().find(|s| s.sas.iter().any(|a| mine.contains(a))) {
            p.enclosure = Some(s.place.clone());
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sas_address_spellings() {
        assert_eq!(parse_sas("0x5000c50000a00001"), Some(0x5000c50000a00001));
        assert_eq!(
            parse_sas(" naa.5000C50000A00001 "),
            Some(0x5000c50000a00001)
        );
        assert_eq!(parse_sas("5000c50000a00001"), Some(0x5000c50000a00001));
        assert_eq!(parse_sas("0x0"), None);
        assert_eq!(parse_sas("slot"), None);
    }

    #[cfg(feature = "sim")]
    #[test]
    fn slots_of_the_virtual_enclosure_carry_the_drives_addresses() {
        let mut t = crate::sim::enclosure::open("enclosure?slots=3&empty=1").unwrap();
        let s = slots(&mut t, "2:0:1:0", Duration::from_secs(5)).unwrap();
        assert_eq!(s.len(), 3);
        assert_eq!(s[0].sas, t.slots[0].sas.to_vec());
        assert!(s[1].sas.is_empty(), "the empty slot lists no device");
        assert_eq!(s[2].place.slot, Some(2));
        assert_eq!(s[2].place.enclosure_device, "2:0:1:0");
        assert_eq!(s[2].place.id.as_deref(), Some("0x5acde48e00000100"));
    }

    #[cfg(feature = "sim")]
    fn path(address: &str, hctl: &str, pdt: u8, target_port: Option<u64>) -> DrivePath {
        DrivePath {
            address: address.into(),
            hctl: Some(hctl.into()),
            target_port: target_port.map(|a| format!("0x{a:016x}")),
            identity: Some(super::super::ident::Identity {
                peripheral_type: pdt,
                ..Default::default()
            }),
            ..DrivePath::default()
        }
    }

    /// A path in no kernel slot gets the slot whose phys list its SAS address (port B here),
    /// named by the SES device's H:C:T:L; one the kernel placed keeps its slot; a path of a
    /// drive in no slot stays without.
    #[cfg(feature = "sim")]
    #[test]
    fn fill_places_unlinked_paths_through_the_0d_device() {
        let spec = "enclosure?slots=3";
        let e = crate::sim::enclosure::open(spec).unwrap();
        let kernel = SlotRef {
            id: Some("0xkernel".into()),
            slot: Some(7),
            ..SlotRef::default()
        };
        let mut paths = vec![
            path("/dev/sg0", "0:0:1:0", 0, Some(e.slots[1].sas[1])),
            path("/dev/sg1", "1:0:1:0", 0, Some(e.slots[2].sas[0])),
            path("/dev/sg3", "3:0:1:0", 0, Some(0x5000_0000_0000_0001)),
            path(&format!("sim:{spec}"), "2:0:1:0", 0x0d, None),
        ];
        paths[1].enclosure = Some(kernel.clone());
        let errors = fill(&mut paths, Duration::from_secs(5));
        assert!(errors.is_empty(), "{errors:?}");
        let got = paths[0].enclosure.as_ref().unwrap();
        assert_eq!(
            (
                got.slot,
                got.enclosure_device.as_str(),
                got.component.as_str()
            ),
            (Some(1), "2:0:1:0", "element 1")
        );
        assert_eq!(paths[1].enclosure.as_ref(), Some(&kernel));
        assert!(paths[2].enclosure.is_none());
        assert!(
            paths[3].enclosure.is_none(),
            "the SES device sits in no slot"
        );
        // No 0Dh device: nothing asked, nothing placed.
        let mut only = vec![path("/dev/sg0", "0:0:1:0", 0, Some(e.slots[1].sas[1]))];
        assert!(fill(&mut only, Duration::from_secs(5)).is_empty());
        assert!(only[0].enclosure.is_none());
        // An unreadable 0Dh device is said, not fatal.
        let mut bad = vec![
            path("/dev/sg0", "0:0:1:0", 0, Some(e.slots[1].sas[1])),
            path("sim:enclosure?slots=0", "2:0:1:0", 0x0d, None),
        ];
        let errors = fill(&mut bad, Duration::from_secs(5));
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(bad[0].enclosure.is_none());
    }
}
