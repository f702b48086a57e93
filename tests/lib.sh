# tests/lib.sh: what every shell test of the project shares, sourced by
# the tests/*/common.sh files before their own helpers.
#
# Owns: the C locale; where the source and build trees are; the tools under
# test (MKFS_F2FS, FSCK_F2FS, DUMP_F2FS, INJECT_F2FS override them) and
# f2fs-tools' as oracles (FSCK_ORACLE, MKFS_ORACLE, DUMP_ORACLE,
# SLOAD_ORACLE); the test's name, its pass/fail counts and the closing
# "NAME: N passed, N failed" line; hard errors (exit 99: a missing tool
# fails a test, it never skips it); and the scratch directory (KEEP_WORK=1
# keeps it; whatever a test mounted at $WORK/mnt is unmounted first).
# PASS_QUIET=1 prints only failures unless VERBOSE=1.

LC_ALL=C
export LC_ALL

: "${top_builddir:=$(pwd)}"
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"

MKFS=${MKFS_F2FS:-$top_builddir/mkfs/mkfs.f2fs}
FSCK=${FSCK_F2FS:-$top_builddir/fsck/fsck.f2fs}
DUMP=${DUMP_F2FS:-$top_builddir/dump/dump.f2fs}
INJECT=${INJECT_F2FS:-$top_builddir/inject/inject.f2fs}
FSCK_ORACLE=${FSCK_ORACLE:-/usr/sbin/fsck.f2fs}
MKFS_ORACLE=${MKFS_ORACLE:-/usr/sbin/mkfs.f2fs}
DUMP_ORACLE=${DUMP_ORACLE:-/usr/sbin/dump.f2fs}
SLOAD_ORACLE=${SLOAD_ORACLE:-/usr/sbin/sload.f2fs}

TEST_NAME=$(basename "$0" .sh)
npass=0
nfail=0
WORK=

hard_error() {
	echo "ERROR: $TEST_NAME: $*" >&2
	exit 99
}

# require_built TOOL...: our tools, built in this tree.
require_built() {
	for tool in "$@"; do
		[ -x "$tool" ] || hard_error "$tool not built"
	done
}

# require_oracles TOOL...: f2fs-tools' programs.
require_oracles() {
	for tool in "$@"; do
		[ -x "$tool" ] || hard_error "f2fs-tools oracle $tool missing (apt-get install f2fs-tools)"
	done
}

# require_commands NAME...: programs found on PATH.
require_commands() {
	for tool in "$@"; do
		command -v "$tool" >/dev/null || hard_error "$tool not found"
	done
}

lib_cleanup() {
	[ -n "$WORK" ] || return 0
	mountpoint -q "$WORK/mnt" 2>/dev/null && umount "$WORK/mnt"
	if [ "${KEEP_WORK:-0}" = 1 ]; then
		echo "kept $WORK"
	else
		rm -rf "$WORK"
	fi
}

# the name tests' own EXIT traps call (tests/mkfs/common.sh defines its own)
cleanup() { lib_cleanup; }

# make_scratch PREFIX: the scratch directory $WORK, removed at exit.
make_scratch() {
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/$1-$TEST_NAME.XXXXXX") || hard_error "mktemp"
	trap lib_cleanup EXIT
}

pass() {
	npass=$((npass + 1))
	[ "${PASS_QUIET:-0}" = 1 ] && [ "${VERBOSE:-0}" != 1 ] && return 0
	echo "ok - $*"
}

fail() {
	nfail=$((nfail + 1))
	echo "FAIL - $*"
}

finish() {
	echo "$TEST_NAME: $npass passed, $nfail failed"
	[ "$nfail" -eq 0 ]
	exit $?
}
