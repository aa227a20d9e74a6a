# The virtual enclosure (sim:enclosure, SES-4) served through TCMU + tcm_loop next to the drive,
# as peripheral device type 0Dh: the kernel's ses driver binds to it and registers it in
# /sys/class/enclosure. Slot 0 holds the served drive (serials=TCMU0001: its port SAS
# addresses in the Additional Element Status page). The kernel links a slot to a disk only when
# the disk sits under a SAS transport rphy (ses.c ses_match_to_enclosure:
# scsi_is_sas_rphy(sdev->sdev_target->dev.parent)); a tcm_loop LU does not, so `sgctl locate`
# and `sgctl fault` find the slot over SG_IO (the 0Dh device a scan finds, page 0Ah matched by
# SAS address) and the kernel's attributes, which read page 02h from the device, show the change;
# sg_ses reads the same element. The other way round: the kernel's own Enclosure Control page
# (a write to a component's fault attribute) reaches the virtual enclosure.
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
t0=$(date +%s)
tick() { echo "57-ses: +$(( $(date +%s) - t0 )) s $*"; }
modprobe ses 2>/dev/null || true
[ -d /sys/class/enclosure ] && pass ses_loaded || fail ses_loaded "no /sys/class/enclosure after modprobe ses"
rm -f /tmp/ses.ready /tmp/ses.rc
sh -c "sgctl sim serve --tcmu 'enclosure?slots=4&drive=px02smf080&serials=TCMU0001' --ready-file /tmp/ses.ready \
         > /tmp/ses.out 2> /tmp/ses.err & echo \$! > /tmp/ses.pid; wait \$!; echo \$? > /tmp/ses.rc" &
wait_for 60 sh -c 'test -f /tmp/ses.ready || test -f /tmp/ses.rc'
cat /tmp/ses.err
tick "served"
esg=$(lsscsi -g | awk '/VIRTUAL ENCL/ {print $NF; exit}')
ehctl=$(lsscsi -g | awk '/VIRTUAL ENCL/ {gsub(/[][]/, "", $1); print $1; exit}')
lsscsi -g | grep -i "VIRTUAL ENCL"
lsscsi -g | grep -q "enclosu.*SGCTL.*VIRTUAL ENCL" && pass lun_is_type_0d \
  || fail lun_is_type_0d "$(lsscsi -g)"
E=/sys/class/enclosure/$ehctl
wait_for 20 test -f "$E/components"
dmesg | grep -i -E "enclosure|ses " | tail -n 5
[ "$(cat "$E/components" 2>/dev/null)" = 4 ] && pass ses_bound_4_components \
  || fail ses_bound_4_components "$(ls -la /sys/class/enclosure/ 2>&1; dmesg | tail -n 8)"
ls "$E"
S0="$E/SLOT 00"; S1="$E/SLOT 01"
[ "$(cat "$S0/slot" 2>/dev/null)" = 0 ] && [ "$(cat "$E/SLOT 03/slot" 2>/dev/null)" = 3 ] \
  && [ "$(cat "$S0/type" 2>/dev/null)" = "array device" ] && pass components_named_by_page_07 \
  || fail components_named_by_page_07 "$(ls "$E"; cat "$S0/slot" "$S0/type" 2>&1)"
id_sg=$(sg_ses --page=1 "$esg" 2>/dev/null | sed -n 's/.*logical identifier (hex): *\([0-9a-fA-F]*\).*/\1/p' | head -n 1)
[ -n "$id_sg" ] && [ "$(cat "$E/id")" = "0x$(echo "$id_sg" | tr 'A-F' 'a-f')" ] && pass id_from_page_01 \
  || fail id_from_page_01 "sysfs $(cat "$E/id" 2>&1), sg_ses '$id_sg'"
if [ -e "$S0/device" ]; then
  pass slot_0_linked
else
  skip slot_0_linked "the kernel links a slot only to a disk under a SAS rphy (ses.c); tcm_loop LUs have none"
fi
tick "bound"
# sgctl scan: the enclosure as the kernel registered it, and its 0Dh device.
out=$(sgctl --json scan)
echo "$out" | jq -e --arg h "$ehctl" --arg id "$(cat "$E/id")" \
  '.data.enclosures[] | select(.name == $h and .id == $id and (.components | length) == 4)' >/dev/null \
  && pass scan_lists_enclosure || fail scan_lists_enclosure "$(echo "$out" | jq -c .data.enclosures)"
echo "$out" | jq -e '.data.drives[] | select(.peripheral_type == 13 and .vendor == "SGCTL")' >/dev/null \
  && pass scan_lists_0d_device || fail scan_lists_0d_device "$(echo "$out" | jq -c '[.data.drives[] | {peripheral_type, vendor, model}]')"
# The drive's slot from the 0Dh device's own pages (the kernel did not link it): both paths.
echo "$out" | jq -e --arg id "$(cat "$E/id")" --arg h "$ehctl" '.data.drives[] | select(.serial == "TCMU0001")
  | select(.enclosure.id == $id and .enclosure.slot == 0 and .enclosure.enclosure_device == $h
           and ([.paths[].enclosure.slot] == [0, 0]))' >/dev/null \
  && pass scan_places_drive_in_slot_0 \
  || fail scan_places_drive_in_slot_0 "$(echo "$out" | jq -c '.data.drives[] | {serial, enclosure, p: [.paths[].enclosure]}')"
# sg_ses: Ident / Fault reqstd of the array device slot element N (0-based).
ses_bits() {
  sg_ses --page=2 --index="$1" "$esg" 2>/dev/null | tr -s ' ' | grep -o -E "(Ident|Fault reqstd)=[01]" | tr '\n' ' '
}
dsg=$(tcmu_sg)
led() { # led locate|fault on|off: sgctl, then the kernel's attribute and sg_ses
  o=$(sgctl --json "$1" "$dsg" --"$2" --audit-log /tmp/ses-audit.jsonl 2>&1); r=$?
  echo "sgctl $1 $2: exit $r: $(echo "$o" | jq -c '.data.changes[]? | {backend, target, before, after, error}' 2>/dev/null || echo "$o")"
}
tick "scanned"
led locate on
[ $r = 0 ] && [ "$(cat "$S0/locate")" = 1 ] && ses_bits 0 | grep -q "Ident=1" \
  && echo "$o" | jq -e '.data.changes[0].backend == "ses" and .data.changes[0].enclosure.slot == 0' >/dev/null \
  && pass locate_on_kernel_and_sg_ses_agree || fail locate_on_kernel_and_sg_ses_agree \
  "exit $r, sysfs locate $(cat "$S0/locate" 2>&1), sg_ses '$(ses_bits 0)', $o"
[ "$(cat "$S1/locate")" = 0 ] && pass locate_only_slot_0 || fail locate_only_slot_0 "slot 1 locate $(cat "$S1/locate")"
led locate off
[ $r = 0 ] && [ "$(cat "$S0/locate")" = 0 ] && ses_bits 0 | grep -q "Ident=0" \
  && pass locate_off || fail locate_off "exit $r, sysfs $(cat "$S0/locate" 2>&1), sg_ses '$(ses_bits 0)'"
led fault on
# ses.c shows FAULT SENSED/FAULT REQSTD shifted: byte 3 bits 6..5 -> 2 for a requested fault.
[ $r = 0 ] && [ "$(cat "$S0/fault")" = 2 ] && ses_bits 0 | grep -q "Fault reqstd=1" \
  && pass fault_on_kernel_and_sg_ses_agree || fail fault_on_kernel_and_sg_ses_agree \
  "exit $r, sysfs fault $(cat "$S0/fault" 2>&1), sg_ses '$(ses_bits 0)', $o"
led fault off
[ $r = 0 ] && [ "$(cat "$S0/fault")" = 0 ] && ses_bits 0 | grep -q "Fault reqstd=0" \
  && pass fault_off || fail fault_off "exit $r, sysfs $(cat "$S0/fault" 2>&1), sg_ses '$(ses_bits 0)'"
[ "$(wc -l < /tmp/ses-audit.jsonl)" = 4 ] && pass audit_4_records || fail audit_4_records "$(cat /tmp/ses-audit.jsonl)"
tick "sgctl LEDs"
# The kernel's own control page (enclosure.c -> ses_set_locate/ses_set_fault) on slot 1.
echo 1 > "$S1/locate"; echo 1 > "$S1/fault"
ses_bits 1 | grep -q "Ident=1" && ses_bits 1 | grep -q "Fault reqstd=1" && ses_bits 0 | grep -q "Ident=0" \
  && pass kernel_control_page_accepted || fail kernel_control_page_accepted "sg_ses slot 1 '$(ses_bits 1)' slot 0 '$(ses_bits 0)'; $(dmesg | tail -n 3)"
if grep -qw vmcapture=1 /proc/cmdline; then
  # Captured with slot 0's locate LED on (sgctl) and slot 1's locate and fault on (the kernel).
  sgctl locate "$dsg" --on --audit-log /tmp/ses-audit.jsonl >/dev/null 2>&1
  VM_GROUP=tcmu-ses sh /vm/guest/capture-sysfs.sh
  echo 0 > "$S1/locate"; echo 0 > "$S1/fault"
fi
echo 0 > "$S1/locate"; echo 0 > "$S1/fault"
kill -TERM "$(cat /tmp/ses.pid)"
wait_for 60 test -f /tmp/ses.rc
[ "$(cat /tmp/ses.rc 2>/dev/null)" = 0 ] && [ ! -e "$E" ] && pass serve_stopped_enclosure_gone \
  || fail serve_stopped_enclosure_gone "rc $(cat /tmp/ses.rc 2>&1); $(ls /sys/class/enclosure); $(cat /tmp/ses.err)"
echo "57-ses: $(( $(date +%s) - t0 )) s"
