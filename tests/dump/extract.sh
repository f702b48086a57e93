#!/bin/sh
# tests/dump/extract.sh: extraction round-trips.  A source tree is copied
# into images with our sload.f2fs (f2fs-tools' mkfs and ours), user
# xattrs are added to some inodes' inline xattr areas by inject.f2fs, then `dump.f2fs -r -o DIR -P -L` must reproduce every file byte
# for byte: type, content, size, mode, owner, symlink targets and xattrs.
# Also: -i of a single file and of a subdirectory, symlinks without -L, and
# decimal/hex inode numbers.
. "$(dirname "$0")/common.sh"
require_tools mkfs oracle
setup_work
make_tree "$WORK/src" || hard_error "cannot build the source tree"

# ino_of IMG PATH-IN-IMAGE: look a path up with our -i views, from the root.
ino_of() {
	python3 - "$DUMP" "$1" "$2" <<'PY'
import json, subprocess, sys
dump, img, path = sys.argv[1:]
# the name -> ino map comes from the NAT view and each inode's i_name/i_pino
nat = json.loads(subprocess.run([dump, '--json', '-n', '0~-1', img], check=True,
                                capture_output=True).stdout)['nat']['entries']
names = {}
for e in nat:
    if e['nid'] != e['ino'] or e['nid'] < 3:
        continue
    d = json.loads(subprocess.run([dump, '--json', '-i', str(e['nid']), img],
                                  check=True, capture_output=True).stdout)['inode']
    names[(d['i_pino'], d['i_name'])] = e['nid']
ino = 3
for part in path.split('/'):
    ino = names[(ino, part)]
print(ino)
PY
}

# node_blkaddr IMG INO
node_blkaddr() {
	"$DUMP" --json -i "$2" "$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["inode"]["node_blkaddr"])'
}

# add_xattrs IMG SRC REL NAME VALUE ...: in the image and in the source tree.
add_xattrs() {
	img=$1 src=$2 rel=$3
	shift 3
	ino=$(ino_of "$img" "$rel") && blk=$(node_blkaddr "$img" "$ino") &&
		$CHECK put-xattr "$img" "$blk" "$@" || return 1
	python3 - "$src/$rel" "$@" <<'PY'
import os, sys
path, kv = sys.argv[1], sys.argv[2:]
for k, v in zip(kv[0::2], kv[1::2]):
    os.setxattr(path, 'user.' + k, v.encode(), follow_symlinks=False)
PY
}

roundtrip() {
	label=$1 mkfs=$2
	shift 2
	img=$WORK/img
	src=$WORK/src.$label
	rm -rf "$src" "$WORK/out" && cp -a "$WORK/src" "$src"
	rm -f "$img" && truncate -s 1G "$img"
	if ! "$mkfs" -q -f "$@" "$img" > "$WORK/mkfs.log" 2>&1 || ! populate "$img" "$src"; then
		fail "$label: cannot build the image"
		return
	fi
	if add_xattrs "$img" "$src" small.txt color blue mood "calm down" &&
	   add_xattrs "$img" "$src" dir1/three_m.bin k v; then
		pass "$label: xattrs added"
	else
		fail "$label: cannot add xattrs"
	fi
	check "$label: f2fs-tools fsck accepts the image" "$ORACLE_FSCK" "$img"
	check "$label: dump -r -o -P -L" "$DUMP" -r -o "$WORK/out" -P -L "$img"
	check "$label: tree identical" $CHECK tree "$src" "$WORK/out"

	# one file by decimal and by hex inode number
	ino=$(ino_of "$img" dir1/dir2/five_m.bin)
	rm -rf "$WORK/one" "$WORK/hex"
	check "$label: -i $ino -o" "$DUMP" -i "$ino" -o "$WORK/one" -P "$img"
	check "$label: single file identical" cmp "$src/dir1/dir2/five_m.bin" "$WORK/one/five_m.bin"
	check "$label: -i 0x$(printf %x "$ino")" "$DUMP" -i "0x$(printf %x "$ino")" -o "$WORK/hex" "$img"
	check "$label: hex ino gives the same file" cmp "$WORK/one/five_m.bin" "$WORK/hex/five_m.bin"

	# a subdirectory
	ino=$(ino_of "$img" dir1)
	rm -rf "$WORK/sub"
	check "$label: -i dir1 -o" "$DUMP" -i "$ino" -o "$WORK/sub" -P -L "$img"
	check "$label: subdirectory identical" $CHECK tree "$src/dir1" "$WORK/sub/dir1"

	# without -L a symlink becomes a file holding its target
	ino=$(ino_of "$img" link)
	rm -rf "$WORK/nol"
	check "$label: symlink without -L" "$DUMP" -i "$ino" -o "$WORK/nol" "$img"
	check "$label: symlink written as a file" sh -c "[ -f '$WORK/nol/link' ] && [ \"\$(cat '$WORK/nol/link')\" = small.txt ]"
}

roundtrip theirs "$ORACLE_MKFS"
roundtrip ours "$MKFS"

# -o needs -i or -r; -r needs -o: usage errors with a message, exit 1
"$DUMP" -o "$WORK/x" "$WORK/img" > /dev/null 2> "$WORK/err"
check "-o alone is refused" sh -c "[ $? -eq 1 ] && [ \$(wc -l < '$WORK/err') -eq 1 ]"
finish
