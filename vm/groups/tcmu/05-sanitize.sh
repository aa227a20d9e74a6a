# CRYPTOGRAPHIC ERASE with sg_sanitize, progress seen by sg_requests --progress, then the same
# with sgctl. Restart serving (a fresh drive) at real clock speed, where the erase takes 2 s,
# to watch the progress.
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
stop_serve; rc=$?
[ $rc = 0 ] && pass restart_stop || fail restart_stop "serve exited $rc"
start_serve speed=1 && pass restart_start || fail restart_start "$(tail -n 5 /tmp/serve.err)"
sg=$(tcmu_sg)
sd=$(tcmu_sd)
dd if=/dev/urandom of="$sd" bs=4k count=4 oflag=direct 2>/dev/null
before=$(dd if="$sd" bs=4k count=4 iflag=direct 2>/dev/null | md5sum)
out=$(sg_sanitize --crypto --quick --early "$sg" 2>&1); rc=$?
echo "$out"
[ $rc = 0 ] && pass sg_sanitize_crypto_started || fail sg_sanitize_crypto_started "exit $rc: $out"
seen=""
i=0
while [ $i -lt 100 ]; do
  p=$(sg_requests --progress "$sg" 2>&1)
  case "$p" in *"%"*) seen="$p"; break ;; esac
  echo "$p" | grep -qi "no progress\|not in progress" && [ $i -gt 0 ] && break
  i=$((i + 1))
done
echo "sg_requests: $seen"
[ -n "$seen" ] && pass sg_requests_progress || fail sg_requests_progress "no progress indication seen: $p"
wait_for 60 sg_turs "$sg" && pass sanitize_completes || fail sanitize_completes "$(sg_turs -v "$sg" 2>&1)"
for s in $(lsscsi | awk '/PX02SMF080/ {print $NF}'); do echo 1 > "/sys/block/$(basename "$s")/device/rescan"; done
after=$(dd if="$sd" bs=4k count=4 iflag=direct 2>/dev/null | md5sum)
[ "$before" != "$after" ] && pass data_gone_after_crypto || fail data_gone_after_crypto "data unchanged"
export SGCTL_AUDIT_LOG=/tmp/audit.jsonl
out=$(sgctl sanitize --crypto --confirm TCMU0001 --poll-interval 1 --progress-json "$sg" 2>&1); rc=$?
echo "$out" | tail -n 8
[ $rc = 0 ] && pass sgctl_sanitize_crypto || fail sgctl_sanitize_crypto "exit $rc: $(echo "$out" | tail -n 3)"
