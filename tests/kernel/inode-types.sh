#!/bin/sh
# Kernel interop: every inode type the kernel stores, on images of our mkfs.
# The guest (guest/inode-types.sh, ktool inodes) creates regular files
# (empty, inline, one block, direct, indirect, a sparse one with blocks past
# 5 and 9 GiB: indirect and double indirect nodes, preallocated, pinned,
# with inode flags, a large uid and times before 1970 and after 2038),
# inline and multi-level directories, fast and slow symlinks, a file with
# three names, a FIFO, a socket, character and block devices with old and
# new number encodings, xattrs (inline, one set that fills the inline area
# exactly, one in an xattr node; user, POSIX ACL access and default,
# trusted, security; on directories, special files and symlinks), and on
# the image with every feature ("full"): extra inode fields, compressed
# files (one released, one zstd), casefolded directories, project ids, quota
# inodes, an fs-verity file, an encrypted directory and an encrypted
# casefolded one.  "plain" has the default inode layout (no extra
# attributes, fixed inline xattr area); "noinline" has extra attributes
# without a flexible inline xattr area and is mounted with nothing inline
# (xattrs, data and dentries).
#
#   1. make:    create, sync, unmount, remount, read back
#   2. cut:     checkpointed nodes and an orphan, then fsync'd files and
#               xattrs, then the power is cut
#   3. recover: roll-forward recovery; everything read back; unmount
# After each boot, on the host: f2fs-tools' fsck must be clean, ours (-n)
# must exit 0, and ours with -y on a copy must exit 0 and write nothing.
# The images are kept for the fsck and dump tests (kernel-inodes-*).
. "$(dirname "$0")/kcommon.sh"

REF_DUMP=$(command -v dump.f2fs || echo /usr/sbin/dump.f2fs)

kt_begin inode-types "every inode type the kernel stores: make, power cut, roll forward, fsck"

# image NAME SIZE GUEST_FEATURES MOUNT_OPTIONS [MKFS OPTIONS...]
names='' specs='' disks=''
image() {
	name=$1 size=$2 feats=$3 opts=$4
	shift 4
	if kt_mkfs "$KWORK/$name.img" "$size" -l "k-inodes-$name" "$@"; then
		names="$names $name"
		specs="$specs $name:$feats:$opts"
		disks="$disks $name=$KWORK/$name.img"
		echo "$*" > "$KWORK/$name.opts"
		echo "$opts" > "$KWORK/$name.mntopts"
		kt_say "$name: mkfs ${*:-(defaults)} on $size"
	fi
}
image full 1G compr,casefold,proj,verity,encrypt,quota compress_chksum \
	-O extra_attr,inode_checksum,inode_crtime,flexible_inline_xattr,project_quota,quota,compression,casefold,verity,encrypt,sb_checksum,lost_found \
	-C utf8
image plain 1G - ""
image noinline 1G - noinline_xattr,noinline_data,noinline_dentry \
	-O extra_attr,inode_checksum,inode_crtime
[ -n "$names" ] || kt_abort "no image could be made"

# check IMG LABEL: both fscks must find IMG clean (kt_fsck); our fsck's
# problem lines are listed; and our fsck -y on a copy must exit 0 and leave
# the copy as it was.
check() {
	kt_fsck "$1" "$2"
	ref=$KT_REF_CLEAN
	if [ -s "$KWORK/$2.ourfsck.log" ] && grep -q '^F2FS-[0-9]' "$KWORK/$2.ourfsck.log"; then
		kt_say "$2: our fsck's problem lines (count, first of each kind):"
		awk '/^F2FS-[0-9]/ {
				key = $0; sub(/ \[[^]]*\]$/, "", key); gsub(/[0-9]+/, "N", key)
				key = $1 substr(key, index(key, " "))
				if (!(key in n)) { first[key] = $0; order[++k] = key }
				n[key]++
			}
			END { for (i = 1; i <= k && i <= 12; i++) printf "    %3d x %s\n", n[order[i]], first[order[i]] }' \
			"$KWORK/$2.ourfsck.log"
	fi
	[ "$ref" = 1 ] && [ -x "$OUR_FSCK" ] || return 0
	copy=$KWORK/repair.img
	cp --sparse=always "$1" "$copy" || { kt_bad "cannot copy $1"; return 1; }
	before=$(img_sum "$copy")
	rc=0
	"$OUR_FSCK" -y "$copy" < /dev/null > "$KWORK/$2.repair.log" 2>&1 || rc=$?
	after=$(img_sum "$copy")
	rm -f "$copy"
	if [ $rc -ne 0 ] || [ "$before" != "$after" ]; then
		changed=unchanged
		[ "$before" = "$after" ] || changed=CHANGED
		kt_bad "$2: our fsck.f2fs -y: exit $rc, image $changed (must be 0, unchanged)"
		grep '^F2FS-[0-9]' "$KWORK/$2.repair.log" | head -n 5 | sed 's/^/    /'
	else
		kt_say "$2: our fsck.f2fs -y: exit 0, nothing written"
	fi
}

# check_layout NAME MOUNTOPTS: where the kernel put things, as f2fs-tools'
# dump.f2fs -i shows the inodes: xattr/fill's 200 bytes of xattrs fill the
# inline area exactly, with no xattr node (with noinline_xattr: in a node);
# xattr/big has an xattr node; reg/indirect an indirect node; reg/sparse
# the double indirect one; special/chr-old (1:3) the old device number
# encoding in the first address slot, special/blk-new (259:1048575) the new
# one in the second.  Proof that the cases the test is about are there.
check_layout() {
	inos=$KWORK/make/out/$1.inos
	[ -s "$inos" ] || { kt_bad "$1: the guest left no inode numbers"; return; }
	mkdir -p "$KWORK/dump"
	bad=0
	# lay PATH: dump PATH's inode; fld FIELD: a field's decimal value
	lay() {
		lay_path=$1
		lay_ino=$(awk -v p="$1" '$2 == p { print $1 }' "$inos")
		(cd "$KWORK/dump" && "$REF_DUMP" -i "$lay_ino" "$KWORK/$2.img" < /dev/null \
			> "$KWORK/dump/inode.txt" 2>&1)
	}
	fld() {
		awk -v f="$1" 'index($0, f) == 1 && substr($0, length(f) + 1, 1) ~ /[ \t]/ {
			sub(/.*: */, ""); sub(/\].*/, ""); print; exit }' "$KWORK/dump/inode.txt"
	}
	want() {
		got=$(fld "$1")
		case $2 in -*) got=${got:-0} ;; esac
		if [ "$got" "$2" "$3" ]; then
			return
		fi
		kt_bad "$name: $lay_path (inode $lay_ino): $1 is '$(fld "$1")', want $2 $3"
		bad=1
	}
	name=$1
	lay xattr/fill "$1"
	case ",$2," in
	*,noinline_xattr,*) want i_xattr_nid -ne 0 ;;
	*) want i_xattr_nid = 0 ;;
	esac
	lay xattr/big "$1"
	want i_xattr_nid -ne 0
	lay reg/indirect "$1"
	want 'i_nid[2]' -ne 0
	lay reg/sparse "$1"
	want 'i_nid[4]' -ne 0
	lay special/chr-old "$1"
	extra=$(fld i_extra_isize)
	extra=$((${extra:-0} / 4))
	want "$(printf 'i_addr[0x%x]' "$extra")" = 259
	lay special/blk-new "$1"
	want "$(printf 'i_addr[0x%x]' "$extra")" = ''
	want "$(printf 'i_addr[0x%x]' $((extra + 1)))" = 4293985279
	case ",$2," in
	*,noinline_xattr,*) fill="xattr/fill in an xattr node" ;;
	*) fill="xattr/fill's 200 bytes inline with no xattr node" ;;
	esac
	[ $bad -eq 0 ] && kt_say "$1: layout as intended: $fill, indirect and double indirect" \
		"nodes, old and new device numbers at i_addr[$extra] and [$((extra + 1))]"
	rm -rf "$KWORK/dump"
}

# shellcheck disable=SC2086
kt_guest make -t 300 -a "make$specs" "$KSRC/guest/inode-types.sh" $disks ||
	kt_bad "make run failed (verdict $KT_GUEST_RC)"
made=$KT_GUEST_RC
for name in $names; do
	[ "$made" -eq 0 ] && check_layout "$name" "$(cat "$KWORK/$name.mntopts")"
	check "$KWORK/$name.img" "$name-made"
done

cut_ok=0
if [ "$made" -eq 0 ]; then
	# shellcheck disable=SC2086
	if kt_guest cut -r -t 300 -a "cut$specs" "$KSRC/guest/inode-types.sh" $disks; then
		cut_ok=1
		for name in $names; do
			cp --sparse=always "$KWORK/$name.img" "$KWORK/$name-unclean.img"
			check "$KWORK/$name-unclean.img" "$name-unclean"
			[ "$KT_REF_CLEAN" = 1 ] && touch "$KWORK/$name-unclean.ok"
		done
	else
		kt_bad "write-and-cut run failed (verdict $KT_GUEST_RC)"
	fi
fi

if [ $cut_ok -eq 1 ]; then
	# shellcheck disable=SC2086
	if kt_guest recover -t 300 -a "recover$specs" "$KSRC/guest/inode-types.sh" $disks; then
		n=$(grep -c 'F2FS-fs.*recover_inode' "$KWORK/recover/console.log.txt")
		if [ "$n" -gt 0 ]; then
			kt_say "the kernel rolled $n inode(s) forward"
		else
			kt_bad "no roll-forward recovery (were the fsync'd files checkpointed?)"
		fi
		for name in $names; do
			check "$KWORK/$name.img" "$name-recovered"
			opts=$(cat "$KWORK/$name.opts")
			mopts=$(cat "$KWORK/$name.mntopts")
			opts="${opts:-(defaults)}${mopts:+, mounted -o $mopts}"
			[ "$KT_REF_CLEAN" = 1 ] &&
				kt_keep "$KWORK/$name.img" "kernel-inodes-$name" clean \
					"mkfs $opts; every inode type, a power cut, roll-forward, clean unmount"
			[ -f "$KWORK/$name-unclean.ok" ] && [ "$n" -gt 0 ] &&
				kt_keep "$KWORK/$name-unclean.img" "kernel-inodes-$name-unclean" unclean-consistent \
					"mkfs $opts; every inode type; power cut after an orphan and fsync'd files and xattrs"
		done
	else
		kt_bad "recovery run failed (verdict $KT_GUEST_RC)"
	fi
fi
rm -f "$KWORK"/*.img "$KWORK"/*.ok
kt_end
