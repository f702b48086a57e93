#!/bin/bash
# tests/fsck/undo.sh: undo files (fsck.f2fs -y --undo, mkfs.f2fs --undo,
# undo.f2fs).  repair.sh already checks, for every repair case, that
# undo.f2fs gives back the damaged image byte for byte; this test covers
# what a plain run does not reach:
#  - a cut at every write of the repair, the undo file's record writes
#    included (fsck --write-limit counts both; a cut falling on a record
#    leaves half of it): a cut on the first record leaves the device
#    untouched, and after every cut `undo.f2fs -f` gives back the damaged
#    image byte for byte, while plain `undo.f2fs` refuses a file whose run
#    did not finish;
#  - undo.f2fs refuses a device changed since the run (exit 1, nothing
#    written), -n writes nothing, and -f restores anyway;
#  - mkfs.f2fs --undo over an ext4 file system (mkfs.ext4 with a file
#    written by debugfs) gives it back, e2fsck clean and the file intact;
#  - inject.f2fs --undo is undone byte for byte, and its undo file is
#    refused on another F2FS volume of the same size (the UUID);
#  - --undo refuses an existing file, and mkfs --undo refuses -c.
# UNDO_CASES overrides the cut cases.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/fsck/common.sh"
UNDO=${UNDO_F2FS:-$top_builddir/undo/undo.f2fs}
require "$INJECT" "$DUMP" "$UNDO"
require_commands cmp
. "$top_srcdir/tests/fsck/cases-lib.sh"

CASES=${UNDO_CASES:-nat-leak,sb-magic1,dent-hash,lpf-dir}

# undo_cut N: after the cut at write N of case $CUT_ID: undo.f2fs -f gives
# back the damaged image; non-zero (the loop ends) when the run finished.
undo_cut() {
	local n=$1
	[ -e "$WORK/u" ] || { fail "$CUT_ID: cut $n: no undo file"; return 1; }
	if [ $n = 1 ] && [ "$(img_sum "$IMG")" != "$CUT_SUM0" ]; then
		fail "$CUT_ID: a cut on the undo file's first record changed the device"
	fi
	if "$UNDO" -n "$WORK/u" "$IMG" >"$WORK/undo.out" 2>&1; then
		CUT_DONE=$n	# the run finished: nothing was cut
	elif ! grep -q 'did not finish' "$WORK/undo.out"; then
		fail "$CUT_ID: cut $n: undo.f2fs -n: $(tail -1 "$WORK/undo.out")"
	fi
	"$UNDO" -f "$WORK/u" "$IMG" >"$WORK/undo.out" 2>&1 ||
		fail "$CUT_ID: cut $n: undo.f2fs -f exit $?: $(tail -1 "$WORK/undo.out")"
	[ "$(img_sum "$IMG")" = "$CUT_SUM0" ] ||
		fail "$CUT_ID: cut $n: undo.f2fs -f did not give back the damaged image"
	NCUTS=$((NCUTS + 1))
	[ -z "$CUT_DONE" ]
}
no_undo_file() { rm -f "$WORK/u"; }

# cut_case ID: every cut of the repair with --undo, then undo.f2fs -f.
cut_case() {
	CUT_ID=$1 CUT_DONE=
	cp --sparse=always "$IMG" "$WORK/pre.img"
	CUT_SUM0=$(img_sum "$WORK/pre.img")
	cut_each_write "$WORK/pre.img" 400 no_undo_file undo_cut --undo "$WORK/u"
	[ -n "$CUT_DONE" ] || fail "$CUT_ID: the run never finished within 400 writes"
}

# changed_case ID: a device changed since the repair is refused.
changed_case() {
	local id=$1 sum0 sum1 blk
	cp --sparse=always "$WORK/pre.img" "$IMG"
	sum0=$(img_sum "$IMG")
	rm -f "$WORK/u"
	run_fsck "$IMG" -y --undo "$WORK/u"
	[ "$RC" = 1 ] || { fail "$id: -y --undo exit $RC"; return; }
	run_fsck "$IMG" -y --undo "$WORK/u"
	[ "$RC" = 16 ] || fail "$id: --undo over an existing file: exit $RC, expected 16"
	blk=$("$UNDO" -n -v "$WORK/u" "$IMG" | sed -n 's/^  blocks \([0-9]*\)-.*/\1/p' | head -1)
	[ -n "$blk" ] || { fail "$id: undo.f2fs -v lists no range"; return; }
	printf 'changed' | dd of="$IMG" bs=1 seek=$((blk * 4096 + 100)) conv=notrunc 2>/dev/null
	sum1=$(img_sum "$IMG")
	"$UNDO" "$WORK/u" "$IMG" >"$WORK/undo.out" 2>&1
	rc=$?
	[ $rc = 1 ] || fail "$id: undo.f2fs on a changed device: exit $rc, expected 1"
	grep -q 'changed since' "$WORK/undo.out" || fail "$id: undo.f2fs does not say the device changed"
	[ "$(img_sum "$IMG")" = "$sum1" ] || fail "$id: a refused undo.f2fs wrote"
	"$UNDO" -f -n "$WORK/u" "$IMG" >/dev/null 2>&1
	[ "$(img_sum "$IMG")" = "$sum1" ] || fail "$id: undo.f2fs -n wrote"
	"$UNDO" -f "$WORK/u" "$IMG" >"$WORK/undo.out" 2>&1 || fail "$id: undo.f2fs -f exit $?"
	[ "$(img_sum "$IMG")" = "$sum0" ] || fail "$id: undo.f2fs -f did not give back the damaged image"
	"$UNDO" "$WORK/u" "$IMG" >"$WORK/undo.out" 2>&1 ||
		fail "$id: undo.f2fs again after a restore: exit $?"
}

NCUTS=0
first=
while IFS='|' read -r id bname cmd expect verdict note; do
	bname=$(echo $bname)
	if ! make_case "$bname" "$cmd"; then
		fail "$id: $(head -2 "$WORK/inject.err")"
		continue
	fi
	nfail_before=$nfail
	cut_case "$id"
	[ -n "$first" ] || { changed_case "$id"; first=$id; }
	[ $nfail = $nfail_before ] && pass "$id (cut at every write, undone)"
done < <(read_table)
[ $NCUTS -gt 0 ] || fail "no cut ran"

# mkfs.f2fs --undo over ext4 gives the ext4 file system back.
if command -v mkfs.ext4 >/dev/null && command -v debugfs >/dev/null &&
   command -v e2fsck >/dev/null; then
	E=$WORK/ext4.img
	rm -f "$E" "$WORK/u"
	truncate -s 96M "$E"
	mkfs.ext4 -q -F "$E" >/dev/null 2>&1 || hard_error "mkfs.ext4 failed"
	head -c 300000 "$top_srcdir/README" >"$WORK/payload"
	debugfs -w -R "write $WORK/payload payload" "$E" >/dev/null 2>&1
	sum0=$(img_sum "$E")
	"$MKFS" -q -f --undo "$WORK/u" "$E" >"$WORK/mkfs.out" 2>&1 ||
		fail "mkfs.f2fs -f --undo over ext4: $(tail -2 "$WORK/mkfs.out")"
	run_fsck "$E"
	[ "$RC" = 0 ] || fail "mkfs.f2fs --undo: the new volume is not clean"
	"$UNDO" "$WORK/u" "$E" >"$WORK/undo.out" 2>&1 || fail "undo.f2fs after mkfs exit $?"
	[ "$(img_sum "$E")" = "$sum0" ] || fail "undo.f2fs did not give back the ext4 image"
	e2fsck -fn "$E" >/dev/null 2>&1 || fail "e2fsck: the restored ext4 image is not clean"
	rm -f "$WORK/payload.back"
	debugfs -R "dump payload $WORK/payload.back" "$E" >/dev/null 2>&1
	cmp -s "$WORK/payload" "$WORK/payload.back" || fail "the ext4 file does not read back"
	"$MKFS" -q -f --undo "$WORK/u" "$E" >/dev/null 2>&1 &&
		fail "mkfs.f2fs --undo over an existing undo file ran"
	[ "$(img_sum "$E")" = "$sum0" ] || fail "a refused mkfs.f2fs --undo wrote"
	rm -f "$E" "$WORK/u"
	pass "mkfs.f2fs --undo over ext4, undone"
else
	echo "$TEST_NAME: SKIP mkfs over ext4 (e2fsprogs missing)"
fi
# inject.f2fs --undo, undone.
cp --sparse=always "$WORK/base-plain.img" "$IMG"
sum0=$(img_sum "$IMG")
rm -f "$WORK/u"
"$INJECT" --undo "$WORK/u" --cp 1 --mb checkpoint_ver --val 7 "$IMG" >/dev/null 2>&1 ||
	fail "inject.f2fs --undo failed"
[ "$(img_sum "$IMG")" != "$sum0" ] || fail "inject.f2fs --undo wrote nothing"
"$UNDO" "$WORK/u" "$IMG" >"$WORK/undo.out" 2>&1 || fail "undo.f2fs after inject exit $?"
[ "$(img_sum "$IMG")" = "$sum0" ] || fail "undo.f2fs did not undo inject.f2fs"
"$INJECT" --undo "$WORK/u" --cp 1 --mb checkpoint_ver --val 8 "$IMG" >/dev/null 2>&1 &&
	fail "inject.f2fs --undo over an existing undo file ran"
[ "$(img_sum "$IMG")" = "$sum0" ] || fail "a refused inject.f2fs --undo wrote"
pass "inject.f2fs --undo, undone"

# undo.f2fs refuses another F2FS volume of the same size (by its UUID),
# writing nothing.
O=$WORK/other.img
rm -f "$O"
truncate -s "$(stat -c %s "$IMG")" "$O"
"$MKFS" -q -f "$O" >/dev/null 2>&1 || hard_error "mkfs.f2fs of a second volume failed"
sum_o=$(img_sum "$O")
"$UNDO" "$WORK/u" "$O" >"$WORK/undo.out" 2>&1
rc=$?
if [ $rc = 1 ] && grep -q 'does not hold the file system' "$WORK/undo.out" &&
   [ "$(img_sum "$O")" = "$sum_o" ]; then
	pass "undo.f2fs refuses another F2FS volume (UUID)"
else
	fail "undo.f2fs on another volume of the same size: exit $rc: $(tail -2 "$WORK/undo.out")"
fi
rm -f "$O"

rm -f "$WORK/u2"
"$MKFS" -q -f --undo "$WORK/u2" -c "$WORK/x.img" "$WORK/y.img" >/dev/null 2>&1 &&
	fail "mkfs.f2fs --undo with -c ran"
[ ! -e "$WORK/u2" ] || fail "mkfs.f2fs --undo with -c made an undo file"

echo "$TEST_NAME: $NCUTS cuts undone"
finish
