#!/bin/bash
# tests/fsck/cli.sh: the command line and behaviour of fsck.f2fs: exit
# codes 0/1/4/8/16 (never 255), no writes in the check modes (same checksum
# before and after), repairs in -a -f/-p -f/-f/-y (exit 1, then clean),
# preen without -f stopping after the mount checks, preen refusing an unsafe
# fix, no prompt without a terminal, results on stdout and diagnostics on
# stderr, --json, -C progress, -l, -t, -d 1's request sizes and walk stack peak.  The output contract, the preen
# fast path and fsck(8) have their own tests (output.sh, preen.sh,
# fsck8.sh).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/fsck/common.sh"
require "$INJECT"

IMG=$WORK/a.img
truncate -s 256M "$IMG"
"$MKFS" -f -q -O extra_attr,inode_checksum,quota,lost_found "$IMG" >/dev/null 2>&1 || hard_error mkfs

expect_rc() {
	local want=$1 what=$2
	shift 2
	"$@" </dev/null >"$WORK/o" 2>"$WORK/e"
	local rc=$?
	[ $rc = "$want" ] && pass "$what" || fail "$what: exit $rc, expected $want ($(head -2 "$WORK/e"))"
}

expect_rc 16 "no arguments" "$FSCK"
expect_rc 16 "unknown option" "$FSCK" -Z "$IMG"
expect_rc 16 "two devices" "$FSCK" "$IMG" "$IMG"
expect_rc 16 "-d without a number" "$FSCK" -d x "$IMG"
expect_rc 16 "-j without a number" "$FSCK" -j x "$IMG"
expect_rc 16 "-j 0" "$FSCK" -j 0 "$IMG"
expect_rc 16 "--thread-min 0" "$FSCK" --thread-min 0 "$IMG"
expect_rc 16 "-C with an encoding" "$FSCK" -C utf8 "$IMG"
expect_rc 16 "-O refused" "$FSCK" -O casefold "$IMG"
expect_rc 0 "-V" "$FSCK" -V
expect_rc 0 "-j 1" "$FSCK" -j 1 "$IMG"
expect_rc 0 "--jobs 4" "$FSCK" --jobs 4 "$IMG"
expect_rc 0 "--help" "$FSCK" --help
expect_rc 8 "missing device" "$FSCK" "$WORK/nonexistent"
truncate -s 64M "$WORK/zero.img"
expect_rc 8 "not F2FS" "$FSCK" "$WORK/zero.img"
grep -q "not an F2FS volume" "$WORK/e" && pass "not-F2FS diagnostic on stderr" || fail "no diagnostic on stderr"

sum=$(cksum <"$IMG")
for mode in "" -a -p "-p 0" "-p 1" "-p 2" -f -y -n -N --dry-run "-f --dry-run" "-d 3" --json -t; do
	expect_rc 0 "clean image, mode '$mode'" "$FSCK" $mode "$IMG"
done
[ "$(cksum <"$IMG")" = "$sum" ] && pass "clean image unchanged" || fail "the clean image changed"
"$FSCK" "$IMG" >"$WORK/o" 2>"$WORK/e"
[ ! -s "$WORK/e" ] && pass "nothing on stderr when clean" || fail "stderr not empty: $(head -2 "$WORK/e")"
grep -q "0 problems" "$WORK/o" && pass "summary on stdout" || fail "no summary on stdout"

BAD=$WORK/bad.img
cp --sparse=always "$IMG" "$BAD"
"$INJECT" --node --mb i_links --nid 3 --val 9 "$BAD" >/dev/null 2>&1 || hard_error inject
sum=$(cksum <"$BAD")
for mode in "" -n -N --dry-run "-y --dry-run" "-a --dry-run" --json; do
	expect_rc 4 "corrupt image, mode '$mode'" "$FSCK" $mode "$BAD"
done
[ "$(cksum <"$BAD")" = "$sum" ] && pass "corrupt image unchanged in every check mode" || fail "the corrupt image changed"
# preen without -f: the kernel asked for nothing, so only what it checks
# at mount is checked (tests/fsck/preen.sh tests the fast path in depth)
for mode in -a -p "-p 1"; do
	cp --sparse=always "$BAD" "$WORK/fix.img"
	expect_rc 0 "preen without a request stops after the mount checks, mode '$mode'" \
		"$FSCK" $mode "$WORK/fix.img"
	[ "$(cksum <"$WORK/fix.img")" = "$sum" ] && pass "preen fast path wrote nothing ($mode)" ||
		fail "preen fast path wrote ($mode)"
done
# the repair modes fix it (i_links is safe in preen) and say so with exit 1
for mode in "-a -f" "-f -a" "-p -f" "-p 1 -f" -f -y; do
	cp --sparse=always "$BAD" "$WORK/fix.img"
	expect_rc 1 "corrupt image repaired, mode '$mode'" "$FSCK" $mode "$WORK/fix.img"
	expect_rc 0 "clean after the repair, mode '$mode'" "$FSCK" "$WORK/fix.img"
done
# a problem preen may not fix: -a stops with 4 and writes nothing
cp --sparse=always "$IMG" "$WORK/nopreen.img"
"$INJECT" --node --mb i_extra_isize --nid 3 --val 3 "$WORK/nopreen.img" >/dev/null 2>&1 || hard_error inject
sum2=$(cksum <"$WORK/nopreen.img")
expect_rc 0 "preen without -f or a kernel request leaves it" "$FSCK" -a "$WORK/nopreen.img"
expect_rc 4 "preen refuses an unsafe fix" "$FSCK" -a -f "$WORK/nopreen.img"
[ "$(cksum <"$WORK/nopreen.img")" = "$sum2" ] && pass "preen wrote nothing" || fail "preen wrote"
"$FSCK" "$BAD" >"$WORK/o" 2>"$WORK/e"
grep -q "^F2FS-4013 error: ino 3: i_links is 9, counted 3 \[ino=3\]$" "$WORK/o" &&
	pass "problem line format" || fail "problem line: $(grep F2FS "$WORK/o")"
grep -q "Do you want" "$WORK/o" "$WORK/e" && fail "a prompt was printed" || pass "no prompt"
# a prompt-free check with stdin closed
"$FSCK" "$BAD" <&- >/dev/null 2>&1
[ $? = 4 ] && pass "stdin closed" || fail "stdin closed: wrong exit"

"$FSCK" --json "$BAD" >"$WORK/j" 2>/dev/null
if command -v python3 >/dev/null; then
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["summary"]["problems"]==1 and d["problems"][0]["code"]==4013 and d["exit_code"]==4' "$WORK/j" &&
		pass "--json document" || fail "--json: $(head -c 300 "$WORK/j")"
else
	grep -q '"code":4013' "$WORK/j" && pass "--json document (no python3: grep only)" || fail "--json"
fi

"$FSCK" -C 3 "$IMG" 3>"$WORK/progress" >/dev/null 2>&1
grep -qE "^[1-7] [0-9]+ [0-9]+ $IMG\$" "$WORK/progress" && pass "-C fd progress lines" || fail "-C: $(head -2 "$WORK/progress")"
"$FSCK" "$IMG" 2>&1 | grep -q "Pass" && fail "progress without -C" || pass "no progress without a terminal or -C"

"$FSCK" -l "$IMG" >"$WORK/o" 2>&1
grep -q "^checkpoint_ver" "$WORK/o" && grep -q "^main_blkaddr" "$WORK/o" && pass "-l" || fail "-l"
"$FSCK" -t "$IMG" >"$WORK/o" 2>&1
grep -q "^3	/\$" "$WORK/o" && grep -q "	/lost+found\$" "$WORK/o" && pass "-t" || fail "-t: $(head -3 "$WORK/o")"
"$FSCK" -d 1 "$IMG" >"$WORK/o" 2>&1
grep -qE "^I/O request sizes in blocks \(size:count\): read calls( [0-9]+(-[0-9]+|\+)?:[1-9][0-9]*)+\$" "$WORK/o" &&
	pass "-d 1: read request sizes" || fail "-d 1: $(grep "^I/O" "$WORK/o")"
# The walk's stack holds a batch's budget of entries, not a whole level:
# of 40 directories of 600 names (dentry blocks), a batch takes eight and
# puts the rest back, so at most about 8 x 600 inodes wait at once, never
# all 24,000.
mkdir -p "$WORK/wide"
for d in $(seq 40); do
	mkdir "$WORK/wide/d$d"
	(cd "$WORK/wide/d$d" && touch $(seq -f "f%g" 600))
done
truncate -s 512M "$WORK/wide.img"
if "$MKFS" -f -q "$WORK/wide.img" >/dev/null 2>&1 && "$SLOAD" -f "$WORK/wide" "$WORK/wide.img" >/dev/null 2>&1; then
	"$FSCK" -d 1 "$WORK/wide.img" >"$WORK/o" 2>&1
	peak=$(sed -n 's/^walk: at most \([0-9]*\) inodes waiting at once$/\1/p' "$WORK/o")
	[ -n "$peak" ] && [ "$peak" -ge 600 ] && [ "$peak" -le 6000 ] &&
		pass "-d 1: the walk's stack stays within a batch's budget ($peak)" ||
		fail "-d 1: walk stack peak '${peak}' for 40 x 600 names: $(grep "^walk" "$WORK/o")"
else
	fail "sload of 40 x 600 names"
fi
rm -rf "$WORK/wide" "$WORK/wide.img"
# A mounted volume is never repaired (the kernel would write its own view
# of the checkpoint back over the repair); a check warns.  The host kernel
# has no F2FS, so an ext4 image mounted through a loop device stands in:
# the refusal comes before anything is read.
command -v mkfs.ext4 >/dev/null || hard_error "mkfs.ext4 not found (e2fsprogs)"
truncate -s 32M "$WORK/mnt.img"
mkfs.ext4 -q -F "$WORK/mnt.img" >/dev/null 2>&1 || hard_error "mkfs.ext4"
mkdir -p "$WORK/mnt"
mount -o loop "$WORK/mnt.img" "$WORK/mnt" 2>"$WORK/e" || hard_error "cannot loop-mount an ext4 image (root and loop devices needed): $(cat "$WORK/e")"
for m in -y -f "-y --json"; do
	"$FSCK" $m "$WORK/mnt.img" >"$WORK/o" 2>"$WORK/e" </dev/null
	rc=$?
	[ "$rc" = 8 ] && grep -q "is mounted on $WORK/mnt; unmount it before a repair" "$WORK/e" &&
		pass "'$m' on a mounted volume: refused, exit 8" || fail "'$m' on a mounted volume: exit $rc: $(head -2 "$WORK/e")"
done
grep -q '"error":{"code":"mounted"' "$WORK/o" && pass "--json: the mounted error object" ||
	fail "--json mounted: $(head -c 200 "$WORK/o")"
for m in -n -a; do
	"$FSCK" $m "$WORK/mnt.img" >"$WORK/o" 2>"$WORK/e" </dev/null
	grep -q "warning: .* is mounted on $WORK/mnt: the check reads its last checkpoint, and nothing will be written" "$WORK/e" &&
		pass "'$m' on a mounted volume: a warning, read-only" || fail "'$m' on a mounted volume: $(head -2 "$WORK/e")"
done
umount "$WORK/mnt" || hard_error "umount"
finish
