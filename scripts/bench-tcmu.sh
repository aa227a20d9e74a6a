#!/usr/bin/env bash
# Benchmark (not a test): fio 4K random read and write at queue depth 1 and 32 on the virtual
# drive served through TCMU (`sgctl sim serve --tcmu`: virtual clock, real clock, real clock with
# --overlap) versus LIO's in-kernel ramdisk backstore (rd_mcp), both on tcm_loop in the same QEMU
# guest (TCG), 20 s per cell; prints the IOPS and ratios. Boots the VM group `tcmu`
# (vm/groups/tcmu/80-bench.sh) with tcmu_bench=1; the group's checks run too. The guest's sgctl
# is a release build (VM_PROFILE=dev measures the debug build CI runs).
#
#   scripts/bench-tcmu.sh
set -euo pipefail
cd "$(dirname "$0")/.."
VM_PROFILE="${VM_PROFILE:-release}" SGCTL_TCMU_BENCH=1 VM_KEEP=1 vm/run.sh tcmu >&2
grep '^VMTEST BENCH ' vm/out/tcmu/results.txt | sed 's/^VMTEST BENCH /tcmu-bench: /'
