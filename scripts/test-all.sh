#!/usr/bin/env bash
# The whole test suite: what the README names and what .ci/run calls. Installs what it needs
# (Debian packages for the VM suite and the bindings check), so it runs on a fresh machine.
# Stages: lint, unit+integration tests, bindings freshness, VM suite (real kernel in QEMU).
set -euo pipefail
cd "$(dirname "$0")/.."

# Each stage header says when it started; the end prints every stage's duration (suite time budget:
# 30 minutes, see README).
T0=$SECONDS; TL=$SECONDS; TIMES=""; CUR=""
stage() {
  [[ -n "$CUR" ]] && TIMES+="$(printf '%5ds  %s' $((SECONDS - TL)) "$CUR")"$'\n'
  CUR="$*"; TL=$SECONDS
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

stage "format and lint"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
# The product library without the virtual drive (the default `sim` feature, crate sgctl-sim)
# must build warning-free and pass its unit tests (tests/it and the sim example need `sim`).
cargo clippy -q -p sgctl --no-default-features --all-targets -- -D warnings
cargo test -q -p sgctl --no-default-features --lib

stage "unit, fixture, simulator and CLI tests"
# tests/sg3_compare.rs compares `sgctl decode` with Debian's sg3_utils (sg_vpd, sg_inq,
# sg_decode_sense); install it if missing and make the comparison mandatory here.
if ! command -v sg_vpd >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq sg3-utils >/dev/null
fi
# tests/it/browser.rs opens the HTML reports and certificates in headless Chromium (Debian's
# package); install it if missing and make the browser checks mandatory here.
if ! command -v chromium >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends chromium >/dev/null
fi
# tests/it/records_pdf.rs opens the PDF/A certificates with poppler (pdfinfo, pdfdetach,
# pdftotext, pdftoppm: Debian's poppler-utils); install it if missing and make it mandatory here.
if ! command -v pdfinfo >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends poppler-utils >/dev/null
fi
SGCTL_REQUIRE_SG3=1 SGCTL_REQUIRE_CHROMIUM=1 SGCTL_REQUIRE_POPPLER=1 cargo test --workspace
# The two fake-ring measurements are #[ignore]d in plain `cargo test` (they print figures);
# here they run, and their checks (every command answered, status GOOD) must pass.
cargo test -q -p sgctl-sim --lib tcmu::ring -- --ignored --nocapture

stage "bindings freshness (sys/src/x86_64.rs regenerated with bindgen must match the committed file)"
# bindgen needs libclang at run time; the default build never does. Install it only if missing.
if ! dpkg-query -W -f='${Status}' libclang-dev 2>/dev/null | grep -q "install ok installed"; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq libclang-dev >/dev/null
fi
cargo clippy -p xtask --features bindgen --all-targets -- -D warnings
cargo run -q -p xtask -- gen-sys --check

stage "man pages and completions freshness (dist/ regenerated from the clap definitions must match)"
cargo run -q -p xtask -- gen-docs --check

stage "Debian package: build, dpkg -i, man/completions/units checks, dpkg -r and purge"
scripts/test-package.sh

stage "Ansible collection on sim: drives (ansible-core from PyPI in a venv)"
scripts/test-ansible.sh

stage "fuzzing (every cargo-fuzz target, bounded time, scripts/fuzz.sh) beside the VM suite (Debian's kernel in QEMU)"
# The two run at the same time: the VM groups mostly wait on emulated devices and timers, and
# the fuzzing is bounded by time per target, not by executions (niced, so the guests come
# first). fuzz.sh installs the nightly toolchain and cargo-fuzz when missing and fails on any
# crash; its output is printed after the VM suite's.
FUZZ_LOG=$(mktemp /tmp/sgctl-fuzz.XXXXXX.log)
( t=$SECONDS; rc=0
  FUZZ_SECONDS=${FUZZ_SECONDS:-10} nice -n 10 scripts/fuzz.sh > "$FUZZ_LOG" 2>&1 || rc=$?
  echo "test-all: fuzzing took $((SECONDS - t))s, exit $rc" >> "$FUZZ_LOG"; exit $rc ) &
FUZZ_PID=$!
vm_rc=0
if [[ -n "${SGCTL_SKIP_VM:-}" && "${CI:-}" != "true" ]]; then
  echo "test-all: VM suite SKIPPED because SGCTL_SKIP_VM is set (CI always runs it)"
else
  # The guest runs the release build the package stage just made (cargo deb: no extra compile);
  # the debug build spends minutes of emulated CPU in the virtual drive's state saves.
  VM_PROFILE=release vm/run.sh || vm_rc=$?
fi
fuzz_rc=0; wait "$FUZZ_PID" || fuzz_rc=$?
echo "--- fuzzing (scripts/fuzz.sh) output:"
cat "$FUZZ_LOG"; rm -f "$FUZZ_LOG"
(( vm_rc == 0 )) || { echo "test-all: VM suite FAILED (exit $vm_rc)"; exit 1; }
(( fuzz_rc == 0 )) || { echo "test-all: fuzzing FAILED (exit $fuzz_rc)"; exit 1; }

stage "done"
printf 'test-all: stage times\n%s%5ds  total\n' "$TIMES" $((SECONDS - T0))
echo "test-all: build trees: $(du -sh target fuzz/target 2>/dev/null | tr '\t\n' ' ')"
echo "test-all: all stages passed"
