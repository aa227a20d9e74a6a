# scsi_debug error injection (every_nth + opts, set at run time in
# /sys/bus/pseudo/drivers/scsi_debug): a device that times out every command is reported by
# `sgctl scan --live` with a timeout error in its own row, the scan finishes within its
# per-device timeout, exits 8 (partial), and the healthy drives are intact.
. /vm/guest/lib.sh
P=/sys/bus/pseudo/drivers/scsi_debug
sdebug_reload num_tgts=1 max_luns=4 dev_size_mb=8 || fail reload "scsi_debug num_tgts=1 max_luns=4"
# SDEBUG_OPT_TIMEOUT (4): every every_nth-th command gets no response.
echo 1 > $P/every_nth
echo 4 > $P/opts
t0=$(date +%s)
# --live: the default scan reads the kernel's copies (sysfs) and would send nothing to them.
timeout 120 sgctl --json scan --live --timeout-ms 2000 > /tmp/err.json; rc=$?
t1=$(date +%s)
echo 0 > $P/opts; echo 0 > $P/every_nth
[ $rc = 8 ] && pass timeout_scan_exit_8 || fail timeout_scan_exit_8 "exit $rc (want 8 = partial)"
[ $((t1 - t0)) -le 20 ] && pass "timeout_scan_bounded ($((t1 - t0)) s)" || fail timeout_scan_bounded "took $((t1 - t0)) s"
jq -c "[.data.drives[].paths[].error]" /tmp/err.json
n=$(jq '[.data.drives[].paths[] | select(.error != null and (.error | test("timed out")))] | length' /tmp/err.json)
[ "$n" = 4 ] && pass timeout_errors_in_rows || fail timeout_errors_in_rows "$n rows with a timeout error: $(jq -c '[.data.drives[].paths[].error]' /tmp/err.json)"
# The rows still carry the kernel's identity (from sysfs) so the drive is recognisable.
n=$(jq '[.data.drives[] | select(.lu_name != null and .vendor == "Linux")] | length' /tmp/err.json)
[ "$n" = 4 ] && pass timeout_rows_identified || fail timeout_rows_identified "$n"
# After the injection stops, the same scan is clean.
wait_for 60 sh -c 'sgctl scan --timeout-ms 5000 >/dev/null 2>&1'
sgctl --json scan > /tmp/ok.json; rc=$?
[ $rc = 0 ] && [ "$(jq '.data.drives | length' /tmp/ok.json)" = 4 ] && pass recovered || fail recovered "exit $rc"

# Typed errors of a single command (`sgctl tur`), as the README's exit table documents.
sg=$(ls /sys/class/scsi_generic | head -n1)
echo 1 > $P/every_nth; echo 4 > $P/opts
out=$(sgctl --json tur /dev/$sg 2>/dev/null); rc=$?
echo 0 > $P/opts; echo 0 > $P/every_nth
msg=$(echo "$out" | jq -r '.sgctl.messages[-1].string' 2>/dev/null)
[ $rc = 4 ] && echo "$msg" | grep -q "timed out" && pass tur_timeout_exit_4 \
  || fail tur_timeout_exit_4 "exit $rc, message '$msg'"
wait_for 60 sgctl tur /dev/$sg
# An offline device: the sg driver refuses SG_IO with ENXIO (sg.c sg_ioctl:
# scsi_block_when_processing_errors); sgctl reports the OS error with its hint, exit 4.
dev=$(basename "$(readlink -f /sys/class/scsi_generic/$sg/device)")
echo offline > /sys/class/scsi_device/$dev/device/state
out=$(sgctl tur /dev/$sg 2>&1); rc=$?
echo running > /sys/class/scsi_device/$dev/device/state
[ $rc = 4 ] && echo "$out" | grep -q "SG_IO: ENXIO" && pass offline_device_exit_4 \
  || fail offline_device_exit_4 "exit $rc: $out"
# A LU that is becoming ready (tur_ms_to_ready): NOT READY sense, exit 4.
# no_uld=1: sd would wait for the LU to become ready at attach time
sdebug_reload num_tgts=1 max_luns=1 dev_size_mb=8 no_uld=1 tur_ms_to_ready=600000 || fail reload "tur_ms_to_ready"
sg=$(ls /sys/class/scsi_generic | head -n1)
out=$(sgctl tur /dev/$sg 2>&1); rc=$?
[ $rc = 4 ] && echo "$out" | grep -qi "not ready" && pass not_ready_exit_4 || fail not_ready_exit_4 "exit $rc: $out"
sdebug_default || fail restore "could not reload scsi_debug $SDEBUG_DEFAULT"
