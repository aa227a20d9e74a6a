# One job per drive, over real SG_IO on the dual-port disk: while a format holds the
# drive's lock through one SAS port, a second format through the OTHER port is refused (exit 6)
# naming the first (pid, job, node, since when) and writes no start record; `kill -9` of the
# holder frees the lock and the second job then runs. Both orders (port A first, port B first),
# and the block node of one port against the sg node of the other.
#
# The holder is made to wait deterministically without any test hook: its audit log is locked
# by util-linux `flock` (the audit log's writers take an exclusive flock, src/ops/audit/chain.rs),
# so the holder passes the gate (drive lock taken) and waits to write its start record — before
# any state-changing command could be sent.
. /vm/guest/lib.sh
set -- $(lsscsi -g | awk '/SGCTLVM/{print $(NF-1), $NF}')
sd1=$1 sg1=$2 sd2=$3 sg2=$4
if [ -z "$sg2" ]; then fail paths "need two SGCTLVM paths, lsscsi: $(lsscsi -g | tr '\n' ' ')"; exit 0; fi
W=/tmp/onejob
rm -rf "$W"; mkdir -p "$W"

one_order() { # name, holder node, second node (fail/pass use $n: keep ours in $o)
  o=$1 a=$2 b=$3
  hlog="$W/$o.holder.jsonl"
  : > "$hlog"
  flock -o "$hlog" sh -c "touch $W/$o.held; exec sleep 600" &
  fpid=$!
  wait_for 10 test -e "$W/$o.held" || { fail "${o}_audit_log_locked" "flock did not start"; return; }
  sgctl format "$a" --block-size 512 --confirm DP0001 --audit-log "$hlog" >"$W/$o.holder.out" 2>&1 &
  hpid=$!
  if wait_for 60 sh -c "kill -0 $hpid && grep -qs '\"pid\":$hpid,' /run/lock/sgctl/*.lock"; then
    pass "${o}_holder_locked"
  else
    fail "${o}_holder_locked" "pid $hpid: $(cat /run/lock/sgctl/*.lock 2>&1) $(tail -n 3 "$W/$o.holder.out")"
    kill -9 $hpid $fpid 2>/dev/null; return
  fi
  out=$(sgctl format "$b" --block-size 512 --confirm DP0001 --audit-log "$W/$o.second.jsonl" 2>&1); rc=$?
  if [ $rc -eq 6 ] && echo "$out" | grep -q "pid $hpid is running \`format\` on $a" \
     && echo "$out" | grep -q "since 20"; then
    pass "${o}_second_refused_names_first"
  else
    fail "${o}_second_refused_names_first" "exit $rc: $(echo "$out" | tail -n 3 | tr '\n' ' ')"
  fi
  if grep -qs '"event":"start"' "$W/$o.second.jsonl"; then
    fail "${o}_second_no_start_record" "$(cat "$W/$o.second.jsonl")"
  else
    pass "${o}_second_no_start_record"
  fi
  out=$(sgctl --json format "$b" --block-size 512 --confirm DP0001 --audit-log "$W/$o.second.jsonl" 2>/dev/null)
  [ "$(echo "$out" | jq -r '.data.drives[0].outcome')" = refused ] && pass "${o}_json_refused" \
    || fail "${o}_json_refused" "$(echo "$out" | jq -c '.data.drives[0] | {outcome, message}' 2>&1)"
  # kill -9 releases the drive lock with the process; the second job then runs to the end.
  kill -9 $hpid; wait $hpid 2>/dev/null
  kill $fpid 2>/dev/null; wait $fpid 2>/dev/null
  out=$(sgctl format "$b" --block-size 512 --confirm DP0001 --poll-interval 0.2 \
    --audit-log "$W/$o.after.jsonl" 2>&1); rc=$?
  if [ $rc -eq 0 ] && [ "$(grep -c '"event":"end"' "$W/$o.after.jsonl")" = 1 ]; then
    pass "${o}_runs_after_kill9"
  else
    fail "${o}_runs_after_kill9" "exit $rc: $(echo "$out" | tail -n 3 | tr '\n' ' ')"
  fi
}

one_order port_a_then_b "$sg1" "$sg2"
one_order port_b_then_a "$sg2" "$sg1"
one_order sd_a_then_sg_b "$sd1" "$sg2"
