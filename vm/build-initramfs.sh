#!/usr/bin/env bash
# Builds the guest initramfs: busybox, kernel modules from vm/modules.list (+ dependencies),
# the sgctl binary given as $2 (static or dynamic; its libraries are copied), third-party SCSI
# tools with their libraries, vm/guest and vm/groups.
#   build-initramfs.sh KERNEL_VERSION SGCTL_BINARY OUTPUT.cpio.gz
set -euo pipefail
VM_DIR="$(cd "$(dirname "$0")" && pwd)"
KVER="$1"; SGCTL="$2"; OUT="$3"
KDIR="$VM_DIR/cache/kernel/$KVER"
ROOT="$(dirname "$OUT")/initramfs"
rm -rf "$ROOT"
mkdir -p "$ROOT"/{bin,sbin,usr/bin,usr/sbin,lib,lib64,proc,sys,dev,tmp,run,mnt,etc,vm}

# busybox: applet links are made at boot (`busybox --install -s`), after the real tools, so the
# real lsscsi etc. win over busybox's applets of the same name.
cp /bin/busybox "$ROOT/bin/busybox"
ln -s busybox "$ROOT/bin/sh"

# Kernel modules and their dependencies.
mods=()
while read -r m _; do [[ -z "$m" || "$m" == \#* ]] || mods+=("$m"); done < "$VM_DIR/modules.list"
for m in "${mods[@]}"; do
  modprobe -d "$KDIR" -S "$KVER" --show-depends "$m" 2>/dev/null || {
    # built-in modules show as "builtin X"; a name that does not exist is an error.
    grep -qw "$m" "$KDIR/lib/modules/$KVER/modules.builtin" 2>/dev/null \
      || grep -q "/$m.ko" "$KDIR/lib/modules/$KVER/modules.builtin" \
      || { echo "build-initramfs: unknown module $m" >&2; exit 1; }
  }
done | awk '$1=="insmod"{print $2}' | sort -u | while read -r f; do
  rel="${f#"$KDIR"/}"
  mkdir -p "$ROOT/$(dirname "$rel")"
  cp "$f" "$ROOT/$rel"
done
cp "$KDIR/lib/modules/$KVER"/modules.{builtin,builtin.modinfo,order} "$ROOT/lib/modules/$KVER/" 2>/dev/null || true
depmod -b "$ROOT" "$KVER"

# Dynamically linked tools + the libraries ldd names (and the loader).
# fio brings its rbd/ceph/icu libraries (~80 MB, seconds per boot under TCG), but the TCMU group's checks
# need it: verified random writes and the TCMU vs rd_mcp benchmark (vm/groups/tcmu).
# flock (util-linux): holds a file lock from a guest script (vm/groups/mptsas-dualport/55-*).
# script (util-linux): runs sgctl on a pseudo-terminal, so its confirmation prompt appears and a
# typed Ctrl-C reaches it as from a keyboard (vm/groups/mptsas-dualport/66-*).
tools=(lsscsi smartctl sdparm jq dmsetup fio hdparm flock script ${VM_EXTRA_TOOLS:-})
for t in /usr/bin/sg_*; do tools+=("$t"); done
copy_with_libs() {
  local src="$1" dst="$2"
  mkdir -p "$ROOT/$(dirname "$dst")"
  cp -L "$src" "$ROOT/$dst"
  { ldd "$src" 2>/dev/null || true; } | awk '/=> \//{print $3} /^\t\/[^ ]+ \(/{print $1}' | while read -r lib; do
    [[ -e "$ROOT$lib" ]] && continue
    mkdir -p "$ROOT$(dirname "$lib")"
    cp -L "$lib" "$ROOT$lib"
  done
}
for t in "${tools[@]}"; do
  p=$(command -v "$t") || { echo "build-initramfs: $t not installed (run vm/setup.sh)" >&2; exit 1; }
  copy_with_libs "$p" "/usr/bin/$(basename "$p")"
done

# multipath-tools (vm/groups/tcmu/54-multipath.sh): multipath and the checker/prioritizer plugins
# it dlopens from /lib/multipath (ldd does not see them).
if p=$(command -v multipath); then
  copy_with_libs "$p" /usr/bin/multipath
  for so in /lib/multipath/*.so /usr/lib/multipath/*.so; do
    [[ -e "$so" ]] && [[ ! -e "$ROOT/lib/multipath/$(basename "$so")" ]] \
      && copy_with_libs "$so" "/lib/multipath/$(basename "$so")"
  done
fi

# Debug info is of no use in the guest and slows every boot (the initramfs is unpacked under TCG).
strip -o "$OUT.sgctl" "$SGCTL" 2>/dev/null || cp "$SGCTL" "$OUT.sgctl"
copy_with_libs "$OUT.sgctl" /usr/bin/sgctl
rm -f "$OUT.sgctl"
# Extra programs (vm/bench.sh: the library's TUR loop), space separated paths.
for x in ${VM_EXTRA_BINS:-}; do copy_with_libs "$x" "/usr/bin/$(basename "$x")"; done
cp -r "$VM_DIR/guest" "$VM_DIR/groups" "$ROOT/vm/"
cp "$VM_DIR/guest/init" "$ROOT/init"
chmod +x "$ROOT/init"
echo "root:x:0:0:root:/root:/bin/sh" > "$ROOT/etc/passwd"
echo "$KVER" > "$ROOT/etc/kernel-version"

(cd "$ROOT" && find . | cpio -o -H newc --quiet | gzip -1 > "$OUT")
