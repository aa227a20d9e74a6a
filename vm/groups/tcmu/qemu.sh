# The virtual SAS SSD served by `sgctl sim serve --tcmu` through LIO (TCMU + tcm_loop) inside the
# guest: no emulated HBA needed. More memory for fio and the ramdisk backstore of the benchmark.
VM_MEM=1536
# The group's checks took ~600 s on a loaded 2-core host before 45-state-soak.sh (30 s) and
# 50-persist.sh; 6x-tcg-*.sh add about two minutes of sg_raw exchanges.
# 63-server-stop.sh and 64-sigint-phases.sh add ~90 s under load (mostly drive time and server
# restarts: two sanitizes and three formats they interrupt and recover).
VM_TIMEOUT=1500
# scripts/bench-tcmu.sh sets SGCTL_TCMU_BENCH=1 for the long benchmark run (80-bench.sh);
# scripts/soak-tcmu.sh sets SGCTL_TCMU_SOAK=1 for the 10-minute write run (45-state-soak.sh).
# Both run past the guest's 300 s per-script limit: VM_SCRIPT_TIMEOUT reaches the guest's init
# as an environment variable (the kernel hands unknown name=value words to init).
VM_APPEND="tcmu_bench=${SGCTL_TCMU_BENCH:-0} tcmu_soak=${SGCTL_TCMU_SOAK:-0}"
if [ "${SGCTL_TCMU_SOAK:-0}" = 1 ] || [ "${SGCTL_TCMU_BENCH:-0}" = 1 ]; then
  VM_APPEND="$VM_APPEND VM_SCRIPT_TIMEOUT=900"
  VM_TIMEOUT=1800
fi
if [ "${SGCTL_TCMU_SOAK:-0}" = 1 ] && [ "${SGCTL_TCMU_BENCH:-0}" = 1 ]; then VM_TIMEOUT=3000; fi
