# A 520-byte-sector drive (the ex-array profile) served next to the first one: sd refuses the
# disk, yet sgctl scan reports its capacity and 520-byte blocks over the sg node, as sg_readcap.
. /vm/guest/lib.sh
before=$(ls /sys/class/scsi_generic | wc -l)
sh -c 'sgctl sim serve --tcmu "exarray?capacity_gib=1&serial=EX520001" --ready-file /tmp/ex.ready \
         > /tmp/ex.out 2> /tmp/ex.err & echo $! > /tmp/ex.pid; wait $!; echo $? > /tmp/ex.rc' &
if ! wait_for 90 test -f /tmp/ex.ready; then
  fail serve_520 "sgctl sim serve exarray did not become ready: $(tail -n 5 /tmp/ex.err | tr '\n' '|')"
  exit 0
fi
wait_for 60 sh -c "[ \$(ls /sys/class/scsi_generic | wc -l) -ge $((before + 2)) ]"
sgctl scan
sgctl --json scan > /tmp/scan520.json
D='.data.drives[] | select(.serial == "EX520001")'
got=$(jq -r "$D | [.logical_block_size, .capacity_bytes, (.paths | length)] | map(tostring) | join(\"|\")" /tmp/scan520.json)
sg=$(jq -r "[$D | .paths[].sg] | .[0]" /tmp/scan520.json)
ref=$(sg_readcap -l "$sg" 2>&1 | sed -n 's/.*Logical block length=\([0-9]*\) bytes.*/\1/p')
blocks=$(sg_readcap -l "$sg" 2>&1 | sed -n 's/.*Number of logical blocks=\([0-9]*\).*/\1/p')
[ "$got" = "520|$((blocks * 520))|2" ] && [ "$ref" = 520 ] && pass lbs_520_capacity \
  || fail lbs_520_capacity "sgctl $got, sg_readcap $ref x $blocks"
# sd refused it: the block device has no capacity.
b=$(jq -r "[$D | .paths[].block] | .[0]" /tmp/scan520.json)
sz=$( [ "$b" != null ] && cat /sys/class/block/$(basename "$b")/size || echo none)
[ "$sz" = 0 ] || [ "$sz" = none ] && pass sd_refused "block $b size $sz" || fail sd_refused "block $b has size $sz"
kill -TERM "$(cat /tmp/ex.pid)"
wait_for 60 test -f /tmp/ex.rc || fail serve_520_stops "still running"
