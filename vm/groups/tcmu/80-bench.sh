# Benchmark (not a test: nothing here judges the numbers): fio 4K random read at queue depth 32
# through the TCMU path (sgctl serving the virtual drive) against LIO's in-kernel ramdisk backstore
# (rd_mcp) on tcm_loop in the same guest, reported as ratios. Two TCMU numbers: the drive with its
# modeled media latency (real clock; commands overlap and each is answered when the media model
# says it completes) and with `clock=virtual` (no modeled latency: the TCMU path and model CPU cost). CI runs it short (2 s per side) to
# keep the plumbing working; scripts/bench-tcmu.sh boots with tcmu_bench=1 for 20 s per side.
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
# (not $secs: lib.sh's wait_for uses that name)
bench_secs=2
grep -q "tcmu_bench=1" /proc/cmdline && bench_secs=20
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
sd=$(tcmu_sd)
iops() {
  fio --name=bench --filename="$1" --ioengine=libaio --direct=1 --rw=randread --bs=4k --iodepth=32 \
      --size=256M --runtime="$bench_secs" --time_based --group_reporting --output-format=terse 2>/dev/null \
    | awk -F';' '{print $8; exit}'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "n/a" }'; }
b=$(iops "$rd")
a=$(iops "$sd")
stop_serve
start_serve clock=virtual || fail bench_restart "$(tail -n 5 /tmp/serve.err)"
sd=$(tcmu_sd)
v=$(iops "$sd")
line="rd_mcp_iops=$b tcmu_modeled_latency_iops=$a tcmu_virtual_clock_iops=$v"
line="$line ratio_modeled=$(ratio "$a" "$b") ratio_virtual=$(ratio "$v" "$b") secs=$bench_secs (4K randread QD32)"
echo "BENCH $line"
vm_result "BENCH $line"
[ "${a:-0}" -gt 0 ] && [ "${b:-0}" -gt 0 ] && [ "${v:-0}" -gt 0 ] && pass bench_ran || fail bench_ran "fio gave no numbers: '$a' '$b' '$v'"
rm $C/loopback/$W/tpgt_1/lun/lun_0/rd
rmdir $C/loopback/$W/tpgt_1/lun/lun_0
echo NULL > $C/loopback/$W/tpgt_1/nexus
rmdir $C/loopback/$W/tpgt_1 $C/loopback/$W
rmdir $C/core/rd_mcp_90/bench $C/core/rd_mcp_90
