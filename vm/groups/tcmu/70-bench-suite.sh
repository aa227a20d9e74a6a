# The benchmark suite over real SG_IO: `sgctl bench pts --test lat` on the
# TCMU-served virtual drive — the safety gate, a SANITIZE purge (CRYPTOGRAPHIC ERASE: the
# shortest; 2 s of drive time), WIPC, rounds to steady state (or "not reached"), report.json
# and report.html — once with the uring engine on /dev/sdX, once with the sg engine on
# /dev/sgN. ActiveRange 0.25 % (2.7 MiB) and --time-scale 0.0002 (a 1-minute cell is 12 ms) keep
# each run to seconds. WCE (Caching mode page) read with sdparm before, polled during the run
# (cleared), and after (restored); sg_modes reads the same page.
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
export SGCTL_AUDIT_LOG=/tmp/audit-suite.jsonl
sg=$(tcmu_sg)
sd=$(tcmu_sd)
wce() { sdparm --get=WCE "$1" 2>/dev/null | awk '$1 == "WCE" {print $2; exit}'; }
# sg_modes: byte 2 of the Caching page (08h) holds WCE in bit 2 (SBC-4 7.5.5).
wce_sg_modes() {
  sg_modes --page=8 --raw "$1" 2>/dev/null | od -An -tu1 -v | tr -s ' \n' ' ' | awk '{
    # MODE SENSE(10): 8-byte header, block descriptor length in bytes 6-7, then the page.
    p = 9 + $7 * 256 + $8; print int($(p + 2) / 4) % 2 }'
}
before=$(wce "$sg")
before_m=$(wce_sg_modes "$sg")
echo "WCE before: sdparm $before sg_modes $before_m"
[ -n "$before" ] && [ "$before" = "$before_m" ] && pass wce_read_before "WCE=$before" \
  || fail wce_read_before "sdparm '$before' sg_modes '$before_m'"
suite() { # name engine device
  dir=/tmp/suite-$1
  rm -rf "$dir"
  sgctl bench pts "$3" --engine "$2" --test lat --purge crypto --active-range 0.25 \
    --time-scale 0.0002 --max-rounds 5 --confirm TCMU0001 --report "$dir" \
    >/tmp/suite-$1.out 2>/tmp/suite-$1.err </dev/null &
  pid=$!
  during=""
  while kill -0 $pid 2>/dev/null; do
    w=$(wce "$sg"); [ "$w" = 0 ] && during=0
    sleep 1
  done
  wait $pid; rc=$?
  tail -n 12 /tmp/suite-$1.out
  j=$dir/report.json
  [ $rc = 0 ] && [ "$(jq -r .complete "$j")" = true ] && pass "$1_complete" \
    || { fail "$1_complete" "exit $rc: $(tail -n 3 /tmp/suite-$1.err)"; return; }
  got=$(jq -r '[.header.engine, .tests[0].stages[0].purge.purged, .tests[0].stages[0].purge.method,
               (.tests[0].stages | map(.name) | join(","))] | join(" ")' "$j")
  case "$got" in
    "$2 true CRYPTOGRAPHIC ERASE purge,wipc,wdpc") pass "$1_flow" "$got" ;;
    *) fail "$1_flow" "$got" ;;
  esac
  cert=$(jq -r '.tests[0].stages[0].purge.certificate' "$j")
  [ -f "$dir/$cert" ] && pass "$1_certificate" || fail "$1_certificate" "no $dir/$cert"
  ss=$(jq -r '.tests[0].stages[2].steady_state | "\(.rounds) \(.reached) \(.window != null)"' "$j")
  rows=$(jq -r '.tests[0].results.table | length' "$j")
  case "$ss" in
    5" "*" true") [ "$rows" = 9 ] && pass "$1_rounds_steady_state_table" "$ss, $rows rows" \
                         || fail "$1_rounds_steady_state_table" "$rows rows" ;;
    *) fail "$1_rounds_steady_state_table" "steady state: $ss" ;;
  esac
  grep -q "steady state" "$dir/report.html" && pass "$1_report_html" || fail "$1_report_html" "no report.html"
  wc_json=$(jq -r '.write_cache | "\(.wce_before) \(.wce_during) \(.wce_after) \(.restored)"' "$j")
  after=$(wce "$sg")
  echo "WCE $1: report '$wc_json', sdparm during '$during' after '$after'"
  [ "$wc_json" = "true false true true" ] && [ "$after" = "$before" ] && pass "$1_wce_restored" "$wc_json" \
    || fail "$1_wce_restored" "report '$wc_json', sdparm after '$after' (before '$before')"
  [ "$during" = 0 ] && pass "$1_wce_cleared_during" || skip "$1_wce_cleared_during" "no sdparm sample fell inside the run"
}
[ "$before" = 1 ] || fail wce_precondition "the drive's WCE is '$before', want 1"
suite uring uring "$sd"
suite sg sg "$sg"
after_m=$(wce_sg_modes "$sg")
[ "$after_m" = "$before_m" ] && pass wce_sg_modes_after "WCE=$after_m" || fail wce_sg_modes_after "'$after_m' vs '$before_m'"
