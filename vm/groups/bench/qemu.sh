# Benchmark boot: 256 scsi_debug LUs (1,024 after 90-scan-1024.sh); more memory for the sd/sg
# devices. Manual group: the timeout only has to fit a loaded host.
VM_MEM=3072
VM_TIMEOUT=2400
