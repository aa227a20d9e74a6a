#!/usr/bin/env bash
# Soak (not part of the suite: 10 minutes): fio 4K random writes at QD32 for 600 s on the virtual
# drive served through TCMU with its state file (state=), checking that no SCSI command times out
# (dmesg), fio sees no error, the state file is rewritten during the run and the data survives a
# restart (vm/groups/tcmu/45-state-soak.sh, which CI runs for 30 s). Boots the VM group `tcmu`
# with tcmu_soak=1; the group's other checks run too.
#
#   scripts/soak-tcmu.sh
set -euo pipefail
cd "$(dirname "$0")/.."
SGCTL_TCMU_SOAK=1 VM_KEEP=1 vm/run.sh tcmu >&2
grep -E '^VMTEST (SOAK|(PASS|FAIL) 45-state-soak)' vm/out/tcmu/results.txt | sed 's/^VMTEST /tcmu-soak: /'
