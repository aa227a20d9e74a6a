# Benchmark (not a test: nothing here judges the numbers): fio 4K random read and write at queue
# depth 1 and 32 through the TCMU path (sgctl serving the virtual drive) against LIO's in-kernel
# ramdisk backstore (rd_mcp) on tcm_loop in the same guest, reported as ratios. Three TCMU
# servings: `clock=virtual` (commands overlap on the drive's own clock and are answered in the
# media model's completion order without real sleeps: the TCMU path's speed with the model's
# ordering), the real clock answering one command at a time after its service time (the default)
# and the real clock with `--overlap` (each answered when its service time has passed in wall
# time). CI runs randread QD32 on the virtual and the real clock only, 2 s per side, to keep the
# plumbing working;
# scripts/bench-tcmu.sh boots with tcmu_bench=1 for the whole table, 20 s per cell, plus the
# randread cells with fio (and the server) pinned to CPU 0 ("pinned": every wake-up of the server
# a context switch on one vCPU instead of an IPI to the other, which under TCG is a host thread
# wake-up, milliseconds on a loaded host), against rd_mcp with fio pinned the same way.
# The benchmark's drive has no state file (the writes would make the final save long under TCG);
# the group's stateful drive is served again at the end for 99-stop.sh.
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
# (not $secs: lib.sh's wait_for uses that name)
bench_secs=2
cells="randread:32"
modes="virtual real"
fio_extra=""
if grep -q "tcmu_bench=1" /proc/cmdline; then
  bench_secs=20
  cells="randread:1 randread:32 randwrite:1 randwrite:32"
  modes="virtual real overlap pinned"
fi
# Narrower runs for repeated measurements (words on the kernel command line, e.g. through
# VM_APPEND_EXTRA): tcmu_bench_cells=randread:32,randwrite:32 tcmu_bench_modes=virtual
# tcmu_bench_reps=3 (each repetition measures rd_mcp before and after the TCMU servings).
arg() { tr ' ' '\n' < /proc/cmdline | sed -n "s/^$1=//p" | tail -n 1 | tr ',' ' '; }
[ -n "$(arg tcmu_bench_cells)" ] && cells=$(arg tcmu_bench_cells)
[ -n "$(arg tcmu_bench_modes)" ] && modes=$(arg tcmu_bench_modes)
reps=$(arg tcmu_bench_reps); reps=${reps:-1}
C=/sys/kernel/config/target
mkdir -p $C/core/rd_mcp_90/bench
echo rd_pages=65536 > $C/core/rd_mcp_90/bench/control
echo 1 > $C/core/rd_mcp_90/bench/enable
W=naa.5001405000b0b0b0
mkdir -p $C/loopback/$W/tpgt_1
echo naa.5001405000b0b0b1 > $C/loopback/$W/tpgt_1/nexus
mkdir $C/loopback/$W/tpgt_1/lun/lun_0
ln -s $C/core/rd_mcp_90/bench $C/loopback/$W/tpgt_1/lun/lun_0/rd
wait_for 30 sh -c 'lsscsi | grep -q RAMDISK' || lsscsi
rd=$(lsscsi | awk '/RAMDISK/ {print $NF; exit}')
# iops DEV RW QD: fio's IOPS (reads over 256 MiB, writes within 32 MiB).
iops() {
  size=256M; [ "$2" = randwrite ] && size=32M
  fio --name=bench --filename="$1" $fio_extra --ioengine=libaio --direct=1 --rw="$2" --bs=4k --iodepth="$3" \
      --size=$size --runtime="$bench_secs" --time_based --group_reporting --output-format=terse 2>/dev/null \
    | awk -F';' -v rw="$2" '{print (rw == "randread") ? $8 : $49; exit}'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "n/a" }'; }
# bench_serve OPTS [SERVE_ARGS [PREFIX]]: serve the benchmark's drive (no state file).
bench_serve() {
  rm -f /tmp/tcmu.ready /tmp/serve.rc
  sh -c "$3 sgctl sim serve $2 --tcmu 'px02smf080?capacity_gib=1&serial=TCMU0001&$1' --ready-file /tmp/tcmu.ready \
           > /tmp/serve.out 2> /tmp/serve.err & echo \$! > /tmp/serve.pid; wait \$!; echo \$? > /tmp/serve.rc" &
  wait_for 90 sh -c 'test -f /tmp/tcmu.ready || test -f /tmp/serve.rc'
  test -f /tmp/tcmu.ready || { cat /tmp/serve.err; return 1; }
  wait_for 30 sh -c '[ "$(lsscsi -g | grep -c PX02SMF080)" = 2 ]' || { lsscsi -g; return 1; }
}
# measure KEY DEV: every cell on DEV into R_<KEY>_<rw>_<qd> (busybox sh: no arrays).
measure() {
  for c in $cells; do
    v=$(iops "$2" "${c%:*}" "${c#*:}")
    eval "R_$1_${c%:*}_${c#*:}=\${v:-0}"
  done
}
get() { eval "echo \${R_$1_$2_$3:-0}"; }
stop_serve || fail bench_stop "serve exited $?"
ok=1
rep=1
while [ "$rep" -le "$reps" ]; do
measure rd "$rd"
if [ "${modes%pinned}" != "$modes" ]; then
  fio_extra="--cpus_allowed=0"; cells_all=$cells; cells="randread:1 randread:32"
  measure rdpinned "$rd"
  fio_extra=""; cells=$cells_all
fi
for mode in $modes; do
  case $mode in
    virtual) bench_serve clock=virtual ;;
    real) bench_serve speed=1 ;;
    overlap) bench_serve speed=1 --overlap ;;
    pinned) bench_serve clock=virtual "" "taskset -c 0" ;;
    # spinN: the virtual clock with the serving thread's spin after an answering pass set to N µs
    # (`virtual` uses the default, sim/src/tcmu/mod.rs SPIN: no spin).
    spin*) bench_serve clock=virtual "" "env SGCTL_TCMU_SPIN_US=${mode#spin}" ;;
  esac || { fail "bench_serve_$mode" "$(tail -n 5 /tmp/serve.err)"; continue; }
  if [ $mode = pinned ]; then
    fio_extra="--cpus_allowed=0"; cells_all=$cells; cells="randread:1 randread:32"
    measure $mode "$(tcmu_sd)"
    fio_extra=""; cells=$cells_all
  else
    measure $mode "$(tcmu_sd)"
  fi
  stop_serve; rc=$?
  [ $rc = 0 ] && pass "bench_serve_$mode" || fail "bench_serve_$mode" "serve exited $rc"
  # The ring counters of the last serving (out-of-order answers, answers per poke).
  grep -E '^port 1:' /tmp/serve.out | head -n 1
done
# rd_mcp again after the TCMU runs: the host's load drifts (other VMs), so each ratio is against
# the mean of the ramdisk's figures before and after.
measure rd2 "$rd"
for c in $cells; do
  rw=${c%:*}; qd=${c#*:}; b1=$(get rd $rw $qd); b2=$(get rd2 $rw $qd)
  b=$(( (b1 + b2) / 2 ))
  line="rw=$rw qd=$qd rd_mcp_iops=$b (before $b1, after $b2)"
  for mode in $modes; do
    [ $mode = pinned ] && continue
    a=$(get $mode $rw $qd)
    line="$line tcmu_${mode}_iops=$a ratio_$mode=$(ratio "$a" "$b")"
    [ "${a:-0}" -gt 0 ] 2>/dev/null || ok=0
  done
  if [ "${modes%pinned}" != "$modes" ] && [ $rw = randread ]; then
    bp=$(get rdpinned $rw $qd); a=$(get pinned $rw $qd)
    line="$line rd_mcp_pinned_iops=$bp tcmu_virtual_pinned_iops=$a ratio_pinned=$(ratio "$a" "$bp")"
  fi
  [ "$b1" -gt 0 ] 2>/dev/null && [ "$b2" -gt 0 ] 2>/dev/null || ok=0
  [ "$reps" -gt 1 ] && line="rep=$rep $line"
  echo "BENCH $line secs=$bench_secs (4K)"
  vm_result "BENCH $line secs=$bench_secs (4K)"
done
rep=$((rep + 1))
done
[ $ok = 1 ] && pass bench_ran || fail bench_ran "fio gave no numbers: $(set | grep '^R_')"
rm $C/loopback/$W/tpgt_1/lun/lun_0/rd
rmdir $C/loopback/$W/tpgt_1/lun/lun_0
echo NULL > $C/loopback/$W/tpgt_1/nexus
rmdir $C/loopback/$W/tpgt_1 $C/loopback/$W
rmdir $C/core/rd_mcp_90/bench $C/core/rd_mcp_90
# The group's stateful drive again, for 99-stop.sh.
start_serve speed=5 || fail bench_restore_serve "$(tail -n 5 /tmp/serve.err)"
