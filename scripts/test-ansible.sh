#!/usr/bin/env bash
# The Ansible collection against localhost on sim: drives with state files, with
# ansible-core from PyPI in a venv (target/ansible-venv, created and filled if missing).
# Two inventory hosts, both localhost (ansible_connection=local), each with its own drives:
#  - ansible/tests/modules.yml: facts; format check mode, format, format again (changed: false);
#    TCG lock/unlock idempotence; sanitize check mode (drive contents compared before/after);
#    a real sanitize with a signed certificate fetched to the controller, where the confirmation
#    of host_b's second drive is wrong: sgctl refuses that drive (exit 6 in its record, 8 for the
#    run), host_b fails, its other drive and all of host_a's are sanitized.
#  - ansible/tests/led.yml: sgctl_led on a copy of fixtures/sysfs/ses-jbod (check mode, on, on
#    again, off, a drive in no slot).
#  - ansible/playbooks/sanitize_by_model.yml: --check changes nothing; with a per-host cap of 1,
#    the host with two drives of the model fails before anything is sent, the other sanitizes
#    its one drive of that model and leaves the other model alone.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

fail() { echo "test-ansible: FAIL: $*" >&2; exit 1; }
ok() { echo "test-ansible: ok: $*"; }

venv=${SGCTL_ANSIBLE_VENV:-$root/target/ansible-venv}
if [[ ! -x $venv/bin/ansible-playbook ]]; then
  if ! python3 -m venv "$venv" 2>/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get -o DPkg::Lock::Timeout=900 update -qq && apt-get -o DPkg::Lock::Timeout=900 install -y -qq python3-venv >/dev/null
    rm -rf "$venv"; python3 -m venv "$venv"
  fi
  "$venv/bin/pip" install -q 'ansible-core>=2.15'
fi
ok "$("$venv/bin/ansible-playbook" --version | head -1)"

# The debug build scripts/test-all.sh made (SGCTL_BIN), else build it.
if [[ -n ${SGCTL_BIN:-} ]]; then
  sgctl=$SGCTL_BIN
else
  cargo build -q --bin sgctl 2>/dev/null
  sgctl=$root/target/debug/sgctl
fi
w=$(mktemp -d)
trap 'rc=$?; if [[ $rc -ne 0 ]]; then echo "test-ansible: work files kept in $w" >&2; else rm -rf "$w"; fi' EXIT
addr() { echo "sim:$1?clock=virtual&capacity_blocks=65536&serial=$2&state=$w/$2.json"; }
A1=$(addr px02smf080 FLA001); A2=$(addr px02smf080 FLA002)
B1=$(addr px02smf080 FLB001); B2=$(addr px03snf080 FLB002)
for d in "$A1" "$A2" "$B1" "$B2"; do "$sgctl" inquiry "$d" >/dev/null; done
"$sgctl" certificate keygen "$w/signing.pem" >/dev/null
digest=$root/ansible/tests/content_digest.py

cat >"$w/inventory.yml" <<YAML
all:
  vars:
    ansible_connection: local
    ansible_python_interpreter: $venv/bin/python
    sgctl_path: $sgctl
    workdir: $w
    certificates: $w/certificates
    signing_key: $w/signing.pem
    content_digest: $digest
  hosts:
    host_a:
      sgctl_devices: ["$A1", "$A2"]
      sgctl_confirm: [FLA001, FLA002]
      first_serial: FLA001
      state_files: [$w/FLA001.json, $w/FLA002.json]
      audit_log: $w/host_a-audit.jsonl
      sgctl_audit_log: $w/host_a-audit.jsonl
    host_b:
      sgctl_devices: ["$B1", "$B2"]
      sgctl_confirm: [FLB001, NOT-THE-SERIAL]
      first_serial: FLB001
      state_files: [$w/FLB001.json, $w/FLB002.json]
      audit_log: $w/host_b-audit.jsonl
      sgctl_audit_log: $w/host_b-audit.jsonl
YAML

play() {
  ANSIBLE_COLLECTIONS_PATH=$root/ansible ANSIBLE_STDOUT_CALLBACK=default ANSIBLE_NOCOLOR=1 \
    ANSIBLE_LOCALHOST_WARNING=0 ANSIBLE_INVENTORY_UNPARSED_WARNING=0 \
    "$venv/bin/ansible-playbook" -i "$w/inventory.yml" "$@"
}
# stats RUN HOST FIELD: from the PLAY RECAP line "host_a : ok=12 changed=3 ... failed=0 ..."
stat() {
  sed -n "s/^$2 *: .*\b$3=\([0-9]*\).*/\1/p" "$1" | tail -1 | grep . || echo "none"
}
# failed_task RUN HOST: "TASK NAME|RC|first line of msg" of the last failure of HOST
failed_task() {
  "$venv/bin/python" - "$1" "$2" <<'PY'
import json, re, sys
text, host = open(sys.argv[1]).read(), sys.argv[2]
task = None
last = None
for line in text.splitlines():
    m = re.match(r"TASK \[(.*)\] \**$", line)
    if m:
        task = m.group(1)
    m = re.match(r"fatal: \[%s\]: FAILED! => (.*)$" % re.escape(host), line)
    if m:
        try:
            r = json.loads(m.group(1))
        except ValueError:
            r = {"msg": m.group(1)}
        last = "%s|%s|%s" % (task, r.get("rc"), str(r.get("msg", "")).splitlines()[0] if r.get("msg") else "")
# The last failure counts (an ignored one, such as host_b's refused check mode, comes before it).
if last:
    print(last)
PY
}

# --- module tests ---
set +e
play "$root/ansible/tests/modules.yml" >"$w/modules.log"
rc=$?
set -e
[[ $rc -eq 2 ]] || { tail -40 "$w/modules.log"; fail "modules.yml: ansible-playbook exit $rc, expected 2 (host_b fails)"; }
[[ $(stat "$w/modules.log" host_a failed) == 0 ]] || fail "host_a failed: $(failed_task "$w/modules.log" host_a)"
[[ $(stat "$w/modules.log" host_b failed) == 1 ]] || fail "host_b failures: $(stat "$w/modules.log" host_b failed)"
ft=$(failed_task "$w/modules.log" host_b)
[[ $ft == "Sanitize for real, signed certificate fetched to the controller|8|"* ]] || fail "host_b failed elsewhere: $ft"
ok "format: check mode changed=true sent nothing, first run changed, second run changed=false (asserted on both hosts)"
ok "tcg: lock changed, lock again changed=false, unlock changed; erase in check mode"
for h in host_a host_b; do
  cmp -s "$w/$h.before-check" "$w/$h.after-check" || fail "$h: check-mode sanitize changed the drives"
done
ok "sanitize check mode: drive contents identical before and after on both hosts"
changed() { ! grep -qF "$("$digest" "$w/$1.json")" "$2"; }
changed FLA001 "$w/host_a.before-check" || fail "FLA001 not sanitized"
changed FLA002 "$w/host_a.before-check" || fail "FLA002 not sanitized"
changed FLB001 "$w/host_b.before-check" || fail "FLB001 (confirmed) not sanitized"
changed FLB002 "$w/host_b.before-check" && fail "FLB002 (refused) was changed"
[[ -f $w/host_a.sanitize.json && ! -f $w/host_b.sanitize.json ]] || fail "the task after the sanitize ran on the wrong hosts"
ok "refused drive: host_b's check mode refused it (exit 8, ignored), the real run failed only at the sanitize ($ft), FLB002 untouched; host_a 0 failures, its play went on"
for h in host_a host_b; do
  cert=$w/certificates/$h/$h-cert.json
  [[ -f $cert && -f $cert.txt ]] || fail "$h certificate not on the controller: $(ls -R "$w/certificates" 2>&1)"
  "$sgctl" certificate verify --pubkey "$w/signing.pem.pub" "$cert" >"$w/verify-$h.txt" \
    || fail "$h certificate does not verify: $(cat "$w/verify-$h.txt")"
  "$sgctl" audit verify "$w/$h-audit.jsonl" >/dev/null || fail "$h audit log chain broken"
done
grep -q "FLA001, FLA002" "$w/verify-host_a.txt" || fail "host_a certificate: $(cat "$w/verify-host_a.txt")"
"$sgctl" --json certificate verify "$w/certificates/host_b/host_b-cert.json" >"$w/b.json" || true
"$venv/bin/python" - "$w/certificates/host_b/host_b-cert.json" <<'PY' || fail "host_b certificate outcomes"
import json, sys
recs = {r["drive"]["serial"]: r for r in json.load(open(sys.argv[1]))["certificates"]}
assert recs["FLB001"]["outcome"] == "success", recs["FLB001"]["outcome"]
assert recs["FLB002"]["outcome"] == "refused" and recs["FLB002"]["exit_status"] == 6, recs["FLB002"]
PY
ok "certificates on the controller for both hosts verify against the public key (host_b's: FLB001 success, FLB002 refused/6); audit chains intact"

# --- the example playbook ---
before_a=$("$digest" "$w/FLA001.json" "$w/FLA002.json")
before_b1=$("$digest" "$w/FLB001.json"); before_b2=$("$digest" "$w/FLB002.json")
play "$root/ansible/playbooks/sanitize_by_model.yml" --check -e sgctl_model=PX02SMF080 \
  -e "sgctl_certificates=$w/example-certs" >"$w/example-check.log" || fail "example playbook --check failed: $(failed_task "$w/example-check.log" host_a) $(failed_task "$w/example-check.log" host_b)"
[[ $("$digest" "$w/FLA001.json" "$w/FLA002.json") == "$before_a" && $("$digest" "$w/FLB001.json") == "$before_b1" ]] \
  || fail "example playbook --check changed a drive"
[[ ! -e $w/example-certs ]] || fail "--check fetched certificates"
ok "example playbook --check: both hosts ok, nothing changed"

set +e
play "$root/ansible/playbooks/sanitize_by_model.yml" -e sgctl_model=PX02SMF080 \
  -e sgctl_max_drives_per_host=1 -e "sgctl_certificates=$w/example-certs" \
  -e "sgctl_signing_key=$w/signing.pem" >"$w/example.log"
rc=$?
set -e
[[ $rc -eq 2 ]] || fail "example playbook: exit $rc, expected 2 (host_a over the cap)"
ft=$(failed_task "$w/example.log" host_a)
[[ $ft == "Per-host cap|"* ]] || fail "host_a should fail at the cap, failed at: $ft"
[[ $(stat "$w/example.log" host_b failed) == 0 ]] || fail "host_b failed: $(failed_task "$w/example.log" host_b)"
[[ $("$digest" "$w/FLA001.json" "$w/FLA002.json") == "$before_a" ]] || fail "host_a over the cap but drives changed"
[[ $("$digest" "$w/FLB001.json") != "$before_b1" ]] || fail "host_b's PX02SMF080 not sanitized"
[[ $("$digest" "$w/FLB002.json") == "$before_b2" ]] || fail "host_b's other-model drive was changed"
c=$(ls "$w"/example-certs/host_b/certificate-*.json 2>/dev/null | head -1)
[[ -n $c ]] || fail "example playbook: no certificate fetched for host_b"
"$sgctl" certificate verify --pubkey "$w/signing.pem.pub" "$c" >"$w/verify-example.txt" \
  || fail "example certificate: $(cat "$w/verify-example.txt")"
grep -q "1 records (FLB001)" "$w/verify-example.txt" || fail "host_b certificate: $(cat "$w/verify-example.txt")"
ok "example playbook, cap 1: host_a (2 matching drives) failed at the cap with nothing sent; host_b sanitized FLB001 only, certificate fetched"
# sgctl_led on a writable copy of the built enclosure sysfs tree (ansible/tests/led.yml asserts
# check mode, the change, idempotence, off, and exit 7 for a drive in no slot).
cp -a "$root/fixtures/sysfs/ses-jbod/." "$w/ses-jbod"
cat >"$w/led-inventory.yml" <<YAML
all:
  hosts:
    localhost:
      ansible_connection: local
      ansible_python_interpreter: $venv/bin/python
YAML
ANSIBLE_COLLECTIONS_PATH=$root/ansible ANSIBLE_NOCOLOR=1 "$venv/bin/ansible-playbook" \
  -i "$w/led-inventory.yml" "$root/ansible/tests/led.yml" -e "tree=$w/ses-jbod" \
  -e "sgctl_path=$sgctl" -e "audit_log=$w/led-audit.jsonl" >"$w/led.log" \
  || fail "sgctl_led playbook: $(tail -20 "$w/led.log")"
[[ $(wc -l <"$w/led-audit.jsonl") -eq 2 ]] || fail "sgctl_led: expected 2 audit records (on, off)"
ok "sgctl_led: check mode wrote nothing, on, on again unchanged, off; no slot fails with exit 7"
echo "test-ansible: all checks passed"
