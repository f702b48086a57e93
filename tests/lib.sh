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
# Also both_fscks_clean, the check that both tools find an image clean,
# and same_tree, the check that dump.f2fs -r gives a loaded tree back.

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

# python3 found through a version manager's shim (pyenv's is a shell
# script: about a second a call on the CI machines, where the tests call
# Python some thousands of times) is the same interpreter started
# directly.  It is asked once per build tree where it is, and a link to it
# in $top_builddir/tests/.python goes first on PATH.
use_direct_python() {
	udp_dir=$top_builddir/tests/.python
	if [ ! -x "$udp_dir/python3" ]; then
		udp_exe=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) || return 0
		[ -x "$udp_exe" ] || return 0
		mkdir -p "$udp_dir" 2>/dev/null && ln -sf "$udp_exe" "$udp_dir/python3.$$" &&
			mv -f "$udp_dir/python3.$$" "$udp_dir/python3" || return 0
	fi
	PATH=$udp_dir:$PATH
	export PATH
}
command -v python3 >/dev/null && use_direct_python

# ORACLES: 1, or 0 under SANITIZER_BUILD=1 (make check in a build
# configured with --enable-sanitizers sets it; Makefile.am).  That build
# exists to run our binaries under ASan and UBSan, over the same inputs
# as the normal build; a step that only asks an oracle about those inputs
# (f2fs-tools' verdict on an image our tools made byte for byte alike,
# a comparison of two of our outputs the normal build already made) is
# left to the normal build when ORACLES is 0, and oracle_note says so
# in the log.  Run by hand, a test takes every step.
ORACLES=1
[ "${SANITIZER_BUILD:-0}" = 1 ] && ORACLES=0

# oracle_note WHAT: in the sanitizer build, a log line saying that WHAT
# is left to the normal build.
oracle_note() {
	[ "$ORACLES" = 1 ] || echo "$TEST_NAME: sanitizer build (SANITIZER_BUILD=1): $* left to the normal build"
}
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

# img_sum FILE...: one word, a checksum of the files' content that reads
# only their data extents: every 4 KiB block holding a non-zero byte, keyed
# by its offset (a hole and a block of zeroes count the same: where a file
# system reports extents of zeroes as data or as holes changes with its
# writeback, and must not count), then each file's emulated zone model
# (FILE.zones) when there is one, then the first file's size.  Comparing
# multi-GiB sparse images costs almost nothing.  Plain cksum of the files
# when python3 is missing.
img_sum() {
	if ! command -v python3 > /dev/null; then
		cat "$@" | cksum | tr ' ' ':'
		return
	fi
	python3 - "$@" <<'PY'
import hashlib, os, sys
h = hashlib.sha1()
for n, path in enumerate(sys.argv[1:]):
    h.update(b'file %d' % n)
    fd = os.open(path, os.O_RDONLY)
    end = os.fstat(fd).st_size
    off = 0
    while off < end:
        try:
            off = os.lseek(fd, off, os.SEEK_DATA)
        except OSError:
            break
        stop = os.lseek(fd, off, os.SEEK_HOLE)
        off -= off % 4096
        while off < stop:
            b = os.pread(fd, min(1 << 20, stop - off), off)
            if not b:
                off = stop
                break
            for k in range(0, len(b), 4096):
                blk = b[k:k + 4096]
                if blk.count(0) != len(blk):
                    h.update((off + k).to_bytes(8, 'little') + blk)
            off += len(b)
    os.close(fd)
    if os.path.exists(path + '.zones'):
        h.update(open(path + '.zones', 'rb').read())
print('%s:%d' % (h.hexdigest(), os.path.getsize(sys.argv[1])))
PY
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

# both_fscks_clean IMG LABEL: our fsck and f2fs-tools' find nothing on IMG
# (f2fs-tools' --dry-run writes nothing, so it runs on IMG itself rather
# than on a copy).  Leaves $WORK/fsck.log and $WORK/ofsck.txt.
both_fscks_clean() {
	if "$FSCK" "$1" > "$WORK/fsck.log" 2>&1; then
		pass "$2: our fsck clean"
	else
		fail "$2: our fsck: $(grep -m 3 F2FS- "$WORK/fsck.log")"
	fi
	rc=0
	"$FSCK_ORACLE" --dry-run "$1" < /dev/null > "$WORK/ofsck.log" 2>&1 || rc=$?
	tr '\r' '\n' < "$WORK/ofsck.log" > "$WORK/ofsck.txt"
	if [ $rc -eq 0 ] && ! grep -q '\[Fail\]' "$WORK/ofsck.txt"; then
		pass "$2: f2fs-tools fsck clean"
	else
		fail "$2: f2fs-tools fsck --dry-run exit $rc: $(grep -m 3 -E 'Fail|rror' "$WORK/ofsck.txt")"
	fi
}

# same_tree IMG LABEL [MANIFEST_OPTS]: dump.f2fs -r gives the source back
# ($MANIFEST, tests/sload/manifest.c, compared with $WORK/src.man).
same_tree() {
	rm -rf "$WORK/out"
	if ! "$DUMP" -r -o "$WORK/out" -P -L "$1" > "$WORK/dump.log" 2>&1; then
		fail "$2: dump.f2fs -r: $(tail -n 2 "$WORK/dump.log")"
		return
	fi
	"$MANIFEST" -d -i $3 "$WORK/out" > "$WORK/img.man"
	if diff "$WORK/src.man" "$WORK/img.man" > "$WORK/man.diff"; then
		pass "$2: the tree reads back entry by entry"
	else
		fail "$2: the tree differs"
		head -n 10 "$WORK/man.diff" | cut -c 1-200 | sed 's/^/    /'
	fi
	rm -rf "$WORK/out"
}
