/* Input to the bindings generator (`cargo run -p xtask -- gen-sys`).
 * <scsi/sg.h> comes from Debian's libc6-dev (glibc's copy, LGPL); <linux/bsg.h> from
 * linux-libc-dev (GPL-2.0 WITH Linux-syscall-note). Only plain structs and #define constants
 * are taken; the ioctl wrappers are written by hand in src/lib.rs. */
#include <scsi/sg.h>
#include <linux/bsg.h>
