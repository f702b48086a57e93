# tests/fsck/common.sh: helpers shared by the fsck.f2fs shell tests.
#
# Sourced by the tests in this directory.  It owns: finding the tools (our
# fsck.f2fs, mkfs.f2fs, inject.f2fs and dump.f2fs in the build tree;
# f2fs-tools' fsck, mkfs and sload as oracles — a missing one is a hard
# error, exit 99), the scratch directory, running our fsck under a time
# limit while watching for sanitizer reports, and reading inode numbers
# and block addresses out of an image.
#
# Environment: FSCK_F2FS, MKFS_F2FS, INJECT_F2FS, DUMP_F2FS, FSCK_ORACLE,
# MKFS_ORACLE, SLOAD_ORACLE override the tools; KEEP_WORK=1 keeps the
# scratch directory; VERBOSE=1 prints every check.

LC_ALL=C
export LC_ALL

: "${top_builddir:=$(pwd)}"
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"

FSCK=${FSCK_F2FS:-$top_builddir/fsck/fsck.f2fs}
MKFS=${MKFS_F2FS:-$top_builddir/mkfs/mkfs.f2fs}
INJECT=${INJECT_F2FS:-$top_builddir/fsck/inject.f2fs}
DUMP=${DUMP_F2FS:-$top_builddir/fsck/dump.f2fs}
FSCK_ORACLE=${FSCK_ORACLE:-/usr/sbin/fsck.f2fs}
MKFS_ORACLE=${MKFS_ORACLE:-/usr/sbin/mkfs.f2fs}
SLOAD_ORACLE=${SLOAD_ORACLE:-/usr/sbin/sload.f2fs}
FSCK_TIMEOUT=${FSCK_TIMEOUT:-120}

TEST_NAME=$(basename "$0" .sh)
npass=0
nfail=0

hard_error() {
	echo "ERROR: $TEST_NAME: $*" >&2
	exit 99
}

require() {
	for tool in "$@"; do
		[ -x "$tool" ] || hard_error "$tool is missing (build it, or apt-get install f2fs-tools for the oracles)"
	done
}

require "$FSCK" "$MKFS"
for tool in truncate timeout cksum od dd; do
	command -v $tool >/dev/null || hard_error "$tool not found"
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/fsck-$TEST_NAME.XXXXXX") || hard_error "mktemp"
cleanup() {
	# a test that mounts something mounts it at $WORK/mnt
	mountpoint -q "$WORK/mnt" 2>/dev/null && umount "$WORK/mnt"
	if [ "${KEEP_WORK:-0}" = 1 ]; then
		echo "kept $WORK"
	else
		rm -rf "$WORK"
	fi
}
trap cleanup EXIT

pass() { npass=$((npass + 1)); [ "${VERBOSE:-0}" = 1 ] && echo "ok - $*"; return 0; }
fail() { nfail=$((nfail + 1)); echo "FAIL - $*"; }

finish() {
	echo "$TEST_NAME: $npass passed, $nfail failed"
	[ "$nfail" -eq 0 ]
	exit $?
}

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
