# Guest scenario, power cut, first boot: a checkpointed tree, then files
# written and fsync'd (they must survive), files written without fsync (they
# may be lost), then the power is cut: no sync, no unmount.
. /lib/ktest.sh

m=/mnt/pc
kt_mount pc || exit 1
kt_run "tree" ktool tree make $m 3
mkdir $m/+pc
kt_run "grow, first part" ktool put $m/+pc/grow 100000
# A checkpoint now: what follows lives only in the roll-forward chain.
sync

# a new file, a small one, an append to grow, one in a tree directory
kt_fsynced put $m
kt_run "unsynced file" ktool put $m/+pc/lost-1 500000
kt_run "unsynced file" ktool put $m/big/+lost-2 20000
[ $KT_RC -eq 0 ] || exit 1
echo "tree checkpointed; 4 files fsync'd (1 append), 2 not; cutting the power"
kt_power_cut
