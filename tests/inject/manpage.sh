#!/bin/sh
# tests/inject/manpage.sh: man/inject.f2fs.8 documents every member that
# `inject.f2fs TARGET -h` lists ("  member: description" lines, the format
# fstests greps) and every long option of the usage text.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/inject/common.sh"

MAN=$top_srcdir/man/inject.f2fs.8
[ -f "$MAN" ] || hard_error "no $MAN"
sed 's/\\-/-/g; s/\\f[BIRP]//g; s/\\//g' "$MAN" >"$WORK/man.txt"

for target in "--sb 0" "--cp 0" "--nat 0" "--sit 0" "--ssa" "--node" "--dent"; do
	# shellcheck disable=SC2086
	"$INJECT" $target -h >"$WORK/help" 2>&1 || fail "$target -h failed"
	sed -n '/^members:/,$p' "$WORK/help" | sed 1d |
		sed -n 's/^  \([^ :]*\): .*/\1/p' |
		sort -u >"$WORK/members"
	[ -s "$WORK/members" ] || fail "$target -h lists no members"
	missing=
	while read -r m; do
		grep -Fq -- "$m" "$WORK/man.txt" || missing="$missing $m"
	done <"$WORK/members"
	if [ -z "$missing" ]; then
		pass "$target: $(wc -l <"$WORK/members") members documented"
	else
		fail "$target: undocumented members:$missing"
	fi
done

"$INJECT" -h >"$WORK/help" 2>&1
missing=
for o in $(grep -o -- '--[a-z-]*' "$WORK/help" | sort -u); do
	grep -Fq -- "$o" "$WORK/man.txt" || missing="$missing $o"
done
[ -z "$missing" ] && pass "every option documented" || fail "undocumented options:$missing"
for o in dry-run nat-journal sit-journal help; do
	grep -Fq -- "--$o" "$WORK/man.txt" || [ $o = help ] || fail "--$o undocumented"
done

finish
