#!/usr/bin/env bash
# The Debian package, on the machine the suite runs on (root): build it with cargo-deb,
# install it with dpkg -i, check what an admin relies on (sgctl --version, man -w, the rendered
# man page's exit-status table, completions loading in bash, /var/log/sgctl permissions, the
# systemd units, the atomic textfile writer, the alert rules' metric names), then remove and
# purge it and check nothing is left. Installs cargo-deb, man-db and bash-completion if missing.
# Never leaves the package installed (trap), and refuses to touch an sgctl installed otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "test-package: FAIL: $*" >&2; exit 1; }
ok() { echo "test-package: ok: $*"; }

[[ $(id -u) -eq 0 ]] || fail "needs root (dpkg -i)"
if ! command -v cargo-deb >/dev/null 2>&1; then
  cargo install cargo-deb --locked
fi
need=()
command -v man >/dev/null 2>&1 || need+=(man-db)
[[ -f /usr/share/bash-completion/bash_completion ]] || need+=(bash-completion)
command -v dpkg-shlibdeps >/dev/null 2>&1 || need+=(dpkg-dev)
if ((${#need[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}" >/dev/null
fi
if dpkg-query -W -f='${Status}' sgctl 2>/dev/null | grep -q "install ok installed"; then
  fail "an sgctl package is already installed; remove it first (this test purges what it installs)"
fi
[[ ! -e /usr/bin/sgctl ]] || fail "/usr/bin/sgctl exists and is not from a package"

cargo run -q -p xtask -- gen-docs --check
cargo deb --no-strip -q -o target/debian/ >/dev/null
deb=$(ls -t target/debian/sgctl_*.deb | head -1)
ok "built $deb ($(du -k "$deb" | cut -f1) KiB)"

cleanup() { dpkg --purge sgctl >/dev/null 2>&1 || true; }
trap cleanup EXIT
dpkg -i "$deb" >/dev/null
files=$(dpkg -L sgctl)

# The binary.
want="sgctl $(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)"
got=$(sgctl --version)
[[ "$got" == "$want" ]] || fail "sgctl --version: '$got', expected '$want'"
[[ $(command -v sgctl) == /usr/bin/sgctl ]] || fail "sgctl is not /usr/bin/sgctl"
ok "sgctl --version: $got"

# Man pages: found by man -w, rendered by man -l with the exit-status table.
page=$(man -w sgctl)
[[ "$page" == /usr/share/man/man8/sgctl.8* ]] || fail "man -w sgctl: $page"
rendered=$(MANWIDTH=100 man -l "$page" 2>/dev/null | col -b)
grep -q '^EXIT STATUS' <<<"$rendered" || fail "rendered sgctl(8) has no EXIT STATUS section"
for row in "0 +success" "1 +other" "2 +usage" "3 +device" "4 +command" "5 +check" "6 +refused" "7 +not" "8 +partial"; do
  grep -Eq "^ +${row}" <<<"$rendered" || fail "exit-status table lacks '$row'"
done
for sec in "DEVICE ADDRESSES" ENVIRONMENT FILES EXAMPLES; do
  grep -q "^$sec" <<<"$rendered" || fail "sgctl(8) lacks $sec"
done
grep -q "SGCTL_AUDIT_LOG" <<<"$rendered" || fail "sgctl(8) ENVIRONMENT lacks SGCTL_AUDIT_LOG"
n=$(ls dist/man/*.8 | wc -l)
for p in dist/man/*.8; do
  b=$(basename "$p" .8)
  man -w "$b" >/dev/null 2>&1 || fail "man -w $b"
done
# Rendered into a variable first: `... | col -b | grep -q` under pipefail fails whenever grep
# exits at its first match before col has written everything (SIGPIPE, status 141).
sanitize_page=$(man -l "$(man -w sgctl-sanitize)" 2>/dev/null | col -b)
grep -q -- "--signing-key" <<<"$sanitize_page" || fail "sgctl-sanitize(8) lacks --signing-key"
ok "man: $page, EXIT STATUS table rendered, $n pages found by man -w"

# Completions: files in place, bash loads ours on demand and completes subcommands.
for f in /usr/share/bash-completion/completions/sgctl /usr/share/zsh/vendor-completions/_sgctl \
         /usr/share/fish/vendor_completions.d/sgctl.fish; do
  [[ -s $f ]] || fail "missing completion file $f"
done
spec=$(bash -c '. /usr/share/bash-completion/bash_completion; _completion_loader sgctl; complete -p sgctl')
[[ "$spec" == *"-F _sgctl sgctl"* ]] || fail "complete -p sgctl: '$spec'"
words=$(bash -c '. /usr/share/bash-completion/bash_completion; _completion_loader sgctl
  COMP_WORDS=(sgctl sa); COMP_CWORD=1; COMP_LINE="sgctl sa"; COMP_POINT=8; _sgctl sgctl sa sgctl
  printf "%s\n" "${COMPREPLY[@]}"')
grep -qx sanitize <<<"$words" || fail "bash completion of 'sgctl sa' gave: $words"
ok "completions: $spec; 'sgctl sa<TAB>' -> $(tr '\n' ' ' <<<"$words")"

# The audit log directory.
perm=$(stat -c '%a %U %G' /var/log/sgctl)
[[ "$perm" == "750 root adm" ]] || fail "/var/log/sgctl is '$perm', expected '750 root adm'"
ok "/var/log/sgctl: $perm"

# systemd units: well-formed (systemd-analyze verify, when systemd is there).
for u in sgctl-health.service sgctl-health.timer; do
  [[ -f /usr/lib/systemd/system/$u ]] || fail "missing unit $u"
done
if command -v systemd-analyze >/dev/null 2>&1; then
  out=$(systemd-analyze verify /usr/lib/systemd/system/sgctl-health.service \
        /usr/lib/systemd/system/sgctl-health.timer 2>&1) || fail "systemd-analyze verify: $out"
  ok "systemd-analyze verify: units clean${out:+ ($out)}"
fi

# The textfile writer: publishes atomically, keeps the old file on a usage error.
tdir=$(mktemp -d)
SGCTL_TEXTFILE_DIR=$tdir SGCTL_HEALTH_ARGS="sim:px02smf080" /usr/lib/sgctl/health-textfile
grep -q '^sgctl_health_state{device="sim:px02smf080"' "$tdir/sgctl.prom" || fail "no metrics in sgctl.prom"
[[ $(stat -c %a "$tdir/sgctl.prom") == 644 ]] || fail "sgctl.prom not 0644"
before=$(sha256sum <"$tdir/sgctl.prom")
if SGCTL_TEXTFILE_DIR=$tdir SGCTL_HEALTH_ARGS="--no-such-flag" /usr/lib/sgctl/health-textfile 2>/dev/null; then
  fail "health-textfile succeeded on a usage error"
fi
[[ $(sha256sum <"$tdir/sgctl.prom") == "$before" ]] || fail "failed run replaced sgctl.prom"
leftovers=$(find "$tdir" -name '.sgctl.prom.*' | wc -l)
[[ $leftovers -eq 0 ]] || fail "temporary files left in the textfile directory"
rm -rf "$tdir"
ok "health-textfile: wrote sgctl.prom by rename, kept it on failure, no temporary files left"

# Every metric the example alert rules use is one sgctl documents.
rules=/usr/share/doc/sgctl/examples/sgctl-alerts.yml
[[ -f $rules ]] || fail "missing $rules"
documented=$(sgctl health --help)
for m in $(grep -o 'sgctl_[a-z_]*' "$rules" | sort -u); do
  grep -q "$m" <<<"$documented" || fail "alert rules use $m, which sgctl health does not document"
done
ok "alert rules: $(grep -c 'alert:' "$rules") alerts, all metric names documented"

# Remove, then purge: nothing of the package left.
dpkg -r sgctl >/dev/null
[[ ! -e /usr/bin/sgctl ]] || fail "/usr/bin/sgctl left after dpkg -r"
purge_msg=$(dpkg --purge sgctl 2>&1 >/dev/null)
left=()
while read -r f; do
  [[ -f "$f" || -L "$f" ]] && left+=("$f")
done <<<"$files"
((${#left[@]} == 0)) || fail "files left after purge: ${left[*]}"
# Purge removes /var/log/sgctl when empty; audit logs in it (here: written by other sgctl runs on
# this machine while the package was installed) are kept on purpose, and purge says so.
if [[ -e /var/log/sgctl ]]; then
  [[ -n $(ls -A /var/log/sgctl) ]] || fail "empty /var/log/sgctl left after purge"
  grep -q "keeping /var/log/sgctl" <<<"$purge_msg" || fail "purge kept /var/log/sgctl silently"
  ok "purge kept /var/log/sgctl: it holds audit logs ($(ls -A /var/log/sgctl | tr '\n' ' '))"
fi
dpkg-query -W -f='${Status}' sgctl 2>/dev/null | grep -q "installed" && fail "package still known to dpkg"
man -w sgctl >/dev/null 2>&1 && fail "man -w sgctl still finds a page"
trap - EXIT
ok "dpkg -r and --purge removed $(wc -l <<<"$files") paths; nothing left"
echo "test-package: all checks passed"
