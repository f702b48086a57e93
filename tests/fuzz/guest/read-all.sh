# Guest scenario of the fuzz campaign's kernel sample (tests/fuzz/fz_kernel.py).
# For every attached image: mount it, list every file with its type and the
# MD5 of its content (of its target for a symlink, its device number for a
# device node) into /out/NAME.sums, write, read back and delete a new file,
# note in /out/NAME.state whether that worked, whether the kernel flagged
# the volume as needing fsck and whether it unmounted.  /out is saved to
# the output disk after each image, so a run cut by its time limit keeps
# what it did.
# A mount that fails is written as MOUNT-FAILED; a file that cannot be read
# as READ-ERROR.  The host compares the lists; this script only records.
. /lib/ktest.sh

# One line per file: type, digest, path.  md5sum and stat run over many
# files at once: a process per file is slow under TCG.
list_tree() {
	find . -xdev -type f -exec md5sum {} + 2> /tmp/md5.err | sed 's/^\([0-9a-f]*\)  /f \1 /'
	sed -n 's/^md5sum: \(.*\): .*/f READ-ERROR \1/p' /tmp/md5.err
	find . -xdev -type d | sed 's/^/d - /'
	find . -xdev -type l | while IFS= read -r p; do
		echo "l $(readlink "$p" | md5sum | cut -c1-32) $p"
	done
	find . -xdev \( -type c -o -type b \) -exec stat -c '%F %t:%T %n' {} + |
		sed -e 's/^character special file /c /' -e 's/^block special file /b /'
	find . -xdev -type p | sed 's/^/p - /'
	find . -xdev -type s | sed 's/^/s - /'
}

for d in /dev/img/*; do
	n=${d##*/}
	m=/mnt/$n
	mkdir -p "$m"
	if ! mount -t f2fs "$d" "$m" 2> /tmp/mount.err; then
		echo "MOUNT-FAILED $(head -n 1 /tmp/mount.err)" > "$KTEST_OUT/$n.sums"
		echo "$n: mount failed"
		kt_save_out
		continue
	fi
	(cd "$m" && list_tree) > "$KTEST_OUT/$n.sums" 2> "$KTEST_OUT/$n.err"
	if ktool put "$m/+fuzz-new" 300000 -f > /dev/null 2>&1 &&
		ktool check "$m/+fuzz-new" 300000 > /dev/null 2>&1 &&
		rm -f "$m/+fuzz-new"; then
		echo "WRITE-OK" >> "$KTEST_OUT/$n.state"
	else
		echo "WRITE-FAILED" >> "$KTEST_OUT/$n.state"
	fi
	if kt_need_fsck "$n"; then
		echo "NEED-FSCK" >> "$KTEST_OUT/$n.state"
	fi
	if umount "$m"; then
		echo "UMOUNT-OK" >> "$KTEST_OUT/$n.state"
	else
		echo "UMOUNT-FAILED" >> "$KTEST_OUT/$n.state"
	fi
	echo "$n: $(wc -l < "$KTEST_OUT/$n.sums") entries listed"
	kt_save_out     # what is done survives a timeout of the run
done
exit 0
