# Compares `sgctl --json scan` output (file $1) with lsscsi -g and sg_vpd -p di run now, in this
# guest: every SCSI device lsscsi lists is a path in the scan with the same H:C:T:L, sd and sg
# node, vendor and model, and sg_vpd's LU name, target port and relative port match.
#   . /vm/guest/lib.sh; sgctl --json scan > /tmp/scan.json; . /vm/guest/agree.sh /tmp/scan.json
agree_json=$1
n_lsscsi=0
agree_bad=""
lsscsi -g > /tmp/agree.lsscsi
while read -r line; do
  set -- $line
  hctl=$(echo "$1" | tr -d '[]')
  eval "sgn=\${$#}"; eval "sdn=\${$(($# - 1))}"
  n_lsscsi=$((n_lsscsi + 1))
  got=$(jq -r --arg sg "$sgn" '.data.drives[] as $d | $d.paths[] | select(.sg == $sg)
        | [$d.lu_name // "-", .hctl, (.block // "-"), (.target_port // "-"),
           (.relative_port // "-" | tostring), $d.vendor, $d.model] | join("|")' "$agree_json")
  if [ -z "$got" ]; then agree_bad="$agree_bad; $sgn ($hctl) missing from scan"; continue; fi
  IFS='|' read -r lu jhctl jblock jtp jrel jvendor jmodel <<EOT
$got
EOT
  [ "$jhctl" = "$hctl" ] || agree_bad="$agree_bad; $sgn hctl $jhctl vs lsscsi $hctl"
  [ "$jblock" = "$sdn" ] || agree_bad="$agree_bad; $sgn block $jblock vs lsscsi $sdn"
  case "$line" in *"$jvendor"*"$jmodel"*) ;; *) agree_bad="$agree_bad; $sgn vendor/model '$jvendor/$jmodel' not in lsscsi line";; esac
  # sg_vpd -p di: first NAA of the addressed LU, NAA and relative port of the target port.
  vpd=$(sg_vpd -p di "$sgn" | awk '
    /^  Addressed logical unit/ {s="lu"} /^  Target port/ {s="tp"} /^  Target device/ {s="td"}
    /designator type:/ {t=$0}
    /^ +0x[0-9a-f]+$/ && t ~ /NAA/ { if (s=="lu" && lu=="") lu=$1; if (s=="tp" && tp=="") tp=$1 }
    /Relative target port: 0x/ {rel=$NF}
    END {printf "%s %s %s\n", (lu==""?"-":lu), (tp==""?"-":tp), (rel==""?"-":rel)}')
  set -- $vpd
  vlu=$1; vtp=$2; vrel=$3
  [ "$vlu" = "-" ] || vlu="naa.${vlu#0x}"
  [ "$vrel" = "-" ] || vrel=$(printf '%d' "$vrel")
  [ "$lu" = "$vlu" ] || agree_bad="$agree_bad; $sgn LU $lu vs sg_vpd $vlu"
  [ "$jtp" = "$vtp" ] || agree_bad="$agree_bad; $sgn target port $jtp vs sg_vpd $vtp"
  [ "$jrel" = "$vrel" ] || agree_bad="$agree_bad; $sgn relative port $jrel vs sg_vpd $vrel"
done < /tmp/agree.lsscsi
n_json=$(jq '[.data.drives[].paths[]] | length' "$agree_json")
[ "$n_json" = "$n_lsscsi" ] || agree_bad="$agree_bad; scan has $n_json paths, lsscsi $n_lsscsi devices"
[ "$n_lsscsi" -gt 0 ] || agree_bad="$agree_bad; lsscsi lists nothing"
if [ -z "$agree_bad" ]; then pass "agree_lsscsi_sg_vpd_${n_lsscsi}_devices"; else fail agree_lsscsi_sg_vpd "${agree_bad#; }"; fi
