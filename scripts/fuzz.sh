#!/usr/bin/env bash
# Runs every cargo-fuzz target in fuzz/ (one per parser of untrusted bytes) for a bounded time
# and fails if any of them crashes (panic, overflow, out-of-bounds, timeout, OOM). Seeds each
# corpus from fixtures/ and replays the committed regression inputs (fuzz/regressions/TARGET/).
#
#   scripts/fuzz.sh                 # every target, FUZZ_SECONDS (default 10) each
#   scripts/fuzz.sh vpd sense       # some targets
#   FUZZ_RUNS=10000000 nice -n 19 scripts/fuzz.sh     # the long campaign: N executions each
#   (FUZZ_MAX_SECONDS=S caps each target's time as well)
#   FUZZ_BUILD_ONLY=1 scripts/fuzz.sh                # only build (scripts/test-all.sh builds early,
#   FUZZ_BIN_DIR=fuzz/target/x86_64-unknown-linux-gnu/release scripts/fuzz.sh   # runs later)
#
# Installs what it needs when missing: the nightly toolchain (rustup), cargo-fuzz, xxd.
# Builds with debug assertions (overflow checks) and without a sanitizer by default: the code
# under test is safe Rust, where ASan finds nothing the bounds checks do not, at 2-3x the cost
# (FUZZ_SANITIZER=address to use it anyway). Counts go to $FUZZ_ARTIFACTS/summary.tsv.
set -euo pipefail
cd "$(dirname "$0")/.."

SECS=${FUZZ_SECONDS:-10}
# FUZZ_BIN_DIR: run already built target binaries from there (a snapshot for a long campaign
# while the tree changes); FUZZ_CORPUS: corpus root (default fuzz/corpus); FUZZ_ARTIFACTS:
# where logs, crash inputs and summary.tsv go (default fuzz/artifacts).
BIN_DIR=${FUZZ_BIN_DIR:-}
CORPUS=${FUZZ_CORPUS:-fuzz/corpus}
ART=${FUZZ_ARTIFACTS:-fuzz/artifacts}
# FUZZ_TIMEOUT: seconds one input may take (libFuzzer counts wall time: a nice -n 19 campaign
# on a loaded host needs far more than the suite's 10, or a starved process reports timeouts).
TIMEOUT=${FUZZ_TIMEOUT:-10}
RUNS=${FUZZ_RUNS:-}
SAN=${FUZZ_SANITIZER:-none}
TOOLCHAIN=${FUZZ_TOOLCHAIN:-nightly}

if ! rustup run "$TOOLCHAIN" rustc --version >/dev/null 2>&1; then
  rustup toolchain install "$TOOLCHAIN" --profile minimal
fi
if ! cargo "+$TOOLCHAIN" fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi
if ! command -v xxd >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=900 update -qq && apt-get -o DPkg::Lock::Timeout=900 install -y -qq xxd >/dev/null
fi

# ASCII hex as sg3_utils --inhex reads it (offsets, # comments) -> binary on stdout.
unhex() { sed -e 's/#.*//' -e 's/^[0-9a-fA-F]\{4,\}[: ]  *//' "$1" | tr -d ' ,\t\r\n' | xxd -r -p; }

# seed TARGET PREFIX FILE...: writes each fixture (after the selector bytes PREFIX, as \xNN)
# into the target's corpus.
seed() {
  local t=$1 pre=$2; shift 2
  mkdir -p "fuzz/corpus/$t"
  for f in "$@"; do
    [[ -f $f ]] || continue
    { printf "$pre"; unhex "$f"; } > "fuzz/corpus/$t/seed-$(basename "$(dirname "$f")")-$(basename "$f" .hex)"
  done
}

make_seeds() {
  local c=fixtures/commands
  seed sense '' $c/*/request_sense.hex $c/*/*sense*.hex
  seed inquiry '' $c/*/inquiry.hex $c/*/inq_*.hex
  # Selector 0xff: no page code forced, the fixture's own page is decoded.
  seed vpd '\xff' $c/*/vpd_*.hex $c/published/*vpd*.hex
  seed read_capacity '' $c/*/readcap*.hex
  seed report_luns '' $c/*/luns*.hex
  seed rsoc '' $c/*/rsoc_*.hex $c/*/opcodes.hex
  seed mode '' $c/*/mode*.hex
  seed logpage '\xff' fixtures/logpages/*.hex
  # SES: each whole capture (pages back to back) once per decoder, selectors 0x80-0x83.
  mkdir -p fuzz/corpus/ses
  for f in $c/*/ses_*.hex; do
    for k in 0 1 2 3; do
      { printf "\\x8$k"; unhex "$f"; } > "fuzz/corpus/ses/seed-$(basename "$f" .hex)-$k"
    done
  done
  seed tcg_level0 '' fixtures/tcg/*level0*.hex
  seed tcg_packet '' fixtures/tcg/*reply*.hex fixtures/tcg/*startsession*.hex
  seed tcg_token '' fixtures/tcg/*tokens*.hex
  seed tcg_method '' fixtures/tcg/*tokens*.hex
  mkdir -p fuzz/corpus/inhex fuzz/corpus/health_rules fuzz/corpus/mode_page
  cp $c/sg3_utils_inhex/*.hex fixtures/tcg/sedutil-304-level0-opal.hex fuzz/corpus/inhex/
  printf '[max]\nendurance_used = 80\ntemperature = 60\n[min]\nspare = 10\n' \
    > fuzz/corpus/health_rules/seed-rules
  # Mode pages: the pages inside each MODE SENSE(10) fixture (after the 8-byte header and the
  # block descriptors), selector 0xff.
  local f bin bdl
  for f in $c/*/mode10_*.hex; do
    bin=$(mktemp)
    unhex "$f" > "$bin"
    bdl=$(( $(od -An -tu1 -j6 -N1 "$bin") * 256 + $(od -An -tu1 -j7 -N1 "$bin") ))
    { printf '\xff'; tail -c +$((9 + bdl)) "$bin"; } \
      > "fuzz/corpus/mode_page/seed-$(basename "$(dirname "$f")")-$(basename "$f" .hex)"
    rm -f "$bin"
  done
  # The simulator: INQUIRY, MODE SELECT(10) with a parameter list, FORMAT UNIT with one,
  # SANITIZE overwrite with one (layout in fuzz_targets/sim_cdb.rs).
  mkdir -p fuzz/corpus/sim_cdb fuzz/corpus/tcmu_ring fuzz/corpus/sysfs fuzz/corpus/state_file
  printf '\x00\x00\x12\x00\x00\x00\x60\x00\x01\x00\x60\x00' > fuzz/corpus/sim_cdb/seed-inquiry
  { printf '\x00\x02\x55\x10\x00\x00\x00\x00\x00\x00\x1c\x00\x02\x00\x00\x07'
    head -c 28 /dev/zero; } > fuzz/corpus/sim_cdb/seed-mode-select
  printf '\x01\x00\x04\x16\x00\x00\x00\x00\x02\x00\x00\x01\x00\x02\x00\x00\x00' \
    > fuzz/corpus/sim_cdb/seed-format
  printf '\x00\x02\x48\x01\x00\x00\x00\x00\x00\x00\x08\x00\x02\x00\x00\x02\x01\x00\x00\x04\xde\xad\xbe\xef' \
    > fuzz/corpus/sim_cdb/seed-sanitize
  printf '\x00\x00\x00\x05\x00Ahello' > fuzz/corpus/sysfs/seed-one-attr
  printf '{}' > fuzz/corpus/state_file/seed-empty
  mkdir -p fuzz/corpus/report_load && cp docs/examples/run-mk4001grzb-qd4/report.json fuzz/corpus/report_load/seed-run && printf '{"format":"sgctl-bench-report","version":1,"suite":"run","header":{"model":"M","serial":"S"},"settings":{"bs":[[4096,1]]},"result":{"iops":1e3,"latency":{"percentiles":[[99,5]]},"intervals":[{"t_s":1,"iops":1e3}],"histogram":[[10,5],[20,1]]}}' > fuzz/corpus/report_load/seed-small
  # Committed regression inputs (every crash ever found) join the corpus.
  if [[ -d fuzz/regressions ]]; then
    for d in fuzz/regressions/*/; do
      mkdir -p "fuzz/corpus/$(basename "$d")"
      cp "$d"* "fuzz/corpus/$(basename "$d")/" 2>/dev/null || true
    done
  fi
}

targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  mapfile -t targets < <(cargo "+$TOOLCHAIN" fuzz list)
fi

make_seeds
if [[ -n $CORPUS && $CORPUS != fuzz/corpus ]]; then
  mkdir -p "$CORPUS"
  cp -rn fuzz/corpus/. "$CORPUS/"
fi
if [[ -z $BIN_DIR ]]; then
  echo "fuzz: building ${#targets[@]} targets (sanitizer $SAN, debug assertions on)"
  t0=$SECONDS
  cargo "+$TOOLCHAIN" fuzz build -O -a -s "$SAN" >/dev/null
  echo "fuzz: built in $((SECONDS - t0)) s"
  BIN_DIR=fuzz/target/x86_64-unknown-linux-gnu/release
fi
[[ -z ${FUZZ_BUILD_ONLY:-} ]] || exit 0

mkdir -p "$ART"
summary=$ART/summary.tsv
[[ -f $summary ]] || printf 'date\ttarget\truns\tseconds\tresult\n' > "$summary"
fail=0
start_all=$SECONDS
for t in "${targets[@]}"; do
  log=$ART/$t.log
  if [[ -n $RUNS ]]; then
    limit=(-runs="$RUNS")
    # FUZZ_MAX_SECONDS caps a campaign target's time too (whichever comes first).
    [[ -n ${FUZZ_MAX_SECONDS:-} ]] && limit+=(-max_total_time="$FUZZ_MAX_SECONDS")
  else
    limit=(-max_total_time="$SECS")
  fi
  t0=$SECONDS
  mkdir -p "$ART/$t" "$CORPUS/$t"
  if "$BIN_DIR/$t" "$CORPUS/$t" "${limit[@]}" -timeout="$TIMEOUT" -rss_limit_mb=2048 -max_len=8192 \
      -print_final_stats=1 -artifact_prefix="$ART/$t/" >"$log" 2>&1; then
    result=ok
  else
    result=CRASH
    fail=1
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  runs=${runs:-$(grep -o 'Done [0-9]* runs' "$log" | grep -o '[0-9]*' | tail -1)}
  printf '%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$t" "${runs:-?}" "$((SECONDS - t0))" "$result" \
    | tee -a "$summary"
  if [[ $result != ok ]]; then
    echo "fuzz: $t crashed; the input is in $ART/$t/ (log: $log):" >&2
    grep -E 'panicked|ERROR|SUMMARY|Test unit written' "$log" | head -5 >&2
  fi
done
echo "fuzz: ${#targets[@]} targets in $((SECONDS - start_all)) s"
exit $fail
