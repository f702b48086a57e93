#!/bin/bash
# tests/fsck/repair.sh: repair every corruption case of tests/fsck/cases.txt.
#
# For each case: `fsck.f2fs -y` exits 1 (fixed, none remain; 0 without a
# write for a case the check finds clean without a line), then our check is clean, a second `-y` writes
# nothing (image checksum unchanged, exit 0), and f2fs-tools'
# `fsck.f2fs --dry-run` finds the repaired image clean.  The cases whose
# problems have no fix (UNFIXABLE below, each with the reason in the
# problem table) must exit 4 or 8 (a -y may still fix the rest: what
# remains is in expect/ID.2, and coverage.sh fails when a fixable
# problem is left).
# `--dry-run` must compute the repair without writing (exit 4).
# A case whose expected field has same=PATH[,PATH...] keeps those files
# or directories (same=/ : the whole tree): what our dump.f2fs extracts
# from them after the repair must equal what it extracts from the base.
# A case whose corruption copies a tree in (sload_case) keeps every file
# of it: each must extract from the repaired image as it is in the tree.
# Repaired images are kept in $REPAIRED_DIR when set (the kernel test
# mounts them).  CASES=id,id runs only those cases.
# REPAIRED_SHARE=DIR (make check sets it; tests/fsck/local.mk): a run of
# every case without REPAIRED_DIR keeps its repaired images in DIR and,
# once every case passed, writes DIR/key (common.sh, repaired_key), so
# that kernel-repair.sh mounts them instead of repairing every case again.
# A -y whose check reported nothing but problems the targeted re-check
# after a repair follows (FOLLOWED below; RECHECK_COMPARE=all: every
# case) runs twice on the damaged image: with --full-recheck first, then
# as users run it: the exit code and the whole output must be the same.
# The first `-y` writes an undo file (--undo); after the checks,
# undo.f2fs must give back the damaged image byte for byte (its checksum
# before the repair).
#
# Goldens, as e2fsprogs' tests keep them (common.sh): the whole output
# of the first `-y` must equal tests/fsck/expect/ID.1, and that of the
# check after it expect/ID.2 (clean; for a case the table cannot fix,
# what remains), so that an extra, missing or cascading report shows up
# as a unified diff.  REGENERATE=1 (with CASES=id,id for new cases)
# writes them instead; tests/fsck/README says how.
# In the sanitizer build (ORACLES=0, tests/lib.sh) f2fs-tools' verdict on
# the repaired images (the same bytes as the normal build's) is left to
# the normal build, and so are the runs that only compare two of our
# outputs on the same bytes: -y with --full-recheck against -y, the -d 1
# run that says whether the re-check was targeted, and the second -y.
# Every case still goes through --dry-run, the check, -y with its undo
# file, the check after it and undo.f2fs under ASan and UBSan.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/fsck/common.sh"
require "$INJECT" "$DUMP" "$FSCK_ORACLE" "$SLOAD" "$SLOAD_ORACLE" "$MKFS_ORACLE"
. "$top_srcdir/tests/fsck/cases-lib.sh"

# No usable volume, or a problem whose fix is FIX_UNFIXABLE in the table.
UNFIXABLE=" sb-nomagic sb-both-differ sb-both-noroot notf2fs-zero notf2fs-ext4 sb-encoding sb-featdeps "
UNFIXABLE="$UNFIXABLE cp-none sb-qfino-repeat-nofile chain-loop chain-newino cp-sums-unloadable "
# Cases whose repair the targeted re-check must follow (fsck_recheck.c).
TARGETED=" ino-links ino-dirlinks ino-hardlinks ino-blocks ino-blocks0 ino-size ino-xnidself "
TARGETED="$TARGETED ino-xnidrange ino-ext-range ino-ext-map ino-csum ino-namelen ino-inlinesize "
# Cases reporting only such problems whose fixes it must refuse to follow
# (they change what the walk found: the inline flag of a file mapped by
# blocks, of a directory; the casefold flag of a directory).
UNTARGETED=" ino-inlineflag-big ino-inlinedir ino-casefold "
# The codes of followed[] in fsck_recheck.c: the problems whose fixes the
# targeted re-check may follow.
FOLLOWED='^F2FS-(4011|4013|4014|4015|4019|4021|4023|4024|4026|4039) '
# Checkpoints with CP_FASTBOOT_FLAG and without CP_UMOUNT_FLAG, whose data
# summaries f2fs-tools 1.15 reads from the wrong blocks (cases.txt): its
# verdict must be clean on a copy with CP_UMOUNT_FLAG added, which it
# reads as the kernel reads the original.
FASTBOOT=" cp-fastboot "
# Clean cases f2fs-tools 1.15 calls corrupt because it holds the image to
# a rule the kernel does not (cases.txt says why): its verdict after the
# repair, which leaves them as they are, is not asked.
TOOLS_DISAGREE=" ok-dirpino-lost "
UNDO=${UNDO_F2FS:-$top_builddir/undo/undo.f2fs}
require "$UNDO"

# umount_flag_copy: point $IMG at a copy of it whose checkpoint also has
# CP_UMOUNT_FLAG ($ORIG_IMG: the image itself; empty when not copied).
ORIG_IMG=
umount_flag_copy() {
	ORIG_IMG=$IMG
	IMG=$WORK/umount.img
	cp --sparse=always "$ORIG_IMG" "$IMG"
	inj --cp 0 --mb ckpt_flags --val $(($(cp_field "$IMG" ckpt_flags) | 1))
}

# check_undo ID SUM: undo.f2fs puts $IMG back to checksum SUM from the
# undo file the repair wrote (none: the repair wrote nothing).
check_undo() {
	if [ ! -e "$WORK/undo" ]; then
		[ "$(img_sum "$IMG")" = "$2" ] || fail "$1: the repair wrote but left no undo file"
		return
	fi
	"$UNDO" "$WORK/undo" "$IMG" >"$WORK/undo.out" 2>&1 ||
		{ fail "$1: undo.f2fs exit $?: $(tail -2 "$WORK/undo.out")"; return; }
	[ "$(img_sum "$IMG")" = "$2" ] || fail "$1: undo.f2fs did not give back the damaged image"
}

# full_then_targeted ID ARGS...: -y ARGS with --full-recheck on $IMG,
# $IMG put back as it was, then -y ARGS as users run it; the exit code
# and the output (left in $OUT, $ERR, $RC) must be the same.  Only -y
# ARGS when the check before ($OUT) reported another code.
full_then_targeted() {
	local id=$1 rc
	shift
	if [ "$ORACLES" = 0 ] ||
	   { [ "${RECHECK_COMPARE:-}" != all ] && grep '^F2FS-' "$OUT" | grep -Eqv "$FOLLOWED"; }; then
		run_fsck "$IMG" -y "$@"
		return
	fi
	cp --sparse=always "$IMG" "$WORK/damaged.img"
	rm -f "$WORK/damaged.zones"
	[ ! -e "$IMG.zones" ] || cp "$IMG.zones" "$WORK/damaged.zones"
	run_fsck "$IMG" -y --full-recheck "$@"
	rc=$RC
	mv "$OUT" "$WORK/full.out"
	mv "$ERR" "$WORK/full.err"
	cp --sparse=always "$WORK/damaged.img" "$IMG"
	[ ! -e "$WORK/damaged.zones" ] || cp "$WORK/damaged.zones" "$IMG.zones"
	rm -f "$WORK/undo"
	run_fsck "$IMG" -y "$@"
	[ "$RC" = "$rc" ] || fail "$id: -y exit $RC, with --full-recheck $rc"
	cmp -s "$OUT" "$WORK/full.out" && cmp -s "$ERR" "$WORK/full.err" ||
		fail "$id: -y prints other than with --full-recheck: $(diff "$WORK/full.out" "$OUT" | head -4) $(diff "$WORK/full.err" "$ERR" | head -4)"
}

# check_targeted ID [not]: on a copy of $IMG, -y -d 1 says its re-check
# was the targeted one (with not: that it was not).
check_targeted() {
	[ "$ORACLES" = 1 ] || return 0
	cp --sparse=always "$IMG" "$WORK/targeted.img"
	"$FSCK" -y -d 1 "$WORK/targeted.img" >/dev/null 2>"$WORK/targeted.err" </dev/null
	if [ "${2:-}" = not ]; then
		grep -q '^re-check: not targeted' "$WORK/targeted.err" ||
			fail "$1: the re-check did not refuse to be targeted: $(grep -m1 '^re-check' "$WORK/targeted.err")"
	else
		grep -q '^re-check: targeted' "$WORK/targeted.err" ||
			fail "$1: the re-check was not the targeted one: $(grep -m1 '^re-check' "$WORK/targeted.err")"
	fi
	rm -f "$WORK/targeted.img"
}

# golden ID N: the last run's output against expect/ID.N
golden() {
	check_golden "$1" "$2" "REGENERATE=1 CASES=$1 tests/fsck/repair.sh (from the build directory: see tests/fsck/README)"
}

# check_same ID BASE PATHS: the paths extract from $IMG as from the base.
check_same() {
	local tree=$WORK/tree-$2 p
	if [ ! -d "$tree" ]; then
		"$DUMP" -r -o "$tree" "$WORK/base-$2.img" >/dev/null 2>&1 ||
			{ fail "$1: dump.f2fs cannot extract base $2"; return; }
	fi
	rm -rf "$WORK/tree-case"
	"$DUMP" -r -o "$WORK/tree-case" "$IMG" >/dev/null 2>&1 ||
		{ fail "$1: dump.f2fs cannot extract the repaired image"; return; }
	for p in $(echo "$3" | tr ',' ' '); do
		diff -r "$tree/$p" "$WORK/tree-case/$p" >/dev/null 2>&1 ||
			fail "$1: $p does not read back as before the damage"
	done
}

# check_source ID SRC: every file of the tree SRC, which the corruption
# copied in (sload_case), reads back from the repaired $IMG as it is in SRC.
check_source() {
	local p
	rm -rf "$WORK/tree-src"
	"$DUMP" -r -o "$WORK/tree-src" "$IMG" >/dev/null 2>&1 ||
		{ fail "$1: dump.f2fs cannot extract the repaired image"; return; }
	(cd "$2" && find . -type f) | while read -r p; do
		cmp -s "$2/$p" "$WORK/tree-src/$p" || echo "$p"
	done >"$WORK/src-diff"
	[ ! -s "$WORK/src-diff" ] ||
		fail "$1: $(wc -l <"$WORK/src-diff") files of $2 read back otherwise: $(head -3 "$WORK/src-diff" | tr '\n' ' ')"
}

share=
if [ -n "${REPAIRED_SHARE:-}" ] && [ -z "${REPAIRED_DIR:-}" ] && [ -z "${CASES:-}" ]; then
	rm -rf "$REPAIRED_SHARE"
	mkdir -p "$REPAIRED_SHARE" || hard_error "cannot make $REPAIRED_SHARE"
	REPAIRED_DIR=$REPAIRED_SHARE
	share=1
fi
ncases=0
nfixed=0
oracle_note "f2fs-tools' verdict on each repaired image, the --full-recheck and -d 1 runs and the second -y"
while IFS='|' read -r id bname cmd expect verdict note; do
	bname=$(echo $bname)
	ncases=$((ncases + 1))
	if ! make_case "$bname" "$cmd"; then
		fail "$id: $(head -2 "$WORK/inject.err")"
		continue
	fi
	nfail_before=$nfail
	sum0=$(img_sum "$IMG")
	run_fsck "$IMG" --dry-run
	[ "$(img_sum "$IMG")" = "$sum0" ] || fail "$id: --dry-run changed the image"
	case "$UNFIXABLE" in
	*" $id "*)
		full_then_targeted "$id"
		case $RC in 4|8) ;; *) fail "$id: unfixable case: -y exit $RC, expected 4 or 8" ;; esac
		golden "$id" 1
		run_fsck "$IMG"
		golden "$id" 2
		[ $nfail = $nfail_before ] && pass "$id (refused)"
		continue ;;
	esac
	run_fsck "$IMG"
	rc0=$RC
	lines0=$(grep -c '^F2FS-' "$OUT")
	case "$TARGETED" in *" $id "*) check_targeted "$id" ;; esac
	case "$UNTARGETED" in *" $id "*) check_targeted "$id" not ;; esac
	sum0=$(img_sum "$IMG")
	rm -f "$WORK/undo"
	full_then_targeted "$id" --undo "$WORK/undo"
	if [ "$rc0" = 0 ] && [ "$lines0" = 0 ]; then
		# nothing reported, not even information: nothing to write
		[ "$RC" = 0 ] || fail "$id: clean case, -y exit $RC"
		[ "$(img_sum "$IMG")" = "$sum0" ] || fail "$id: clean case, -y wrote"
	elif [ "$rc0" = 0 ]; then
		[ "$RC" = 0 ] || [ "$RC" = 1 ] || fail "$id: clean case, -y exit $RC"
	else
		[ "$RC" = 1 ] || fail "$id: -y exit $RC, expected 1: $(grep -v '^F2FS' "$ERR" | tail -3) $(grep -A3 'checking again' "$OUT" | tail -3)"
	fi
	golden "$id" 1
	run_fsck "$IMG"
	[ "$RC" = 0 ] || fail "$id: not clean after the repair: $(grep '^F2FS' "$OUT" | head -3)"
	golden "$id" 2
	if [ "$ORACLES" = 1 ]; then
		sum1=$(img_sum "$IMG")
		run_fsck "$IMG" -y
		[ "$RC" = 0 ] || fail "$id: second -y exit $RC"
		[ "$(img_sum "$IMG")" = "$sum1" ] || fail "$id: the second repair wrote"
		case "$FASTBOOT" in *" $id "*) umount_flag_copy ;; esac
		case "$TOOLS_DISAGREE" in *" $id "*) got=clean ;; *) got=$(oracle_verdict "$IMG") ;; esac
		[ -z "$ORIG_IMG" ] || { IMG=$ORIG_IMG; ORIG_IMG=; }
		[ "$got" = clean ] || fail "$id: f2fs-tools finds the repaired image $got: $(grep -m3 -iE 'fail|error|\[FIX\]|invalid' "$WORK/oracle.out")"
	fi
	for e in $expect; do
		case "$e" in same=*) check_same "$id" "$bname" "${e#same=}" ;; esac
	done
	[ -z "$CASE_SRC" ] || check_source "$id" "$CASE_SRC"
	if [ -n "${REPAIRED_DIR:-}" ]; then
		cp --sparse=always "$IMG" "$REPAIRED_DIR/$id.img"
	fi
	check_undo "$id" "$sum0"
	if [ $nfail = $nfail_before ]; then
		nfixed=$((nfixed + 1))
		pass "$id"
	fi
done < <(read_table)
if [ "$ORACLES" = 1 ]; then
	echo "$TEST_NAME: $ncases cases; $nfixed repaired and clean for ours and f2fs-tools"
else
	echo "$TEST_NAME: $ncases cases; $nfixed repaired and clean for ours"
fi
[ $ncases -gt 0 ] || fail "no case ran"
if [ -n "$share" ] && [ $nfail = 0 ]; then
	repaired_key >"$REPAIRED_SHARE/key" || hard_error "cannot write $REPAIRED_SHARE/key"
	echo "$TEST_NAME: the repaired images are left in $REPAIRED_SHARE for kernel-repair.sh"
elif [ -n "$share" ]; then
	rm -rf "$REPAIRED_SHARE"	# kernel-repair.sh repairs the cases itself
fi
finish
