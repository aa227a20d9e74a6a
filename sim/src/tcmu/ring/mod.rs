//! The TCMU command ring: layouts restated from the kernel's UAPI header
//! `include/uapi/linux/target_core_user.h` (Linux 6.1, TCMU_VERSION "2.0"; Debian's
//! linux-libc-dev ships the same file as /usr/include/linux/target_core_user.h) and the loop
//! that answers every entry from a [`Transport`](crate::transport::Transport).
//!
//! The shared area (`/dev/uioN` map 0) holds the mailbox at offset 0, the command ring at
//! `cmdr_off` (`cmdr_size` bytes), then the data area. The kernel appends entries and moves
//! `cmd_head`; we answer each entry in place and move `cmd_tail` (modulo `cmdr_size`). All
//! structures are `__attribute__((packed))`, so fields are read byte-wise here, never through
//! Rust references to the mapping. The memory is reached only through [`RingMem`], which the
//! mmap in `super::uio` and a plain `Vec<u8>` in tests implement.
//! The pieces: `layout` restates the UAPI offsets and flags, `mem` reads and writes the
//! shared area (the mailbox, one entry at a time) through [`RingMem`], and `server` is the
//! loop that answers entries from a [`Transport`](crate::transport::Transport).

pub(crate) mod layout;
pub(crate) mod mem;
pub(crate) mod server;

pub use layout::*;
pub use mem::*;
pub use server::*;

/// Test support: a TCMU mapping in plain memory, for tests and fuzz targets that play the
/// kernel's side of the ring (the unit tests' fake kernel, `fuzz/fuzz_targets/tcmu_ring.rs`).
/// Nothing here touches a device; it is public so that code outside this crate can use it.
pub mod testing {
    use super::{RingMem, MB_CMD_HEAD, MB_CMD_TAIL};

    /// A ring mapping held in a `Vec`: the bytes a kernel would share (mailbox at 0, the
    /// command ring at the mailbox's `cmdr_off`, the data area after it), every access
    /// bounds-checked, `cmd_head`/`cmd_tail` read and written in native byte order as the
    /// kernel's `__u32` fields are. Contents are whatever the caller puts there: a test lays
    /// out a valid ring, a fuzz target arbitrary bytes.
    /// A mapping too short for the mailbox reads `cmd_head`/`cmd_tail` as 0 (and
    /// `super::Mailbox::read` refuses it).
    #[derive(Debug, Clone, Default)]
    pub struct VecMem(pub Vec<u8>);

    impl VecMem {
        fn u32_at(&self, off: usize) -> u32 {
            self.0
                .get(off..off + 4)
                .and_then(|b| b.try_into().ok())
                .map_or(0, u32::from_ne_bytes)
        }
    }

    impl RingMem for VecMem {
        fn len(&self) -> usize {
            self.0.len()
        }
        fn read(&self, off: usize, buf: &mut [u8]) -> bool {
            match off.checked_add(buf.len()) {
                Some(end) if end <= self.0.len() => {
                    buf.copy_from_slice(&self.0[off..end]);
                    true
                }
                _ => false,
            }
        }
        fn write(&mut self, off: usize, buf: &[u8]) -> bool {
            match off.checked_add(buf.len()) {
                Some(end) if end <= self.0.len() => {
                    self.0[off..end].copy_from_slice(buf);
                    true
                }
                _ => false,
            }
        }
        fn load_head(&self) -> u32 {
            self.u32_at(MB_CMD_HEAD.off())
        }
        fn load_tail(&self) -> u32 {
            self.u32_at(MB_CMD_TAIL.off())
        }
        fn store_tail(&mut self, v: u32) {
            if let Some(b) = self.0.get_mut(MB_CMD_TAIL.range()) {
                b.copy_from_slice(&v.to_ne_bytes());
            }
        }
        fn slice(&self, off: usize, len: usize) -> Option<&[u8]> {
            self.0.get(off..off.checked_add(len)?)
        }
        fn slice_mut(&mut self, off: usize, len: usize) -> Option<&mut [u8]> {
            self.0.get_mut(off..off.checked_add(len)?)
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;

#[cfg(test)]
mod perf;

#[cfg(test)]
mod closed_loop;
