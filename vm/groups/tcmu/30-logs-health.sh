# sgctl logs/health on the virtual drive served through TCMU, over real SG_IO, compared with
# sg_logs and smartctl reading the same pages from the same device.
. /vm/guest/lib.sh
sg=$(lsscsi -g | awk '/PX02SMF080/ {print $NF; exit}')
sd=$(lsscsi | awk '/PX02SMF080/ {print $NF; exit}')
if [ -z "$sg" ] || [ -z "$sd" ]; then
  fail find_device "no PX02SMF080 path: $(lsscsi -g)"
  exit 0
fi
# Give the counters something to count: 16 MiB written through the block layer.
dd if=/dev/zero of="$sd" bs=1M count=16 oflag=direct 2>/dev/null || fail write_workload "dd to $sd failed"

js=$(sgctl --json logs "$sg")
pg() { echo "$js" | jq -c --argjson p "$1" '.data.pages[] | select(.page_code == $p and .subpage_code == 0) | .decoded'; }
n_err=$(echo "$js" | jq '.data.errors | length')
n_prob=$(echo "$js" | jq '[.data.pages[].problems[]] | length')
[ "$n_err" = 0 ] && [ "$n_prob" = 0 ] && pass all_pages_clean \
  || fail all_pages_clean "$n_err unreadable, problems: $(echo "$js" | jq -c '[.data.pages[].problems[]]')"

sm=$(smartctl -j -x "$sd")
slx() { sg_logs -p "$1" "$sg" 2>&1; }

# 0x11 solid state media: percentage used endurance indicator.
ours=$(pg 17 | jq -r .percentage_used_endurance_indicator)
theirs=$(slx 0x11 | sed -n 's/.*Percentage used endurance indicator: *\([0-9]*\) *%.*/\1/p' | head -1)
smv=$(echo "$sm" | jq -r '.scsi_percentage_used_endurance_indicator // .endurance_used.current_percent // empty')
[ -n "$ours" ] && [ "$ours" = "$theirs" ] && pass ssm_vs_sg_logs || fail ssm_vs_sg_logs "sgctl $ours vs sg_logs '$theirs': $(slx 0x11)"
[ "$ours" = "$smv" ] && pass ssm_vs_smartctl || fail ssm_vs_smartctl "sgctl $ours vs smartctl '$smv'"

# 0x0D temperature.
t=$(pg 13 | jq -r '"\(.current_c) \(.drive_trip_c)"')
tsm=$(echo "$sm" | jq -r '"\(.temperature.current) \(.temperature.drive_trip)"')
tsl=$(slx 0xd | sed -n 's/.*Current temperature = \([0-9]*\) C.*/\1/p;s/.*Reference temperature = \([0-9]*\) C.*/\1/p' | tr '\n' ' ' | sed 's/ $//')
[ "$t" = "$tsl" ] && pass temperature_vs_sg_logs || fail temperature_vs_sg_logs "sgctl '$t' vs sg_logs '$tsl'"
[ "$t" = "$tsm" ] && pass temperature_vs_smartctl || fail temperature_vs_smartctl "sgctl '$t' vs smartctl '$tsm'"

# 0x02/0x03/0x05 error counters: smartctl prints bytes processed as 10^9 bytes with 3 decimals.
# (smartctl shows the verify row only when it has something to say; read and write are compared.)
for d in write:2 read:3; do
  name=${d%%:*}; code=${d##*:}
  e=$(pg "$code")
  ub=$(echo "$e" | jq -r '"\(.total_uncorrected_errors) \(.bytes_processed)"')
  set -- $ub
  ours_gb=$(awk -v b="$2" 'BEGIN {printf "%.3f", b / 1e9}')
  sm_e=$(echo "$sm" | jq -r --arg d "$name" '.scsi_error_counter_log[$d] | "\(.total_uncorrected_errors) \(.gigabytes_processed)"')
  [ "$1 $ours_gb" = "$sm_e" ] && pass "${name}_counters_vs_smartctl" \
    || fail "${name}_counters_vs_smartctl" "sgctl '$1 $ours_gb' vs smartctl '$sm_e'"
done
w=$(pg 2 | jq -r .bytes_processed)
[ "$w" -ge 16777216 ] 2>/dev/null && pass write_counter_counts_the_workload || fail write_counter_counts_the_workload "bytes processed $w < 16 MiB"

# 0x06 non-medium error count. The drive counts every rejected command (other tools' probes
# included), so read it between two sg_logs reads: sg_logs before <= sgctl <= sg_logs after.
nm_sl() { slx 0x6 | sed -n 's/.*Non-medium error count = *\([0-9]*\).*/\1/p' | head -1; }
a=$(nm_sl)
nm=$(sgctl --json logs "$sg" --page 6 | jq -r '.data.pages[0].decoded.non_medium_error_count')
c=$(nm_sl)
if [ -n "$a" ] && [ -n "$c" ] && [ "$a" -le "$nm" ] && [ "$nm" -le "$c" ]; then pass non_medium_vs_sg_logs
else fail non_medium_vs_sg_logs "sg_logs $a, sgctl $nm, sg_logs $c"; fi

# 0x15 accumulated power-on minutes (the drive's clock runs: read both now, one minute of drift
# allowed; the page read at the top of the script is minutes old on a loaded TCG host).
pm=$(sgctl --json logs "$sg" --page 0x15 | jq -r '.data.pages[0].decoded.status.accumulated_power_on_minutes')
psl=$(slx 0x15 | sed -n 's/.*Accumulated power on minutes: *\([0-9]*\).*/\1/p' | head -1)
if [ -n "$psl" ] && [ $((pm - psl)) -le 1 ] && [ $((psl - pm)) -le 1 ]; then pass power_on_minutes_vs_sg_logs
else fail power_on_minutes_vs_sg_logs "sgctl $pm vs sg_logs '$psl': $(slx 0x15 | head -8)"; fi

# 0x18 protocol-specific port: SAS addresses and link error counters of both ports.
ours=$(pg 24 | jq -r '[.ports[].phys[] | "\(.sas_address) \(.invalid_dword_count) \(.running_disparity_error_count) \(.loss_of_dword_synchronization) \(.phy_reset_problem)"] | join(";")')
theirs=$(slx 0x18 | awk '
  /^ *SAS address = 0x/ {sub(/.*0x/, ""); a=$0}
  /Invalid DWORD count = / {sub(/.*= */, ""); i=$0}
  /Running disparity error count = / {sub(/.*= */, ""); r=$0}
  /Loss of DWORD synchronization( count)? = / {sub(/.*= */, ""); l=$0}
  /Phy reset problem( count)? = / {sub(/.*= */, ""); p=$0; out = out sep a " " i " " r " " l " " p; sep=";"}
  END {print out}')
[ -n "$ours" ] && [ "$ours" = "$theirs" ] && pass sas_ports_vs_sg_logs || fail sas_ports_vs_sg_logs "sgctl '$ours' vs sg_logs '$theirs': $(slx 0x18 | head -40)"

# health on this path: readable, the same endurance and temperature smartctl shows, exit 0.
h=$(sgctl --json health "$sg"); rc=$?
hv=$(echo "$h" | jq -r '.data.drives[0] | "\(.state) \(.endurance.used_percent) \(.temperature.current_c) \(.sas_phys | length)"')
[ "$rc" = 0 ] && [ "$hv" = "ok $smv ${tsm%% *} 2" ] && pass health_vs_smartctl \
  || fail health_vs_smartctl "exit $rc, sgctl '$hv' vs smartctl 'ok $smv ${tsm%% *} 2': $(echo "$h" | jq -c '.data.drives[0].reasons')"

# Read-only: five health runs leave every error counter page unchanged (sg_logs before/after),
# and sgctl's smartctl-layout JSON agrees with smartctl's on every key both print.
. /vm/guest/smartctl-agree.sh
health_read_only health_leaves_counters_unchanged "$sg" =0x02 =0x03 =0x05 =0x06
smartctl_agree smartctl_json_agrees "$sd" device.name device.type device.protocol scsi_vendor \
  scsi_product scsi_model_name serial_number logical_unit_id user_capacity.blocks \
  user_capacity.bytes logical_block_size rotation_rate temperature.current temperature.drive_trip \
  power_on_time.hours scsi_percentage_used_endurance_indicator smart_status.passed \
  scsi_grown_defect_list scsi_error_counter_log.read.total_uncorrected_errors \
  scsi_error_counter_log.write.gigabytes_processed
