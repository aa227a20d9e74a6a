//! `/dev/uioN` of a TCMU backstore: find it by name, map region 0 (mailbox + command ring +
//! data area, Documentation/target/tcmu-design.rst), wait for the kernel's "interrupt" and poke
//! it back after answering (a 4-byte write reaches `tcmu_irqcontrol`).
#![allow(unsafe_code)] // ioctl/mmap on kernel interfaces; each block says why it is sound

use super::ring::{RingMem, MB_CMD_HEAD, MB_CMD_TAIL};
use crate::error::{Error, Result};
use nix::errno::Errno;
use nix::poll::{PollFd, PollFlags};
use nix::sys::mman::{mmap, munmap, MapFlags, ProtFlags};
use std::ffi::c_void;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::num::NonZeroUsize;
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};
use std::ptr::NonNull;
use std::sync::atomic::{fence, Ordering};
use std::time::Duration;

/// Finds the uio device whose `name` is `tcm-user/<hba>/<dev>/<subtype>/<cfg>` for this
/// backstore (target_core_user.c `tcmu_configure_device`). Returns `uioN`.
pub(crate) fn find_uio(sysfs_uio: &Path, hba: u32, dev: &str) -> Option<String> {
    let prefix = format!("tcm-user/{hba}/{dev}/");
    let entries = std::fs::read_dir(sysfs_uio).ok()?;
    for e in entries.flatten() {
        let name = std::fs::read_to_string(e.path().join("name")).unwrap_or_default();
        if name.trim_end().starts_with(&prefix) {
            return Some(e.file_name().to_string_lossy().into_owned());
        }
    }
    None
}

/// Parses a sysfs map size such as `0x40800000`.
pub fn parse_map_size(s: &str) -> Option<usize> {
    let t = s.trim();
    let hex = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X"));
    match hex {
        Some(h) => usize::from_str_radix(h, 16).ok(),
        None => t.parse().ok(),
    }
}

/// An open and mapped `/dev/uioN`.
pub(crate) struct Uio {
    file: File,
    base: NonNull<c_void>,
    len: usize,
    /// `uioN`
    pub name: String,
}

// SAFETY: the mapping is owned by this value alone (no aliases are handed out; every access
// goes through &self/&mut self methods that copy bytes), so moving it to the serving thread is
// sound.
unsafe impl Send for Uio {}

impl Uio {
    /// Opens `/dev/<name>` and maps region 0 with the size from
    /// `/sys/class/uio/<name>/maps/map0/size`.
    pub(crate) fn open(dev_dir: &Path, sysfs_uio: &Path, name: &str) -> Result<Uio> {
        let size_path = sysfs_uio.join(name).join("maps/map0/size");
        let size_text = std::fs::read_to_string(&size_path)
            .map_err(|e| Error::io(size_path.display().to_string(), e))?;
        let len = parse_map_size(&size_text)
            .and_then(NonZeroUsize::new)
            .ok_or_else(|| {
                Error::Unsupported(format!(
                    "{}: bad map size {size_text:?}",
                    size_path.display()
                ))
            })?;
        let path: PathBuf = dev_dir.join(name);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .map_err(|e| Error::io(format!("open {}", path.display()), e))?;
        // SAFETY: a fresh shared mapping of the uio region chosen by the kernel (addr None);
        // offset 0 selects map 0 (uio_mmap: offset / PAGE_SIZE is the map index). The pointer is
        // only dereferenced through bounds-checked copies below and unmapped in Drop.
        let base = unsafe {
            mmap(
                None,
                len,
                ProtFlags::PROT_READ | ProtFlags::PROT_WRITE,
                MapFlags::MAP_SHARED,
                file.as_fd(),
                0,
            )
        }
        .map_err(|e| Error::Os {
            op: "mmap",
            path: path.display().to_string(),
            errno: e,
            hint: None,
        })?;
        Ok(Uio {
            file,
            base,
            len: len.get(),
            name: name.into(),
        })
    }

    /// Waits up to `timeout` for the kernel to signal new entries; consumes the event count.
    /// Returns true if there was an event (callers process the ring either way).
    pub(crate) fn wait(&mut self, timeout: Duration) -> Result<bool> {
        // ppoll: nanosecond timeouts, so answers due in tens of microseconds are not rounded
        // up to a millisecond.
        let mut fds = [PollFd::new(self.file.as_fd(), PollFlags::POLLIN)];
        let ts = nix::sys::time::TimeSpec::from_duration(timeout);
        match nix::poll::ppoll(&mut fds, Some(ts), None) {
            Ok(0) | Err(Errno::EINTR) => Ok(false),
            Ok(_) => {
                let mut count = [0u8; 4];
                match self.file.read(&mut count) {
                    Ok(_) => Ok(true),
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => Ok(false),
                    Err(e) => Err(Error::io(format!("read /dev/{}", self.name), e)),
                }
            }
            Err(e) => Err(Error::Os {
                op: "poll",
                path: format!("/dev/{}", self.name),
                errno: e,
                hint: None,
            }),
        }
    }

    /// Tells the kernel the tail moved (target_core_user.c `tcmu_irqcontrol`).
    pub(crate) fn notify(&mut self) -> Result<()> {
        self.file
            .write_all(&0u32.to_ne_bytes())
            .map_err(|e| Error::io(format!("write /dev/{}", self.name), e))
    }

    fn ptr(&self, off: usize) -> *mut u8 {
        // Callers check `off` is within the mapping.
        self.base.as_ptr().cast::<u8>().wrapping_add(off)
    }
}

impl RingMem for Uio {
    fn len(&self) -> usize {
        self.len
    }

    fn read(&self, off: usize, buf: &mut [u8]) -> bool {
        match off.checked_add(buf.len()) {
            Some(end) if end <= self.len => {
                // SAFETY: [off, end) lies inside the live mapping; the kernel does not write the
                // bytes of an entry or data buffer it has handed us while we own it, and `buf`
                // is a distinct Rust allocation.
                unsafe {
                    std::ptr::copy_nonoverlapping(self.ptr(off), buf.as_mut_ptr(), buf.len())
                };
                true
            }
            _ => false,
        }
    }

    fn write(&mut self, off: usize, buf: &[u8]) -> bool {
        match off.checked_add(buf.len()) {
            Some(end) if end <= self.len => {
                // SAFETY: [off, end) lies inside the live, writable mapping; it belongs to an
                // entry or data buffer we own until we advance cmd_tail.
                unsafe { std::ptr::copy_nonoverlapping(buf.as_ptr(), self.ptr(off), buf.len()) };
                true
            }
            _ => false,
        }
    }

    fn load_head(&self) -> u32 {
        // SAFETY: offset 12 is inside the mailbox (the mapping is at least a page) and 4-byte
        // aligned (the mapping is page aligned); the kernel updates it concurrently, hence the
        // volatile read followed by an acquire fence (pairs with the kernel's smp_store_release
        // / wmb before moving cmd_head).
        let v = unsafe { std::ptr::read_volatile(self.ptr(MB_CMD_HEAD.off()).cast::<u32>()) };
        fence(Ordering::Acquire);
        v
    }

    fn load_tail(&self) -> u32 {
        // SAFETY: offset 64 is inside the mapping and 4-byte aligned; only we write it.
        unsafe { std::ptr::read_volatile(self.ptr(MB_CMD_TAIL.off()).cast::<u32>()) }
    }

    fn store_tail(&mut self, v: u32) {
        // Answers written before must be visible before the kernel sees the new tail.
        fence(Ordering::Release);
        // SAFETY: as in load_tail; aligned, in bounds, written only by us.
        unsafe { std::ptr::write_volatile(self.ptr(MB_CMD_TAIL.off()).cast::<u32>(), v) }
    }

    fn slice(&self, off: usize, len: usize) -> Option<&[u8]> {
        let end = off.checked_add(len)?;
        (end <= self.len).then(|| {
            // SAFETY: inside the mapping (checked), which lives as long as `self`. Only a
            // command's data area is lent, while the command is ours: the kernel wrote it
            // before queueing the entry and reads it after our answer (target_core_user.c),
            // so nothing else writes it while the slice lives.
            unsafe { std::slice::from_raw_parts(self.ptr(off), len) }
        })
    }

    fn slice_mut(&mut self, off: usize, len: usize) -> Option<&mut [u8]> {
        let end = off.checked_add(len)?;
        (end <= self.len).then(|| {
            // SAFETY: as in `slice`; `&mut self` keeps this the only slice we hand out.
            unsafe { std::slice::from_raw_parts_mut(self.ptr(off), len) }
        })
    }
}

impl Drop for Uio {
    fn drop(&mut self) {
        // SAFETY: `base`/`len` are exactly the mapping created in `open`, not used after this.
        let _ = unsafe { munmap(self.base, self.len) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_sizes() {
        assert_eq!(parse_map_size("0x40800000\n"), Some(0x4080_0000));
        assert_eq!(parse_map_size("4096"), Some(4096));
        assert_eq!(parse_map_size("0xzz"), None);
        assert_eq!(parse_map_size(""), None);
    }

    #[test]
    fn finds_uio_by_backstore_name() {
        let d = tempfile::tempdir().unwrap();
        for (n, name) in [
            ("uio0", "tcm-user/1/other_p1/sgctl/x\n"),
            ("uio1", "tcm-user/7/sgctl_p2/sgctl/px-p2\n"),
            ("uio2", "tcm-user/7/sgctl_p1/sgctl/px-p1\n"),
        ] {
            std::fs::create_dir(d.path().join(n)).unwrap();
            std::fs::write(d.path().join(n).join("name"), name).unwrap();
        }
        assert_eq!(find_uio(d.path(), 7, "sgctl_p1").as_deref(), Some("uio2"));
        assert_eq!(find_uio(d.path(), 7, "sgctl_p2").as_deref(), Some("uio1"));
        assert_eq!(find_uio(d.path(), 1, "sgctl_p1"), None);
    }
}
