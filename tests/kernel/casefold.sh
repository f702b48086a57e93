#!/bin/sh
# Kernel interop: names in a casefolded directory.  Our mkfs makes a
# casefold volume (-O casefold -C utf8); the kernel creates files whose
# names exercise the folding (sharp s, precomposed and decomposed accents,
# Greek, Hangul, ignorable code points, marks out of canonical order,
# ligatures, characters newer than Unicode 12.1, a name that is not UTF-8)
# and must find them by other spellings.  Then our fsck recomputes every
# stored hash with its own folding: clean, with only the non-UTF-8 name
# left unverified; f2fs-tools agrees it is clean; a wrong hash stored for a
# non-ASCII name is reported (problem 5005).
. "$(dirname "$0")/kcommon.sh"

kt_begin casefold "casefolded directory: kernel-made names, every hash checked"

img=$KWORK/cf.img
if kt_mkfs "$img" 256M -O casefold -C utf8; then
	kt_guest casefold -t 300 "$KSRC/guest/casefold.sh" "cf=$img" ||
		kt_bad "guest run failed (verdict $KT_GUEST_RC)"
	kt_fsck "$img" casefold
	if [ -x "$OUR_FSCK" ]; then
		"$OUR_FSCK" "$img" > "$KWORK/our.out" 2>&1
		rc=$?
		if [ $rc -eq 0 ] && grep -q ": 1 names in casefolded directories not verified" "$KWORK/our.out"; then
			kt_say "our fsck verified every hash but the non-UTF-8 name's"
		else
			kt_bad "our fsck on the casefold volume: exit $rc: $(head -5 "$KWORK/our.out")"
		fi
		# A wrong hash for Straße must be found.
		ino=$("$OUR_FSCK" -t "$img" 2>/dev/null | awk -F'\t' '$2 ~ /^\/d\/Stra/ { print $1; exit }')
		inject=$top_builddir/inject/inject.f2fs
		if [ -n "$ino" ] && [ -x "$inject" ] &&
		   "$inject" --dent --nid "$ino" --mb d_hash --val 1234 "$img" > "$KWORK/inj.out" 2>&1; then
			"$OUR_FSCK" "$img" > "$KWORK/bad.out" 2>&1
			rc=$?
			if [ $rc -eq 4 ] && grep -q "^F2FS-5005 " "$KWORK/bad.out"; then
				kt_say "a wrong hash of a non-ASCII name is reported (5005)"
			else
				kt_bad "wrong hash for ino $ino not reported: exit $rc: $(grep '^F2FS' "$KWORK/bad.out" | head -3)"
			fi
		else
			kt_bad "cannot corrupt the hash of Straße (ino '${ino}'): $(cat "$KWORK/inj.out" 2>/dev/null)"
		fi
	else
		kt_bad "$OUR_FSCK is not built"
	fi
fi
rm -f "$img"
kt_end
