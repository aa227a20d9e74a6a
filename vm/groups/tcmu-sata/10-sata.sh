# The virtual HK4E (a SATA SSD behind a SATL) served through TCMU, checked with the
# third-party ATA tools against sgctl: sg_sat_identify's IDENTIFY bytes decode to what
# `sgctl ata identify` reads; hdparm -I and smartctl -d sat -x agree with `sgctl ata` and
# `sgctl health` (model, serial, capacity, security state, SMART verdict, Device Statistics);
# `sgctl sanitize --method auto` purges it with verification; a security- and sanitize-frozen
# drive (frozen with hdparm, as a BIOS would) is refused with the advice.
. /vm/guest/lib.sh
SATA_SERIAL=SATA0001
lsscsi -g | grep -q THNSN880 && pass sata_served || fail sata_served "$(lsscsi -g)"
sg=$(lsscsi -g | awk '/THNSN880/ {print $NF; exit}')
sd=$(lsscsi | awk '/THNSN880/ {print $NF; exit}')
echo "hk4e: $sg $sd"
lsscsi -g | grep THNSN880

# --- IDENTIFY: sg_sat_identify's raw bytes, decoded by sgctl, equal sgctl's own read -----------
mine=$(sgctl --json ata identify "$sg" | jq -S .data); rc=$?
[ $rc = 0 ] && [ "$(echo "$mine" | jq -r .model)" = "TOSHIBA THNSN8800PCSE" ] \
  && pass sgctl_ata_identify || fail sgctl_ata_identify "exit $rc: $mine"
if sg_sat_identify --raw "$sg" > /tmp/id.bin 2>/tmp/id.err; then
  od -An -tx1 -v /tmp/id.bin > /tmp/id.hex
  theirs=$(sgctl --json ata identify --inhex /tmp/id.hex | jq -S .data)
  [ -n "$theirs" ] && [ "$theirs" = "$mine" ] && pass sg_sat_identify_matches \
    || fail sg_sat_identify_matches "sg_sat_identify decodes to $theirs"
else
  fail sg_sat_identify_matches "$(cat /tmp/id.err)"
fi
sg_sat_identify --len=12 --raw "$sg" > /tmp/id12.bin 2>&1 && cmp -s /tmp/id.bin /tmp/id12.bin \
  && pass sg_sat_identify_12_same_bytes || fail sg_sat_identify_12_same_bytes "$(head -c 300 /tmp/id12.bin)"

# --- hdparm -I (ATA PASS-THROUGH(16) with CK_COND, through sd) ---------------------------------
hd=$(hdparm -I "$sd" 2>&1); rc=$?
echo "$hd" | head -n 60
model=$(echo "$hd" | awk -F: '/Model Number/ {gsub(/^ +| +$/, "", $2); print $2}')
serial=$(echo "$hd" | awk -F: '/Serial Number/ {gsub(/^ +| +$/, "", $2); print $2}')
lba48=$(echo "$hd" | awk -F: '/LBA48  user addressable sectors/ {gsub(/ /, "", $2); print $2}')
[ $rc = 0 ] && [ "$model" = "$(echo "$mine" | jq -r .model)" ] && [ "$serial" = "$SATA_SERIAL" ] \
  && pass hdparm_identity || fail hdparm_identity "exit $rc model '$model' serial '$serial'"
[ "$lba48" = "$(echo "$mine" | jq -r .user_addressable_sectors)" ] && pass hdparm_capacity \
  || fail hdparm_capacity "hdparm $lba48 vs sgctl $(echo "$mine" | jq -r .user_addressable_sectors)"
echo "$hd" | grep -q "not	frozen" && [ "$(echo "$mine" | jq -r .security.frozen)" = false ] \
  && pass hdparm_security_not_frozen || fail hdparm_security_not_frozen "$(echo "$hd" | grep -A8 '^Security')"
echo "$hd" | grep -qi "BLOCK_ERASE_EXT" && pass hdparm_sanitize_block_erase \
  || fail hdparm_sanitize_block_erase "$(echo "$hd" | grep -i -A3 sanitize)"

# --- a workload, then smartctl -d sat -x against sgctl ata logs / health -----------------------
dd if=/dev/urandom of="$sd" bs=1M count=16 oflag=direct 2>/dev/null && pass workload_written \
  || fail workload_written "dd failed"
sc=$(smartctl -d sat -x "$sg" 2>&1); rc=$?
echo "$sc" | head -n 120
echo "$sc" | grep -q "Device Model: *TOSHIBA THNSN8800PCSE" && echo "$sc" | grep -q "Serial Number: *$SATA_SERIAL" \
  && pass smartctl_identity || fail smartctl_identity "exit $rc"
echo "$sc" | grep -q "self-assessment test result: PASSED" && pass smartctl_passed \
  || fail smartctl_passed "$(echo "$sc" | grep -i assessment)"
logs=$(sgctl --json ata logs "$sg")
stat() { echo "$logs" | jq -r ".data.device_statistics[] | select(.page == $1) | .statistics[] | select(.offset == $2) | .value"; }
sc_written=$(echo "$sc" | awk '/Logical Sectors Written/ {print $4; exit}')
sc_poh=$(echo "$sc" | awk '/Power-on Hours/ && /0x01/ {print $4; exit}')
sc_temp=$(echo "$sc" | awk '/Current Temperature/ {print $4; exit}')
echo "smartctl devstat: written $sc_written poh $sc_poh temp $sc_temp; sgctl: $(stat 1 24) $(stat 1 16) $(stat 5 8)"
[ -n "$sc_written" ] && [ "$sc_written" = "$(stat 1 24)" ] && [ "$sc_written" -ge 32768 ] \
  && pass smartctl_devstat_sectors_written || fail smartctl_devstat_sectors_written "smartctl '$sc_written' sgctl '$(stat 1 24)'"
[ -n "$sc_poh" ] && [ "$sc_poh" = "$(stat 1 16)" ] && pass smartctl_devstat_power_on_hours \
  || fail smartctl_devstat_power_on_hours "smartctl '$sc_poh' sgctl '$(stat 1 16)'"
[ -n "$sc_temp" ] && [ "$sc_temp" = "$(stat 5 8)" ] && pass smartctl_devstat_temperature \
  || fail smartctl_devstat_temperature "smartctl '$sc_temp' sgctl '$(stat 5 8)'"
sc_241=$(echo "$sc" | awk '$1 == 241 {print $NF; exit}')
my_241=$(sgctl --json ata smart "$sg" | jq -r '.data.smart.attributes[] | select(.id == 241) | .raw')
[ -n "$sc_241" ] && [ "$sc_241" = "$my_241" ] && pass smartctl_attr_241 \
  || fail smartctl_attr_241 "smartctl '$sc_241' sgctl '$my_241'"
t0=$(cut -d" " -f1 /proc/uptime)
h=$(timeout 120 sgctl --json health "$sg"); hrc=$?
echo "sgctl health took $(awk -v a="$t0" "{print \$1 - a}" /proc/uptime) s (exit $hrc)"
echo "$h" | jq -c '.data.drives[0] | {endurance, temperature, sources}' 2>/dev/null || echo "$h"
hw=$(echo "$h" | jq -r '.data.drives[0].endurance.bytes_written')
[ "$hw" = "$((sc_written * 512))" ] && pass health_bytes_written_matches_smartctl \
  || fail health_bytes_written_matches_smartctl "health $hw vs smartctl $sc_written sectors (exit $hrc)"
echo "$h" | jq -e '.data.drives[0].sources["endurance.used_percent"] | test("Device Statistics")' >/dev/null \
  && pass health_states_sources || fail health_states_sources "$(echo "$h" | jq -c '.data.drives[0].sources')"

# --- sanitize --method auto, verified ------------------------------------------------------------
export SGCTL_AUDIT_LOG=/tmp/audit-sata.jsonl
sup=$(sgctl sanitize --support "$sg" 2>&1); echo "$sup"
echo "$sup" | grep -q "auto would use: ATA SANITIZE BLOCK ERASE EXT" && pass sanitize_support_ata \
  || fail sanitize_support_ata "$sup"
before=$(dd if="$sd" bs=1M count=1 iflag=direct 2>/dev/null | md5sum)
out=$(sgctl sanitize --method auto --verify 16 --confirm $SATA_SERIAL --poll-interval 1 "$sg" 2>&1); rc=$?
echo "$out" | tail -n 12
[ $rc = 0 ] && echo "$out" | grep -q "ATA SANITIZE BLOCK ERASE EXT" && echo "$out" | grep -q "PASSED" \
  && pass sgctl_sanitize_auto_verified || fail sgctl_sanitize_auto_verified "exit $rc: $(echo "$out" | tail -n 4)"
echo 1 > "/sys/block/$(basename "$sd")/device/rescan"
after=$(dd if="$sd" bs=1M count=1 iflag=direct 2>/dev/null | md5sum)
[ "$before" != "$after" ] && pass sata_data_gone || fail sata_data_gone "first MiB unchanged"
grep -q "ATA SANITIZE BLOCK ERASE EXT" /tmp/audit-sata.jsonl 2>/dev/null || grep -q "$SATA_SERIAL" /tmp/audit-sata.jsonl \
  && pass sanitize_audited || fail sanitize_audited "no audit record"

# --- frozen as a BIOS leaves it: refused with the advice -----------------------------------------
hdparm --security-freeze "$sd" >/dev/null 2>&1
hdparm --yes-i-know-what-i-am-doing --sanitize-freeze-lock "$sd" > /tmp/sfl.out 2>&1 || cat /tmp/sfl.out
hdparm -I "$sd" 2>/dev/null | grep -q "	frozen" && [ "$(sgctl --json ata identify "$sg" | jq -r .data.security.frozen)" = true ] \
  && pass hdparm_and_sgctl_see_frozen || fail hdparm_and_sgctl_see_frozen "$(hdparm -I "$sd" 2>&1 | grep -A8 '^Security')"
out=$(sgctl sanitize --method ata-security-erase --confirm $SATA_SERIAL "$sg" 2>&1); rc=$?
echo "$out" | tail -n 6
[ $rc = 6 ] && echo "$out" | grep -q "Hot-plug" && echo "$out" | grep -q "suspend" \
  && pass security_frozen_refused_with_advice || fail security_frozen_refused_with_advice "exit $rc: $out"
out=$(sgctl sanitize --method auto --confirm $SATA_SERIAL "$sg" 2>&1); rc=$?
if grep -q "Sanitize Frozen\|SANITIZE FREEZE" /tmp/sfl.out 2>/dev/null || sgctl sanitize --support "$sg" 2>&1 | grep -q "sanitize FROZEN"; then
  [ $rc = 6 ] && echo "$out" | grep -q "Hot-plug" && pass auto_frozen_refused_with_advice \
    || fail auto_frozen_refused_with_advice "exit $rc: $out"
else
  skip auto_frozen_refused_with_advice "hdparm did not send SANITIZE FREEZE LOCK EXT: $(head -c 200 /tmp/sfl.out)"
fi

