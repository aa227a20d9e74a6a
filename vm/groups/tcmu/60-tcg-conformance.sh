# TCG Enterprise conformance over real SG_IO, one check per rule, with plain sg_raw
# SECURITY PROTOCOL IN/OUT exchanges whose bytes tcg-raw.inc builds from the spec tables (not
# sgctl's encoder). Starts from factory state: `sgctl tcg revert` with the label PSID.
. /vm/guest/lib.sh
. /vm/groups/tcmu/tcg-raw.inc
sg=$(lsscsi -g | awk '/PX02SMF080/ {print $NF; exit}')
log=/tmp/tcg60.log; : > $log

# The PSID the simulator prints on the label of serial TCMU0001: SHA-256("psid:SERIAL"), each
# byte & 31 indexing a 32-letter alphabet (sim/src/sim/tcg/tper.rs psid_for).
psid=$(printf 'psid:TCMU0001' | sha256sum | cut -c1-64 | sed 's/../& /g' | awk '
  BEGIN { A = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"; h = "0123456789abcdef" }
  { for (i = 1; i <= NF; i++) { v = (index(h, substr($i,1,1)) - 1) * 16 + index(h, substr($i,2,1)) - 1; printf "%s", substr(A, v % 32 + 1, 1) } }')
printf '%s\n' "$psid" > /tmp/tcg.psid; chmod 600 /tmp/tcg.psid
sgctl tcg revert "$sg" --psid-file /tmp/tcg.psid --confirm TCMU0001 --audit-log /tmp/tcg60.audit >> $log 2>&1 \
  && pass factory_by_psid_revert || fail factory_by_psid_revert "$(tail -n 5 $log)"

msid=$(read_msid "$sg")
[ "$(echo $msid | wc -w)" = 32 ] && pass raw_read_msid || fail raw_read_msid "got '$msid'"
msid_txt=$(printf "$(echo $msid | sed 's/\([0-9A-F][0-9A-F]\) */\\x\1/g')")

# D1: SID authenticates with the MSID; Set on C_PIN_SID (…0B 00 00 00 01) succeeds, the
# nonexistent …0B 00 00 00 06 is refused; the new PIN then authenticates SID.
tsn=$(start_session "$sg" "$ADMINSP" 1)
r=$(authenticate "$sg" "$tsn" "$A_SID" "$msid_txt")
[ "$r" = "F0 01 F1" ] && pass d1_sid_authenticates || fail d1_sid_authenticates "tsn=$tsn got '$r'"
r=$(e_set "$sg" "$tsn" "00 00 00 0B 00 00 00 06" "$(t_named PIN "$(t_str raw-pin)")")
[ "$(status_of "$r")" = 12 ] && pass d1_missing_row_invalid_parameter || fail d1_missing_row_invalid_parameter "$r"
r=$(e_set "$sg" "$tsn" "$C_PIN_SID" "$(t_named PIN "$(t_str raw-sid-pin)")")
[ "$r" = "F0 F1 F9 F0 00 00 00 F1" ] && pass d1_set_c_pin_sid || fail d1_set_c_pin_sid "$r"
end_session "$sg" "$tsn" || fail d1_eos "no FA"
tsn=$(start_session "$sg" "$ADMINSP" 1)
[ "$(authenticate "$sg" "$tsn" "$A_SID" raw-sid-pin)" = "F0 01 F1" ] && pass d1_new_sid_pin_works || fail d1_new_sid_pin_works "tsn=$tsn"
# Back to the MSID for the rest of the suite.
r=$(e_set "$sg" "$tsn" "$C_PIN_SID" "$(t_named PIN "$(t_hex "$msid")")")
[ "$(status_of "$r")" = 0 ] || fail d1_restore_msid "$r"
end_session "$sg" "$tsn"

# D2: Next on the Locking table as BandMaster0 (16 bands), with Where/Count; Set of one column.
tsn=$(start_session "$sg" "$LOCKINGSP" 1)
authenticate "$sg" "$tsn" "$A_BM0" "$msid_txt" > /dev/null
r=$(xchg "$sg" "$tsn" $RAW_HSN "$(t_call "$LOCKING_TABLE" "$M_NEXT" "")")
n=$(results_of "$r" | grep -o 'A8 00 00 08 02' | wc -l)
[ "$(status_of "$r")" = 0 ] && [ "$n" = 16 ] && pass d2_next_locking_table || fail d2_next_locking_table "$n rows: $r"
r=$(xchg "$sg" "$tsn" $RAW_HSN "$(t_call "$LOCKING_TABLE" "$M_NEXT" "$(t_named Where "$(t_uid "$BAND1")")$(t_named Count 01)")")
[ "$(results_of "$r")" = "F0 F0 A8 00 00 08 02 00 00 00 03 F1 F1" ] && pass d2_next_where_count || fail d2_next_where_count "$r"
r=$(e_set "$sg" "$tsn" "$BAND0" "$(t_named ReadLocked 00)")
[ "$(status_of "$r")" = 0 ] && pass d2_set_one_column || fail d2_set_one_column "$r"
end_session "$sg" "$tsn"

# D2b: the Enterprise form of Set, byte for byte (an empty Where list, RowValues in an extra
# list, columns by their string names, booleans as uintegers 0/1:
# F0 F1 F0 F0 F2 "ReadLocked" 01 F3 F2 "WriteLocked" 01 F3 F1 F1) on both ports of the drive:
# Band0 locked through one path reads locked through the other, and is unlocked there.
ent_set_ports() {  # ent_set_ports LOCK-PATH OTHER-PATH
  tsn=$(start_session "$1" "$LOCKINGSP" 1)
  authenticate "$1" "$tsn" "$A_BM0" "$msid_txt" > /dev/null
  r1=$(e_set "$1" "$tsn" "$BAND0" "$(t_named ReadLocked 01)$(t_named WriteLocked 01)")
  end_session "$1" "$tsn"
  tsn=$(start_session "$2" "$LOCKINGSP" 1)
  authenticate "$2" "$tsn" "$A_BM0" "$msid_txt" > /dev/null
  g1=$(e_get "$2" "$tsn" "$BAND0")
  r2=$(e_set "$2" "$tsn" "$BAND0" "$(t_named ReadLocked 00)$(t_named WriteLocked 00)")
  g2=$(e_get "$2" "$tsn" "$BAND0")
  end_session "$2" "$tsn"
  echo "$(status_of "$r1") $(uint_value "$(named_value "$g1" ReadLocked)") $(uint_value "$(named_value "$g1" WriteLocked)") $(status_of "$r2") $(uint_value "$(named_value "$g2" ReadLocked)") $(uint_value "$(named_value "$g2" WriteLocked)")"
}
ports=$(lsscsi -g | awk '/PX02SMF080/ {print $NF}' | head -2)
pa=$(echo $ports | cut -d' ' -f1); pb=$(echo $ports | cut -d' ' -f2)
if [ -n "$pb" ] && [ "$pa" != "$pb" ]; then
  for pair in "$pa $pb" "$pb $pa"; do
    got=$(ent_set_ports $pair)
    n=$(basename "${pair%% *}")_to_$(basename "${pair##* }")
    [ "$got" = "0 1 1 0 0 0" ] && pass "d2b_enterprise_set_form_$n" \
      || fail "d2b_enterprise_set_form_$n" "set status, ReadLocked, WriteLocked after lock / unlock: '$got' (want '0 1 1 0 0 0')"
  done
else
  fail d2b_enterprise_set_form_both_ports "want two paths to PX02SMF080: $(lsscsi -g)"
fi

# D3: ThisSP.Random(8) -> F0 A8 <8 bytes> F1, status 0.
tsn=$(start_session "$sg" "$LOCKINGSP" 0)
r=$(xchg "$sg" "$tsn" $RAW_HSN "$(t_call "$THISSP" "$M_RANDOM" "08 ")")
res=$(results_of "$r")
[ "$(status_of "$r")" = 0 ] && [ "$(echo $res | wc -w)" = 11 ] && [ "${res#F0 A8 }" != "$res" ] \
  && pass d3_random || fail d3_random "$r"
# D6: the full LockingInfo row.
r=$(e_get "$sg" "$tsn" "$LOCKINGINFO")
ok=1
for c in Name Version EncryptSupport MaxRanges MaxReEncryptions KeysAvailableCfg; do
  named_value "$r" "$c" > /dev/null || { ok=0; echo "missing $c" >> $log; }
done
[ $ok = 1 ] && [ "$(uint_value "$(named_value "$r" MaxRanges)")" = 15 ] && pass d6_lockinginfo_full_row || fail d6_lockinginfo_full_row "$r"
end_session "$sg" "$tsn"

# D4: SECURITY PROTOCOL IN protocol 00h SPS 0001h: a 4-byte header of zeros.
rm -f /tmp/cert.bin
sg_raw -r 512 -o /tmp/cert.bin "$sg" A2 00 00 01 00 00 00 00 02 00 00 00 >> $log 2>&1 \
  && [ "$(file2hex /tmp/cert.bin)" = "00 00 00 00" ] && pass d4_certificate_header || fail d4_certificate_header "$(file2hex /tmp/cert.bin 2>&1)"

# D5: TPerInfo and the SP rows, read by Anybody.
tsn=$(start_session "$sg" "$ADMINSP" 0)
r=$(e_get "$sg" "$tsn" "$TPERINFO")
[ "$(status_of "$r")" = 0 ] && named_value "$r" GUDID > /dev/null && pass d5_tperinfo_anybody || fail d5_tperinfo_anybody "$r"
r=$(e_get "$sg" "$tsn" "$LOCKINGSP")
[ "$(uint_value "$(named_value "$r" LifeCycleState)")" = 9 ] && pass d5_sp_row_anybody || fail d5_sp_row_anybody "$r"
end_session "$sg" "$tsn"

# D7: Properties reports the timeouts; SessionTimeout honoured; a second StartSession to an SP
# with a write session is SP_BUSY (03); out-of-range timeouts are INVALID_PARAMETER (0C).
r=$(xchg "$sg" 0 0 "$(t_call "$SMUID" "$M_PROPERTIES" "")")
[ "$(uint_value "$(named_value "$r" MinSessionTimeout)")" = 1000 ] && [ "$(uint_value "$(named_value "$r" MaxSessionTimeout)")" = 600000 ] \
  && [ -n "$(named_value "$r" DefSessionTimeout)" ] && pass d7_properties_timeouts || fail d7_properties_timeouts "$r"
[ "$(start_session "$sg" "$ADMINSP" 1 "$(t_named SessionTimeout "$(t_uint 10)")")" = "status=12" ] \
  && pass d7_timeout_below_min_refused || fail d7_timeout_below_min_refused ""
tsn=$(start_session "$sg" "$ADMINSP" 1 "$(t_named SessionTimeout "$(t_uint 10000)")")
r=$(start_session "$sg" "$ADMINSP" 1)
[ "$r" = "status=3" ] && pass d7_second_session_sp_busy || { fail d7_second_session_sp_busy "first tsn=$tsn, second: $r"; end_session "$sg" "$r"; }
sleep 11  # the first "host" died: after its 10 s SessionTimeout the SP is free again
r=$(start_session "$sg" "$ADMINSP" 1)
case "$r" in status=*|"") fail d7_session_expired "$r" ;; *) pass d7_session_expired; end_session "$sg" "$r" ;; esac
# Leave no session behind for the next scripts, whatever happened above.
stack_reset "$sg"

# D8: Level 0 Locking feature byte 4 = 4B (supported, enabled, media encryption, MBR shadowing
# not supported), read with sg_raw.
rm -f /tmp/l0.bin
sg_raw -r 512 -o /tmp/l0.bin "$sg" A2 01 00 01 00 00 00 00 02 00 00 00 >> $log 2>&1
set -- $(file2hex /tmp/l0.bin)
shift 64
[ "$1 $2" = "00 02" ] && [ "$5" = 4B ] && pass d8_level0_mbr_bit || fail d8_level0_mbr_bit "$1 $2 $3 $4 $5"

# Two IF-SENDs before an IF-RECV: the second is refused (CHECK CONDITION, COMMAND SEQUENCE
# ERROR), exactly one reply is queued.
props=$(t_call "$SMUID" "$M_PROPERTIES" "")
if_send "$sg" 0 0 "$props" || fail first_if_send "$(cat $RAW_TMP/send.err)"
if if_send "$sg" 0 0 "$props"; then
  fail second_if_send_refused "accepted"
else
  grep -qi "sequence" $RAW_TMP/send.err && pass second_if_send_refused || fail second_if_send_refused "$(cat $RAW_TMP/send.err)"
fi
r1=$(if_recv "$sg"); r2=$(if_recv "$sg")
[ -n "$r1" ] && [ -z "$r2" ] && pass one_reply_queued || fail one_reply_queued "r1=${r1%% F9*} r2=$r2"
cat $RAW_TMP/*.err >> $log 2>/dev/null
