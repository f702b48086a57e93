# Guest scenario: a multi-device volume.  Devices 1.. are found by the
# kernel through the paths in the superblock (host paths of the image
# files); each PATH:NAME argument makes PATH a symlink to image NAME here
# first.  Then the ktool tree is built on the volume (first device NAME0,
# the first argument after the links: "mount=NAME"), read back, pruned,
# and read back again after a remount.
. /lib/ktest.sh

vol=
for arg in "$@"; do
	case $arg in
	mount=*) vol=${arg#mount=} ;;
	*:*)
		path=${arg%:*}
		name=${arg##*:}
		mkdir -p "$(dirname "$path")"
		ln -sf "/dev/img/$name" "$path" || kt_fail "cannot link $path"
		;;
	esac
done
[ -n "$vol" ] || { kt_fail "no volume named"; exit 1; }

if kt_mount "$vol"; then
	kt_run "build the tree" ktool tree make "/mnt/$vol" 3
	sync
	echo 3 > /proc/sys/vm/drop_caches
	kt_run "read back the full tree" ktool tree verify-full "/mnt/$vol" 3
	kt_run "delete part of the tree" ktool tree prune "/mnt/$vol" 3
	df -k "/mnt/$vol" | tail -n 1
	kt_umount "$vol"
	if kt_mount "$vol"; then
		kt_run "read back after remount" ktool tree verify "/mnt/$vol" 3
		kt_umount "$vol"
	fi
fi
exit $KT_RC
