#!/bin/bash
# tests/fsck/cases.sh: the table-driven corruption cases (tests/fsck/cases.txt).
#
# Every case starts from a copy of a clean base image (made here with our
# mkfs.f2fs, populated with our sload.f2fs where it needs files),
# corrupts it with inject.f2fs, and checks that our fsck.f2fs exits with
# the expected code and reports every expected problem code, never
# crashing, hanging or tripping a sanitizer, and without changing the
# image.  f2fs-tools' `fsck.f2fs --dry-run` verdict is compared with the
# one recorded in the table; where it says clean, the table must say why
# ours is right.  CASES=id,id runs only those cases.
# In the sanitizer build (ORACLES=0, tests/lib.sh) f2fs-tools' verdicts
# and the comparison of the -j 1, default and -j 3 runs are left to the
# normal build: one run, -j 3 --thread-min 1 (the walk and every worker
# path), goes over every case under ASan and UBSan and must give the
# expected exit code and problems.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/fsck/common.sh"
require "$INJECT" "$DUMP" "$FSCK_ORACLE" "$SLOAD" "$SLOAD_ORACLE" "$MKFS_ORACLE"

. "$top_srcdir/tests/fsck/cases-lib.sh"
ncases=0
nagree=0
ndisagree=0
oracle_note "f2fs-tools' verdicts and the -j 1 and default runs of each case"
while IFS='|' read -r id bname cmd expect verdict note; do
	id=$(echo $id)
	case "$id" in ''|'#'*) continue ;; esac
	if [ -n "${CASES:-}" ]; then
		case ",$CASES," in *",$id,"*) ;; *) continue ;; esac
	fi
	bname=$(echo $bname)
	verdict=$(echo $verdict)
	note=$(echo $note)
	ncases=$((ncases + 1))
	if ! make_case "$bname" "$cmd"; then
		fail "$id: $(cat "$WORK/inject.err" | head -2)"
		continue
	fi
	sum_before=$(img_sum "$IMG")
	want_rc=4
	codes=
	for e in $expect; do
		case "$e" in rc=*) want_rc=${e#rc=} ;; same=*) ;; *) codes="$codes $e" ;; esac
	done
	nfail_before=$nfail
	if [ "$ORACLES" = 0 ]; then
		run_fsck "$IMG" -j 3 --thread-min 1
	else
		run_fsck "$IMG"
	fi
	[ "$RC" = "$want_rc" ] || fail "$id: exit $RC, expected $want_rc: $(head -3 "$OUT")"
	for c in $codes; do
		grep -q "^F2FS-$c " "$OUT" || fail "$id: problem $c not reported: $(grep '^F2FS' "$OUT" | head -3)"
	done
	[ "$(img_sum "$IMG")" = "$sum_before" ] || fail "$id: the image changed"
	# worker threads change nothing: one thread against three that take
	# every batch, however small (--thread-min 1)
	if [ "$ORACLES" = 0 ]; then
		[ $nfail = $nfail_before ] && pass "$id"
		continue
	fi
	cp "$OUT" "$WORK/fsck.default"
	run_fsck "$IMG" -j 1
	cp "$OUT" "$WORK/fsck.j1"
	run_fsck "$IMG" -j 3 --thread-min 1
	cmp -s "$WORK/fsck.j1" "$OUT" || fail "$id: -j 3 prints otherwise than -j 1: $(diff "$WORK/fsck.j1" "$OUT" | head -4)"
	cmp -s "$WORK/fsck.j1" "$WORK/fsck.default" || fail "$id: the default -j prints otherwise than -j 1"
	cp "$WORK/fsck.default" "$OUT"
	got=$(oracle_verdict "$IMG")
	[ "$got" = "$verdict" ] || fail "$id: f2fs-tools says $got, the table records $verdict"
	if [ "$got" = clean ] && [ "$want_rc" != 0 ] && [ -z "$note" ]; then
		fail "$id: f2fs-tools says clean and the case has no note saying why ours is right"
	fi
	ours=corrupt
	[ "$want_rc" = 0 ] && ours=clean
	if [ "$got" = "$ours" ]; then
		nagree=$((nagree + 1))
	else
		ndisagree=$((ndisagree + 1))
	fi
	[ $nfail = $nfail_before ] && pass "$id"
done <"$TABLE"
if [ "$ORACLES" = 1 ]; then
	echo "$TEST_NAME: $ncases cases; f2fs-tools agrees on $nagree, disagrees on $ndisagree (each explained in cases.txt)"
else
	echo "$TEST_NAME: $ncases cases"
fi
[ $ncases -gt 0 ] || fail "no case ran"
finish
