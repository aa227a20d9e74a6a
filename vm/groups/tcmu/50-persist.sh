# SCSI-3 persistent reservations and ALUA through TCMU, checked with sg3_utils: sg_persist
# registers and reserves (Write Exclusive) through port 1; port 2 reads but its write gets
# RESERVATION CONFLICT; sgctl reservations agrees through both paths; then CLEAR. sg_rtpg and
# sg_vpd -p di agree on the target port groups.
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
# The sg node of relative target port $1.
sg_of_port() {
  for s in $(lsscsi -g | awk '/PX02SMF080/ {print $NF}'); do
    sg_vpd -p di "$s" 2>/dev/null | grep -qi "relative target port: 0x0*$1\$" && { echo "$s"; return; }
  done
}
sg1=$(sg_of_port 1); sg2=$(sg_of_port 2)
# Take the pending unit attentions (restart, format) off both nexuses first: sg_persist does not retry.
sg_turs "$sg1" >/dev/null 2>&1; sg_turs "$sg2" >/dev/null 2>&1
sg_turs "$sg1" >/dev/null 2>&1; sg_turs "$sg2" >/dev/null 2>&1
[ -n "$sg1" ] && [ -n "$sg2" ] && pass pr_paths || fail pr_paths "port 1 '$sg1' port 2 '$sg2'"
sg_persist --out --register --param-sark=0xabc "$sg1" >/dev/null 2>&1 && \
  sg_persist --out --register --param-sark=0xdef "$sg2" >/dev/null 2>&1 && pass sg_persist_register \
  || fail sg_persist_register "$(sg_persist --in --read-keys "$sg1" 2>&1 | tr '\n' '|')"
sg_persist --out --reserve --param-rk=0xabc --prout-type=1 "$sg1" >/dev/null 2>&1 \
  && pass sg_persist_reserve || fail sg_persist_reserve "$(sg_persist --out --reserve --param-rk=0xabc --prout-type=1 "$sg1" 2>&1 | tr '\n' '|')"
keys=$(sg_persist --in --read-keys "$sg2" 2>&1)
echo "$keys"
echo "$keys" | grep -q "0xabc" && echo "$keys" | grep -q "0xdef" && pass sg_persist_read_keys || fail sg_persist_read_keys "$keys"
res=$(sg_persist --in --read-reservation "$sg2" 2>&1)
echo "$res"
echo "$res" | grep -q "0xabc" && echo "$res" | grep -qi "write exclusive" && pass sg_persist_read_reservation \
  || fail sg_persist_read_reservation "$res"
# Port 2: a READ(10) passes, a WRITE(10) gets RESERVATION CONFLICT; port 1 writes.
r=$(sg_raw -r 512 "$sg2" 28 00 00 00 00 00 00 00 01 00 2>&1); rc_r=$?
w=$(sg_raw -s 512 -i /dev/zero "$sg2" 2a 00 00 00 00 00 00 00 01 00 2>&1)
echo "$w"
[ $rc_r = 0 ] && pass other_port_reads || fail other_port_reads "$r"
echo "$w" | grep -qi "reservation conflict" && pass other_port_write_conflict || fail other_port_write_conflict "$w"
sg_raw -s 512 -i /dev/zero "$sg1" 2a 00 00 00 00 00 00 00 01 00 >/dev/null 2>&1 && pass holder_writes || fail holder_writes "port 1 write refused"
a=$(sgctl --json reservations "$sg2" | jq -r '.data.held_by_other_initiator')
b=$(sgctl --json reservations "$sg1" | jq -r '.data.held_by_other_initiator')
[ "$a/$b" = "true/false" ] && pass sgctl_reservations_per_path || fail sgctl_reservations_per_path "port 2 $a, port 1 $b"
sgctl reservations "$sg2"
sg_persist --out --clear --param-rk=0xabc "$sg1" >/dev/null 2>&1 && \
  [ -z "$(sg_persist --in --read-keys "$sg1" 2>&1 | grep -E "^ +0x")" ] && pass sg_persist_clear || fail sg_persist_clear "$(sg_persist --in -k "$sg1" 2>&1)"
# ALUA: each port's VPD 0x83 target port group is the group RTPG lists for that port.
rt=$(sg_rtpg "$sg1" 2>&1)
echo "$rt"
v1=$(sg_vpd -p di "$sg1" 2>&1 | grep -i "target port group")
v2=$(sg_vpd -p di "$sg2" 2>&1 | grep -i "target port group")
echo "$v1 / $v2"
echo "$rt" | grep -qi "target port group id *: *0x1" && echo "$rt" | grep -qi "target port group id *: *0x2" \
  && echo "$v1" | grep -qi "0x1" && echo "$v2" | grep -qi "0x2" && pass sg_rtpg_agrees_with_vpd_di \
  || fail sg_rtpg_agrees_with_vpd_di "rtpg: $(echo "$rt" | tr '\n' '|') vpd: $v1 / $v2"
