# Guest scenario (tests/fsck/kernel-repair.sh): every attached image was
# repaired by our fsck.f2fs.  "pc" is a power-cut image whose roll-forward
# chain the repair re-homed: the mount must replay the fsync'd files.  Every
# other image: mount, list and read every file (printing a manifest of the
# regular files' paths and contents for the host to compare), write and
# delete more, unmount, with no F2FS error (the harness judges the kernel
# log).  Images named g*: garbage-collected by the kernel after the read.
. /lib/ktest.sh

if [ -e /dev/img/pc ]; then
	m=/mnt/pc
	kt_mount pc || exit 1
	kt_run "tree after recovery" ktool tree verify-full $m 3
	kt_fsynced check $m
	kt_run "write after recovery" ktool put $m/+pc/after 400000 -f
	kt_umount pc
	echo "pc: fsync'd files replayed after the repair"
fi
# gc_sections NAME: foreground garbage collection of the mounted image
# until the kernel finds no victim: it stops checkpointing on a section
# whose segments are of two classes (do_garbage_collect), which the harness
# and kt_umount's need-fsck check catch.  Prints the collections made.
gc_sections() {
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	kt_run "$1: garbage collection" ktool gc "/mnt/$1" && cat /tmp/kt_step.log
	echo "$1: garbage collection: $(sed -n 's/^GC calls: \([0-9]*\).*/\1/p' \
		/sys/kernel/debug/f2fs/status 2>/dev/null | head -n 1) calls"
}

for d in /dev/img/*; do
	n=${d##*/}
	[ "$n" = pc ] && continue
	kt_mount "$n" || continue
	# every file read, and what the kernel read, for the host to compare
	# with our dump.f2fs: "MD5  ./PATH" lines in byte order of the paths,
	# from one md5sum (a process per file costs seconds per image under
	# TCG); a file that cannot be read fails xargs, hence the step
	kt_run "$n: read every file" sh -c "cd /mnt/$n && find . -type f -print0 | sort -z | xargs -0 -r md5sum > /tmp/manifest"
	echo "$n: manifest $(md5sum < /tmp/manifest | cut -c1-32) $(wc -l < /tmp/manifest)"
	kt_run "$n: list" sh -c "ls -laR /mnt/$n > /dev/null"
	case "$n" in g*) gc_sections "$n" ;; esac
	if ls /mnt/$n/lost+found 2>/dev/null | grep -q '^#'; then
		kt_run "$n: read lost+found" sh -c "ls -la /mnt/$n/lost+found/ > /dev/null &&
			find /mnt/$n/lost+found -type f -exec cat {} + > /dev/null"
		echo "$n: lost+found: $(ls /mnt/$n/lost+found | grep -c '^#') reconnected"
	fi
	kt_run "$n: write" ktool put /mnt/$n/+new 300000 -f
	kt_run "$n: read back" ktool check /mnt/$n/+new 300000
	kt_run "$n: delete" rm -f /mnt/$n/+new
	kt_umount "$n"
	echo "$n: mounted, read, written, deleted, unmounted"
done
exit $KT_RC
