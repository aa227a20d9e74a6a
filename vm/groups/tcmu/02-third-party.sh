# Tools nobody here wrote get sane answers from the virtual drive over real SG_IO.
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
sg=$(tcmu_sg)
sd=$(tcmu_sd)
out=$(sg_inq "$sg" 2>&1) && echo "$out" | grep -q "PX02SMF080" && pass sg_inq || fail sg_inq "$out"
out=$(sg_inq -p 0x80 "$sg" 2>&1) && echo "$out" | grep -q "TCMU0001" && pass sg_inq_serial || fail sg_inq_serial "$out"
out=$(sg_vpd -p di "$sg" 2>&1) && echo "$out" | grep -q "NAA" && pass sg_vpd_di || fail sg_vpd_di "$out"
out=$(sg_readcap -l "$sg" 2>&1) && echo "$out" | grep -q "Logical block length=512 bytes" \
  && echo "$out" | grep -q "Device size: 1073741824 bytes" && pass sg_readcap || fail sg_readcap "$out"
out=$(sg_opcodes "$sg" 2>&1) && echo "$out" | grep -qi "sanitize" && pass sg_opcodes || fail sg_opcodes "$out"
out=$(sg_logs -a "$sg" 2>&1) && echo "$out" | grep -qi "temperature" && pass sg_logs_a || fail sg_logs_a "$(echo "$out" | tail -n 5)"
echo "$out" | head -n 60
out=$(smartctl -x "$sd" 2>&1); rc=$?
echo "$out" | head -n 50
# smartctl's exit status is a bit mask; bits 0-1 mean it could not open or identify the device.
[ $((rc & 3)) = 0 ] && echo "$out" | grep -q "PX02SMF080" && pass smartctl_x || fail smartctl_x "exit $rc: $(echo "$out" | tail -n 5)"
check sgctl_inquiry_sg sgctl inquiry "$sg"
check sgctl_inquiry_sd sgctl inquiry "$sd"
