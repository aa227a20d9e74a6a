# A consistently aged drive through TCMU: served with wear=50, smartctl -x reads 50 %
# endurance used together with the bytes processed, power-on hours and start-stop cycles that
# wear implies (sim/src/sim/aging.rs); the written bytes over the power-on time make a drive-writes-
# per-day figure within the model's rating, and sgctl health agrees and judges the drive OK.
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
# A second drive in its own state file: the group's drive (and its state) stays as it was.
BASE=$TCMU_SPEC_BASE
stop_serve; rc=$?
TCMU_SPEC_BASE="px02smf080?capacity_gib=1&serial=TCMU0001&state=/tmp/tcmu-worn.state"
start_serve "speed=5&wear=50" && [ $rc = 0 ] && pass restart_worn || fail restart_worn "stop exit $rc"
sg=$(tcmu_sg)
sg_turs "$sg" >/dev/null 2>&1; sg_turs "$sg" >/dev/null 2>&1
x=$(smartctl -x "$sg" 2>&1)
echo "$x" | grep -iE "endurance|power on time|start-stop|grown defect|^read:|^write:"
used=$(echo "$x" | sed -n 's/.*Percentage used endurance indicator: *\([0-9]*\)%.*/\1/p')
hours=$(echo "$x" | sed -n 's/.*Accumulated power on time, hours:minutes \([0-9]*\):.*/\1/p')
cycles=$(echo "$x" | sed -n 's/.*Accumulated start-stop cycles: *\([0-9]*\).*/\1/p')
gbw=$(echo "$x" | awk '/^write:/ {print $7}')
echo "used=$used hours=$hours cycles=$cycles written_GB=$gbw"
[ "$used" = 50 ] && pass smartctl_endurance_50 || fail smartctl_endurance_50 "'$used'"
# Drive writes per day over the power-on time (capacity 1 GiB), and about a cycle a month.
ok=$(awk -v g="$gbw" -v h="$hours" -v c="$cycles" 'BEGIN {
  if (h <= 0 || c <= 0 || g <= 0) { print "no"; exit }
  dwpd = g * 1e9 / 1073741824 / (h / 24); m = h / c
  print (dwpd > 0.5 && dwpd < 20 && m > 600 && m < 900) ? "yes" : "no"
  printf "dwpd=%.2f hours_per_cycle=%.0f\n", dwpd, m > "/dev/stderr" }')
[ "$ok" = yes ] && pass smartctl_history_consistent || fail smartctl_history_consistent "hours $hours cycles $cycles written $gbw GB"
h=$(sgctl --json health "$sg")
echo "$h" | jq -c '.data.drives[0] | {state, e: .endurance | {used_percent, power_on_hours, drive_writes_per_day}}'
[ "$(echo "$h" | jq -r '.data.drives[0].state')" = ok ] \
  && [ "$(echo "$h" | jq -r '.data.drives[0].endurance.power_on_hours | floor')" = "$hours" ] \
  && pass sgctl_health_ok_and_agrees || fail sgctl_health_ok_and_agrees "$(echo "$h" | jq -c '.data.drives[0] | {state, reasons, endurance}')"
stop_serve; rc=$?
TCMU_SPEC_BASE=$BASE
start_serve "speed=5" && [ $rc = 0 ] && pass group_drive_back || fail group_drive_back "stop exit $rc"
