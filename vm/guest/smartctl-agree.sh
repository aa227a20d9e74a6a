# Two checks of `sgctl health` on a real drive, shared by the scsi-debug and tcmu groups
# (sourced after lib.sh):
#
#   health_read_only NAME SG PAGE...   runs `sgctl health SG` five times (text, --json and
#       --json=smartctl) and checks that `sg_logs -p PAGE SG` prints the same before and after
#       for every PAGE the drive lists (pages it does not list are skipped and named; a PAGE
#       written =0xNN must be listed).
#   smartctl_agree NAME DEV KEY...     `sgctl --json=smartctl health DEV` and `smartctl -j -x DEV`
#       agree on every leaf key both print (power_on_time within one minute: the drive's clock
#       runs between the two reads); each KEY (a dotted path) must be among the shared keys, so
#       the check cannot pass by sharing nothing.

health_read_only() {
  ro_name=$1; ro_sg=$2; shift 2
  ro_listed=$(sg_logs -p 0 "$ro_sg" 2>/dev/null | awk '/^ +0x[0-9a-fA-F]+/ {print tolower($1)}')
  ro_pages=""; ro_skipped=""; ro_unlisted=""
  for p in "$@"; do
    req=${p%%0x*}; p=${p#=}
    if echo "$ro_listed" | grep -qx "$(echo "$p" | tr 'A-F' 'a-f')"; then ro_pages="$ro_pages $p"
    else ro_skipped="$ro_skipped $p"; [ "$req" = "=" ] && ro_unlisted="$ro_unlisted $p"; fi
  done
  if [ -n "$ro_unlisted" ]; then
    fail "$ro_name" "the drive does not list$ro_unlisted (listed: $(echo $ro_listed))"
    return
  fi
  if [ -z "$ro_pages" ]; then
    fail "$ro_name" "the drive lists none of$* (listed: $(echo $ro_listed))"
    return
  fi
  for p in $ro_pages; do sg_logs -p "$p" "$ro_sg" > "/tmp/ro.before.$p" 2>&1; done
  for i in 1 2 3 4 5; do
    case $i in
      1|2|3) sgctl health "$ro_sg" >/dev/null 2>&1 ;;
      4) sgctl --json health "$ro_sg" >/dev/null 2>&1 ;;
      5) sgctl --json=smartctl health "$ro_sg" >/dev/null 2>&1 ;;
    esac
  done
  ro_bad=""
  for p in $ro_pages; do
    sg_logs -p "$p" "$ro_sg" > "/tmp/ro.after.$p" 2>&1
    cmp -s "/tmp/ro.before.$p" "/tmp/ro.after.$p" \
      || ro_bad="$ro_bad; page $p: $(diff "/tmp/ro.before.$p" "/tmp/ro.after.$p" | grep '^[<>]' | tr '\n' ' ')"
  done
  if [ -z "$ro_bad" ]; then
    pass "$ro_name"
    echo "health_read_only: pages$ro_pages unchanged after 5 x sgctl health;${ro_skipped:+ not listed:$ro_skipped}"
  else
    fail "$ro_name" "5 x sgctl health changed$ro_bad"
  fi
}

smartctl_agree() {
  sa_name=$1; sa_dev=$2; shift 2
  sa_ours=$(sgctl --json=smartctl health "$sa_dev" 2>/dev/null)
  sa_theirs=$(smartctl -j -x "$sa_dev" 2>/dev/null)
  if ! echo "$sa_ours" | jq -e .device.name >/dev/null 2>&1 \
     || ! echo "$sa_theirs" | jq -e .device.name >/dev/null 2>&1; then
    fail "$sa_name" "no JSON: sgctl '$(echo "$sa_ours" | head -c 300)' smartctl '$(echo "$sa_theirs" | head -c 300)'"
    return
  fi
  sa_cmp=$(jq -n --argjson a "$sa_ours" --argjson b "$sa_theirs" '
    def key: map(tostring) | join(".");
    def at($v; $p): try ($v | getpath($p)) catch null;
    [ $a | paths(scalars) | select(at($b; .) != null) ] as $shared
    | ((at($a; ["power_on_time","hours"]) // 0) * 60 + (at($a; ["power_on_time","minutes"]) // 0)) as $ma
    | ((at($b; ["power_on_time","hours"]) // 0) * 60 + (at($b; ["power_on_time","minutes"]) // 0)) as $mb
    | { shared: [ $shared[] | key ],
        differ: [ $shared[]
                  | select(at($a; .) != at($b; .))
                  | select((.[0] == "power_on_time") and (($ma - $mb) | fabs) <= 1 | not)
                  | "\(key): sgctl \(at($a; .) | tojson) smartctl \(at($b; .) | tojson)" ] }')
  sa_missing=""
  for k in "$@"; do
    echo "$sa_cmp" | jq -e --arg k "$k" '.shared | index($k) != null' >/dev/null \
      || sa_missing="$sa_missing $k"
  done
  sa_n=$(echo "$sa_cmp" | jq '.shared | length')
  sa_diff=$(echo "$sa_cmp" | jq -r '.differ | join("; ")')
  if [ -z "$sa_diff" ] && [ -z "$sa_missing" ]; then
    pass "$sa_name"
    echo "smartctl_agree: $sa_n shared keys equal: $(echo "$sa_cmp" | jq -r '.shared | join(" ")')"
  else
    fail "$sa_name" "differ: ${sa_diff:-none}; required keys not shared:${sa_missing:- none} (shared: $(echo "$sa_cmp" | jq -r '.shared | join(" ")'))"
  fi
}
