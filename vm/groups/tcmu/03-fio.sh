# fio verified 4K random writes through /dev/sdX: every block written is read back and checked.
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
sd=$(tcmu_sd)
out=$(fio --name=verify --filename="$sd" --ioengine=libaio --direct=1 --rw=randwrite --bs=4k \
          --size=32M --iodepth=16 --verify=crc32c --do_verify=1 --verify_fatal=1 --randrepeat=0 2>&1)
rc=$?
echo "$out" | tail -n 25
[ $rc = 0 ] && echo "$out" | grep -q "err= 0" && ! echo "$out" | grep -qi "verify.*bad\|crc32c: verify failed" \
  && pass fio_verified_randwrite || fail fio_verified_randwrite "exit $rc: $(echo "$out" | grep -i 'err\|verify' | head -n 5)"
# The same data seen through the other path (same LU): read a block on path 2 and path 1.
sd2=$(lsscsi | awk '/PX02SMF080/ {print $NF}' | tail -n 1)
a=$(dd if="$sd" bs=4k count=16 iflag=direct 2>/dev/null | md5sum)
b=$(dd if="$sd2" bs=4k count=16 iflag=direct 2>/dev/null | md5sum)
[ "$a" = "$b" ] && [ "$sd" != "$sd2" ] && pass same_data_both_paths || fail same_data_both_paths "$sd $a / $sd2 $b"
