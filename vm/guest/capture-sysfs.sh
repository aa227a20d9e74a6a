# Captures the SCSI-related sysfs of this guest (plus /proc/self/mountinfo and /proc/swaps) and
# the raw INQUIRY / VPD / READ CAPACITY(16) bytes of every sg node (read with sg3_utils), and
# exports them to the host as <group>.tgz (vm/capture-fixtures.sh unpacks them into fixtures/sysfs).
. /vm/guest/lib.sh
C=/tmp/cap
rm -rf $C; mkdir -p $C/sys/class $C/proc/self

copy_tree() { # copy a sysfs subtree without following symlinks; unreadable files are skipped
  find "$1" \( -name power -o -name subsystem -o -name driver -o -name firmware_node -o -name mq -o -name trace \) -prune -o -print 2>/dev/null | while read -r f; do
    d="$C$f"
    if [ -L "$f" ]; then
      mkdir -p "$(dirname "$d")"; ln -sfn "$(readlink "$f")" "$d"
    elif [ -d "$f" ]; then
      mkdir -p "$d"
    elif [ -f "$f" ] && [ -r "$f" ]; then
      mkdir -p "$(dirname "$d")"
      cat "$f" > "$d" 2>/dev/null || rm -f "$d"
    fi
  done
}

for cls in scsi_generic scsi_device block bsg enclosure sas_host sas_phy sas_port sas_device sas_end_device scsi_host scsi_disk; do
  [ -d /sys/class/$cls ] || continue
  mkdir -p $C/sys/class/$cls
  for l in /sys/class/$cls/*; do
    [ -L "$l" ] && ln -sfn "$(readlink "$l")" "$C$l"
  done
done
# The device trees behind every SCSI host (ports, end devices, targets, LUs, sd/sg/bsg nodes).
for h in /sys/class/scsi_host/*; do
  copy_tree "$(realpath "$h/device")"
done
[ -d /sys/devices/virtual/block ] && copy_tree /sys/devices/virtual/block
mkdir -p $C/sys/block
for b in /sys/block/*; do ln -sfn "$(readlink "$b")" "$C$b"; done
cat /proc/self/mountinfo > $C/proc/self/mountinfo
cat /proc/swaps > $C/proc/swaps

# Replay bytes for the identification commands (what SG_IO returns), by sg node.
for sg in /sys/class/scsi_generic/*; do
  n=$(basename "$sg"); R=$C/replay/$n; mkdir -p $R
  sg_inq -r /dev/$n > $R/inquiry.bin 2>/dev/null || rm -f $R/inquiry.bin
  for p in 80 83 b1; do
    sg_vpd -p 0x$p -r /dev/$n > $R/vpd_$p.bin 2>/dev/null || rm -f $R/vpd_$p.bin
  done
  sg_readcap -16 -r /dev/$n > $R/rc16.bin 2>/dev/null || rm -f $R/rc16.bin
done
uname -r > $C/kernel-version
lsscsi -g > $C/lsscsi-g.txt 2>&1
tar czf /tmp/cap.tgz -C $C .
vm_export "$VM_GROUP.tgz" /tmp/cap.tgz
