#!/bin/sh
# Kernel interop: the volume states fstests' f2fs tests leave for the
# scratch check (_check_f2fs_filesystem: fsck.f2fs --dry-run must exit 0),
# on volumes our mkfs made as _scratch_mkfs does.  One kernel boot per step
# of guest/fstests-ops.sh; after each, both fscks must find every image
# clean and our fsck -y must write nothing (the atomic-write, generic,
# compression-algorithm and released compressed images are kept for the
# fsck and dump tests):
#   f2fs/007  compressed files compressed, their blocks released, reserved
#             again, decompressed (a check after each, as 007 does)
#   f2fs/003, 004, 010  atomic writes: committed after a GC round,
#             committed, aborted, dropped by close
#   f2fs/011  a pinned file fallocated to ENOSPC under checkpoint=disable
#   f2fs/005, 006  mode=lfs and checkpoint=disable:10%, noinline_dentry
#   f2fs/016  files written under each compression mount option
#   generic   fallocate (KEEP_SIZE past i_size, preallocation, punch, zero,
#             collapse, insert), whiteouts, O_TMPFILE, truncation, links
. "$(dirname "$0")/kcommon.sh"

kt_begin fstests-ops "states fstests' f2fs tests leave: both fscks clean after each"
[ -x "$OUR_FSCK" ] || kt_abort "$OUR_FSCK is not built"

kt_mkfs "$KWORK/cmp.img" 512M -O extra_attr,compression || kt_end
kt_mkfs "$KWORK/atom.img" 512M || kt_end
kt_mkfs "$KWORK/pin.img" 256M || kt_end
kt_mkfs "$KWORK/lfs.img" 100M || kt_end
kt_mkfs "$KWORK/gen.img" 256M -O extra_attr,inode_checksum,flexible_inline_xattr || kt_end
kt_mkfs "$KWORK/copt.img" 256M -O extra_attr,compression || kt_end

# check_all STEP IMAGES...: both fscks clean, our -y writes nothing (ok_NAME:
# 1 when f2fs-tools found NAME clean)
check_all() {
	step=$1
	shift
	for name in "$@"; do
		img=$KWORK/$name.img
		eval "ok_$name=0"
		kt_fsck "$img" "$name.$step" || continue
		eval "ok_$name=1"
		before=$(md5sum < "$img")
		"$OUR_FSCK" -y "$img" > "$KWORK/$name.$step.y.log" 2>&1
		rc=$?
		[ $rc -eq 0 ] && [ "$(md5sum < "$img")" = "$before" ] ||
			kt_bad "$name after $step: our fsck -y: exit $rc, or it wrote: $(head -n 3 "$KWORK/$name.$step.y.log")"
	done
}

# shellcheck disable=SC2154 # ok_<name> are set through eval in check_all
if kt_guest ops-init -t 600 -a init -A "Start checkpoint disabled" "$KSRC/guest/fstests-ops.sh" \
	cmp="$KWORK/cmp.img" atom="$KWORK/atom.img" pin="$KWORK/pin.img" lfs="$KWORK/lfs.img" \
	gen="$KWORK/gen.img" copt="$KWORK/copt.img"; then
	check_all init cmp atom pin lfs gen copt
	# our dump.f2fs extracts what the kernel reads, whatever the algorithm
	rm -rf "$KWORK/copt.out"
	if "$top_builddir/dump/dump.f2fs" -r -o "$KWORK/copt.out" "$KWORK/copt.img" > "$KWORK/copt.dump.log" 2>&1 &&
	   (cd "$KWORK/copt.out" && md5sum -c --quiet MANIFEST) > "$KWORK/copt.md5.log" 2>&1; then
		kt_say "copt: dump.f2fs -r extracts every compressed file as the kernel reads it"
	else
		kt_bad "copt: dump.f2fs -r: $(tail -n 3 "$KWORK/copt.dump.log" "$KWORK/copt.md5.log")"
	fi
	rm -rf "$KWORK/copt.out"
	[ "$ok_copt" = 1 ] && kt_keep "$KWORK/copt.img" kernel-compr-algos clean \
		"mkfs -O extra_attr,compression; files compressed with lzo, lz4hc, zstd, lzo-rle, 256-block clusters with checksums, compress_cache"
	[ "$ok_gen" = 1 ] && kt_keep "$KWORK/gen.img" kernel-generic-ops clean \
		"mkfs -O extra_attr,inode_checksum,flexible_inline_xattr; fallocate modes, whiteouts, O_TMPFILE, truncation, 300 links, long names"
	[ "$ok_atom" = 1 ] && kt_keep "$KWORK/atom.img" kernel-atomic clean \
		"mkfs (defaults); atomic writes committed after a GC round, committed, aborted, dropped by close"
	for step in compress release reserve decompress; do
		if kt_guest "ops-$step" -t 300 -a "$step" "$KSRC/guest/fstests-ops.sh" cmp="$KWORK/cmp.img"; then
			check_all "$step" cmp
			[ "$step" = release ] && [ "$ok_cmp" = 1 ] &&
				kt_keep "$KWORK/cmp.img" kernel-compr-released clean \
					"mkfs -O extra_attr,compression; files compressed by ioctl, their blocks released"
		else
			kt_bad "step $step: guest run failed (verdict $KT_GUEST_RC)"
			break
		fi
	done
else
	kt_bad "init: guest run failed (verdict $KT_GUEST_RC)"
fi
rm -f "$KWORK"/*.img
kt_end
