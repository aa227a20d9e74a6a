# The virtual SAS SSD served by `sgctl sim serve --tcmu` through LIO (TCMU + tcm_loop) inside the
# guest: no emulated HBA needed. More memory for fio and the ramdisk backstore of the benchmark.
VM_MEM=1536
VM_TIMEOUT=600
