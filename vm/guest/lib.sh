# Helpers for guest check scripts (sourced by /init; check scripts source it again).
# A check reports exactly one line per check name:
#   pass NAME            -> "VMTEST PASS <script>/<NAME>"
#   fail NAME REASON...  -> "VMTEST FAIL <script>/<NAME>: REASON"
#   skip NAME REASON...  -> "VMTEST SKIP <script>/<NAME>: REASON"  (the host prints skips)
#   check NAME CMD...    -> runs CMD, pass if it exits 0, fail with its output otherwise
#   host_cmd MONITOR-CMD -> asks the host to send a QEMU monitor command (e.g. device_del sas1)
#                          and returns after the host acknowledged it (or fails after 60 s)
#   wait_for SECS CMD... -> polls CMD every 0.2 s until it succeeds; status 1 on timeout
#   vm_export NAME FILE  -> copies FILE to the host as vm/out/<group>/export/NAME (VM_KEEP=1)

vm_result() {
  echo "VMTEST $*" >&3
  echo "VMTEST $*"
}

pass() { vm_result "PASS ${VM_SCRIPT:-init}/$*"; }
fail() { n=$1; shift; vm_result "FAIL ${VM_SCRIPT:-init}/$n: $*"; VM_FAILED=1; }
skip() { n=$1; shift; vm_result "SKIP ${VM_SCRIPT:-init}/$n: $*"; }

check() {
  n=$1; shift
  if out=$("$@" 2>&1); then pass "$n"; else fail "$n" "'$*' exited $?: $(echo "$out" | tail -n 3 | tr '\n' ' ')"; fi
}

wait_for() {
  secs=$1; shift
  i=0
  while ! "$@" >/dev/null 2>&1; do
    i=$((i + 1))
    [ $i -ge $((secs * 5)) ] && return 1
    sleep 0.2
  done
  return 0
}

# fd 3 is /dev/ttyS1, opened once by /init (read+write) so the host's answers are buffered even
# when nobody is reading at that moment. The host answers "ACK <seq>" after the QEMU monitor ran
# the command, or "NAK <seq> <monitor output>" if the monitor printed an error.
host_cmd() {
  VM_HOST_SEQ=$(( ${VM_HOST_SEQ:-0} + 1 ))
  vm_result "HOST $VM_HOST_SEQ $*"
  line=""
  while read -t 60 line <&3; do
    case "$line" in
      "ACK $VM_HOST_SEQ") return 0 ;;
      "NAK $VM_HOST_SEQ"*) echo "host_cmd: '$*' refused: $line"; return 1 ;;
    esac
  done
  echo "host_cmd: no answer from the host for '$*'"
  return 1
}

# Debian's busybox-static runs its own applets in preference to PATH (FEATURE_SH_STANDALONE), and it
# has an `lsscsi` applet with a different output format. Use the real tools.
lsscsi() { /usr/bin/lsscsi "$@"; }

vm_export() {
  base64 "$2" | while read -r chunk; do echo "VMTEST EXPORT $1 $chunk" >&3; done
}

# scsi_debug group: reload the module with other parameters (waits for the old nodes to go and a
# new one to appear), and restore the group's standard setup afterwards so later scripts find it.
SDEBUG_DEFAULT="num_tgts=2 max_luns=8 dev_size_mb=8"
sdebug_reload() {
  rmmod scsi_debug 2>/dev/null
  wait_for 30 sh -c '[ -z "$(ls /sys/class/scsi_generic)" ]' || { echo "sdebug_reload: sg nodes did not go away"; return 1; }
  modprobe scsi_debug "$@" || { echo "sdebug_reload: modprobe scsi_debug $* failed"; return 1; }
  wait_for 60 sh -c '[ -n "$(ls /sys/class/scsi_generic)" ]' || { echo "sdebug_reload: no sg node after modprobe scsi_debug $*"; return 1; }
  # all LUs of the new instance
  want=$(cat /sys/bus/pseudo/drivers/scsi_debug/max_luns 2>/dev/null)
  tg=$(cat /sys/bus/pseudo/drivers/scsi_debug/num_tgts 2>/dev/null)
  [ -n "$want" ] && [ -n "$tg" ] && wait_for 60 sh -c "[ \$(ls /sys/class/scsi_generic | wc -l) -ge $((want * tg)) ]"
  return 0
}
sdebug_default() { sdebug_reload $SDEBUG_DEFAULT; }
