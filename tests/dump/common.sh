# tests/dump/common.sh: helpers shared by the dump.f2fs tests (sourced).
#
# Owns, after tests/lib.sh (tools, scratch directory, counts, hard
# errors): requiring what a dump test needs, building the image matrix (our mkfs with a few
# option sets, f2fs-tools' mkfs, images populated by our sload, kernel-written
# images when tests/kernel left some), and a populated source tree.
#
# Environment: DUMP_F2FS, MKFS_F2FS, SLOAD_F2FS override the tools under test;
# KEEP_WORK=1 keeps the scratch directory.

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"
# In a sanitizer build a report must not look like dump.f2fs's own exit 1.
ASAN_OPTIONS=${ASAN_OPTIONS:-exitcode=86}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-exitcode=87:print_stacktrace=1}
export ASAN_OPTIONS UBSAN_OPTIONS

ORACLE_DUMP=$DUMP_ORACLE
ORACLE_MKFS=$MKFS_ORACLE
SLOAD=${SLOAD_F2FS:-$top_builddir/sload/sload.f2fs}
ORACLE_FSCK=$FSCK_ORACLE
CHECK="python3 $top_srcdir/tests/dump/dumpcheck.py"

require_tools() {
	[ -x "$DUMP" ] || hard_error "dump.f2fs under test not found: $DUMP"
	command -v python3 >/dev/null || hard_error "python3 is needed by the dump tests"
	for t in "$@"; do
		case $t in
		mkfs) [ -x "$MKFS" ] || hard_error "mkfs.f2fs under test not found: $MKFS" ;;
		oracle) require_oracles "$ORACLE_DUMP" "$ORACLE_MKFS" "$ORACLE_FSCK"
			[ -x "$SLOAD" ] || hard_error "sload.f2fs not built: $SLOAD" ;;
		esac
	done
}

setup_work() { make_scratch dump; }

# check NAME CMD...: run CMD, count a pass or a failure (output shown on failure).
check() {
	name=$1
	shift
	if out=$("$@" 2>&1); then
		pass "$name"
	else
		fail "$name"
		printf '%s\n' "$out" | head -n 20 | sed 's/^/    /'
	fi
}

# make_tree DIR: a small tree with regular, sparse, empty, large and inline
# files, nested directories, symlinks (short and long), and odd modes/owners.
make_tree() {
	d=$1
	mkdir -p "$d/dir1/dir2/dir3" "$d/empty_dir" || return 1
	printf 'hello\n' > "$d/small.txt"
	head -c 5000 /dev/urandom > "$d/five_k.bin"
	head -c 3000000 /dev/urandom > "$d/dir1/three_m.bin"
	head -c 5000000 /dev/urandom > "$d/dir1/dir2/five_m.bin"
	truncate -s 10M "$d/dir1/sparse" && printf 'tail' >> "$d/dir1/sparse"
	: > "$d/empty"
	ln -s small.txt "$d/link"
	ln -s "$(printf 'L%.0s' $(seq 1 300))" "$d/long_link"
	ln -s ../../small.txt "$d/dir1/dir2/up_link"
	for i in $(seq 1 250); do printf 'file %d\n' "$i" > "$d/dir1/dir2/dir3/f$i"; done
	chmod 640 "$d/small.txt"
	chmod 2755 "$d/dir1"
	chmod 700 "$d/empty_dir"
	chmod 4755 "$d/five_k.bin"
	chown 1234:5678 "$d/five_k.bin"
	chown 42:43 "$d/dir1/dir2"
}

# populate IMG SRC: copy SRC into IMG with our sload (owners kept).
populate() {
	"$SLOAD" -P -f "$2" "$1" > "$WORK/sload.log" 2>&1 ||
		{ echo "sload.f2fs failed on $1"; tail -n 5 "$WORK/sload.log"; return 1; }
}

# kernel_images: print the kernel-written images left by tests/kernel
# (KERNEL_IMAGES=dir: those another build tree's kernel tests left).
kernel_images() {
	kdir=${KERNEL_IMAGES:-$top_builddir/tests/kernel/images}
	[ -f "$kdir/index" ] || return 0
	while read -r name rest; do
		[ -f "$kdir/$name.img" ] && echo "$kdir/$name.img"
	done < "$kdir/index"
}
