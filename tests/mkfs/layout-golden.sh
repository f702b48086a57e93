#!/bin/sh
# tests/mkfs/layout-golden.sh: mkfs layout goldens (the e2fsprogs m_* way).
#
# For a handful of option sets, runs the mkfs under test with a fixed UUID,
# checkpoint seed (-r), timestamp (-T 0), root owner and no discard, then
# compares its summary and the superblock/checkpoint printed by f2fs-tools'
# `dump.f2fs -d 1` (minus the kernel version strings and the superblock
# CRC, which covers them) with tests/mkfs/golden/NAME.expect.  Independent
# of the goldens it also checks layout invariants (area boundaries, zone
# alignment, cursegs in distinct sections), a few values documented in
# f2fs-format.md, and that the f2fs-tools fsck finds the image clean.
#
# REGENERATE=1 rewrites the expect files from the current mkfs; review the
# diff before committing it.

. "$(dirname "$0")/common.sh"

require_tools
make_workdir

GOLDEN_DIR=$top_srcdir/tests/mkfs/golden
UUID=01234567-89ab-cdef-0123-456789abcdef
FIXED="-r -T 0 -t 0 -R 0:0 -U $UUID"
F_ALL="extra_attr,inode_checksum,flexible_inline_xattr,inode_crtime,sb_checksum,lost_found,quota,project_quota,compression"

# filter_dump: drop what depends on the machine (kernel version strings,
# the SB crc that covers them, the run time) from dump.f2fs output.
filter_dump() {
	sed -e '/^Info: Debug level/d' \
		-e '/^Info: MKFS version/,/^Info: superblock features/{/^Info: superblock features/!d;}' \
		-e '/^version  /d' -e '/^crc  /d' -e '/^Done: /d' \
		-e 's/[[:space:]]*$//'
}

# check_value LOG FIELD WANT: a documented value.
check_value() {
	cv_got=$(dump_field "$1" "$2")
	if [ "$cv_got" != "$3" ]; then
		echo "      $2 = $cv_got, expected $3"
		return 1
	fi
}

# ck_rule TEST WHY: one invariant (TEST for `[`), reported when violated.
ck_rule() {
	if ! eval "[ $1 ]"; then
		echo "      violated: $1  ($2)"
		ck_bad=1
	fi
}

# check_invariants LOG [ro]: layout rules every image must follow (a
# read-only image, -O ro: segment0 right after the superblocks, no SSA
# but the padding that ends the metadata on a zone,
# two logs in distinct sections and four sharing their segments).
# shellcheck disable=SC2154 # the ck_<field> variables are set through eval
check_invariants() {
	ck_bad=0
	for ck_f in segs_per_sec secs_per_zone segment_count segment_count_ckpt segment_count_sit \
		segment_count_nat segment_count_ssa segment_count_main section_count segment0_blkaddr \
		cp_blkaddr sit_blkaddr nat_blkaddr ssa_blkaddr main_blkaddr block_count; do
		ck_v=$(dump_field "$1" $ck_f)
		if [ -z "$ck_v" ]; then
			echo "      dump.f2fs printed no $ck_f"
			return 1
		fi
		eval "ck_$ck_f=\$ck_v"
	done
	ck_zone=$((ck_segs_per_sec * ck_secs_per_zone * 512))
	ck_rule "$ck_segment0_blkaddr -eq $ck_cp_blkaddr" "segment0 = cp"
	ck_rule "$((ck_cp_blkaddr + ck_segment_count_ckpt * 512)) -eq $ck_sit_blkaddr" "cp + ckpt segs = sit"
	ck_rule "$((ck_sit_blkaddr + ck_segment_count_sit * 512)) -eq $ck_nat_blkaddr" "sit + sit segs = nat"
	ck_rule "$((ck_nat_blkaddr + ck_segment_count_nat * 512)) -eq $ck_ssa_blkaddr" "nat + nat segs = ssa"
	ck_rule "$((ck_ssa_blkaddr + ck_segment_count_ssa * 512)) -eq $ck_main_blkaddr" "ssa + ssa segs = main"
	ck_rule "$((ck_main_blkaddr + ck_segment_count_main * 512)) -eq $((ck_segment0_blkaddr + ck_segment_count * 512))" "main end = segment0 + segment_count"
	ck_rule "$((ck_segment0_blkaddr + ck_segment_count * 512)) -le $ck_block_count" "volume fits the device"
	ck_rule "$ck_segment_count_main -eq $((ck_section_count * ck_segs_per_sec))" "main segs = sections * segs_per_sec"
	ck_rule "$ck_segment_count_ckpt -eq 2" "two checkpoint segments"
	ck_rule "$((ck_segment_count_sit % 2)) -eq 0" "two SIT copies"
	ck_rule "$((ck_segment_count_nat % 2)) -eq 0" "two NAT copies"
	if [ "${2:-}" = ro ]; then
		ck_rule "$ck_segment0_blkaddr -eq 2" "segment0 right after the superblocks"
		ck_rule "$ck_segment_count_ssa -lt $((ck_segs_per_sec * ck_secs_per_zone))" \
			"no SSA but what pads the metadata to a zone"
		ck_hd=$(dump_field "$1" "cur_data_segno[0]")
		ck_hn=$(dump_field "$1" "cur_node_segno[0]")
		ck_rule "${ck_hd:-999999999} -lt $ck_segment_count_main" "hot data log inside main"
		ck_rule "${ck_hn:-999999999} -lt $ck_segment_count_main" "hot node log inside main"
		ck_rule "$((${ck_hd:-0} / ck_segs_per_sec)) -ne $((${ck_hn:-0} / ck_segs_per_sec))" \
			"hot data and hot node logs in distinct sections"
		return $ck_bad
	fi
	ck_rule "$((ck_segment0_blkaddr % ck_zone)) -eq 0" "segment0 zone aligned"
	ck_rule "$((ck_main_blkaddr % ck_zone)) -eq 0" "main zone aligned"
	ck_rule "$((ck_segment_count_ssa * 512)) -ge $ck_segment_count_main" "one SSA block per main segment"
	# The six cursegs sit in six different sections.
	ck_secs=
	for ck_c in "cur_node_segno[0]" "cur_node_segno[1]" "cur_node_segno[2]" \
		"cur_data_segno[0]" "cur_data_segno[1]" "cur_data_segno[2]"; do
		ck_v=$(dump_field "$1" "$ck_c")
		ck_rule "${ck_v:-999999999} -lt $ck_segment_count_main" "$ck_c inside main"
		ck_secs="$ck_secs $((${ck_v:-0} / ck_segs_per_sec))"
	done
	ck_ndist=$(echo "$ck_secs" | tr ' ' '\n' | grep -v '^$' | sort -u | wc -l)
	ck_rule "$ck_ndist -eq 6" "cursegs in 6 distinct sections (sections:$ck_secs)"
	return $ck_bad
}

regen=0
golden() {
	gd_name=$1 gd_size=$2
	shift 2
	gd_opts="$FIXED $*"
	gd_img=$WORK/$gd_name.img
	gd_exp=$GOLDEN_DIR/$gd_name.expect
	gd_out=$WORK/$gd_name.actual
	new_sparse "$gd_img" "$gd_size"
	# shellcheck disable=SC2086
	run_mkfs "$gd_name.mkfs" $gd_opts "$gd_img"
	if [ "$RC" != 0 ]; then
		fail "$gd_name: mkfs.f2fs $gd_opts ($gd_size) exited $(describe_rc "$RC")"
		show_file "$WORK/$gd_name.mkfs.err" 10
		return
	fi
	gd_why=
	if ! gd_msg=$(check_image "$gd_img" "$gd_name"); then
		gd_why="the f2fs-tools oracles reject the image"
		echo "$gd_msg"
	fi
	gd_dump=$WORK/$gd_name.dump.out
	case " $* " in
	*" -O ro"[,\ ]*) gd_ro=ro ;;
	*) gd_ro= ;;
	esac
	if ! check_invariants "$gd_dump" $gd_ro; then
		gd_why="${gd_why:+$gd_why; }layout invariants violated"
	fi
	gd_want=$(golden_values "$gd_name")
	for gd_kv in $gd_want; do
		if ! check_value "$gd_dump" "${gd_kv%%=*}" "${gd_kv#*=}"; then
			gd_why="${gd_why:+$gd_why; }documented value differs"
		fi
	done
	{
		echo "# mkfs.f2fs $gd_opts IMAGE   (size $gd_size)"
		echo "## mkfs stdout"
		sed -e "s|$gd_img|IMAGE|g" -e 's/[[:space:]]*$//' "$WORK/$gd_name.mkfs.out"
		echo "## dump.f2fs -d 1"
		filter_dump <"$gd_dump"
	} >"$gd_out"
	if [ "${REGENERATE:-0}" = 1 ]; then
		mkdir -p "$GOLDEN_DIR"
		cp "$gd_out" "$gd_exp"
		regen=$((regen + 1))
		echo "NOTE  $gd_name: wrote $gd_exp"
	elif [ ! -f "$gd_exp" ]; then
		gd_why="${gd_why:+$gd_why; }no expect file $gd_exp (run with REGENERATE=1)"
	elif ! diff -u "$gd_exp" "$gd_out" >"$WORK/$gd_name.diff"; then
		gd_why="${gd_why:+$gd_why; }output differs from $gd_name.expect"
		sed -n '1,60p' "$WORK/$gd_name.diff" | sed 's/^/        /'
	fi
	if [ -z "$gd_why" ]; then
		pass "$gd_name: mkfs.f2fs $* ($gd_size)"
	else
		fail "$gd_name: mkfs.f2fs $* ($gd_size): $gd_why"
	fi
	rm -f "$gd_img"
}

# golden_values NAME: field=value pairs documented in f2fs-format.md (areas
# and cursegs do not depend on the reserved/overprovision policy).
golden_values() {
	case $1 in
	default-1g)
		echo "segment0_blkaddr=512 sit_blkaddr=1536 nat_blkaddr=2560 ssa_blkaddr=4608"
		echo "main_blkaddr=5120 segment_count=511 segment_count_main=502 section_count=502"
		;;
	ro-1g)
		echo "segment0_blkaddr=2 ssa_blkaddr=4098 segment_count_ssa=0 main_blkaddr=4098"
		echo "segment_count=511 segment_count_main=503"
		echo "rsvd_segment_count=0 overprov_segment_count=0 user_block_count=257536"
		echo "cur_data_segno[0]=0 cur_node_segno[0]=502"
		;;
	s128-8g)
		echo "segment0_blkaddr=65536 cp_blkaddr=65536 sit_blkaddr=66560 nat_blkaddr=67584"
		echo "segment_count_nat=18 ssa_blkaddr=76800 segment_count_ssa=106 main_blkaddr=131072"
		echo "segment_count=3968 segment_count_main=3840 section_count=30"
		echo "cur_node_segno[0]=0 cur_node_segno[1]=128 cur_node_segno[2]=256"
		echo "cur_data_segno[0]=384 cur_data_segno[1]=1792 cur_data_segno[2]=768"
		;;
	esac
}

golden default-1g 1G
golden s128-8g 8G -s 128
golden s7-2g 2G -s 7
golden nat-bitmap-1g 1G -i
golden features-1g 1G -O $F_ALL -l golden-label
golden s128-1t 1T -s 128
golden casefold-z4-64g 64G -s 2 -z 4 -C utf8:strict -o 5
golden ro-1g 1G -O ro
golden ro-s128-8g 8G -s 128 -O ro,extra_attr,quota,lost_found

[ "$regen" = 0 ] || echo "NOTE  $regen expect files regenerated: review 'git diff tests/mkfs/golden'"
finish
