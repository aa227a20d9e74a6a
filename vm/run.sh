#!/usr/bin/env bash
# The VM suite: boots Debian's kernel under QEMU (TCG) once per test group with the freshly built
# sgctl, runs the group's guest checks and fails loudly on any FAIL, missing result, kernel
# panic or timeout. See vm/README.md.
#
#   vm/run.sh                 all groups (vm/groups/*)
#   vm/run.sh GROUP...        only these groups
#   VM_ONLY=04-format,63 vm/run.sh tcmu   only the group's scripts whose names start so
# Groups run VM_JOBS at a time (default 2: the groups mostly wait on emulated devices and timers;
# the longest group, by script count, starts first). Each group's verdict is printed when it
# ends; failure details (console tail, qemu output) after all have ended.
# Environment: VM_KEEP=1 keeps vm/out/<group> work dirs (console.log, results.log);
#   VM_SGCTL=path uses this sgctl binary instead of building one (static or dynamic);
#   VM_PROFILE=release builds the guest's sgctl with that cargo profile (default dev);
#   VM_KERNEL_PKG=linux-image-... pins the kernel package (see vm/setup.sh);
#   VM_APPEND_EXTRA="..." adds kernel command line words (vm/capture-fixtures.sh: vmcapture=1).
set -euo pipefail
VM_DIR="$(cd "$(dirname "$0")" && pwd)"
REPO="$(dirname "$VM_DIR")"
OUT="$VM_DIR/out"
mkdir -p "$OUT"
T0=$SECONDS

log() { printf 'vm: %s\n' "$*" >&2; }

KVER=$("$VM_DIR/setup.sh" | sed -n 's/^KERNEL_VERSION=//p')
[[ -n "$KVER" ]] || { log "setup failed"; exit 1; }
KERNEL="$VM_DIR/cache/kernel/$KVER/vmlinuz"

# --- the guest's sgctl ------------------------------------------------------------------------------
# The same debug build `cargo test` just made (no extra compile); the initramfs gets it with the
# glibc libraries ldd names, like the other tools. vm/bench.sh uses a release build instead.
if [[ -n "${VM_SGCTL:-}" ]]; then
  SGCTL="$VM_SGCTL"
else
  log "building sgctl (${VM_PROFILE:-dev} profile)"
  (cd "$REPO" && cargo build --quiet --profile "${VM_PROFILE:-dev}" --bin sgctl)
  dir="${VM_PROFILE:-dev}"; [[ "$dir" == dev ]] && dir=debug
  SGCTL="${CARGO_TARGET_DIR:-$REPO/target}/$dir/sgctl"
fi
[[ -x "$SGCTL" ]] || { log "no sgctl binary at $SGCTL"; exit 1; }

log "building initramfs (kernel $KVER)"
"$VM_DIR/build-initramfs.sh" "$KVER" "$SGCTL" "$OUT/initramfs.cpio.gz"

# --- one boot (runs in a background job; leaves $W/verdict "pass fail skip") -------------------------

run_group() {
  local g="$1" W="$OUT/$1"
  rm -rf "$W"; mkdir -p "$W"
  # Group definition (host side): QEMU_ARGS, VM_TIMEOUT, VM_MEM, VM_SMP, VM_MACHINE, VM_APPEND.
  local QEMU_ARGS=() VM_TIMEOUT=480 VM_MEM=1024 VM_SMP=2 VM_MACHINE=pc VM_APPEND=""
  # shellcheck disable=SC1090
  [[ -f "$VM_DIR/groups/$g/qemu.sh" ]] && WORK="$W" source "$VM_DIR/groups/$g/qemu.sh"

  mkfifo "$W/res.in" "$W/res.out" "$W/mon.in" "$W/mon.out"
  : > "$W/results.log"; : > "$W/mon.log"
  cat "$W/res.out" > "$W/results.log" & local cat_res=$!
  cat "$W/mon.out" > "$W/mon.log" & local cat_mon=$!
  local t0=$SECONDS
  qemu-system-x86_64 -machine "$VM_MACHINE" -accel tcg -m "$VM_MEM" -smp "$VM_SMP" \
    -nographic -nodefaults -no-reboot \
    -kernel "$KERNEL" -initrd "$OUT/initramfs.cpio.gz" \
    -append "console=ttyS0 panic=-1 no_timer_check rdinit=/init quiet vmgroup=$g ${VM_ONLY:+vmonly=$VM_ONLY} $VM_APPEND ${VM_APPEND_EXTRA:-}" \
    -serial "file:$W/console.log" \
    -chardev "pipe,id=res,path=$W/res" -serial chardev:res \
    -chardev "pipe,id=mon,path=$W/mon" -mon chardev=mon,mode=readline \
    "${QEMU_ARGS[@]}" > "$W/qemu.log" 2>&1 < /dev/null &
  local qpid=$!
  exec {resw}<>"$W/res.in"
  exec {monw}<>"$W/mon.in"

  local timed_out=0 handled=0
  while kill -0 "$qpid" 2>/dev/null; do
    if (( SECONDS - t0 > VM_TIMEOUT )); then timed_out=1; kill "$qpid"; break; fi
    # Guest requests for monitor commands: "VMTEST HOST <seq> <command>"
    local reqs
    reqs=$(tr -d '\r' < "$W/results.log" | sed -n 's/^VMTEST HOST \([0-9]*\) \(.*\)$/\1 \2/p')
    if [[ -n "$reqs" ]]; then
      while read -r seq cmd; do
        (( seq > handled )) || continue
        local before; before=$(wc -c < "$W/mon.log")
        echo "$cmd" >&$monw
        sleep 1
        local answer; answer=$(tail -c +"$((before + 1))" "$W/mon.log" | tr -d '\r' | grep -iE 'error|fail|not found' || true)
        log "$g: monitor '$cmd' ${answer:+-> $answer}"
        if [[ -n "$answer" ]]; then echo "NAK $seq ${answer//$'\n'/ }" >&$resw; else echo "ACK $seq" >&$resw; fi
        handled=$seq
      done <<< "$reqs"
    fi
    sleep 0.2
  done
  wait "$qpid" 2>/dev/null || true
  exec {resw}>&- {monw}>&-
  sleep 0.2
  kill "$cat_res" "$cat_mon" 2>/dev/null || true
  wait "$cat_res" "$cat_mon" 2>/dev/null || true
  local secs=$((SECONDS - t0))

  # --- verdict ---
  tr -d '\r' < "$W/results.log" > "$W/results.txt"
  # Files the guest exported with vm_export (base64 lines "VMTEST EXPORT <name> <chunk>").
  local name
  for name in $(sed -n 's/^VMTEST EXPORT \([^ ]*\) .*/\1/p' "$W/results.txt" | sort -u); do
    mkdir -p "$W/export"
    grep "^VMTEST EXPORT $name " "$W/results.txt" | cut -d' ' -f4 | base64 -d > "$W/export/$name"
  done
  local pass fail skip problems=()
  pass=$(grep -c '^VMTEST PASS ' "$W/results.txt" || true)
  fail=$(grep -c '^VMTEST FAIL ' "$W/results.txt" || true)
  skip=$(grep -c '^VMTEST SKIP ' "$W/results.txt" || true)
  (( timed_out )) && problems+=("timed out after ${VM_TIMEOUT}s")
  grep -q '^VMTEST DONE' "$W/results.txt" || problems+=("guest did not finish (no DONE)")
  (( pass > 0 )) || problems+=("no check passed")
  grep -qE 'Kernel panic|BUG:|Oops:|blocked for more than' "$W/console.log" \
    && problems+=("kernel trouble: $(grep -m1 -E 'Kernel panic|BUG:|Oops:|blocked for more than' "$W/console.log")")
  # every script that began must have ended and reported something
  local cur="" n=0 line
  while read -r line; do
    case "$line" in
      "VMTEST BEGIN "*) cur="${line#VMTEST BEGIN }"; n=0 ;;
      "VMTEST PASS "*|"VMTEST FAIL "*|"VMTEST SKIP "*) n=$((n + 1)) ;;
      "VMTEST END "*) (( n > 0 )) || problems+=("script $cur reported no result"); cur="" ;;
    esac
  done < "$W/results.txt"
  [[ -z "$cur" ]] || problems+=("script $cur did not end")

  grep -E '^VMTEST (FAIL|SKIP) ' "$W/results.txt" | sed "s/^VMTEST /vm: $g: /" >&2 || true
  echo "$pass $((fail + ${#problems[@]})) $skip" > "$W/verdict"
  if (( fail > 0 || ${#problems[@]} > 0 )); then
    {
      local p; for p in "${problems[@]}"; do log "$g: FAIL: $p"; done
      log "$g: guest console (last 80 lines of $W/console.log):"
      tail -n 80 "$W/console.log" | sed 's/^/  | /' >&2
      [[ -s "$W/qemu.log" ]] && { log "$g: qemu said:"; sed 's/^/  | /' "$W/qemu.log" >&2; }
    } 2> "$W/failure.txt"
    log "$g: $pass passed, $fail failed, $skip skipped in ${secs}s -- FAILED"
  else
    log "$g: $pass passed, $skip skipped in ${secs}s"
  fi
  # Where the group's time went (the guest's init times each script): the five slowest.
  log "$g: slowest: $(sed -n 's/^VMTEST END \([^ ]*\) (\([0-9.]*\) s)$/\2 \1/p' "$W/results.txt" \
    | sort -rn | head -5 | awk '{printf "%s%s %ss", (NR > 1 ? ", " : ""), $2, $1}')"
}

groups=("$@")
if ((${#groups[@]} == 0)); then
  # Groups with a `manual` file (the benchmark) run only when named.
  for d in "$VM_DIR"/groups/*/; do [[ -e "$d/manual" ]] || groups+=("$(basename "$d")"); done
fi
for g in "${groups[@]}"; do
  [[ -d "$VM_DIR/groups/$g" ]] || { log "no such group: $g"; exit 2; }
done
# Longest first (script count as the estimate), so the pool ends close together.
mapfile -t groups < <(for g in "${groups[@]}"; do
  printf '%s %s\n' "$(ls "$VM_DIR/groups/$g"/[0-9]*.sh 2>/dev/null | wc -l)" "$g"; done | sort -k1,1nr -k2 | cut -d' ' -f2)

JOBS=${VM_JOBS:-2}
running=()
for g in "${groups[@]}"; do
  while (( $(jobs -rp | wc -l) >= JOBS )); do wait -n || true; done
  log "$g: starting"
  run_group "$g" &
  running+=($!)
done
wait || true

TOTAL_PASS=0; TOTAL_FAIL=0; TOTAL_SKIP=0; FAILED_GROUPS=()
for g in "${groups[@]}"; do
  W="$OUT/$g"
  if [[ -s "$W/verdict" ]]; then read -r p f k < "$W/verdict"; else p=0 f=1 k=0; log "$g: no verdict"; fi
  TOTAL_PASS=$((TOTAL_PASS + p)); TOTAL_FAIL=$((TOTAL_FAIL + f)); TOTAL_SKIP=$((TOTAL_SKIP + k))
  if (( f > 0 )); then
    FAILED_GROUPS+=("$g")
    [[ -s "$W/failure.txt" ]] && cat "$W/failure.txt" >&2
  fi
done

echo "vm: $TOTAL_PASS passed, $TOTAL_FAIL failed, $TOTAL_SKIP skipped, ${#groups[@]} boots ($JOBS at a time), $((SECONDS - T0))s"
if ((${#FAILED_GROUPS[@]})); then
  echo "vm: FAILED groups: ${FAILED_GROUPS[*]} (work dirs in $OUT)"
  exit 1
fi
[[ -n "${VM_KEEP:-}" ]] || for g in "${groups[@]}"; do rm -rf "${OUT:?}/$g"; done
