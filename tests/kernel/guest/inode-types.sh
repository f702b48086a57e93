# Guest scenario of inode-types.sh: every inode type the kernel stores.
# Arguments: PHASE NAME:FEATURES:MOUNTOPTS ...  FEATURES is what the image
# supports, for "ktool inodes" (compr, casefold, proj, verity, encrypt,
# comma-separated; "-" for none) plus quota (the kernel's quota accounting
# must be live); MOUNTOPTS may be empty.
#   make     create one inode of every type (ktool inodes make), sync, check
#            that the kernel compressed and counted quota, unmount, mount
#            again and read everything back
#   cut      mount, write files, checkpoint; device nodes and a FIFO in a
#            directory that is then fsync'd (that checkpoints); an orphan
#            (open, unlinked) in a checkpoint; then, after the last
#            checkpoint, files that only fsync keeps (new, appended, new with
#            xattrs inline and in an xattr node, an xattr added to an old
#            file) and one that nothing keeps; cut the power
#   recover  mount (roll-forward recovery), check what the cut phase made
#            durable, the orphan gone and every inode of the make phase,
#            unmount
# The files of the cut phase live in pc/, which "ktool inodes" ignores.
. /lib/ktest.sh

phase=$1
shift

# Files fsync'd after the last checkpoint (path:size), and xattrs
# (path:name:size) set on them before their fsync.
PC_FILES="pc/new-big:3000000 pc/new-small:1000 pc/grow:700000 pc/new-x:3000 pc/old-x:5000"
PC_XATTRS="pc/new-x:user.a:30 pc/new-x:user.big:2000 pc/new-x:trusted.t:40 pc/old-x:user.late:100"
# Nodes made durable by the fsync of their directory: path:type[:major:minor]
PC_NODES="pc/dev/chr:c:300:70001 pc/dev/blk:b:8:16 pc/dev/fifo:p"
# New fsync'd files in the casefolded and the encrypted directory of the
# make phase: the recovery hashes their names as those directories do.
PC_CF="cf/pc-Fsynced:4000"
PC_ENC="enc/pc-fsynced:6000"

# parse NAME:FEATURES:MOUNTOPTS: set name, feats, opts, m and ifeats (the
# features for "ktool inodes"), and PC_MORE (the extra fsync'd files).
parse() {
	name=${1%%:*}
	rest=${1#*:}
	feats=${rest%%:*}
	opts=${rest#*:}
	m=/mnt/$name
	ifeats=$(echo ",$feats," | sed 's/,quota,/,/g; s/^,//; s/,$//')
	[ -n "$ifeats" ] || ifeats=-
	PC_MORE=
	case ",$feats," in *,casefold,*) PC_MORE="$PC_MORE $PC_CF" ;; esac
	case ",$feats," in *,encrypt,*) PC_MORE="$PC_MORE $PC_ENC" ;; esac
}

# The cut phase in three steps, each over all images: one image's
# checkpoint must not come after another's fsync'd writes (sync is global).
cut_setup() {
	m=$1
	mkdir "$m/pc" "$m/pc/dev" || kt_fail "$m: mkdir pc"
	kt_run "pc/grow, first part" ktool put "$m/pc/grow" 100000
	kt_run "pc/old-x" ktool put "$m/pc/old-x" 5000
}

cut_checkpointed() {
	m=$1
	mknod "$m/pc/dev/chr" c 300 70001 && mknod "$m/pc/dev/blk" b 8 16 &&
		mkfifo "$m/pc/dev/fifo" || kt_fail "$m: nodes in pc/dev"
	# The fsync of a directory is a checkpoint (of this file system only).
	kt_run "fsync pc/dev" ktool fsync "$m/pc/dev"
	# Open, unlinked, then syncfs: an orphan in the checkpoint.
	kt_run "orphan" ktool hold "$m/pc/orphan" 300000
}

cut_fsynced() {
	m=$1
	for spec in $PC_FILES $PC_MORE; do
		path=${spec%%:*} size=${spec#*:}
		case $path in
		pc/new-x) kt_run "$path" ktool put "$m/$path" "$size" ;;
		pc/old-x) ;;
		*) kt_run "$path (fsync)" ktool put "$m/$path" "$size" -f ;;
		esac
	done
	for spec in $PC_XATTRS; do
		path=${spec%%:*} rest=${spec#*:}
		kt_run "$path xattr ${rest%%:*}" ktool xattr "$m/$path" "${rest%%:*}" "${rest#*:}"
	done
	kt_run "fsync pc/new-x" ktool fsync "$m/pc/new-x"
	kt_run "fsync pc/old-x" ktool fsync "$m/pc/old-x"
	kt_run "pc/lost (not synced)" ktool put "$m/pc/lost" 50000
}

recover_check() {
	m=$1
	for spec in $PC_FILES $PC_MORE; do
		kt_run "${spec%%:*} after recovery" ktool check "$m/${spec%%:*}" "${spec#*:}"
	done
	case " $PC_MORE " in
	*" $PC_CF "*)
		# found by another spelling: the recovered name is hashed as folded
		[ "$(stat -c %i "$m/cf/PC-FSYNCED")" = "$(stat -c %i "$m/cf/pc-Fsynced")" ] ||
			kt_fail "$m: the recovered cf/pc-Fsynced is not found as cf/PC-FSYNCED" ;;
	esac
	for spec in $PC_XATTRS; do
		path=${spec%%:*} rest=${spec#*:}
		kt_run "$path xattr ${rest%%:*} after recovery" \
			ktool xattr-check "$m/$path" "${rest%%:*}" "${rest#*:}"
	done
	for spec in $PC_NODES; do
		path=${spec%%:*} rest=${spec#*:}
		# shellcheck disable=SC2046
		kt_run "$path after recovery" ktool node "$m/$path" $(echo "$rest" | tr : ' ')
	done
	[ -e "$m/pc/orphan" ] && kt_fail "$m: the orphan has a name again"
	[ -e "$m/pc/lost" ] && echo "$m: pc/lost, never synced, survived (allowed)"
}

for s in "$@"; do
	parse "$s"
	kt_mount "$name" "$opts" || continue
	case $phase in
	make)
		kt_run "$name: make every inode type" ktool inodes make "$m" "$ifeats" &&
			cat /tmp/kt_step.log
		sync
		case ",$feats," in
		*,compr,*)
			kt_expect_compressed "$name"
			;;
		esac
		case ",$feats," in
		*,quota,*)
			kt_run "$name: user quota" ktool quota "/dev/img/$name" 13000 1500 &&
				cat /tmp/kt_step.log
			case ",$feats," in
			*,proj,*)
				kt_run "$name: project quota" ktool quota "/dev/img/$name" 0 1 prj 42 &&
					cat /tmp/kt_step.log
				;;
			esac
			;;
		esac
		# Inode numbers for the host's checks of the on-disk layout.
		(cd "$m" && stat -c '%i %n' xattr/fill xattr/inline xattr/big reg/indirect reg/sparse \
			special/chr-old special/blk-new) > "$KTEST_OUT/$name.inos"
		kt_umount "$name"
		kt_mount "$name" "$opts" || continue
		kt_run "$name: read back after remount" ktool inodes verify "$m" "$ifeats" &&
			cat /tmp/kt_step.log
		kt_umount "$name"
		;;
	cut)
		# the encryption key, for the files written in enc/ later
		kt_run "$name: add the key" ktool inodes key "$m" "$ifeats"
		cut_setup "$m"
		;;
	recover)
		kt_run "$name: every inode after recovery" ktool inodes verify "$m" "$ifeats" &&
			cat /tmp/kt_step.log
		recover_check "$m"
		kt_umount "$name"
		;;
	*)
		kt_fail "unknown phase $phase"
		;;
	esac
done
if [ "$phase" = cut ]; then
	[ $KT_RC -eq 0 ] || exit 1
	sync
	for s in "$@"; do
		parse "$s"
		cut_checkpointed "$m"
	done
	for s in "$@"; do
		parse "$s"
		cut_fsynced "$m"
	done
	[ $KT_RC -eq 0 ] || exit 1
	echo "checkpointed nodes and an orphan, fsync'd files and xattrs after it; cutting the power"
	kt_power_cut
fi
[ $KT_RC -eq 0 ] && echo "$phase: done"
exit $KT_RC
