# Guest side (engine-matrix): the engine group's devices, one scsi_debug LU (64 MiB, options from
# EM_SDEBUG) and the TCMU-served virtual drive.
. /vm/groups/engine/setup.sh
