# Benchmark (not a test), after 05-scan in the same boot: `sgctl scan` of 1,024 paths to 512
# dual-ported LUs against `lsscsi -g`, medians of 5 interleaved runs. scsi_debug is reloaded
# with two hosts of 2 targets x 256 LUs each and vpd_use_hostno=0: the LU name, serial and
# target port designator (VPD 0x83/0x80) then ignore the host number, so LU T:L of host A and
# of host B report one LU name, as the two ports of one dual-ported drive do (the multipath
# setup drivers/scsi/scsi_debug.c offers; unlike a real drive both paths report the same
# target port). Changes the topology for good (90+). Run:
# `VM_ONLY=05-scan,90-scan-1024 VM_SGCTL=target/release/sgctl VM_APPEND_EXTRA=VM_SCRIPT_TIMEOUT=900
# vm/run.sh bench` (attaching 1,024 LUs under TCG can take longer than the default 300 s).
# Figures: console and scan-1024.txt.
. /vm/guest/lib.sh
R=/tmp/scan-1024.txt
now() { cut -d' ' -f1 /proc/uptime; }
el() { a=$(now); "$@" > /dev/null 2>&1; b=$(now); awk -v a="$a" -v b="$b" 'BEGIN{printf "%.2f", b - a}'; }
med() { tr ' ' '\n' | grep . | sort -n | awk '{v[NR]=$1} END{print v[int((NR+1)/2)]}'; }
rmmod scsi_debug
wait_for 240 sh -c '[ -z "$(ls /sys/class/scsi_generic)" ]' || { fail reload "the 256 LUs did not go away"; exit 0; }
t0=$(now)
modprobe scsi_debug num_tgts=2 max_luns=256 add_host=2 vpd_use_hostno=0 dev_size_mb=4
wait_for 280 sh -c '[ "$(ls /sys/class/scsi_generic | wc -l)" -ge 1024 ]' || { fail reload "fewer than 1024 sg nodes"; exit 0; }
wait_for 280 sh -c '[ "$(ls /sys/class/scsi_disk | wc -l)" -ge 1024 ]' || { fail reload "sd did not attach to 1024 LUs"; exit 0; }
t1=$(now)
sleep 2
n=$(ls /sys/class/scsi_generic | wc -l)
out=$(sgctl --json scan)
found=$(echo "$out" | jq '.data.drives | length')
two=$(echo "$out" | jq '[.data.drives[] | select((.paths | length) == 2)] | length')
hosts=$(echo "$out" | jq '[.data.drives[] | select(([.paths[].host] | unique | length) == 2)] | length')
ts=""; tl=""
for i in 1 2 3 4 5; do
  ts="$ts $(el sgctl --json scan)"
  tl="$tl $(el /usr/bin/lsscsi -g)"
done
s=$(echo "$ts" | med); l=$(echo "$tl" | med)
{
  echo "SCAN1024 kernel $(uname -r), $n sg devices, $(nproc) vCPUs; attach took $(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.0f", b - a}') s"
  echo "SCAN1024 sgctl scan: found $found drives, $two with two paths, $hosts reached through two hosts"
  echo "SCAN1024 lsscsi -g median ${l} s of [$tl ]"
  awk -v s="$s" -v l="$l" -v ts="$ts" -v n="$n" \
    'BEGIN { printf "SCAN1024 sgctl --json scan median %s s of [%s ]; ratio to lsscsi -g = %.1fx; %.2f ms per path\n", s, ts, (l > 0 ? s / l : 0), s * 1000 / n }'
} > $R
cat $R
vm_export scan-1024.txt $R
[ "$n" -ge 1024 ] && [ "$found" = $((n / 2)) ] && pass "scan_groups_${n}_paths_into_$found" ||
  fail scan_groups "found $found drives for $n paths"
[ "$two" = "$found" ] && [ "$hosts" = "$found" ] && pass scan_two_paths_per_lu ||
  fail scan_two_paths_per_lu "$two of $found drives with two paths, $hosts through two hosts"
