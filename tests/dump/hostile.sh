#!/bin/sh
# tests/dump/hostile.sh: dump.f2fs on corrupted images never crashes (exit
# status 0 or 1 only, with a one-line message on failure), never writes
# outside the -o directory, and falls back the way the kernel does:
# - superblock copy 1 zeroed: copy 2 is used, it says so on stderr, and
#   every value is the same as on the intact image;
# - both copies zeroed: exit 1 with one line on stderr;
# - current checkpoint pack broken: the other pack is used, it says so;
# - garbage NAT and SIT blocks, a garbage NAT journal count, garbage inode
#   and dentry blocks, a dentry name with '/': every view runs without a
#   crash; random byte flips over the metadata area, many rounds.
. "$(dirname "$0")/common.sh"
require_tools oracle
setup_work
make_tree "$WORK/src" || hard_error "cannot build the source tree"

BASE=$WORK/base.img
truncate -s 1G "$BASE"
"$ORACLE_MKFS" -q -f "$BASE" > "$WORK/mkfs.log" 2>&1 && populate "$BASE" "$WORK/src" ||
	hard_error "cannot build the base image"
"$DUMP" --json "$BASE" > "$WORK/base.json" || hard_error "dump fails on the base image"

jget() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
main_blk=$(jget "$WORK/base.json" "d['superblock']['main_blkaddr']")
cp_blk=$(jget "$WORK/base.json" "d['checkpoint']['pack_start_blkaddr']")
sit_blk=$(jget "$WORK/base.json" "d['superblock']['sit_blkaddr']")
nat_blk=$(jget "$WORK/base.json" "d['superblock']['nat_blkaddr']")
start_sum=$(jget "$WORK/base.json" "d['checkpoint']['cp_pack_start_sum']")

# put IMG BLOCK BYTE-OFFSET LEN random|zero|HEXBYTES
put() {
	python3 - "$@" <<'PY'
import os, sys
img, blk, off, n, what = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
data = os.urandom(n) if what == 'random' else bytes(n) if what == 'zero' else bytes.fromhex(what)
with open(img, 'r+b') as f:
    f.seek(blk * 4096 + off)
    f.write(data)
PY
}

fresh_copy() { cp --sparse=always "$BASE" "$WORK/t.img"; }

# run_views LABEL: every view on t.img; exit status must be 0 or 1.
run_views() {
	label=$1
	bad=
	rm -rf "$WORK/out"
	for v in "" "--json" "--sections" "-s 0~-1" "-a 0~20" "-n 0~-1" "--nat-bits" \
		 "-i 3 -M" "-b $main_blk" "-b $((main_blk + 1))" "-I 3" "-r -o $WORK/out -P -L" \
		 "--json --sections -n 0~-1 -i 3 -M"; do
		# shellcheck disable=SC2086
		"$DUMP" $v "$WORK/t.img" > "$WORK/v.out" 2> "$WORK/v.err"
		rc=$?
		if [ $rc -gt 1 ] || grep -q -e 'Sanitizer' -e 'runtime error' "$WORK/v.err"; then
			bad="$bad [$v: exit $rc: $(head -c 200 "$WORK/v.err")]"
		elif [ $rc -eq 1 ] && [ "$(grep -c '^dump.f2fs: ' "$WORK/v.err")" -lt 1 ]; then
			bad="$bad [$v: exit 1 without a message]"
		fi
	done
	if [ -z "$bad" ]; then pass "$label: no crash"; else fail "$label:$bad"; fi
	check "$label: nothing written outside the output directory" \
		sh -c "[ -z \"\$(ls -A '$WORK/escape' 2>/dev/null)\" ]"
}

# superblock copy 1 (block 0) zeroed; copies are numbered 1 and 2 as
# inject.f2fs --sb numbers them
fresh_copy
put "$WORK/t.img" 0 1024 3072 zero
"$DUMP" --json "$WORK/t.img" > "$WORK/t.json" 2> "$WORK/t.err"
check "sb copy 1 zeroed: exit 0" test $? -eq 0
check "sb copy 1 zeroed: says it uses copy 2" grep -q "superblock copy 1 is invalid.*using copy 2" "$WORK/t.err"
check "sb copy 1 zeroed: same values from copy 2" python3 -c "
import json
a = json.load(open('$WORK/base.json')); b = json.load(open('$WORK/t.json'))
assert a['superblock']['copy_in_use'] == 1
assert b['superblock']['copy_in_use'] == 2
for d in (a, b):
    for k in ('copies', 'copy_in_use'): d['superblock'].pop(k)
assert a == b, 'values differ'
"
run_views "sb copy 1 zeroed"

# both copies zeroed
put "$WORK/t.img" 1 1024 3072 zero
"$DUMP" "$WORK/t.img" > /dev/null 2> "$WORK/t.err"
check "both superblocks zeroed: exit 1" test $? -eq 1
check "both superblocks zeroed: one line on stderr" test "$(wc -l < "$WORK/t.err")" -eq 1

# current checkpoint pack broken (its crc)
fresh_copy
put "$WORK/t.img" "$cp_blk" 4092 4 random
"$DUMP" "$WORK/t.img" > /dev/null 2> "$WORK/t.err"
check "current cp pack broken: exit 0" test $? -eq 0
check "current cp pack broken: says so" grep -q "checkpoint pack .* is invalid" "$WORK/t.err"
run_views "current cp pack broken"

# garbage NAT blocks (both copies of the first blocks)
fresh_copy
put "$WORK/t.img" "$nat_blk" 0 16384 random
put "$WORK/t.img" "$((nat_blk + 512))" 0 16384 random
run_views "garbage NAT"

# garbage SIT
fresh_copy
put "$WORK/t.img" "$sit_blk" 0 16384 random
put "$WORK/t.img" "$((sit_blk + 512))" 0 16384 random
run_views "garbage SIT"

# NAT journal count far beyond its capacity (compacted summary)
fresh_copy
put "$WORK/t.img" "$((cp_blk + start_sum))" 0 2 ffff
put "$WORK/t.img" "$((cp_blk + start_sum))" 507 2 ffff
run_views "garbage journal counts"

# garbage root inode and root dentry block
fresh_copy
"$DUMP" --json -i 3 -M "$BASE" > "$WORK/root.json"
rino=$(jget "$WORK/root.json" "d['inode']['node_blkaddr']")
rdent=$(jget "$WORK/root.json" "d['inode']['block_map'][0]['blkaddr']")
put "$WORK/t.img" "$rdent" 0 4096 random
run_views "garbage root dentry block"
put "$WORK/t.img" "$rino" 0 4072 random
run_views "garbage root inode"

# a dentry whose name contains '/' or is '..': must not escape the output dir
fresh_copy
mkdir -p "$WORK/escape"
python3 - "$WORK/t.img" "$rdent" <<'PY'
import sys
img, blk = sys.argv[1], int(sys.argv[2])
with open(img, 'r+b') as f:
    f.seek(blk * 4096)
    b = bytearray(f.read(4096))
    # entries 2.. are real names: rename them to ../escape/x and ..
    names = [b'../escape/x', b'..', b'/tmp/x']
    slot, k = 2, 0
    while slot < 214 and k < len(names):
        if b[slot // 8] >> (slot % 8) & 1:
            ln = int.from_bytes(b[30 + slot * 11 + 8:30 + slot * 11 + 10], 'little')
            n = names[k]
            if ln >= len(n):
                b[30 + slot * 11 + 8:30 + slot * 11 + 10] = len(n).to_bytes(2, 'little')
                b[2384 + slot * 8:2384 + slot * 8 + len(n)] = n
                k += 1
            slot += max(1, (ln + 7) // 8)
        else:
            slot += 1
    f.seek(blk * 4096)
    f.write(b)
PY
run_views "hostile dentry names"

# random flips over the metadata area, many rounds
i=0
rounds=${HOSTILE_ROUNDS:-40}
while [ $i -lt "$rounds" ]; do
	fresh_copy
	python3 - "$WORK/t.img" "$cp_blk" "$main_blk" "$i" <<'PY'
import random, sys
img, lo, hi, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
r = random.Random(seed)
with open(img, 'r+b') as f:
    for _ in range(64):
        f.seek(r.randrange(lo * 4096, (hi + 64) * 4096))
        f.write(bytes([r.randrange(256)]))
PY
	run_views "random flips, round $i"
	i=$((i + 1))
done
finish
