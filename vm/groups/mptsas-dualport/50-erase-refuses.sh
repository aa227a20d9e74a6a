# Safety gate over real SG_IO on the dual-port disk: with a filesystem mounted from
# ONE path, format and sanitize must refuse on EITHER path (sg and sd nodes of both ports), even
# with the right --confirm; swap on the other path refuses too. Nothing may reach the drive: a
# dry run afterwards must still work and the audit log must hold no start record.
. /vm/guest/lib.sh
export SGCTL_AUDIT_LOG=/tmp/erase-audit.jsonl
set -- $(lsscsi -g | awk '/SGCTLVM/{print $(NF-1), $NF}')
sd1=$1 sg1=$2 sd2=$3 sg2=$4
if [ -z "$sg2" ]; then fail paths "need two SGCTLVM paths, lsscsi: $(lsscsi -g | tr '\n' ' ')"; exit 0; fi

# The kernel must group both ports under one LU name, or the gate cannot see the other path.
w1=$(cat /sys/class/block/${sd1#/dev/}/device/wwid 2>/dev/null)
w2=$(cat /sys/class/block/${sd2#/dev/}/device/wwid 2>/dev/null)
[ -n "$w1" ] && [ "$w1" = "$w2" ] && pass same_wwid || fail same_wwid "wwid '$w1' vs '$w2'"

modprobe crc32c_generic 2>/dev/null || true
modprobe ext4 2>/dev/null || true
mke2fs -q -F "$sd1" >/dev/null 2>&1 || mke2fs -F "$sd1" >/dev/null 2>&1
mkdir -p /mnt/erase
if ! mount "$sd1" /mnt/erase; then fail mount "cannot mount $sd1"; exit 0; fi
pass mounted

refuses() { # name, command...: exit 6 and a message naming the mount
  n=$1; shift
  out=$("$@" 2>&1); rc=$?
  if [ $rc -eq 6 ] && echo "$out" | grep -q "mounted on /mnt/erase"; then pass "$n"
  else fail "$n" "exit $rc: $(echo "$out" | tail -n 2 | tr '\n' ' ')"; fi
}
for node in "$sg1" "$sg2" "$sd1" "$sd2"; do
  b=$(basename "$node")
  refuses "format_refused_$b" sgctl format "$node" --block-size 512 --confirm DP0001
  refuses "sanitize_refused_$b" sgctl sanitize "$node" --crypto --confirm DP0001
done
# --json carries the refusal too.
out=$(sgctl --json sanitize "$sg2" --block --confirm DP0001 2>/dev/null)
[ "$(echo "$out" | jq -r '.data.drives[0].outcome')" = refused ] && pass json_refused \
  || fail json_refused "$out"
umount /mnt/erase

# Swap on the second path is in use as well.
if mkswap "$sd2" >/dev/null 2>&1 && swapon "$sd2" 2>/dev/null; then
  out=$(sgctl sanitize "$sg1" --crypto --confirm DP0001 2>&1); rc=$?
  [ $rc -eq 6 ] && echo "$out" | grep -q "swap" && pass swap_refused || fail swap_refused "exit $rc: $out"
  swapoff "$sd2"
else
  skip swap_refused "mkswap/swapon not available in the guest"
fi

# Free again: a dry run plans and sends only queries; a wrong --confirm is refused.
out=$(sgctl format "$sg2" --block-size 512 --dry-run 2>&1); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q "would send FORMAT UNIT" && pass dry_run_free \
  || fail dry_run_free "exit $rc: $out"
out=$(sgctl format "$sg1" --block-size 512 --confirm WRONG 2>&1); rc=$?
[ $rc -eq 6 ] && echo "$out" | grep -q "does not name this drive" && pass wrong_confirm_refused \
  || fail wrong_confirm_refused "exit $rc: $out"
if grep -q '"event":"start"' "$SGCTL_AUDIT_LOG" 2>/dev/null; then
  fail no_job_started "audit log has a start record: $(cat $SGCTL_AUDIT_LOG)"
else
  pass no_job_started
fi
