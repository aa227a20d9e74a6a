//! The SES backend of [`super`] (the slot LEDs): a slot's LEDs driven with SES-4 diagnostic pages
//! over the enclosure services device itself, for a drive no kernel enclosure
//! (`/sys/class/enclosure`) holds: a host without the ses driver, or a virtual enclosure
//! (`sim:enclosure`).
//!
//! The slot is found by SAS address: the Configuration page (01h) lays out the elements, the
//! Additional Element Status page (0Ah, SES-4 7.2.13, SAS protocol-specific descriptors)
//! lists, per Device Slot or Array Device Slot element, the SAS address of each phy of the
//! device in the slot; the one listing a target port SAS address of the drive (VPD 83h,
//! association target port, or the SAS transport class's address) is the drive's slot.
//! A change reads the Enclosure Status page (02h), builds the Enclosure Control page with
//! [`crate::ses::control_page_set_leds`] (read-modify-write, expected generation code) and
//! sends it with SEND DIAGNOSTIC; [`super::apply`] then reads the status page
//! again and checks the LED.

use super::{Led, LedBackend};
use crate::host::SlotRef;
use crate::ses::{self, Detail};
use crate::transport::{check, DataBuf, Transport};
use std::cell::RefCell;
use std::time::Duration;

pub(crate) use crate::discover::ses_slots::SesSlot;
use crate::discover::ses_slots::{config, parse_sas, read_page};

/// The SAS addresses in `addresses` (`0x…`, `naa.…` or bare hex), unreadable and zero ones
/// left out.
pub fn sas_addresses<'a>(addresses: impl IntoIterator<Item = &'a str>) -> Vec<u64> {
    let mut v: Vec<u64> = addresses.into_iter().filter_map(parse_sas).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Finds the slot whose device has one of the SAS addresses `ports`, in the enclosure
/// services device `address` open as `t`; `None` when no slot lists any of them.
pub(crate) fn find_slot(
    t: &mut dyn Transport,
    address: &str,
    ports: &[u64],
    timeout: Duration,
) -> crate::Result<Option<SesSlot>> {
    Ok(crate::discover::ses_slots::slots(t, address, timeout)?
        .into_iter()
        .find(|s| s.sas.iter().any(|a| ports.contains(a))))
}

/// A slot's LEDs through Enclosure Status / Enclosure Control pages sent to its enclosure
/// services device.
pub(crate) struct SesLed {
    address: String,
    element_index: u32,
    timeout: Duration,
    t: RefCell<Box<dyn Transport>>,
}

impl SesLed {
    /// For element `element_index` of the enclosure services device `address`, open as `t`.
    pub(crate) fn new(
        address: &str,
        element_index: u32,
        t: Box<dyn Transport>,
        timeout: Duration,
    ) -> SesLed {
        SesLed {
            address: address.to_string(),
            element_index,
            timeout,
            t: RefCell::new(t),
        }
    }

    /// The Enclosure Control page that would set `led` to `on` now.
    pub(crate) fn control_page(&self, led: Led, on: bool) -> crate::Result<Vec<u8>> {
        let mut t = self.t.borrow_mut();
        let c = config(&mut **t, self.timeout)?;
        let status = read_page(&mut **t, ses::page::ENCLOSURE_STATUS, self.timeout)?;
        let req = match led {
            Led::Locate => ses::LedRequest {
                ident: Some(on),
                fault: None,
            },
            Led::Fault => ses::LedRequest {
                ident: None,
                fault: Some(on),
            },
        };
        Ok(ses::control_page_set_leds(
            &c,
            &status,
            self.element_index,
            req,
        )?)
    }
}

impl LedBackend for SesLed {
    fn kind(&self) -> &'static str {
        "ses"
    }

    fn target(&self) -> String {
        self.address.clone()
    }

    fn describe(&self, led: Led) -> String {
        format!(
            "{} element {} {}",
            self.address,
            self.element_index,
            match led {
                Led::Locate => "RQST IDENT",
                Led::Fault => "RQST FAULT",
            }
        )
    }

    fn get(&self, led: Led) -> Option<bool> {
        let mut t = self.t.borrow_mut();
        let c = config(&mut **t, self.timeout).ok()?;
        let page = read_page(&mut **t, ses::page::ENCLOSURE_STATUS, self.timeout).ok()?;
        let st = ses::decode_status(&c, &page).ok()?;
        if !st.problems.is_empty() {
            return None;
        }
        match &st.page.element(self.element_index)?.1.detail {
            Detail::Slot(s) => Some(match led {
                Led::Locate => s.ident,
                Led::Fault => s.fault_requested,
            }),
            _ => None,
        }
    }

    fn set(&self, led: Led, on: bool) -> crate::Result<()> {
        let page = self.control_page(led, on)?;
        let len = u16::try_from(page.len()).map_err(|_| {
            crate::Error::CheckFailed(format!("control page of {} bytes", page.len()))
        })?;
        let mut t = self.t.borrow_mut();
        let c = t.execute(
            &crate::scsi::send_diagnostic::SendDiagnosticCdb::new()
                .pf(true)
                .parameter_list_length(len)
                .build(),
            DataBuf::Out(&page),
            self.timeout,
        )?;
        check(&c)
    }

    fn plan(&self, led: Led, on: bool) -> Option<crate::Result<Vec<u8>>> {
        Some(self.control_page(led, on))
    }
}

/// The addresses of the enclosure services devices (peripheral device type 0Dh) in `scan`,
/// one per path (each SES device of a dual-expander enclosure is its own LU).
pub fn ses_device_addresses(scan: &crate::discover::Scan) -> Vec<String> {
    scan.drives
        .iter()
        .filter(|d| d.peripheral_type == Some(0x0d))
        .flat_map(|d| d.paths.iter().map(|p| p.address.clone()))
        .collect()
}

/// The enclosure services devices a scan with `opts` finds (none when the scan fails).
pub fn enclosure_services_devices(opts: &crate::discover::ScanOptions) -> Vec<String> {
    crate::discover::scan(opts)
        .map(|s| ses_device_addresses(&s))
        .unwrap_or_default()
}

/// What searching the enclosure services devices found.
pub struct SesSearch {
    /// One backend per device that holds the drive.
    pub backends: Vec<(SlotRef, Box<dyn LedBackend>)>,
    /// Devices that could not be opened or read (`address: error`).
    pub errors: Vec<String>,
}

/// Opens each enclosure services device in `devices` and keeps those with a slot holding a
/// device with one of the SAS addresses `ports`.
pub fn backends_for(devices: &[String], ports: &[u64], timeout: Duration) -> SesSearch {
    let mut out = SesSearch {
        backends: Vec::new(),
        errors: Vec::new(),
    };
    for dev in devices {
        let mut t = match crate::device::open(dev, crate::device::OpenOptions::default())
            .map(|o| o.transport)
        {
            Ok(t) => t,
            Err(e) => {
                out.errors.push(format!("{dev}: {e}"));
                continue;
            }
        };
        match find_slot(&mut *t, dev, ports, timeout) {
            Ok(Some(s)) => out.backends.push((
                s.place,
                Box::new(SesLed::new(dev, s.element_index, t, timeout)) as Box<dyn LedBackend>,
            )),
            Ok(None) => {}
            Err(e) => out.errors.push(format!("{dev}: {e}")),
        }
    }
    out
}
