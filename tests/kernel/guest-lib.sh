# Shell functions for the guest scenarios (busybox sh); installed in the
# initramfs as /lib/ktest.sh and sourced by each scenario.
#
# Conventions: a scenario prints one short line per step; a failed step prints
# "FAIL: ..." and makes the scenario exit non-zero (kt_fail sets KT_RC, the
# scenario ends with "exit $KT_RC").  Images are /dev/img/<name>.

KT_RC=0

kt_fail() {
	echo "FAIL: $*"
	KT_RC=1
}

# kt_run "what" cmd args...: run a step, report it only when it fails.
kt_run() {
	kt_what=$1
	shift
	if ! "$@" > /tmp/kt_step.log 2>&1; then
		kt_fail "$kt_what"
		head -n 20 /tmp/kt_step.log
		return 1
	fi
	return 0
}

# The kernel's name (vdc, ...) of image NAME.
kt_dev() {
	basename "$(readlink "/dev/img/$1")"
}

# The kernel's compression counters of volume $1: it must have written
# compressed blocks and saved some.
kt_expect_compressed() {
	kt_sysfs=/sys/fs/f2fs/$(kt_dev "$1")
	kt_written=$(cat "$kt_sysfs/compr_written_block" 2>/dev/null || echo 0)
	kt_saved=$(cat "$kt_sysfs/compr_saved_block" 2>/dev/null || echo 0)
	echo "$1: $kt_written compressed blocks written, $kt_saved saved"
	[ "$kt_written" -gt 0 ] && [ "$kt_saved" -gt 0 ] ||
		kt_fail "$1: the kernel wrote no compressed blocks"
}

# SBI_NEED_FSCK is bit 2 of the in-memory s_flag the kernel exposes.
kt_need_fsck() {
	kt_status=/sys/fs/f2fs/$(kt_dev "$1")/stat/sb_status
	[ -r "$kt_status" ] || return 1
	[ $((0x$(cat "$kt_status") & 4)) -ne 0 ]
}

# kt_mount NAME [OPTIONS]: mount image NAME on /mnt/NAME.
kt_mount() {
	mkdir -p "/mnt/$1"
	if [ -n "$2" ]; then
		kt_run "mount $1 -o $2" mount -t f2fs -o "$2" "/dev/img/$1" "/mnt/$1"
	else
		kt_run "mount $1" mount -t f2fs "/dev/img/$1" "/mnt/$1"
	fi
}

# kt_umount NAME: check the kernel's verdict on NAME, then unmount it.
kt_umount() {
	if kt_need_fsck "$1"; then
		kt_fail "$1: the kernel flagged the file system as needing fsck"
	fi
	kt_run "umount $1" umount "/mnt/$1"
}

# Save /out on the output disk now (for scenarios that never return).
kt_save_out() {
	dmesg -r > "$KTEST_OUT/dmesg" 2>/dev/null
	tar cf - -C "$KTEST_OUT" . | dd of=/dev/vdb bs=64k conv=fsync 2>/dev/null
}

# Cut the power: no sync, no unmount.  The runner must have been told to
# expect it (run-guest.sh --expect-reset).
kt_power_cut() {
	echo "power-cut" > "$KTEST_OUT/rc"
	kt_save_out
	echo "KTEST-POWER-CUT"
	echo b > /proc/sysrq-trigger
	sleep 30
}

# The files the power-cut scenario writes and fsyncs after its last
# checkpoint (path below the mount point:size): power-cut-write.sh writes
# them, and every mount after the cut must have rolled them forward.
KT_FSYNCED="+pc/fsynced-big:1048583 +pc/fsynced-small:3000 +pc/grow:700000 data/+fsynced:123457"

# kt_fsynced put|check MOUNTPOINT: write (and fsync) or check those files.
kt_fsynced() {
	for kt_spec in $KT_FSYNCED; do
		if [ "$1" = put ]; then
			kt_run "fsync'd ${kt_spec%%:*}" ktool put "$2/${kt_spec%%:*}" "${kt_spec#*:}" -f
		else
			kt_run "fsync'd ${kt_spec%%:*}" ktool check "$2/${kt_spec%%:*}" "${kt_spec#*:}"
		fi
	done
}
