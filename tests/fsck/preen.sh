#!/bin/bash
# tests/fsck/preen.sh: preen mode (-a, -p) as boot scripts use it.
#
# Without -f and without a request from the kernel (CP_FSCK_FLAG,
# CP_QUOTA_NEED_FSCK_FLAG, errors or stop reasons recorded in the
# superblock), preen checks only what the kernel validates at mount (after
# an unclean shutdown, also the roll-forward chain it will replay) and
# exits 0 without writing, even on a volume damaged deeper down: the
# regression of issue 12 is a volume whose NAT entry for a 3 MiB file was
# zeroed, where -a dropped the file's name.  With -f, or when
# the kernel asked, the full check runs and preen fixes only what loses
# nothing a user can see; anything else stops it with exit 4 and nothing
# written.  The table's preen-safe set is checked through --list-problems.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/fsck/common.sh"
require "$INJECT" "$DUMP" "$SLOAD_ORACLE"

SRC=$WORK/src
mkdir -p "$SRC/d"
head -c 3145728 /dev/urandom >"$SRC/three"
echo small >"$SRC/d/small"
GOOD=$WORK/good.img
truncate -s 256M "$GOOD"
"$MKFS" -f -q -O extra_attr,inode_checksum,sb_checksum "$GOOD" >/dev/null 2>&1 || hard_error mkfs
# f2fs-tools' sload (the oracle set): the unclean-shutdown checks below clear
# CP_UMOUNT_FLAG of its normal checkpoint pack; ours writes a compacted
# pack, whose layout implies the flag, so clearing it would be damage
"$SLOAD_ORACLE" -f "$SRC" "$GOOD" >/dev/null 2>&1
run_fsck "$GOOD"
[ "$RC" = 0 ] || hard_error "the base image is not clean: $(head -3 "$OUT")"
THREE=$(ino_of "$GOOD" /three)
[ -n "$THREE" ] || hard_error "no /three in the base image"
FLAGS=$(cp_field "$GOOD" ckpt_flags)
[ -n "$FLAGS" ] || hard_error "no ckpt_flags from fsck -l"

inj() { "$INJECT" "$@" "$IMG" >/dev/null 2>&1 || hard_error "inject $*"; }
fresh() { IMG=$WORK/$1.img; cp --sparse=always "$GOOD" "$IMG"; }
sum() { img_sum "$IMG"; }

# --- the regression: the 3 MiB file's NAT entry zeroed, no kernel flag ---
fresh natzero
inj --nat 0 --nid "$THREE" --mb block_addr --val 0
inj --nat 0 --nid "$THREE" --mb ino --val 0
run_fsck "$IMG"
[ "$RC" = 4 ] || hard_error "the zeroed NAT entry is not found: $(head -3 "$OUT")"
before=$(sum)
for mode in -a -p "-p 0" "-p 1" "-a -c 10000 --debug-cache"; do
	run_fsck "$IMG" $mode
	[ "$RC" = 0 ] || fail "natzero: '$mode' exit $RC, expected 0 (the kernel asked for nothing)"
	grep -q "clean: the kernel has not asked for a check" "$OUT" ||
		fail "natzero: '$mode' did not say it stopped after the mount checks: $(head -2 "$OUT")"
	grep -q "^F2FS-" "$OUT" && fail "natzero: '$mode' listed problems on the fast path"
	[ "$(sum)" = "$before" ] && pass "natzero: '$mode' leaves it alone" || fail "natzero: '$mode' wrote"
done
# -f: the full check.  Preen may restore what loses nothing (the entry
# pointed back at the intact inode) or must stop with exit 4 and write
# nothing; it never drops the name.
three_intact() {
	rm -rf "$WORK/x" && mkdir "$WORK/x" &&
		"$DUMP" -r -o "$WORK/x" "$IMG" >/dev/null 2>&1 && cmp -s "$WORK/x/three" "$SRC/three"
}
for mode in "-a -f" "-f -a" "-p -f"; do
	nfail_before=$nfail
	cp --sparse=always "$IMG" "$WORK/try.img"
	run_fsck "$WORK/try.img" $mode
	case $RC in
	4)
		grep -q "not safe to fix unattended" "$ERR" || fail "natzero: '$mode' did not say why it stopped"
		[ "$(img_sum "$WORK/try.img")" = "$before" ] || fail "natzero: '$mode' exit 4 but wrote" ;;
	1)
		IMG_SAVED=$IMG IMG=$WORK/try.img
		three_intact || fail "natzero: '$mode' repaired, but /three does not read back as written"
		IMG=$IMG_SAVED ;;
	*) fail "natzero: '$mode' exit $RC" ;;
	esac
	grep -q "^F2FS-" "$OUT" || fail "natzero: '$mode' reported nothing"
	[ $nfail = $nfail_before ] && pass "natzero: '$mode' keeps the name (exit $RC)"
done
# the same volume when the kernel asked for a check: the full check runs,
# and still nothing is dropped unattended
inj --cp 0 --mb ckpt_flags --val $((FLAGS | 0x10))
before=$(sum)
run_fsck "$IMG" -a
if [ "$RC" = 4 ]; then
	[ "$(sum)" = "$before" ] && pass "natzero with CP_FSCK_FLAG: full check, refused, nothing written" ||
		fail "natzero with CP_FSCK_FLAG: exit 4 but wrote"
elif [ "$RC" = 1 ]; then
	three_intact && pass "natzero with CP_FSCK_FLAG: restored without loss" ||
		fail "natzero with CP_FSCK_FLAG: repaired, but /three does not read back as written"
else
	fail "natzero with CP_FSCK_FLAG: -a exit $RC"
fi
grep -q "clean: the kernel has not asked" "$OUT" && fail "natzero with CP_FSCK_FLAG: fast path"
run_fsck "$IMG" -y
[ "$RC" = 1 ] || [ "$RC" = 0 ] && pass "natzero: -y repairs" || fail "natzero: -y exit $RC"

# --- a clean volume the kernel asked to check: preen runs the full check
# and writes the checkpoint without the request (exit 1), then is clean ---
fresh req-fsck
inj --cp 0 --mb ckpt_flags --val $((FLAGS | 0x10))
run_fsck "$IMG" -a
[ "$RC" = 1 ] || fail "CP_FSCK_FLAG: -a exit $RC, expected 1 (the request is cleared)"
grep -q "clean: the kernel has not asked" "$OUT" && fail "CP_FSCK_FLAG: -a took the fast path"
sum1=$(sum)
run_fsck "$IMG" -a
[ "$RC" = 0 ] && [ "$(sum)" = "$sum1" ] && grep -q "clean: the kernel has not asked" "$OUT" &&
	pass "CP_FSCK_FLAG: answered once, then the fast path" || fail "CP_FSCK_FLAG: second -a exit $RC"
# the quota request on a volume without quota_ino: the quota files cannot
# be checked, so the request stays, every preen runs the full check, and
# none writes (a checkpoint that keeps the request would be rewritten by
# every run)
fresh req-quota
inj --cp 0 --mb ckpt_flags --val $((FLAGS | 0x800))
sum1=$(sum)
for i in 1 2; do
	run_fsck "$IMG" -a
	[ "$RC" = 0 ] && [ "$(sum)" = "$sum1" ] && ! grep -q "clean: the kernel has not asked" "$OUT" &&
		pass "CP_QUOTA_NEED_FSCK_FLAG without quota_ino: full check $i, nothing written" ||
		fail "CP_QUOTA_NEED_FSCK_FLAG without quota_ino: run $i exit $RC"
done
run_fsck "$IMG" -y
[ "$RC" = 0 ] && [ "$(sum)" = "$sum1" ] && pass "CP_QUOTA_NEED_FSCK_FLAG without quota_ino: -y writes nothing" ||
	fail "CP_QUOTA_NEED_FSCK_FLAG without quota_ino: -y exit $RC"

# --- errors recorded by the kernel in the superblock: full check ---
fresh sberrors
inj --sb 1 --mb s_errors --idx 0 --val 4
inj --sb 2 --mb s_errors --idx 0 --val 4
run_fsck "$IMG" -p
[ "$RC" = 1 ] && grep -q "^F2FS-1008 " "$OUT" && pass "s_errors: -p checks and clears them" ||
	fail "s_errors: -p exit $RC: $(grep '^F2FS' "$OUT" | head -2)"

# --- a shutdown someone asked for (F2FS_IOC_SHUTDOWN) is counted in the
# superblock but asks for no check: the fast path, nothing written ---
fresh sbshutdown
inj --sb 1 --mb s_stop_reason --idx 0 --val 1
inj --sb 2 --mb s_stop_reason --idx 0 --val 1
sum1=$(sum)
run_fsck "$IMG" -a
[ "$RC" = 0 ] && [ "$(sum)" = "$sum1" ] && grep -q "clean: the kernel has not asked" "$OUT" &&
	pass "shutdown stop reason: -a takes the fast path, writes nothing" ||
	fail "shutdown stop reason: -a exit $RC: $(grep '^F2FS\|clean' "$OUT" | head -2)"

# --- an unclean shutdown: the fast path walks the roll-forward chain the
# kernel will replay (node blocks from the warm node log's write position
# whose footers carry the checkpoint's version) and stops only when the
# kernel's recovery would go through: no loop, no block the checkpoint
# keeps live, no new inode whose NAT entry is in use ---
CPVER=$(cp_field "$GOOD" checkpoint_ver)
MAIN=$(cp_field "$GOOD" main_blkaddr)
WSEG=$(cp_field "$GOOD" 'cur_node_segno[1]')
WOFF=$(cp_field "$GOOD" 'cur_node_blkoff[1]')
[ -n "$CPVER" ] && [ -n "$MAIN" ] && [ -n "$WSEG" ] && [ -n "$WOFF" ] || hard_error "checkpoint fields from fsck -l"
CHAIN=$((MAIN + ${WSEG%% *} * 512 + ${WOFF%% *}))
# put_le BLK OFFSET BYTES VALUE: a little-endian value into a block
put_le() {
	local i
	for ((i = 0; i < $3; i++)); do
		inj --blk "$1" --mb raw --idx $(($2 + i)) --val $((($4 >> (8 * i)) & 255))
	done
}
# chain_node BLK NID INO FLAG NEXT: a node footer of this checkpoint's chain
chain_node() {
	put_le "$1" 4072 4 "$2"
	put_le "$1" 4076 4 "$3"
	put_le "$1" 4080 4 "$4"
	put_le "$1" 4084 8 "$CPVER"
	put_le "$1" 4092 4 "$5"
}
unclean() {
	fresh "$1"
	inj --cp 0 --mb ckpt_flags --val $((FLAGS & ~1))
}
unclean unclean-nochain
run_fsck "$IMG" -a
grep -q "clean: the kernel has not asked" "$OUT" && [ "$RC" = 0 ] &&
	pass "unclean shutdown, no chain: the fast path" || fail "unclean, no chain: exit $RC: $(head -2 "$OUT")"
unclean unclean-chain
chain_node $CHAIN 7000 7000 0 $((CHAIN + 1))
chain_node $((CHAIN + 1)) 7001 7000 0 0
before=$(sum)
run_fsck "$IMG" -a
grep -q "clean: the kernel has not asked" "$OUT" && [ "$RC" = 0 ] && [ "$(sum)" = "$before" ] &&
	pass "unclean shutdown, a chain the kernel replays: the fast path" ||
	fail "unclean, chain: exit $RC: $(head -2 "$OUT")"
unclean unclean-loop
chain_node $CHAIN 7000 7000 0 $((CHAIN + 1))
chain_node $((CHAIN + 1)) 7001 7000 0 $CHAIN
run_fsck "$IMG" -a
! grep -q "clean: the kernel has not asked" "$OUT" && grep -q "^F2FS-8001 " "$OUT" && [ "$RC" = 4 ] &&
	pass "unclean shutdown, a looping chain: the full check (8001, exit 4)" ||
	fail "unclean, loop: exit $RC: $(head -3 "$OUT")"
unclean unclean-newino
chain_node $CHAIN "$THREE" "$THREE" 6 0
run_fsck "$IMG" -a
! grep -q "clean: the kernel has not asked" "$OUT" && grep -q "^F2FS-8002 " "$OUT" && [ "$RC" = 4 ] &&
	pass "unclean shutdown, a new inode already in NAT: the full check (8002, exit 4)" ||
	fail "unclean, new inode in NAT: exit $RC: $(head -3 "$OUT")"

# images the kernel wrote (tests/kernel), clean or cut by a power cut
# with a roll-forward chain: the fast path on every one, nothing written
KIMAGES=${KERNEL_IMAGES:-$top_builddir/tests/kernel/images}
if [ -f "$KIMAGES/index" ]; then
	while read -r name nature desc; do
		case "$name" in ''|'#'*) continue ;; esac
		[ -f "$KIMAGES/$name.img" ] || { fail "kernel image $name listed but missing"; continue; }
		IMG=$WORK/k.img
		cp --sparse=always "$KIMAGES/$name.img" "$IMG"
		before=$(sum)
		run_fsck "$IMG" -a
		[ "$RC" = 0 ] && grep -q "clean: the kernel has not asked" "$OUT" && [ "$(sum)" = "$before" ] &&
			pass "kernel image $name ($nature): the fast path" ||
			fail "kernel image $name ($nature): -a exit $RC: $(head -2 "$OUT")"
	done <"$KIMAGES/index"
else
	echo "note: no kernel images ($KIMAGES/index); run the kernel interop tests first to include them"
fi

# --- what the kernel refuses at mount is never waved through ---
fresh cursegbit
HOTDATA=$(cp_field "$GOOD" 'cur_data_segno[0]')
HOTDATA=${HOTDATA%% *}
inj --sit 0 --segno "$HOTDATA" --mb valid_map_bit --idx 500 --val 1
run_fsck "$IMG" -a
[ "$RC" = 0 ] && fail "valid block after a log's write position: -a exit 0" ||
	pass "valid block after a log's write position: the full check runs (exit $RC)"
grep -q "clean: the kernel has not asked" "$OUT" && fail "cursegbit: -a took the fast path"
fresh sbcopy
inj --sb 2 --mb magic --val 0
run_fsck "$IMG" -a
[ "$RC" = 1 ] && grep -q "^F2FS-1001 " "$OUT" && pass "a bad superblock copy: -a repairs it" ||
	fail "a bad superblock copy: -a exit $RC: $(head -2 "$OUT")"
fresh cpcrc
inj --no-fix-checksum --cp 1 --mb crc --val 1
run_fsck "$IMG" -a
[ "$RC" != 0 ] || grep -q "^F2FS-10" "$OUT" && pass "a damaged checkpoint pack: seen by -a (exit $RC)" ||
	fail "a damaged checkpoint pack: -a exit 0 without a word"

# --- --dry-run with preen computes the full repair ---
fresh dry
inj --node --mb i_links --nid "$THREE" --val 9
before=$(sum)
run_fsck "$IMG" -a --dry-run
[ "$RC" = 4 ] && [ "$(sum)" = "$before" ] && grep -q "^F2FS-4013 " "$OUT" &&
	pass "-a --dry-run: full check, nothing written" || fail "-a --dry-run: exit $RC"

# --- JSON on the fast path ---
run_fsck "$GOOD" -a --json
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["exit_code"] == 0 and d["full_check"] is False and d["mode"] == "preen", d
assert d["problems"] == [] and d["summary"]["problems"] == 0, d
' "$OUT" && pass "fast path JSON" || fail "fast path JSON: $(head -c 300 "$OUT")"

# --- preen opens the device read-only; only a repair reopens it to write ---
command -v strace >/dev/null || hard_error "strace not found (scripts/install-deps installs it)"
opens_of() {	# the open flags of every open of $IMG by fsck "$@"
	strace -f -qq -e trace=openat -o "$WORK/trace" "$FSCK" "$@" "$IMG" >/dev/null 2>&1 </dev/null
	grep -F "\"$IMG\"" "$WORK/trace" | grep -oE 'O_RDONLY|O_RDWR' | tr '\n' ' '
}
IMG=$GOOD
o=$(opens_of -a)
[ "$o" = "O_RDONLY " ] && pass "-a fast path opens read-only" || fail "-a fast path opens: '$o'"
fresh ro-links
inj --node --mb i_links --nid "$THREE" --val 9
o=$(opens_of -a -f)
[ "$o" = "O_RDONLY O_RDWR O_RDONLY " ] &&
	pass "-a -f: read-only check, then write access for the repair, read-only re-check" ||
	fail "-a -f repair opens: '$o'"
run_fsck "$IMG" -n
[ "$RC" = 0 ] && pass "-a -f repaired through the second open" || fail "-a -f left exit $RC"

# --- a log's entry in the current SIT block, under the SIT journal's entry
# (f2fs-tools' mkfs keeps the logs in the journal), with a count the kernel
# refuses at mount (build_sit_entries() checks the block's entry first):
# the fast path must not call it clean; preen rewrites the block ---
IMG=$WORK/sitshadow.img
truncate -s 256M "$IMG"
"$MKFS_ORACLE" -f -q "$IMG" >/dev/null 2>&1 || hard_error "f2fs-tools mkfs"
seg=$(cp_field "$IMG" 'cur_data_segno[0]' | awk '{ print $1 }')
inj --sit 1 --segno "$seg" --mb valid_blocks --val 3
inj --sit 2 --segno "$seg" --mb valid_blocks --val 3
run_fsck "$IMG" -a
[ "$RC" = 1 ] && grep -q "^F2FS-2006 " "$OUT" && ! grep -q "clean: the kernel has not asked" "$OUT" &&
	pass "a SIT block entry under the journal's: preen finds and fixes it (2006)" ||
	fail "SIT block entry under the journal's: -a exit $RC: $(head -2 "$OUT")"
run_fsck "$IMG" -a
[ "$RC" = 0 ] && pass "a SIT block entry under the journal's: clean after preen" ||
	fail "SIT block entry under the journal's: second -a exit $RC: $(head -2 "$OUT")"

# --- the preen-safe set: nothing that drops a name, a node or a block,
# clears a NAT entry or moves a file is preen-safe ---
"$FSCK" --list-problems >"$WORK/table" || fail "--list-problems"
awk -F'\t' '$4 == "preen" && $5 ~ /^(drop the |clear the NAT entry|reconnect)/ { print $1 " " $2 }' \
	"$WORK/table" >"$WORK/unsafe"
[ -s "$WORK/unsafe" ] && fail "preen-safe problems that lose what a user can see: $(tr '\n' ' ' <"$WORK/unsafe")" ||
	pass "the preen-safe set loses nothing a user can see"
for code in 5001 5002 5003 5009 5014 5015 3007 4035; do
	awk -F'\t' -v c=$code '$1 == c { exit $4 == "ask" ? 0 : 1 }' "$WORK/table" ||
		fail "problem $code is marked preen-safe"
done
finish
