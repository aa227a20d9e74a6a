# The benchmark engine (issue 12): scsi_debug (one LU) and the TCMU-served virtual drive in one
# guest, no emulated HBA. Checks in 10-scsi-debug.sh (sg and uring engines vs fio) and
# 20-tcmu.sh (520-byte and PI type 1 formats through sg, fio refusing 520).
VM_MEM=1536
VM_TIMEOUT=600
