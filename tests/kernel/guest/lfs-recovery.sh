# Guest scenario, large sections after roll-forward recovery (the steps of
# fstests f2fs/025): a volume of 2-segment sections mounted mode=lfs is
# filled with inodes (node sections), emptied, written again with direct
# I/O, and a file fsync'd before a shutdown without a checkpoint.  The
# remount rolls the file forward into what were node sections; then a
# clean unmount.  The host checks the image.
. /lib/ktest.sh

m=/mnt/lr
# The volume has 16 MiB for files, so the 16 MiB writes run out of space
# part way, as they do in f2fs/025: what they wrote before is the point.
try() {
	"$@" > /tmp/try.log 2>&1 || echo "(as in f2fs/025: $(tail -n 1 /tmp/try.log))"
}
kt_mount lr mode=lfs || exit 1
i=0
# (printf: a failed redirection of a special builtin such as : ends the shell)
while [ $i -lt 5120 ] && printf "" 2>/dev/null > $m/$i; do
	i=$((i + 1))
done
echo "created $i empty files"
sync
rm -f $m/*
sync
try ktool put $m/file 1974272
sync
printf "" > $m/file
try ktool put $m/file 16777216 -d
printf "" > $m/file
try ktool put $m/file 16777216 -d
printf "" > $m/file
sync
try ktool put $m/file 8388608 -d
printf "" > $m/file
try ktool put $m/file 32768 -d
printf "" > $m/file
kt_run "2 MiB, direct, fsync'd" ktool put $m/file 2097152 -d -f
kt_run "shutdown without a checkpoint" ktool shutdown $m
kt_run "umount after the shutdown" umount $m
kt_mount lr mode=lfs || exit 1
kt_run "the fsync'd file after recovery" ktool check $m/file 2097152
kt_umount lr
echo "filled, emptied, rewrote, fsync'd, shut down, recovered, unmounted"
exit $KT_RC
