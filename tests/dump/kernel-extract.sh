#!/bin/sh
# tests/dump/kernel-extract.sh: extraction round-trips kernel-written files
# byte for byte.  The kernel interop scenarios leave images whose tree was
# written by the real F2FS driver from ktool's deterministic streams
# (nested directories, a 600-entry directory, inline and multi-MiB files,
# sparse files, symlinks, hard links, user xattrs, and on the compression
# image LZ4-compressed files); dump.f2fs -r -o -L -P extracts each one and
# ktool, built for the host, checks every entry: content, size, mode, link
# targets, link counts and xattrs.  The images are required: without them
# (the kernel scenarios did not run or failed) this test fails.
. "$(dirname "$0")/common.sh"
require_tools
setup_work

KIMAGES=${KERNEL_IMAGES:-$top_builddir/tests/kernel/images}
[ -f "$KIMAGES/index" ] || hard_error "no kernel-written images in $KIMAGES (run the tests/kernel scenarios first)"
${CC:-cc} -O2 -o "$WORK/ktool" "$top_srcdir/tests/kernel/ktool.c" 2>"$WORK/cc.err" ||
	hard_error "cannot build ktool for the host: $(head -n 3 "$WORK/cc.err")"

# The images of the mkfs matrix scenario carry the pruned tree of seed 1.
found=0
for kname in default s128 s7 features quota compression; do
	img=$KIMAGES/kernel-$kname.img
	if [ ! -f "$img" ]; then
		check "kernel image kernel-$kname.img exists" false
		continue
	fi
	found=$((found + 1))
	odir=$WORK/out-$kname
	"$DUMP" -r -o "$odir" -L -P "$img" >"$WORK/$kname.out" 2>"$WORK/$kname.err"
	check "kernel-$kname: dump.f2fs -r -o extracts everything" test $? -eq 0
	tree=""
	[ "$kname" = compression ] && tree=compr
	KTOOL_NO_FLAGS=1 "$WORK/ktool" tree verify "$odir" 1 $tree >"$WORK/$kname.verify" 2>&1
	if ! check "kernel-$kname: every extracted entry matches what the kernel wrote" test $? -eq 0; then
		sed -n '1,10p' "$WORK/$kname.verify" "$WORK/$kname.err"
	fi
	rm -rf "$odir"
done
check "all six kernel tree images were present" test "$found" -eq 6
finish
