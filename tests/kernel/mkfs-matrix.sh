#!/bin/sh
# Kernel interop, scenario 1: images from a subset of the mkfs option matrix
# are mounted by the real F2FS driver, filled with a tree (nested dirs, a
# 600-entry dir, inline and multi-MiB files, a sparse file, symlinks, hard
# links, xattrs, compressed files), synced, pruned, unmounted, remounted and
# read back.  The kernel must not complain, and fsck must find the result
# clean.  The images are kept for the fsck and dump tests.
. "$(dirname "$0")/kcommon.sh"

kt_begin mkfs-matrix "mkfs option matrix -> kernel mount, tree, prune, read back, fsck"

specs='' disks='' names=''

# image NAME SIZE TREEFLAGS [MKFS OPTIONS...]
image() {
	name=$1 size=$2 flags=$3
	shift 3
	if kt_mkfs "$KWORK/$name.img" "$size" -l "k-$name" "$@"; then
		specs="$specs $name:$flags:"
		disks="$disks $name=$KWORK/$name.img"
		names="$names $name"
		echo "$*" > "$KWORK/$name.opts"
		kt_say "$name: mkfs ${*:-(defaults)} on $size"
	fi
}

image default 1G ""
image s128 8G "" -s 128
image s7 2G "" -s 7
image features 1G "" -O extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,inode_crtime,lost_found
image quota 1G quota -O extra_attr,quota
image compression 1G compr -O extra_attr,compression

[ -n "$names" ] || kt_abort "no image could be made"

# shellcheck disable=SC2086
kt_guest matrix -t 400 -a "$specs" "$KSRC/guest/tree.sh" $disks ||
	kt_bad "guest run failed (verdict $KT_GUEST_RC)"

for name in $names; do
	img=$KWORK/$name.img
	kt_fsck "$img" "$name"
	if [ "$KT_REF_CLEAN" = 1 ] && [ "$KT_GUEST_RC" -eq 0 ]; then
		opts=$(cat "$KWORK/$name.opts")
		kt_keep "$img" "kernel-$name" clean \
			"mkfs ${opts:-(defaults)}; kernel wrote a tree, pruned it, unmounted cleanly"
	fi
done
rm -f "$KWORK"/*.img
kt_end
