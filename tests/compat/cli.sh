#!/bin/sh
# tests/compat/cli.sh: what scripts written for f2fs-tools rely on, with
# f2fs-tools 1.15 as the oracle on the same images (made by both mkfs):
# - -h, --help, -V and --version work in all four tools, and an unknown
#   option is named in the message;
# - fsck.f2fs -l prints f2fs-tools' lines, byte for byte, before ours;
# - dump.f2fs keeps f2fs-tools' names: its "Info:" lines, volum_name, and
#   the i_name, i_ext: and i_addr[0x..] lines of -i;
# - superblock copies and checkpoint packs are numbered 1 and 2 alike in
#   fsck's and dump's messages and inject's --sb/--cp;
# - mkfs.f2fs -c stores absolute device paths, and says so.
. "$(dirname "$0")/common.sh"

MKFS_ORACLE=${MKFS_ORACLE:-/usr/sbin/mkfs.f2fs}
[ -x "$MKFS_ORACLE" ] || hard_error "f2fs-tools oracle $MKFS_ORACLE missing"

# ---- help, version, unknown options -------------------------------------
for tool in "$MKFS" "$FSCK" "$DUMP" "$INJECT"; do
	name=$(basename "$tool")
	for opt in -h --help -V --version; do
		"$tool" $opt >"$WORK/out" 2>"$WORK/err" </dev/null
		rc=$?
		check "$name $opt: exit 0 with output on stdout" \
			sh -c "[ $rc = 0 ] && [ -s '$WORK/out' ]"
	done
	check "$name -V names the tool" grep -q "^$name " "$WORK/out"
	for opt in -Z --no-such-option; do
		"$tool" $opt "$WORK/none.img" >"$WORK/out" 2>"$WORK/err" </dev/null
		rc=$?
		check "$name $opt: refused (exit $rc), the option named" \
			sh -c "[ $rc != 0 ] && grep -q -- '$opt' '$WORK/err'"
	done
done

# ---- the man pages carry the release: its version and one date -----------
version=$("$FSCK" -V | awk '{ print $NF }')
dates=
for page in mkfs.f2fs fsck.f2fs dump.f2fs inject.f2fs; do
	th=$(sed -n 's/^\.TH [^ ]* 8 //p' "$top_srcdir/man/$page.8")
	check "man $page: .TH names f2fs-ng $version" \
		sh -c "echo '$th' | grep -q '\"f2fs-ng $version\"'"
	dates="$dates$(echo "$th" | awk -F'"' '{ print $2 }')
"
done
check "the four man pages carry one date" test "$(echo "$dates" | sort -u | grep -c .)" = 1
for page in mkfs.f2fs fsck.f2fs; do
	check "man $page has an EXAMPLES section" grep -q '^\.SH EXAMPLES' "$top_srcdir/man/$page.8"
done

# ---- fsck -l: f2fs-tools' lines first, then ours ---------------------------
new_image "$WORK/ours.img" 1G -O extra_attr,inode_checksum,sb_checksum,casefold -C utf8 \
	-l "Zé$(printf '\360\237\230\200')x"
truncate -s 1G "$WORK/tools.img"
"$MKFS_ORACLE" -f -q -l tools "$WORK/tools.img" >/dev/null 2>&1 || hard_error "f2fs-tools mkfs"
for img in ours tools; do
	"$FSCK_ORACLE" -l "$WORK/$img.img" 2>/dev/null </dev/null | tr -d '\r' >"$WORK/l.oracle"
	"$FSCK" -l "$WORK/$img.img" >"$WORK/l.ours" 2>&1
	n=$(wc -l <"$WORK/l.oracle")
	check "fsck -l on $img's mkfs: f2fs-tools' $n lines, byte for byte" \
		sh -c "[ $n -gt 60 ] && head -n $n '$WORK/l.ours' | cmp -s - '$WORK/l.oracle'"
	check "fsck -l on $img's mkfs: then the copy and pack in use" \
		sh -c "grep -q '^superblock copy in use: *1$' '$WORK/l.ours' &&
		       grep -q '^checkpoint pack in use: *[12]$' '$WORK/l.ours'"
done

# ---- dump: f2fs-tools' names and summary lines ----------------------------
for img in ours tools; do
	"$DUMP_ORACLE" -d 1 "$WORK/$img.img" 2>/dev/null </dev/null | tr -d '\r' |
		grep '^Info: ' | grep -v 'version\|Debug level' >"$WORK/info.oracle"
	"$DUMP" -d 1 "$WORK/$img.img" 2>/dev/null | grep '^Info: ' |
		grep -v 'version' >"$WORK/info.ours"
	check "dump -d 1 on $img's mkfs: f2fs-tools' Info: lines" \
		sh -c "[ -s '$WORK/info.oracle' ] && cmp -s '$WORK/info.oracle' '$WORK/info.ours'"
	label=$("$DUMP_ORACLE" -d 1 "$WORK/$img.img" 2>/dev/null </dev/null | tr -d '\r' |
		awk '$1 == "volum_name" { sub(/^[^[]*\[/, ""); sub(/\]$/, ""); print }')
	ours=$("$DUMP" -d 1 "$WORK/$img.img" 2>/dev/null |
		awk '$1 == "volum_name" { sub(/^[^[]*\[/, ""); sub(/\]$/, ""); print }')
	check "dump -d 1 on $img's mkfs: volum_name [$ours] as f2fs-tools prints it" \
		sh -c "[ -n '$ours' ] && [ '$ours' = '$label' ]"
done

# -i: the i_addr lines of an inline file, a block file and a directory
mkdir -p "$WORK/src/dir"
echo hello >"$WORK/src/small"
head -c 40000 /dev/urandom >"$WORK/src/blocks"
new_image "$WORK/pop.img" 256M -O extra_attr,flexible_inline_xattr
sload_dir "$WORK/pop.img" "$WORK/src"
for f in small blocks dir; do
	ino=$(ino_of "$WORK/pop.img" $f) || hard_error "no $f"
	"$DUMP_ORACLE" -i "$ino" "$WORK/pop.img" 2>/dev/null </dev/null | tr -d '\r' |
		grep '^i_addr\[' >"$WORK/iaddr.oracle"
	"$DUMP" -i "$ino" "$WORK/pop.img" 2>/dev/null | grep '^i_addr\[' >"$WORK/iaddr.ours"
	check "dump -i ($f): f2fs-tools' $(wc -l <"$WORK/iaddr.oracle") i_addr lines" \
		sh -c "[ -s '$WORK/iaddr.oracle' ] && cmp -s '$WORK/iaddr.oracle' '$WORK/iaddr.ours'"
	"$DUMP_ORACLE" -i "$ino" "$WORK/pop.img" 2>/dev/null </dev/null | tr -d '\r' |
		grep '^i_name\|^i_ext:' | tr -s ' \t' ' ' >"$WORK/name.oracle"
	"$DUMP" -i "$ino" "$WORK/pop.img" 2>/dev/null | grep '^i_name\|^i_ext:' |
		tr -s ' \t' ' ' >"$WORK/name.ours"
	check "dump -i ($f): f2fs-tools' i_namelen, i_name and i_ext: lines" \
		sh -c "[ \$(wc -l <'$WORK/name.oracle') = 3 ] && cmp -s '$WORK/name.oracle' '$WORK/name.ours'"
done

# ---- one numbering of superblock copies and checkpoint packs -------------
cp "$WORK/tools.img" "$WORK/sb.img"
"$INJECT" --sb 1 --mb magic --val 0 "$WORK/sb.img" >"$WORK/inj" 2>&1
"$FSCK" "$WORK/sb.img" >"$WORK/fsck.out" 2>&1
check "inject --sb 1, fsck names superblock copy 1" \
	grep -q "superblock copy 1 is invalid" "$WORK/fsck.out"
"$DUMP" "$WORK/sb.img" >"$WORK/dump.out" 2>"$WORK/dump.err"
check "inject --sb 1, dump names copy 1 and uses copy 2" \
	grep -q "superblock copy 1 is invalid.*using copy 2" "$WORK/dump.err"
check "inject --sb 1, dump's view: copy 2 in use" \
	grep -q "^superblock copy in use  *2$" "$WORK/dump.out"
"$DUMP" -b 0 "$WORK/sb.img" 2>/dev/null | grep -q "superblock copy 1"
check "dump -b 0: superblock copy 1" test $? = 0
"$FSCK" -l "$WORK/sb.img" 2>/dev/null | grep -q "^superblock copy in use: *2$"
check "fsck -l: superblock copy in use 2" test $? = 0
# the copy fsck names is the one inject repairs back
"$INJECT" --sb 1 --mb magic --val 0xf2f52010 "$WORK/sb.img" >/dev/null 2>&1
check "inject --sb 1 on the copy fsck named: clean again" \
	sh -c "'$FSCK' '$WORK/sb.img' >/dev/null 2>&1"

cp "$WORK/tools.img" "$WORK/cp.img"
"$INJECT" --cp 1 --mb checksum_offset --val 1 "$WORK/cp.img" >"$WORK/inj" 2>&1
"$FSCK" "$WORK/cp.img" >"$WORK/fsck.out" 2>&1
"$DUMP" "$WORK/cp.img" >"$WORK/dump.out" 2>"$WORK/dump.err"
check "inject --cp 1: fsck and dump name checkpoint pack 1" \
	sh -c "grep -q 'checkpoint pack 1' '$WORK/fsck.out' &&
	       grep -q 'checkpoint pack 1 is invalid' '$WORK/dump.err'"

# ---- mkfs -c: absolute paths ---------------------------------------------
mkdir -p "$WORK/md"
truncate -s 300M "$WORK/md/d0.img" "$WORK/md/d1.img"
(cd "$WORK/md" && "$MKFS" -f -c ./d1.img d0.img) >"$WORK/mkfs.out" 2>&1
check "mkfs -c with relative paths succeeds" test $? = 0
check "mkfs -c says the paths are stored absolute" \
	grep -q "given as d0.img; the superblock stores absolute paths" "$WORK/mkfs.out"
"$DUMP" "$WORK/md/d0.img" 2>/dev/null | awk '$1 ~ /^devs\[[01]\]\.path$/ { print $2 }' >"$WORK/paths"
printf '%s\n%s\n' "$WORK/md/d0.img" "$WORK/md/d1.img" >"$WORK/paths.want"
check "mkfs -c: the superblock holds the absolute paths" cmp -s "$WORK/paths" "$WORK/paths.want"
(cd / && "$FSCK" "$WORK/md/d0.img") >"$WORK/fsck.out" 2>&1
check "fsck from another directory opens every device: clean" test $? = 0
(cd / && "$FSCK_ORACLE" --dry-run "$WORK/md/d0.img") >"$WORK/fsck.out" 2>&1 </dev/null
check "f2fs-tools' fsck from another directory: clean" test $? = 0
long=$WORK/md/$(printf '%050d' 0)
(cd "$WORK/md" && "$MKFS" -f -c "$(basename "$long")" d0.img) >"$WORK/mkfs.out" 2>&1
check "mkfs -c: a path too long once absolute is refused, named" \
	sh -c "[ $? != 0 ] && grep -q 'superblock stores absolute paths' '$WORK/mkfs.out'"

finish
