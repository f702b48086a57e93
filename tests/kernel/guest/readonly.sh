# Guest scenario: read-only images (the RO feature), every image attached.
# A read-write mount must come out read-only (the kernel refuses it with
# EROFS, and mount(8) falls back to a read-only mount), a read-only mount
# must succeed, and every file must read back as the MANIFEST at the
# image's root (md5sums written on the host) says.
. /lib/ktest.sh

for name in $(ls /dev/img); do
	mnt=/mnt/$name
	mkdir -p "$mnt"
	if mount -t f2fs "/dev/img/$name" "$mnt" > /tmp/rw.log 2>&1; then
		opts=$(awk -v m="$mnt" '$2 == m { print $4 }' /proc/mounts)
		case ,$opts, in
		*,ro,*) echo "$name: a read-write mount came out read-only" ;;
		*) kt_fail "$name: mounted read-write ($opts)" ;;
		esac
		umount "$mnt"
	else
		echo "$name: a read-write mount is refused: $(head -n 1 /tmp/rw.log)"
	fi
	kt_mount "$name" ro || continue
	if (cd "$mnt" && md5sum -c MANIFEST > /tmp/md5.log 2>&1); then
		echo "$name: $(wc -l < "$mnt/MANIFEST") files read back"
	else
		kt_fail "$name: files differ from the manifest"
		grep -v ': OK$' /tmp/md5.log | head -n 5
	fi
	kt_umount "$name"
done
exit $KT_RC
