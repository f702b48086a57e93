#!/bin/bash
# tests/fsck/output.sh: the output contract of fsck.f2fs (issue 12).
#
# - Modes exclude each other as in e2fsck: -n with -y, -a or -p (and -y
#   with -a/-p) is a usage error, exit 16 with a message, nothing written.
# - --json prints exactly one JSON document on stdout for every run,
#   repairs included (problems, the repair's outcome and fixes, the
#   re-check), with exit_code equal to the process's exit status.
# - Operational errors (not F2FS, ext4, missing, short or unreadable (a
#   directory) device, missing member device) print the error and no summary; in JSON
#   an error object with a stable code.
# - After a repair the re-check's summary is printed; an interactive "y"
#   (a terminal from script(1)) does not list the problems a second time.
# - The fstests call pattern: --dry-run exits 0 on a clean volume and
#   non-zero on a corrupted one; -f and --dry-run never prompt, whatever
#   stdin is (a pipe, /dev/null, a terminal).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/fsck/common.sh"
require "$INJECT"
command -v python3 >/dev/null || hard_error "python3 is needed to validate the JSON documents"

IMG=$WORK/clean.img
truncate -s 256M "$IMG"
"$MKFS" -f -q -O extra_attr,inode_checksum,quota,lost_found "$IMG" >/dev/null 2>&1 || hard_error mkfs
BAD=$WORK/bad.img
cp --sparse=always "$IMG" "$BAD"
"$INJECT" --node --mb i_links --nid 3 --val 9 "$BAD" >/dev/null 2>&1 || hard_error inject
BADSUM=$(cksum <"$BAD")

# fsck_to OUT ERR ARGS...: our fsck, stdin from /dev/null; sets RC.
fsck_to() {
	local out=$1 err=$2
	shift 2
	timeout "$FSCK_TIMEOUT" "$FSCK" "$@" </dev/null >"$out" 2>"$err"
	RC=$?
}

# json_check FILE RC PYTHON-ASSERTIONS: FILE is one JSON document (d)
# whose exit_code is RC, and the assertions hold.
json_check() {
	python3 - "$1" "$2" "$3" <<'EOF'
import json, sys
text = open(sys.argv[1]).read()
d = json.loads(text)            # exactly one document: trailing text fails
assert text.endswith("}\n") and text.count("\n") == 1, "not one line"
assert d["exit_code"] == int(sys.argv[2]), ("exit_code", d["exit_code"], sys.argv[2])
exec(sys.argv[3])
EOF
}

# ---- exclusive modes ----
for modes in "-n -y" "-y -n" "-n -a" "-a -n" "-n -p" "-p -n" "-N -y" "-n -p 1" "-y -a" "-p -y" \
	"-a -y -f" "--json -n -y"; do
	fsck_to "$WORK/o" "$WORK/e" $modes "$BAD"
	[ "$RC" = 16 ] || fail "'$modes': exit $RC, expected 16"
	grep -q "exclude each other" "$WORK/e" || fail "'$modes': no message: $(head -2 "$WORK/e")"
	[ "$(cksum <"$BAD")" = "$BADSUM" ] && pass "'$modes' is a usage error" || fail "'$modes' wrote"
done
python3 -m json.tool "$WORK/o" >/dev/null 2>&1 && pass "--json usage error is a JSON document" ||
	fail "--json usage error: $(head -c 200 "$WORK/o")"
# the text views cannot share stdout with the document
for opt in -t -l; do
	fsck_to "$WORK/o" "$WORK/e" --json $opt "$IMG"
	[ "$RC" = 16 ] && python3 -m json.tool "$WORK/o" >/dev/null 2>&1 &&
		pass "--json $opt: usage error, as a JSON document" || fail "--json $opt: exit $RC: $(head -c 200 "$WORK/o")"
done
# -f forces, it is no mode of its own: -n -f checks only
fsck_to "$WORK/o" "$WORK/e" -n -f "$BAD"
[ "$RC" = 4 ] && [ "$(cksum <"$BAD")" = "$BADSUM" ] && pass "-n -f checks only" ||
	fail "-n -f: exit $RC"

# ---- one JSON document for every run ----
fsck_to "$WORK/j" "$WORK/e" --json "$IMG"
json_check "$WORK/j" $RC 'assert d["problems"] == [] and "repair" not in d and d["full_check"]' &&
	[ "$RC" = 0 ] && pass "json: clean check" || fail "json: clean check: $(head -c 300 "$WORK/j")"
fsck_to "$WORK/j" "$WORK/e" --json "$BAD"
json_check "$WORK/j" $RC 'assert d["problems"][0]["code"] == 4013 and "repair" not in d' &&
	[ "$RC" = 4 ] && pass "json: corrupt check" || fail "json: corrupt check: $(head -c 300 "$WORK/j")"
fsck_to "$WORK/j" "$WORK/e" --json --dry-run "$BAD"
json_check "$WORK/j" $RC 'assert d["repair"]["outcome"] == "dry_run" and d["repair"]["blocks_written"] > 0 and "recheck" not in d' &&
	[ "$RC" = 4 ] && [ "$(cksum <"$BAD")" = "$BADSUM" ] && pass "json: --dry-run" ||
	fail "json: --dry-run: $(head -c 300 "$WORK/j")"
for mode in -y -f "-a -f"; do
	cp --sparse=always "$BAD" "$WORK/fix.img"
	fsck_to "$WORK/j" "$WORK/e" --json $mode "$WORK/fix.img"
	json_check "$WORK/j" $RC '
r = d["repair"]
assert r["outcome"] == "written" and r["blocks_written"] > 0, r
assert [f["code"] for f in r["fixes"]] == [4013], r
assert d["recheck"]["summary"]["problems"] == 0 and d["recheck"]["problems"] == [], d["recheck"]
assert d["problems"][0]["code"] == 4013' && [ "$RC" = 1 ] &&
		pass "json: repair '$mode' in one document, exit_code 1" ||
		fail "json: repair '$mode' (exit $RC): $(head -c 400 "$WORK/j")"
done
cp --sparse=always "$IMG" "$WORK/nopreen.img"
"$INJECT" --node --mb i_extra_isize --nid 3 --val 3 "$WORK/nopreen.img" >/dev/null 2>&1 || hard_error inject
fsck_to "$WORK/j" "$WORK/e" --json -a -f "$WORK/nopreen.img"
json_check "$WORK/j" $RC 'assert d["repair"]["outcome"] == "refused" and d["repair"]["blocks_written"] == 0 and d["mode"] == "preen"' &&
	[ "$RC" = 4 ] && pass "json: preen refusal" || fail "json: preen refusal (exit $RC): $(head -c 300 "$WORK/j")"
fsck_to "$WORK/j" "$WORK/e" --json -a "$IMG"
json_check "$WORK/j" $RC 'assert d["full_check"] is False' && [ "$RC" = 0 ] &&
	pass "json: preen fast path" || fail "json: preen fast path: $(head -c 300 "$WORK/j")"

# ---- operational errors: the error, no summary; JSON: an error object ----
truncate -s 64M "$WORK/zero.img"
# a device that ends inside the metadata areas: the kernel cannot mount it
cp --sparse=always "$IMG" "$WORK/short.img"
truncate -s 1M "$WORK/short.img"
mkdir "$WORK/adir"
declare -A WANT=([zero.img]=not_f2fs [missing.img]=missing_device [short.img]=short_device
	[adir]=unreadable)
if command -v mkfs.ext4 >/dev/null; then
	truncate -s 64M "$WORK/ext4.img"
	mkfs.ext4 -q -F "$WORK/ext4.img" >/dev/null 2>&1 && WANT[ext4.img]=not_f2fs
fi
for name in "${!WANT[@]}"; do
	fsck_to "$WORK/o" "$WORK/e" "$WORK/$name"
	[ "$RC" = 8 ] || fail "$name: exit $RC, expected 8"
	[ -s "$WORK/o" ] && fail "$name: something on stdout: $(head -2 "$WORK/o")"
	[ -s "$WORK/e" ] || fail "$name: no error on stderr"
	fsck_to "$WORK/j" "$WORK/e" --json "$WORK/$name"
	json_check "$WORK/j" $RC "assert d['error']['code'] == '${WANT[$name]}' and d['error']['message'] and 'problems' not in d and 'summary' not in d" &&
		[ "$RC" = 8 ] && pass "$name: error ${WANT[$name]}, no summary" ||
		fail "$name: $(head -c 300 "$WORK/j")"
done
# one that ends inside the main area is checked on, its tail read as
# zeroes (the kernel mounts it): problem 1043, and -y grows the file
cp --sparse=always "$IMG" "$WORK/cut.img"
truncate -s 100M "$WORK/cut.img"
fsck_to "$WORK/j" "$WORK/e" --json "$WORK/cut.img"
json_check "$WORK/j" $RC "assert [p['code'] for p in d['problems']] == [1043], d['problems']" &&
	[ "$RC" = 4 ] && pass "cut in the main area: problem 1043, exit 4" ||
	fail "cut in the main area (exit $RC): $(head -c 300 "$WORK/j")"
fsck_to "$WORK/o" "$WORK/e" -y "$WORK/cut.img"
[ "$RC" = 1 ] && [ "$(stat -c %s "$WORK/cut.img")" -gt $((100 << 20)) ] &&
	pass "cut in the main area: -y grows the image, exit 1" ||
	fail "cut in the main area: -y exit $RC, size $(stat -c %s "$WORK/cut.img"): $(head -3 "$WORK/o")"
fsck_to "$WORK/o" "$WORK/e" "$WORK/cut.img"
[ "$RC" = 0 ] && pass "cut in the main area: clean after -y" || fail "cut after -y: exit $RC: $(head -3 "$WORK/o")"
rm -f "$WORK/cut.img"
# a member device of a multi-device volume that is gone (paths in the
# superblock hold 63 characters at most: a short directory)
MD=$(mktemp -d /tmp/f2out.XXXXXX) || hard_error "mktemp in /tmp"
trap 'rm -rf "$MD"; lib_cleanup' EXIT
truncate -s 128M "$MD/d0.img" "$MD/d1.img"
if "$MKFS" -f -q -c "$MD/d1.img" "$MD/d0.img" >/dev/null 2>&1; then
	fsck_to "$WORK/o" "$WORK/e" "$MD/d0.img"
	[ "$RC" = 0 ] || fail "multi-device volume not clean: exit $RC"
	rm -f "$MD/d1.img"
	fsck_to "$WORK/o" "$WORK/e" "$MD/d0.img"
	[ "$RC" = 8 ] && [ ! -s "$WORK/o" ] || fail "missing member: exit $RC, stdout: $(head -2 "$WORK/o")"
	fsck_to "$WORK/j" "$WORK/e" --json "$MD/d0.img"
	json_check "$WORK/j" $RC "assert d['error']['code'] == 'missing_member' and 'problems' not in d" &&
		[ "$RC" = 8 ] && pass "missing member: error missing_member" || fail "missing member: $(head -c 300 "$WORK/j")"
else
	fail "mkfs -c failed"
fi

# ---- after a repair: the re-check's summary ----
cp --sparse=always "$BAD" "$WORK/fix.img"
fsck_to "$WORK/o" "$WORK/e" -y "$WORK/fix.img"
[ "$RC" = 1 ] && [ "$(grep -c ' problems (' "$WORK/o")" = 2 ] &&
	tail -1 "$WORK/o" | grep -q ": .* 0 problems (0 errors, 0 warnings)$" &&
	pass "the re-check's summary ends a repair" || fail "after the repair: $(tail -3 "$WORK/o")"

# ---- an interactive "y" lists the problems once ----
if command -v script >/dev/null; then
	cp --sparse=always "$BAD" "$WORK/tty.img"
	printf 'y\n' | timeout 60 script -qec "'$FSCK' '$WORK/tty.img'" /dev/null >"$WORK/o" 2>&1
	RC=$?
	tr -d '\r' <"$WORK/o" >"$WORK/o2"
	[ "$RC" = 1 ] || fail "interactive y: exit $RC"
	grep -q "Fix? \[y/N\]" "$WORK/o2" || fail "interactive: no question on a terminal"
	[ "$(grep -c '^F2FS-4013 ' "$WORK/o2")" = 1 ] && pass "interactive y: the problem listed once" ||
		fail "interactive y: listed $(grep -c '^F2FS-4013 ' "$WORK/o2") times"
	tail -1 "$WORK/o2" | grep -q " 0 problems (" && pass "interactive y: the re-check's summary" ||
		fail "interactive y: $(tail -2 "$WORK/o2")"
	cp --sparse=always "$BAD" "$WORK/tty.img"
	printf 'n\n' | timeout 60 script -qec "'$FSCK' '$WORK/tty.img'" /dev/null >"$WORK/o" 2>&1
	RC=$?
	[ "$RC" = 4 ] && [ "$(cksum <"$WORK/tty.img")" = "$BADSUM" ] && pass "interactive n: nothing written" ||
		fail "interactive n: exit $RC"
else
	fail "script(1) (util-linux) is needed for the terminal tests"
fi

# ---- fstests: --dry-run's verdict, and no prompt from -f or --dry-run ----
fsck_to "$WORK/o" "$WORK/e" --dry-run "$IMG"
[ "$RC" = 0 ] && pass "--dry-run: 0 on a clean volume" || fail "--dry-run clean: exit $RC"
fsck_to "$WORK/o" "$WORK/e" --dry-run "$BAD"
[ "$RC" != 0 ] && [ "$(cksum <"$BAD")" = "$BADSUM" ] && pass "--dry-run: non-zero on a corrupted volume" ||
	fail "--dry-run corrupt: exit $RC"
for mode in -f --dry-run "-f --dry-run"; do
	cp --sparse=always "$BAD" "$WORK/np.img"
	yes | timeout 60 "$FSCK" $mode "$WORK/np.img" >"$WORK/o" 2>&1
	RC=$?
	[ $RC -lt 124 ] && ! grep -q "Fix?" "$WORK/o" && pass "'$mode' with stdin a pipe: no prompt (exit $RC)" ||
		fail "'$mode' with stdin a pipe: exit $RC, $(grep -c 'Fix?' "$WORK/o") prompts"
	cp --sparse=always "$BAD" "$WORK/np.img"
	timeout 60 "$FSCK" $mode "$WORK/np.img" </dev/null >"$WORK/o" 2>&1
	RC=$?
	[ $RC -lt 124 ] && ! grep -q "Fix?" "$WORK/o" && pass "'$mode' with stdin /dev/null: no prompt (exit $RC)" ||
		fail "'$mode' with stdin /dev/null: exit $RC"
	if command -v script >/dev/null; then
		cp --sparse=always "$BAD" "$WORK/np.img"
		timeout 60 script -qec "'$FSCK' $mode '$WORK/np.img'" /dev/null </dev/null >"$WORK/o" 2>&1
		RC=$?
		[ $RC -lt 124 ] && ! grep -q "Fix?" "$WORK/o" && pass "'$mode' on a terminal: no prompt (exit $RC)" ||
			fail "'$mode' on a terminal: exit $RC, $(grep -c 'Fix?' "$WORK/o") prompts"
	fi
done
finish
