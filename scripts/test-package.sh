#!/usr/bin/env bash
# The Debian package, on the machine the suite runs on (root): check the license gate and the
# generated packaging files (xtask gen-deb --check), build it with cargo-deb (stripped binary,
# debug info in the sgctl-dbgsym .ddeb), run lintian on both (no error, no warning that the
# shipped overrides do not explain), check the maintainer scripts, install it with dpkg -i and
# check what an admin relies on (sgctl --version, the split debug file, man -w and groff-clean man
# pages, the rendered exit-status table, completions loading in bash, /var/log/sgctl permissions,
# systemd-analyze verify on the installed units, the timer starting the service once under a
# booted systemd in a systemd-nspawn container, the atomic textfile writer, the alert rules'
# metric names), then remove and purge it and check nothing is left. Installs cargo-deb,
# lintian, man-db, bash-completion, dpkg-dev and systemd-container if missing.
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
command -v lintian >/dev/null 2>&1 || need+=(lintian)
command -v systemd-analyze >/dev/null 2>&1 || need+=(systemd)
command -v systemd-nspawn >/dev/null 2>&1 || need+=(systemd-container)
command -v readelf >/dev/null 2>&1 || need+=(binutils)
if ((${#need[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=900 update -qq
  apt-get -o DPkg::Lock::Timeout=900 install -y -qq "${need[@]}" >/dev/null
fi
for p in sgctl sgctl-dbgsym; do
  if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    fail "a $p package is already installed; remove it first (this test purges what it installs)"
  fi
done
[[ ! -e /usr/bin/sgctl ]] || fail "/usr/bin/sgctl exists and is not from a package"

# xtask: the binary scripts/test-all.sh built (SGCTL_XTASK), else `cargo run -p xtask`.
xtask() { if [[ -n ${SGCTL_XTASK:-} ]]; then "$SGCTL_XTASK" "$@"; else cargo run -q -p xtask -- "$@"; fi; }
xtask gen-docs --check
# The license gate (every statically linked crate under an allowed license) and the freshness of
# dist/debian/copyright and changelog.
xtask gen-deb --check
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
arch=$(dpkg --print-architecture)
rm -f target/debian/sgctl_*.deb target/debian/sgctl-dbgsym_*.ddeb
cargo deb -q -o target/debian/ >/dev/null
deb=target/debian/sgctl_${version}-1_${arch}.deb
ddeb=target/debian/sgctl-dbgsym_${version}-1_${arch}.ddeb
[[ -f $deb && -f $ddeb ]] || fail "cargo deb made $(ls target/debian), expected $deb and $ddeb"
unpacked=$(mktemp -d)
dpkg-deb -x "$deb" "$unpacked"
bin_size=$(stat -c %s "$unpacked/usr/bin/sgctl")
ok "built $deb ($(stat -c %s "$deb") bytes; usr/bin/sgctl $bin_size bytes) and $ddeb ($(stat -c %s "$ddeb") bytes)"

# The packaged binary is stripped; its debug info is in the .ddeb under its build-id.
# (Listings go into variables first: `cmd | grep -q` under pipefail fails when grep exits at
# its first match before cmd has written everything.)
sections=$(readelf -S --wide "$unpacked/usr/bin/sgctl")
# (.debug_gdb_scripts is loaded data, rustc's pointer to its gdb pretty-printers, not debug info.)
grep -v '\.debug_gdb_scripts' <<<"$sections" | grep -q '\.debug_' && fail "usr/bin/sgctl has .debug_* sections"
grep -q ' \.symtab ' <<<"$sections" && fail "usr/bin/sgctl has a symbol table"
build_id=$(readelf -n "$unpacked/usr/bin/sgctl" | sed -n 's/^ *Build ID: *//p')
[[ -n $build_id ]] || fail "usr/bin/sgctl has no build-id note"
debug_file=usr/lib/debug/.build-id/${build_id:0:2}/${build_id:2}.debug
ddeb_files=$(dpkg-deb -c "$ddeb")
grep -q " ./$debug_file\$" <<<"$ddeb_files" || fail "$ddeb lacks $debug_file"
rm -rf "$unpacked"
ok "usr/bin/sgctl stripped; debug info in the .ddeb as /$debug_file"

# Maintainer scripts: cargo-deb filled #DEBHELPER# with the units' fragments.
scripts=$(dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./postinst ./prerm ./postrm)
grep -q '#DEBHELPER#' <<<"$scripts" && fail "a maintainer script still holds #DEBHELPER#"
grep -q 'deb-systemd-helper purge sgctl-health.timer' <<<"$scripts" || fail "postrm does not purge the timer's state"
ok "maintainer scripts: no #DEBHELPER# left; the units' fragments in place"

# lintian, as a distribution's reviewer runs it: no error and no warning, except the overrides
# the package ships, each with a written reason.
awk '/^#/ { c = 1; next } /^[[:space:]]*$/ { c = 0; next } { if (!c) { print "override without a reason: " $0; bad = 1 } }
     END { exit bad }' dist/debian/lintian-overrides || fail "dist/debian/lintian-overrides: every override needs a comment above it"
# (--fail-on none: with --show-overrides, lintian 2.116 exits 2 on overridden warnings too; the
# E:/W: lines below are the verdict, overridden tags print as O:.)
lint_rc=0
lint=$(lintian --fail-on none --show-overrides --tag-display-limit 0 "$deb" 2>&1) || lint_rc=$?
lint=$(grep -v '^running with root privileges' <<<"$lint" || true)
((lint_rc == 0)) || fail "lintian $deb (exit $lint_rc):"$'\n'"$lint"
grep -q '^[EW]:' <<<"$lint" && fail "lintian $deb:"$'\n'"$lint"
# The .ddeb is cargo-deb's own making (control fields, no /usr/share/doc): the three tags it
# always draws are suppressed here, anything else fails. Debian's dbgsym packages are built by
# dh_strip and not linted by the archive; ours is checked for everything but these.
#   no-copyright-file, no-changelog: it ships only /usr/lib/debug (sgctl's copyright covers it);
#   unknown-priority: cargo-deb writes "Priority: extra" (deprecated for "optional").
lint_rc=0
dlint=$(lintian --fail-on error,warning --tag-display-limit 0 \
          --suppress-tags no-copyright-file,no-changelog,unknown-priority "$ddeb" 2>&1) || lint_rc=$?
dlint=$(grep -v '^running with root privileges' <<<"$dlint" || true)
((lint_rc == 0)) || fail "lintian $ddeb (exit $lint_rc):"$'\n'"$dlint"
grep -q '^[EW]:' <<<"$dlint" && fail "lintian $ddeb:"$'\n'"$dlint"
ok "lintian: 0 errors, 0 warnings ($(grep -c '^O:' <<<"$lint" || true) overridden with reasons in usr/share/lintian/overrides/sgctl); .ddeb clean but for cargo-deb's 3 control tags"

cleanup() { dpkg --purge sgctl-dbgsym sgctl >/dev/null 2>&1 || true; }
trap cleanup EXIT
dpkg -i "$deb" >/dev/null
files=$(dpkg -L sgctl)
dpkg -i "$ddeb" >/dev/null
[[ -f /$debug_file ]] || fail "/$debug_file not installed by the .ddeb"
grep -q '\.debug_line' <<<"$(readelf -S --wide "/$debug_file" 2>/dev/null)" || fail "/$debug_file has no line tables"
dpkg --purge sgctl-dbgsym >/dev/null
[[ ! -e /$debug_file ]] || fail "/$debug_file left after purging sgctl-dbgsym"
ok "sgctl-dbgsym installs /$debug_file (line tables) for /usr/bin/sgctl and purges cleanly"

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
# Every page formats without a groff warning (lintian's manpage-has-errors-from-man, made
# explicit and run on the installed pages).
for p in dist/man/*.8; do
  inst=$(man -w "$(basename "$p" .8)")
  warn=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$inst" 2>&1 >/dev/null)
  [[ -z $warn ]] || fail "man --warnings $inst: $warn"
done
ok "man: $page, EXIT STATUS table rendered, $n pages found by man -w, no groff warnings"

# Completions: files in place, bash loads ours on demand and completes subcommands.
for f in /usr/share/bash-completion/completions/sgctl /usr/share/zsh/vendor-completions/_sgctl \
         /usr/share/fish/vendor_completions.d/sgctl.fish; do
  [[ -s $f ]] || fail "missing completion file $f"
done
spec=$(bash -c '. /usr/share/bash-completion/bash_completion; _completion_loader sgctl; complete -p sgctl')
# clap's _sgctl, wrapped by the device-name completion that xtask gen-docs adds.
[[ "$spec" == *"-F _sgctl_with_devices "*"sgctl" ]] || fail "complete -p sgctl: '$spec'"
words=$(bash -c '. /usr/share/bash-completion/bash_completion; _completion_loader sgctl
  COMP_WORDS=(sgctl sa); COMP_CWORD=1; COMP_LINE="sgctl sa"; COMP_POINT=8; _sgctl_with_devices sgctl sa sgctl
  printf "%s\n" "${COMPREPLY[@]}"')
grep -qx sanitize <<<"$words" || fail "bash completion of 'sgctl sa' gave: $words"
ok "completions: $spec; 'sgctl sa<TAB>' -> $(tr '\n' ' ' <<<"$words")"

# The audit log directory.
perm=$(stat -c '%a %U %G' /var/log/sgctl)
[[ "$perm" == "750 root adm" ]] || fail "/var/log/sgctl is '$perm', expected '750 root adm'"
ok "/var/log/sgctl: $perm"

# systemd units: well-formed as installed (systemd-analyze verify works offline).
for u in sgctl-health.service sgctl-health.timer; do
  [[ -f /usr/lib/systemd/system/$u ]] || fail "missing unit $u"
done
out=$(systemd-analyze verify /usr/lib/systemd/system/sgctl-health.service \
      /usr/lib/systemd/system/sgctl-health.timer 2>&1) || fail "systemd-analyze verify: $out"
[[ -z $out ]] || fail "systemd-analyze verify: $out"
ok "systemd-analyze verify: both units clean"
# Installed, not enabled: the timer probes every SCSI disk; the admin enables it
# (docs/monitoring.md).
[[ ! -e /etc/systemd/system/timers.target.wants/sgctl-health.timer ]] || fail "dpkg -i enabled sgctl-health.timer"

# The timer under a real systemd: boot one in a container (systemd-nspawn, the host's /usr
# read-only with the package in it, everything else on a tmpfs), start sgctl-health.timer there
# and wait for it to run sgctl-health.service once, sandboxing and all. The test's drop-ins only
# make the timer elapse 1 s after start instead of 2 min after boot, and point the service at a
# virtual drive (the container has no disks). The service is first started without
# node_exporter's directory (skipped by its condition), then the directory is made as its
# package would.
nsdir=$(mktemp -d)
mkdir -p "$nsdir/out" "$nsdir/timer.d" "$nsdir/service.d"
printf '[Timer]\nOnActiveSec=1s\nRandomizedDelaySec=0\n' >"$nsdir/timer.d/test.conf"
printf '[Service]\nEnvironment=SGCTL_HEALTH_ARGS=sim:px02smf080\n' >"$nsdir/service.d/test.conf"
cat >"$nsdir/run.sh" <<'RUN'
#!/bin/sh
# In the container: start the timer, wait (30 s at most) for the service's one run, report.
exec >/out/report 2>&1
# Before node_exporter's directory exists the service is skipped by its condition, not failed.
systemctl start sgctl-health.service
echo "no-dir: $(systemctl show -P ConditionResult sgctl-health.service) $(systemctl show -P Result sgctl-health.service) $(systemctl is-failed sgctl-health.service)"
mkdir -p /var/lib/prometheus/node-exporter
systemctl start sgctl-health.timer
echo "timer: $(systemctl is-active sgctl-health.timer)"
i=0
while [ "$(systemctl show -P ExecMainExitTimestampMonotonic sgctl-health.service)" = 0 ] && [ $i -lt 300 ]; do
  sleep 0.1; i=$((i + 1))
done
echo "service: $(systemctl show -P Result sgctl-health.service) exit=$(systemctl show -P ExecMainStatus sgctl-health.service)"
echo "triggered-by: $(systemctl show -P TriggeredBy sgctl-health.service)"
echo "timer-last: $(systemctl show -P LastTriggerUSecMonotonic sgctl-health.timer)"
grep -c '^sgctl_health_state{device="sim:px02smf080"' /var/lib/prometheus/node-exporter/sgctl.prom | sed 's/^/metrics: /'
journalctl -q -o cat -u sgctl-health.service | sed 's/^/journal: /'
echo done
RUN
chmod 755 "$nsdir/run.sh"
printf '[Unit]\nAfter=multi-user.target\n[Service]\nType=oneshot\nExecStart=/pkgtest/run.sh\nExecStopPost=/usr/bin/systemctl --no-block poweroff\n' \
  >"$nsdir/pkgtest.service"
machine=sgctl-pkgtest-$$
timeout 180 systemd-nspawn -q -D / --volatile=yes --machine="$machine" --register=no --keep-unit \
  --console=pipe --bind="$nsdir/out:/out" --bind-ro="$nsdir:/pkgtest" \
  --bind-ro="$nsdir/timer.d:/etc/systemd/system/sgctl-health.timer.d" \
  --bind-ro="$nsdir/service.d:/etc/systemd/system/sgctl-health.service.d" \
  --bind-ro="$nsdir/pkgtest.service:/etc/systemd/system/pkgtest.service" \
  -b systemd.firstboot=off systemd.unit=multi-user.target systemd.wants=pkgtest.service \
  >"$nsdir/console" 2>&1 || true
report=$(cat "$nsdir/out/report" 2>/dev/null || true)
grep -qx done <<<"$report" || fail "no report from the container (systemd-nspawn):"$'\n'"$(tail -20 "$nsdir/console")"
for want in "no-dir: no success inactive" "timer: active" "service: success exit=0" "triggered-by: sgctl-health.timer" "metrics: 1"; do
  grep -qx "$want" <<<"$report" || fail "timer run in the container: no '$want' in:"$'\n'"$report"
done
grep -q '^timer-last: [1-9]' <<<"$report" || fail "the timer never elapsed:"$'\n'"$report"
rm -rf "$nsdir"
ok "systemd in a container: sgctl-health.timer started, elapsed once, sgctl-health.service succeeded and wrote sgctl.prom:"
sed 's/^/    /' <<<"$report"

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
[[ -e /var/lib/systemd/deb-systemd-helper-enabled/sgctl-health.timer.dsh-also ]] \
  && fail "deb-systemd-helper state for sgctl-health.timer left after purge"
[[ -e /etc/systemd/system/sgctl-health.timer || -L /etc/systemd/system/sgctl-health.timer ]] \
  && fail "sgctl-health.timer still masked after purge"
man -w sgctl >/dev/null 2>&1 && fail "man -w sgctl still finds a page"
trap - EXIT
ok "dpkg -r and --purge removed $(wc -l <<<"$files") paths; nothing left"
echo "test-package: all checks passed"
