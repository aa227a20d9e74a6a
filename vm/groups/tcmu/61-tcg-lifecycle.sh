# Take ownership -> lock -> unlock -> erase -> revert with sgctl over real SG_IO, and
# after every step the same drive's state read back with plain sg_raw SECURITY PROTOCOL IN/OUT
# exchanges built by tcg-raw.inc from the spec tables (not sgctl's encoder).
. /vm/guest/lib.sh
. /vm/groups/tcmu/tcg-raw.inc
sg=$(lsscsi -g | awk '/PX02SMF080/ {print $NF; exit}')
log=/tmp/tcg61.log; : > $log
export SGCTL_AUDIT_LOG=/tmp/tcg61.audit
PIN='Lifecycle-Pin-4242'
printf '%s\n' "$PIN" > /tmp/tcg61.pin; chmod 600 /tmp/tcg61.pin
msid=""
for i in $(seq 1 40); do msid=$(read_msid "$sg"); [ -n "$msid" ] && break; sleep 1; done
[ "$(echo $msid | wc -w)" = 32 ] || fail raw_read_msid "no MSID (Admin SP busy?)"
msid_txt=$(printf "$(echo $msid | sed 's/\([0-9A-F][0-9A-F]\) */\\x\1/g')")

# auth_raw SP AUTHORITY PIN-TEXT -> "F0 01 F1" (TRUE) / "F0 00 F1" (FALSE), in a read session.
auth_raw() {
  t=$(start_session "$sg" "$1" 0) || return 1
  a=$(authenticate "$sg" "$t" "$2" "$3")
  end_session "$sg" "$t"
  echo "$a"
}
# band1_row PIN: Band1's row (Enterprise Get, all columns), read as BandMaster1 with PIN.
band1_row() {
  t=$(start_session "$sg" "$LOCKINGSP" 0)
  [ "$(authenticate "$sg" "$t" "$A_BM1" "$1")" = "F0 01 F1" ] || { end_session "$sg" "$t"; echo "auth-failed"; return 1; }
  b=$(e_get "$sg" "$t" "$BAND1")
  end_session "$sg" "$t"
  echo "$b"
}
# col ROW NAME: a uint column of a row.
col() { uint_value "$(named_value "$1" "$2")"; }
l0_locked() {
  rm -f /tmp/l0.bin
  sg_raw -r 512 -o /tmp/l0.bin "$sg" A2 01 00 01 00 00 00 00 02 00 00 00 > /dev/null 2>&1
  set -- $(file2hex /tmp/l0.bin); shift 68
  case "$1" in ?[4567CDEF]) echo 1 ;; *) echo 0 ;; esac
}

[ "$(auth_raw "$ADMINSP" "$A_SID" "$msid_txt")" = "F0 01 F1" ] && pass factory_sid_is_msid || fail factory_sid_is_msid "not factory"

sgctl tcg take-ownership "$sg" --new-pin-file /tmp/tcg61.pin >> $log 2>&1 && pass take_ownership || fail take_ownership "$(tail -n 5 $log)"
[ "$(auth_raw "$ADMINSP" "$A_SID" "$PIN")" = "F0 01 F1" ] && pass raw_sid_has_new_pin || fail raw_sid_has_new_pin "C_PIN_SID not written"
[ "$(auth_raw "$ADMINSP" "$A_SID" "$msid_txt")" = "F0 00 F1" ] && pass raw_sid_msid_rejected || fail raw_sid_msid_rejected ""
[ "$(auth_raw "$LOCKINGSP" "$A_EM" "$PIN")" = "F0 01 F1" ] && pass raw_erasemaster_new_pin || fail raw_erasemaster_new_pin ""
[ "$(auth_raw "$LOCKINGSP" "$A_BM1" "$PIN")" = "F0 01 F1" ] && pass raw_bandmaster1_new_pin || fail raw_bandmaster1_new_pin ""

sgctl tcg configure-band "$sg" --band 1 --start 8192 --length 4096 --lock-enabled --pin-file /tmp/tcg61.pin >> $log 2>&1 \
  && sgctl tcg lock "$sg" --band 1 --pin-file /tmp/tcg61.pin >> $log 2>&1 && pass lock || fail lock "$(tail -n 5 $log)"
row=$(band1_row "$PIN")
[ "$(col "$row" RangeStart)/$(col "$row" RangeLength)" = 8192/4096 ] && pass raw_band1_range || fail raw_band1_range "$row"
[ "$(col "$row" ReadLocked)$(col "$row" WriteLocked)$(col "$row" ReadLockEnabled)$(col "$row" WriteLockEnabled)" = 1111 ] \
  && pass raw_band1_locked || fail raw_band1_locked "$row"
[ "$(l0_locked)" = 1 ] && pass raw_level0_locked || fail raw_level0_locked ""

sgctl tcg unlock "$sg" --band 1 --pin-file /tmp/tcg61.pin >> $log 2>&1 && pass unlock || fail unlock "$(tail -n 5 $log)"
row=$(band1_row "$PIN")
[ "$(col "$row" ReadLocked)$(col "$row" WriteLocked)" = 00 ] && pass raw_band1_unlocked || fail raw_band1_unlocked ""
[ "$(l0_locked)" = 0 ] && pass raw_level0_unlocked || fail raw_level0_unlocked ""

sgctl tcg lock "$sg" --band 1 --pin-file /tmp/tcg61.pin >> $log 2>&1
out=$(sgctl --json tcg erase "$sg" --band 1 --pin-file /tmp/tcg61.pin --confirm TCMU0001 \
  --certificate /tmp/tcg61.cert.json 2>> $log); rc=$?
echo "$out" >> $log
[ $rc -eq 0 ] && pass erase || fail erase "exit $rc $(tail -n 5 $log)"
# Band 1 is part of the drive: the record, the text and the printable certificate say so.
sc=$(echo "$out" | jq -c '.data.drives[0] | {w: .scope.whole_drive, s: .scope.bands[0].range_start, l: .scope.bands[0].range_length, c: .nist_sp_800_88_category, v: .validation.plan}' 2>/dev/null)
[ "$sc" = '{"w":false,"s":8192,"l":4096,"c":"purge_of_part","v":"quick"}' ] && pass erase_partial_scope_recorded || fail erase_partial_scope_recorded "$sc"
grep -q 'PARTIAL SCOPE' /tmp/tcg61.cert.json.html && ! grep -q 'SANITIZED' /tmp/tcg61.cert.json.html \
  && grep -q 'PARTIAL SCOPE, not a purge of the drive' /tmp/tcg61.cert.json.txt \
  && pass erase_partial_scope_certificate || fail erase_partial_scope_certificate "$(head -n 3 /tmp/tcg61.cert.json.txt)"
# Enterprise Erase: band unlocked, BandMaster1's PIN back to the MSID.
[ "$(auth_raw "$LOCKINGSP" "$A_BM1" "$msid_txt")" = "F0 01 F1" ] && pass raw_erase_reset_bandmaster_pin || fail raw_erase_reset_bandmaster_pin ""
[ "$(col "$(band1_row "$msid_txt")" ReadLocked)" = 0 ] && pass raw_erase_unlocked || fail raw_erase_unlocked ""

sgctl tcg revert "$sg" --psid-file /tmp/tcg.psid --confirm TCMU0001 >> $log 2>&1 && pass revert || fail revert "$(tail -n 5 $log)"
[ "$(auth_raw "$ADMINSP" "$A_SID" "$msid_txt")" = "F0 01 F1" ] && pass raw_revert_sid_msid || fail raw_revert_sid_msid ""
[ "$(auth_raw "$LOCKINGSP" "$A_EM" "$msid_txt")" = "F0 01 F1" ] && pass raw_revert_erasemaster_msid || fail raw_revert_erasemaster_msid ""
[ "$(col "$(band1_row "$msid_txt")" RangeLength)" = 0 ] && pass raw_revert_band1_reset || fail raw_revert_band1_reset ""
grep -qF "$PIN" $log $SGCTL_AUDIT_LOG && fail pin_never_printed "PIN in output" || pass pin_never_printed
