# Host-side helpers shared by the kernel interop tests (sourced, POSIX sh).
#
# A test script does:
#   . "$(dirname "$0")/kcommon.sh"
#   kt_begin NAME "what it checks"
#   ... kt_mkfs / kt_guest / kt_fsck / kt_keep ...
#   kt_end
# Any check that fails calls kt_bad, and kt_end then exits 1.  No test ever
# skips: a missing tool or mkfs binary is a failure.

KSRC=$(cd "$(dirname "$0")" && pwd)
: "${top_srcdir:=$(cd "$KSRC/../.." && pwd)}"
: "${top_builddir:=$(pwd)}"
export top_srcdir top_builddir
# img_sum and the other shared helpers (already there when a tests/fsck
# script sources this file after its common.sh)
command -v img_sum >/dev/null || . "$top_srcdir/tests/lib.sh"
KBUILD=$top_builddir/tests/kernel
KIMAGES=$KBUILD/images
MKFS=${MKFS_F2FS:-$top_builddir/mkfs/mkfs.f2fs}
OUR_FSCK=$top_builddir/fsck/fsck.f2fs
REF_FSCK=

kt_bad_count=0

kt_say() { echo "[$KT_NAME] $*"; }

kt_bad() {
	echo "[$KT_NAME] FAIL: $*"
	kt_bad_count=$((kt_bad_count + 1))
}

# Stop right away (setup problems after which nothing else makes sense).
kt_abort() {
	kt_bad "$*"
	kt_end
}

kt_begin() {
	KT_NAME=$1
	KT_START=$(date +%s)
	KWORK=$KBUILD/work/$KT_NAME
	kt_say "$2"
	rm -rf "$KWORK"
	mkdir -p "$KWORK" "$KIMAGES" || kt_abort "cannot create $KWORK"
	for tool in qemu-system-x86_64 cpio; do
		command -v "$tool" > /dev/null ||
			kt_abort "$tool is missing: run $top_srcdir/tests/kernel/setup.sh"
	done
	REF_FSCK=$(command -v fsck.f2fs || echo /usr/sbin/fsck.f2fs)
	[ -x "$REF_FSCK" ] ||
		kt_abort "f2fs-tools' fsck.f2fs is missing: run $top_srcdir/tests/kernel/setup.sh"
	if [ ! -x "$MKFS" ]; then
		kt_abort "the mkfs under test, $MKFS, does not exist (build it, or set MKFS_F2FS)"
	fi
	kt_say "mkfs under test: $MKFS"
}

kt_end() {
	kt_say "took $(($(date +%s) - KT_START))s"
	if [ "$kt_bad_count" -ne 0 ]; then
		kt_say "FAILED ($kt_bad_count problem(s)); logs in $KWORK"
		exit 1
	fi
	kt_say "PASS"
	exit 0
}

# kt_mkfs IMG SIZE [mkfs options...]: a fresh sparse image, formatted.
kt_mkfs() {
	img=$1
	size=$2
	shift 2
	rm -f "$img"
	truncate -s "$size" "$img" || { kt_bad "cannot create $img"; return 1; }
	if ! "$MKFS" -f -q "$@" "$img" > "$img.mkfs.log" 2>&1; then
		kt_bad "mkfs $* on $size failed:"
		tail -n 5 "$img.mkfs.log"
		return 1
	fi
	return 0
}

# kt_guest RUN [run-guest.sh options] SCENARIO [NAME=IMG...]: boot and judge;
# the run's files go to $KWORK/RUN.  Returns (and sets KT_GUEST_RC to) the
# runner's verdict.
kt_guest() {
	kt_run=$1
	shift
	KT_GUEST_RC=0
	sh "$KSRC/run-guest.sh" -n "$kt_run" -d "$KWORK/$kt_run" "$@" || KT_GUEST_RC=$?
	return "$KT_GUEST_RC"
}

# kt_fsck IMG LABEL: f2fs-tools' fsck in dry-run mode must find nothing (exit
# 0 and no "[Fail]" line); so must ours (-n), once it has been built.
# KT_REF_CLEAN tells whether f2fs-tools' verdict alone was clean: that is
# what decides whether an image is worth keeping for the other tests (an
# image our fsck wrongly rejects is exactly what its developers need).
kt_fsck() {
	log=$KWORK/$2.fsck.log
	KT_REF_CLEAN=0
	rc=0
	"$REF_FSCK" --dry-run "$1" < /dev/null > "$log" 2>&1 || rc=$?
	tr '\r' '\n' < "$log" > "$log.txt"
	if [ $rc -ne 0 ] || grep -q '\[Fail\]' "$log.txt"; then
		kt_bad "$2: f2fs-tools fsck.f2fs --dry-run: exit $rc"
		grep -E '\[Fail\]|rror|ASSERT|\[FIX\]' "$log.txt" | head -n 10 | sed 's/^/    /'
		return 1
	fi
	KT_REF_CLEAN=1
	verdict="f2fs-tools fsck clean"
	if [ -x "$OUR_FSCK" ]; then
		rc=0
		"$OUR_FSCK" -n "$1" < /dev/null > "$KWORK/$2.ourfsck.log" 2>&1 || rc=$?
		if [ $rc -ne 0 ]; then
			kt_bad "$2: f2fs-tools fsck clean, but our fsck.f2fs -n: exit $rc"
			head -n 10 "$KWORK/$2.ourfsck.log" | sed 's/^/    /'
			return 1
		fi
		verdict="$verdict; our fsck clean"
	fi
	kt_say "$2: $verdict"
	return 0
}

# kt_keep IMG NAME NATURE DESCRIPTION: keep a sparse copy for the fsck and
# dump tests, and list it in $KIMAGES/index ("name nature description").
kt_keep() {
	cp --sparse=always "$1" "$KIMAGES/$2.img.tmp" &&
		mv -f "$KIMAGES/$2.img.tmp" "$KIMAGES/$2.img" || { kt_bad "cannot keep $2"; return 1; }
	echo "$2 $3 $4" > "$KIMAGES/$2.info"
	cat "$KIMAGES"/*.info | sort > "$KIMAGES/index.tmp.$$" && mv -f "$KIMAGES/index.tmp.$$" "$KIMAGES/index"
}

