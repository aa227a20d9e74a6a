# Host side of the group (sourced by vm/run.sh; $WORK is this boot's scratch dir).
# One disk image attached through two mptsas1068 HBAs as one LU with two target ports:
# same wwn (LU name), different port_wwn, relative ports 1 and 2 (QEMU hw/scsi/scsi-disk.c).
truncate -s 64M "$WORK/shared.img"
QEMU_ARGS=(
  -blockdev "driver=file,filename=$WORK/shared.img,node-name=fs,locking=off"
  -blockdev driver=raw,file=fs,node-name=shared
  -device mptsas1068,id=sas0 -device mptsas1068,id=sas1
  -device scsi-hd,bus=sas0.0,scsi-id=0,drive=shared,share-rw=on,wwn=0x5000c500000000cc,port_wwn=0x5000c500000000c1,port_index=1,vendor=SGCTLVM,product=DUALPORT,serial=DP0001,rotation_rate=7200
  -device scsi-hd,bus=sas1.0,scsi-id=0,drive=shared,share-rw=on,wwn=0x5000c500000000cc,port_wwn=0x5000c500000000c2,port_index=2,vendor=SGCTLVM,product=DUALPORT,serial=DP0001,rotation_rate=7200
)
