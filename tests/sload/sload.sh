#!/bin/sh
# tests/sload/sload.sh: sload.f2fs loads tests/sload/gen-tree.sh's tree
# (every inode layout it writes) into volumes made by our mkfs and by
# f2fs-tools' mkfs, at -s 1, 7 and 128 and with the feature sets mkfs
# offers; after each load both fscks find the volume clean and dump.f2fs -r
# gives the tree back, compared entry by entry (type, mode, owner, size,
# content, link target, xattrs, mtime, hard-link groups; dump.f2fs does not
# extract FIFOs, sockets, devices or xattrs of symlinks: the kernel test
# tests/sload/kernel.sh reads those; the quota files must hold the usage,
# which both fscks check).  Also: a multi-device volume (mkfs -c) loaded
# across its devices; loading into a loaded volume
# keeps its content and merges into its directories at any depth (a name
# the volume has keeps the volume's entry), an unsupported volume is
# refused with the volume unchanged, casefolded directories hash
# folded names, Android's fs_config and file_contexts inputs, and a load
# cut at every write (--write-limit) leaves the old volume or the new one.
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"
SLOAD=${SLOAD_F2FS:-$top_builddir/sload/sload.f2fs}
require_built "$MKFS" "$FSCK" "$DUMP" "$INJECT" "$SLOAD"
require_oracles "$MKFS_ORACLE" "$FSCK_ORACLE"
require_commands python3 "${CC:-cc}"
# The scratch goes to a memory filesystem when one keeps user, trusted and
# security xattrs (tmpfs since Linux 6.6) and has 1 GiB free: each of the
# ~20 read-backs below creates and removes the tree's 1,100 files, which on
# a shared disk is most of this test's time (ASan build at load 12: 162 s
# on ext4, 55 s on tmpfs).  SLOAD_TEST_TMPFS names another one; "none"
# keeps ${TMPDIR:-/tmp}.
tmpfs_keeps_xattrs() {
	[ -d "$1" ] && [ -w "$1" ] || return 1
	free=$(df -Pk "$1" 2>/dev/null | awk 'NR == 2 { print $4 }')
	[ "${free:-0}" -ge 1048576 ] || return 1
	probe=$(mktemp "$1/sload-probe.XXXXXX") || return 1
	python3 -c '
import os, sys
for n in ("user.p", "trusted.p", "security.p"):
    os.setxattr(sys.argv[1], n, b"1")
' "$probe" 2> /dev/null
	rc=$?
	rm -f "$probe"
	return $rc
}
FAST=${SLOAD_TEST_TMPFS:-/dev/shm}
if [ "$FAST" != none ] && tmpfs_keeps_xattrs "$FAST"; then
	TMPDIR=$FAST make_scratch sload
else
	make_scratch sload
fi
MANIFEST=$WORK/manifest
${CC:-cc} -O2 -o "$MANIFEST" "$top_srcdir/tests/sload/manifest.c" ||
	hard_error "cannot build the manifest helper"
[ "$(id -u)" = 0 ] || hard_error "must run as root (owners and device nodes in the source tree)"
sh "$top_srcdir/tests/sload/gen-tree.sh" "$WORK/src" > "$WORK/gen.log" 2>&1 ||
	hard_error "cannot build the source tree: $(tail -n 3 "$WORK/gen.log")"
"$MANIFEST" -d "$WORK/src" > "$WORK/src.man"

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
	both_fscks_clean "$img" "$label"
	same_tree "$img" "$label"
}

FULL=extra_attr,inode_checksum,flexible_inline_xattr,inode_crtime,sb_checksum,lost_found
if load ours-s1 "$MKFS" 2G ""; then
	# dirs/hashed fills six levels of the hash table (gen-tree.sh)
	ino=$("$FSCK" -t "$img" 2>/dev/null | awk -F'\t' '$2 == "/dirs/hashed" { print $1 }')
	depth=$("$DUMP" -i "${ino:-0}" "$img" 2>/dev/null |
		awk '$1 == "i_current_depth" { gsub(/[]:[]/, " "); print $NF }')
	[ "${depth:-0}" -ge 6 ] && pass "ours-s1: dirs/hashed is $depth levels deep" ||
		fail "ours-s1: dirs/hashed is ${depth:-?} levels deep, not 6"
	rm -f "$img"
fi
# --nat-writeback 1: every node's NAT block is written back to the copy
# the checkpoint makes current and dropped from memory at once (reloaded
# for the directories written after their children)
load ours-full-s7 "$MKFS" 2G "-s 7 -O $FULL" --nat-writeback 1 && rm -f "$img"
load ours-s128 "$MKFS" 3G "-s 128 -O extra_attr,flexible_inline_xattr"
s128=$img
load ours-compression "$MKFS" 1G "-O extra_attr,compression" && rm -f "$img"
load ours-compressed-lz4 "$MKFS" 1G "-O extra_attr,compression,inode_checksum" -c && rm -f "$img"
load ours-compressed-zstd "$MKFS" 2G "-s 7 -O extra_attr,compression,flexible_inline_xattr" \
	-c -a zstd -L 4 -m 2 -x bin && rm -f "$img"
load ours-compressed-released "$MKFS" 1G "-O extra_attr,compression,inode_checksum" -c -r &&
	rm -f "$img"
# LZO (liblzo2) when the build has it, else -a lzo is refused below
if "$SLOAD" -h | grep -q 'algorithm: lz4, lzo'; then
	load ours-compressed-lzo "$MKFS" 1G "-O extra_attr,compression,inode_checksum" -c -a lzo -L 3 &&
		rm -f "$img"
	LZO_BAD=
else
	LZO_BAD="-c -a lzo"
fi
load ours-noinline "$MKFS" 1G "-O $FULL" --no-inline-data && rm -f "$img"
load ours-quota "$MKFS" 1G "-O extra_attr,quota,project_quota,inode_checksum,flexible_inline_xattr" &&
	rm -f "$img"
load f2fs-tools-s1 "$MKFS_ORACLE" 1G "" && rm -f "$img"
load f2fs-tools-quota "$MKFS_ORACLE" 1G "-O extra_attr,quota" && rm -f "$img"
load f2fs-tools-full-s4 "$MKFS_ORACLE" 2G "-s 4 -O $FULL" && rm -f "$img"

# A multi-device volume (mkfs -c): devices 1 and 2 are opened from the
# superblock's device list, as fsck and dump open them, and the tree is
# loaded across all three (device 0 holds little more than the metadata);
# both fscks find it clean and dump reads it back.  A load with a device
# missing is refused naming it, the volume unchanged.
MD=$WORK/md
[ ${#MD} -le 50 ] || MD=$(mktemp -d /tmp/f2md.XXXXXX)	# paths go into the superblock (63 bytes)
mkdir -p "$MD"
md0=$MD/d0.img md1=$MD/d1.img md2=$MD/d2.img
truncate -s 24M "$md0"
truncate -s 16M "$md1"
truncate -s 64M "$md2"
# used_past DEVICE: main segments with valid blocks on device DEVICE and after
used_past() {
	first=$("$DUMP" "$md0" 2>/dev/null | awk -v want="$1" '
		$1 == "segment0_blkaddr" { s0 = $NF + 0 }
		$1 == "main_blkaddr" { m = $NF + 0 }
		$1 ~ /^devs\[[0-9]+\]\.total_segments$/ { split($1, p, /[][]/); n[p[2]] = $NF + 0 }
		END { at = s0; for (i = 0; i < want; i++) at += n[i] * 512; print int((at - m) / 512) }')
	"$DUMP" --sections "$md0" 2>/dev/null |
		awk -v from="$first" '$2 ~ /^[0-9]+$/ && $2 >= from && $4 > 0 { k++ } END { print k + 0 }'
}
if ! "$MKFS" -f -q -O extra_attr,flexible_inline_xattr,inode_checksum -c "$md1" -c "$md2" "$md0" \
	> "$WORK/mkfs.log" 2>&1; then
	fail "multi-device: mkfs -c: $(tail -n 1 "$WORK/mkfs.log")"
elif "$SLOAD" -P -f "$WORK/src" "$md0" > "$WORK/sload.log" 2>&1; then
	pass "multi-device: loaded"
	both_fscks_clean "$md0" multi-device
	same_tree "$md0" multi-device
	on1=$(used_past 1) on2=$(used_past 2)
	[ "$on1" -gt "$on2" ] && [ "$on2" -gt 0 ] &&
		pass "multi-device: blocks on devices 1 ($((on1 - on2)) segments) and 2 ($on2)" ||
		fail "multi-device: the load did not reach every device (${on1:-?} segments past device 0, ${on2:-?} past device 1)"
	mv "$md2" "$md2.away"
	sum=$(cat "$md0" "$md1" | cksum)
	mkdir -p "$WORK/mdmore"
	echo new > "$WORK/mdmore/new_file"
	if ! "$SLOAD" -f "$WORK/mdmore" "$md0" > "$WORK/sload.log" 2>&1 &&
	   grep -q "device 2 of the volume, $md2" "$WORK/sload.log" && [ "$(cat "$md0" "$md1" | cksum)" = "$sum" ]; then
		pass "multi-device: a missing device is named, the volume unchanged"
	else
		fail "multi-device, device 2 missing: $(tail -n 1 "$WORK/sload.log")"
	fi
else
	fail "multi-device: sload.f2fs: $(tail -n 2 "$WORK/sload.log")"
fi
rm -rf "${MD:?}"

# A second load into the loaded -s 128 volume keeps what it holds.
mkdir -p "$WORK/more/sub"
for i in $(seq 1 250); do : > "$WORK/more/top_$i"; done
echo more > "$WORK/more/sub/file"
if "$SLOAD" --nat-writeback 1 -f "$WORK/more" "$s128" > "$WORK/sload.log" 2>&1; then
	pass "second load into a loaded volume"
	both_fscks_clean "$s128" "second load"
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
# Merging at any depth: a tree whose directories exist in the volume
# (dirs/deep/a/b, files, dirs/hashed) adds its new names inside them; a
# file the volume has already (files/small) keeps the volume's content and
# the source's is skipped with a message, as f2fs-tools' sload does.
# extract IMG: dump.f2fs -r of IMG into $WORK/out.
extract() {
	rm -rf "$WORK/out"
	"$DUMP" -r -o "$WORK/out" -P -L "$1" > "$WORK/dump.log" 2>&1
}
# manifest_of_out MANIFEST: the manifest of $WORK/out without what the
# second load and the merge added; removes $WORK/out.
manifest_of_out() {
	for n in top_1 top_2 sub new_top; do rm -rf "${WORK:?}/out/$n"; done
	for i in $(seq 3 250); do rm -f "$WORK/out/top_$i"; done
	# the host stamps a directory an entry leaves: its time from the image back
	for f in dirs/deep/a/b/new_deep files/new_file dirs/hashed/new_h; do
		touch -r "$WORK/out/${f%/*}" "$WORK/stamp" 2>/dev/null
		rm -f "$WORK/out/$f"
		touch -r "$WORK/stamp" "$WORK/out/${f%/*}" 2>/dev/null
	done
	"$MANIFEST" -d -i "$WORK/out" > "$1"
	rm -rf "$WORK/out"
}
M=$WORK/merge
mkdir -p "$M/dirs/deep/a/b" "$M/files" "$M/dirs/hashed"
echo deep > "$M/dirs/deep/a/b/new_deep"
echo file > "$M/files/new_file"
echo hashed > "$M/dirs/hashed/new_h"
echo not this > "$M/files/small"
echo top > "$M/new_top"
if "$SLOAD" -f "$M" "$s128" > "$WORK/sload.log" 2>&1; then
	pass "merge: loaded into existing directories"
	both_fscks_clean "$s128" "merge"
	extract "$s128"
	[ "$(cat "$WORK/out/dirs/deep/a/b/new_deep")" = deep ] && [ "$(cat "$WORK/out/files/new_file")" = file ] &&
	[ "$(cat "$WORK/out/dirs/hashed/new_h")" = hashed ] && [ "$(cat "$WORK/out/new_top")" = top ] &&
		pass "merge: new names at every depth" || fail "merge: new names missing"
	cmp -s "$WORK/out/files/small" "$WORK/src/files/small" &&
		pass "merge: a file the volume has keeps its content" || fail "merge: files/small was replaced"
	grep -q 'files/small exists in the volume' "$WORK/sload.log" &&
		pass "merge: the skipped name is reported" || fail "merge: no message for files/small"
	manifest_of_out "$WORK/img.man"
	diff "$WORK/src.man" "$WORK/img.man" > /dev/null &&
		pass "merge: the rest of the tree is intact" || fail "merge: the first tree changed"
else
	fail "merge: $(tail -n 2 "$WORK/sload.log")"
fi
# The same tree again: every name is there, nothing changes in the tree.
if "$SLOAD" -f "$WORK/src" "$s128" > "$WORK/sload.log" 2>&1; then
	both_fscks_clean "$s128" "the same tree again"
	extract "$s128"
	manifest_of_out "$WORK/img2.man"
	diff "$WORK/img.man" "$WORK/img2.man" > /dev/null &&
		pass "the same tree again: every name kept as it was" || fail "the same tree again: the tree changed"
else
	fail "the same tree again: $(tail -n 1 "$WORK/sload.log")"
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
	both_fscks_clean "$img" casefold
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
	both_fscks_clean "$img" android
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

# The built-in file_contexts matcher (--builtin-contexts) against
# libselinux's lookup (the default in a build with libselinux) on the same
# file_contexts: exact paths before regular expressions, the last match
# winning, file types, alternatives, classes, optional groups, <<none>>
# (dump.f2fs -r does not extract the FIFO, so its label is compared only
# through the load succeeding).
S=$WORK/fcsrc
mkdir -p "$S/bin/logd" "$S/lib" "$S/lib64/sub" "$S/etc" "$S/xbin" "$S/vendor/d"
for f in bin/sh bin/netd bin/toolbox bin/init.sh bin/NETD lib/libc.so lib64/libm.so lib64/sub/x \
	etc/hosts etc/a.conf etc/b.conf.bak etc/other xbin/su xbin/ls vendor/file vendor/d/f; do
	echo "$f" > "$S/$f"
done
mkfifo "$S/bin/fifo"
cat > "$WORK/fc2" <<'FC'
/system(/.*)?                   u:object_r:system_file:s0
/system/bin(/.*)?               u:object_r:system_exec:s0
/system/bin/sh          --      u:object_r:shell_exec:s0
/system/bin/[a-z]+d     --      u:object_r:daemon_exec:s0
/system/bin/.*\.sh      --      u:object_r:script_exec:s0
/system/bin/logd        -d      u:object_r:logd_dir:s0
/system/bin/fifo        -p      u:object_r:fifo_file:s0
/system/lib(64)?(/.*)?          u:object_r:system_lib_file:s0
/system/etc/.*\.conf            u:object_r:conf_file:s0
/system/etc/hosts               u:object_r:hosts_file:s0
/system/etc/(hosts|other)       u:object_r:etc_pair:s0
/system/xbin/su                 <<none>>
/system/vendor/[^/]+            u:object_r:vendor_top:s0
FC
labels_of() {
	rm -rf "$WORK/out"
	"$DUMP" -r -o "$WORK/out" -P -L "$1" > "$WORK/dump.log" 2>&1
	python3 - "$WORK/out" <<'PY'
import os, sys
root = sys.argv[1]
for d, dirs, files in sorted(os.walk(root)):
    for n in sorted(dirs + files):
        q = os.path.join(d, n)
        try:
            label = os.getxattr(q, 'security.selinux', follow_symlinks=False).decode().rstrip('\0')
        except OSError:
            label = '-'
        print(os.path.relpath(q, root), label)
PY
	rm -rf "$WORK/out"
}
for m in lib builtin; do
	img=$WORK/fc-$m.img
	rm -f "$img"
	truncate -s 256M "$img"
	"$MKFS" -f -q -O extra_attr,flexible_inline_xattr "$img"
	opt=
	[ $m = builtin ] && opt=--builtin-contexts
	"$SLOAD" $opt -f "$S" -t /system -s "$WORK/fc2" "$img" > "$WORK/sload.log" 2>&1 ||
		fail "file_contexts ($m): $(tail -n 1 "$WORK/sload.log")"
	labels_of "$img" > "$WORK/fc-$m.txt"
	rm -f "$img"
done
if diff "$WORK/fc-lib.txt" "$WORK/fc-builtin.txt" > "$WORK/fc.diff"; then
	pass "file_contexts: the built-in matcher labels as libselinux's lookup does"
else
	fail "file_contexts: built-in and libselinux differ: $(head -n 6 "$WORK/fc.diff" | tr '\n' ' ')"
fi
cat > "$WORK/fc.want" <<'WANT'
bin/NETD u:object_r:system_exec:s0
bin/netd u:object_r:daemon_exec:s0
bin/sh u:object_r:shell_exec:s0
etc/b.conf.bak u:object_r:system_file:s0
etc/hosts u:object_r:hosts_file:s0
etc/other u:object_r:etc_pair:s0
lib64/sub/x u:object_r:system_lib_file:s0
vendor/d/f u:object_r:system_file:s0
xbin/su -
WANT
sort "$WORK/fc.want" > "$WORK/fc.want.sorted"
if grep -F -x -f "$WORK/fc.want" "$WORK/fc-builtin.txt" | sort | cmp -s - "$WORK/fc.want.sorted"; then
	pass "file_contexts: the built-in matcher's labels are the expected ones"
else
	fail "file_contexts: built-in labels: $(grep -e '^bin/' -e '^etc/' "$WORK/fc-builtin.txt" | tr '\n' ' ')"
fi

# Power cut at every write (--write-limit N drops every write after the
# N-th): the volume is the old one, clean, until the checkpoint's last
# block is written, and the new one after; NAT blocks written back during
# the load (--nat-writeback 100) included.
C=$WORK/cut
mkdir -p "$C/dir"
head -c 5000000 /dev/urandom > "$C/big"
for i in $(seq 1 300); do echo "$i" > "$C/dir/f$i"; done
img=$WORK/cut.img
truncate -s 256M "$img"
"$MKFS" -f -q -O extra_attr,inode_checksum,quota "$img"
cp --sparse=always "$img" "$WORK/cut0.img"
"$SLOAD" -d 1 --nat-writeback 100 -f "$C" "$img" > "$WORK/sload.log" 2>&1
writes=$(sed -n 's/.*; \([0-9]*\) writes;.*/\1/p' "$WORK/sload.log")
if [ -n "$writes" ] && [ "$writes" -gt 3 ]; then
	pass "cut: a load of $writes writes"
	bad=0
	for n in $(seq 1 "$writes"); do
		cp --sparse=always "$WORK/cut0.img" "$img"
		"$SLOAD" --write-limit "$n" --nat-writeback 100 -f "$C" "$img" > /dev/null 2>&1
		if ! "$FSCK" -t "$img" > "$WORK/fsck.log" 2>&1; then
			bad=1
			fail "cut after write $n: our fsck: $(grep -m 2 F2FS- "$WORK/fsck.log")"
		fi
		if ! "$FSCK_ORACLE" --dry-run "$img" < /dev/null > /dev/null 2>&1; then
			bad=1
			fail "cut after write $n: f2fs-tools fsck"
		fi
		# the root's entries, from the tree our fsck printed (-t)
		have=$(grep -E '^[0-9]+	/[^/]+$' "$WORK/fsck.log" | grep -c -v '	/lost+found$')
		if { [ "$n" -lt "$writes" ] && [ "$have" -ne 0 ]; } ||
		   { [ "$n" -eq "$writes" ] && [ "$have" -ne 2 ]; }; then
			bad=1
			fail "cut after write $n of $writes: $have entries in the root"
		fi
	done
	[ $bad = 0 ] && pass "cut at each of the $writes writes: old volume before the last, new after"
	rm -f "$WORK/cut0.img"
else
	fail "cut: no write count from sload -d 1: $(tail -n 1 "$WORK/sload.log")"
fi
rm -f "$img"

# Usage errors and refused options.
"$SLOAD" -V | grep -q '^sload.f2fs' && pass "-V" || fail "-V"
"$SLOAD" -h | grep -q 'Usage: sload.f2fs' && pass "-h" || fail "-h"
for bad in "-r" "-T x" "-a lz4" "-c -L 9" "-c -i a -x b" ${LZO_BAD:+"$LZO_BAD"} "-c -a lzo-rle" "-c -m 4"; do
	# shellcheck disable=SC2086
	if "$SLOAD" $bad -f "$WORK/src" "$WORK/none.img" > /dev/null 2>&1; then
		fail "sload $bad accepted"
	else
		pass "sload $bad refused"
	fi
done
finish
