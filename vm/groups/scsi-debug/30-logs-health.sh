# sgctl logs/health against scsi_debug, compared with sg_logs and smartctl on the same device
# (scsi_debug implements log pages 0x00, 0x0D and 0x2F; its page 0x2F reports 5D/FF while the
# TEST bit of the informational exceptions mode page 0x1C is set).
. /vm/guest/lib.sh

dev=""
for s in /sys/class/scsi_generic/sg*; do
  if grep -q scsi_debug "$s/device/model" 2>/dev/null; then dev=/dev/$(basename "$s"); break; fi
done
if [ -z "$dev" ]; then
  fail find_device "no scsi_debug sg node"
  exit 0
fi

# --- page 0x00: supported pages, sgctl vs sg_logs ---
ours=$(sgctl --json logs "$dev" --page 0 | jq -r '[.data.pages[0].decoded.pages[].page_code] | map(tostring) | join(" ")')
theirs=$(sg_logs -p 0 "$dev" | awk '/^ +0x[0-9a-fA-F]+/ {print $1}' | while read -r h; do printf '%d ' "$h"; done)
theirs=$(echo $theirs)
[ -n "$ours" ] && [ "$ours" = "$theirs" ] && pass supported_pages_vs_sg_logs \
  || fail supported_pages_vs_sg_logs "sgctl '$ours' vs sg_logs '$theirs'"

# --- page 0x0D: temperature, sgctl vs sg_logs vs smartctl ---
j=$(sgctl --json logs "$dev" --page 0x0d)
cur=$(echo "$j" | jq -r '.data.pages[0].decoded.current_c')
trip=$(echo "$j" | jq -r '.data.pages[0].decoded.drive_trip_c')
sl=$(sg_logs -p 0xd "$dev")
sl_cur=$(echo "$sl" | sed -n 's/.*Current temperature = \([0-9-]*\) C.*/\1/p' | head -1)
sl_ref=$(echo "$sl" | sed -n 's/.*Reference temperature = \([0-9-]*\) C.*/\1/p' | head -1)
[ -n "$cur" ] && [ "$cur" = "$sl_cur" ] && [ "$trip" = "$sl_ref" ] && pass temperature_vs_sg_logs \
  || fail temperature_vs_sg_logs "sgctl $cur/$trip vs sg_logs $sl_cur/$sl_ref: $sl"
sm=$(smartctl -j -A "$dev")
sm_cur=$(echo "$sm" | jq -r '.temperature.current')
sm_trip=$(echo "$sm" | jq -r '.temperature.drive_trip')
[ "$cur" = "$sm_cur" ] && [ "$trip" = "$sm_trip" ] && pass temperature_vs_smartctl \
  || fail temperature_vs_smartctl "sgctl $cur/$trip vs smartctl $sm_cur/$sm_trip"

# --- page 0x2F: informational exceptions, sgctl vs sg_logs ---
ie_json() { sgctl --json logs "$dev" --page 0x2f | jq -r '.data.pages[0].decoded | "\(.asc) \(.ascq) \(.most_recent_temperature_c)"'; }
ie_sg_logs() {
  out=$(sg_logs -p 0x2f "$dev")
  set -- $(echo "$out" | sed -n 's/.*IE asc = 0x\([0-9a-fA-F]*\), ascq = 0x\([0-9a-fA-F]*\).*/\1 \2/p' | head -1)
  t=$(echo "$out" | sed -n 's/.*Current temperature = \([0-9-]*\) C.*/\1/p' | head -1)
  [ $# = 2 ] && printf '%d %d %s\n' "0x$1" "0x$2" "$t"
}
a=$(ie_json); b=$(ie_sg_logs)
[ -n "$a" ] && [ "$a" = "$b" ] && pass ie_vs_sg_logs || fail ie_vs_sg_logs "sgctl '$a' vs sg_logs '$b'"

# --- every listed page decodes ---
n_sup=$(sgctl --json logs "$dev" | jq '[.data.pages[]] | length')
n_err=$(sgctl --json logs "$dev" | jq '.data.errors | length')
[ "$n_err" = 0 ] && [ "$n_sup" -ge 3 ] && pass all_pages_read || fail all_pages_read "$n_sup pages, $n_err errors"

# --- health: healthy, then a rule breach, then prometheus ---
h=$(sgctl --json health "$dev"); rc=$?
state=$(echo "$h" | jq -r '.data.drives[0].state')
htemp=$(echo "$h" | jq -r '.data.drives[0].temperature.current_c')
[ "$rc" = 0 ] && [ "$state" = ok ] && [ "$htemp" = "$sl_cur" ] && pass health_ok \
  || fail health_ok "exit $rc state $state temp $htemp (sg_logs $sl_cur): $(echo "$h" | jq -c '.data.drives[0].reasons')"
sgctl health "$dev" --max "temperature_c=$((sl_cur - 1))" >/dev/null 2>&1; rc=$?
[ "$rc" = 16 ] && pass health_rule_breach_bit4 || fail health_rule_breach_bit4 "exit $rc, want 16"
p=$(sgctl health --prometheus "$dev" | sed -n 's/^sgctl_temperature_celsius{.*} \([0-9.]*\)$/\1/p')
[ "$p" = "$sl_cur" ] && pass prometheus_temperature || fail prometheus_temperature "got '$p'"

# --- informational exception: TEST bit -> 5D/FF -> failing, as smartctl sees it ---
if sdparm --quiet --set=TEST=1 "$dev" >/dev/null 2>&1; then
  sg_turs "$dev" >/dev/null 2>&1 || true   # consume the "mode parameters changed" unit attention
  h=$(sgctl --json health "$dev"); rc=$?
  ie=$(echo "$h" | jq -r '.data.drives[0].informational_exception | "\(.asc) \(.ascq)"')
  state=$(echo "$h" | jq -r '.data.drives[0].state')
  sm=$(smartctl -j -H "$dev")
  sm_ie=$(echo "$sm" | jq -r '.smart_status.scsi | "\(.asc) \(.ascq)"')
  sm_passed=$(echo "$sm" | jq -r '.smart_status.passed')
  [ $((rc & 8)) = 8 ] && [ "$state" = failing ] && [ "$ie" = "93 255" ] && pass ie_test_is_failing \
    || fail ie_test_is_failing "exit $rc state $state ie $ie"
  [ "$ie" = "$sm_ie" ] && [ "$sm_passed" = false ] && pass ie_test_vs_smartctl \
    || fail ie_test_vs_smartctl "sgctl $ie vs smartctl $sm_ie passed=$sm_passed"
  sdparm --quiet --set=TEST=0 "$dev" >/dev/null 2>&1
  sg_turs "$dev" >/dev/null 2>&1 || true
  sgctl health "$dev" >/dev/null 2>&1; rc=$?
  [ "$rc" = 0 ] && pass ie_test_cleared || fail ie_test_cleared "exit $rc after TEST=0"
else
  fail ie_test_is_failing "sdparm could not set TEST=1 on $dev"
fi

# Read-only: five health runs leave every counter page scsi_debug lists unchanged (it lists no
# error counter page; 0x0D and 0x2F are compared), and sgctl's smartctl-layout JSON agrees with
# smartctl's on every key both print (on the sd node, as smartctl is usually run). scsi_debug
# lists page 0x0D/0x01, so `smartctl -x` prints scsi_environmental_reports instead of temperature.
. /vm/guest/smartctl-agree.sh
health_read_only health_leaves_counters_unchanged "$dev" 0x02 0x03 0x05 0x06 0x0d 0x2f
sd=/dev/$(ls "/sys/class/scsi_generic/$(basename "$dev")/device/block" 2>/dev/null | head -1)
if [ -b "$sd" ]; then
  smartctl_agree smartctl_json_agrees "$sd" device.name device.type scsi_vendor scsi_product \
    user_capacity.bytes logical_block_size smart_status.passed \
    scsi_environmental_reports.temperature_1.current \
    scsi_environmental_reports.temperature_1.lifetime_maximum
else
  fail smartctl_json_agrees "no block node for $dev"
fi
