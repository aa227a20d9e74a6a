# Quick benchmark: `sgctl scan` of the 256 scsi_debug LUs against `lsscsi -g`, median
# of 5 runs each, the runs interleaved (sgctl, lsscsi, sgctl, ...) so a change of host load hits
# both alike. Run it alone with `VM_ONLY=05-scan vm/run.sh bench` (the bench group is manual). Other
# builds passed with VM_EXTRA_BINS (any /usr/bin/sgctl-* in the guest, e.g. a copy of the
# previous build named sgctl-before) are timed in the same boot. Figures: console and scan.txt.
. /vm/guest/lib.sh
R=/tmp/scan.txt
now() { cut -d' ' -f1 /proc/uptime; }
el() { a=$(now); "$@" > /dev/null 2>&1; b=$(now); awk -v a="$a" -v b="$b" 'BEGIN{printf "%.2f", b - a}'; }
med() { tr ' ' '\n' | grep . | sort -n | awk '{v[NR]=$1} END{print v[int((NR+1)/2)]}'; }
n=$(ls /sys/class/scsi_generic | wc -l)
bins="sgctl $(cd /usr/bin && ls sgctl-* 2>/dev/null | tr '\n' ' ')"
out=$(sgctl --json scan)
found=$(echo "$out" | jq '.data.drives | length')
multi=$(echo "$out" | jq '[.data.drives[] | select((.paths | length) != 1)] | length')
src=$(echo "$out" | jq -r '[.data.drives[].paths[].identity_source] | group_by(.) | map("\(.[0])=\(length)") | join(" ")')
for b in $bins; do eval "t_$(echo "$b" | tr -c 'a-z0-9\n' _)=''"; done
tl=""
for i in 1 2 3 4 5; do
  for b in $bins; do
    v=t_$(echo "$b" | tr -c 'a-z0-9\n' _)
    eval "$v=\"\$$v $(el "$b" --json scan)\""
  done
  tl="$tl $(el /usr/bin/lsscsi -g)"
done
l=$(echo "$tl" | med)
{
  echo "SCAN kernel $(uname -r), $n sg devices, $(nproc) vCPUs"
  echo "SCAN sgctl scan: found $found drives ($multi with other than one path), identity_source: $src"
  echo "SCAN lsscsi -g median ${l} s of [$tl ]"
  for b in $bins; do
    eval "ts=\$t_$(echo "$b" | tr -c 'a-z0-9\n' _)"
    s=$(echo "$ts" | med)
    awk -v b="$b" -v s="$s" -v l="$l" -v ts="$ts" \
      'BEGIN { printf "SCAN %s --json scan median %s s of [%s ]; ratio to lsscsi -g = %.1fx\n", b, s, ts, (l > 0 ? s / l : 0) }'
  done
} > $R
cat $R
vm_export scan.txt $R
[ "$found" = "$n" ] && pass "scan_found_all_$n" || fail scan_found_all "sgctl scan found $found of $n"
[ "$multi" = 0 ] && pass scan_one_path_per_lu || fail scan_one_path_per_lu "$multi drives with other than one path"
