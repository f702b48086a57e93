#!/bin/bash
# tests/fsck/zoned.sh: fsck.f2fs on zoned volumes, with emulated zone
# models (IMAGE.zones side files, f2fs_zone.h) of zone sizes that are not
# powers of two and capacities below them: 96 MiB zones of 80 MiB, 200 of
# 160, 1000 of 900, capacities that end inside a segment (4 MiB zones of
# 1 MiB, below one segment; 6 of 5), and a multi-device volume whose
# second device is zoned (96 of 64, no conventional zone).
#
# On each, our mkfs -m: fsck -n is clean, and a -y on the clean volume
# writes nothing.  Then, on copies, each write-pointer rule broken the way
# a device can break it (the side file edited, or a SIT entry injected):
#   log-ahead   a log's zone written past the log (F2FS-7101)
#   log-lost    a log's zone found empty: its blocks were never written
#               (F2FS-7102; the log is then ahead of its zone, 7101)
#   free-open   an empty section's zone written (F2FS-7103)
#   free-full   an empty section's zone full (F2FS-7103)
#   beyond-cap  a SIT bit after the zone capacity (F2FS-7104)
# each is reported (exit 4), repaired in one run (exit 1), clean after,
# and a second -y changes neither the image nor the zone model; on the
# first volume (made with a fixed UUID, seed and time) the repair's and
# the check's outputs are goldens (tests/fsck/expect/zoned-*, REGENERATE=1
# rewrites them).  On the
# first volume each repair is also cut after every write (--write-limit
# N, as writecut.sh does): after each cut our check finds no problem that
# was not there before (the zone model's side file follows only the
# writes that were done).
# A volume whose model is given with --zone-model FILE instead of
# IMAGE.zones: checked and repaired through FILE; a missing or malformed
# FILE is named.
# (The same rules on real zoned devices, repaired and then mounted by the
# kernel: tests/kernel/zoned.sh.)
. "${top_srcdir:-$(dirname "$0")/../..}/tests/fsck/common.sh"
require "$DUMP" "$INJECT"
require_commands python3

# sb NUM FIELD: a numeric superblock or checkpoint field of image $1.
sb() {
	"$DUMP" "$1" 2>/dev/null | awk -v f="$2" '$1 == f { gsub(/[]:[]/, " "); print $NF; exit }'
}

# bytes N[KMG]: the number of bytes.
bytes() {
	case $1 in
	*K) echo $((${1%K} << 10)) ;;
	*M) echo $((${1%M} << 20)) ;;
	*G) echo $((${1%G} << 30)) ;;
	*) echo "$1" ;;
	esac
}

# Geometry of the volume at $1 (device 0), its zoned device $2: ZB zone
# blocks, CAPB capacity blocks, SPS segments per section, LOGSECS the
# sections of the six logs, FREESEC the last section holding no log and no
# block, ZFREE the index of its zone on the zoned device.
geometry() {
	local img=$1 zimg=$2 main dev0 t
	ZB=$(($(bytes "$(sed -n 's/^zone_size //p' "$zimg.zones")") / 4096))
	CAPB=$(($(bytes "$(sed -n 's/^zone_capacity //p' "$zimg.zones")") / 4096))
	SPS=$(sb "$img" segs_per_sec)
	main=$(sb "$img" main_blkaddr)
	dev0=0
	[ "$img" != "$zimg" ] && dev0=$(($(sb "$img" segment0_blkaddr) + $(sb "$img" 'devs[0].total_segments') * 512))
	LOGSECS=
	for t in node data; do
		for i in 0 1 2; do
			LOGSECS="$LOGSECS $(($(sb "$img" "cur_${t}_segno[$i]") / SPS))"
		done
	done
	FREESEC=$(($(sb "$img" section_count) - 1))
	while echo " $LOGSECS " | grep -q " $FREESEC "; do FREESEC=$((FREESEC - 1)); done
	ZFREE=$(((main + FREESEC * SPS * 512 - dev0) / ZB))
}

# golden_of NAME N: on the first volume, the output of the repair (1)
# and of the check after it (2) are goldens, tests/fsck/expect/zoned-CASE.N
# (common.sh; the volume is the same bytes on every run).
golden_of() {
	case $1 in
	"z96 "*) check_golden "zoned-${1#z96 }" "$2" "REGENERATE=1 tests/fsck/zoned.sh" ;;
	esac
}

# expect NAME CODE IMG ZIMG: reported, repaired in one run, idempotent.
expect() {
	local name=$1 code=$2 img=$3 zimg=$4 s1
	run_fsck "$img" -n
	if [ "$RC" = 4 ] && grep -q "^F2FS-$code " "$OUT"; then
		pass "$name: F2FS-$code reported"
	else
		fail "$name: exit $RC, want 4 with F2FS-$code: $(head -3 "$OUT") $(head -2 "$ERR")"
		return
	fi
	run_fsck "$img" -y
	[ "$RC" = 1 ] && pass "$name: repaired" || fail "$name: -y exit $RC, want 1: $(grep -m3 F2FS- "$OUT") $(tail -2 "$ERR")"
	golden_of "$name" 1
	run_fsck "$img" -n
	[ "$RC" = 0 ] && pass "$name: clean after the repair" || fail "$name: after -y: exit $RC: $(head -3 "$OUT")"
	golden_of "$name" 2
	s1=$(img_sum "$img" "$zimg")
	run_fsck "$img" -y
	[ "$RC" = 0 ] && [ "$s1" = "$(img_sum "$img" "$zimg")" ] && pass "$name: a second -y writes nothing" ||
		fail "$name: a second -y: exit $RC, $([ "$s1" = "$(img_sum "$img" "$zimg")" ] && echo unchanged || echo changed)"
}

# codes IMG: the problem codes (not information) our check reports.
codes() {
	run_fsck "$1" -n
	grep '^F2FS-' "$OUT" | grep -v ' info: ' | cut -d' ' -f1 | sort -u
}

# cuts NAME IMG ZIMG: the repair of IMG cut after every write.
cuts() {
	local name=$1 img=$2 zimg=$3 pre total n now new
	cp --sparse=always "$img" "$WORK/pre.img" && cp "$zimg.zones" "$WORK/pre.zones"
	pre=$(codes "$img")
	run_fsck "$img" -y --dry-run
	total=$(sed -n 's/.*(\([0-9]*\) writes).*/\1/p' "$ERR" | tail -1)
	[ -n "$total" ] && [ "$total" -ge 1 ] || { fail "$name: no write count from --dry-run: $(tail -2 "$ERR")"; return; }
	for n in $(seq 1 "$total"); do
		cp --sparse=always "$WORK/pre.img" "$img" && cp "$WORK/pre.zones" "$zimg.zones"
		run_fsck "$img" -y --write-limit "$n"
		now=$(codes "$img")
		new=$(comm -13 <(echo "$pre") <(echo "$now"))
		[ -z "$new" ] || fail "$name: cut after write $n/$total: new problems $new"
	done
	[ -z "$now" ] && pass "$name: cut after each of its $total writes, nothing new" ||
		fail "$name: not repaired after all $total writes: $now"
	cp --sparse=always "$WORK/pre.img" "$img" && cp "$WORK/pre.zones" "$zimg.zones"
	rm -f "$WORK/pre.img" "$WORK/pre.zones"
}

# copy SRC DST: a sparse copy of the volume (and its members' side files).
copy() {
	cp --sparse=always "$1" "$2" && cp "$1.zones" "$2.zones" 2>/dev/null
	return 0
}

# volume NAME SIZE ZONE CAP CONV: an emulated zoned volume made by mkfs -m.
volume() {
	local img=$WORK/$1.img
	truncate -s "$2" "$img"
	printf 'zone_size %s\nzone_capacity %s\nconventional %s\n' "$3" "$4" "$5" > "$img.zones"
	"$MKFS" -f -q -m -r -T 1764547200 -U 6b3c2a9e-8f1d-4c2b-9a7e-1f0e2d3c4b5a "$img" \
		> "$WORK/$1.mkfs.log" 2>&1 || { fail "$1: mkfs -m: $(tail -2 "$WORK/$1.mkfs.log")"; return 1; }
}

# damage NAME IMG ZIMG [cut]: the five cases on copies of the volume
# (with "cut", each repair cut after every write first).
damage() {
	local name=$1 img=$2 zimg=$3 cut=${4:-} c cz logline k
	geometry "$img" "$zimg"
	run_fsck "$img" -n
	[ "$RC" = 0 ] && ! grep -q '^F2FS-' "$OUT" && pass "$name: clean after mkfs -m" ||
		fail "$name: fresh volume: exit $RC: $(head -3 "$OUT")"
	local s1
	s1=$(img_sum "$img" "$zimg")
	run_fsck "$img" -y
	[ "$RC" = 0 ] && [ "$s1" = "$(img_sum "$img" "$zimg")" ] && pass "$name: -y on a clean volume writes nothing" ||
		fail "$name: -y on the clean volume: exit $RC"
	logline=$(grep -m1 '^zone [0-9]* [0-9]* open' "$zimg.zones")
	[ -n "$logline" ] || { fail "$name: mkfs left no open zone (a log holding blocks)"; return; }
	set -- $logline
	k=$2
	for c in log-ahead log-lost free-open free-full beyond-cap; do
		copy "$img" "$WORK/c.img"
		cz=$WORK/c.img
		if [ "$zimg" != "$img" ]; then
			copy "$zimg" "$WORK/cz.img"
			cz=$WORK/cz.img
			# device 0 names the member by path: keep the copy where it is
			mv -f "$WORK/cz.img" "$zimg.copy" && mv -f "$zimg" "$zimg.orig" && mv -f "$zimg.zones" "$zimg.orig.zones"
			mv -f "$zimg.copy" "$zimg" && mv -f "$WORK/cz.img.zones" "$zimg.zones"
			cz=$zimg
		fi
		case $c in
		log-ahead) awk -v k="$k" '$1 == "zone" && $2 == k { $3 += 2 } { print }' "$cz.zones" > "$cz.zones.new" &&
				mv -f "$cz.zones.new" "$cz.zones"
			   [ -n "$cut" ] && cuts "$name $c" "$WORK/c.img" "$cz"
			   expect "$name $c" 7101 "$WORK/c.img" "$cz" ;;
		log-lost) sed -i "/^zone $k /d" "$cz.zones"
			  [ -n "$cut" ] && cuts "$name $c" "$WORK/c.img" "$cz"
			  expect "$name $c" 7102 "$WORK/c.img" "$cz" ;;
		free-open) echo "zone $ZFREE $((CAPB > 8 ? 7 : CAPB - 1)) open" >> "$cz.zones"
			   [ -n "$cut" ] && cuts "$name $c" "$WORK/c.img" "$cz"
			   expect "$name $c" 7103 "$WORK/c.img" "$cz" ;;
		free-full) echo "zone $ZFREE $ZB full" >> "$cz.zones"
			   expect "$name $c" 7103 "$WORK/c.img" "$cz" ;;
		beyond-cap)
			# the first block after the capacity (in the segment the
			# capacity cuts, when it cuts one)
			local seg=$((FREESEC * SPS + CAPB / 512)) bit=$((CAPB % 512))
			"$INJECT" --sit 0 --mb vblocks --segno "$seg" --val 1 "$WORK/c.img" > /dev/null 2>&1 &&
				"$INJECT" --sit 0 --mb valid_map --segno "$seg" --idx $((bit / 8)) \
					--val $((0x80 >> (bit % 8))) "$WORK/c.img" > /dev/null 2>&1 ||
				fail "$name $c: inject failed"
			[ -n "$cut" ] && cuts "$name $c" "$WORK/c.img" "$cz"
			expect "$name $c" 7104 "$WORK/c.img" "$cz" ;;
		esac
		if [ "$zimg" != "$img" ]; then
			mv -f "$zimg.orig" "$zimg" && mv -f "$zimg.orig.zones" "$zimg.zones"
		fi
		rm -f "$WORK/c.img" "$WORK/c.img.zones"
	done
}

volume z96 1536M 96M 80M 2 && damage z96 "$WORK/z96.img" "$WORK/z96.img" cut
rm -f "$WORK/z96.img"
volume z200 3200M 200M 160M 2 && damage z200 "$WORK/z200.img" "$WORK/z200.img"
rm -f "$WORK/z200.img"
volume z1000 12000M 1000M 900M 2 && damage z1000 "$WORK/z1000.img" "$WORK/z1000.img"
rm -f "$WORK/z1000.img"
# A capacity below one segment (4 MiB zones of 1 MiB: the first segment of
# each section has 256 usable blocks, the second none), and one that cuts
# a segment (6 MiB zones of 5 MiB: 2 whole segments and a half).
volume z4c1 256M 4M 1M 8 && damage z4c1 "$WORK/z4c1.img" "$WORK/z4c1.img"
rm -f "$WORK/z4c1.img"
volume z6c5 384M 6M 5M 6 && damage z6c5 "$WORK/z6c5.img" "$WORK/z6c5.img"
rm -f "$WORK/z6c5.img"

# --zone-model FILE: the model kept away from the image.  mkfs, the check
# and the repair all follow FILE (without it the image is not zoned to
# them); a missing or malformed FILE is named.
mkdir -p "$WORK/models"
zm=$WORK/zm.img zmodel=$WORK/models/zm.model
truncate -s 1536M "$zm"
printf 'zone_size 96M\nzone_capacity 80M\nconventional 2\n' > "$zmodel"
if "$MKFS" -f -q -m --zone-model "$zmodel" "$zm" > "$WORK/zm.mkfs.log" 2>&1 && [ ! -e "$zm.zones" ]; then
	run_fsck "$zm" -n --zone-model "$zmodel"
	[ "$RC" = 0 ] && ! grep -q '^F2FS-' "$OUT" && pass "--zone-model: clean after mkfs -m --zone-model" ||
		fail "--zone-model: fresh volume: exit $RC: $(head -3 "$OUT") $(head -2 "$ERR")"
	cp "$zmodel" "$zm.zones" && geometry "$zm" "$zm" && rm -f "$zm.zones"
	echo "zone $ZFREE 7 open" >> "$zmodel"
	run_fsck "$zm" -n
	[ "$RC" = 0 ] && pass "--zone-model: without it, no zones (the model is not next to the image)" ||
		fail "--zone-model: without the option: exit $RC: $(head -3 "$OUT")"
	run_fsck "$zm" -n --zone-model "$zmodel"
	[ "$RC" = 4 ] && grep -q '^F2FS-7103 ' "$OUT" && pass "--zone-model: the written empty zone is reported" ||
		fail "--zone-model: exit $RC, want 4 with F2FS-7103: $(head -3 "$OUT") $(head -2 "$ERR")"
	run_fsck "$zm" -y --zone-model "$zmodel"
	[ "$RC" = 1 ] && ! grep -q "^zone $ZFREE " "$zmodel" && pass "--zone-model: repaired, the zone reset in FILE" ||
		fail "--zone-model: -y exit $RC, zone line: $(grep "^zone $ZFREE " "$zmodel")"
	run_fsck "$zm" -n --zone-model "$zmodel"
	[ "$RC" = 0 ] && pass "--zone-model: clean after the repair" || fail "--zone-model: after -y: exit $RC"
	run_fsck "$zm" -n --zone-model "$WORK/models/none"
	[ "$RC" = 8 ] && grep -q "zone model $WORK/models/none: No such file" "$ERR" &&
		pass "--zone-model: a missing FILE is named (exit 8)" ||
		fail "--zone-model: missing FILE: exit $RC: $(head -2 "$ERR")"
	printf 'zone_size 96M\nnonsense\n' > "$WORK/models/bad.model"
	run_fsck "$zm" -n --zone-model "$WORK/models/bad.model"
	[ "$RC" = 8 ] && grep -q "zone model $WORK/models/bad.model: line 2" "$ERR" &&
		pass "--zone-model: a malformed FILE is named with its line (exit 8)" ||
		fail "--zone-model: malformed FILE: exit $RC: $(head -2 "$ERR")"
else
	fail "--zone-model: mkfs -m --zone-model: $(tail -2 "$WORK/zm.mkfs.log")"
fi
rm -rf "$zm" "$zm.zones" "$WORK/models"

# Multi-device: a regular first device holds the metadata, the second is
# zoned without conventional zones.  Device paths go into the superblock.
SHORT=$(mktemp -d /tmp/f2zd.XXXXXX) || hard_error "cannot create a directory in /tmp"
trap 'rm -rf "$SHORT"; lib_cleanup' EXIT
truncate -s 256M "$SHORT/d0.img" && truncate -s 1152M "$SHORT/d1.img"
printf 'zone_size 96M\nzone_capacity 64M\nconventional 0\n' > "$SHORT/d1.img.zones"
if "$MKFS" -f -q -m -c "$SHORT/d1.img" "$SHORT/d0.img" > "$WORK/multi.mkfs.log" 2>&1; then
	damage multi "$SHORT/d0.img" "$SHORT/d1.img"
else
	fail "multi: mkfs -m -c: $(tail -2 "$WORK/multi.mkfs.log")"
fi
finish
