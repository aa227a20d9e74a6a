# In-use detection on a real kernel: one LU mounted (ext2), one used as swap, one held by a
# device-mapper target; sgctl scan (and paths, the safety gate's entry point) must name each
# reason, and the other LUs must stay free. Everything is undone at the end.
. /vm/guest/lib.sh
set -- $(lsscsi -g | awk '$2 == "disk" && $(NF-1) ~ /^\/dev\/sd/ {print $(NF-1)}' | sed -n '2,4p')
m=$1; s=$2; h=$3
[ -n "$h" ] || { fail setup "need three sd disks: $(lsscsi -g | tr '\n' '|')"; exit 0; }
modprobe crc32c_generic 2>/dev/null; modprobe ext4 2>/dev/null; modprobe dm_mod 2>/dev/null
mkdir -p /mnt/t
# Read-only: scsi_debug's LUs share one backing store, so the swap header written to $s is
# the same bytes as the file system's first blocks on $m. Mounted read-write, ext4's lazyinit
# found the block bitmap changed under it and rewrote the superblock with the error, over the
# swap header (swapon: EINVAL, once in a fresh-clone CI run). Read-only, nothing writes to
# the store after mkswap.
mke2fs -q "$m" >/dev/null && mount -t ext2 -o ro "$m" /mnt/t || fail setup "could not mount $m"
mkswap "$s" >/dev/null && swapon "$s" || fail setup "could not swapon $s"
echo "0 $(blockdev --getsz "$h") linear $h 0" | dmsetup create sgctl_inuse || fail setup "dmsetup create on $h"
holder=$(ls /sys/class/block/$(basename "$h")/holders)
sgctl scan | grep -B1 -A2 "in use" | head -20
sgctl --json scan > /tmp/inuse.json
why() { jq -c --arg b "$1" '[.data.drives[] | select(any(.paths[]; .block == $b)) | .in_use[]]' /tmp/inuse.json; }
got=$(why "$m")
[ "$got" = "[{\"kind\":\"mounted\",\"device\":\"$(basename "$m")\",\"mount_point\":\"/mnt/t\"}]" ] \
  && pass mounted || fail mounted "$m: $got"
got=$(why "$s")
[ "$got" = "[{\"kind\":\"swap\",\"device\":\"$(basename "$s")\"}]" ] && pass swap || fail swap "$s: $got"
got=$(why "$h")
[ "$got" = "[{\"kind\":\"held\",\"device\":\"$(basename "$h")\",\"holder\":\"$holder\"}]" ] \
  && pass held_by_dm || fail held_by_dm "$h: $got (holder $holder)"
n=$(jq '[.data.drives[] | select(.in_use | length > 0)] | length' /tmp/inuse.json)
[ "$n" = 3 ] && pass others_free || fail others_free "$n drives in use, want 3"
# The gate's view through `paths` agrees.
n=$(sgctl --json paths "$m" | jq '.data.in_use | length')
[ "$n" = 1 ] && pass paths_in_use || fail paths_in_use "sgctl paths $m: $n reasons"
# A firmware download goes through the same gate: refused on the mounted LU and on the swap,
# nothing sent (no WRITE BUFFER in the -v trace).
head -c 1024 /dev/zero > /tmp/fw0.bin
for d in "$m" "$s"; do
  sn=$(sg_vpd -p sn "$d" 2>/dev/null | sed -n 's/.*Unit serial number: *//p' | tr -d ' ')
  sgctl -v firmware "$d" --image /tmp/fw0.bin --mode 5 --confirm "$sn" >/dev/null 2>/tmp/e.fw; rc=$?
  [ $rc = 6 ] && ! grep -qi 'write buffer cdb' /tmp/e.fw && pass "firmware_refused_in_use_$(basename "$d")" \
    || fail "firmware_refused_in_use_$(basename "$d")" "exit $rc: $(tail -n 1 /tmp/e.fw)"
done
umount /mnt/t; swapoff "$s"; dmsetup remove sgctl_inuse
n=$(sgctl --json scan | jq '[.data.drives[] | select(.in_use | length > 0)] | length')
[ "$n" = 0 ] && pass released || fail released "$n drives still in use"
