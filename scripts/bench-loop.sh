# Sourced by the host benchmark scripts (scripts/bench-engine.sh, scripts/bench-qd1-modes.sh):
# the loop device they measure on, and fio's time units.

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
