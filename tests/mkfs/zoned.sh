#!/bin/sh
# tests/mkfs/zoned.sh: mkfs.f2fs -m on emulated zoned devices (a sparse
# image and its IMAGE.zones side file, see include/f2fs_zone.h).
#
# Zone sizes of 96, 200 and 1000 MiB (not powers of two), with the zone
# capacity equal to and below the zone size (4 MiB zones of 1 MiB, below
# one segment, and 6 of 5, ending inside one), with conventional zones for
# the metadata and, without any, as the zoned device behind a regular
# first device (-c); a host-aware model.  For each volume: sections are
# zones, the blkzoned feature is set, our fsck is clean, every sequential
# zone's write pointer is exactly where the valid blocks of its section
# end (only the zones of the two logs mkfs writes are open, the others
# empty; every zone before the main area is conventional), user blocks fit
# the capacity, and the free segment count counts the usable segments of
# each section (all of a section in a conventional zone, those before the
# capacity in a sequential one: what Linux 6.1 and f2fs-tools' fsck
# count).  A second mkfs -f over a formatted volume resets the zones.
# Refusals (each before the first write): -s against the zone size, -z 2,
# no conventional zones for the metadata, a zone size that is not whole
# segments, -m without a zoned device, two zone sizes in one volume, a
# read-only zone, a device keeping one zone open, a malformed side file
# (named by its line), a capacity the tree's first blocks would fill (4 KiB;
# 8 KiB with quota files); a device keeping 4 zones open is formatted with a
# warning.  Last, the user space beside power-of-two zones on the same
# 32 GiB (printed; mkfs.f2fs(8) quotes it), and the same zones padded to a
# power of two with the real size as capacity (the same user space).
#
# f2fs-tools cannot see an emulated model (it would read the image as a
# regular file), so the oracle here is our fsck; tests/kernel/zoned.sh
# runs both fsck's against real zoned devices.
. "$(dirname "$0")/common.sh"
require_tools
make_workdir
command -v python3 >/dev/null || hard_error "python3 not found"
OUR_FSCK=$top_builddir/fsck/fsck.f2fs OUR_DUMP=$top_builddir/dump/dump.f2fs
[ -x "$OUR_FSCK" ] && [ -x "$OUR_DUMP" ] || hard_error "our fsck.f2fs/dump.f2fs are not built"

# Device paths go into the superblock of a multi-device volume (63
# characters at most): the images live in a short directory.
SHORT=$(mktemp -d /tmp/f2zn.XXXXXX) || hard_error "cannot create a directory in /tmp"
add_cleanup "rm -rf '$SHORT'"

# model FILE ZONE_MIB CAP_MIB CONVENTIONAL [host-aware]
model() {
	{
		echo "zone_size ${2}M"
		echo "zone_capacity ${3}M"
		echo "conventional $4"
		[ -n "$5" ] && echo "model $5"
	} >"$1"
}

# verify TAG IMG ZONE_MIB CAP_MIB: the checks every formatted volume passes.
verify() {
	v_tag=$1 v_img=$2 v_z=$3 v_c=$4
	run_cmd "$v_tag.fsck" "$OUR_FSCK" "$v_img"
	if [ "$RC" = 0 ]; then
		pass "$v_tag: our fsck is clean"
	else
		fail "$v_tag: our fsck exit $(describe_rc "$RC")"
		show_file "$WORK/$v_tag.fsck.out"
	fi
	run_cmd "$v_tag.super" "$OUR_DUMP" --json --super "$v_img"
	run_cmd "$v_tag.zones" "$OUR_DUMP" --json --zones "$v_img"
	if [ "$RC" != 0 ]; then
		fail "$v_tag: dump --zones exit $(describe_rc "$RC")"
		show_file "$WORK/$v_tag.zones.err"
		return
	fi
	if python3 - "$WORK/$v_tag.super.out" "$WORK/$v_tag.zones.out" "$v_z" "$v_c" \
		>"$WORK/$v_tag.py" 2>&1 <<'EOF'
import json, sys
sb_doc = json.load(open(sys.argv[1]))
zn = json.load(open(sys.argv[2]))["zones"]
zone_blocks, cap = int(sys.argv[3]) * 256, int(sys.argv[4]) * 256

def find(d, key):
    if isinstance(d, dict):
        if key in d:
            return d[key]
        for v in d.values():
            r = find(v, key)
            if r is not None:
                return r
    if isinstance(d, list):
        for v in d:
            r = find(v, key)
            if r is not None:
                return r
    return None

bad = []
def need(ok, what):
    if not ok:
        bad.append(what)

sps = find(sb_doc, "segs_per_sec")
secs = find(sb_doc, "section_count")
feat = find(sb_doc, "feature")
user = find(sb_doc, "user_block_count")
ovp = find(sb_doc, "overprov_segment_count")
free = find(sb_doc, "free_segment_count")
need(sps * 512 == zone_blocks, "segs_per_sec %s is not the zone size" % sps)
need(find(sb_doc, "secs_per_zone") == 1, "secs_per_zone is not 1")
need(feat is not None and int(feat) & 0x2, "blkzoned feature not set (feature %s)" % feat)
usable_segs = sps - (zone_blocks - cap) // 512
seq_secs = sum(1 for z in zn["table"]
               if z["type"] != "conventional" and z["state"] not in ("meta", "outside"))
usable = secs * sps - seq_secs * (sps - usable_segs)
need(free == usable - 6,
     "free_segment_count %s, expected %d usable segments (%d sections in sequential zones) less 6"
     % (free, usable, seq_secs))
need(user <= (secs - ovp // sps) * cap,
     "user_block_count %s exceeds the capacity of the non-overprovision sections" % user)
need(zn["zoned_devices"] >= 1, "no zoned device seen")
open_zones = 0
for z in zn["table"]:
    seq = z["type"] != "conventional"
    if z["state"] == "meta":
        need(not seq or z["type"] == "seq-pref",
             "zone %d/%d before the main area is sequential" % (z["dev"], z["zone"]))
        continue
    if not seq:
        continue
    need(z["capacity"] == cap, "zone %d capacity %d" % (z["zone"], z["capacity"]))
    if z["state"] == "outside":
        need(z["written"] == 0, "zone %d past the main area is written" % z["zone"])
        continue
    need(z["written"] == z["valid_blocks"],
         "zone %d: write pointer %d blocks in, %d valid blocks" % (z["zone"], z["written"], z["valid_blocks"]))
    written_log = z["current"] in ("hot_node", "hot_data")
    need((z["cond"] == "open") == written_log and (z["cond"] == "empty") != written_log,
         "zone %d is %s, log %s" % (z["zone"], z["cond"], z["current"]))
    open_zones += written_log
need(open_zones >= 1 or any(z["type"] == "conventional" and z["current"] == "hot_node"
                            for z in zn["table"]),
     "the hot node log is in no zone")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
EOF
	then
		pass "$v_tag: sections are zones, blkzoned, write pointers match the SIT, capacity counted"
	else
		fail "$v_tag: volume does not match its zones"
		show_file "$WORK/$v_tag.py"
	fi
}

# 1. single devices with conventional zones; zone sizes not powers of two
for spec in 96:80:2:48 96:80:6:48 96:96:2:48 200:150:2:24 1000:700:2:14 1000:1000:3:16 4:1:8:64 6:5:6:64; do
	IFS=: read -r z c conv n <<EOF
$spec
EOF
	img=$WORK/z$z-$c-$conv.img
	new_sparse "$img" "$((z * n))M"
	model "$img.zones" "$z" "$c" "$conv"
	run_mkfs "mk$z-$c-$conv" -q -m "$img"
	if [ "$RC" != 0 ]; then
		fail "mkfs -m, $z MiB zones, capacity $c MiB: exit $(describe_rc "$RC")"
		show_file "$WORK/mk$z-$c-$conv.err"
		continue
	fi
	pass "mkfs -m, $z MiB zones, capacity $c MiB, $conv conventional: formatted"
	verify "z$z-$c-$conv" "$img" "$z" "$c"
done

# 2. again over the formatted 96 MiB volume: -f resets the zones (a zone
# written by the first run would refuse a write not at its write pointer)
img=$WORK/z96-80-2.img
run_mkfs "again" -q -f -m -s 48 "$img"
if [ "$RC" = 0 ]; then
	pass "mkfs -m -f -s 48 over a zoned volume: zones reset, formatted again"
	verify "again" "$img" 96 80
else
	fail "mkfs -m -f over a zoned volume: exit $(describe_rc "$RC")"
	show_file "$WORK/again.err"
fi

# 3. no conventional zones: the zoned device behind a regular first device
for spec in 96:80:40 200:200:20 1000:600:12; do
	IFS=: read -r z c n <<EOF
$spec
EOF
	reg=$SHORT/reg$z.img zon=$SHORT/zon$z.img
	new_sparse "$reg" "$((2 * z + 8))M"
	new_sparse "$zon" "$((z * n))M"
	model "$zon.zones" "$z" "$c" 0
	run_mkfs "md$z" -q -m -c "$zon" "$reg"
	if [ "$RC" != 0 ]; then
		fail "mkfs -m -c zoned regular, $z MiB zones: exit $(describe_rc "$RC")"
		show_file "$WORK/md$z.err"
		continue
	fi
	pass "mkfs -m -c zoned regular, $z MiB zones, capacity $c MiB: formatted"
	verify "md$z" "$reg" "$z" "$c"
done

# 4. a device that keeps 4 zones open: formatted, with the mount option
# newer kernels need named
img=$WORK/open4.img
new_sparse "$img" 2400M
model "$img.zones" 96 96 2
echo "max_open 4" >>"$img.zones"
run_mkfs "open4" -q -m "$img"
if [ "$RC" = 0 ] && grep -q "active_logs=4" "$WORK/open4.err"; then
	pass "max_open 4: formatted, the warning names active_logs=4"
else
	fail "max_open 4: exit $(describe_rc "$RC") or no warning"
	show_file "$WORK/open4.err"
fi

# 5. host-aware: sequential-write-preferred zones hold the metadata too
img=$WORK/ha.img
new_sparse "$img" 2400M
model "$img.zones" 96 96 0 host-aware
run_mkfs "ha" -q -m "$img"
if [ "$RC" = 0 ]; then
	pass "mkfs -m on a host-aware model without conventional zones: formatted"
	verify "ha" "$img" 96 96
else
	fail "mkfs -m host-aware: exit $(describe_rc "$RC")"
	show_file "$WORK/ha.err"
fi

# 6. refusals, each before the first write: image and side file unchanged
refuse() {
	r_tag=$1 r_img=$2 r_want=$3
	shift 3
	head -c 8388608 "$r_img" | cksum >"$WORK/$r_tag.before"
	[ ! -f "$r_img.zones" ] || cksum <"$r_img.zones" >>"$WORK/$r_tag.before"
	run_mkfs "$r_tag" "$@"
	r_rc=$RC
	head -c 8388608 "$r_img" | cksum >"$WORK/$r_tag.after"
	[ ! -f "$r_img.zones" ] || cksum <"$r_img.zones" >>"$WORK/$r_tag.after"
	if is_refusal_rc "$r_rc" && grep -q -- "$r_want" "$WORK/$r_tag.err" &&
	   cmp -s "$WORK/$r_tag.before" "$WORK/$r_tag.after"; then
		pass "refused ($r_want), nothing written"
	else
		fail "$r_tag: exit $(describe_rc "$r_rc"), expected a refusal naming '$r_want' and no write"
		show_file "$WORK/$r_tag.err"
	fi
}
img=$WORK/r.img
new_sparse "$img" 1536M
printf 'f2fs' | dd of="$img" bs=1 seek=2000000 conv=notrunc 2>/dev/null
model "$img.zones" 96 80 2
refuse "s-mismatch" "$img" "disagrees with the zone size" -m -s 4 "$img"
refuse "z2" "$img" "a section is one zone" -m -z 2 "$img"
model "$img.zones" 96 80 0
refuse "no-conv" "$img" "needs conventional zones" -m "$img"
model "$img.zones" 97 97 2
refuse "odd-zone" "$img" "not a whole number of 2 MiB segments" -m "$img"
model "$img.zones" 96 80 2
echo "zone 5 0 readonly" >>"$img.zones"
refuse "readonly" "$img" "zone 5 is readonly" -m "$img"
model "$img.zones" 96 80 2
echo "max_open 1" >>"$img.zones"
refuse "max-open" "$img" "at least 2 logs" -m "$img"
printf 'zone_size 96M\nzone_capacity 80M\nbogus line\n' >"$img.zones"
refuse "bad-model" "$img" "zone model .*: line 3 is not understood" -m "$img"
rm -f "$img.zones"
refuse "not-zoned" "$img" "needs a zoned device" -m "$img"
reg=$SHORT/rr.img zon=$SHORT/rz.img
new_sparse "$reg" 960M
new_sparse "$zon" 2000M
model "$reg.zones" 96 96 10
model "$zon.zones" 200 200 0
refuse "two-sizes" "$reg" "same zone size" -m -c "$zon" "$reg"
# a capacity the first blocks of the tree would fill (the kernel takes any)
printf 'zone_size 2M\nzone_capacity 4K\nconventional 64\n' >"$img.zones"
refuse "tiny-cap" "$img" "needs a capacity above 4 KiB" -m "$img"
printf 'zone_size 2M\nzone_capacity 8K\nconventional 64\n' >"$img.zones"
refuse "tiny-cap-quota" "$img" "needs a capacity above 24 KiB" -m -O quota,lost_found "$img"

# 7. user space beside power-of-two zones on the same 32 GiB device
img=$WORK/cmp.img
for z in 96 128 200 256 1000 1024; do
	new_sparse "$img" 32G
	model "$img.zones" "$z" "$z" 4
	run_mkfs "cmp$z" -m "$img"
	user=$(awk '/user space/ { print $3 }' "$WORK/cmp$z.out")
	echo "    32 GiB, $z MiB zones: ${user:-?} MiB of user space"
	[ -n "$user" ] || fail "mkfs -m 32 GiB, $z MiB zones: no user space line"
done
# The same 341 zones of 96 MiB, exposed padded to 128 MiB zones with a
# 96 MiB capacity (as dm-po2zone does): the same user space.
user_of() {
	new_sparse "$img" "$((341 * $1))M"
	model "$img.zones" "$1" 96 4
	run_mkfs "pad$1" -m "$img"
	awk '/user space/ { print $3 }' "$WORK/pad$1.out"
}
u96=$(user_of 96)
u128=$(user_of 128)
if [ -n "$u96" ] && [ "$u96" = "$u128" ]; then
	pass "341 zones of 96 MiB, native or padded to 128 MiB: $u96 MiB of user space either way"
else
	fail "padded zones: ${u96:-?} MiB native, ${u128:-?} MiB padded"
fi
rm -f "$img" "$img.zones"

finish
