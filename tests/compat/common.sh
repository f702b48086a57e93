# tests/compat/common.sh: helpers of the compatibility tests (our tools
# driven the way fstests and scripts written for f2fs-tools drive them).
#
# Owns, after tests/lib.sh (tools, scratch directory, counts): requiring
# our tools and f2fs-tools' as oracles, and making small images.

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"
SLOAD=${SLOAD_F2FS:-$top_builddir/sload/sload.f2fs}

require_built "$MKFS" "$FSCK" "$DUMP" "$INJECT" "$SLOAD"
require_oracles "$FSCK_ORACLE" "$DUMP_ORACLE"
require_commands python3 awk truncate timeout
make_scratch compat

# check LABEL CMD...: pass when CMD succeeds
check() {
	label=$1
	shift
	if "$@"; then pass "$label"; else fail "$label"; fi
}

# new_image IMG SIZE [MKFS OPTIONS...]: a fresh volume made by our mkfs.
new_image() {
	img=$1 size=$2
	shift 2
	rm -f "$img"
	truncate -s "$size" "$img" || hard_error "truncate $img"
	"$MKFS" -f -q "$@" "$img" >"$WORK/mkfs.log" 2>&1 || hard_error "mkfs $*: $(head -1 "$WORK/mkfs.log")"
}

# sload_dir IMG DIR: copy DIR into IMG with our sload.f2fs (these tests
# are about the other tools' command lines, not about f2fs-tools' sload).
sload_dir() {
	"$SLOAD" -f "$2" "$1" >"$WORK/sload.log" 2>&1 ||
		hard_error "sload.f2fs failed on $1: $(tail -3 "$WORK/sload.log")"
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
