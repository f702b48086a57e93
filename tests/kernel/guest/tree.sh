# Guest scenario: build, prune and read back the ktool tree on each image.
# Arguments: NAME:FLAGS:MOUNTOPTS ...  FLAGS is a comma-separated list:
#   compr  the tree gets compressed files, and the kernel must have written
#          compressed blocks
#   quota  the kernel's quota accounting must see the tree
# MOUNTOPTS may be empty.
. /lib/ktest.sh

seed=1
for spec in "$@"; do
	name=${spec%%:*}
	rest=${spec#*:}
	flags=${rest%%:*}
	opts=${rest#*:}
	if [ "$rest" = "$spec" ]; then
		flags=''
		opts=''
	fi
	tree=
	case ",$flags," in *,compr,*) tree=compr ;; esac
	bad=$KT_RC
	KT_RC=0
	if kt_mount "$name" "$opts"; then
		kt_run "$name: build the tree" ktool tree make "/mnt/$name" $seed $tree
		sync
		case ",$flags," in
		*,compr,*)
			kt_expect_compressed "$name"
			;;
		esac
		case ",$flags," in
		*,quota,*)
			kt_run "$name: quota accounting" ktool quota "/dev/img/$name" 10000 600 &&
				cat /tmp/kt_step.log
			;;
		esac
		echo 3 > /proc/sys/vm/drop_caches
		kt_run "$name: read back the full tree" ktool tree verify-full "/mnt/$name" $seed $tree
		kt_run "$name: delete part of the tree" ktool tree prune "/mnt/$name" $seed $tree
		kt_umount "$name"
		# Second mount: everything is read from the disk again.
		if kt_mount "$name" "$opts"; then
			kt_run "$name: read back after remount" ktool tree verify "/mnt/$name" $seed $tree
			kt_umount "$name"
		fi
	fi
	if [ $KT_RC -eq 0 ]; then
		echo "ok $name: mounted${opts:+ -o $opts}, built, synced, pruned, unmounted, remounted, verified"
	fi
	[ $bad -ne 0 ] && KT_RC=1
done
exit $KT_RC
