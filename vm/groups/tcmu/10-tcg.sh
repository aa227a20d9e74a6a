# TCG Enterprise SSC over real SG_IO: SECURITY PROTOCOL IN/OUT from `sgctl tcg` through the kernel,
# LIO and TCMU to the virtual SED. Locked bands make the kernel's own reads fail; erase rekeys the
# band; the PIN never shows in anything sgctl prints.
. /vm/guest/lib.sh
sg=$(lsscsi -g | awk '/PX02SMF080/ {print $NF; exit}')
sd=$(lsscsi | awk '/PX02SMF080/ {print $NF; exit}')
PIN='Vm-Guest-Pin-7731'
printf '%s\n' "$PIN" > /tmp/tcg.pin; chmod 600 /tmp/tcg.pin  # credential files must be private
log=/tmp/tcg.log; : > $log
run() { "$@" >> $log 2>&1; }

out=$(sgctl --json tcg discover "$sg" 2>&1)
[ "$(echo "$out" | jq -r .data.ssc)" = "Enterprise SSC" ] && pass discover_enterprise || fail discover_enterprise "$out"
[ "$(echo "$out" | jq -r '.data.level0.features[] | select(.feature=="ssc") | .base_comid')" = 2046 ] \
  && pass discover_comid_07fe || fail discover_comid_07fe "$out"

run sgctl -vv tcg take-ownership "$sg" --new-pin-file /tmp/tcg.pin && pass take_ownership || fail take_ownership "$(tail -n 5 $log)"
run sgctl tcg configure-band "$sg" --band 1 --start 4096 --length 4096 --lock-enabled --pin-file /tmp/tcg.pin \
  && pass configure_band || fail configure_band "$(tail -n 5 $log)"
# Data in band 1 before locking.
dd if=/dev/urandom of=/tmp/blk bs=512 count=8 2>/dev/null
dd if=/tmp/blk of="$sd" bs=512 seek=4096 count=8 oflag=direct 2>/dev/null && pass write_band1 || fail write_band1 "dd write"
run sgctl -vv tcg lock "$sg" --band 1 --pin-file /tmp/tcg.pin && pass lock_band1 || fail lock_band1 "$(tail -n 5 $log)"
# The kernel's read of a locked band fails (DATA PROTECT); outside the band it works.
if dd if="$sd" of=/dev/null bs=512 skip=4096 count=1 iflag=direct 2>/dev/null; then
  fail locked_read_fails "dd read of a locked band succeeded"
else
  pass locked_read_fails
fi
# READ(16) of LBA 4096 through sg_raw: the sense must be DATA PROTECT, not a medium error.
out=$(sg_raw -r 512 "$sg" 88 00 00 00 00 00 00 00 10 00 00 00 00 01 00 00 2>&1)
echo "$out" | grep -qi "data protect" && pass locked_sense_data_protect || fail locked_sense_data_protect "$out"
check unlocked_elsewhere dd if="$sd" of=/dev/null bs=512 skip=0 count=1 iflag=direct
out=$(sgctl --json tcg bands "$sg" 2>&1)
[ "$(echo "$out" | jq -r '.data[1].read_locked')" = true ] && pass bands_show_locked || fail bands_show_locked "$out"
run sgctl tcg unlock "$sg" --band 1 --pin-env TCG_PIN_NOT_SET
[ $? != 0 ] && pass unset_pin_env_refused || fail unset_pin_env_refused "accepted an unset variable"
printf 'wrong\n' > /tmp/tcg.wrong; chmod 600 /tmp/tcg.wrong
sgctl tcg unlock "$sg" --band 1 --pin-file /tmp/tcg.wrong > /tmp/tcg.w 2>&1
grep -q "wrong PIN for BandMaster1" /tmp/tcg.w && pass wrong_pin_refused || fail wrong_pin_refused "$(cat /tmp/tcg.w)"
cat /tmp/tcg.w >> $log
run sgctl tcg unlock "$sg" --band 1 --pin-file /tmp/tcg.pin && pass unlock_band1 || fail unlock_band1 "$(tail -n 5 $log)"
dd if="$sd" of=/tmp/before bs=512 skip=4096 count=8 iflag=direct 2>/dev/null
cmp -s /tmp/before /tmp/blk && pass data_back_after_unlock || fail data_back_after_unlock "data differs after unlock"
run sgctl -vv --json tcg erase "$sg" --band 1 --pin-file /tmp/tcg.pin --confirm TCMU0001 --audit-log /tmp/tcg.audit \
  && pass erase_band1 || fail erase_band1 "$(tail -n 20 $log)"
dd if="$sd" of=/tmp/after bs=512 skip=4096 count=8 iflag=direct 2>/dev/null
if cmp -s /tmp/after /tmp/blk; then fail erase_rekeys "old data still readable"; else pass erase_rekeys; fi
grep -q tcg-erase /tmp/tcg.audit && pass audit_record || fail audit_record "$(cat /tmp/tcg.audit)"
hex=$(printf '%s' "$PIN" | od -An -tx1 | tr -d ' \n')
spaced=$(printf '%s' "$PIN" | od -An -tx1 | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')
if grep -qF "$PIN" $log /tmp/tcg.audit || grep -qiF "$hex" $log || grep -qiF "$spaced" $log; then
  fail pin_never_printed "the PIN appears in sgctl output or the audit log"
else
  pass pin_never_printed
fi
