# Benchmark (vm/bench.sh): in one boot, `sgctl scan` of 256 scsi_debug LUs vs the sg3_utils loop
# (lsscsi -g + sg_vpd -p di + sg_readcap per device) vs lsscsi -g alone; 1000 TEST UNIT READY
# through the library (tur_loop) vs sg_turs -n 1000. Each timing is the median of 3 runs.
. /vm/guest/lib.sh
R=/tmp/bench.txt
now() { cut -d' ' -f1 /proc/uptime; }
median3() { tr ' ' '\n' | sort -n | sed -n 2p; }
timeit() { # timeit NAME CMD... -> prints seconds (median of 3; /proc/uptime, 10 ms resolution)
  name=$1; shift
  ts=""
  for i in 1 2 3; do
    a=$(now); "$@" > /dev/null 2>&1; b=$(now)
    ts="$ts $(awk -v a="$a" -v b="$b" 'BEGIN{printf "%.2f", b - a}')"
  done
  m=$(echo $ts | median3)
  echo "$name: median ${m} s of [$ts ] for: $*" >> $R
  echo "$m"
}
sg3_loop() {
  lsscsi -g | awk '{print $NF}' | while read -r sg; do
    sg_vpd -p di "$sg"; sg_readcap "$sg"
  done
}
n=$(ls /sys/class/scsi_generic | wc -l)
echo "kernel $(uname -r), $n sg devices, $(nproc) vCPUs, sgctl $(sgctl --version)" > $R
# correctness first: the scan sees every LU
found=$(sgctl --json scan | jq '.data.drives | length')
echo "sgctl scan found $found drives" >> $R
s_scan=$(timeit sgctl_scan sgctl --json scan)
s_loop=$(timeit sg3_loop sg3_loop)
s_ls=$(timeit lsscsi_g lsscsi -g)
sg=$(ls /sys/class/scsi_generic | head -n1)
tur_out=$(tur_loop /dev/$sg 1000)
s_tur_lib=$(timeit tur_loop_1000 tur_loop /dev/$sg 1000)
s_tur_sg3=$(timeit sg_turs_1000 sg_turs -n 1000 /dev/$sg)
echo "tur_loop says: $tur_out" >> $R
awk -v scan="$s_scan" -v loop="$s_loop" -v ls="$s_ls" -v tl="$s_tur_lib" -v ts="$s_tur_sg3" 'BEGIN {
  printf "RATIO sg3_utils loop / sgctl scan = %.1fx\n", loop / scan
  printf "RATIO lsscsi -g / sgctl scan = %.2fx\n", ls / scan
  printf "RATIO sg_turs -n 1000 / library 1000 TUR = %.2fx (per command: library %.1f us, sg_turs %.1f us)\n", ts / tl, tl * 1000, ts * 1000
}' >> $R
cat $R
vm_export bench.txt $R
[ "$found" = "$n" ] && pass "scan_found_all_$n" || fail scan_found_all "sgctl scan found $found of $n"
pass measured
