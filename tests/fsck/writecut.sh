#!/bin/bash
# tests/fsck/writecut.sh: a repair cut by a power failure after every write.
#
# For a representative set of corruption cases (NAT, inode, dentry block,
# SIT and section counts in a large-section volume, checkpoint counters,
# summary entries, a superblock copy, an unreachable file reconnected into
# a /lost+found the repair creates and a directory into an existing one,
# blocks moved out of sections of mixed classes and out of an inline
# xattr area, a superblock rebuilt from two damaged copies, a checkpoint
# pack failing only its checksum, the older pack in place of an unusable
# newest one, a checkpoint field derived from the superblock or from the
# pack's layout, a superblock copy the checkpoint contradicts, lost NAT
# entries taken back, every name of a refused inode dropped, a truncated
# image grown)
# the repair's writes are counted with
# --dry-run, then for every N from 1 to that total the repair runs with
# --write-limit N (every write after the N-th is dropped, as a power cut
# would).  After each cut our check and f2fs-tools' must agree that the
# image is either as before the repair (our problems a subset of the ones
# before: nothing new; f2fs-tools' verdict unchanged) or repaired (clean
# for both).  For the cases of LOSE_CASES (NAT and SIT blocks, a
# superblock copy, a new directory, the checkpoint pack), each cut runs
# again with --lose-writes, twice: the cut also loses the writes since
# the last flush but the newest one, or but the newest four (a disk
# cache that wrote back only those), so a commit block that can reach the
# disk before what it commits is caught (without the flush before the
# checkpoint's last block, the second fails at the last cut); the same
# verdicts hold, checked when the image differs from the plain cut's
# (about a minute and a half more on two busy cores).
# WRITECUT_CASES overrides the case list.
# In the sanitizer build (ORACLES=0, tests/lib.sh) f2fs-tools' verdicts on
# the cut images (the same bytes as the normal build's) are left to the
# normal build; our repair and check still run at every cut.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/fsck/common.sh"
require "$INJECT" "$DUMP" "$FSCK_ORACLE" "$SLOAD" "$SLOAD_ORACLE" "$MKFS_ORACLE"
. "$top_srcdir/tests/fsck/cases-lib.sh"

CASES=${WRITECUT_CASES:-trunc-file,nat-leak,nat-owner,nat-shared,ino-links,ino-blocks,dent-hash,dent-ftype,sec-count,sec-typemix,sit-extrabit,cp-vblocks,ssa-nid,sb-magic1,cp-natbitsfull,dent-ino,lpf-dir,sec-sload-mix,sec-datamove,ino-xattr-addrs,sb-both-bad,cp-crc-both,cp-newest-largenat,cp-sitbitmap,cp-startsum-off,sb-cp-disagree,nat-lostbig,nat-lostdn,ino-links-gone2}

codes_of() {
	run_fsck "$1"
	grep '^F2FS-' "$OUT" | grep -v ' info: ' | cut -d' ' -f1 | sort -u
}

LOSE_CASES=${LOSE_CASES:-nat-leak,sec-count,sb-magic1,lpf-dir}
ncuts=0
npre=0
nrep=0
nsub=0
nlost=0

# judge ID N TOTAL WHAT: the cut image $IMG is as before the repair or
# repaired, for both checkers.
judge() {
	now=$(codes_of "$IMG")
	orc=
	[ "$ORACLES" = 0 ] || orc=$(oracle_verdict "$IMG")
	if [ -z "$now" ]; then
		nrep=$((nrep + 1))
		[ "$ORACLES" = 0 ] || [ "$orc" = clean ] || fail "$1: $4 $2/$3: ours clean, f2fs-tools $orc"
	else
		new=$(comm -13 <(echo "$pre") <(echo "$now"))
		[ -z "$new" ] || fail "$1: $4 $2/$3: new problems $new"
		[ "$ORACLES" = 0 ] || [ "$orc" = "$pre_oracle" ] || [ "$orc" = clean ] ||
			fail "$1: $4 $2/$3: f2fs-tools says $orc, before the repair $pre_oracle"
		if [ "$now" = "$pre" ]; then npre=$((npre + 1)); else nsub=$((nsub + 1)); fi
	fi
}

# lose_more ID N TOTAL: the cut after write N, losing unflushed writes too.
lose_more() {
	local keep sum_cut last=$now
	sum_cut=$(img_sum "$IMG")
	for keep in 1 4; do
		cp --sparse=always "$WORK/pre.img" "$IMG"
		run_fsck "$IMG" -y --write-limit $2 --lose-writes $(printf '0x%x' $(((-1) << keep)))
		if [ "$(img_sum "$IMG")" != "$sum_cut" ]; then
			nlost=$((nlost + 1))
			judge "$1" $2 "$3" "cut (unflushed writes lost but the newest $keep) after write"
		fi
	done
	now=$last
}
# after_cut N: judge the cut after write N of case $id ($total writes).
after_cut() {
	ncuts=$((ncuts + 1))
	judge "$id" $1 "$total" "cut after write"
	case ",$LOSE_CASES," in *",$id,"*) lose_more "$id" $1 "$total" ;; esac
	return 0
}
oracle_note "f2fs-tools' verdict on each cut image"
while IFS='|' read -r id bname cmd expect verdict note; do
	bname=$(echo $bname)
	if ! make_case "$bname" "$cmd"; then
		fail "$id: $(head -2 "$WORK/inject.err")"
		continue
	fi
	nfail_before=$nfail
	cp --sparse=always "$IMG" "$WORK/pre.img"
	pre=$(codes_of "$WORK/pre.img")
	pre_oracle=
	[ "$ORACLES" = 0 ] || pre_oracle=$(oracle_verdict "$WORK/pre.img")
	run_fsck "$WORK/pre.img" -y --dry-run
	total=$(sed -n 's/.*(\([0-9]*\) writes).*/\1/p' "$ERR" | tail -1)
	if [ -z "$total" ] || [ "$total" -lt 1 ]; then
		fail "$id: no write count from --dry-run: $(tail -2 "$ERR")"
		continue
	fi
	cut_each_write "$WORK/pre.img" "$total" : after_cut
	[ -z "$now" ] || fail "$id: not repaired after all $total writes: $now"
	[ $nfail = $nfail_before ] && pass "$id ($total writes)"
done < <(read_table)
echo "$TEST_NAME: $ncuts cuts and $nlost more losing unflushed writes: $npre as before, $nsub with fewer old problems (summary entries or a superblock copy written), $nrep repaired"
[ $ncuts -gt 0 ] || fail "no cut ran"
finish
