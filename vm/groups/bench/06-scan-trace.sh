# Where one `sgctl --json scan` of the 256 LUs spends its time (not a test): `strace -f -c`
# (system calls by count and time) and `strace -f -tt` (the timeline), beside the start-up 
# alone (`sgctl --version`) and the same for `lsscsi -g`. Needs strace in the guest:
# `VM_EXTRA_TOOLS=strace VM_ONLY=06-scan-trace vm/run.sh bench` (VM_KEEP=1 keeps the exports
# strace-c.txt, strace-tt.txt and lsscsi-strace-c.txt under vm/out/bench/export/).
. /vm/guest/lib.sh
command -v strace > /dev/null || { skip scan_trace "no strace in the guest (VM_EXTRA_TOOLS=strace)"; exit 0; }
now() { cut -d' ' -f1 /proc/uptime; }
el() { a=$(now); "$@" > /dev/null 2>&1; b=$(now); awk -v a="$a" -v b="$b" 'BEGIN{printf "%.3f", b - a}'; }
t0=$(now)
echo "TRACE lsscsi -g: $(el /usr/bin/lsscsi -g) $(el /usr/bin/lsscsi -g) s"
strace -f -c -o /tmp/lc.txt /usr/bin/lsscsi -g > /dev/null
head -30 /tmp/lc.txt | sed "s/^/TRACE lsscsi c: /"
vm_export lsscsi-strace-c.txt /tmp/lc.txt
bins="sgctl $(cd /usr/bin && ls sgctl-* 2>/dev/null)"
for b in $bins; do
  echo "TRACE $b --version: $(el "$b" --version) $(el "$b" --version) $(el "$b" --version) s"
  echo "TRACE $b --json scan: $(el "$b" --json scan) $(el "$b" --json scan) s"
  for i in 1 2; do SGCTL_SCAN_TIMES=1 "$b" --json scan 2>&1 > /dev/null | sed "s/^/TRACE $b /"; done
  strace -f -c -o /tmp/c.txt "$b" --json scan > /dev/null
  head -40 /tmp/c.txt | sed "s/^/TRACE $b c: /"
  vm_export "strace-c-$b.txt" /tmp/c.txt
done
# The timeline last, and only while the script is far from its 300 s limit (a loaded host
# makes `strace -tt` of a scan take minutes under TCG).
for b in $bins; do
  awk -v a="$t0" '{exit !($1 - a < 120)}' /proc/uptime || { echo "TRACE $b -tt: skipped (time)"; continue; }
  strace -f -tt -o /tmp/tt.txt "$b" --json scan > /dev/null
  gzip -c /tmp/tt.txt > /tmp/tt.gz
  vm_export "strace-tt-$b.txt.gz" /tmp/tt.gz
done
pass scan_trace
