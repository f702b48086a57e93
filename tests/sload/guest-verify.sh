# Guest scenario (tests/sload/kernel.sh): on each image sload.f2fs loaded,
# the kernel must read the source tree back exactly (the host's manifest
# of the source, compared line by line: type, mode, owner, size, content,
# link target, device numbers, mtime, hard-link groups, every xattr), then
# take a workload that makes it garbage-collect (fill to ENOSPC, delete
# every other file, fill again), and read the tree back again after a
# remount, and unmount clean.
# Usage: guest-verify.sh KIB NAME... [PATH:NAME...]   (image "tools": a tar
# holding the static manifest helper and src.man).  PATH:NAME makes PATH a
# link to image NAME first: the devices of a multi-device volume, which the
# kernel opens through the (host) paths in its superblock.
. /lib/ktest.sh

kib=$1
shift
mkdir -p /tmp/tools
tar -xf /dev/img/tools -C /tmp/tools || { echo "FAIL: no tools tar"; exit 1; }
M=/tmp/tools/manifest
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null

same_tree() {
	if ! $M -i -x +fill "/mnt/$1" > "/tmp/$1.man" 2>&1; then
		kt_fail "$1: manifest failed"
	elif cmp -s /tmp/tools/src.man "/tmp/$1.man"; then
		echo "$1: the tree reads back entry by entry ($2)"
	else
		kt_fail "$1: the tree differs ($2)"
		diff /tmp/tools/src.man "/tmp/$1.man" | head -n 12 | cut -c 1-200
		cp "/tmp/$1.man" "$KTEST_OUT/$1.$2.man"
	fi
}

for arg in "$@"; do
	case $arg in
	*:*)
		mkdir -p "$(dirname "${arg%:*}")"
		ln -sf "/dev/img/${arg##*:}" "${arg%:*}" || kt_fail "cannot link ${arg%:*}"
		;;
	esac
done

for name in "$@"; do
	case $name in *:*) continue ;; esac
	echo "== $name"
	kt_mount "$name" || continue
	same_tree "$name" loaded
	mkdir "/mnt/$name/+fill"
	kt_run "$name: fill" ktool fill "/mnt/$name/+fill" "$kib" && cat /tmp/kt_step.log
	kt_run "$name: delete every other file" ktool thin "/mnt/$name/+fill"
	sync
	kt_run "$name: refill" ktool fill "/mnt/$name/+fill" "$kib" && cat /tmp/kt_step.log
	kt_run "$name: read back the fill" ktool fill-verify "/mnt/$name/+fill" "$kib"
	grep -E '^(GC calls|Try to move)' /sys/kernel/debug/f2fs/status 2>/dev/null | sed "s/^/$name: /"
	kt_umount "$name"
	kt_mount "$name" || continue
	same_tree "$name" after-gc
	kt_umount "$name"
done
exit $KT_RC
