/* Input to the bindings generator (`cargo run -p xtask -- gen-sys`).
 * <scsi/sg.h> comes from Debian's libc6-dev (glibc's copy, LGPL); <linux/bsg.h> from
 * linux-libc-dev (GPL-2.0 WITH Linux-syscall-note), as does <linux/target_core_user.h> (the
 * TCMU command ring; its layouts are used to check sgctl's restated offsets in src/tcmu/ring.rs).
 * Only plain structs and #define constants are taken; the ioctl wrappers are written by hand in
 * src/lib.rs. */
#include <scsi/sg.h>
#include <linux/bsg.h>
#include <linux/target_core_user.h>

/* struct tcmu_mailbox and struct tcmu_cmd_entry are packed structs holding aligned members, which
 * Rust cannot express (bindgen makes them opaque), so their field offsets are exported as
 * compiler-computed enum constants instead; src/tcmu/ring.rs tests its restated offsets
 * against these. */
#include <stddef.h>
enum sgctl_tcmu_layout {
	SGCTL_TCMU_MB_SIZE = sizeof(struct tcmu_mailbox),
	SGCTL_TCMU_MB_VERSION = offsetof(struct tcmu_mailbox, version),
	SGCTL_TCMU_MB_FLAGS = offsetof(struct tcmu_mailbox, flags),
	SGCTL_TCMU_MB_CMDR_OFF = offsetof(struct tcmu_mailbox, cmdr_off),
	SGCTL_TCMU_MB_CMDR_SIZE = offsetof(struct tcmu_mailbox, cmdr_size),
	SGCTL_TCMU_MB_CMD_HEAD = offsetof(struct tcmu_mailbox, cmd_head),
	SGCTL_TCMU_MB_CMD_TAIL = offsetof(struct tcmu_mailbox, cmd_tail),
	SGCTL_TCMU_ENTRY_SIZE = sizeof(struct tcmu_cmd_entry),
	SGCTL_TCMU_REQ_IOV_CNT = offsetof(struct tcmu_cmd_entry, req.iov_cnt),
	SGCTL_TCMU_REQ_IOV_BIDI_CNT = offsetof(struct tcmu_cmd_entry, req.iov_bidi_cnt),
	SGCTL_TCMU_REQ_IOV_DIF_CNT = offsetof(struct tcmu_cmd_entry, req.iov_dif_cnt),
	SGCTL_TCMU_REQ_CDB_OFF = offsetof(struct tcmu_cmd_entry, req.cdb_off),
	SGCTL_TCMU_REQ_IOV = offsetof(struct tcmu_cmd_entry, req.iov),
	SGCTL_TCMU_IOVEC_SIZE = sizeof(struct iovec),
	SGCTL_TCMU_RSP_SCSI_STATUS = offsetof(struct tcmu_cmd_entry, rsp.scsi_status),
	SGCTL_TCMU_RSP_READ_LEN = offsetof(struct tcmu_cmd_entry, rsp.read_len),
	SGCTL_TCMU_RSP_SENSE = offsetof(struct tcmu_cmd_entry, rsp.sense_buffer),
};
