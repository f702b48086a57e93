# Guest scenario: on each image named after the file size (default "fill"),
# write files until ENOSPC, delete every other one, fill again (the kernel
# must garbage-collect half-valid sections to find room), then read
# everything back, before and after a remount.
# Usage: fill-gc.sh KIB [DISK[:KIB]...] (file size per disk, default KIB)
. /lib/ktest.sh

default_kib=${1:-4096}
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null

# gc_stat WORD: the number after "GC calls:" or "Try to move" in the
# kernel's f2fs status (debugfs).
gc_stat() {
	sed -n "s/^$1 \([0-9]*\).*/\1/p" /sys/kernel/debug/f2fs/status 2>/dev/null | head -n 1
}

shift
for spec in ${@:-fill}; do
	disk=${spec%%:*}
	kib=$(echo "$spec" | sed -n 's/^[^:]*:\([0-9]*\)$/\1/p')
	kib=${kib:-$default_kib}
	m=/mnt/$disk
	echo "== $disk"
	kt_mount $disk || exit 1
	mkdir $m/d
	t0=$(date +%s)
	kt_run "first fill" ktool fill $m/d "$kib" && sed 's/^/first /' /tmp/kt_step.log
	t1=$(date +%s)
	df -k $m | tail -n 1 | awk '{ print "full: " $3 " KiB used, " $4 " KiB free" }'
	kt_run "delete every other file" ktool thin $m/d && cat /tmp/kt_step.log
	sync
	kt_run "second fill" ktool fill $m/d "$kib" && sed 's/^/second /' /tmp/kt_step.log
	t2=$(date +%s)
	calls=$(gc_stat 'GC calls:')
	moved=$(gc_stat 'Try to move')
	echo "fill took $((t1 - t0))s, refill $((t2 - t1))s; GC: ${calls:-?} calls, ${moved:-?} blocks moved"
	# The large-section volume must have needed GC; the small ones may
	# refill through SSR (reuse of invalid blocks) instead.
	if [ "$disk" = fill ] && [ "${moved:-0}" -eq 0 ]; then
		kt_fail "the refill did not make the kernel move blocks"
	fi
	[ "$(grep -c . /tmp/kt_step.log)" -gt 0 ] || kt_fail "$disk: the refill wrote nothing"
	kt_run "read back" ktool fill-verify $m/d "$kib" && cat /tmp/kt_step.log
	cp /sys/kernel/debug/f2fs/status "$KTEST_OUT/f2fs-status.$disk" 2>/dev/null
	kt_umount $disk
	kt_mount $disk || exit 1
	kt_run "read back after remount" ktool fill-verify $m/d "$kib" && cat /tmp/kt_step.log
	kt_umount $disk
done
exit $KT_RC
