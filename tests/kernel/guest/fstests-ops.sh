# Guest scenario: what fstests' f2fs tests do with the kernel between two
# checks of the scratch volume, one step per boot (the host checks every
# image after each).  Images: cmp (-O extra_attr,compression), atom, pin,
# lfs.  Steps:
#   init        cmp: three 1 MiB files, 30, 60 and 90 % compressible,
#               written with compress_mode=user,compress_extension=* (f2fs/007)
#               atom: atomic writes committed after a GC round (f2fs/003),
#               committed, aborted and dropped by close (f2fs/004, 010)
#               pin: a pinned file fallocated until ENOSPC with
#               checkpoint=disable:10% (f2fs/011)
#               copt: files written in directories flagged compressed,
#               under f2fs/016's compression mount
#               options (lzo, lz4:3, zstd:1, lzo-rle, compress_log_size=8
#               with compress_chksum, compress_cache with log size 2,
#               compress and nocompress extensions), one directory removed;
#               md5sums of what the kernel reads in its MANIFEST
#               gen: what generic tests leave: fallocate beyond i_size
#               (KEEP_SIZE), preallocated, punched, zeroed, collapsed and
#               inserted ranges; whiteouts (RENAME_WHITEOUT); O_TMPFILE
#               files linked in; truncation down and far up; 300 hard
#               links; 255-byte names
#               lfs: files filled and thinned with mode=lfs,noinline_dentry,
#               then with checkpoint=disable:10%,noinline_dentry (f2fs/005,
#               006 mount with both, which Linux refuses now)
#   compress, release, reserve, decompress
#               cmp: F2FS_IOC_COMPRESS_FILE (compress_mode=user),
#               RELEASE_COMPRESS_BLOCKS, RESERVE_COMPRESS_BLOCKS,
#               DECOMPRESS_FILE (compress_mode=user) on the three files,
#               which must read back as written (f2fs/007)
. /lib/ktest.sh

step=$1
have() { [ -e "/dev/img/$1" ]; }
cmp_files="f30 f60 f90"

# sums NAME: md5sums of the cmp files into $2 (default: stdout)
sums() { (cd "/mnt/$1" && md5sum $cmp_files); }

case $step in
init)
	if have cmp; then
		kt_mount cmp compress_mode=user,compress_extension=*
		for r in 30 60 90; do
			f=/mnt/cmp/f$r
			kt_run "write $f" ktool put "$f" $((r * 1048576 / 100 / 4096 * 4096)) -t
			kt_run "write $f" ktool put "$f" 1048576
		done
		sums cmp > /mnt/cmp/+sums
		kt_umount cmp
	fi
	if have atom; then
		kt_mount atom
		a=/mnt/atom
		kt_run "dbfile" ktool put $a/dbfile 524288 -f
		kt_run "foo" ktool put $a/foo 2097152 -f
		sync
		kt_run "atomic write with GC" ktool ioc $a/dbfile atomic-gc 32
		for op in atomic atomic-abort atomic-drop; do
			kt_run "$op file" ktool put $a/$op 65536 -f
			kt_run "$op" ktool ioc $a/$op $op 8
		done
		sync
		echo 3 > /proc/sys/vm/drop_caches
		# committed: zeroes first; aborted and dropped: as written
		[ "$(head -c 131072 $a/dbfile | tr -d '\000' | wc -c)" = 0 ] ||
			kt_fail "dbfile: the committed atomic write is not there"
		kt_run "aborted write left the file" ktool check $a/atomic-abort 65536
		kt_run "dropped write left the file" ktool check $a/atomic-drop 65536
		kt_umount atom
	fi
	if have pin; then
		kt_mount pin checkpoint=disable:10%
		: > /mnt/pin/pinned
		kt_run "pin" ktool ioc /mnt/pin/pinned pin
		echo "pinned file: $(ktool ioc /mnt/pin/pinned fallocate 1000000) blocks fallocated"
		kt_umount pin
	fi
	if have copt; then
		for o in compress_algorithm=lzo compress_algorithm=lz4:3 compress_algorithm=zstd:1 \
			 compress_algorithm=lzo-rle compress_log_size=8,compress_chksum \
			 compress_cache,compress_log_size=2 compress_extension=txt,nocompress_extension=bin; do
			kt_mount copt "$o" || continue
			d=/mnt/copt/$(echo "$o" | tr ',=:' '___')
			mkdir -p "$d"
			kt_run "$o: compr" ktool compr "$d"
			kt_run "$o: text" ktool put "$d/text" 3000000 -t
			sync
			c=$(ktool ioc "$d/text" cblocks)
			echo "copt, $o: text has ${c:-no} compressed blocks"
			[ "${c:-0}" -gt 0 ] || kt_fail "$o: nothing compressed"
			kt_run "$o: rand" ktool put "$d/rand" 300000
			kt_run "$o: a.txt" ktool put "$d/a.txt" 200000 -t
			kt_run "$o: b.bin" ktool put "$d/b.bin" 200000 -t
			kt_umount copt
		done
		kt_mount copt
		for f in /mnt/copt/*/text; do kt_run "$f reads back" ktool check "$f" 3000000 -t; done
		rm -rf /mnt/copt/compress_log_size_8_compress_chksum
		# what the kernel reads, for the host's dump.f2fs -r to match
		(cd /mnt/copt && find . -type f ! -name MANIFEST -exec md5sum {} + > MANIFEST)
		kt_umount copt
	fi
	if have gen; then
		kt_mount gen
		g=/mnt/gen
		for spec in "keep 524288 1048576" "plain 0 4194304" "punch 65536 131072" "zero 4096 200000" \
			    "collapse 65536 65536" "insert 65536 65536"; do
			set -- $spec
			kt_run "$1 file" ktool put $g/$1 1048576
			kt_run "fallocate $spec" ktool ioc $g/$1 falloc $1 $2 $3
		done
		: > $g/empty-keep
		kt_run "fallocate keep on an empty file" ktool ioc $g/empty-keep falloc keep 0 65536
		kt_run "w1" ktool put $g/w1 100
		kt_run "whiteout w1" ktool whiteout $g w1
		mkdir $g/wd
		kt_run "wd/x" ktool put $g/wd/x 5000
		xsum=$(md5sum < $g/wd/x)
		kt_run "whiteout wd/x" ktool whiteout $g/wd x
		kt_run "tmpfile t1" ktool tmpfile $g t1 3000
		kt_run "tmpfile t2" ktool tmpfile $g t2 300000
		kt_run "trunc" ktool put $g/trunc 1048576
		truncate -s 100000 $g/trunc && truncate -s 50000000 $g/trunc || kt_fail "truncate"
		kt_run "linked" ktool put $g/linked 10
		i=0
		while [ $i -lt 300 ]; do ln $g/linked $g/l$i || kt_fail "link $i"; i=$((i + 1)); done
		long=$(printf 'n%.0s' $(seq 1 255))
		kt_run "a 255-byte name" ktool put "$g/$long" 5000
		sync
		echo 3 > /proc/sys/vm/drop_caches
		kt_run "t2 reads back" ktool check $g/t2 300000
		[ "$(md5sum < $g/wd/x.moved)" = "$xsum" ] || kt_fail "the whiteout's file did not move whole"
		[ -c $g/wd/x ] || kt_fail "no whiteout (a character device) in the file's place"
		kt_umount gen
	fi
	if have lfs; then
		# (Linux refuses mode=lfs with checkpoint=disable: one, then the other)
		for opts in mode=lfs,noinline_dentry checkpoint=disable:10%,noinline_dentry; do
			kt_mount lfs $opts || break
			mkdir -p /mnt/lfs/d
			echo "lfs, $opts: $(ktool fill /mnt/lfs/d 64) files"
			kt_run "thin" ktool thin /mnt/lfs/d
			kt_umount lfs
		done
	fi
	;;
compress|release|reserve|decompress)
	case $step in
	compress|decompress) kt_mount cmp compress_mode=user ;;
	*) kt_mount cmp ;;
	esac
	for f in $cmp_files; do
		out=$(ktool ioc /mnt/cmp/$f $step 2>&1) || kt_fail "$step $f: $out"
		echo "$step $f: ${out:-done}, compressed blocks $(ktool ioc /mnt/cmp/$f cblocks)"
	done
	if [ "$step" = release ]; then
		# released files are read-only: a write must fail
		if echo x >> /mnt/cmp/f90 2>/dev/null; then kt_fail "a released file took a write"; fi
	fi
	sync
	echo 3 > /proc/sys/vm/drop_caches
	sums cmp | cmp -s - /mnt/cmp/+sums || kt_fail "$step: the files do not read back as written"
	kt_umount cmp
	;;
*)
	kt_fail "unknown step $step"
	;;
esac
exit $KT_RC
