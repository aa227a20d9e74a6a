#!/usr/bin/env bash
# Benchmark (not a test): boots the `bench` group once with a release sgctl and the library's TUR
# loop (examples/tur_loop.rs) and prints the timings and ratios measured in that one boot.
# Results: docs/benchmarks/scan-256-luns.md.
set -euo pipefail
VM_DIR="$(cd "$(dirname "$0")" && pwd)"
REPO="$(dirname "$VM_DIR")"
(cd "$REPO" && cargo build --quiet --release --bin sgctl --example tur_loop)
T="${CARGO_TARGET_DIR:-$REPO/target}/release"
VM_KEEP=1 VM_PROFILE=release VM_SGCTL="$T/sgctl" VM_EXTRA_BINS="$T/examples/tur_loop" \
  "$VM_DIR/run.sh" bench
echo "--- results (vm/out/bench/export/bench.txt) ---"
cat "$VM_DIR/out/bench/export/bench.txt"
