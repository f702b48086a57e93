#!/bin/sh
# tests/sload/sload.sh: sload.f2fs loads tests/sload/gen-tree.sh's tree
# (every inode layout it writes) into volumes made by our mkfs and by
# f2fs-tools' mkfs, at -s 1, 7 and 128 and with the feature sets mkfs
# offers; after each load both fscks find the volume clean and dump.f2fs -r
# gives the tree back, compared entry by entry (type, mode, owner, size,
# content, link target, xattrs, mtime, hard-link groups; dump.f2fs does not
# extract FIFOs, sockets, devices or xattrs of symlinks: the kernel test
# tests/sload/kernel.sh reads those; the quota files must hold the usage,
# which both fscks check).  Also: loading into a loaded volume
# keeps its content, a name already in the root and an unsupported volume
# are refused with the volume unchanged, casefolded directories hash
# folded names, Android's fs_config and file_contexts inputs, and a load
# cut at every write (--write-limit) leaves the old volume or the new one.
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"
SLOAD=${SLOAD_F2FS:-$top_builddir/sload/sload.f2fs}
require_built "$MKFS" "$FSCK" "$DUMP" "$INJECT" "$SLOAD"
require_oracles "$MKFS_ORACLE" "$FSCK_ORACLE"
require_commands python3 "${CC:-cc}"
make_scratch sload
MANIFEST=$WORK/manifest
${CC:-cc} -O2 -o "$MANIFEST" "$top_srcdir/tests/sload/manifest.c" ||
	hard_error "cannot build the manifest helper"
[ "$(id -u)" = 0 ] || hard_error "must run as root (owners and device nodes in the source tree)"
sh "$top_srcdir/tests/sload/gen-tree.sh" "$WORK/src" > "$WORK/gen.log" 2>&1 ||
	hard_error "cannot build the source tree: $(tail -n 3 "$WORK/gen.log")"
"$MANIFEST" -d "$WORK/src" > "$WORK/src.man"

# clean IMG LABEL: both fscks find nothing.
clean() {
	if "$FSCK" "$1" > "$WORK/fsck.log" 2>&1; then
		pass "$2: our fsck clean"
	else
		fail "$2: our fsck: $(grep -m 3 F2FS- "$WORK/fsck.log")"
	fi
	cp --sparse=always "$1" "$WORK/oracle.img"
	rc=0
	"$FSCK_ORACLE" --dry-run "$WORK/oracle.img" < /dev/null > "$WORK/ofsck.log" 2>&1 || rc=$?
	tr '\r' '\n' < "$WORK/ofsck.log" > "$WORK/ofsck.txt"
	if [ $rc -eq 0 ] && ! grep -q '\[Fail\]' "$WORK/ofsck.txt"; then
		pass "$2: f2fs-tools fsck clean"
	else
		fail "$2: f2fs-tools fsck --dry-run exit $rc: $(grep -m 3 -E 'Fail|rror' "$WORK/ofsck.txt")"
	fi
	rm -f "$WORK/oracle.img"
}

# same_tree IMG LABEL [MANIFEST_OPTS]: dump.f2fs -r gives the source back.
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

# load LABEL MKFS SIZE "MKFS_OPTS" [SLOAD_OPTS...]: format, load, check.
load() {
	label=$1 mk=$2 size=$3 mopts=$4
	shift 4
	img=$WORK/$label.img
	rm -f "$img"
	truncate -s "$size" "$img"
	# shellcheck disable=SC2086
	if ! "$mk" -f -q $mopts "$img" > "$WORK/mkfs.log" 2>&1; then
		fail "$label: mkfs $mopts: $(tail -n 1 "$WORK/mkfs.log")"
		return 1
	fi
	if ! "$SLOAD" -P "$@" -f "$WORK/src" "$img" > "$WORK/sload.log" 2>&1; then
		fail "$label: sload.f2fs: $(tail -n 2 "$WORK/sload.log")"
		return 1
	fi
	pass "$label: loaded"
	clean "$img" "$label"
	same_tree "$img" "$label"
}

FULL=extra_attr,inode_checksum,flexible_inline_xattr,inode_crtime,sb_checksum,lost_found
load ours-s1 "$MKFS" 2G "" && rm -f "$img"
load ours-full-s7 "$MKFS" 2G "-s 7 -O $FULL" && rm -f "$img"
load ours-s128 "$MKFS" 3G "-s 128 -O extra_attr,flexible_inline_xattr"
s128=$img
load ours-compression "$MKFS" 1G "-O extra_attr,compression" && rm -f "$img"
load ours-compressed-lz4 "$MKFS" 1G "-O extra_attr,compression,inode_checksum" -c && rm -f "$img"
load ours-compressed-zstd "$MKFS" 2G "-s 7 -O extra_attr,compression,flexible_inline_xattr" \
	-c -a zstd -L 4 -m 2 -x bin && rm -f "$img"
load ours-compressed-released "$MKFS" 1G "-O extra_attr,compression,inode_checksum" -c -r &&
	rm -f "$img"
load ours-noinline "$MKFS" 1G "-O $FULL" --no-inline-data && rm -f "$img"
load ours-quota "$MKFS" 1G "-O extra_attr,quota,project_quota,inode_checksum,flexible_inline_xattr" &&
	rm -f "$img"
load f2fs-tools-s1 "$MKFS_ORACLE" 1G "" && rm -f "$img"
load f2fs-tools-quota "$MKFS_ORACLE" 1G "-O extra_attr,quota" && rm -f "$img"
load f2fs-tools-full-s4 "$MKFS_ORACLE" 2G "-s 4 -O $FULL" && rm -f "$img"

# A second load into the loaded -s 128 volume keeps what it holds.
mkdir -p "$WORK/more/sub"
for i in $(seq 1 250); do : > "$WORK/more/top_$i"; done
echo more > "$WORK/more/sub/file"
if "$SLOAD" -f "$WORK/more" "$s128" > "$WORK/sload.log" 2>&1; then
	pass "second load into a loaded volume"
	clean "$s128" "second load"
	rm -rf "$WORK/out"
	"$DUMP" -r -o "$WORK/out" -P -L "$s128" > "$WORK/dump.log" 2>&1
	[ -f "$WORK/out/top_250" ] && [ "$(cat "$WORK/out/sub/file")" = more ] &&
		pass "second load: new entries there" || fail "second load: new entries missing"
	for n in top_1 top_2 sub; do rm -rf "${WORK:?}/out/$n"; done
	for i in $(seq 3 250); do rm -f "$WORK/out/top_$i"; done
	"$MANIFEST" -d -i "$WORK/out" > "$WORK/img.man"
	diff "$WORK/src.man" "$WORK/img.man" > /dev/null &&
		pass "second load: the first tree is intact" || fail "second load: the first tree changed"
	rm -rf "$WORK/out"
else
	fail "second load: $(tail -n 2 "$WORK/sload.log")"
fi
# The same tree again: its names are in the root already.
sum=$(cksum < "$s128")
if "$SLOAD" -f "$WORK/src" "$s128" > "$WORK/sload.log" 2>&1; then
	fail "a name already in the root was not refused"
elif [ "$(cksum < "$s128")" = "$sum" ] && grep -q 'exists' "$WORK/sload.log"; then
	pass "a name already in the root: refused, volume unchanged"
else
	fail "a name already in the root: $(tail -n 1 "$WORK/sload.log")"
fi
rm -f "$s128"

# An empty lost+found at the top of the source gives way to the volume's.
img=$WORK/lpf.img
mkdir -p "$WORK/lpf/lost+found" "$WORK/lpf/x"
echo x > "$WORK/lpf/x/f"
truncate -s 256M "$img"
"$MKFS" -f -q -O extra_attr,lost_found "$img"
if "$SLOAD" -f "$WORK/lpf" "$img" > "$WORK/sload.log" 2>&1 && "$FSCK" "$img" > /dev/null 2>&1; then
	pass "an empty lost+found in the source gives way to the volume's"
else
	fail "empty lost+found: $(tail -n 1 "$WORK/sload.log")"
fi
rm -f "$img"

# Unsupported volume (encrypt): refused before anything is written.
img=$WORK/encrypt.img
truncate -s 512M "$img"
"$MKFS" -f -q -O encrypt "$img"
sum=$(cksum < "$img")
if ! "$SLOAD" -f "$WORK/src" "$img" > "$WORK/sload.log" 2>&1 && [ "$(cksum < "$img")" = "$sum" ]; then
	pass "encrypt volume: refused, unchanged"
else
	fail "encrypt volume: not refused or changed"
fi
rm -f "$img"

# Casefolded root: every directory below inherits the flag and its names
# are hashed folded (our fsck verifies every hash with the kernel's folding).
img=$WORK/cf.img
truncate -s 1G "$img"
"$MKFS" -f -q -O extra_attr,casefold,inode_checksum -C utf8 "$img"
"$INJECT" --node --mb i_flags --nid 3 --val 0x40000000 "$img" > /dev/null 2>&1 ||
	hard_error "inject could not casefold the root"
mkdir -p "$WORK/cf/Sub/Nested"
for i in $(seq 1 400); do : > "$WORK/cf/Sub/Name_$i"; done
python3 -c '
import sys
for n in ["Stra\u00dfe", "\u01c5ungla", "\ufb01le", "\u216b", "\u0130stanbul", "\u1f8f", "\u00c6\u00d8\u00c5"]:
    open(sys.argv[1] + "/Sub/" + n, "w").write(n)
' "$WORK/cf"
if "$SLOAD" -f "$WORK/cf" "$img" > "$WORK/sload.log" 2>&1; then
	pass "casefold: loaded"
	clean "$img" casefold
else
	fail "casefold: $(tail -n 2 "$WORK/sload.log")"
fi
rm -f "$img"

# Android: fs_config (owner, mode, capabilities) and file_contexts
# (security.selinux), with -t and -T.
A=$WORK/android
mkdir -p "$A/bin" "$A/etc"
echo sh > "$A/bin/sh"
echo conf > "$A/etc/conf"
ln -s sh "$A/bin/link"
cat > "$WORK/fs_config" <<'FSC'
# path uid gid mode [capabilities]
system 0 1000 0750
system/bin 0 2000 0751
system/bin/sh 0 2000 0755 capabilities=0x1000000400
system/bin/link 0 2000 0777
system/etc 0 0 0755
system/etc/conf 1000 1000 0640 capabilities=0x0
FSC
cat > "$WORK/file_contexts" <<'FC'
/system(/.*)?            u:object_r:system_file:s0
/system/bin(/.*)?        u:object_r:system_exec:s0
/system/bin/sh   --      u:object_r:shell_exec:s0
/system/bin/link -l      u:object_r:link_file:s0
/system/etc/conf         <<none>>
FC
img=$WORK/android.img
truncate -s 512M "$img"
"$MKFS" -f -q -O extra_attr,inode_checksum,flexible_inline_xattr "$img"
if "$SLOAD" -f "$A" -t /system -C "$WORK/fs_config" -s "$WORK/file_contexts" -T 1234567890 \
	"$img" > "$WORK/sload.log" 2>&1; then
	pass "android: loaded"
	clean "$img" android
	rm -rf "$WORK/out"
	"$DUMP" -r -o "$WORK/out" -P -L "$img" > "$WORK/dump.log" 2>&1
	python3 - "$WORK/out" > "$WORK/android.txt" <<'PY'
import os, sys
root = sys.argv[1]
for p in ['bin', 'bin/sh', 'bin/link', 'etc', 'etc/conf']:
    q = os.path.join(root, p)
    st = os.lstat(q)
    label = ''
    if not os.path.islink(q):
        try:
            label = os.getxattr(q, 'security.selinux').decode().rstrip('\0')
        except OSError:
            label = '-'
    print(p, oct(st.st_mode), st.st_uid, st.st_gid, int(st.st_mtime), label)
PY
	cat > "$WORK/android.want" <<'WANT'
bin 0o40751 0 2000 1234567890 u:object_r:system_exec:s0
bin/sh 0o100755 0 2000 1234567890 u:object_r:shell_exec:s0
bin/link 0o120777 0 2000 1234567890 
etc 0o40755 0 0 1234567890 u:object_r:system_file:s0
etc/conf 0o100640 1000 1000 1234567890 -
WANT
	if diff "$WORK/android.want" "$WORK/android.txt" > "$WORK/android.diff"; then
		pass "android: owners, modes, times and labels"
	else
		fail "android: $(head -n 4 "$WORK/android.diff" | tr '\n' ' ')"
	fi
	# the root: fs_config's entry of the mount point, and -T
	"$DUMP" -i 3 "$img" > "$WORK/root.txt" 2>&1
	grep -q 'i_mode .*16872\]' "$WORK/root.txt" && grep -q 'i_gid .*: 1000\]' "$WORK/root.txt" &&
		grep -q 'i_mtime .*: 1234567890\]' "$WORK/root.txt" &&
		pass "android: the root takes the mount point's entry and -T" ||
		fail "android: root mode, owner or time"
	# security.capability: VFS v2, effective, permitted 0x1000000400
	for ino in $(seq 4 8); do
		"$DUMP" -i "$ino" "$img" 2>/dev/null
	done > "$WORK/android.inodes"
	grep -q 'security.capability *0x0100000200040000000000001000000000000000' "$WORK/android.inodes" &&
		pass "android: capabilities from fs_config" ||
		fail "android: security.capability missing or wrong"
	grep -q 'link_file' "$WORK/android.inodes" &&
		pass "android: symlink labelled by its file type" || fail "android: symlink label missing"
else
	fail "android: $(tail -n 2 "$WORK/sload.log")"
fi
rm -f "$img"

# Power cut at every write (--write-limit N drops every write after the
# N-th): the volume is the old one, clean, until the checkpoint's last
# block is written, and the new one after.
C=$WORK/cut
mkdir -p "$C/dir"
head -c 5000000 /dev/urandom > "$C/big"
for i in $(seq 1 300); do echo "$i" > "$C/dir/f$i"; done
img=$WORK/cut.img
truncate -s 256M "$img"
"$MKFS" -f -q -O extra_attr,inode_checksum,quota "$img"
cp --sparse=always "$img" "$WORK/cut0.img"
"$SLOAD" -d 1 -f "$C" "$img" > "$WORK/sload.log" 2>&1
writes=$(sed -n 's/.*; \([0-9]*\) writes;.*/\1/p' "$WORK/sload.log")
if [ -n "$writes" ] && [ "$writes" -gt 3 ]; then
	pass "cut: a load of $writes writes"
	bad=0
	for n in $(seq 1 "$writes"); do
		cp --sparse=always "$WORK/cut0.img" "$img"
		"$SLOAD" --write-limit "$n" -f "$C" "$img" > /dev/null 2>&1
		if ! "$FSCK" "$img" > "$WORK/fsck.log" 2>&1; then
			bad=1
			fail "cut after write $n: our fsck: $(grep -m 2 F2FS- "$WORK/fsck.log")"
		fi
		cp --sparse=always "$img" "$WORK/oracle.img"
		if ! "$FSCK_ORACLE" --dry-run "$WORK/oracle.img" < /dev/null > /dev/null 2>&1; then
			bad=1
			fail "cut after write $n: f2fs-tools fsck"
		fi
		rm -rf "$WORK/out"
		"$DUMP" -r -o "$WORK/out" "$img" > /dev/null 2>&1
		have=$(ls "$WORK/out" 2>/dev/null | grep -c -v lost+found)
		if { [ "$n" -lt "$writes" ] && [ "$have" -ne 0 ]; } ||
		   { [ "$n" -eq "$writes" ] && [ "$have" -ne 2 ]; }; then
			bad=1
			fail "cut after write $n of $writes: $have entries in the root"
		fi
	done
	[ $bad = 0 ] && pass "cut at each of the $writes writes: old volume before the last, new after"
	rm -rf "$WORK/out" "$WORK/oracle.img" "$WORK/cut0.img"
else
	fail "cut: no write count from sload -d 1: $(tail -n 1 "$WORK/sload.log")"
fi
rm -f "$img"

# Usage errors and refused options.
"$SLOAD" -V | grep -q '^sload.f2fs' && pass "-V" || fail "-V"
"$SLOAD" -h | grep -q 'Usage: sload.f2fs' && pass "-h" || fail "-h"
for bad in "-r" "-T x" "-a lz4" "-c -L 9" "-c -i a -x b" "-c -a lzo" "-c -m 4"; do
	# shellcheck disable=SC2086
	if "$SLOAD" $bad -f "$WORK/src" "$WORK/none.img" > /dev/null 2>&1; then
		fail "sload $bad accepted"
	else
		pass "sload $bad refused"
	fi
done
finish
