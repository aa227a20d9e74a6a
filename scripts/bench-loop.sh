# Sourced by the host benchmark scripts (scripts/bench-engine.sh, scripts/bench-qd1-modes.sh):
# the loop device they measure on, its completion CPU (rq_affinity), and fio's time units.

# to_ms SECONDS: whole milliseconds. fio reads a time without a unit as whole seconds ("0.5"
# is 0, "1.5" is 1: fio 3.33, checked against the block layer's I/O count); given in ms it
# runs what sgctl runs.
to_ms() { awk -v s="$1" 'BEGIN { printf "%d", s * 1000 + 0.5 }'; }

# bench_loop NAME SIZE: a loop device with direct I/O over a SIZE file in /dev/shm; sets IMG
# (the file) and LOOP (the device). The caller removes both at exit.
bench_loop() {
  IMG=$(mktemp "/dev/shm/$1.XXXXXX")
  truncate -s "$2" "$IMG"
  # Fill it once so reads are served from real pages, not tmpfs holes.
  dd if=/dev/zero of="$IMG" bs=1M count="$(( $(stat -c %s "$IMG") >> 20 ))" conv=notrunc status=none
  LOOP=$(losetup --direct-io=on -f --show "$IMG")
  # A loop node keeps its queue settings across losetup -d: whoever used it last may have
  # left queue/nr_requests short (a test that fills the queue sets 8). With fewer requests
  # than the cell keeps outstanding, io_uring hands the I/Os that find no request to its
  # worker threads (iou-wrk) while sgctl holds them back itself, so the comparison would
  # measure that instead. Give our device its full hardware queue (loop's hw_queue_depth).
  local q tags
  q=/sys/block/$(basename "$LOOP")
  tags=$(cat "$q"/mq/0/nr_tags 2>/dev/null || echo 128)
  [[ "$(cat "$q"/queue/nr_requests)" -ge "$tags" ]] || echo "$tags" >"$q"/queue/nr_requests
}

# rq_affinity_set TARGET VALUE: set TARGET's queue/rq_affinity to VALUE (keep: leave it) for
# the measurement; sets RQA_STATE (what was done, for the output) and, when it changed the
# value, RQA_FILE and RQA_SAVED for rq_affinity_restore. 2 completes on the submitting CPU
# (docs/bench-engine.md, "Completions on the submitting CPU"). A loop node keeps the value
# across losetup -d, so the caller's exit trap must call rq_affinity_restore.
rq_affinity_set() {
  local old
  RQA_FILE=/sys/block/$(basename "$(realpath "$1")")/queue/rq_affinity
  old=$(cat "$RQA_FILE" 2>/dev/null || echo absent)
  if [[ "$2" == keep || "$old" == absent ]]; then
    RQA_STATE="$old (left as it is)"
  elif [[ "$2" == "$old" ]]; then
    RQA_STATE="$old"
  elif echo "$2" >"$RQA_FILE" 2>/dev/null; then
    RQA_SAVED=$old; RQA_STATE="$2 (set for the measurement, $old restored at exit)"
  else
    RQA_STATE="$old (could not set $2: not root?)"
  fi
  if [[ "$RQA_STATE" == 2* ]]; then RQA_STATE="$RQA_STATE: completions on the submitting CPU"; fi
}

# rq_affinity_restore: put back what rq_affinity_set changed (nothing if it changed nothing).
rq_affinity_restore() {
  if [[ -n "${RQA_SAVED:-}" ]]; then
    echo "$RQA_SAVED" >"$RQA_FILE" && echo "$RQA_FILE restored to $RQA_SAVED" >&2
    RQA_SAVED=
  fi
}
