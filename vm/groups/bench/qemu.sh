# Benchmark boot: 256 scsi_debug LUs; more memory for 256 sd/sg devices.
VM_MEM=2048
VM_TIMEOUT=900
