#!/bin/sh
# tests/dump/zones.sh: dump.f2fs --zones on emulated zoned volumes (an image
# and its IMAGE.zones side file, see include/f2fs_zone.h): the text table
# and the JSON document describe the same zones; conventional zones have no
# write pointer; zones before the main area are "meta"; a zone written past
# its section's valid blocks shows it (written beside valid_blocks); the
# side file is found next to the image, taken from --zone-model, and found
# for the zoned member of a multi-device volume; a volume without zones
# gives an empty table; the view reads only the superblock, checkpoint and
# SIT.  --sections calls a section full at its zone's capacity.
. "$(dirname "$0")/common.sh"
require_tools mkfs
setup_work

img=$WORK/z.img
truncate -s 1440M "$img"
printf 'zone_size 96M\nzone_capacity 80M\nconventional 2\n' >"$img.zones"
"$MKFS" -q -m "$img" || hard_error "mkfs -m failed"

zones_json() {
	python3 - "$@" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))["zones"]
want = sys.argv[2]
t = doc["table"]
if want == "shape":
    ok = (doc["zoned_devices"] == 1 and len(t) == 15 and doc["devices"][0]["zones"] == 15
          and doc["devices"][0]["emulated"] is True and doc["devices"][0]["capacity_blocks"] == 20480)
    ok = ok and all(z["wp"] is None and z["written"] is None for z in t if z["type"] == "conventional")
    ok = ok and [z["state"] for z in t[:2]] == ["meta", "meta"] and t[2]["secno"] == 0
    ok = ok and all(z["capacity"] == 20480 for z in t if z["type"] == "seq-req")
    sys.exit(0 if ok else 1)
if want == "written":
    z = [z for z in t if z["zone"] == int(sys.argv[3])][0]
    sys.exit(0 if (z["written"], z["valid_blocks"], z["cond"]) == (5, 0, "open") else 1)
if want == "empty":
    sys.exit(0 if doc["zoned_devices"] == 0 and t == [] else 1)
if want == "member":
    ok = doc["zoned_devices"] == 1 and t and all(z["dev"] == 1 for z in t)
    ok = ok and t[0]["start"] == int(sys.argv[3]) and t[0]["secno"] is not None
    sys.exit(0 if ok else 1)
EOF
}

check "--zones --json exits 0" sh -c '"$0" --zones --json "$1" >"$2"' "$DUMP" "$img" "$WORK/z.json"
check "--zones --json: 15 zones, conventional ones without write pointer, 2 meta, capacity" zones_json "$WORK/z.json" shape
"$DUMP" --zones "$img" >"$WORK/z.txt" 2>&1
check "--zones text: header, device line and 15 rows" sh -c \
	'grep -q "^== zones: 1 zoned device" "$0" && grep -q "host-managed (emulated), 15 zones of 98304 KiB (2 conventional), capacity 81920 KiB" "$0" && [ "$(grep -c "^0 " "$0")" = 15 ]' "$WORK/z.txt"
check "--zones text: a conventional zone prints - for its write pointer" \
	sh -c 'grep -E "^0 +0 +conventional +not-wp +0 +- +- " "$0"' "$WORK/z.txt"

# A write pointer moved past the valid blocks (as a torn write leaves it)
# shows side by side with the SIT's count.
sec=$(python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["zones"]["table"]; print([z["zone"] for z in t if z["state"]=="free"][0])' "$WORK/z.json")
echo "zone $sec 5 open" >>"$img.zones"
"$DUMP" --zones --json "$img" >"$WORK/w.json" 2>&1
check "--zones: a zone written past its valid blocks shows written 5, valid 0" \
	zones_json "$WORK/w.json" written "$sec"

# --zone-model FILE instead of IMAGE.zones; without either: no zones.
mv "$img.zones" "$WORK/elsewhere.zones"
"$DUMP" --zones --json "$img" >"$WORK/none.json" 2>&1
check "--zones without a model: no zoned device, empty table" zones_json "$WORK/none.json" empty
"$DUMP" --zones --json --zone-model "$WORK/elsewhere.zones" "$img" >"$WORK/m.json" 2>&1
check "--zone-model FILE: the same zones" zones_json "$WORK/m.json" written "$sec"
check "--zone-model with a malformed file fails, naming the line" sh -c \
	'printf "zone_size 96M\nnonsense\n" >"$2"; ! "$0" --zones --zone-model "$2" "$1" >/dev/null 2>"$3" &&
	 grep -q "zone model .*bad.zones: line 2 is not understood" "$3"' \
	"$DUMP" "$img" "$WORK/bad.zones" "$WORK/bad.err"

# The zoned member of a multi-device volume (paths go into the superblock:
# a short directory).
SHORT=$(mktemp -d /tmp/f2dz.XXXXXX) || hard_error "mktemp"
trap 'rm -rf "$SHORT"; lib_cleanup' EXIT	# and $WORK, as make_scratch's trap did
truncate -s 200M "$SHORT/r.img"
truncate -s 1920M "$SHORT/z.img"
printf 'zone_size 96M\nzone_capacity 80M\n' >"$SHORT/z.img.zones"
"$MKFS" -q -m -c "$SHORT/z.img" "$SHORT/r.img" || hard_error "mkfs -m -c failed"
"$DUMP" --zones --json "$SHORT/r.img" >"$WORK/md.json" 2>&1
check "--zones on a multi-device volume: the member's zones at its volume addresses" \
	zones_json "$WORK/md.json" member 49152

# --sections: a section is full when every block up to its zone's
# capacity is valid (a 2 MiB capacity: one segment of 512 blocks).
INJECT=$top_builddir/inject/inject.f2fs
[ -x "$INJECT" ] || hard_error "inject.f2fs not built: $INJECT"
img2=$WORK/cap.img
truncate -s 1536M "$img2"
printf 'zone_size 96M\nzone_capacity 2M\nconventional 2\n' >"$img2.zones"
"$MKFS" -q -m "$img2" || hard_error "mkfs -m failed"
"$INJECT" --sit 0 --segno 240 --mb vblocks --val 512 "$img2" >/dev/null 2>&1 ||
	hard_error "inject --sit failed"
"$DUMP" --sections=5~5 "$img2" >"$WORK/cap.txt" 2>&1
check "--sections: 512 valid blocks fill a section of a 2 MiB-capacity zone" \
	sh -c 'grep -E "^5 +240 +hot_data +512 .* full " "$0"' "$WORK/cap.txt"

# Only the superblock, checkpoint and SIT are read: a few blocks.
"$DUMP" -d 2 --zones "$img" --zone-model "$WORK/elsewhere.zones" >/dev/null 2>"$WORK/io.txt"
check "--zones reads only metadata blocks" sh -c \
	'n=$(sed -n "s/.* \([0-9]*\) blocks read/\1/p" "$0"); [ -n "$n" ] && [ "$n" -lt 64 ]' "$WORK/io.txt"
finish
