#!/bin/sh
# tests/compat/kernel-linear-lookup.sh: the superblock flag that
# `fsck.f2fs --nolinear-lookup=1` sets (fstests f2fs/012) is one the real
# kernel mounts with.  Our mkfs makes a casefold volume, our fsck turns the
# linear lookup off, and the kernel guest of tests/kernel/casefold.sh
# creates its folded names and finds them by other spellings on it; then
# f2fs-tools' fsck and ours find it clean, the flag is still set, and
# --nolinear-lookup=0 clears it again.
KT_TOP=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$KT_TOP/tests/kernel/kcommon.sh"
KSRC=$KT_TOP/tests/kernel	# the harness and guest scenarios live there

kt_begin linear-lookup "casefold volume with linear lookup disabled by our fsck -> kernel"

img=$KWORK/ll.img
encoding_flags() {
	"$top_builddir/dump/dump.f2fs" --json "$img" 2>/dev/null |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["superblock"]["s_encoding_flags"])'
}
if kt_mkfs "$img" 256M -O casefold -C utf8; then
	"$OUR_FSCK" --nolinear-lookup=1 "$img" > "$KWORK/tune.out" 2>&1 ||
		kt_bad "fsck --nolinear-lookup=1: exit $?: $(head -3 "$KWORK/tune.out")"
	[ "$(encoding_flags)" = 2 ] || kt_bad "s_encoding_flags is $(encoding_flags), not 2"
	kt_guest linear-lookup -t 300 "$KSRC/guest/casefold.sh" "cf=$img" ||
		kt_bad "guest run failed (verdict $KT_GUEST_RC)"
	kt_fsck "$img" linear-lookup
	if [ "$(encoding_flags)" = 2 ] &&
	   "$OUR_FSCK" "$img" 2>/dev/null | grep -q "linear_lookup \[disable\]"; then
		kt_say "after the kernel: the flag is kept, fsck prints linear_lookup [disable]"
	else
		kt_bad "the flag did not survive the kernel run (s_encoding_flags $(encoding_flags))"
	fi
	"$OUR_FSCK" --nolinear-lookup=0 "$img" > /dev/null 2>&1
	[ "$(encoding_flags)" = 0 ] || kt_bad "--nolinear-lookup=0 left s_encoding_flags $(encoding_flags)"
	kt_fsck "$img" linear-lookup-cleared
fi
rm -f "$img"
kt_end
