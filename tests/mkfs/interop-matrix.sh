#!/bin/sh
# tests/mkfs/interop-matrix.sh: the mkfs acceptance matrix.
#
# Formats sparse images over a covering set of sizes (from the smallest our
# mkfs accepts up to 1 TiB), segments per section, sections per zone and
# feature sets, and requires every image to be accepted by the f2fs-tools
# oracles: `fsck.f2fs --dry-run` exits 0 without a [Fail] line and
# `dump.f2fs -d 1` reads the superblock.  The minimum size of a few -s/-z
# geometries is found by bisection; one MiB below it mkfs must refuse
# cleanly (exit 1..125, nothing written).
#
# Not the full cross product: each size, -s, -z and feature set appears in
# several combinations, and the large images (fsck cost) in few.

. "$(dirname "$0")/common.sh"

require_tools
make_workdir

F_FULL="extra_attr,inode_checksum,flexible_inline_xattr,inode_crtime,sb_checksum,lost_found"
F_QUOTA="extra_attr,quota"
F_QUOTA_ONLY="quota"
F_COMPR="extra_attr,compression"

# feature_opts NAME: mkfs options of a feature set.
feature_opts() {
	case $1 in
	none) ;;
	full) echo "-O $F_FULL" ;;
	quota) echo "-O $F_QUOTA" ;;
	quota-only) echo "-O $F_QUOTA_ONLY" ;;
	compr) echo "-O $F_COMPR" ;;
	casefold) echo "-O casefold -C utf8" ;;
	casefold-C) echo "-C utf8" ;;
	casefold-strict) echo "-O casefold -C utf8:strict" ;;
	all) echo "-O $F_FULL,quota,project_quota,compression,casefold -C utf8" ;;
	*) hard_error "unknown feature set $1" ;;
	esac
}

# try_format SIZE_MIB SEGS ZONES: 0 if mkfs accepts a fresh image of that size.
try_format() {
	new_sparse "$WORK/probe.img" "${1}M"
	run_mkfs probe -q -s "$2" -z "$3" "$WORK/probe.img"
	[ "$RC" = 0 ]
}

# find_min SEGS ZONES LO HI: smallest size in MiB in (LO, HI] that formats,
# by bisection (LO must refuse, HI must format).  Prints the result.
find_min() {
	fm_s=$1 fm_z=$2 fm_lo=$3 fm_hi=$4
	if try_format "$fm_lo" "$fm_s" "$fm_z"; then
		echo "x: $fm_lo MiB already formats"
		return 1
	fi
	if ! try_format "$fm_hi" "$fm_s" "$fm_z"; then
		echo "x: $fm_hi MiB does not format (exit $(describe_rc "$RC")): $(head -n 1 "$WORK/probe.err")"
		return 1
	fi
	while [ $((fm_hi - fm_lo)) -gt 1 ]; do
		fm_mid=$(((fm_lo + fm_hi) / 2))
		if try_format "$fm_mid" "$fm_s" "$fm_z"; then
			fm_hi=$fm_mid
		else
			fm_lo=$fm_mid
		fi
	done
	echo "$fm_hi"
}

# Minimum sizes (MiB) of the geometries we bisect; set by bisect_minimums.
# shellcheck disable=SC2034 # read through eval in combo()
MIN_1_1='' MIN_1_4='' MIN_2_1='' MIN_7_1='' MIN_64_1='' MIN_128_1='' MIN_512_1=''

# check_below_min SEGS ZONES MIN: one MiB below the minimum, mkfs refuses
# with exit 1..125, one line on stderr, and writes nothing.
check_below_min() {
	bm_sz=$(($3 - 1))
	bm_what="refuse  -s $1 -z $2 size=${bm_sz}MiB (minimum ${3}MiB)"
	new_sparse "$WORK/below.img" "${bm_sz}M"
	run_mkfs below -s "$1" -z "$2" "$WORK/below.img"
	bm_errs=$(wc -l <"$WORK/below.err")
	bm_blocks=$(stat -c %b "$WORK/below.img")
	bm_size=$(stat -c %s "$WORK/below.img")
	if ! is_refusal_rc "$RC" || [ "$bm_errs" != 1 ] || [ "$bm_blocks" != 0 ] ||
		[ "$bm_size" != $((bm_sz * 1048576)) ]; then
		fail "$bm_what: exit $(describe_rc "$RC"), $bm_errs stderr lines, $bm_blocks blocks written, size $bm_size"
		show_file "$WORK/below.err" 5
		show_file "$WORK/below.out" 5
	else
		pass "$bm_what: exit $RC: $(cat "$WORK/below.err")"
	fi
}

bisect_one() {
	bo_s=$1 bo_z=$2 bo_lo=$3 bo_hi=$4 bo_limit=$5
	bo_t0=$(date +%s)
	bo_m=$(find_min "$bo_s" "$bo_z" "$bo_lo" "$bo_hi")
	case $bo_m in
	x:*)
		fail "minimum -s $bo_s -z $bo_z: ${bo_m#x: }"
		return 1
		;;
	esac
	if [ -n "$bo_limit" ] && [ "$bo_m" -gt "$bo_limit" ]; then
		fail "minimum -s $bo_s -z $bo_z is ${bo_m} MiB, above ${bo_limit} MiB (f2fs-tools 1.15 formats that)"
	else
		pass "minimum -s $bo_s -z $bo_z = ${bo_m} MiB ($(($(date +%s) - bo_t0))s to bisect)"
	fi
	eval "MIN_${bo_s}_${bo_z}=$bo_m"
	check_below_min "$bo_s" "$bo_z" "$bo_m"
}

# combo SIZE SEGS ZONES FEATURES [extra mkfs options]: format and check.
# SIZE is a truncate size (64M, 8G, 1T) or "min" (the bisected minimum).
ncombo=0
combo() {
	cb_size=$1 cb_s=$2 cb_z=$3 cb_f=$4
	shift 4
	if [ "$cb_size" = min ]; then
		eval "cb_m=\${MIN_${cb_s}_${cb_z}:-}"
		if [ -z "$cb_m" ]; then
			fail "size=min -s $cb_s -z $cb_z feat=$cb_f: no minimum was found"
			return
		fi
		cb_size=${cb_m}M
	fi
	ncombo=$((ncombo + 1))
	cb_tag=c$ncombo
	cb_opts="-s $cb_s -z $cb_z $(feature_opts "$cb_f") $*"
	cb_what=$(printf 'size=%-6s -s %-3s -z %s feat=%-15s %s' "$cb_size" "$cb_s" "$cb_z" "$cb_f" "$*")
	cb_img="$WORK/$cb_tag.img"
	new_sparse "$cb_img" "$cb_size"
	cb_t0=$(date +%s%N)
	# shellcheck disable=SC2086
	run_mkfs "$cb_tag.mkfs" -q $cb_opts "$cb_img"
	cb_t1=$(date +%s%N)
	cb_ms=$(((cb_t1 - cb_t0) / 1000000))
	if [ "$RC" != 0 ]; then
		fail "$cb_what: mkfs $cb_opts exited $(describe_rc "$RC")"
		show_file "$WORK/$cb_tag.mkfs.err" 10
		show_file "$WORK/$cb_tag.mkfs.out" 10
		rm -f "$cb_img"
		return
	fi
	if cb_why=$(check_image "$cb_img" "$cb_tag"); then
		pass "$cb_what (mkfs ${cb_ms}ms)"
	else
		fail "$cb_what: mkfs $cb_opts $cb_size"
		echo "$cb_why"
	fi
	rm -f "$cb_img"
}

# sectors_combo FILESIZE SECTORS WANT_BLOCKS [options]: the sectors argument
# limits the volume: block_count must be WANT_BLOCKS on a larger file.
sectors_combo() {
	sc_fsize=$1 sc_sectors=$2 sc_want=$3
	shift 3
	ncombo=$((ncombo + 1))
	sc_tag=c$ncombo
	sc_img="$WORK/$sc_tag.img"
	sc_what="size=$sc_fsize $* sectors=$sc_sectors"
	new_sparse "$sc_img" "$sc_fsize"
	run_mkfs "$sc_tag.mkfs" -q "$@" "$sc_img" "$sc_sectors"
	if [ "$RC" != 0 ]; then
		fail "$sc_what: mkfs exited $(describe_rc "$RC")"
		show_file "$WORK/$sc_tag.mkfs.err" 10
	elif ! sc_why=$(check_image "$sc_img" "$sc_tag"); then
		fail "$sc_what"
		echo "$sc_why"
	else
		sc_got=$(dump_field "$WORK/$sc_tag.dump.out" block_count)
		if [ "$sc_got" = "$sc_want" ]; then
			pass "$sc_what: block_count $sc_got"
		else
			fail "$sc_what: block_count $sc_got, want $sc_want"
		fi
	fi
	rm -f "$sc_img"
}

start=$(date +%s)

echo "== minimum sizes (bisection in MiB)"
bisect_one 1 1 8 1024 64
bisect_one 1 4 8 1024 ""
bisect_one 2 1 8 1024 ""
bisect_one 7 1 8 4096 ""
bisect_one 64 1 128 16384 ""
bisect_one 128 1 256 16384 8192
bisect_one 512 1 1024 65536 ""

echo "== format and check"
# -s 1 -z 1: every feature set, every size
combo min 1 1 none
combo min 1 1 full
combo min 1 1 quota-only
combo min 1 1 casefold
combo 64M 1 1 none
combo 64M 1 1 quota
combo 64M 1 1 compr
combo 64M 1 1 casefold-C
combo 1G 1 1 none
combo 1G 1 1 full
combo 1G 1 1 quota-only
combo 1G 1 1 compr
combo 1G 1 1 casefold-strict
combo 1G 1 1 all
combo 1G 1 1 none -i
combo 8G 1 1 none
combo 8G 1 1 quota
combo 64G 1 1 none
combo 64G 1 1 full
combo 1T 1 1 none
combo 1T 1 1 quota-only
# -z 4
combo min 1 4 none
combo 1G 1 4 quota
combo 8G 1 4 full
# -s 2, 3, 7 (3 and 7: not powers of two)
combo min 2 1 none
combo 1G 2 1 compr
combo 64G 2 4 quota-only
combo 1G 3 1 none
combo 8G 3 1 full
combo 64G 3 1 casefold
combo min 7 1 none
combo 8G 7 1 casefold
combo 64G 7 4 quota
# -s 64, 128, 512 (large sections)
combo min 64 1 full
combo 8G 64 1 none
combo 64G 64 4 compr
combo min 128 1 none
combo min 128 1 quota-only
combo 8G 128 1 none
combo 8G 128 1 full
combo 64G 128 1 quota
combo 64G 128 4 none
combo 1T 128 1 none
combo 1T 128 1 all
combo min 512 1 none
combo 64G 512 1 full
combo 1T 512 4 none
# overprovision and sector size
combo 1G 1 1 none -o 5
combo 8G 128 1 none -w 4096
# the sectors argument (512-byte sectors, or -w bytes each)
sectors_combo 2G 2097152 262144
sectors_combo 2G 262144 262144 -w 4096
sectors_combo 16G 16777216 2097152 -s 128

echo "$TEST_NAME: $ncombo images formatted in $(($(date +%s) - start))s"
finish
