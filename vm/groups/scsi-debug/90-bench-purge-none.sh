# The benchmark suite on a real SCSI stack that cannot be purged: scsi_debug has no
# SANITIZE, so `sgctl bench pts --purge none` runs and the report says NOT PURGED in
# report.json and report.html; the same drive mounted is refused by the gate (exit 6); WCE
# is cleared during the run and restored (sdparm before/during/after). ActiveRange 50 %
# (4 MiB) and --time-scale 0.0005 (a 1-minute cell is 30 ms) keep it to seconds. The run holds
# --cpu-latency 0: the PM QoS limit is read back during and after it.
. /vm/guest/lib.sh
export SGCTL_AUDIT_LOG=/tmp/audit-bench-none.jsonl
sd=$(lsscsi | awk '$2 == "disk" && /scsi_debug/ {print $NF}' | sed -n 6p)
sg=$(lsscsi -g | awk -v d="$sd" '$(NF-1) == d {print $NF}')
[ -n "$sg" ] || { fail setup "no sixth scsi_debug disk: $(lsscsi -g | tr '\n' '|')"; exit 0; }
sgctl --json scan > /tmp/bn-scan.json
serial=$(jq -r --arg b "$sd" '.data.drives[] | select(any(.paths[]; .block == $b)) | .serial' /tmp/bn-scan.json)
[ -n "$serial" ] || { fail setup "no serial for $sd"; exit 0; }
wce() { sdparm --get=WCE "$1" 2>/dev/null | awk '$1 == "WCE" {print $2; exit}'; }
run() { # extra args...
  sgctl bench pts "$sg" --engine sg --test lat --active-range 50 --time-scale 0.0005 \
    --max-rounds 6 --confirm "$serial" "$@" </dev/null
}

# Mounted: refused before anything is sent.
modprobe crc32c_generic 2>/dev/null; modprobe ext4 2>/dev/null
mkdir -p /mnt/bn
mke2fs -q "$sd" >/dev/null && mount -t ext2 "$sd" /mnt/bn || fail setup "could not mount $sd"
out=$(run --purge none --report /tmp/bn-mounted 2>&1); rc=$?
umount /mnt/bn
[ $rc = 6 ] && echo "$out" | grep -qi "mounted" && pass mounted_refused "exit 6" \
  || fail mounted_refused "exit $rc: $(echo "$out" | tail -n 2)"
[ ! -e /tmp/bn-mounted/report.json ] && pass mounted_nothing_run || fail mounted_nothing_run "a report was written"

# A purge method it lacks: exit 7 with the methods it has.
out=$(run --purge block --report /tmp/bn-block 2>&1); rc=$?
[ $rc = 7 ] && echo "$out" | grep -q "methods it has" && pass purge_block_exit_7 "$(echo "$out" | tail -n 1)" \
  || fail purge_block_exit_7 "exit $rc: $(echo "$out" | tail -n 2)"

before=$(wce "$sg")
rm -rf /tmp/bn
qos() { od -An -td4 -N4 /dev/cpu_dma_latency 2>/dev/null | tr -d ' '; }
qos_before=$(qos)
cl=""; [ -c /dev/cpu_dma_latency ] && cl="--cpu-latency 0"
run --purge none --report /tmp/bn $cl >/tmp/bn.out 2>/tmp/bn.err &
pid=$!
during=""; qos_during=""
while kill -0 $pid 2>/dev/null; do
  [ "$(wce "$sg")" = 0 ] && during=0
  [ "$(qos)" = 0 ] && qos_during=0
  sleep 1
done
wait $pid; rc=$?
after=$(wce "$sg")
tail -n 10 /tmp/bn.out
[ $rc = 0 ] && [ "$(jq -r .complete /tmp/bn/report.json)" = true ] && pass run_complete \
  || fail run_complete "exit $rc: $(tail -n 3 /tmp/bn.err)"
got=$(jq -r '[.tests[0].stages[0].purge.purged, (.tests[0].stages[0].purge.status | startswith("NOT PURGED")),
             any(.notes[]; startswith("NOT PURGED"))] | map(tostring) | join(" ")' /tmp/bn/report.json)
[ "$got" = "false true true" ] && pass not_purged_json || fail not_purged_json "$got"
grep -q "NOT PURGED" /tmp/bn/report.html && pass not_purged_html || fail not_purged_html "not in report.html"
grep -q "NOT PURGED" /tmp/bn.out && pass not_purged_terminal || fail not_purged_terminal "$(head -n 5 /tmp/bn.out)"
wc_json=$(jq -r '.write_cache | "\(.wce_before) \(.wce_during) \(.wce_after) \(.restored)"' /tmp/bn/report.json)
echo "WCE: sdparm before '$before' during '$during' after '$after'; report '$wc_json'"
[ "$before" = 1 ] && [ "$after" = 1 ] && [ "$wc_json" = "true false true true" ] && pass wce_restored "$wc_json" \
  || fail wce_restored "sdparm before '$before' after '$after', report '$wc_json'"
[ "$during" = 0 ] && pass wce_cleared_during || skip wce_cleared_during "no sdparm sample fell inside the run"
# --cpu-latency 0: the PM QoS limit is 0 while the suite runs, gone after it, and named in the
# report's notes.
qos_after=$(qos)
if [ -z "$cl" ]; then
  skip cpu_latency "this kernel has no /dev/cpu_dma_latency"
else
  echo "cpu_dma_latency: before '$qos_before' during '$qos_during' after '$qos_after'"
  jq -e 'any(.notes[]; startswith("CPU wake-up latency limited to 0 us"))' /tmp/bn/report.json >/dev/null \
    && pass cpu_latency_note || fail cpu_latency_note "$(jq -c .notes /tmp/bn/report.json)"
  [ -n "$qos_after" ] && [ "$qos_after" != 0 ] && [ "$qos_after" = "$qos_before" ] && pass cpu_latency_released "$qos_after" \
    || fail cpu_latency_released "before '$qos_before' after '$qos_after'"
  [ "$qos_during" = 0 ] && pass cpu_latency_held_during || skip cpu_latency_held_during "no sample fell inside the run"
fi
