# scsi_debug error injection (every_nth + opts, set at run time in
# /sys/bus/pseudo/drivers/scsi_debug): a device that times out every command is reported with a
# timeout error in its own row, the scan finishes within its per-device timeout, exits 8 (partial),
# and the healthy drives are intact.
. /vm/guest/lib.sh
P=/sys/bus/pseudo/drivers/scsi_debug
sdebug_reload num_tgts=1 max_luns=4 dev_size_mb=8 || fail reload "scsi_debug num_tgts=1 max_luns=4"
# SDEBUG_OPT_TIMEOUT (4): every every_nth-th command gets no response.
echo 1 > $P/every_nth
echo 4 > $P/opts
t0=$(date +%s)
timeout 120 sgctl --json scan --timeout-ms 2000 > /tmp/err.json; rc=$?
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
sdebug_default || fail restore "could not reload scsi_debug $SDEBUG_DEFAULT"
