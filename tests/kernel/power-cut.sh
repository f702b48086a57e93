#!/bin/sh
# Kernel interop, scenario 3: power cut.  The guest writes a checkpointed
# tree, fsyncs some files, leaves others unsynced and is reset (sysrq b).
# The unclean image is kept; a second boot mounts it (roll-forward recovery),
# checks the fsync'd files, writes, unmounts cleanly; then fsck.
. "$(dirname "$0")/kcommon.sh"

kt_begin power-cut "fsync, power cut, roll-forward recovery, fsck"
img=$KWORK/pc.img
kt_mkfs "$img" 1G -l k-powercut || kt_end

if kt_guest cut -r "$KSRC/guest/power-cut-write.sh" pc="$img"; then
	# The state the kernel must recover from, for the fsck and dump tests.
	cp --sparse=always "$img" "$KWORK/unclean.img"
	# Its last checkpoint must be consistent (check a throwaway copy).
	cp --sparse=always "$img" "$KWORK/unclean-check.img"
	kt_fsck "$KWORK/unclean-check.img" unclean
	[ "$KT_REF_CLEAN" = 1 ] && unclean_ok=1
	rm -f "$KWORK/unclean-check.img"
	if kt_guest recover "$KSRC/guest/power-cut-recover.sh" pc="$img"; then
		# Proof that the fsync'd files came from the roll-forward chain.
		n=$(grep -c 'F2FS-fs.*recover_inode' "$KWORK/recover/console.log.txt")
		if [ "$n" -gt 0 ]; then
			kt_say "the kernel rolled $n inode(s) forward"
			[ -n "${unclean_ok:-}" ] &&
				kt_keep "$KWORK/unclean.img" kernel-powercut-unclean unclean-consistent \
					"power cut after fsync: last checkpoint consistent, fsync'd files only in the roll-forward chain"
		else
			kt_bad "no roll-forward recovery on the second mount (was the chain checkpointed?)"
		fi
		kt_fsck "$img" recovered
		[ "$KT_REF_CLEAN" = 1 ] &&
			kt_keep "$img" kernel-powercut-recovered clean \
				"the power-cut image after roll-forward recovery and a clean unmount"
	else
		kt_bad "recovery run failed (verdict $KT_GUEST_RC)"
	fi
else
	kt_bad "write-and-cut run failed (verdict $KT_GUEST_RC)"
fi
rm -f "$img" "$KWORK/unclean.img"
kt_end
