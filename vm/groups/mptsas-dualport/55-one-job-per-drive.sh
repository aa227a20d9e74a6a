# One job per drive (issue 15), over real SG_IO on the dual-port disk: while a format holds the
# drive's lock through one SAS port, a second format through the OTHER port is refused (exit 6)
# naming the first (pid, job, node, since when) and sends nothing; `kill -9` of the holder frees
# the lock and the second job then runs. Both orders (port A first, port B first).
#
# The holder is made to wait deterministically without any test hook: its audit log is a FIFO
# nobody reads yet, so it passes the gate (lock taken) and blocks opening the log for its start
# record — before any state-changing command could be sent.
. /vm/guest/lib.sh
set -- $(lsscsi -g | awk '/SGCTLVM/{print $(NF-1), $NF}')
sd1=$1 sg1=$2 sd2=$3 sg2=$4
if [ -z "$sg2" ]; then fail paths "need two SGCTLVM paths, lsscsi: $(lsscsi -g | tr '\n' ' ')"; exit 0; fi
W=/tmp/onejob
rm -rf "$W"; mkdir -p "$W"

one_order() { # name, holder node, second node
  n=$1 a=$2 b=$3
  mkfifo "$W/$n.fifo"
  sgctl format "$a" --block-size 512 --confirm DP0001 --audit-log "$W/$n.fifo" \
    >"$W/$n.holder.out" 2>&1 &
  hpid=$!
  if ! wait_for 60 sh -c "grep -qs '\"pid\":$hpid,' /run/lock/sgctl/*.lock"; then
    fail "${n}_holder_locked" "no lock file names pid $hpid: $(cat /run/lock/sgctl/*.lock 2>&1) $(cat "$W/$n.holder.out")"
    kill -9 $hpid 2>/dev/null; return
  fi
  pass "${n}_holder_locked"
  out=$(sgctl format "$b" --block-size 512 --confirm DP0001 --audit-log "$W/$n.second.jsonl" 2>&1); rc=$?
  if [ $rc -eq 6 ] && echo "$out" | grep -q "pid $hpid is running \`format\` on $a" \
     && echo "$out" | grep -q "since 20"; then
    pass "${n}_second_refused_names_first"
  else
    fail "${n}_second_refused_names_first" "exit $rc: $(echo "$out" | tail -n 3 | tr '\n' ' ')"
  fi
  # Refused at the gate: the second job wrote no start record.
  if grep -qs '"event":"start"' "$W/$n.second.jsonl"; then
    fail "${n}_second_no_start_record" "$(cat "$W/$n.second.jsonl")"
  else
    pass "${n}_second_no_start_record"
  fi
  # JSON carries it too.
  out=$(sgctl --json format "$b" --block-size 512 --confirm DP0001 --audit-log "$W/$n.second.jsonl" 2>/dev/null)
  [ "$(echo "$out" | jq -r '.data.drives[0].outcome')" = refused ] && pass "${n}_json_refused" \
    || fail "${n}_json_refused" "$out"
  # kill -9 releases the lock with the process; the second job then runs to the end.
  kill -9 $hpid; wait $hpid 2>/dev/null
  out=$(sgctl format "$b" --block-size 512 --confirm DP0001 --poll-interval 0.2 \
    --audit-log "$W/$n.after.jsonl" 2>&1); rc=$?
  if [ $rc -eq 0 ] && [ "$(grep -c '"event":"end"' "$W/$n.after.jsonl")" = 1 ]; then
    pass "${n}_runs_after_kill9"
  else
    fail "${n}_runs_after_kill9" "exit $rc: $(echo "$out" | tail -n 3 | tr '\n' ' ')"
  fi
}

one_order port_a_then_b "$sg1" "$sg2"
one_order port_b_then_a "$sg2" "$sg1"
# The block node of one port against the sg node of the other: the same LU, the same lock.
one_order sd_a_then_sg_b "$sd1" "$sg2"
