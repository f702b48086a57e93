#!/bin/bash
# tests/fsck/manpage.sh: fsck.f2fs(8) agrees with the program: its PROBLEM
# CODES section is exactly what man/fsck-problems.sh makes from the problem
# table, and every option of the usage text and every exit code is
# documented.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/fsck/common.sh"
MAN=$top_srcdir/man/fsck.f2fs.8
[ -f "$MAN" ] || hard_error "$MAN missing"

sed -n '/^\.\\" BEGIN PROBLEM CODES/,/^\.\\" END PROBLEM CODES/p' "$MAN" | sed '1d;$d' >"$WORK/man.codes"
sh "$top_srcdir/man/fsck-problems.sh" "$FSCK" >"$WORK/gen.codes"
if cmp -s "$WORK/man.codes" "$WORK/gen.codes"; then
	pass "problem codes section matches the table"
else
	fail "the man page's problem codes differ from the table (regenerate with man/fsck-problems.sh): $(diff "$WORK/man.codes" "$WORK/gen.codes" | head -5)"
fi
for code in $("$FSCK" --list-problems | cut -f1); do
	grep -q "^\.B F2FS-$code\$" "$MAN" && pass "code $code" || fail "code $code not documented"
done
for opt in $("$FSCK" --help | grep -oE '(^| )--?[a-zA-Z][a-zA-Z-]*' | sort -u); do
	esc=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
	grep -q -- "$esc" "$MAN" && pass "option $opt" || fail "option $opt not documented"
done
# the informational codes listed under EXIT STATUS are exactly the table's
man_info=$(sed -n '/^\.\\" INFO CODES/,/^\.\\" END INFO CODES/p' "$MAN" | grep -oE 'F2FS-[0-9]+' | sort | tr '\n' ' ')
table_info=$("$FSCK" --list-problems | awk -F'\t' '$3 == "info" { print "F2FS-" $1 }' | sort | tr '\n' ' ')
[ -n "$table_info" ] && [ "$man_info" = "$table_info" ] && pass "informational codes listed" ||
	fail "EXIT STATUS lists informational codes '$man_info', the table has '$table_info'"
for rc in 0 4 8 16; do
	grep -q "^\.B $rc\$" "$MAN" && pass "exit $rc" || fail "exit code $rc not documented"
done
finish
