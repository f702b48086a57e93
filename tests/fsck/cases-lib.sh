# tests/fsck/cases-lib.sh: the base images and the corruption table of
# tests/fsck/cases.txt, shared by cases.sh (the check) and repair.sh (the
# repair).  Sourced after common.sh; it builds the base images in $WORK
# and defines set_vars (the variables the corruptions use) and
# make_case ID... (a corrupted copy of a base image in $IMG).
TABLE=$top_srcdir/tests/fsck/cases.txt

make_src() {
	local d=$WORK/src i
	mkdir -p "$d/d1/d2" "$d/many" "$d/small"
	echo hello >"$d/a.txt"
	ln "$d/a.txt" "$d/d1/hard"
	ln -s a.txt "$d/link"
	head -c 9000000 /dev/zero | tr '\0' 'b' >"$d/big"
	head -c 100000 /dev/zero | tr '\0' 'm' >"$d/d1/mid"
	i=1
	while [ $i -le 400 ]; do echo $i >"$d/many/entry_$i"; i=$((i + 1)); done
	echo s >"$d/small/x"
	mkdir -p "$WORK/srcsmall/dir"
	echo hi >"$WORK/srcsmall/a.txt"
	echo there >"$WORK/srcsmall/dir/b"
	# for sload_case: files whose every block is different (xattr-area:
	# 5 MiB; 1940 and 2958 blocks, which fill the writer's first and second
	# direct node exactly, so the kernel's layout needs a new direct node,
	# then a new indirect one too), and a tree of a few hundred files with
	# some MiB of data (sload-mix)
	mkdir -p "$WORK/srcxattr" "$WORK/srcmix" "$WORK/srcind" "$WORK/srcwide" "$WORK/srclnk"
	python3 - "$WORK" <<'PY' || hard_error "python3 for the sload sources"
import os, random, sys
work = sys.argv[1]
for name, blocks in (('big5m', 1280), ('fill1', 1940), ('fill2', 2958)):
    with open(os.path.join(work, 'srcxattr', name), 'wb') as f:
        for i in range(blocks):
            f.write(('%s %08d ' % (name[:5], i)).encode() * 273 + b'.')
rnd = random.Random(7)
for d in range(10):
    os.makedirs(os.path.join(work, 'srcmix', 'dir%d' % d))
    for i in range(40):
        with open(os.path.join(work, 'srcmix', 'dir%d' % d, 'f%d' % i), 'wb') as f:
            f.write(rnd.randbytes(rnd.choice([10, 500, 4096, 5000, 20000, 70000])))
with open(os.path.join(work, 'srcmix', 'big'), 'wb') as f:
    f.write(rnd.randbytes(3 << 20))
# srcwide: twelve directories of 200 names (in dentry blocks) and twelve
# of three (inline), side by side: more directories than one batch of the
# walk checks at once (FSCK_BATCH_DIRS), so some go back on the stack
for d in range(12):
    for kind, files in (('w', 200), ('s', 3)):
        path = os.path.join(work, 'srcwide', '%s%02d' % (kind, d))
        os.makedirs(path)
        for i in range(files):
            with open(os.path.join(path, 'f%03d' % i), 'w') as f:
                f.write('%s %d\n' % (kind, i))
# srclnk: a symlink whose target is too long for the inline area (its
# target in a block), beside the file it names (lnk-*)
with open(os.path.join(work, 'srclnk', 'target'), 'w') as f:
    f.write('target\n')
os.symlink('./' * 1800 + 'target', os.path.join(work, 'srclnk', 'long'))
# srcind/huge: 5000 different blocks, past the inode's and its two direct
# nodes' slots: an indirect node with two direct nodes (node-ind-*)
with open(os.path.join(work, 'srcind', 'huge'), 'wb') as f:
    for i in range(5000):
        f.write(('huge %08d ' % i).encode() * 292 + bytes(4096 - 14 * 292))
PY
}

# The bases are the same bytes on every run (fixed UUID, checkpoint seed and
# timestamps, with both tools' mkfs and sload), so that a repaired image can
# be recognised by its content: tests/fsck/kernel-repair.sh boots once per
# run for an image both builds of scripts/test make alike.
REPRO_UUID=6b3c2a9e-8f1d-4c2b-9a7e-1f0e2d3c4b5a
REPRO_TIME=1764547200
REPRO_MKFS="-r -T $REPRO_TIME -U $REPRO_UUID"

# base NAME SIZE SRC MKFS MKFS-OPTIONS...: SRC is loaded by our sload.f2fs,
# or by BASE_SLOAD when set (f2fs-tools' for the bases below that say why)
base() {
	local name=$1 size=$2 src=$3 mkfs=$4 img=$WORK/base-$1.img
	shift 4
	truncate -s "$size" "$img" || hard_error truncate
	# shellcheck disable=SC2086
	"$mkfs" -f -q $REPRO_MKFS "$@" "$img" >/dev/null 2>&1 || hard_error "mkfs $* for base $name"
	if [ -n "$src" ]; then
		if [ -n "${BASE_SLOAD:-}" ]; then
			# f2fs-tools' sload exits 1 after its own fsck summary; the image is checked below
			"$BASE_SLOAD" -T "$REPRO_TIME" -f "$src" "$img" >/dev/null 2>&1
		else
			"$SLOAD" -T "$REPRO_TIME" -f "$src" "$img" >"$WORK/sload.log" 2>&1 ||
				hard_error "base $name: sload.f2fs: $(tail -2 "$WORK/sload.log")"
		fi
	fi
	run_fsck "$img"
	[ "$RC" = 0 ] || hard_error "base $name is not clean: $(head -3 "$OUT")"
}

make_src
base plain 256M "" "$MKFS" -O extra_attr,inode_checksum,sb_checksum,quota,lost_found
base min 256M "" "$MKFS"
# pop (and quota below) stay loaded by f2fs-tools' sload, part of the
# f2fs-tools-built oracle set: their cases aim at what its images have and
# ours do not: small directories (/d1, /small) in dentry blocks where ours
# keeps them inline (dent-*, dir-newaddr0, dir-nodeblk), an extent (i_ext)
# in every file inode (4023 in ino-dupblock, data-shared, sec-datamove), and
# mkfs' node segment left holding blocks while no log is in it
# (cp-datalog-node)
BASE_SLOAD=$SLOAD_ORACLE base pop 256M "$WORK/src" "$MKFS" -O extra_attr,inode_checksum,sb_checksum
base s4 512M "" "$MKFS" -s 4
base cf 256M "" "$MKFS" -O casefold -C utf8
base flex 256M "$WORK/srcsmall" "$MKFS" -O extra_attr,flexible_inline_xattr
# with /lost+found from mkfs: reconnecting into an existing one
base lpf 256M "$WORK/srcsmall" "$MKFS" -O extra_attr,inode_checksum,lost_found
# a symlink mapped by a block (lnk-*)
base lnk 256M "$WORK/srclnk" "$MKFS" -O extra_attr,inode_checksum
# f2fs-tools' mkfs keeps root, quota and lost+found in the NAT journal and
# the logs in the SIT journal: the journal cases start from it
base tools 256M "" "$MKFS_ORACLE" -O extra_attr,inode_checksum,quota,lost_found

# Quota with several owners (also a clean control): sload.f2fs keeps every
# file root's, so a few inodes get other uids, gids and project ids and our
# repair rebuilds the three quota files; both checkers must then find the
# image clean.  Our rebuild lays a file out as header, root, then the
# first leaf (1 KiB block 2: entries of the smallest ids at byte 2064 +
# 72 k of the file's first block) and the tree blocks.
base_quota() {
	local img=$WORK/base-quota.img i=0 p ino
	truncate -s 256M "$img" || hard_error truncate
	# shellcheck disable=SC2086
	"$MKFS" -f -q $REPRO_MKFS -O extra_attr,inode_checksum,quota,project_quota,lost_found "$img" \
		>/dev/null 2>&1 || hard_error "mkfs for base quota"
	"$SLOAD_ORACLE" -T "$REPRO_TIME" -f "$WORK/src" "$img" >/dev/null 2>&1	# see base pop
	for p in /a.txt /d1 /d1/mid /many/entry_7 /small/x /small; do
		ino=$(ino_of "$img" $p)
		"$INJECT" --node --nid "$ino" --mb i_uid --val $((1000 + i % 3)) "$img" >/dev/null 2>&1 &&
		"$INJECT" --node --nid "$ino" --mb i_gid --val $((100 + i % 2)) "$img" >/dev/null 2>&1 &&
		"$INJECT" --node --nid "$ino" --mb i_projid --val $((7 + i)) "$img" >/dev/null 2>&1 ||
			hard_error "inject owners for base quota"
		i=$((i + 1))
	done
	run_fsck "$img" -y
	[ "$RC" = 1 ] || hard_error "base quota: the repair exits $RC: $(grep '^F2FS' "$OUT" | head -3)"
	run_fsck "$img"
	[ "$RC" = 0 ] || hard_error "base quota is not clean: $(grep '^F2FS' "$OUT" | head -3)"
	[ "$(oracle_verdict "$img")" = clean ] || hard_error "f2fs-tools finds base quota corrupt"
}
base_quota

# chain: pop with an unclean checkpoint and, after it, a fsync'd copy of
# /big's first direct node in the warm node log, made as the fuzz base rf
# makes it (tests/fuzz/fz_bases.py, step_chain): roll-forward replays it at
# mount, and a repair must keep it recoverable
base_chain() {
	local img=$WORK/base-chain.img
	cp --sparse=always "$WORK/base-pop.img" "$img" || hard_error "copy for base chain"
	python3 -B -c 'import sys
sys.path.insert(0, sys.argv[1])
import fz_bases, fz_tools
fz_bases.step_chain(fz_tools.Tools(sys.argv[2]), sys.argv[3], {"/big": int(sys.argv[4])})' \
		"$top_srcdir/tests/fuzz" "$top_builddir" "$img" "$(ino_of "$img" /big)" ||
		hard_error "base chain: the chain cannot be made"
	run_fsck "$img"
	[ "$RC" = 0 ] && grep -q '^F2FS-8004' "$OUT" ||
		hard_error "base chain is not clean with a chain: $(grep '^F2FS' "$OUT" | head -3)"
}
base_chain

first_word() { set -- $1; echo "$1"; }

# pending_chain: $IMG's checkpoint becomes an unclean one followed by a
# fsync'd copy of /big's first direct node, as in tests/fuzz's base rf
# (fz_bases.step_chain): a repair must keep that roll-forward chain.
pending_chain() {
	python3 - "$top_srcdir/tests/fuzz" "$top_builddir" "$IMG" "$BIG" >>"$WORK/inject.log" 2>&1 <<'PY' || echo "inject failed: pending_chain" >>"$WORK/inject.err"
import sys
sys.path.insert(0, sys.argv[1])
import fz_bases, fz_tools
fz_bases.step_chain(fz_tools.Tools(sys.argv[2]), sys.argv[3], {'/big': int(sys.argv[4])})
PY
}

# zero_sit_block SEGNO: the SIT block holding SEGNO's entry, zeroed in
# both copies
zero_sit_block() {
	local sit half
	sit=$(cp_field "$IMG" sit_blkaddr)
	half=$(($(cp_field "$IMG" segment_count_sit) / 2 * 512))
	dd if=/dev/zero of="$IMG" bs=4096 seek=$((sit + $1 / 55)) count=1 conv=notrunc 2>/dev/null
	dd if=/dev/zero of="$IMG" bs=4096 seek=$((sit + half + $1 / 55)) count=1 conv=notrunc 2>/dev/null
}

# natj_copy SLOT NID: NAT journal slot SLOT holds NID's entry as it is
natj_copy() {
	local addr
	addr=$(dump_field "$IMG" "$2" node_blkaddr)
	inj --nat 0 --journal --idx "$1" --mb nid --val "$2"
	inj --nat 0 --journal --idx "$1" --mb ino --val "$2"
	inj --nat 0 --journal --idx "$1" --mb block_addr --val "$addr"
}

# free_seg IMG: the last main segment without valid blocks that is no log.
free_seg() {
	"$DUMP" -s 0~-1 "$1" 2>/dev/null |
		awk '$1 ~ /^[0-9]+$/ && $4 == 0 && $8 == "-" { s = $1 } END { print s }'
}

# Variables the corruptions use, from the base image.
set_vars() {
	local img=$1
	CPFLAGS=$(cp_field "$img" ckpt_flags)
	CPERR=$((CPFLAGS | 0x8))
	CPFSCK=$((CPFLAGS | 0x10))
	CPQUOTA=$((CPFLAGS | 0x800))
	VBLOCKS=$(cp_field "$img" valid_block_count)
	HOTNODE=$(first_word "$(cp_field "$img" 'cur_node_segno[0]')")
	HOTDATA=$(first_word "$(cp_field "$img" 'cur_data_segno[0]')")
	MAIN=$(cp_field "$img" main_blkaddr)
	FREESEG=$(free_seg "$img")
	FREEBLK=$((MAIN + FREESEG * 512 + 100))
	FREENODEBLK=$((MAIN + HOTNODE * 512 + 511))
	FILE=$(ino_of "$img" /a.txt)
	BIG=$(ino_of "$img" /big)
	DIR=$(ino_of "$img" /d1)
	MANY=$(ino_of "$img" /many)
	MID=$(ino_of "$img" /d1/mid)
	D2=$(ino_of "$img" /d1/d2)
	SMALLX=$(ino_of "$img" /small/x)
	SDIR=$(ino_of "$img" /dir)
	LINK=$(ino_of "$img" /link)
	LONGLINK=$(ino_of "$img" /long)
	BIGDN= BIGDNBLK= BIGDATA= MIDDATA= MIDNODE= EXTRA=0 BIGSEG= IXA=0
	if [ -n "$BIG" ]; then
		BIGDN=$(node_of "$img" "$BIG" 1)
		BIGDNBLK=$("$DUMP" -i "$BIG" -M "$img" 2>/dev/null |
			awk '/^-- node blocks/ { d = 1; next } d && $1 ~ /^[0-9]+$/ { print $2; exit }')
		BIGDNBLK=$((BIGDNBLK))
		BIGDATA=$(data_blk "$img" "$BIG" 1)
		BIGSEG=$(((BIGDATA - MAIN) / 512))
	fi
	if [ -n "$MID" ]; then
		MIDDATA=$(data_blk "$img" "$MID" 1)
		MIDNODE=$(dump_field "$img" "$MID" node_blkaddr)
		EXTRA=$(($(dump_field "$img" "$MID" i_extra_isize) / 4))
	fi
	if [ -n "$FILE" ]; then
		IXA=$(dump_field "$img" "$FILE" i_inline_xattr_size)
	fi
	# first data block of the user / group / project quota files (ino 4..6
	# in images made by either mkfs)
	QUSR=$(data_blk "$img" 4 1) QGRP=$(data_blk "$img" 5 1) QPRJ=$(data_blk "$img" 6 1)
}

# read_table: the table's cases as "id|base|cmd|expect|verdict|note" lines,
# filtered by CASES=id,id when set.
read_table() {
	local id rest
	while IFS='|' read -r id rest; do
		id=$(echo $id)
		case "$id" in ''|'#'*) continue ;; esac
		if [ -n "${CASES:-}" ]; then
			case ",$CASES," in *",$id,"*) ;; *) continue ;; esac
		fi
		echo "$id|$rest"
	done <"$TABLE"
}

# new_dev MAJOR MINOR: a device number in the kernel's new encoding (the
# one f2fs stores in the second address word when the number does not fit
# the old 8:8 one).
new_dev() {
	echo $(( ($2 & 0xff) | ($1 << 8) | (($2 & ~0xff) << 12) ))
}

# mkspecial INO MODE FTYPE OLDWORD NEWWORD: make the inline file INO a
# device node, FIFO or socket as the kernel stores one (f2fs_update_inode):
# no inline data, size 0, the device number in the first address word
# (old encoding) or the second (new encoding), and the entry's file type.
mkspecial() {
	local ino=$1 extra inl
	extra=$(($(dump_field "$IMG" "$ino" i_extra_isize) / 4))
	inl=$(dump_field "$IMG" "$ino" i_inline)
	inj --node --nid "$ino" --mb i_mode --val "$2"
	inj --node --nid "$ino" --mb i_inline --val $((inl & ~0x0a))
	inj --node --nid "$ino" --mb i_size --val 0
	inj --node --nid "$ino" --mb i_addr --idx "$extra" --val "$4"
	inj --node --nid "$ino" --mb i_addr --idx $((extra + 1)) --val "$5"
	inj --dent --nid "$ino" --mb d_ftype --val "$3"
}

# rep HEXBYTE N: the byte repeated N times, in hex.
rep() {
	local i=0 out=
	while [ $i -lt "$2" ]; do out=$out$1; i=$((i + 1)); done
	echo "$out"
}

# put_ixattr INO INDEX:NAME:HEXVALUE...: write an xattr list (header and
# entries, as the kernel lays them out) into the inline xattr area of
# inode INO, word by word; the area must hold it.
put_ixattr() {
	local ino=$1 ixa words
	shift
	ixa=$(dump_field "$IMG" "$ino" i_inline_xattr_size)
	[ "${ixa:-0}" -gt 0 ] || ixa=50
	words=$(python3 - "$ixa" "$@" <<'PY'
import struct, sys
ixa = int(sys.argv[1])
buf = struct.pack('<II16x', 0xF2F52011, 1)
for spec in sys.argv[2:]:
    index, name, value = spec.split(':')
    name, value = name.encode(), bytes.fromhex(value)
    e = struct.pack('<BBH', int(index), len(name), len(value)) + name + value
    buf += e + bytes(-len(e) % 4)
assert len(buf) <= ixa * 4, 'the list does not fit the inline area'
buf += bytes(ixa * 4 - len(buf))
for i in range(ixa):
    print(923 - ixa + i, struct.unpack_from('<I', buf, 4 * i)[0])
PY
) || { echo "put_ixattr: bad entries $*" >>"$WORK/inject.err"; return; }
	echo "$words" | while read -r idx val; do
		inj --node --nid "$ino" --mb i_addr --idx "$idx" --val "$val"
	done
}

# chain_other_crc: $IMG gets a pending roll-forward chain (a fsync'd copy
# of /big's first direct node, fz_bases.step_chain) whose node carries the
# checkpoint's version under another CRC, the pack binding its chain to
# its CRC (CP_CRC_RECOVERY_FLAG, not CP_NOCRC_RECOVERY_FLAG): a pack
# rewritten after the chain.  chain_other_crc noflag: the pack has lost
# CP_CRC_RECOVERY_FLAG as well (its ckpt_flags damaged).
chain_other_crc() {
	python3 - "$top_srcdir/tests/fuzz" "$top_builddir" "$IMG" "$BIG" "${1:-}" >>"$WORK/inject.log" 2>&1 <<'PY' || echo "inject failed: chain_other_crc" >>"$WORK/inject.err"
import struct, sys
sys.path.insert(0, sys.argv[1])
import fz_bases, fz_tools
tools, img = fz_tools.Tools(sys.argv[2]), sys.argv[3]
fz_bases.step_chain(tools, img, {'/big': int(sys.argv[4])})
sup = fz_bases.tool_json(tools, img, '--super')
sb, cp = sup['superblock'], sup['checkpoint']
flags = (cp['ckpt_flags'] | 0x40) & ~0x200
if sys.argv[5] == 'noflag':
    flags &= ~0x40
fz_bases.inject(tools, img, '--cp', cp['pack_in_use'], '--cp-blk', 'first', '--mb', 'ckpt_flags',
                '--val', flags)
cp = fz_bases.tool_json(tools, img, '--super')['checkpoint']
blk = sb['main_blkaddr'] + (cp['cur_node_segno'][1] << sb['log_blocks_per_seg']) + cp['cur_node_blkoff'][1]
node = bytearray(fz_bases.read_block(img, blk))
struct.pack_into('<Q', node, fz_bases.BLK - 12, (0x5a5a5a5a << 32) | cp['checkpoint_ver'])
fz_bases.write_block(img, blk, bytes(node))
PY
}

# inline_dir_reserve: the tree srcsmall loaded by our sload.f2fs, which
# keeps a small directory's entries inline (as the kernel does), then the
# reserved first word of /dir's inline area set: the kernel refuses to
# move the entries out to a block (f2fs_move_inline_dirents)
inline_dir_reserve() {
	local ino
	"$SLOAD" -T "$REPRO_TIME" -f "$WORK/srcsmall" "$IMG" >>"$WORK/inject.log" 2>&1 ||
		echo "inject failed: sload.f2fs" >>"$WORK/inject.err"
	CASE_SRC=$WORK/srcsmall
	ino=$(ino_of "$IMG" /dir)
	inj --node --nid "$ino" --mb i_addr --idx $(($(dump_field "$IMG" "$ino" i_extra_isize) / 4)) --val 7
}

# inline_root [IBLOCKS]: the root's entries moved from its dentry block
# into its inode as an inline dentry area (slots kept; an inline directory
# has an inline xattr area: i_inline_xattr_size words, or 50 without
# flexible_inline_xattr), i_size the area's, i_blocks IBLOCKS (1: the
# inode only), and the dentry block freed in SIT and the checkpoint
inline_root() {
	local nblk dblk ixa seg vb
	nblk=$(dump_field "$IMG" 3 node_blkaddr)
	dblk=$(data_blk "$IMG" 3 1)
	ixa=$(dump_field "$IMG" 3 i_inline_xattr_size)
	[ "${ixa:-0}" -gt 0 ] || ixa=50
	python3 - "$IMG" "$nblk" "$dblk" "$ixa" <<'PY' || echo "inject failed: inline_root" >>"$WORK/inject.err"
import struct, sys
img, nblk, dblk, ixa = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
with open(img, 'rb') as f:
    f.seek(nblk * 4096)
    node = bytearray(f.read(4096))
    f.seek(dblk * 4096)
    blk = f.read(4096)
extra = struct.unpack_from('<H', node, 360)[0] // 4 if node[3] & 0x20 else 0
size = 4 * (923 - extra - ixa - 1)
nr = size * 8 // (19 * 8 + 1)
bm = (nr + 7) // 8
area = 360 + 4 * (extra + 1)
de = area + bm + (size - nr * 19 - bm)
names = de + 11 * nr
node[360 + 4 * extra:360 + 4 * 923] = bytes(4 * (923 - extra))
for s in range(214):
    if blk[s // 8] >> (s % 8) & 1:
        assert s < nr, 'the entries do not fit inline'
        node[area + s // 8] |= 1 << (s % 8)
        node[de + 11 * s:de + 11 * s + 11] = blk[30 + 11 * s:41 + 11 * s]
        node[names + 8 * s:names + 8 * s + 8] = blk[2384 + 8 * s:2392 + 8 * s]
node[3] |= 0x04
struct.pack_into('<QQ', node, 16, size, 1)
with open(img, 'r+b') as f:
    f.seek(nblk * 4096)
    f.write(node)
PY
	inj --node --nid 3 --mb i_blocks --val "${1:-1}"
	seg=$(((dblk - MAIN) / 512))
	inj --sit 0 --blk "$dblk" --mb valid_map_bit --val 0
	inj --sit 0 --segno "$seg" --mb valid_blocks --val $(($(sit_count "$seg") - 1))
	vb=$(cp_field "$IMG" valid_block_count)
	inj --cp 0 --mb valid_block_count --val $((vb - 1))
}

# sload_case SRC: copy the tree SRC into the case image with f2fs-tools'
# sload.f2fs, as a corruption (the images it leaves are the damage: see
# cases.txt); repair.sh then compares every file of SRC with what our
# dump.f2fs extracts from the repaired image.  sload exits 1 after its own
# fsck summary: the verdict is ours to make.
sload_case() {
	"$SLOAD_ORACLE" -T "$REPRO_TIME" -f "$1" "$IMG" >>"$WORK/inject.log" 2>&1
	CASE_SRC=$1
}

# our_sload SRC: copy the tree SRC into the case image with our
# sload.f2fs (small directories inline, as the kernel keeps them).
our_sload() {
	"$top_builddir/sload/sload.f2fs" -T "$REPRO_TIME" -f "$1" "$IMG" >>"$WORK/inject.log" 2>&1 ||
		echo "inject failed: sload.f2fs" >>"$WORK/inject.err"
	CASE_SRC=$1
}

# bigquota_img: $IMG made again as a quota volume whose user and group
# quota files outgrow their inodes' address slots into a direct node (node
# offset 1): 1792 empty files loaded by our sload.f2fs, each owned (-C
# fs_config) by its own uid and gid, spread so that every one needs tree
# blocks of its own (top two bytes of the id differ): files of 1126 blocks.
bigquota_img() {
	local src=$WORK/srcbigq a b
	if [ ! -d "$src" ]; then
		mkdir -p "$src" || return 1
		a=0
		while [ $a -lt 256 ]; do
			b=0
			while [ $b -lt 7 ]; do
				: >"$src/f${a}_$b"
				echo "f${a}_$b $(((a << 24) | (b << 16) | 1)) $(((a << 24) | (b << 16) | 1)) 0644"
				b=$((b + 1))
			done
			a=$((a + 1))
		done >"$WORK/bigq.fs_config"
	fi
	"$MKFS" -f -q $REPRO_MKFS -O extra_attr,inode_checksum,quota "$IMG" >/dev/null 2>&1 &&
		"$top_builddir/sload/sload.f2fs" -T "$REPRO_TIME" -C "$WORK/bigq.fs_config" -f "$src" \
			"$IMG" >>"$WORK/inject.log" 2>&1 ||
		echo "inject failed: bigquota_img" >>"$WORK/inject.err"
	CASE_SRC=$src
}

# node_at INO OFS [FIELD]: the nid (FIELD 1, the default) or the block
# address (FIELD 2) of the node at node offset OFS of inode INO in $IMG.
node_at() {
	"$DUMP" -i "$1" -M "$IMG" 2>/dev/null |
		awk -v o="$2" -v f="${3:-1}" '/^-- node blocks/ { d = 1; next } d && $3 == o { print $f; exit }'
}

# zero_node INO OFS [SRCBLK]: zero the block of the node at node offset
# OFS of inode INO in $IMG (or copy block SRCBLK over it).
zero_node() {
	local addr
	addr=$(node_at "$1" "$2" 2)
	[ -n "$addr" ] || { echo "zero_node: inode $1 has no node at offset $2" >>"$WORK/inject.err"; return; }
	if [ -n "${3:-}" ]; then
		dd if="$IMG" of="$IMG" bs=4096 skip="$3" seek=$((addr)) count=1 conv=notrunc 2>/dev/null
	else
		dd if=/dev/zero of="$IMG" bs=4096 seek=$((addr)) count=1 conv=notrunc 2>/dev/null
	fi
}

# sit_count SEGNO: the valid block count of a segment in $IMG's SIT.
sit_count() {
	"$DUMP" -s "$1~$1" "$IMG" 2>/dev/null | awk -v s="$1" '$1 == s { print $4; exit }'
}

# file_blk INO FBLK: the address of file block FBLK of inode INO in $IMG.
file_blk() {
	local run
	run=$("$DUMP" -i "$1" -M "$IMG" 2>/dev/null | awk -v f="$2" '/^-- data blocks/ { d = 1; next }
		/^-- node/ { d = 0 } d && $1 ~ /^[0-9]+$/ && f >= $1 && f < $1 + $3 {
			print $2, f - $1; exit }')
	[ -n "$run" ] && echo $((${run% *} + ${run#* }))
}

# misplace_block INO FBLK DEST: what a writer that ignores segment types
# leaves: file block FBLK of INO (one of the inode's own slots) copied to
# block DEST, with the slot, the SIT bits and counts and the summary entry
# following it; the data are intact, only the segment's class is wrong.
misplace_block() {
	local ino=$1 fblk=$2 dest=$3 old extra
	old=$(file_blk "$ino" "$fblk")
	extra=$(dump_field "$IMG" "$ino" i_extra_isize)
	[ -n "$old" ] || { echo "misplace_block: no block $fblk in ino $ino" >>"$WORK/inject.err"; return; }
	dd if="$IMG" of="$IMG" bs=4096 skip="$old" seek="$dest" count=1 conv=notrunc 2>/dev/null
	inj --node --nid "$ino" --mb i_addr --idx $((${extra:-0} / 4 + fblk)) --val "$dest"
	inj --sit 0 --blk "$dest" --mb valid_map_bit --val 1
	inj --sit 0 --blk "$dest" --mb valid_blocks --val $(($(sit_count $(((dest - MAIN) / 512))) + 1))
	inj --sit 0 --blk "$old" --mb valid_map_bit --val 0
	inj --sit 0 --blk "$old" --mb valid_blocks --val $(($(sit_count $(((old - MAIN) / 512))) - 1))
	inj --ssa --blk "$dest" --mb nid --val "$ino"
	inj --ssa --blk "$dest" --mb ofs_in_node --val "$fblk"
}

# move_node NID DEST: node NID copied to block DEST as a writer that
# ignores segment types would leave it: its NAT entry, the SIT bits and
# counts and the summary entry follow it, and DEST's segment is typed and
# summarised as a node segment.
move_node() {
	local old seg
	old=$(dump_field "$IMG" "$1" node_blkaddr)
	seg=$((($2 - MAIN) / 512))
	dd if="$IMG" of="$IMG" bs=4096 skip="$old" seek="$2" count=1 conv=notrunc 2>/dev/null
	inj --nat 0 --nid "$1" --mb block_addr --val "$2"
	inj --sit 0 --blk "$2" --mb valid_map_bit --val 1
	inj --sit 0 --blk "$2" --mb valid_blocks --val $(($(sit_count "$seg") + 1))
	inj --sit 0 --blk "$old" --mb valid_map_bit --val 0
	inj --sit 0 --blk "$old" --mb valid_blocks --val $(($(sit_count $(((old - MAIN) / 512))) - 1))
	inj --ssa --blk "$2" --mb nid --val "$1"
	inj --sit 0 --segno "$seg" --mb type --val 3
	inj --ssa --segno "$seg" --mb entry_type --val 1
}

# misplace_nodes N: the node blocks of the first N inodes after the root
# moved (move_node) into the segment after the hot data log's, in the
# log's section: a section whose node blocks outnumber the data log's.
misplace_nodes() {
	local seg ino k=0
	seg=$(($(first_word "$(cp_field "$IMG" 'cur_data_segno[0]')") + 1))
	for ino in $("$FSCK" -t "$IMG" 2>/dev/null | awk -F'\t' '$1 ~ /^[0-9]+$/ && $1 > 3 { print $1 }' |
		     head -n "$1"); do
		move_node "$ino" $((MAIN + seg * 512 + k))
		k=$((k + 1))
	done
}

# misplace DIR: "INO IDX BYTE HASH" for an entry of directory inode DIR
# (in $IMG) that lies in a dentry block of hash level 1 or deeper: the
# entry's inode, the index of its name's last byte, a new value for that
# byte under which the name hashes to another bucket of that level (the
# stored hash stays the old name's), and a hash of another bucket.
misplace() {
	"$DUMP" -i "$1" -M "$IMG" 2>/dev/null |
		awk '/^-- data blocks/ { d = 1; next } /^-- node/ { d = 0 }
			d && $1 ~ /^[0-9]+$/ { print $1, $2, $3 }' |
		python3 -c "$MISPLACE_PY" "$IMG" "$(dump_field "$IMG" "$1" i_dir_level)"
}
MISPLACE_PY='
import struct, sys
M = 0xffffffff
def words(p, rem):
    pad = (rem | rem << 8) & M
    pad = (pad | pad << 16) & M
    out, w = [], pad
    for i, c in enumerate(p[:16]):
        if i % 4 == 0:
            w = pad
        w = (c + (w << 8)) & M
        if i % 4 == 3:
            out.append(w)
            w = pad
    if len(out) < 4:
        out.append(w)
    return out + [pad] * (4 - len(out))
def dentry_hash(name):
    x0, x1 = 0x67452301, 0xefcdab89
    rem = len(name)
    while True:
        a, b, c, d = words(name, rem)
        s, y0, y1 = 0, x0, x1
        for _ in range(16):
            s = (s + 0x9E3779B9) & M
            y0 = (y0 + ((((y1 << 4) & M) + a) ^ (y1 + s) ^ ((y1 >> 5) + b))) & M
            y1 = (y1 + ((((y0 << 4) & M) + c) ^ (y0 + s) ^ ((y0 >> 5) + d))) & M
        x0, x1 = (x0 + y0) & M, (x1 + y1) & M
        name = name[16:]
        if rem <= 16:
            return x0
        rem -= 16
def position(bidx, dl):
    start = 0
    for level in range(63):
        nb = 1 << min(level + dl, 30)
        per = 2 if level < 31 else 4
        if bidx < start + nb * per:
            return level, nb, (bidx - start) // per
        start += nb * per
    return None
img, dl = sys.argv[1], int(sys.argv[2] or 0)
with open(img, "rb") as f:
    for line in sys.stdin:
        fofs, addr, n = (int(x, 0) for x in line.split())
        for bidx in range(fofs, fofs + n):
            level, nb, bucket = position(bidx, dl)
            if level == 0:
                continue
            f.seek((addr + bidx - fofs) * 4096)
            blk = f.read(4096)
            for i in range(214):
                if not blk[i >> 3] >> (i & 7) & 1:
                    continue
                h, ino, nlen, _ = struct.unpack_from("<IIHB", blk, 30 + 11 * i)
                name = blk[2384 + 8 * i:2384 + 8 * i + nlen]
                if nlen < 3 or name in (b".", b".."):
                    continue
                for c in b"abcdefghijklmnopqrstuvwxyz":
                    new = name[:-1] + bytes([c])
                    if dentry_hash(new) % nb != bucket:
                        print(ino, nlen - 1, c, h ^ 1)
                        sys.exit(0)
sys.exit(1)
'

# A POSIX ACL in f2fs' on-disk form (version 1; user::rw-, user:1000:rw-,
# group::r--, mask::rw-, other::r--), as the kernel stores it under name
# index 2 (access) or 3 (default) with an empty name.
ACL_HEX=010000000100060002000600e8030000040004001000060020000400

# make_case BASE CMD: $IMG is a copy of base BASE corrupted by CMD; returns
# non-zero (with the reason in $WORK/inject.err) when a corruption failed.
# The variables of each base are read from it once (a base never changes)
# and kept in $WORK/vars-BASE, which later switches back to it source.
SET_VARS_NAMES="CPFLAGS CPERR CPFSCK CPQUOTA VBLOCKS HOTNODE HOTDATA MAIN FREESEG FREEBLK"
SET_VARS_NAMES="$SET_VARS_NAMES FREENODEBLK FILE BIG DIR MANY MID D2 SMALLX SDIR BIGDN BIGDNBLK"
SET_VARS_NAMES="$SET_VARS_NAMES BIGDATA MIDDATA MIDNODE EXTRA BIGSEG IXA QUSR QGRP QPRJ LINK LONGLINK"
prev_base=
make_case() {
	if [ "$1" != "$prev_base" ]; then
		if [ -f "$WORK/vars-$1" ]; then
			. "$WORK/vars-$1"
		else
			set_vars "$WORK/base-$1.img"
			for _sv in $SET_VARS_NAMES; do printf '%s=%q\n' "$_sv" "${!_sv}"; done >"$WORK/vars-$1"
		fi
		prev_base=$1
	fi
	IMG=$WORK/case.img
	cp --sparse=always "$WORK/base-$1.img" "$IMG"
	inj() { "$INJECT" "$@" "$IMG" >>"$WORK/inject.log" 2>&1 || echo "inject failed: $*" >>"$WORK/inject.err"; }
	rm -f "$WORK/inject.err"
	CASE_SRC=
	eval "$2"
	[ ! -s "$WORK/inject.err" ]
}

# cut_each_write PRE MAX BEFORE AFTER [OPTION...]: the repair of image PRE
# cut by a power failure after its N-th write, for N = 1 .. MAX
# (writecut.sh, undo.sh): each time $IMG is a fresh copy of PRE, BEFORE N
# runs (: for nothing), then `fsck.f2fs -y OPTION... --write-limit N`
# (run_fsck: $RC, $OUT, $ERR), then AFTER N, which returns non-zero to end
# the loop early.
# (Its locals are prefixed: the hooks run in its dynamic scope and must
# see the callers' variables, such as writecut.sh's $pre.)
cut_each_write() {
	local cut_pre=$1 cut_max=$2 cut_before=$3 cut_after=$4 cut_n=1
	shift 4
	while [ $cut_n -le "$cut_max" ]; do
		cp --sparse=always "$cut_pre" "$IMG"
		"$cut_before" $cut_n
		run_fsck "$IMG" -y "$@" --write-limit $cut_n
		"$cut_after" $cut_n || return 0
		cut_n=$((cut_n + 1))
	done
}
