#!/bin/bash
# tests/fsck/coverage.sh: the problem table checked against the goldens,
# both ways (issue 14).
#
# The goldens in tests/fsck/expect/ are whole outputs of fsck.f2fs runs
# that other tests compare byte for byte: ID.1 is a `fsck.f2fs -y` run,
# ID.2 the check after it (repair.sh for each case ID of cases.txt;
# zoned.sh for zoned-* on an emulated zoned volume; blkdev.sh for
# blkdev-* on a loop device).  Without running fsck, this test fails
#   - for each code of `fsck.f2fs --list-problems` that no golden reports
#     (no test produces it);
#   - for each fixable code (its Repair column is not "none...") that no
#     repair test fixes: fixed means reported in a ID.1 that ends "exit 1"
#     and no longer in ID.2;
#   - for each case of cases.txt without its two goldens (saying how to
#     make them), and for each golden no test writes (a stale one);
#   - for each golden pair whose -y exits 4 while a problem the table
#     can fix remains (rule 2 of the project).
# EXEMPT below lists the codes no test produces, each with the reason
# (none can, or the repair of the state that does is not right yet), and KNOWN the
# pairs that break rule 2 today, each with the reason; an entry that no
# longer holds fails too, so the lists cannot go stale.  Takes a few
# seconds.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/fsck/common.sh"

GOLDENS=$top_srcdir/tests/fsck/expect
TABLE=$top_srcdir/tests/fsck/cases.txt

# code|reason: codes that no test produces
EXEMPT=""

"$FSCK" --list-problems >"$WORK/table" || hard_error "fsck.f2fs --list-problems exit $?"
[ -s "$WORK/table" ] || hard_error "fsck.f2fs --list-problems printed nothing"

# the goldens each case of cases.txt owes, and those present
read_table_ids() {
	local id rest
	while IFS='|' read -r id rest; do
		id=$(echo $id)
		case "$id" in ''|'#'*) continue ;; esac
		echo "$id"
	done <"$TABLE"
}
read_table_ids | sed 'p' | awk '{ print $0 "." (NR % 2 ? 1 : 2) }' | sort >"$WORK/owed"
(cd "$GOLDENS" && ls) | sort >"$WORK/present"
comm -23 "$WORK/owed" "$WORK/present" | while read -r g; do
	echo "case ${g%.?} has no golden expect/$g: make it with REGENERATE=1 CASES=${g%.?} tests/fsck/repair.sh (see tests/fsck/README) and review it"
done >"$WORK/missing"
comm -13 "$WORK/owed" "$WORK/present" | grep -v '^zoned-\|^blkdev-' | while read -r g; do
	echo "golden expect/$g belongs to no case of cases.txt and no other test: remove it"
done >>"$WORK/missing"
while read -r line; do
	fail "$line"
done <"$WORK/missing"

# produced: every code a golden reports; fixed: a code that a NAME.1
# ending in "exit 1" reports and its NAME.2 does not
(cd "$GOLDENS" && awk '
	FNR == 1 { name = FILENAME; sub(/\.[12]$/, "", name); n = substr(FILENAME, length(FILENAME)) }
	/^F2FS-[0-9][0-9][0-9][0-9] / {
		c = substr($1, 6, 4); print "produced", c
		if (!((name, n, c) in seen)) codes[name, n] = codes[name, n] " " c
		seen[name, n, c] = 1
	}
	{ last[name, n] = $0 }
	END {
		for (k in last) {
			split(k, p, SUBSEP)
			if (p[2] != "1" || last[k] != "exit 1" || !((p[1], "2") in last))
				continue
			m = split(codes[k], cs, " ")
			for (i = 1; i <= m; i++)
				if (!((p[1], "2", cs[i]) in seen))
					print "fixed", cs[i]
		}
	}' *) | sort -u >"$WORK/collected"
awk '$1 == "produced" { print $2 }' "$WORK/collected" >"$WORK/produced"
awk '$1 == "fixed" { print $2 }' "$WORK/collected" >"$WORK/fixed"

# Rule 2 of the project, on the goldens: a -y that exits 4 leaves only
# problems the table cannot fix (information aside).  KNOWN lists the goldens that break it
# today (ID|reason); a listed one that no longer does fails too.
KNOWN=""
awk -F'\t' '$5 !~ /^none/ && $3 != "info" { print $1 }' "$WORK/table" >"$WORK/fixable"
awk -F'\t' '$5 ~ /^none \(not fixable\)/ { print $1 }' "$WORK/table" >"$WORK/unfixable"
for g1 in $(cd "$GOLDENS" && grep -lx 'exit 4' -- *.1); do
	name=${g1%.1}
	# a repair refused as a whole for a problem it cannot fix (no usable
	# superblock or checkpoint to start from) leaves the rest as it is
	grep -q '^stderr: fsck.f2fs: not repairing: ' "$GOLDENS/$g1" &&
		sed -n 's/^F2FS-\([0-9]\{4\}\) .*/\1/p' "$GOLDENS/$name.2" | grep -qxF -f "$WORK/unfixable" &&
		continue
	left=$(sed -n 's/^F2FS-\([0-9]\{4\}\) .*/\1/p' "$GOLDENS/$name.2" 2>/dev/null | sort -u |
		comm -12 - <(sort "$WORK/fixable") | tr '\n' ' ')
	known=$(echo "$KNOWN" | sed -n "s/^$name|//p")
	if [ -n "$left" ] && [ -z "$known" ]; then
		fail "$name: -y exits 4 and leaves fixable problems: $left(expect/$name.2)"
	elif [ -z "$left" ] && [ -n "$known" ]; then
		fail "$name: listed in KNOWN ($known) but no fixable problem stays after -y: take it off"
	elif [ -n "$left" ]; then
		echo "known: $name leaves fixable $left: $known"
	fi
done

nexempt=0
while IFS='	' read -r code name sev preen fix msg; do
	reason=$(echo "$EXEMPT" | sed -n "s/^$code|//p")
	if [ -n "$reason" ]; then
		nexempt=$((nexempt + 1))
		if grep -qx "$code" "$WORK/produced"; then
			fail "F2FS-$code $name is exempt as never produced ($reason), but a golden reports it: take it off EXEMPT"
		else
			echo "exempt: F2FS-$code $name: $reason"
		fi
		continue
	fi
	if ! grep -qx "$code" "$WORK/produced"; then
		fail "F2FS-$code $name: no test produces it (no golden in tests/fsck/expect reports it)"
		continue
	fi
	case "$fix" in
	none*) pass "F2FS-$code produced" ;;
	*) if grep -qx "$code" "$WORK/fixed"; then
		pass "F2FS-$code produced and repaired"
	   else
		fail "F2FS-$code $name is fixable ($fix) but no repair test fixes it (reported in an ID.1 ending in exit 1, gone from ID.2)"
	   fi ;;
	esac
done <"$WORK/table"
echo "$TEST_NAME: $(wc -l <"$WORK/table") codes; $(wc -l <"$WORK/produced") produced by a golden, $(wc -l <"$WORK/fixed") fixed by a repair test, $nexempt exempt"
finish
