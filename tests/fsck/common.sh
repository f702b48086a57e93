# tests/fsck/common.sh: helpers shared by the fsck.f2fs shell tests.
#
# Sourced by the tests in this directory, after tests/lib.sh (tools,
# scratch directory, counts, hard errors).  It owns: requiring the tools,
# running our fsck under a time limit while watching for sanitizer
# reports, and reading inode numbers and block addresses out of an image.
#
# Environment: FSCK_F2FS, MKFS_F2FS, INJECT_F2FS, DUMP_F2FS, SLOAD_F2FS,
# FSCK_ORACLE, MKFS_ORACLE, SLOAD_ORACLE override the tools; KEEP_WORK=1 keeps the
# scratch directory; VERBOSE=1 prints every check; REGENERATE=1 rewrites
# the goldens (below) instead of comparing with them.

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"
FSCK_TIMEOUT=${FSCK_TIMEOUT:-120}
SLOAD=${SLOAD_F2FS:-$top_builddir/sload/sload.f2fs}
PASS_QUIET=1

require() {
	for tool in "$@"; do
		[ -x "$tool" ] || hard_error "$tool is missing (build it, or apt-get install f2fs-tools for the oracles)"
	done
}

require "$FSCK" "$MKFS"
require_commands truncate timeout cksum od dd
make_scratch fsck

# run_fsck IMG [options...]: our fsck with a time limit; sets RC, OUT
# (stdout file) and ERR (stderr file).  A hang (124), a crash (>= 128) or
# a sanitizer report is recorded as a failure here, whatever the caller
# expects.
run_fsck() {
	local img=$1
	shift
	OUT=$WORK/fsck.out
	ERR=$WORK/fsck.err
	timeout "$FSCK_TIMEOUT" "$FSCK" "$@" "$img" >"$OUT" 2>"$ERR" </dev/null
	RC=$?
	if [ $RC -ge 124 ]; then
		fail "fsck.f2fs $* $(basename "$img"): hang or crash (exit $RC): $(tail -3 "$ERR")"
	elif grep -qE "runtime error|AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer" "$ERR"; then
		fail "fsck.f2fs $* $(basename "$img"): sanitizer report: $(grep -m1 -E 'runtime error|Sanitizer' "$ERR")"
	fi
}

# Goldens: tests/fsck/expect/NAME.1 and NAME.2, whole outputs of our
# fsck (a -y run and the check after it) that the tests compare byte for
# byte, as e2fsprogs' tests compare expect.1 and expect.2; coverage.sh
# checks the problem table against them.  REGENERATE=1 writes them from
# the runs instead of comparing (review with git diff before committing).
GOLDENS=$top_srcdir/tests/fsck/expect

# golden_text [PATH NAME]...: the last run_fsck's output as a golden holds
# it: stdout, then stderr with each line prefixed "stderr: ", then
# "exit N"; the scratch directory's path is removed and each PATH given
# becomes NAME (a device node, say), so the text is the same on every
# machine and run.
golden_text() {
	local sub="s|$WORK/||g"
	while [ $# -ge 2 ]; do
		sub="$sub; s|$1|$2|g"
		shift 2
	done
	sed "$sub" "$OUT"
	sed "$sub; s/^/stderr: /" "$ERR"
	echo "exit $RC"
}

# check_golden NAME N HOW [PATH NAME]...: the last run's output equals
# expect/NAME.N (with REGENERATE=1 it is written there instead); a
# difference fails with a unified diff, a missing golden says to make it
# as HOW says.
check_golden() {
	local name=$1 n=$2 how=$3 want=$GOLDENS/$1.$2 got=$WORK/golden.out
	shift 3
	golden_text "$@" >"$got"
	if [ "${REGENERATE:-0}" = 1 ]; then
		cp "$got" "$want" || fail "$name: cannot write $want"
		return
	fi
	if [ ! -f "$want" ]; then
		fail "$name: no golden tests/fsck/expect/$name.$n: make it with $how, and review it"
		return
	fi
	diff -u --label "expect/$name.$n" --label "output" "$want" "$got" >"$WORK/golden.diff" && return
	fail "$name: the output differs from tests/fsck/expect/$name.$n:"
	cat "$WORK/golden.diff"
}

# repaired_key: one word naming by content everything a repaired case
# image comes from (our tools, f2fs-tools' that make bases, the case
# table and the scripts that build and repair the cases): repair.sh
# writes it next to the images it leaves for kernel-repair.sh
# (REPAIRED_SHARE), which mounts them only when the key is still the same.
repaired_key() {
	cat "$FSCK" "$MKFS" "$INJECT" "$DUMP" "$SLOAD" "${UNDO_F2FS:-$top_builddir/undo/undo.f2fs}" \
		"$FSCK_ORACLE" "$MKFS_ORACLE" "$SLOAD_ORACLE" \
		"$top_srcdir/tests/lib.sh" "$top_srcdir/tests/fsck/common.sh" \
		"$top_srcdir/tests/fsck/cases.txt" "$top_srcdir/tests/fsck/cases-lib.sh" \
		"$top_srcdir/tests/fsck/repair.sh" "$top_srcdir/tests/fuzz/fz_bases.py" \
		"$top_srcdir/tests/fuzz/fz_tools.py" | cksum | tr ' ' ':'
}

# oracle_verdict IMG: "clean" or "corrupt" by f2fs-tools' fsck --dry-run.
oracle_verdict() {
	timeout "$FSCK_TIMEOUT" "$FSCK_ORACLE" --dry-run "$1" </dev/null >"$WORK/oracle.out" 2>&1
	if [ $? -eq 0 ]; then echo clean; else echo corrupt; fi
}

# ino_of IMG PATH: inode number of a path (from our fsck -t).
ino_of() {
	"$FSCK" -t "$1" 2>/dev/null | awk -F'\t' -v p="$2" '$2 == p { print $1; exit }'
}

# dump_field IMG INO FIELD: a numeric field of dump.f2fs -i (decimal).
dump_field() {
	"$DUMP" -i "$2" "$1" 2>/dev/null | awk -v f="$3" '$1 == f { gsub(/[]:[]/, " "); print $NF; exit }'
}

# data_blk IMG INO [N]: block address of the N-th data run start (from -M).
data_blk() {
	local v
	v=$("$DUMP" -i "$2" -M "$1" 2>/dev/null |
		awk -v n="${3:-1}" '/^-- data blocks/ { d = 1; next } /^-- node/ { d = 0 }
			d && $1 ~ /^[0-9]+$/ { if (++k == n) { print $2; exit } }')
	[ -n "$v" ] && echo $((v))
}

# node_of IMG INO N: nid of the N-th node block of an inode (from -M).
node_of() {
	"$DUMP" -i "$2" -M "$1" 2>/dev/null |
		awk -v n="${3:-1}" '/^-- node blocks/ { d = 1; next } d && $1 ~ /^[0-9]+$/ { if (++k == n) { print $1; exit } }'
}

# cp_field IMG NAME: a checkpoint field from our fsck -l.
cp_field() {
	"$FSCK" -l "$1" 2>/dev/null | awk -F': *' -v f="$2" '{ k = $1; sub(/ +$/, "", k) } k == f { print $2; exit }'
}
