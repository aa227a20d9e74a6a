# The virtual HK4E (a SATA SSD behind a SATL) served by `sgctl sim serve --tcmu`
# through LIO (TCMU + tcm_loop), checked with smartctl -d sat, hdparm and sg_sat_identify. Its own
# boot: the tcmu group already uses its whole time budget.
VM_MEM=1024
VM_TIMEOUT=420
