# Every scsi_debug LU is found with the identity scsi_debug gives it (drivers/scsi/scsi_debug.c
# inquiry_vpd_83 / inquiry_vpd_80: lu_id_num = (host_no + 1) * 2000 + target * 1000 + lun,
# LU NAA 0x3333333000000000 + lu_id_num, serial = lu_id_num in decimal, target port NAA
# 0x3222222000000000 + (host_no + 1) * 2000 + target * 1000 - 2 + 1... computed below).
. /vm/guest/lib.sh
sgctl --json scan > /tmp/scan.json; rc=$?
[ $rc = 0 ] && pass scan_exit_0 || fail scan_exit_0 "exit $rc"
n=$(jq '.data.drives | length' /tmp/scan.json)
[ "$n" = 16 ] && pass sixteen_drives || fail sixteen_drives "$n drives"
bad=""
for d in /sys/class/scsi_device/*; do
  hctl=$(basename "$d"); IFS=: read -r h c t l <<EOT
$hctl
EOT
  id=$(( (h + 1) * 2000 + t * 1000 + l ))
  want_lu=$(printf 'naa.3333333%09x' "$id")
  # target_dev_id = (host_no + 1) * 2000 + target * 1000 - 3 (scsi_debug.c resp_inquiry);
  # the target port NAA is 0x3222222000000000 + target_dev_id + 1.
  want_tp=$(printf '0x3222222%09x' $(( (h + 1) * 2000 + t * 1000 - 3 + 1 )))
  got=$(jq -r --arg h "$hctl" '.data.drives[] as $d | $d.paths[] | select(.hctl == $h)
     | [$d.lu_name, $d.serial, .target_port, (.relative_port|tostring), $d.vendor, $d.model,
        ($d.capacity_bytes|tostring), ($d.logical_block_size|tostring), ($d.protection_type|tostring),
        ($d.paths|length|tostring)] | join("|")' /tmp/scan.json)
  want="$want_lu|$id|$want_tp|1|Linux|scsi_debug|8388608|512|0|1"
  [ "$got" = "$want" ] || bad="$bad; $hctl: got $got want $want"
done
[ -z "$bad" ] && pass identities_16 || fail identities "${bad#; }"
. /vm/guest/agree.sh /tmp/scan.json
