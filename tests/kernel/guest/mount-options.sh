# Guest scenario: mount options on image "opts": mode=lfs, checkpoint_merge,
# read-only remount, a remount cycle (ro/rw, checkpoint_merge off/on), and a
# final read-only mount.  The tree is checked after every change.
. /lib/ktest.sh

m=/mnt/opts
seed=2

# has_opt OPTION: /proc/mounts lists OPTION for the image.
has_opt() {
	grep " $m f2fs " /proc/mounts | grep -q -E "[ ,]$1[ ,]"
}

check_opt() {
	has_opt "$1" || kt_fail "$1 is not in effect: $(grep " $m " /proc/mounts)"
}

kt_mount opts mode=lfs || exit 1
check_opt mode=lfs
kt_run "tree under mode=lfs" ktool tree make $m $seed
kt_run "extra file under mode=lfs" ktool put $m/+lfs 3000000 -f
kt_umount opts
echo "mode=lfs: tree and a 3 MB file written, unmounted"

kt_mount opts checkpoint_merge || exit 1
check_opt checkpoint_merge
kt_run "read back under checkpoint_merge" ktool tree verify-full $m $seed
kt_run "lfs file under checkpoint_merge" ktool check $m/+lfs 3000000
kt_run "write under checkpoint_merge" ktool put $m/+merge 500000 -t -f
echo "checkpoint_merge: read back, wrote a file"

kt_run "remount ro" mount -o remount,ro $m
check_opt ro
kt_run "writes refused when read-only" ktool rofs $m
kt_run "read back when read-only" ktool tree verify-full $m $seed
kt_run "remount rw" mount -o remount,rw $m
check_opt rw
kt_run "write after rw remount" ktool put $m/+rw 200000 -f
echo "remount ro -> EROFS on write, tree intact -> remount rw -> write ok"

i=0
while [ $i -lt 3 ]; do
	kt_run "cycle $i: remount ro" mount -o remount,ro $m
	kt_run "cycle $i: remount rw,nocheckpoint_merge" mount -o remount,rw,nocheckpoint_merge $m
	has_opt checkpoint_merge && kt_fail "cycle $i: checkpoint_merge still on"
	kt_run "cycle $i: write" ktool put $m/+cycle 300000 -f
	kt_run "cycle $i: remount checkpoint_merge" mount -o remount,checkpoint_merge $m
	check_opt checkpoint_merge
	kt_run "cycle $i: grow" ktool put $m/+cycle $((300000 + (i + 1) * 100000)) -f
	i=$((i + 1))
done
kt_run "after the cycles" ktool check $m/+cycle 600000
kt_run "prune" ktool tree prune $m $seed
kt_umount opts
echo "3 remount cycles (ro, rw+nocheckpoint_merge, checkpoint_merge) with writes; pruned"

kt_mount opts ro || exit 1
kt_run "read-only mount refuses writes" ktool rofs $m
kt_run "read back on a read-only mount" ktool tree verify $m $seed
for f in +lfs:3000000 +merge:500000:-t +rw:200000 +cycle:600000; do
	IFS=: read -r n s t <<EOT
$f
EOT
	kt_run "check $n" ktool check "$m/$n" "$s" $t
done
kt_umount opts
echo "read-only mount: everything reads back"
exit $KT_RC
