# Guest scenario, power cut, second boot: the mount rolls the fsync'd files
# forward; they and the checkpointed tree must be intact.  Then more writes
# and a clean unmount.
. /lib/ktest.sh

m=/mnt/pc
kt_mount pc || exit 1
kt_run "tree after recovery" ktool tree verify-full $m 3
kt_fsynced check $m
lost=
for f in $m/+pc/lost-1 $m/big/+lost-2; do
	[ -e $f ] || lost="$lost ${f#$m/}"
done
[ $KT_RC -eq 0 ] && echo "recovered: tree and 4 fsync'd files intact"
echo "unsynced files lost:${lost:- none}"
kt_run "write after recovery" ktool put $m/+pc/after 400000 -f
kt_run "prune after recovery" ktool tree prune $m 3
kt_umount pc
kt_mount pc || exit 1
kt_run "read back after remount" ktool tree verify $m 3
kt_run "written after recovery" ktool check $m/+pc/after 400000
kt_umount pc
echo "wrote, pruned, unmounted, remounted, read back"
exit $KT_RC
