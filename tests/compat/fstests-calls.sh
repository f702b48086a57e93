#!/bin/sh
# tests/compat/fstests-calls.sh: every call fstests makes to the F2FS tools
# (kdave/xfstests common/f2fs, common/encrypt, common/rc and tests/f2fs/002,
# 009, 012, 014, 015, 016, 019, 020, 022, 023, 024), replayed with our tools: the same
# command lines, the same greps and awk over their output, and the
# conclusion fstests would draw (run or _notrun, _fail or go on).  The
# kernel parts of those tests (mounts, I/O) are not replayed here; the
# images are made by our mkfs.f2fs and our sload.f2fs, and
# f2fs-tools' dump.f2fs is the oracle where it reads the same bytes.
. "$(dirname "$0")/common.sh"

# ---- common/f2fs: _require_inject_f2fs_command AREA MEMBER --------------
# It runs `$F2FS_INJECT_PROG "--$metaarea" "$val" "-h" | grep "$member:"`
# and _notrun's the test when the grep finds nothing.
require_inject() {
	"$INJECT" "--$1" 0 "-h" 2>/dev/null | grep "$2:" >/dev/null
}

for req in "node i_links" "dent d_hash" "node addr" "node i_xattr_nid" "node i_nid" \
	   "node i_inline" "node i_inline_xattr_size" "sb magic" "cp checkpoint_ver" \
	   "nat block_addr" "sit vblocks" "ssa entry_type"; do
	# shellcheck disable=SC2086
	set -- $req
	check "_require_inject_f2fs_command $1 $2: the test runs" require_inject "$1" "$2"
done
# the requirement can fail: a member we do not have is _notrun, not run
if require_inject node i_no_such_member; then
	fail "_require_inject_f2fs_command node i_no_such_member: would run"
else
	pass "_require_inject_f2fs_command node i_no_such_member: _notrun"
fi

# ---- the images ---------------------------------------------------------
# MKFS_OPTIONS="" as f2fs/019..023 set it; foo and bar small files, big has
# a direct node, dir a directory.
mkdir -p "$WORK/src/dir" || hard_error mkdir
echo foo >"$WORK/src/foo"
echo bar >"$WORK/src/bar"
head -c 5000000 /dev/urandom >"$WORK/src/big"
BASE=$WORK/base.img
new_image "$BASE" 512M
sload_dir "$BASE" "$WORK/src"
FOO=$(ino_of "$BASE" foo) || hard_error "no foo"
BAR=$(ino_of "$BASE" bar) || hard_error "no bar"
BIG=$(ino_of "$BASE" big) || hard_error "no big"
DIR=$(ino_of "$BASE" dir) || hard_error "no dir"
DEV=$WORK/scratch.img

# ---- common/f2fs: _check_f2fs_filesystem, common/rc: _repair_scratch_fs --
# The check is `$F2FS_FSCK_PROG --dry-run $device`, judged by its exit
# status alone; the repair runs util-linux `fsck -t f2fs -f $SCRATCH_DEV`,
# which execs the first fsck.f2fs on its search path (PATH first: a link
# to ours).  Neither may wait for an answer: stdin is closed and a minute
# is the limit.
FSCK8=$(command -v fsck) || hard_error "util-linux fsck(8) not found"
mkdir -p "$WORK/bin" || hard_error mkdir
ln -s "$(cd "$(dirname "$FSCK")" && pwd)/$(basename "$FSCK")" "$WORK/bin/fsck.f2fs"
check_fs() { timeout 60 "$FSCK" --dry-run "$1" </dev/null >"$WORK/check.out" 2>&1; }
repair_fs() {
	PATH=$WORK/bin:$PATH timeout 60 "$FSCK8" -t f2fs -f "$1" </dev/null >"$WORK/repair.out" 2>&1
}
cp "$BASE" "$DEV"
PATH=$WORK/bin:$PATH "$FSCK8" -V -t f2fs -f "$DEV" </dev/null 2>&1 | grep -q "$WORK/bin/fsck.f2fs" ||
	hard_error "fsck(8) does not run our fsck.f2fs"

oracle_clean() { "$FSCK_ORACLE" --dry-run "$1" </dev/null >"$WORK/oracle.out" 2>&1; }

cp "$BASE" "$DEV"
check "_check_f2fs_filesystem: a clean volume passes" check_fs "$DEV"

# ---- tests/f2fs/009: i_links injected, found, repaired --------------------
# inject_and_check: inject || _fail; _check_scratch_fs && _fail "can't find
# corruption"; _repair_scratch_fs; _check_scratch_fs || _fail "fsck can't
# fix corruption".
f2fs_009() {
	label="f2fs/009 $1 i_links=$3"
	cp "$BASE" "$DEV"
	if ! "$INJECT" --node --mb i_links --nid "$2" --val "$3" "$DEV" >>"$WORK/full" 2>&1; then
		fail "$label: fail to inject"
		return
	fi
	if check_fs "$DEV"; then
		fail "$label: can't find corruption"
		return
	fi
	repair_fs "$DEV"
	rc=$?
	if [ $rc -gt 1 ]; then
		fail "$label: fsck -t f2fs -f exit $rc: $(head -3 "$WORK/repair.out")"
	elif ! check_fs "$DEV"; then
		fail "$label: fsck can't fix corruption: $(head -3 "$WORK/check.out")"
	else
		pass "$label: found, repaired, clean after"
	fi
}
f2fs_009 file "$FOO" 0
f2fs_009 file "$FOO" 5
f2fs_009 directory "$DIR" 1

# ---- tests/f2fs/019, 020, 022, 023: the injections run -------------------
cp "$BASE" "$DEV"
BIGNODE=$("$DUMP" -i "$BIG" -M "$DEV" 2>/dev/null |
	awk '/^-- node blocks/ { d = 1; next } d && $1 ~ /^[0-9]+$/ { print $1; exit }')
[ -n "$BIGNODE" ] || hard_error "big has no direct node"
inj_ok() {
	label=$1
	shift
	if "$INJECT" "$@" "$DEV" >"$WORK/inj.out" 2>&1; then
		pass "$label: $(cat "$WORK/inj.out")"
	else
		fail "$label: exit status, $(head -1 "$WORK/inj.out")"
	fi
}
inj_ok "f2fs/019 --node --mb addr --idx 937" --node --mb addr --nid "$BIGNODE" --idx 937 --val 4
check "f2fs/019: addr[937] of the direct node is 4" \
	grep -q "addr\[937\] .* -> 0x4$" "$WORK/inj.out"
cp "$BASE" "$DEV"
inj_ok "f2fs/020 --node --mb i_xattr_nid" --node --mb i_xattr_nid --nid "$FOO" --val "$FOO"
cp "$BASE" "$DEV"
inj_ok "f2fs/022 --node --mb i_nid --idx 0" --node --mb i_nid --nid "$FOO" --idx 0 --val "$BAR"

# f2fs/023 greps the output for "unknown or unsupported member" and fails
# the test when it is there.
cp "$BASE" "$DEV"
for inj in "i_inline 0x1" "i_inline_xattr_size 2048"; do
	# shellcheck disable=SC2086
	set -- $inj
	output=$("$INJECT" --node --mb "$1" --nid "$FOO" --val "$2" "$DEV" 2>&1)
	rc=$?
	if [ $rc -ne 0 ] || echo "$output" | grep -q "unknown or unsupported member"; then
		fail "f2fs/023 --mb $1: $1 is unsupported ($output)"
	else
		pass "f2fs/023 --mb $1: supported ($output)"
	fi
done
# A member we do not have never gets this far (its _require_inject_f2fs_command
# is _notrun, above); by hand it fails with f2fs-tools' words, on stderr.
cp "$DEV" "$WORK/before.img"
"$INJECT" --node --mb i_no_such_member --nid "$FOO" --val 1 "$DEV" >"$WORK/out" 2>"$WORK/err"
rc=$?
check "an unsupported member: exit 1, \"unknown or unsupported member\", nothing written" \
	sh -c "[ $rc = 1 ] && grep -q 'unknown or unsupported member' '$WORK/err' &&
	       cmp -s '$DEV' '$WORK/before.img'"

# ---- tests/f2fs/012: --nolinear-lookup and the linear_lookup line --------
CF=$WORK/cf.img
new_image "$CF" 256M -O casefold -C utf8
sload_dir "$CF" "$WORK/src"
CFFOO=$(ino_of "$CF" foo) || hard_error "no foo on the casefold image"
for nolinear in 1 0; do
	if [ $nolinear = 1 ]; then want=disable; else want=enable; fi
	"$FSCK" --nolinear-lookup=$nolinear "$CF" >>"$WORK/full" 2>&1
	if "$FSCK" "$CF" 2>/dev/null | grep -q "linear_lookup \[$want\]"; then
		pass "f2fs/012 --nolinear-lookup=$nolinear: fsck prints linear_lookup [$want]"
	else
		fail "f2fs/012 --nolinear-lookup=$nolinear: linear_lookup is not ${want}d"
	fi
	flags=$("$DUMP" --json "$CF" 2>/dev/null |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["superblock"]["s_encoding_flags"])')
	expect=$((nolinear * 2))
	check "f2fs/012 --nolinear-lookup=$nolinear: s_encoding_flags is $expect" test "$flags" = "$expect"
	check "f2fs/012 --nolinear-lookup=$nolinear: f2fs-tools' fsck finds the volume clean" \
		oracle_clean "$CF"
	check "f2fs/012 --nolinear-lookup=$nolinear: our check is clean" check_fs "$CF"
done
"$FSCK" --nolinear-lookup=1 "$CF" >/dev/null 2>&1
cp "$CF" "$WORK/cf-before.img"
"$FSCK" --nolinear-lookup=1 "$CF" >/dev/null 2>&1
check "f2fs/012: setting the flag again writes nothing" cmp -s "$CF" "$WORK/cf-before.img"
"$FSCK" -n --nolinear-lookup=0 "$CF" >/dev/null 2>&1
rc=$?
check "--nolinear-lookup with -n: usage error (16), nothing written" \
	sh -c "[ $rc = 16 ] && cmp -s '$CF' '$WORK/cf-before.img'"
cp "$BASE" "$DEV"
"$FSCK" --nolinear-lookup=1 "$DEV" >"$WORK/nocf.out" 2>&1
check "--nolinear-lookup on a volume without casefold: says so, writes nothing" \
	sh -c "grep -q 'Not support Casefold feature' '$WORK/nocf.out' && cmp -s '$DEV' '$BASE'"
"$FSCK" --json --nolinear-lookup=0 "$CF" 2>/dev/null >"$WORK/tune.json"
check "--nolinear-lookup with --json: standard output is still one JSON document" \
	python3 -c "import json; json.load(open('$WORK/tune.json'))"
"$FSCK" --nolinear-lookup=1 "$CF" >/dev/null 2>&1
inj_ok "f2fs/012 --dent --mb d_hash" --dent --mb d_hash --nid "$CFFOO" --val 0x9a2ea068
# the line reads the superblock the kernel uses: copy 2 when copy 1 is bad
cp "$CF" "$WORK/cf-bad1.img"
"$FSCK" --nolinear-lookup=1 "$WORK/cf-bad1.img" >/dev/null 2>&1
"$INJECT" --sb 1 --mb s_encoding_flags --val 0 "$WORK/cf-bad1.img" >/dev/null 2>&1 &&
"$INJECT" --sb 1 --mb magic --val 0 "$WORK/cf-bad1.img" >/dev/null 2>&1 ||
	hard_error "inject superblock copy 1"
check "the linear_lookup line follows the copy in use (copy 1 broken)" \
	sh -c "'$FSCK' '$WORK/cf-bad1.img' 2>/dev/null | grep -q 'linear_lookup \[disable\]'"

# with sb_checksum the superblock crc is recomputed in both copies
SC=$WORK/sc.img
new_image "$SC" 256M -O extra_attr,sb_checksum,casefold -C utf8
"$FSCK" --nolinear-lookup=1 "$SC" >/dev/null 2>&1
check "--nolinear-lookup=1 with sb_checksum: both copies valid, crc right, both fscks clean" \
	sh -c "'$DUMP' '$SC' 2>&1 | grep -q '^superblock copy 2  *valid\$' &&
	       '$DUMP' '$SC' 2>/dev/null | grep -q '^crc_ok  *yes' &&
	       '$FSCK' '$SC' >/dev/null 2>&1 && '$FSCK_ORACLE' --dry-run '$SC' >/dev/null 2>&1 </dev/null"
check "f2fs/012: no linear_lookup line without casefold" \
	sh -c "! '$FSCK' '$BASE' | grep -q linear_lookup"

# ---- tests/f2fs/014: "checkpoint state" ... trimmed -----------------------
# `$DUMP_F2FS_PROG $SCRATCH_DEV | grep "checkpoint state" | grep -o trimmed`
# must print "trimmed" (the expected output); the same pipeline over
# f2fs-tools' dump.f2fs is the oracle.
cp "$BASE" "$DEV"
got=$("$DUMP" "$DEV" 2>/dev/null | grep "checkpoint state" | grep -o trimmed)
oracle=$("$DUMP_ORACLE" "$DEV" 2>/dev/null | grep "checkpoint state" | grep -o trimmed)
check "f2fs/014: prints trimmed, as f2fs-tools does" test "$got" = trimmed -a "$oracle" = trimmed
flags=$("$DUMP" --json "$DEV" 2>/dev/null |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["checkpoint"]["ckpt_flags"])')
"$INJECT" --cp 0 --mb ckpt_flags --val $((flags & ~0x100)) "$DEV" >>"$WORK/full" 2>&1
got=$("$DUMP" "$DEV" 2>/dev/null | grep "checkpoint state" | grep -o trimmed)
oracle=$("$DUMP_ORACLE" "$DEV" 2>/dev/null | grep "checkpoint state" | grep -o trimmed)
check "f2fs/014: without CP_TRIMMED_FLAG nothing is printed (the test fails), as with f2fs-tools" \
	test -z "$got" -a -z "$oracle"
ours_line=$("$DUMP" "$DEV" 2>/dev/null | grep "^Info: checkpoint state")
oracle_line=$("$DUMP_ORACLE" "$DEV" 2>/dev/null | tr '\r' '\n' | grep "^Info: checkpoint state")
check "f2fs/014: the checkpoint state line is f2fs-tools' ($oracle_line)" \
	test "$ours_line" = "$oracle_line"

# ---- tests/f2fs/015, 016: _scratch_mkfs "-O $feature" ------------------------
# Each option pair formats the scratch device with MKFS_OPTIONS="" and the
# test's -O list and stops with _fail "mkfs failed" when mkfs exits non-zero
# (the mounts after it are the kernel's part).  f2fs/015's last but one is
# "-O ro", a read-only image.
for feats in ro extra_attr,quota,project_quota extra_attr,flexible_inline_xattr \
	     extra_attr,compression encrypt; do
	rm -f "$DEV"
	truncate -s 512M "$DEV" || hard_error truncate
	if "$MKFS" -f -O "$feats" "$DEV" >"$WORK/mkfs.out" 2>&1; then
		if "$FSCK" "$DEV" >/dev/null 2>&1 && "$FSCK_ORACLE" --dry-run "$DEV" >/dev/null 2>&1 </dev/null; then
			pass "f2fs/015-016 _scratch_mkfs -O $feats: formatted, both fscks clean"
		else
			fail "f2fs/015-016 _scratch_mkfs -O $feats: formatted, but a fsck is not clean"
		fi
	else
		fail "f2fs/015-016 _scratch_mkfs -O $feats: mkfs failed: $(head -n 1 "$WORK/mkfs.out")"
	fi
done

# ---- tests/f2fs/024: resize.f2fs, then dump.f2fs -d 1 -i 3 | grep dump_node:
# _scratch_mkfs_sized 512 MiB "" "-g android" (mkfs DEV SECTORS), f2fs-tools'
# resize.f2fs -t to 2 GiB and a bit, then the NAT entry and footer lines of
# the root, the bracketed "[dump_node: N] " prefix stripped; 024.out has six
# lines, Node ID first.  f2fs-tools' dump.f2fs on the same image is the
# oracle (the root's address depends on the device's sector size).
RESIZE_ORACLE=${RESIZE_ORACLE:-/usr/sbin/resize.f2fs}
[ -x "$RESIZE_ORACLE" ] || hard_error "f2fs-tools' resize.f2fs not found: $RESIZE_ORACLE"
rm -f "$DEV"
target=$((2 * 1024 * 1024 * 1024 + 4 * 1024 * 1204))
truncate -s $((target + 64 * 1024 * 1024)) "$DEV" || hard_error truncate
if "$MKFS" -f -g android "$DEV" $((512 * 1024 * 1024 / 512)) >"$WORK/mkfs.out" 2>&1; then
	"$RESIZE_ORACLE" -F "$DEV" -t $((target / 512)) >>"$WORK/full" 2>&1 ||
		"$RESIZE_ORACLE" "$DEV" -t $((target / 512)) >>"$WORK/full" 2>&1 ||
		fail "f2fs/024: resize.f2fs failed on our mkfs -g android image"
	echo n | "$DUMP" -d 1 -i 3 "$DEV" 2>/dev/null | grep "dump_node:" | sed 's/^\[[^]]*\] //' >"$WORK/024.ours"
	echo n | "$DUMP_ORACLE" -d 1 -i 3 "$DEV" 2>/dev/null | grep "dump_node:" | sed 's/^\[[^]]*\] //' >"$WORK/024.oracle"
	if [ "$(wc -l <"$WORK/024.ours")" = 6 ] && head -n 1 "$WORK/024.ours" | grep -q '^Node ID  *\[0x3\]$' &&
	   cmp -s "$WORK/024.ours" "$WORK/024.oracle"; then
		pass "f2fs/024: dump -d 1 -i 3 prints the root's dump_node lines as f2fs-tools does"
	else
		fail "f2fs/024: dump_node lines differ: $(diff "$WORK/024.ours" "$WORK/024.oracle" | head -4)"
	fi
else
	fail "f2fs/024: mkfs -g android failed: $(head -n 1 "$WORK/mkfs.out")"
fi

# ---- common/encrypt: _get_encryption_nonce (f2fs/002 and the generic
# encryption tests) ----------------------------------------------------------
# An encryption context xattr (index 9, name "c") as the kernel stores it,
# written into the inline xattr area of foo (version 1) and bar (version 2).
put_xattrs() {
	img=$1 ino=$2
	shift 2
	python3 - 50 "$@" <<'PY' >"$WORK/words" || hard_error "put_xattrs $*"
import struct, sys
ixa = int(sys.argv[1])
buf = struct.pack('<II16x', 0xF2F52011, 1)
for spec in sys.argv[2:]:
    index, name, value = spec.split(':')
    name, value = name.encode(), bytes.fromhex(value)
    e = struct.pack('<BBH', int(index), len(name), len(value)) + name + value
    buf += e + bytes(-len(e) % 4)
assert len(buf) <= ixa * 4
buf += bytes(ixa * 4 - len(buf))
for i in range(ixa):
    print(923 - ixa + i, struct.unpack_from('<I', buf, 4 * i)[0])
PY
	while read -r idx val; do
		"$INJECT" --node --nid "$ino" --mb i_addr --idx "$idx" --val "$val" "$img" \
			>/dev/null 2>&1 || hard_error "inject i_addr[$idx] of $ino"
	done <"$WORK/words"
}

# the awk of _get_encryption_nonce, as fstests has it (fstests needs gawk;
# without it, mawk gets the same program with \< \> spelled out)
if command -v gawk >/dev/null; then
	NONCE_AWK='/\<e_name:c\>/ { found = 1 }'
	AWK=gawk
else
	NONCE_AWK='/(^|[^[:alnum:]_])e_name:c([^[:alnum:]_]|$)/ { found = 1 }'
	AWK=awk
fi
NONCE_AWK="$NONCE_AWK"'
	(/^nonce:/ || /^[[:xdigit:]]+$/) && found {
		print substr($0, length($0) - 31, 32);
		found = 0;
	}'
get_nonce() {
	"$1" -i "$3" "$2" 2>/dev/null </dev/null | tr -d '\r' | $AWK "$NONCE_AWK"
}

NONCE1=EFBD18765DF6414EC0A2CD5F91297E12
NONCE2=5E6B9E72D07523C58794ACF52534BAA7
CTX1=01010402AABBCCDDEEFF0011$NONCE1
CTX2=0201040200000000000102030405060708090A0B0C0D0E0F$NONCE2
cp "$BASE" "$DEV"
put_xattrs "$DEV" "$FOO" 1:foo:626172 9:c:$CTX1
put_xattrs "$DEV" "$BAR" 9:c:$CTX2 2::010000000100060002000600e8030000040004001000060020000400
check "the injected xattrs leave the volume clean for f2fs-tools" oracle_clean "$DEV"
got=$(get_nonce "$DUMP" "$DEV" "$FOO")
oracle=$(get_nonce "$DUMP_ORACLE" "$DEV" "$FOO")
check "_get_encryption_nonce, v1 context: $got" test "$got" = "$NONCE1" -a "$oracle" = "$NONCE1"
got=$(get_nonce "$DUMP" "$DEV" "$BAR")
oracle=$(get_nonce "$DUMP_ORACLE" "$DEV" "$BAR")
check "_get_encryption_nonce, v2 context (printed as hex): $got" \
	test "$got" = "$NONCE2" -a "$oracle" = "$NONCE2"
# _require_get_encryption_nonce_support only needs dump.f2fs; the xattr
# blocks themselves are f2fs-tools' (user xattr in hex, ACL decoded)
# (our own one-line form, "xattr user.foo ...", follows each block)
"$DUMP" -i "$FOO" "$DEV" 2>/dev/null | grep -v '^xattr ' | sed -n '/^xattr: /,/^nonce:/p' >"$WORK/ours.x"
"$DUMP_ORACLE" -i "$FOO" "$DEV" 2>/dev/null </dev/null | tr '\r' '\n' |
	sed -n '/^xattr: /,/^nonce:/p' >"$WORK/oracle.x"
check "dump -i: the xattr blocks of foo are f2fs-tools'" cmp -s "$WORK/ours.x" "$WORK/oracle.x"
"$DUMP" -i "$BAR" "$DEV" 2>/dev/null | grep -v '^xattr ' | grep -A6 "^xattr: e_name_index:2" >"$WORK/ours.acl"
"$DUMP_ORACLE" -i "$BAR" "$DEV" 2>/dev/null </dev/null | tr '\r' '\n' |
	grep -A6 "^xattr: e_name_index:2" >"$WORK/oracle.acl"
check "dump -i: the ACL block of bar is f2fs-tools'" cmp -s "$WORK/ours.acl" "$WORK/oracle.acl"

# ---- common/encrypt: _require_get_ciphertext_filename_support and
# _get_ciphertext_filename -------------------------------------------------
# A 255-byte encrypted name must show as 340 characters of the no-key
# encoding on the i_name line, and decode back to the bytes on disk.
cp "$BASE" "$DEV"
name255=$(python3 -c 'print("".join(chr(65 + (i * 7) % 26) for i in range(255)))')
"$INJECT" --node --nid "$FOO" --mb i_name --str "$name255" "$DEV" >/dev/null 2>&1 &&
"$INJECT" --node --nid "$FOO" --mb i_namelen --val 255 "$DEV" >/dev/null 2>&1 &&
"$INJECT" --node --nid "$FOO" --mb i_advise --val 0x8 "$DEV" >/dev/null 2>&1 ||
	hard_error "inject the encrypted name"
command -v perl >/dev/null || hard_error "perl not found (fstests decodes the name with it)"
for tool in "$DUMP" "$DUMP_ORACLE"; do
	if [ "$tool" = "$DUMP" ]; then who=ours; else who=f2fs-tools; fi
	# _require_get_ciphertext_filename_support: "-i $inode $SCRATCH_DEV"
	"$tool" -i "$FOO" "$DEV" 2>/dev/null </dev/null | tr -d '\r' >"$WORK/name.out"
	check "_require_get_ciphertext_filename_support ($who): 340 characters" \
		grep -E -q '^i_name[[:space:]]+\[[A-Za-z0-9+,]{340}\]' "$WORK/name.out"
	# _get_ciphertext_filename: "$DUMP_F2FS_PROG $device -i $inode", options last
	"$tool" "$DEV" -i "$FOO" 2>/dev/null </dev/null | tr -d '\r' >"$WORK/name.out"
	got=$(perl -ne '
		next if not /^i_name\s+\[([A-Za-z0-9+,]+)\]/;
		chomp $1;
		my @chars = split //, $1;
		my $ac = 0;
		my $bits = 0;
		my $table = join "", (A..Z, a..z, 0..9, "+", ",");
		foreach (@chars) {
			$ac += index($table, $_) << $bits;
			$bits += 6;
			if ($bits >= 8) {
				print chr($ac & 0xff);
				$ac >>= 8;
				$bits -= 8;
			}
		}' "$WORK/name.out")
	check "_get_ciphertext_filename ($who): decodes to the bytes on disk" \
		test "$got" = "$name255"
done

finish
