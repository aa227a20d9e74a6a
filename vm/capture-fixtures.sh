#!/usr/bin/env bash
# Regenerates fixtures/sysfs/<group>/ from a guest boot: the SCSI sysfs tree, /proc mount and swap
# tables, and INQUIRY/VPD/READ CAPACITY(16) bytes read with sg3_utils (see vm/guest/capture-sysfs.sh).
#   vm/capture-fixtures.sh [GROUP...]     (default: mptsas-dualport scsi-debug)
# `tcmu-ses` is not a group: it boots the tcmu group with only 57-ses.sh, which captures the tree
# while the virtual enclosure is served and the kernel's ses driver is bound to it.
set -euo pipefail
VM_DIR="$(cd "$(dirname "$0")" && pwd)"
REPO="$(dirname "$VM_DIR")"
groups=("$@"); ((${#groups[@]})) || groups=(mptsas-dualport scsi-debug)
boot=()
for g in "${groups[@]}"; do [[ "$g" == tcmu-ses ]] || boot+=("$g"); done
((${#boot[@]})) && VM_KEEP=1 VM_APPEND_EXTRA="vmcapture=1" "$VM_DIR/run.sh" "${boot[@]}"
if [[ " ${groups[*]} " == *" tcmu-ses "* ]]; then
  VM_KEEP=1 VM_ONLY=57-ses VM_APPEND_EXTRA="vmcapture=1" "$VM_DIR/run.sh" tcmu
fi
for g in "${groups[@]}"; do
  out=$g; [[ "$g" == tcmu-ses ]] && out=tcmu
  t="$VM_DIR/out/$out/export/$g.tgz"
  [[ -s "$t" ]] || { echo "capture-fixtures: no capture from $g" >&2; exit 1; }
  rm -rf "$REPO/fixtures/sysfs/$g"; mkdir -p "$REPO/fixtures/sysfs/$g"
  tar xzf "$t" -C "$REPO/fixtures/sysfs/$g"
  echo "capture-fixtures: fixtures/sysfs/$g ($(find "$REPO/fixtures/sysfs/$g" | wc -l) entries)"
done
