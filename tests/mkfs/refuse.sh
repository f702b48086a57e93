#!/bin/sh
# tests/mkfs/refuse.sh: invalid invocations are refused before any write.
#
# Each invalid invocation must exit 1..125 (never a signal or a crash), print
# exactly one line on stderr, and leave the target byte-for-byte unchanged.
# Option errors are tried twice: on a file holding a recognizable pattern in
# its first and last MiB (no -f), and with -f on a valid F2FS image made by
# the mkfs under test (so a refusal that happens after a wipe is caught).
# Also: -V prints a version and exits 0; -h and --help print the usage.
# The mounted-device refusal lives in blockdev.sh.

. "$(dirname "$0")/common.sh"

require_tools
command -v mkfs.ext4 >/dev/null || hard_error "mkfs.ext4 not found (apt-get install e2fsprogs)"
make_workdir

PAT=$WORK/pattern.img
F2FS=$WORK/f2fs.img
EXT4=$WORK/ext4.img
SMALL=$WORK/small.img
IMG_MIB=128

# fill_pattern FILE MIB: sparse file with a recognizable first and last MiB.
fill_pattern() {
	new_sparse "$1" "${2}M"
	yes "f2fs-ng mkfs refusal test pattern $1" | head -c 1048576 |
		dd of="$1" bs=1M count=1 conv=notrunc status=none
	yes "f2fs-ng mkfs refusal test tail $1" | head -c 1048576 |
		dd of="$1" bs=1M seek=$(($2 - 1)) count=1 conv=notrunc status=none
}

# fingerprint FILE: size, allocated blocks and content checksum.
fingerprint() {
	if [ -e "$1" ]; then
		echo "$(stat -c '%s %b' "$1") $(cksum <"$1")"
	else
		echo absent
	fi
}

# cheap_fingerprint FILE: size and allocated blocks (for huge sparse files).
cheap_fingerprint() {
	if [ -e "$1" ]; then stat -c '%s %b' "$1"; else echo absent; fi
}

fill_pattern "$PAT" $IMG_MIB
fill_pattern "$SMALL" 32
new_sparse "$EXT4" ${IMG_MIB}M
mkfs.ext4 -q -F "$EXT4" >"$WORK/mkext4.log" 2>&1 || hard_error "mkfs.ext4 failed: $(cat "$WORK/mkext4.log")"
new_sparse "$F2FS" ${IMG_MIB}M
run_mkfs base -q "$F2FS"
HAVE_F2FS=1
if [ "$RC" != 0 ]; then
	fail "setup: $MKFS -q on a fresh ${IMG_MIB} MiB file exited $(describe_rc "$RC"); the -f cases are skipped"
	show_file "$WORK/base.err"
	HAVE_F2FS=0
fi

ncase=0
# expect_refusal DESC TARGET FPMODE args...: run mkfs with args, where the
# word DEV stands for TARGET; it must refuse and leave TARGET unchanged.
# FPMODE is "full" (checksum) or "cheap" (size and allocated blocks).
expect_refusal() {
	er_desc=$1 er_target=$2 er_mode=$3
	shift 3
	ncase=$((ncase + 1))
	er_args=
	for er_a in "$@"; do
		[ "$er_a" = DEV ] && er_a=$er_target
		er_args="$er_args $er_a"
	done
	if [ "$er_mode" = full ]; then er_fp0=$(fingerprint "$er_target"); else er_fp0=$(cheap_fingerprint "$er_target"); fi
	set -f
	# shellcheck disable=SC2086
	run_mkfs "r$ncase" $er_args
	set +f
	if [ "$er_mode" = full ]; then er_fp1=$(fingerprint "$er_target"); else er_fp1=$(cheap_fingerprint "$er_target"); fi
	er_lines=$(wc -l <"$WORK/r$ncase.err")
	er_show="mkfs.f2fs$(echo "$er_args" | sed "s|$WORK/||g")"
	er_why=
	is_refusal_rc "$RC" || er_why="exit $(describe_rc "$RC") (want 1..125)"
	[ "$er_lines" = 1 ] || er_why="${er_why:+$er_why; }$er_lines lines on stderr (want 1)"
	[ "$er_fp0" = "$er_fp1" ] || er_why="${er_why:+$er_why; }target changed ($er_fp0 -> $er_fp1)"
	if [ -z "$er_why" ]; then
		pass "$er_desc: $er_show: exit $RC: $(cat "$WORK/r$ncase.err")"
	else
		fail "$er_desc: $er_show: $er_why"
		echo "      stderr:"
		show_file "$WORK/r$ncase.err" 8
		echo "      stdout:"
		show_file "$WORK/r$ncase.out" 8
	fi
	# A target that was changed must be restored for the next case.
	if [ "$er_fp0" != "$er_fp1" ]; then
		case $er_target in
		"$PAT") fill_pattern "$PAT" $IMG_MIB ;;
		"$SMALL") fill_pattern "$SMALL" 32 ;;
		"$F2FS") new_sparse "$F2FS" ${IMG_MIB}M && run_mkfs base -q "$F2FS" ;;
		"$EXT4") new_sparse "$EXT4" ${IMG_MIB}M && mkfs.ext4 -q -F "$EXT4" >/dev/null 2>&1 ;;
		*) rm -f "$er_target" ;;
		esac
	fi
}

# bad_options DESC args...: an invalid option set, on the pattern file
# without -f and on an F2FS image with -f.
bad_options() {
	bo_desc=$1
	shift
	expect_refusal "$bo_desc" "$PAT" full "$@" DEV
	if [ "$HAVE_F2FS" = 1 ]; then
		expect_refusal "$bo_desc (-f, over F2FS)" "$F2FS" full -f "$@" DEV
	fi
}

echo "== option errors"
bad_options "-s 0" -s 0
bad_options "-s -1" -s -1
bad_options "-s abc" -s abc
bad_options "-s 1x" -s 1x
bad_options "-s overflowing 32 bits" -s 4294967297
bad_options "-z 0" -z 0
bad_options "-z -1" -z -1
bad_options "-z abc" -z abc
bad_options "unknown feature" -O foo
bad_options "unknown feature in a list" -O extra_attr,foo
bad_options "inode_checksum without extra_attr" -O inode_checksum
bad_options "project_quota without extra_attr" -O project_quota
bad_options "flexible_inline_xattr without extra_attr" -O flexible_inline_xattr
bad_options "inode_crtime without extra_attr" -O inode_crtime
bad_options "compression without extra_attr" -O compression
bad_options "read-only image on zones" -m -O ro
bad_options "read-only image on several devices" -O ro -c /dev/null
bad_options "unknown encoding" -C latin1
bad_options "unknown encoding flag" -C utf8:bogus
bad_options "bad uuid" -U not-a-uuid
bad_options "-o 100" -o 100
bad_options "-o abc" -o abc
bad_options "unknown option" -x
bad_options "unknown long option" --bogus

echo "== size and target errors"
expect_refusal "size below the minimum (32 MiB file)" "$SMALL" full DEV
expect_refusal "size below the minimum (32 MiB file, -f)" "$SMALL" full -f DEV
expect_refusal "size below the minimum (sectors argument)" "$PAT" full DEV 65536
if [ "$HAVE_F2FS" = 1 ]; then
	expect_refusal "size below the minimum (sectors argument, -f)" "$F2FS" full -f DEV 65536
	expect_refusal "existing F2FS without -f" "$F2FS" full DEV
fi
expect_refusal "existing ext4 without -f" "$EXT4" full DEV
expect_refusal "nonexistent device path" "$WORK/no/such/dir/dev" full DEV
expect_refusal "nonexistent device file" "$WORK/no-such-file.img" full -f DEV
expect_refusal "no device argument" "$PAT" full
expect_refusal "no device argument (-f)" "$PAT" full -f

# A 17 TiB device: ext4 caps files at 16 TiB, so fall back to a tmpfs.
BIG=$WORK/big17t.img
if ! truncate -s 17T "$BIG" 2>/dev/null; then
	rm -f "$BIG"
	BIGDIR=$WORK/bigfs
	mkdir -p "$BIGDIR"
	if ! mount -t tmpfs -o size=64m tmpfs "$BIGDIR" 2>"$WORK/tmpfs.err"; then
		hard_error "cannot create a 17 TiB sparse file here and cannot mount a tmpfs: $(cat "$WORK/tmpfs.err")"
	fi
	add_cleanup "umount '$BIGDIR'"
	BIG=$BIGDIR/big17t.img
	truncate -s 17T "$BIG" || hard_error "cannot create a 17 TiB sparse file on tmpfs"
fi
expect_refusal "device over 16 TiB (17 TiB sparse file)" "$BIG" cheap DEV
expect_refusal "device over 16 TiB (17 TiB sparse file, -f)" "$BIG" cheap -f DEV
rm -f "$BIG"

echo "== version and help"
run_mkfs version -V
if [ "$RC" = 0 ] && cat "$WORK/version.out" "$WORK/version.err" | grep -q '[0-9]\.[0-9]'; then
	pass "-V: exit 0: $(cat "$WORK/version.out" "$WORK/version.err" | head -n 1)"
else
	fail "-V: exit $(describe_rc "$RC"), want 0 and a version number"
	show_file "$WORK/version.out"
	show_file "$WORK/version.err"
fi
for h in -h --help; do
	run_mkfs help $h
	if [ "$RC" -le 1 ] && cat "$WORK/help.out" "$WORK/help.err" | grep -qi 'usage'; then
		pass "$h: exit $RC, prints usage"
	else
		fail "$h: exit $(describe_rc "$RC"), want 0 or 1 and a usage text"
		show_file "$WORK/help.out"
		show_file "$WORK/help.err"
	fi
done

finish
