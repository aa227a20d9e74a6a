# Benchmark boot (not a test; scripts/bench-engine-vm.sh): sgctl's engines against fio in the
# guest -- scsi_debug through sg and sd, the TCMU-served virtual drive through sg -- 4K randread
# and randwrite x QD 1/32/128 x jobs 1/2, sgctl against fio, interleaved repetitions.
# The kernel hands unknown name=value words to init as environment variables.
VM_MEM=2048
EM_REPS=${EM_REPS:-3}
EM_SECS=${EM_SECS:-2}
VM_APPEND="EM_REPS=$EM_REPS EM_SECS=$EM_SECS EM_QDS=${EM_QDS:-1,32,128} EM_JOBS=${EM_JOBS:-1,2} EM_RWS=${EM_RWS:-randread,randwrite} EM_TARGETS=${EM_TARGETS:-sg,sd,tcmu}${EM_SDEBUG:+ EM_SDEBUG=$EM_SDEBUG}${EM_SD_BATCH:+ EM_SD_BATCH=$EM_SD_BATCH} VM_SCRIPT_TIMEOUT=6000"
# 12 cells x about 7 tool runs each, plus one per EM_SD_BATCH entry
EM_NB=$(echo "${EM_SD_BATCH:-}" | tr , '\n' | grep -c . || true)
VM_TIMEOUT=$(( 600 + EM_REPS * 12 * (7 + EM_NB) * (EM_SECS + 4) ))
