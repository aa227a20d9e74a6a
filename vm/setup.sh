#!/usr/bin/env bash
# Installs what the VM suite needs (idempotent) and caches Debian's kernel + modules.
# Prints KERNEL_VERSION=<ver> on the last line of stdout. Safe to run as root with no stdin (CI).
#
#   VM_KERNEL_PKG=linux-image-6.1.0-57-amd64  pin a kernel package (default: what
#                                             linux-image-amd64 depends on)
set -euo pipefail
VM_DIR="$(cd "$(dirname "$0")" && pwd)"
CACHE="$VM_DIR/cache"
mkdir -p "$CACHE"

log() { printf 'vm-setup: %s\n' "$*" >&2; }

# --- Debian packages -----------------------------------------------------------------------------
# package:program-that-proves-it-is-installed
PKGS=(
  qemu-system-x86:qemu-system-x86_64 busybox-static:/bin/busybox cpio:cpio kmod:depmod
  sg3-utils:sg_inq lsscsi:/usr/bin/lsscsi smartmontools:smartctl fio:fio sdparm:sdparm
  jq:jq dmsetup:dmsetup
  hdparm:hdparm
  multipath-tools:/usr/sbin/multipath
)
missing=()
for p in "${PKGS[@]}"; do
  prog="${p#*:}"
  if [[ "$prog" == /* ]]; then [[ -x "$prog" ]] || missing+=("${p%%:*}")
  else command -v "$prog" >/dev/null 2>&1 || missing+=("${p%%:*}"); fi
done
if ((${#missing[@]})); then
  [[ $(id -u) == 0 ]] || { log "need root to install: ${missing[*]}"; exit 1; }
  log "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=900 update -q >&2
  # qemu-system-x86 from bookworm removes a newer qemu-utils (bookworm-backports) if one is
  # installed; the suite does not need qemu-img (disk images are made with truncate).
  apt-get -o DPkg::Lock::Timeout=900 install -y -q --no-install-recommends "${missing[@]}" >&2
fi

# --- kernel ----------------------------------------------------------------------------------------
pick_kernel_pkg() {
  if [[ -n "${VM_KERNEL_PKG:-}" ]]; then echo "$VM_KERNEL_PKG"; return; fi
  local p
  # The metapackage names the current ABI (e.g. linux-image-6.1.0-57-amd64).
  p=$(apt-cache depends linux-image-amd64 2>/dev/null \
        | sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*-amd64\)$/\1/p' | head -n1)
  if [[ -z "$p" ]]; then
    # Fall back to the highest plain -amd64 image apt knows (not -cloud/-rt/-dbg/unsigned).
    p=$(apt-cache search --names-only '^linux-image-[0-9.]+-[0-9]+-amd64$' 2>/dev/null \
          | awk '{print $1}' | sort -V | tail -n1)
  fi
  if [[ -z "$p" ]]; then
    # Offline: reuse whatever is cached.
    p=$(ls -1 "$CACHE/kernel" 2>/dev/null | sort -V | tail -n1 | sed 's/^/linux-image-/')
  fi
  [[ -n "$p" ]] || { log "cannot find a linux-image-*-amd64 package (apt-get update?)"; exit 1; }
  echo "$p"
}

if [[ $(id -u) == 0 ]] && ! apt-cache show linux-image-amd64 >/dev/null 2>&1 \
     && [[ -z "${VM_KERNEL_PKG:-}" ]] && ! ls "$CACHE"/kernel/*/.complete >/dev/null 2>&1; then
  # Empty package lists (fresh container): the kernel package cannot be found without them.
  apt-get -o DPkg::Lock::Timeout=900 update -q >&2
fi
PKG=$(pick_kernel_pkg)
KVER="${PKG#linux-image-}"
KDIR="$CACHE/kernel/$KVER"
if [[ ! -f "$KDIR/.complete" ]]; then
  log "fetching $PKG"
  rm -rf "$KDIR" "$CACHE/dl"
  mkdir -p "$CACHE/dl" "$KDIR"
  if ! (cd "$CACHE/dl" && apt-get download "$PKG" >&2 2>"$CACHE/dl/err"); then
    # apt-get download wants fresh lists; retry once after an update (root only).
    if [[ $(id -u) == 0 ]]; then
      apt-get -o DPkg::Lock::Timeout=900 update -q >&2
      (cd "$CACHE/dl" && apt-get download "$PKG" >&2)
    else
      cat "$CACHE/dl/err" >&2; exit 1
    fi
  fi
  dpkg -x "$CACHE"/dl/*.deb "$CACHE/dl/x"
  cp "$CACHE/dl/x/boot/vmlinuz-$KVER" "$KDIR/vmlinuz"
  mkdir -p "$KDIR/lib/modules"
  mv "$CACHE/dl/x/lib/modules/$KVER" "$KDIR/lib/modules/"
  depmod -b "$KDIR" "$KVER"
  rm -rf "$CACHE/dl"
  touch "$KDIR/.complete"
  log "cached kernel $KVER in $KDIR"
fi
echo "KERNEL_VERSION=$KVER"
