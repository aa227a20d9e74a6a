# Protection information: scsi_debug dif=1..3 (with dix=1) shows as protection type 1..3, as
# sg_readcap sees it; sector_size 4096 shows as 4096-byte blocks; no_uld=1 (sd not attached, like a
# disk sd refuses) still gives capacity and block size over the sg node.
. /vm/guest/lib.sh
reload() { sdebug_reload "$@" || { fail reload "sdebug_reload $*"; return 1; }; }
for dif in 1 2 3; do
  reload dev_size_mb=8 dif=$dif dix=1 || continue
  got=$(sgctl --json scan | jq -r '.data.drives[0].protection_type')
  sg=$(ls /sys/class/scsi_generic | head -n1)
  # sg_readcap -l prints "Protection: prot_en=1, p_type=<dif-1>, p_i_exponent=0"
  ref=$(sg_readcap -l /dev/$sg | sed -n 's/.*prot_en=\([01]\), p_type=\([0-9]\).*/\1 \2/p')
  set -- $ref
  refpt=$(( $1 == 1 ? $2 + 1 : 0 ))
  [ "$got" = "$dif" ] && [ "$refpt" = "$dif" ] && pass "dif_$dif" || fail "dif_$dif" "sgctl says type $got, sg_readcap '$ref'"
done
reload dev_size_mb=8 sector_size=4096 || true
got=$(sgctl --json scan | jq -r '.data.drives[0] | "\(.logical_block_size) \(.capacity_bytes)"')
[ "$got" = "4096 8388608" ] && pass sector_size_4096 || fail sector_size_4096 "got $got"
reload dev_size_mb=8 no_uld=1 || true
got=$(sgctl --json scan | jq -r '.data.drives[0] | "\(.paths[0].block) \(.paths[0].sg != null) \(.logical_block_size) \(.capacity_bytes)"')
[ "$got" = "null true 512 8388608" ] && pass no_sd_capacity_over_sg || fail no_sd_capacity_over_sg "got $got"
sdebug_default || fail restore "could not reload scsi_debug $SDEBUG_DEFAULT"
