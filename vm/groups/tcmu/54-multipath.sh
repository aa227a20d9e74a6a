# multipath-tools in the guest: the two TCMU paths (two tcm_loop targets, one LU with one
# NAA WWN in VPD 0x83) are one multipath map with two paths; the ALUA prioritizer reads REPORT
# TARGET PORT GROUPS; the map is torn down again so later checks see plain sd devices.
# What blocks it without help: no udev runs in the guest, and multipath 0.9 only enumerates
# block devices udev has initialized (a /run/udev/data entry) and, by its built-in
# blacklist_exceptions, only those with an ID_WWN or SCSI_IDENT_ property ("no paths" otherwise).
# So this script writes the entries udev's rules would (I: initialized, ID_WWN from VPD 0x83
# read with sg_vpd); the WWID itself multipath reads from sysfs VPD 0x83 (uid_attribute "").
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
if ! command -v multipath >/dev/null 2>&1; then
  skip multipath_groups_paths "multipath-tools not in the initramfs (vm/setup.sh installs it)"
  exit 0
fi
# The kernel cannot autoload the path selector (no /sbin/modprobe helper in the initramfs):
# load round-robin (vm/modules.list) and name it, instead of the default service-time.
modprobe dm_multipath 2>/dev/null; modprobe dm_round_robin 2>/dev/null; modprobe scsi_dh_alua 2>/dev/null
mkdir -p /etc/multipath
cat > /etc/multipath.conf <<'CONF'
defaults {
  user_friendly_names no
  find_multipaths no
  uid_attribute ""
}
devices {
  device {
    vendor "TOSHIBA"
    product "PX02SMF080"
    path_grouping_policy group_by_prio
    path_selector "round-robin 0"
    prio alua
    path_checker tur
    hardware_handler "1 alua"
  }
}
CONF
mkdir -p /run/udev/data
for s in $(lsscsi | awk '/PX02SMF080/ {print $NF}'); do
  b=$(basename "$s"); mm=$(cat "/sys/block/$b/dev")
  naa=$(sg_vpd -p di "$s" 2>/dev/null | awk '/0x[0-9a-f]{16}/ {print $1; exit}')
  printf 'I:1\nE:DEVTYPE=disk\nE:ID_WWN=%s\nE:ID_BUS=scsi\n' "$naa" > "/run/udev/data/b$mm"
  echo "$b ($mm): ID_WWN=$naa"
done
out=$(multipath -v3 2>&1); rc=$?
echo "$out" | grep -E "sd[a-z]" | head -n 30
ll=$(multipath -ll 2>&1)
echo "$ll"
wwn=$(sg_vpd -p di "$(tcmu_sg)" 2>/dev/null | awk '/naa/ {print $1; exit}' | sed 's/0x//')
npaths=$(echo "$ll" | grep -cE "[0-9]+:[0-9]+:[0-9]+:[0-9]+ +sd")
[ "$npaths" = 2 ] && echo "$ll" | grep -qi "PX02SMF080" && pass multipath_groups_paths \
  || fail multipath_groups_paths "exit $rc, $npaths paths: $(echo "$out $ll" | tail -n 6 | tr '\n' '|')"
echo "$ll" | grep -q "prio=50" && pass multipath_alua_prio || fail multipath_alua_prio "$(echo "$ll" | tr '\n' '|')"
multipath -F >/dev/null 2>&1
[ -z "$(dmsetup ls 2>/dev/null | grep -v "No devices found")" ] && pass multipath_flushed || fail multipath_flushed "$(dmsetup ls)"
