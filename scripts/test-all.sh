#!/usr/bin/env bash
# The whole test suite: what the README names and what .ci/run calls. Installs what it needs
# (Debian packages for the VM suite and the bindings check), so it runs on a fresh machine.
# Stages: lint, unit+integration tests, release build, then (beside the VM suite) bindings
# freshness, man pages, Debian package, Ansible, fuzzing, and last the VM suite's verdict (real
# kernel in QEMU).
#
# Layout (suite time budget: 30 minutes on a 2-core machine, see README). The stages run one
# after the other, except three jobs that run beside them:
#   - the fuzz targets' build (nightly, sanitizer coverage, its own tree fuzz/target) starts first,
#     at nice 19: it takes the CPU the stages leave idle (serial compile tails, test runs, apt,
#     dpkg, lintian, pip) and is needed only by the fuzzing stage, which waits for it;
#   - the release build starts first as well, at nice 10 (ahead of the fuzz build, behind the
#     stages): what it gets of the idle CPU during lint and tests is not spent between the test
#     stage and the VM suite's start; the release stage waits for the rest;
#   - the VM suite starts as soon as the release build it boots exists, at normal priority, and
#     the bindings, man pages, package, Ansible and fuzzing (niced) stages run beside it: its
#     groups mostly wait on emulated devices and timers, and it is the longest stage, so nothing
#     that does not need to comes before it. The last stage waits for it.
# (cargo locks each profile's directory on its own: target/release beside target/debug.)
# The debug builds are shared: every cargo command below selects the whole workspace (one feature
# resolution, so no dependency is rebuilt with other features), and xtask runs as the binary
# built that way (XTASK) instead of `cargo run -p xtask`, which would resolve features for xtask
# alone and rebuild the tree; so does the sgctl that renders the man pages (SGCTL_BIN).
set -euo pipefail
cd "$(dirname "$0")/.."

# Each stage header says when it started; the end prints every stage's duration. Beside the wall
# time, the CPU seconds (user + system) of what each stage ran and waited for
# (bash's `times`; a background job counts where it is waited for): on a shared machine the wall
# times swell with the load, the CPU seconds much less.
# `times` must run in this shell (in a pipe or $(...) it reports a fresh subshell's zeros), so it
# writes to a private temporary file and cpu_now sets CPU.
CPU_F=$(mktemp)
cpu_now() {
  times > "$CPU_F"
  CPU=$(awk 'NR == 2 { n = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); n += a[1] * 60 + a[2] } printf "%d", n }' "$CPU_F")
}
cpu_now
T0=$SECONDS; TL=$SECONDS; CL=$CPU; TIMES=""; CUR=""
stage() {
  local c; cpu_now; c=$CPU
  [[ -n "$CUR" ]] && TIMES+="$(printf '%5ds %6s  %s' $((SECONDS - TL)) "$((c - CL))cpu" "$CUR")"$'\n'
  CUR="$*"; TL=$SECONDS; CL=$c
  printf '\n=== %s === (at %ds)\n' "$*" $((SECONDS - T0))
}

# The run's build trees (debug, release, the fuzz targets, the guest's initramfs) take about
# 6 GB (a fresh clone after a whole run: 5.6 GB), more while linking; a full disk fails a later
# stage with a bare "No space left on device" from the linker. Say it up front, with the figure.
free_gb=$(df -Pk . | awk 'NR==2 {printf "%d", $4 / 1048576}')
echo "test-all: ${free_gb} GB free on $(df -P . | awk 'NR==2 {print $6}') (a whole run needs about 10 GB)"
if (( free_gb < 10 )); then
  echo "test-all: WARNING: less than 10 GB free; stages that build may fail with ENOSPC" >&2
fi

# fuzz.sh installs xxd when missing; do it here, in the foreground, before the background build
# starts (the stages below run apt-get too, and dpkg takes one at a time; every apt-get here also
# waits for the lock rather than failing).
if ! command -v xxd >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=900 update -qq
  apt-get -o DPkg::Lock::Timeout=900 install -y -qq xxd >/dev/null
fi
# The fuzz targets' build, in the background from the start (see the layout above).
FUZZ_BUILD_LOG=$(mktemp /tmp/sgctl-fuzz-build.XXXXXX.log)
FUZZ_BUILD_RC=$(mktemp /tmp/sgctl-fuzz-build.XXXXXX.rc)
( rc=0; FUZZ_BUILD_ONLY=1 nice -n 19 scripts/fuzz.sh > "$FUZZ_BUILD_LOG" 2>&1 || rc=$?
  echo "$rc" > "$FUZZ_BUILD_RC" ) &
FUZZ_BUILD_PID=$!
# The release build, in the background from the start too, at nice 10: ahead of the fuzz build
# (nice 19) for the CPU the lint and test stages leave idle, behind them otherwise. Its stage
# waits for it and starts the VM suite (see the layout above).
REL_BUILD_LOG=$(mktemp /tmp/sgctl-release-build.XXXXXX.log)
REL_BUILD_RC=$(mktemp /tmp/sgctl-release-build.XXXXXX.rc)
( rc=0; nice -n 10 cargo build --release --bin sgctl > "$REL_BUILD_LOG" 2>&1 || rc=$?
  echo "$rc" > "$REL_BUILD_RC" ) &
REL_BUILD_PID=$!
VM_PID=""
# Never leave the background jobs (and what they started: cargo, qemu) running when a stage fails.
kill_tree() {
  local c
  for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do kill_tree "$c"; done
  kill "$1" 2>/dev/null || true
}
cleanup() { local p; for p in $FUZZ_BUILD_PID $REL_BUILD_PID $VM_PID; do kill_tree "$p"; done; rm -f "$CPU_F"; }
trap cleanup EXIT

stage "format and lint"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
# The product library without the virtual drive (the default `sim` feature, crate sgctl-sim)
# must build warning-free and pass its unit tests (tests/it and the sim example need `sim`).
cargo clippy -q -p sgctl --no-default-features --all-targets -- -D warnings
cargo test -q -p sgctl --no-default-features --lib

stage "unit, fixture, simulator and CLI tests"
# tests/it/sg3_compare.rs compares `sgctl decode` with Debian's sg3_utils (sg_vpd, sg_inq,
# sg_decode_sense); install it if missing and make the comparison mandatory here.
if ! command -v sg_vpd >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=900 update -qq
  apt-get -o DPkg::Lock::Timeout=900 install -y -qq sg3-utils >/dev/null
fi
# tests/it/browser.rs opens the HTML reports and certificates in headless Chromium (Debian's
# package); install it if missing and make the browser checks mandatory here.
if ! command -v chromium >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=900 update -qq
  apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends chromium >/dev/null
fi
# tests/it/records_pdf.rs opens the PDF/A certificates with poppler (pdfinfo, pdfdetach,
# pdftotext, pdftoppm: Debian's poppler-utils); install it if missing and make it mandatory here.
if ! command -v pdfinfo >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=900 update -qq
  apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends poppler-utils >/dev/null
fi
SGCTL_REQUIRE_SG3=1 SGCTL_REQUIRE_CHROMIUM=1 SGCTL_REQUIRE_POPPLER=1 cargo test --workspace
# The two fake-ring measurements are #[ignore]d in plain `cargo test` (they print figures);
# here they run, and their checks (every command answered, status GOOD) must pass. (The filter
# names sgctl-sim's tcmu::ring module; --workspace reuses the build above.)
cargo test -q --workspace --lib tcmu::ring -- --ignored --nocapture

stage "release build (the VM suite's guest binary and the Debian package's; background since the start), VM suite started beside the next stages"
# Nothing runs in the foreground now: what is left of it gets normal priority (cargo and the
# compilers it runs now; the ones it starts later inherit cargo's). Lowering a nice value needs
# root, which the suite has (dpkg -i); without it the build just stays at nice 10.
renice_tree() {
  local c
  renice -n 0 -p "$1" >/dev/null 2>&1 || true
  for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do renice_tree "$c"; done
}
renice_tree "$REL_BUILD_PID"
while [[ ! -s $REL_BUILD_RC ]] && kill -0 "$REL_BUILD_PID" 2>/dev/null; do sleep 1; done
wait "$REL_BUILD_PID" 2>/dev/null || true; REL_BUILD_PID=""
rel_rc=$(cat "$REL_BUILD_RC" 2>/dev/null || echo 1); rel_rc=${rel_rc:-1}
cat "$REL_BUILD_LOG"; rm -f "$REL_BUILD_LOG" "$REL_BUILD_RC"
(( rel_rc == 0 )) || { echo "test-all: release build FAILED (exit $rel_rc)"; exit 1; }
VM_LOG=$(mktemp /tmp/sgctl-vm.XXXXXX.log)
VM_RC=$(mktemp /tmp/sgctl-vm.XXXXXX.rc)
if [[ -n "${SGCTL_SKIP_VM:-}" && "${CI:-}" != "true" ]]; then
  echo "test-all: VM suite SKIPPED because SGCTL_SKIP_VM is set (CI always runs it)"
  echo 0 > "$VM_RC"
else
  # Debian's kernel and QEMU, installed here in the foreground: the stages beside the VM suite
  # may run apt-get too, and two at once fail on dpkg's lock.
  vm/setup.sh > /dev/null
  # The guest runs the release build just made (no extra compile); the debug build spends
  # minutes of emulated CPU in the virtual drive's state saves.
  ( t=$SECONDS; rc=0; VM_PROFILE=release vm/run.sh > "$VM_LOG" 2>&1 || rc=$?
    echo "test-all: VM suite took $((SECONDS - t))s, exit $rc" >> "$VM_LOG"; echo "$rc" > "$VM_RC" ) &
  VM_PID=$!
fi

stage "bindings freshness (sys/src/x86_64.rs regenerated with bindgen must match the committed file; beside the VM suite)"
# bindgen needs libclang at run time; the default build never does. Install it only if missing.
if ! dpkg-query -W -f='${Status}' libclang-dev 2>/dev/null | grep -q "install ok installed"; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=900 update -qq
  apt-get -o DPkg::Lock::Timeout=900 install -y -qq libclang-dev >/dev/null
fi
# xtask with its bindgen feature: linted, then built once (with the workspace's features, so only
# bindgen's crates and xtask compile) and run for this check, the man pages and the package.
cargo clippy --workspace --all-targets --features xtask/bindgen -- -D warnings
cargo build -q --workspace --all-targets --features xtask/bindgen
XTASK="${CARGO_TARGET_DIR:-$PWD/target}/debug/xtask"
# scripts/test-package.sh and scripts/test-ansible.sh use these instead of building their own
# (with features resolved for one package: a second debug build of the tree).
export SGCTL_XTASK="$XTASK" SGCTL_BIN="${CARGO_TARGET_DIR:-$PWD/target}/debug/sgctl"
"$XTASK" gen-sys --check

stage "man pages and completions freshness (dist/ regenerated from the clap definitions must match), API docs without warnings (beside the VM suite)"
# xtask runs SGCTL_BIN (the workspace build above) to render them; `cargo run -p sgctl` would
# resolve features for sgctl alone and compile most of the tree a second time.
"$XTASK" gen-docs --check
# The library's API documentation builds without a warning (a link to an item that is not
# public, a broken intra-doc link); the dependencies' docs are not built.
RUSTDOCFLAGS="-D warnings" cargo doc -q --workspace --no-deps

stage "Debian package: build, dpkg -i, man/completions/units checks, dpkg -r and purge (beside the VM suite)"
scripts/test-package.sh

stage "Ansible collection on sim: drives (ansible-core from PyPI in a venv; beside the VM suite)"
scripts/test-ansible.sh

stage "fuzzing (every cargo-fuzz target for FUZZ_SECONDS, scripts/fuzz.sh; beside the VM suite)"
# Waits for the background build first. Niced, so the guests come first: the fuzzing is bounded
# by time per target, not by executions. Fails on any crash.
while [[ ! -s $FUZZ_BUILD_RC ]] && kill -0 "$FUZZ_BUILD_PID" 2>/dev/null; do sleep 2; done
wait "$FUZZ_BUILD_PID" 2>/dev/null || true; FUZZ_BUILD_PID=""
fuzz_rc=$(cat "$FUZZ_BUILD_RC" 2>/dev/null || echo 1); fuzz_rc=${fuzz_rc:-1}
echo "--- fuzz targets' build (background since the start):"
cat "$FUZZ_BUILD_LOG"; rm -f "$FUZZ_BUILD_LOG" "$FUZZ_BUILD_RC"
if (( fuzz_rc == 0 )); then
  FUZZ_BIN_DIR=fuzz/target/x86_64-unknown-linux-gnu/release FUZZ_SECONDS=${FUZZ_SECONDS:-10} \
    nice -n 10 scripts/fuzz.sh || fuzz_rc=$?
fi
# (A failure is reported after the VM suite's verdict, so that one run shows both.)

stage "VM suite (Debian's kernel in QEMU; started after the release build): waiting for it"
if [[ -n $VM_PID ]]; then wait "$VM_PID" || true; VM_PID=""; fi
vm_rc=$(cat "$VM_RC" 2>/dev/null || echo 1); vm_rc=${vm_rc:-1}
echo "--- VM suite (vm/run.sh) output:"
cat "$VM_LOG"; rm -f "$VM_LOG" "$VM_RC"
(( vm_rc == 0 )) || echo "test-all: VM suite FAILED (exit $vm_rc)"
(( fuzz_rc == 0 )) || echo "test-all: fuzzing FAILED (exit $fuzz_rc)"
(( vm_rc == 0 && fuzz_rc == 0 )) || exit 1

stage "done"
cpu_now
printf 'test-all: stage times (wall, CPU)\n%s%5ds %6s  total\n' "$TIMES" $((SECONDS - T0)) "${CPU}cpu"
echo "test-all: build trees: $(du -sh target fuzz/target 2>/dev/null | tr '\t\n' ' ')"
echo "test-all: all stages passed"
