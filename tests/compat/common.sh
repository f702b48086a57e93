# tests/compat/common.sh: helpers of the compatibility tests (our tools
# driven the way fstests and scripts written for f2fs-tools drive them).
#
# Owns: finding our four tools in the build tree and f2fs-tools' as
# oracles (a missing one is a hard error, exit 99), the scratch directory
# (KEEP_WORK=1 keeps it), pass/fail/finish, and making small images.

LC_ALL=C
export LC_ALL

: "${top_builddir:=$(pwd)}"
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"

MKFS=${MKFS_F2FS:-$top_builddir/mkfs/mkfs.f2fs}
FSCK=${FSCK_F2FS:-$top_builddir/fsck/fsck.f2fs}
DUMP=${DUMP_F2FS:-$top_builddir/fsck/dump.f2fs}
INJECT=${INJECT_F2FS:-$top_builddir/fsck/inject.f2fs}
FSCK_ORACLE=${FSCK_ORACLE:-/usr/sbin/fsck.f2fs}
DUMP_ORACLE=${DUMP_ORACLE:-/usr/sbin/dump.f2fs}
SLOAD_ORACLE=${SLOAD_ORACLE:-/usr/sbin/sload.f2fs}

TEST_NAME=$(basename "$0" .sh)
npass=0
nfail=0

hard_error() {
	echo "ERROR: $TEST_NAME: $*" >&2
	exit 99
}

for tool in "$MKFS" "$FSCK" "$DUMP" "$INJECT"; do
	[ -x "$tool" ] || hard_error "$tool not built"
done
for tool in "$FSCK_ORACLE" "$DUMP_ORACLE" "$SLOAD_ORACLE"; do
	[ -x "$tool" ] || hard_error "f2fs-tools oracle $tool missing (apt-get install f2fs-tools)"
done
for tool in python3 awk truncate timeout; do
	command -v $tool >/dev/null || hard_error "$tool not found"
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/compat-$TEST_NAME.XXXXXX") || hard_error "mktemp"
cleanup() {
	if [ "${KEEP_WORK:-0}" = 1 ]; then
		echo "kept $WORK"
	else
		rm -rf "$WORK"
	fi
}
trap cleanup EXIT

pass() { npass=$((npass + 1)); echo "ok - $*"; }
fail() { nfail=$((nfail + 1)); echo "FAIL - $*"; }
# check LABEL CMD...: pass when CMD succeeds
check() {
	label=$1
	shift
	if "$@"; then pass "$label"; else fail "$label"; fi
}

finish() {
	echo "$TEST_NAME: $npass passed, $nfail failed"
	[ "$nfail" -eq 0 ]
	exit $?
}

# new_image IMG SIZE [MKFS OPTIONS...]: a fresh volume made by our mkfs.
new_image() {
	img=$1 size=$2
	shift 2
	rm -f "$img"
	truncate -s "$size" "$img" || hard_error "truncate $img"
	"$MKFS" -f -q "$@" "$img" >"$WORK/mkfs.log" 2>&1 || hard_error "mkfs $*: $(head -1 "$WORK/mkfs.log")"
}

# sload_dir IMG DIR: copy DIR into IMG with f2fs-tools' sload.f2fs (it
# exits 1 after its own fsck summary; the image is checked instead).
sload_dir() {
	"$SLOAD_ORACLE" -f "$2" "$1" >"$WORK/sload.log" 2>&1
	"$FSCK" "$1" >/dev/null 2>&1 || hard_error "sload left $1 unclean"
}

# ino_of IMG NAME: the inode number of the (first) file called NAME, from
# our dump's i_name of inodes 4..63.
ino_of() {
	n=4
	while [ $n -lt 64 ]; do
		if [ "$("$DUMP" --json -i $n "$1" 2>/dev/null | python3 -c '
import json, sys
try:
    print(json.load(sys.stdin)["inode"]["i_name"])
except Exception:
    pass')" = "$2" ]; then
			echo $n
			return 0
		fi
		n=$((n + 1))
	done
	return 1
}
