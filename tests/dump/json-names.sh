#!/bin/sh
# tests/dump/json-names.sh: a directory name with DEL (0x7f) and other
# control bytes in the --json output of dump.f2fs (-i: i_name) and
# fsck.f2fs (a problem's path, where fsck spells such bytes \xNN), both
# written by lib/json.c: each document parses, holds no raw control byte
# or DEL, and the name reads back.
. "$(dirname "$0")/common.sh"
require_tools mkfs
[ -x "$SLOAD" ] || hard_error "sload.f2fs not built: $SLOAD"
[ -x "$INJECT" ] || hard_error "inject.f2fs not built: $INJECT"
setup_work

NAME_HEX=617f62010263 NAME_HEX=${NAME_HEX}1b640a6509667f   # a DEL b ^A c ESC d \n e \t f DEL
mkdir -p "$WORK/src"
python3 -c 'import os, sys; d = os.path.join(sys.argv[1].encode(), bytes.fromhex(sys.argv[2])); os.mkdir(d); open(os.path.join(d, b"file"), "w").write("x")' \
	"$WORK/src" "$NAME_HEX" || hard_error "cannot make the directory with control bytes in its name"
img=$WORK/n.img
truncate -s 256M "$img"
"$MKFS" -f -q "$img" >/dev/null 2>&1 || hard_error "mkfs failed"
"$SLOAD" -f "$WORK/src" "$img" >"$WORK/sload.log" 2>&1 || hard_error "sload failed: $(tail -2 "$WORK/sload.log")"

# i_name of the inodes after the root (ino 3): the directory and its file.
dir_ino= file_ino=
for ino in 4 5 6; do
	"$DUMP" --json -i "$ino" "$img" >"$WORK/dump$ino.json" 2>"$WORK/dump.err" || continue
	case $(python3 -c 'import json, sys
def find(o):
    if isinstance(o, dict):
        if "i_name" in o:
            return o["i_name"]
        o = list(o.values())
    if isinstance(o, list):
        for v in o:
            r = find(v)
            if r is not None:
                return r
n = find(json.load(open(sys.argv[1])))
print("file" if n == "file" else "dir" if n == bytes.fromhex(sys.argv[2]).decode("latin-1") else "other")' \
		"$WORK/dump$ino.json" "$NAME_HEX" 2>/dev/null) in
	file) file_ino=$ino ;;
	dir) dir_ino=$ino ;;
	esac
done
check "dump --json: an i_name with DEL and control bytes reads back" test -n "$dir_ino"
check "dump --json: no raw control byte or DEL" python3 -c 'import sys
raw = open(sys.argv[1], "rb").read()
sys.exit(any(b < 0x20 and b != 10 or b == 0x7f for b in raw))' "$WORK/dump${dir_ino:-4}.json"
[ -n "$file_ino" ] || hard_error "the file under the directory was not found in inodes 4..6"

# The file's entry claims a directory: fsck names the entry by its path.
"$INJECT" --dent --nid "$file_ino" --mb d_ftype --val 2 "$img" >"$WORK/inj.log" 2>&1 ||
	hard_error "inject.f2fs failed: $(tail -2 "$WORK/inj.log")"
"$FSCK" -n --json "$img" >"$WORK/fsck.json" 2>"$WORK/fsck.err"
check "fsck --json: a path with DEL and control bytes reads back" python3 - "$WORK/fsck.json" "$NAME_HEX" <<'PY'
import json, sys
raw = open(sys.argv[1], 'rb').read()
assert not any(b < 0x20 and b != 10 or b == 0x7f for b in raw), "a raw control byte or DEL"
doc = json.loads(raw)
# fsck's paths spell a byte that is not printable ASCII as \xNN
want = "/" + "".join(chr(b) if 0x20 <= b < 0x7f else "\\x%02x" % b for b in bytes.fromhex(sys.argv[2]))
paths = [p.get("path") or "" for p in doc.get("problems", [])]
assert any(p.startswith(want) for p in paths), "paths %r, expected one under %r" % (paths, want)
PY
finish
