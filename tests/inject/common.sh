# tests/inject/common.sh: helpers shared by the inject.f2fs tests.
#
# Sourced by the tests in this directory, after tests/lib.sh (tools,
# scratch directory, counts, hard errors).  It owns: requiring inject.f2fs,
# mkfs.f2fs and f2fs-tools' fsck, dump and sload, making clean images
# (plain, and populated with sload), running
# inject.f2fs, and the checks every test uses: which bytes changed, what
# f2fs-tools' fsck says, what dump.f2fs shows.
#
# Environment: INJECT_F2FS, MKFS_F2FS, FSCK_ORACLE, DUMP_ORACLE,
# SLOAD_ORACLE override the tools; KEEP_WORK=1 keeps the scratch directory.

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"

require_built "$INJECT" "$MKFS"
require_oracles "$FSCK_ORACLE" "$DUMP_ORACLE" "$SLOAD_ORACLE"
require_commands cmp od truncate
make_scratch inject

# mkimg NAME [mkfs options...]: a clean 256 MiB image made by our mkfs.
mkimg() {
	local name=$1
	shift
	truncate -s 256M "$WORK/$name" || hard_error "truncate"
	"$MKFS" -f -q "$@" "$WORK/$name" >"$WORK/$name.mkfs" 2>&1 ||
		hard_error "mkfs.f2fs $* failed: $(cat "$WORK/$name.mkfs")"
}

# A small tree: regular files (inline, in the inode, with a direct node), a 3-level directory, a
# directory with 40 entries (not inline), a symlink, an xattr.
make_src() {
	local d=$WORK/src i
	[ -d "$d" ] && return 0
	mkdir -p "$d/dir1/sub" "$d/dir2"
	echo hello >"$d/file1"
	head -c 20000 /dev/zero | tr '\0' 'x' >"$d/big"
	head -c 4194304 /dev/zero | tr '\0' 'y' >"$d/huge"
	ln -s file1 "$d/link1"
	echo deep >"$d/dir1/sub/deep"
	for i in $(seq 1 40); do echo "$i" >"$d/dir2/f_$i"; done
	if command -v setfattr >/dev/null; then
		setfattr -n user.test -v value1 "$d/file1" 2>/dev/null || true
	fi
}

# popimg NAME [mkfs options...]: mkimg, then sload.f2fs the tree into it.
# This stays f2fs-tools' sload (part of the f2fs-tools-built oracle set):
# the tests aim at what only its images have: a normal checkpoint pack
# (three data and three node summaries carrying the NAT and SIT journals,
# where orphan blocks are then added; ours writes a compacted pack, as the
# kernel does when it fits) and a 40-entry directory in a dentry block
# (ours keeps it inline).  sload's exit status reflects its own fsck pass; the image is
# accepted when f2fs-tools' fsck finds it clean.
popimg() {
	local name=$1
	mkimg "$@"
	make_src
	"$SLOAD_ORACLE" -f "$WORK/src" "$WORK/$name" >"$WORK/$name.sload" 2>&1
	"$FSCK_ORACLE" --dry-run "$WORK/$name" >"$WORK/$name.fsck0" 2>&1 ||
		hard_error "populated image $name is not clean: $(tail -5 "$WORK/$name.fsck0")"
}

# ino_of IMG NAME: the inode number f2fs-tools' fsck -t shows for NAME.
ino_of() {
	"$FSCK_ORACLE" --dry-run -t "$1" 2>/dev/null |
		sed -n "s/.*-- $2 <ino = \(0x[0-9a-f]*\)>.*/\1/p" | head -1
}

# inj IMG ARGS...: run inject.f2fs on IMG; output in $WORK/out, $WORK/err,
# exit status in $rc.
inj() {
	local img=$1
	shift
	"$INJECT" "$@" "$img" >"$WORK/out" 2>"$WORK/err"
	rc=$?
}

# fresh BASE COPY: copy image BASE to COPY (both names in $WORK).
fresh() {
	cp --sparse=always "$WORK/$1" "$WORK/$2"
}

# changed A B: 0-based offsets of the bytes that differ, space separated.
changed() {
	cmp -l "$1" "$2" 2>/dev/null | awk '{ printf "%s%d", sep, $1 - 1; sep = " " }'
}

# expect_changed DESC A B "OFFSETS": exactly those bytes differ.
expect_changed() {
	local got
	got=$(changed "$2" "$3")
	if [ "$got" = "$4" ]; then
		pass "$1"
	else
		fail "$1: changed bytes [$got], expected [$4]"
	fi
}

# expect_ok DESC: the last inj succeeded with one line on stdout, nothing
# on stderr.
expect_ok() {
	if [ "$rc" = 0 ] && [ "$(wc -l <"$WORK/out")" = 1 ] && [ ! -s "$WORK/err" ]; then
		pass "$1"
	else
		fail "$1: rc=$rc out=[$(cat "$WORK/out")] err=[$(cat "$WORK/err")]"
	fi
}

# expect_error DESC IMG_BEFORE IMG_AFTER: the last inj failed (status 1,
# one line on stderr) and changed nothing.
expect_error() {
	if [ "$rc" = 1 ] && [ "$(wc -l <"$WORK/err")" = 1 ] && cmp -s "$2" "$3"; then
		pass "$1"
	else
		fail "$1: rc=$rc err=[$(cat "$WORK/err")]"
	fi
}

# expect_out DESC PATTERN: the report line matches (grep -E).
expect_out() {
	if grep -Eq -- "$2" "$WORK/out"; then
		pass "$1"
	else
		fail "$1: report [$(cat "$WORK/out")] does not match /$2/"
	fi
}

# fsck_says DESC IMG PATTERN: f2fs-tools' fsck (dry run) output matches.
fsck_says() {
	"$FSCK_ORACLE" --dry-run "$2" >"$WORK/fsck.out" 2>&1
	if grep -Eq -- "$3" "$WORK/fsck.out"; then
		pass "$1"
	else
		fail "$1: fsck.f2fs did not report /$3/; it said: $(grep -E 'ASSERT|Invalid|Fail' "$WORK/fsck.out" | head -3)"
	fi
}

# fsck_silent DESC IMG PATTERN: f2fs-tools' fsck output does not match.
fsck_silent() {
	"$FSCK_ORACLE" --dry-run "$2" >"$WORK/fsck.out" 2>&1
	if grep -Eq -- "$3" "$WORK/fsck.out"; then
		fail "$1: fsck.f2fs reported /$3/: $(grep -E -- "$3" "$WORK/fsck.out" | head -2)"
	else
		pass "$1"
	fi
}

# dump_field IMG FIELD: decimal value of FIELD in `dump.f2fs -d 1` (first
# match: superblock, then checkpoint).
dump_field() {
	"$DUMP_ORACLE" -d 1 "$1" 2>/dev/null |
		awk -v f="$2" '$1 == f { v = $NF; gsub(/]/, "", v); print v; exit }'
}

# inode_field IMG INO FIELD: value shown by `dump.f2fs -i INO` (decimal,
# or the text of a string field).
inode_field() {
	(cd "$WORK" && "$DUMP_ORACLE" -i "$2" "$1" 2>/dev/null </dev/null) |
		awk -v f="$3" '$1 == f { v = $NF; gsub(/[][]/, "", v); print v; exit }'
}

# nat_blkaddr IMG NID: the block address f2fs-tools' dump.f2fs -n shows
# (its range end is exclusive; entries whose node block does not carry
# the nid are not shown).
nat_blkaddr() {
	(cd "$WORK" && rm -f dump_nat && "$DUMP_ORACLE" -n "$2~$(($2 + 1))" "$1" >/dev/null 2>&1 &&
		awk -v n="$2" '$1 == "nid:" && $2 == n { print $8; exit }' dump_nat)
}

# expect_eq DESC GOT WANT
expect_eq() {
	if [ "$2" = "$3" ]; then
		pass "$1"
	else
		fail "$1: got [$2], expected [$3]"
	fi
}

# le IMG BYTE_OFFSET SIZE: unsigned little-endian value (decimal).
le() {
	od -An -t u"$3" -j "$2" -N "$3" --endian=little "$1" | tr -d ' '
}
