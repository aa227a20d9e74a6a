# Quick benchmark (issue 11): `sgctl scan` of the 256 scsi_debug LUs against `lsscsi -g`, median
# of 3 runs each, before the long 10-bench; the figures go to the console and to scan.txt.
. /vm/guest/lib.sh
R=/tmp/scan.txt
now() { cut -d' ' -f1 /proc/uptime; }
t3() { # t3 CMD... -> median seconds of 3 runs (/proc/uptime, 10 ms resolution)
  ts=""
  for i in 1 2 3; do
    a=$(now); "$@" > /dev/null 2>&1; b=$(now)
    ts="$ts $(awk -v a="$a" -v b="$b" 'BEGIN{printf "%.2f", b - a}')"
  done
  echo "$ts" | tr ' ' '\n' | grep . | sort -n | sed -n 2p
}
n=$(ls /sys/class/scsi_generic | wc -l)
out=$(sgctl --json scan)
found=$(echo "$out" | jq '.data.drives | length')
src=$(echo "$out" | jq -r '[.data.drives[].paths[].identity_source] | group_by(.) | map("\(.[0])=\(length)") | join(" ")')
s=$(t3 sgctl --json scan)
l=$(t3 lsscsi -g)
{
  echo "SCAN kernel $(uname -r), $n sg devices, $(nproc) vCPUs"
  echo "SCAN sgctl scan: found $found drives, identity_source: $src"
  echo "SCAN sgctl --json scan median ${s} s; lsscsi -g median ${l} s"
  awk -v s="$s" -v l="$l" 'BEGIN { if (l > 0) printf "SCAN ratio sgctl scan / lsscsi -g = %.1fx\n", s / l }'
} > $R
cat $R
vm_export scan.txt $R
[ "$found" = "$n" ] && pass "scan_found_all_$n" || fail scan_found_all "sgctl scan found $found of $n"
