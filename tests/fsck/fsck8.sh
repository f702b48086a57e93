#!/bin/bash
# tests/fsck/fsck8.sh: util-linux fsck(8) driving our fsck.f2fs, as
# systemd-fsck and boot scripts do (`fsck -t f2fs -a`, `-p`, `-n`, `-y`),
# and Android's init (`fsck.f2fs -a -c 10000 --debug-cache`, called
# directly: fsck(8) would take 10000 for a device).
#
# fsck(8) runs the fsck.TYPE it finds first on its search path, which
# starts with PATH: a scratch directory holding a link to our fsck.f2fs,
# put first in PATH, makes it run ours without installing anything
# (`fsck -V` prints the checker it runs; the test requires ours).  The
# device must be an absolute path, or fsck(8) takes it for an option of
# the checker.  The exit code of fsck(8) is the checker's.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/fsck/common.sh"
require "$INJECT"
FSCK8=$(command -v fsck) || hard_error "util-linux fsck(8) not found"

BIN=$WORK/bin
mkdir -p "$BIN"
ln -s "$(cd "$(dirname "$FSCK")" && pwd)/$(basename "$FSCK")" "$BIN/fsck.f2fs"

IMG=$WORK/clean.img
truncate -s 256M "$IMG"
"$MKFS" -f -q -O extra_attr,inode_checksum,quota,lost_found "$IMG" >/dev/null 2>&1 || hard_error mkfs
BAD=$WORK/bad.img
cp --sparse=always "$IMG" "$BAD"
"$INJECT" --node --mb i_links --nid 3 --val 9 "$BAD" >/dev/null 2>&1 || hard_error inject
FLAGS=$(cp_field "$IMG" ckpt_flags)
ASKED=$WORK/asked.img
cp --sparse=always "$BAD" "$ASKED"
"$INJECT" --cp 0 --mb ckpt_flags --val $((FLAGS | 0x10)) "$ASKED" >/dev/null 2>&1 || hard_error inject

# via_fsck8 WANT-RC IMG ARGS...: fsck -V -t f2fs ARGS IMG through PATH.
via_fsck8() {
	local want=$1 img=$2
	shift 2
	local what="fsck -t f2fs $* $(basename "$img")"
	local sum0
	sum0=$(cksum <"$img")
	PATH=$BIN:$PATH timeout "$FSCK_TIMEOUT" "$FSCK8" -V -t f2fs "$@" "$img" </dev/null \
		>"$WORK/o" 2>"$WORK/e"
	RC=$?
	grep -q "^\[$BIN/fsck.f2fs " "$WORK/o" || { fail "$what: ran another checker: $(head -3 "$WORK/o")"; return; }
	[ "$RC" = "$want" ] || { fail "$what: exit $RC, expected $want: $(tail -2 "$WORK/o") $(head -2 "$WORK/e")"; return; }
	CHANGED=no
	[ "$(cksum <"$img")" = "$sum0" ] || CHANGED=yes
	pass "$what: exit $RC"
}

# a clean volume: every mode exits 0 and writes nothing
for args in -a -p -n -y; do
	via_fsck8 0 "$IMG" $args
	[ "$CHANGED" = no ] || fail "fsck -t f2fs $args wrote to a clean volume"
done
# a damaged volume the kernel did not flag: -a/-p stop after the mount
# checks (exit 0, nothing written); -n reports it (4); -y repairs (1)
for args in -a -p; do
	cp --sparse=always "$BAD" "$WORK/t.img"
	via_fsck8 0 "$WORK/t.img" $args
	[ "$CHANGED" = no ] || fail "fsck -t f2fs $args wrote without a request from the kernel"
done
via_fsck8 4 "$BAD" -n
[ "$CHANGED" = no ] || fail "fsck -t f2fs -n wrote"
cp --sparse=always "$BAD" "$WORK/t.img"
via_fsck8 1 "$WORK/t.img" -y
via_fsck8 0 "$WORK/t.img" -n
# the kernel asked for a check: preen runs the full check and fixes what is
# preen-safe (i_links is)
for args in -a -p; do
	cp --sparse=always "$ASKED" "$WORK/t.img"
	via_fsck8 1 "$WORK/t.img" $args
	via_fsck8 0 "$WORK/t.img" -n
done
# Android's init calls fsck.f2fs itself with f2fs-tools' cache options,
# which are accepted and ignored: the same verdicts as plain -a
android() {
	local want=$1 img=$2 sum0
	sum0=$(cksum <"$img")
	"$FSCK" -a -c 10000 --debug-cache "$img" </dev/null >"$WORK/o" 2>"$WORK/e"
	RC=$?
	CHANGED=no
	[ "$(cksum <"$img")" = "$sum0" ] || CHANGED=yes
	[ "$RC" = "$want" ] && pass "android -a -c 10000 --debug-cache $(basename "$img"): exit $RC" ||
		fail "android -a -c 10000 --debug-cache $(basename "$img"): exit $RC, expected $want: $(head -2 "$WORK/e")"
}
android 0 "$IMG"
[ "$CHANGED" = no ] || fail "android flags: wrote to a clean volume"
cp --sparse=always "$BAD" "$WORK/t.img"
android 0 "$WORK/t.img"
[ "$CHANGED" = no ] || fail "android flags: wrote without a request from the kernel"
cp --sparse=always "$ASKED" "$WORK/t.img"
android 1 "$WORK/t.img"
via_fsck8 0 "$WORK/t.img" -n
# -n with a repair mode is refused by our fsck.f2fs (16) before anything
PATH=$BIN:$PATH "$FSCK8" -t f2fs -n -y "$BAD" </dev/null >"$WORK/o" 2>&1
RC=$?
[ "$RC" = 16 ] && pass "fsck -t f2fs -n -y: usage error" || fail "fsck -t f2fs -n -y: exit $RC"
finish
