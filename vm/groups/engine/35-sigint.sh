# Ctrl-C in the middle of a writing `sgctl bench run` (Ctrl-C at each phase of a
# benchmark), through the sg engine and the uring engine on scsi_debug: the jobs stop
# submitting, what is outstanding is reaped, the --json envelope holds the partial results,
# the exit status is 1, the audit record ends "interrupted", --report's report.json says
# state "interrupted" — and the LU answers afterwards (TEST UNIT READY).
. /vm/guest/lib.sh
export SGCTL_AUDIT_LOG=/tmp/audit-sigint.jsonl
sg=$(lsscsi -g | awk '/scsi_debug/ {print $NF; exit}')
sd=$(lsscsi | awk '/scsi_debug/ {print $NF; exit}')
sgctl --json scan > /tmp/si-scan.json
serial=$(jq -r --arg b "$sd" '.data.drives[] | select(any(.paths[]; .block == $b)) | .serial' /tmp/si-scan.json)
[ -n "$serial" ] || { fail setup "no serial for $sd: $(head -c 300 /tmp/si-scan.json)"; exit 0; }
for e in sg uring; do
  case $e in sg) dev=$sg ;; *) dev=$sd ;; esac
  rm -rf /tmp/si-rep /tmp/si.json; : > $SGCTL_AUDIT_LOG
  # Emptied here, before the background start: the child's own `2>` truncation may come after
  # wait_for has already found the previous run's progress lines, and a SIGINT that reaches
  # sgctl before its handler is installed is ignored (an asynchronous command of a
  # non-interactive shell starts with SIGINT ignored) — the run then goes its full 120 s.
  : > /tmp/si.err
  sgctl --json bench run "$dev" --engine $e --rw randwrite --bs 4k --qd 8 --runtime 120 \
    --range 16m --confirm "$serial" --report /tmp/si-rep --progress-json \
    </dev/null >/tmp/si.json 2>/tmp/si.err &
  pid=$!
  wait_for 60 grep -q iops /tmp/si.err
  kill -INT $pid
  wait $pid; rc=$?
  ios=$(jq -r '.data.ios' /tmp/si.json 2>/dev/null)
  el=$(jq -r '.data.elapsed_s | floor' /tmp/si.json 2>/dev/null)
  said=$(jq -r '[.sgctl.messages[].string] | join(" ")' /tmp/si.json 2>/dev/null)
  outcome=$(jq -r 'select(.event == "end") | .outcome' $SGCTL_AUDIT_LOG 2>/dev/null)
  state=$(jq -r '.state' /tmp/si-rep/report.json 2>/dev/null)
  [ $rc = 1 ] && [ "${ios:-0}" -gt 0 ] && [ "${el:-999}" -lt 120 ] && [ "$outcome" = interrupted ] \
    && [ "$state" = interrupted ] && case "$said" in *"interrupted (Ctrl-C)"*) true ;; *) false ;; esac \
    && pass "${e}_sigint_partial_results_exit1" \
    || fail "${e}_sigint_partial_results_exit1" "exit $rc ios=$ios elapsed=$el audit end=$outcome report state=$state: $said $(tail -n 2 /tmp/si.err)"
  vm_result "INFO $e SIGINT: exit $rc after ${el}s, $ios I/Os, audit $outcome"
  sg_turs "$sg" >/dev/null 2>&1 && pass "${e}_lu_answers_after_sigint" \
    || fail "${e}_lu_answers_after_sigint" "TEST UNIT READY failed on $sg"
done
