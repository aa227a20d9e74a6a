# The benchmark engine: scsi_debug (one LU) and the TCMU-served virtual drive in one
# guest, no emulated HBA. Checks in 10-scsi-debug.sh (sg and uring engines vs fio) and
# 20-tcmu.sh (520-byte and PI type 1 formats through sg, fio refusing 520), 30-fail-midrun.sh
# (medium error injection and LU removal during a run: exit 4, sense decoded, partial results).
VM_MEM=1536
VM_TIMEOUT=600
