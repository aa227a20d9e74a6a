# sgctl's own SG_IO backends against a real kernel: SG_IO v3 on /dev/sgN (sg driver) and /dev/sdX
# (block layer), sg_io_v4 on /dev/bsg/H:C:T:L, each answering TEST UNIT READY and INQUIRY; CHECK
# CONDITION sense through each path; the open errors and their exit codes.
. /vm/guest/lib.sh
line=$(lsscsi -g | awk '/scsi_debug/ {print; exit}')
hctl=$(echo "$line" | sed 's/^\[\([0-9:]*\)\].*/\1/')
sd=$(echo "$line" | awk '{print $(NF-1)}')
sg=$(echo "$line" | awk '{print $NF}')
bsg=/dev/bsg/$hctl
[ -c "$bsg" ] || modprobe bsg 2>/dev/null
for dev in "$sg" "$sd" "$bsg"; do
  # (not $n: lib.sh's check() uses that name)
  d=$(basename "$dev" | tr ':' '_')
  check "tur_$d" sgctl tur "$dev"
  out=$(sgctl --json inquiry "$dev" 2>&1)
  v=$(echo "$out" | jq -r '.data.t10_vendor_identification' 2>/dev/null)
  [ "$v" = "Linux" ] && pass "inquiry_$d" || fail "inquiry_$d" "vendor '$v': $(echo "$out" | tail -n 3)"
  # -v shows the CDB sent through this backend.
  err=$(sgctl -v tur "$dev" 2>&1 >/dev/null)
  echo "$err" | grep -qi "00 00 00 00 00 00" && pass "trace_$d" || fail "trace_$d" "no CDB in: $err"
  # An unknown VPD page: CHECK CONDITION ILLEGAL REQUEST through this path -> exit 7 (unsupported).
  sgctl vpd --page 0xde "$dev" >/dev/null 2>&1; rc=$?
  [ $rc = 7 ] && pass "vpd_unsupported_$d" || fail "vpd_unsupported_$d" "exit $rc, want 7"
done
# Open errors: one line on stderr, exit 3.
for p in /nonexistent/sg9 /dev/null /etc/passwd; do
  d=$(basename "$p")
  err=$(sgctl tur "$p" 2>&1); rc=$?
  lines=$(echo "$err" | wc -l)
  [ $rc = 3 ] && [ "$lines" = 1 ] && pass "open_error_$d" || fail "open_error_$d" "exit $rc, $lines lines: $err"
done
