# tests/mkfs/common.sh: helpers shared by the mkfs shell tests.
#
# Sourced (not run) by the tests in this directory, after tests/lib.sh
# (tools, counts, hard errors).  It owns: the per-test scratch directory
# (under the build directory) and its cleanup hooks, running a command with a time limit while capturing its
# exit code and output, and the "is this image clean" oracle check.
#
# Environment:
#   MKFS_F2FS      mkfs under test (default $top_builddir/mkfs/mkfs.f2fs)
#   FSCK_ORACLE    f2fs-tools fsck (default /usr/sbin/fsck.f2fs)
#   DUMP_ORACLE    f2fs-tools dump (default /usr/sbin/dump.f2fs)
#   KEEP_WORK=1    keep the scratch directory (images are sparse)
#   VERBOSE=1      print every command as it runs

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"
CMD_TIMEOUT=${CMD_TIMEOUT:-300}

require_tools() {
	[ -x "$MKFS" ] || hard_error "mkfs under test not found or not executable: $MKFS (build it, or set MKFS_F2FS)"
	[ -x "$FSCK_ORACLE" ] || hard_error "oracle fsck.f2fs (f2fs-tools) not found: $FSCK_ORACLE (apt-get install f2fs-tools)"
	[ -x "$DUMP_ORACLE" ] || hard_error "oracle dump.f2fs (f2fs-tools) not found: $DUMP_ORACLE (apt-get install f2fs-tools)"
	command -v truncate >/dev/null || hard_error "truncate not found"
	command -v timeout >/dev/null || hard_error "timeout not found"
	command -v cksum >/dev/null || hard_error "cksum not found"
}

# Extra cleanup steps registered by a test (unmount, detach loops), run
# before the scratch directory is removed.
CLEANUP_HOOKS=
add_cleanup() {
	CLEANUP_HOOKS="$1; $CLEANUP_HOOKS"
}

cleanup() {
	set +e
	[ -n "$CLEANUP_HOOKS" ] && eval "$CLEANUP_HOOKS"
	if [ -n "$WORK" ] && [ -d "$WORK" ]; then
		if grep -q " $WORK/" /proc/self/mounts 2>/dev/null; then
			echo "ERROR: something is still mounted under $WORK; not removing it" >&2
		elif [ "${KEEP_WORK:-0}" = 1 ]; then
			echo "NOTE: scratch directory kept: $WORK" >&2
		else
			rm -rf "$WORK"
		fi
	fi
}

make_workdir() {
	WORK=$(mktemp -d "$(pwd)/$TEST_NAME.tmp.XXXXXX") || hard_error "cannot create a scratch directory in $(pwd)"
	trap cleanup EXIT
	trap 'exit 130' INT TERM HUP PIPE
}

# run_cmd TAG cmd args...: run with a time limit; stdout, stderr and exit
# code go to $WORK/TAG.out, $WORK/TAG.err and $RC.
RC=0
run_cmd() {
	rc_tag_=$1
	shift
	[ "${VERBOSE:-0}" = 1 ] && echo "+ $*" >&2
	timeout -k 10 "$CMD_TIMEOUT" "$@" >"$WORK/$rc_tag_.out" 2>"$WORK/$rc_tag_.err" </dev/null
	RC=$?
	if [ "$RC" = 124 ] || [ "$RC" = 137 ]; then
		echo "    (timed out after ${CMD_TIMEOUT}s: $*)" >>"$WORK/$rc_tag_.err"
	fi
}

run_mkfs() {
	rm_tag_=$1
	shift
	run_cmd "$rm_tag_" "$MKFS" "$@"
}

# describe_rc RC: human-readable exit status.
describe_rc() {
	if [ "$1" -gt 128 ] && [ "$1" -lt 160 ]; then
		echo "$1 (signal $(($1 - 128)): $(kill -l "$(($1 - 128))" 2>/dev/null))"
	elif [ "$1" = 124 ]; then
		echo "124 (timed out)"
	else
		echo "$1"
	fi
}

# A refusal exit code: non-zero, not a signal, not a timeout.
is_refusal_rc() {
	[ "$1" -ge 1 ] && [ "$1" -le 125 ] && [ "$1" != 124 ]
}

# show_file FILE [MAX]: indent the first MAX lines of FILE.
show_file() {
	sed -n "1,${2:-15}p" "$1" | sed 's/^/        | /'
}

# Show the interesting part of an oracle log.
show_fsck_problems() {
	grep -n -E '\[Fail\]|\[ASSERT\]|[Ee]rror|[Ww]rong|[Ii]nvalid|[Cc]orrupt|[Mm]ismatch|[Mm]agic|Can.t find|not match|Fix|fix' "$1" |
		grep -v -E 'Info: Fix the reported corruption' | sed -n '1,20p' | sed 's/^/        | /'
}

# check_image IMG TAG: the f2fs-tools oracles accept IMG.  On failure prints
# why and returns 1.  fsck must exit 0 with no [Fail] line; dump must exit 0
# and print the superblock magic.
check_image() {
	ci_img=$1
	ci_tag=$2
	run_cmd "$ci_tag.fsck" "$FSCK_ORACLE" --dry-run "$ci_img"
	ci_frc=$RC
	ci_flog="$WORK/$ci_tag.fsck.out"
	cat "$WORK/$ci_tag.fsck.err" >>"$ci_flog"
	run_cmd "$ci_tag.dump" "$DUMP_ORACLE" -d 1 "$ci_img"
	ci_drc=$RC
	ci_dlog="$WORK/$ci_tag.dump.out"
	cat "$WORK/$ci_tag.dump.err" >>"$ci_dlog"
	ci_ok=0
	if [ "$ci_frc" != 0 ]; then
		echo "      fsck.f2fs --dry-run exited $(describe_rc "$ci_frc")"
		ci_ok=1
	fi
	if grep -q '\[Fail\]' "$ci_flog"; then
		echo "      fsck.f2fs reported [Fail]"
		ci_ok=1
	fi
	[ "$ci_ok" = 0 ] || show_fsck_problems "$ci_flog"
	if [ "$ci_drc" != 0 ] || ! grep -q '^magic .*0xf2f52010' "$ci_dlog"; then
		echo "      dump.f2fs -d 1 exited $(describe_rc "$ci_drc") or printed no superblock magic"
		show_fsck_problems "$ci_dlog"
		ci_ok=1
	fi
	return $ci_ok
}

# dump_field LOG NAME: decimal value of a "name [0x.. : dec]" line of dump.f2fs.
dump_field() {
	awk -v n="$2" '$1 == n { v = $NF; sub(/\]$/, "", v); print v; exit }' "$1"
}

# new_sparse FILE SIZE: fresh all-zero sparse file (SIZE as truncate takes it).
new_sparse() {
	rm -f "$1"
	truncate -s "$2" "$1" || hard_error "cannot create sparse file $1 of size $2"
}

