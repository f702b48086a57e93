#!/bin/sh
# tests/dump/views.sh: the range and reverse-map views.
# - --sections totals agree with the checkpoint (free segments, valid
#   blocks) and with the rows, for several section sizes, fresh and
#   populated; a partial range reads only its part and its rows equal the
#   whole table's rows;
# - every view's JSON parses, and JSON and text agree where both are
#   compared (section totals, NAT rows);
# - -n shows mkfs's NAT journal entries overriding the blocks;
# - --nat-bits is valid on fresh f2fs-tools images;
# - -b finds the owner of an inode block and of a data block;
# - -I finds the inode's node block; -s/-a list the current segments;
# - on a read-only image (-O ro) -a is refused and -b goes without the SSA.
. "$(dirname "$0")/common.sh"
require_tools mkfs oracle
setup_work
make_tree "$WORK/src" || hard_error "cannot build the source tree"

json_get() {	# json_get FILE PYTHON-EXPR (d is the document)
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}

sections_checks() {
	label=$1 img=$2
	check "$label: --sections --json" sh -c "'$DUMP' --sections --json '$img' > '$WORK/sec.json'"
	check "$label: section totals" $CHECK sections "$WORK/sec.json"
	"$DUMP" --sections "$img" > "$WORK/sec.txt" 2>&1
	t_free=$(sed -n 's/^sections [0-9]*: free \([0-9]*\),.*/\1/p' "$WORK/sec.txt")
	j_free=$(json_get "$WORK/sec.json" "d['sections']['totals']['free_sections']")
	check "$label: text and JSON free sections agree ($t_free)" test "$t_free" = "$j_free"
	last=$(json_get "$WORK/sec.json" "d['sections']['totals']['sections'] - 1")
	mid=$((last / 2))
	"$DUMP" --json --sections="$mid~$last" "$img" > "$WORK/part.json" 2>&1
	check "$label: partial range rows equal the whole table's" python3 -c "
import json
w = json.load(open('$WORK/sec.json'))['sections']['table']
p = json.load(open('$WORK/part.json'))['sections']
assert p['totals']['whole_volume'] is False
assert p['table'] == [r for r in w if r['secno'] >= $mid], 'rows differ'
"
}

fresh() {
	label=$1 mkfs=$2
	shift 2
	img=$WORK/fresh.img
	rm -f "$img" && truncate -s 2G "$img"
	if ! "$mkfs" -q -f "$@" "$img" > "$WORK/mkfs.log" 2>&1; then
		fail "$label: mkfs failed"
		return
	fi
	sections_checks "$label" "$img"
	"$DUMP" --json -n 0~-1 "$img" > "$WORK/nat.json" 2>&1
	check "$label: NAT journal entries override the blocks" python3 -c "
import json
n = json.load(open('$WORK/nat.json'))['nat']
rows = {e['nid']: e for e in n['entries']}
for j in n['journal']:
    r = rows[j['nid']]
    assert r['source'] == 'journal' and (r['ino'], r['blkaddr']) == (j['ino'], j['blkaddr']), r
assert rows[3]['blkaddr'] and rows[3]['ino'] == 3
if '$label'.startswith('f2fs-tools'):      # f2fs-tools' mkfs journals the root
    assert rows[3]['source'] == 'journal' and n['journal'][0]['nid'] == 3
assert n['used'] == len([e for e in n['entries'] if e['blkaddr']])
"
}

fresh "our mkfs" "$MKFS"
fresh "our mkfs -s 4" "$MKFS" -s 4
fresh "our mkfs -s 3 -z 2" "$MKFS" -s 3 -z 2
fresh "f2fs-tools mkfs" "$ORACLE_MKFS"
fresh "f2fs-tools mkfs -s 8" "$ORACLE_MKFS" -s 8
check "f2fs-tools image: --nat-bits valid" sh -c "'$DUMP' --nat-bits '$WORK/fresh.img' | grep -q '^state  *valid'"

img=$WORK/pop.img
truncate -s 1G "$img"
if "$ORACLE_MKFS" -q -f "$img" > "$WORK/mkfs.log" 2>&1 && populate "$img" "$WORK/src"; then
	sections_checks "populated" "$img"
	"$DUMP" --json --nat-bits "$img" > "$WORK/nb.json" 2>&1
	check "populated: nat_bits agree with the NAT" python3 -c "
import json
b = json.load(open('$WORK/nb.json'))['nat_bits']
assert b['state'] == 'valid' and b['mismatched_blocks'] == 0, b
"
	# NAT text rows equal JSON rows
	"$DUMP" -n 0~-1 "$img" > "$WORK/nat.txt"
	"$DUMP" --json -n 0~-1 "$img" > "$WORK/nat.json"
	check "populated: NAT text rows equal JSON rows" python3 -c "
import json
rows = json.load(open('$WORK/nat.json'))['nat']['entries']
text = []
for line in open('$WORK/nat.txt'):
    f = line.split()
    if f and f[0].isdigit() and len(f) == 12:
        text.append((int(f[0]), int(f[1]), int(f[2], 16), f[4]))
assert text == [(r['nid'], r['ino'], r['blkaddr'], r['source']) for r in rows], 'differ'
assert len(rows) > 250
"
	# -b on the root inode block and on a data block of the root's dir
	rootblk=$(json_get "$WORK/nat.json" "[e['blkaddr'] for e in d['nat']['entries'] if e['nid']==3][0]")
	"$DUMP" --json -b "$rootblk" "$img" > "$WORK/b.json" 2>&1
	check "populated: -b on the root inode block" python3 -c "
import json
b = json.load(open('$WORK/b.json'))['block']
assert b['area'] == 'main' and b['valid_in_sit'] and b['footer_nid'] == 3 and b['nat_points_here'], b
"
	"$DUMP" --json -i 3 -M "$img" > "$WORK/root.json"
	dblk=$(json_get "$WORK/root.json" "d['inode']['block_map'][0]['blkaddr']")
	"$DUMP" --json -b "$dblk" "$img" > "$WORK/b2.json" 2>&1
	check "populated: -b on a dentry block of the root" python3 -c "
import json
b = json.load(open('$WORK/b2.json'))['block']
assert b['owner_ino'] == 3 and b['parent_points_here'] and b['file_offset_block'] == 0, b
"
	# a big file: the block at file offset 1000 (in a direct node)
	big=$(json_get "$WORK/nat.json" "[e['nid'] for e in d['nat']['entries'] if e['nid']==e['ino'] and e['nid']>3][-1]")
	# (the text view names the inode: one grep per inode, not one Python)
	for ino in $(json_get "$WORK/nat.json" "' '.join(str(e['nid']) for e in d['nat']['entries'] if e['nid']==e['ino'] and e['nid']>3)"); do
		if "$DUMP" -i "$ino" "$img" 2>/dev/null | grep -q '^i_name  *\[five_m\.bin\]$'; then big=$ino; break; fi
	done
	"$DUMP" --json -i "$big" -M "$img" > "$WORK/ino.json"
	check "populated: five_m.bin found by name" test "$(json_get "$WORK/ino.json" "d['inode']['i_name']")" = five_m.bin
	addr=$(json_get "$WORK/ino.json" "[r['blkaddr'] + 1000 - r['fofs'] for r in d['inode']['block_map'] if r['fofs'] <= 1000 < r['fofs'] + r['len']][0]")
	"$DUMP" --json -b "$addr" "$img" > "$WORK/b3.json" 2>&1
	check "populated: -b on block 1000 of five_m.bin" python3 -c "
import json
b = json.load(open('$WORK/b3.json'))['block']
assert b['owner_ino'] == $big and b['file_offset_block'] == 1000 and b['parent_points_here'], b
"
	"$DUMP" --json -I "$big" "$img" > "$WORK/scan.json" 2>&1
	check "populated: -I finds the inode and its direct node" python3 -c "
import json
s = json.load(open('$WORK/scan.json'))['scan']
kinds = sorted(b['kind'] for b in s['blocks'] if b['nat_current'])
assert 'inode' in kinds and 'direct' in kinds, s
"
	seg=$(json_get "$WORK/b3.json" "d['block']['segno']")
	"$DUMP" --json -s "$seg" -a "$seg" "$img" > "$WORK/sa.json" 2>&1
	check "populated: -s/-a of that segment" python3 -c "
import json
d = json.load(open('$WORK/sa.json'))
s = d['sit']['segments'][0]
assert s['segno'] == $seg and s['valid_blocks'] == s['map_popcount'] > 0
a = d['ssa'][0]
assert a['entry_type'] == 'data' and any(e['nid'] for e in a['entries'])
"
	# every view at once: one JSON document
	"$DUMP" --json --super --sections=0~3 -s 0~3 -a 0~1 -n 0~20 --nat-bits -b "$rootblk" \
		-i 3 -M -I 3 "$img" > "$WORK/all.json" 2> "$WORK/all.err"
	check "populated: all views in one JSON document" $CHECK json "$WORK/all.json"
	check "--output writes the file" sh -c "'$DUMP' --json --output '$WORK/o.json' '$img' && cmp -s '$WORK/o.json' '$WORK/all.json' || $CHECK json '$WORK/o.json'"
else
	fail "cannot make the populated image"
fi

# a read-only image (-O ro, filled by f2fs-tools' sload): no SSA to show,
# a node block still names its owner, a data block has no summary
img=$WORK/ro.img
rm -f "$img" && truncate -s 1G "$img"
[ -x "$SLOAD_ORACLE" ] || hard_error "f2fs-tools' sload.f2fs not found: $SLOAD_ORACLE"
if "$MKFS" -q -f -O ro "$img" > "$WORK/mkfs.log" 2>&1 &&
   "$SLOAD_ORACLE" -f "$WORK/src" "$img" > "$WORK/sload.log" 2>&1; then
	"$DUMP" -a 0~1 "$img" > "$WORK/ro.out" 2>&1
	rc=$?
	check "read-only image: -a is refused (no SSA)" sh -c "[ $rc -ne 0 ] && grep -q 'has no SSA' '$WORK/ro.out'"
	"$DUMP" --json -i 3 -M "$img" > "$WORK/ro.json" 2>/dev/null
	rootblk=$(json_get "$WORK/ro.json" "d['inode']['node_blkaddr']" 2>/dev/null)
	dentblk=$(json_get "$WORK/ro.json" "d['inode']['block_map'][0]['blkaddr']" 2>/dev/null)
	"$DUMP" --json -b "${rootblk:-0}" "$img" > "$WORK/rob.json" 2>/dev/null
	check "read-only image: -b on the root inode block names its owner" \
		test "$(json_get "$WORK/rob.json" "d['block']['owner_ino']" 2>/dev/null)" = 3
	"$DUMP" --json -b "${dentblk:-0}" "$img" > "$WORK/rob.json" 2>/dev/null
	check "read-only image: -b on a dentry block says there is no summary" \
		test "$(json_get "$WORK/rob.json" "d['block']['summary_source']" 2>/dev/null)" = "none (read-only image)"
else
	fail "cannot make the read-only image: $(tail -n 2 "$WORK/mkfs.log" "$WORK/sload.log")"
fi
rm -f "$img"

# kernel-written images (left by tests/kernel), when present
for k in $(kernel_images); do
	label="kernel image $(basename "$k")"
	"$DUMP" --json --sections "$k" > "$WORK/k.json" 2> "$WORK/k.err"
	check "$label: --sections" test $? -eq 0
	check "$label: section totals" $CHECK sections --lenient "$WORK/k.json"
	"$DUMP" --json --super -n 0~-1 --nat-bits -i 3 -M -r -o "$WORK/kout" -L "$k" > "$WORK/k.json" 2> "$WORK/k.err"
	check "$label: views and extraction" test $? -eq 0
	check "$label: JSON" $CHECK json "$WORK/k.json"
	rm -rf "$WORK/kout"
done
finish
