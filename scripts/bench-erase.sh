#!/usr/bin/env bash
# Benchmark (not a test): wall time of `sgctl sanitize` on N virtual drives at once versus one
# drive, same binary, same run. Target: N=24 takes at most 1.2x the time of one.
#
#   scripts/bench-erase.sh [N] [METHOD] [REPEATS]     defaults: 24 crypto 3
#
# The drives are `sim:px02smf080` with the real clock (the drive's work takes wall time:
# crypto erase 2 s, block erase 30 s), 1 GiB each, with --verify 16 (sampled reads before and
# after; needs jq) and progress polling every 0.1 s, so the number measures sgctl's orchestration:
# planning and gating serially, then one thread per drive. Prints the median of REPEATS runs.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-24}; METHOD=${2:-crypto}; REPEATS=${3:-3}
cargo build --release --quiet --bin sgctl
SGCTL=target/release/sgctl
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
export SGCTL_AUDIT_LOG=$TMP/audit.jsonl

run() { # n -> seconds
  local n=$1 args=() i
  for ((i = 0; i < n; i++)); do
    args+=("sim:px02smf080?capacity_gib=1&serial=BENCH$i" --confirm "BENCH$i")
  done
  local t0 t1
  t0=$(date +%s.%N)
  "$SGCTL" --json sanitize "--$METHOD" --verify 16 --poll-interval 0.1 "${args[@]}" > "$TMP/out.json"
  t1=$(date +%s.%N)
  local ok; ok=$(jq '[.data.drives[] | select(.outcome == "success")] | length' "$TMP/out.json" 2>/dev/null || echo "?")
  [[ "$ok" == "$n" ]] || { echo "bench: only $ok of $n drives succeeded" >&2; exit 1; }
  awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f\n", b - a}'
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

one=(); many=()
for ((r = 0; r < REPEATS; r++)); do
  one+=("$(run 1)"); many+=("$(run "$N")")
done
m1=$(printf '%s\n' "${one[@]}" | median)
mn=$(printf '%s\n' "${many[@]}" | median)
printf 'sanitize --%s, 1 drive:   %s s (runs: %s)\n' "$METHOD" "$m1" "${one[*]}"
printf 'sanitize --%s, %d drives: %s s (runs: %s)\n' "$METHOD" "$N" "$mn" "${many[*]}"
awk -v n="$N" -v a="$m1" -v b="$mn" 'BEGIN {printf "ratio %d/1: %.3fx (target <= 1.2x)\n", n, b / a}'
