# Guest scenario: F2FS on zoned block devices.  The tools come on the disk
# "tools" (a tar made by tests/kernel/zoned.sh): ours built static in
# ours/, f2fs-tools' dynamic binaries with their libraries in ref/ (run
# through their own loader).
#
# Arguments: KIB CASE...  (KIB: file size of the fill workload)
#   CASE = NAME:MKFS:DEV[:REGULAR[:KIB]]  (KIB: this case's file size)
#     MKFS     ours or ref (f2fs-tools' mkfs.f2fs -m)
#     DEV      nb,ZONE_MB,CAP_MB,NCONV,SIZE_MB[,BLOCKSIZE]: a null_blk
#              zoned device made through configfs (memory backed; logical
#              block size 512 unless given), or
#              img=NAME: the zoned disk NAME (a QEMU NVMe ZNS namespace)
#     REGULAR  a regular disk placed first (mkfs -c ZONED REGULAR)
#   CASE = crash:NAME  after the case NAME: mount, write and fsync files,
#            stop the file system without a checkpoint (F2FS_IOC_SHUTDOWN,
#            as a power cut would leave the zones: logs behind their write
#            pointers, zones written after the checkpoint); our fsck -n
#            must find no problem there (the kernel's recovery handles it),
#            then the kernel mounts, recovers the fsync'd files, unmounts,
#            and both fscks are clean
#   CASE = damage:NAME  after the case NAME: break write pointers the three
#            ways a device can (blocks written into an empty zone, one at
#            the write pointer of an open zone, a full zone reset) and,
#            with the capacity below the zone size, a SIT bit after it; each
#            time: our fsck -n reports it, -y repairs it (exit 1) and a
#            second -y changes no zone, both fscks are clean, and the
#            kernel mounts, finds no write pointer to fix, and unmounts
# For each case: mkfs -m; both fscks; mount; fill to ENOSPC and sync,
# delete every other file (partly valid full sections), foreground GC
# (which must move blocks), fill again, foreground GC; read back; unmount;
# remount and read back; unmount; both fscks against the live zones.  The zone reports before and
# after go to /out/NAME.zones.*, the fsck logs to /out/NAME.*.log.
. /lib/ktest.sh

kib=$1
shift
mkdir -p /opt /sys/kernel/config
mount -t configfs configfs /sys/kernel/config 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
tar xf /dev/img/tools -C /opt || { kt_fail "no tools disk"; exit 1; }

# ref TOOL ARGS...: f2fs-tools' TOOL through its own loader and libraries.
ref() {
	ref_tool=$1
	shift
	/opt/ref/lib/ld-linux-x86-64.so.2 --library-path /opt/ref/lib "/opt/ref/bin/$ref_tool" "$@"
}

# nullb NAME ZONE_MB CAP_MB NCONV SIZE_MB [BLOCKSIZE]: make a zoned null_blk
# device and print its path (Linux 6.1 names the disk after the configfs
# directory; older kernels nullbINDEX).
nullb() {
	d=/sys/kernel/config/nullb/$1
	mkdir "$d" || return 1
	echo "${6:-512}" > "$d/blocksize" &&
		echo "$5" > "$d/size" &&
		echo 1 > "$d/memory_backed" &&
		echo 1 > "$d/zoned" &&
		echo "$2" > "$d/zone_size" &&
		echo "$3" > "$d/zone_capacity" &&
		echo "$4" > "$d/zone_nr_conv" &&
		echo 1 > "$d/power" || return 1
	if [ -b "/dev/$1" ]; then
		echo "/dev/$1"
	else
		echo "/dev/nullb$(cat "$d/index")"
	fi
}

# nullb_drop: remove the null_blk devices made so far (memory backed:
# their memory comes back).
nullb_drop() {
	for d in /sys/kernel/config/nullb/*/; do
		[ -d "$d" ] || continue
		echo 0 > "$d/power" 2>/dev/null
		rmdir "$d" 2>/dev/null
	done
}

# wait_dev PATH: block devices of the NVMe driver appear asynchronously.
wait_dev() {
	i=0
	while [ ! -b "$1" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -b "$1" ]
}

# fscks NAME STEP DEV: f2fs-tools' fsck (dry run) and ours (-n), both clean.
# f2fs-tools 1.15 counts free segments wrongly when the zone capacity is
# below the zone size (it fails the kernel's own checkpoints, and those of
# its own mkfs): that one line alone is taken as clean when $capped is set.
fscks() {
	ref fsck.f2fs --dry-run "$3" < /dev/null > "$KTEST_OUT/$1.$2.ref.log" 2>&1
	ref_rc=$?
	tr '\r' '\n' < "$KTEST_OUT/$1.$2.ref.log" | grep '\[Fail\]' > /tmp/ref-fails
	if [ -n "$capped" ] && [ "$(grep -vc 'free segment_count matched with CP' /tmp/ref-fails)" = 0 ] &&
		! tr '\r' '\n' < "$KTEST_OUT/$1.$2.ref.log" | grep -qE 'ASSERT|Inconsistent|Unexpected|FIX'; then
		[ -s /tmp/ref-fails ] && echo "$1 $2: f2fs-tools: only its free segment count complaint (zone capacity)"
		ref_rc=0
		: > /tmp/ref-fails
	fi
	if [ "$ref_rc" -ne 0 ] || [ -s /tmp/ref-fails ]; then
		kt_fail "$1 $2: f2fs-tools fsck.f2fs --dry-run"
		tr '\r' '\n' < "$KTEST_OUT/$1.$2.ref.log" | grep -E 'Fail|rror|ASSERT|FIX|zone|wp|pointer' | head -n 12
	fi
	if ! /opt/ours/fsck.f2fs -n "$3" < /dev/null > "$KTEST_OUT/$1.$2.ours.log" 2>&1; then
		kt_fail "$1 $2: our fsck.f2fs -n"
		head -n 12 "$KTEST_OUT/$1.$2.ours.log"
	fi
}

# gc_moved: blocks the kernel's garbage collection has moved so far.
gc_moved() {
	sed -n 's/^Try to move \([0-9]*\).*/\1/p' /sys/kernel/debug/f2fs/status 2>/dev/null | head -n 1
}

# gc_calls WHEN: the kernel's GC call and moved-block counters.
gc_calls() {
	echo "$1: $(grep -E '^(GC calls|Try to move|  - Reclaimed segs)' /sys/kernel/debug/f2fs/status | tr -s ' ' | tr '\n' ' ')"
}

# segs WHEN: the kernel's dirty, prefree and free segment counts.
segs() {
	echo "$1: $(grep -E '^  - (Dirty|Prefree|Free):' /sys/kernel/debug/f2fs/status | tr -s ' ' | tr '\n' ' ')"
}

run_case() {
	name=$1 tool=$2 dev=$3 regular=$4 fkib=${5:-$kib}
	echo "== $name ($tool mkfs, $dev${regular:+, first device $regular})"
	case $dev in
	nb,*)
		set -- $(echo "${dev#nb,}" | tr ',' ' ')
		zdev=$(nullb "$name" "$1" "$2" "$3" "$4" "${5:-}") || { kt_fail "$name: cannot make null_blk $dev"; return; }
		;;
	img=*)
		zdev=$(readlink -f "/dev/img/${dev#img=}")
		wait_dev "$zdev" || { kt_fail "$name: $zdev did not appear"; return; }
		;;
	esac
	echo "zoned device $zdev: $(cat /sys/block/$(basename "$zdev")/queue/zoned)," \
		"chunk $(cat /sys/block/$(basename "$zdev")/queue/chunk_sectors) sectors"
	ktool zones "$zdev" > "$KTEST_OUT/$name.zones.before" 2>&1
	tail -n 1 "$KTEST_OUT/$name.zones.before"
	# zone capacity below the zone size (fields: see ktool zones)
	capped=$(awk '$1 == "zone" && $4 != 1 && $14 < $10 { print 1; exit }' "$KTEST_OUT/$name.zones.before")
	main=$zdev
	if [ -n "$regular" ]; then
		main=$(readlink -f "/dev/img/$regular")
		set -- -c "$zdev" "$main"
	else
		set -- "$zdev"
	fi
	if [ "$tool" = ref ]; then
		ref mkfs.f2fs -f -m -l "$name" "$@" > "$KTEST_OUT/$name.mkfs.log" 2>&1
	else
		/opt/ours/mkfs.f2fs -f -m -l "$name" "$@" > "$KTEST_OUT/$name.mkfs.log" 2>&1
	fi || { kt_fail "$name: mkfs -m $*"; tail -n 8 "$KTEST_OUT/$name.mkfs.log"; return; }
	grep -iE 'zone|section|segs' "$KTEST_OUT/$name.mkfs.log" | head -n 6
	fscks "$name" made "$main"
	m=/mnt/$name
	mkdir -p "$m"
	kt_run "$name: mount" mount -t f2fs "$main" "$m" || return
	mkdir "$m/d"
	moved0=$(gc_moved)
	# F2FS allocates blocks at writeback: the fill must reach the zones
	# before the deletion, or the deleted files' pages are dropped from
	# the page cache unwritten and the survivors are written packed into
	# full sections, leaving nothing for GC ("Dirty: 0" on the small
	# volumes whose whole fill fits in the dirty page limit).
	kt_run "$name: first fill" ktool fill "$m/d" "$fkib" && sed 's/^/first /' /tmp/kt_step.log
	sync
	segs "after the first fill"
	kt_run "$name: delete every other file" ktool thin "$m/d"
	sync
	segs "after the deletion"
	gc_calls "before GC"
	kt_run "$name: foreground GC" ktool gc "$m" 64 && cat /tmp/kt_step.log
	segs "after GC"
	gc_calls "after GC"
	kt_run "$name: second fill" ktool fill "$m/d" "$fkib" && sed 's/^/second /' /tmp/kt_step.log
	sync
	segs "after the second fill"
	kt_run "$name: foreground GC" ktool gc "$m" 64 && cat /tmp/kt_step.log
	moved=$(gc_moved)
	echo "GC moved $((${moved:-0} - ${moved0:-0})) blocks"
	# Every other 1 MiB file of a synced fill leaves partly valid full
	# sections on every configuration: GC must move blocks on each.
	if [ "$((${moved:-0} - ${moved0:-0}))" -eq 0 ]; then
		kt_fail "$name: the kernel's GC moved nothing"
	fi
	cp /sys/kernel/debug/f2fs/status "$KTEST_OUT/$name.f2fs-status" 2>/dev/null
	kt_run "$name: read back" ktool fill-verify "$m/d" "$fkib"
	df -k "$m" | tail -n 1
	sysfs=/sys/fs/f2fs/$(basename "$main")
	if [ -r "$sysfs/stat/sb_status" ] && [ $((0x$(cat "$sysfs/stat/sb_status") & 4)) -ne 0 ]; then
		kt_fail "$name: the kernel flagged the file system as needing fsck"
	fi
	kt_run "$name: umount" umount "$m" || return
	kt_run "$name: remount" mount -t f2fs "$main" "$m" || return
	kt_run "$name: read back after remount" ktool fill-verify "$m/d" "$fkib"
	kt_run "$name: umount again" umount "$m" || return
	ktool zones "$zdev" > "$KTEST_OUT/$name.zones.after" 2>&1
	awk '$1 == "zone" { n[$4 "/" $6]++ } END { for (k in n) printf "type/cond %s: %d zones\n", k, n[k] }' \
		"$KTEST_OUT/$name.zones.after" | sort
	fscks "$name" used "$main"
	echo "$name $zdev $main $capped" >> /tmp/cases-done
}

# pick_zone [-f] COND...: "START WP" (sectors) of the last (-f: first)
# sequential zone of $zdev in one of the conditions.
pick_zone() {
	order=tail
	[ "$1" = -f ] && { order=head; shift; }
	ktool zones "$zdev" | awk -v conds=" $* " '$1 == "zone" && $4 != 1 && index(conds, " " $6 " ") { print $8, $12 }' |
		$order -n 1
}

# repaired NAME WHAT CODE: our fsck finds CODE (a prefix), repairs, and the
# volume is clean for both fscks and the kernel.
repaired() {
	rn=$1 what=$2 code=$3
	/opt/ours/fsck.f2fs -n "$main" > "$KTEST_OUT/$rn.$what.n.log" 2>&1
	rc=$?
	if [ $rc -ne 4 ] || ! grep -q "F2FS-$code" "$KTEST_OUT/$rn.$what.n.log"; then
		kt_fail "$rn $what: our fsck -n exit $rc, want 4 with F2FS-$code"
		head -n 8 "$KTEST_OUT/$rn.$what.n.log"
		return
	fi
	echo "$rn $what: $(grep -o 'F2FS-[0-9]*' "$KTEST_OUT/$rn.$what.n.log" | sort | uniq -c | tr -s ' \n' ' ')"
	/opt/ours/fsck.f2fs -y "$main" > "$KTEST_OUT/$rn.$what.y.log" 2>&1
	rc=$?
	[ $rc -eq 1 ] || { kt_fail "$rn $what: our fsck -y exit $rc, want 1"; tail -n 8 "$KTEST_OUT/$rn.$what.y.log"; }
	sum1=$(ktool zones "$zdev" | md5sum)
	/opt/ours/fsck.f2fs -y "$main" > "$KTEST_OUT/$rn.$what.y2.log" 2>&1
	rc=$?
	sum2=$(ktool zones "$zdev" | md5sum)
	[ $rc -eq 0 ] && [ "$sum1" = "$sum2" ] ||
		kt_fail "$rn $what: a second fsck -y: exit $rc, zones $([ "$sum1" = "$sum2" ] && echo unchanged || echo changed)"
	fscks "$rn" "$what" "$main"
	dmesg -c > /dev/null
	if kt_run "$rn $what: mount after the repair" mount -t f2fs "$main" "/mnt/$rn"; then
		ls -R "/mnt/$rn" > /dev/null 2>&1
		kt_run "$rn $what: umount after the repair" umount "/mnt/$rn"
	fi
	if dmesg | grep -E 'F2FS-fs.*(write pointer|Unaligned curseg|not yet discarded|Reset the zone)'; then
		kt_fail "$rn $what: the kernel found a write pointer to fix after our repair"
	fi
	fscks "$rn" "$what-mounted" "$main"
}

crash_case() {
	cn=$1
	set -- $(grep "^$cn " /tmp/cases-done 2>/dev/null)
	[ $# -ge 3 ] || { kt_fail "crash: no case $cn before"; return; }
	zdev=$2 main=$3 capped=${4:-}
	echo "== crash $cn"
	m=/mnt/$cn
	kt_run "$cn: mount" mount -t f2fs "$main" "$m" || return
	# room for the files (the workload left the volume full), then a
	# checkpoint: what follows is written after it
	rm -f "$m"/d/f0000* "$m"/d/f0001*
	mkdir -p "$m/crash"
	sync
	kt_run "$cn: fsync'd files" ktool put "$m/crash/a" 3000000 -f &&
		kt_run "$cn: fsync'd files" ktool put "$m/crash/b" 5000 -f &&
		kt_run "$cn: shutdown" ktool shutdown "$m"
	umount "$m" 2>/dev/null
	# The shutdown is counted in the superblock (F2FS-1045, information);
	# nothing else may be reported, no zone problem above all.
	/opt/ours/fsck.f2fs -n "$main" > "$KTEST_OUT/$cn.crash.n.log" 2>&1
	echo "$cn crash: our fsck -n: $(grep -o 'F2FS-[0-9]* [a-z]*' "$KTEST_OUT/$cn.crash.n.log" | sort | uniq -c | tr -s ' \n' ' ')"
	if grep '^F2FS-' "$KTEST_OUT/$cn.crash.n.log" | grep -q -v ' info: '; then
		kt_fail "$cn crash: our fsck -n reports problems after a shutdown"
		grep '^F2FS-' "$KTEST_OUT/$cn.crash.n.log" | grep -v ' info: ' | head -n 6
	fi
	ktool zones "$zdev" > "$KTEST_OUT/$cn.zones.crash" 2>&1
	dmesg -c > /dev/null
	kt_run "$cn: mount after the shutdown" mount -t f2fs "$main" "$m" || return
	kt_run "$cn: fsync'd file recovered" ktool check "$m/crash/a" 3000000
	kt_run "$cn: fsync'd file recovered" ktool check "$m/crash/b" 5000
	kt_run "$cn: umount after the recovery" umount "$m"
	dmesg | grep -E 'F2FS-fs.*(write pointer|curseg|discarded|Reset)' | sed "s/^/$cn crash: kernel: /"
	/opt/ours/fsck.f2fs -n "$main" > "$KTEST_OUT/$cn.recovered.n.log" 2>&1
	if grep '^F2FS-' "$KTEST_OUT/$cn.recovered.n.log" | grep -q -v ' info: '; then
		kt_fail "$cn crash: our fsck -n reports problems after the kernel's recovery"
		grep '^F2FS-' "$KTEST_OUT/$cn.recovered.n.log" | grep -v ' info: ' | head -n 6
	fi
	# clear the recorded stop reason, then both fscks are clean
	/opt/ours/fsck.f2fs -y "$main" > "$KTEST_OUT/$cn.recovered.y.log" 2>&1
	fscks "$cn" crash-recovered "$main"
}

damage_case() {
	dn=$1
	set -- $(grep "^$dn " /tmp/cases-done 2>/dev/null)
	[ $# -ge 3 ] || { kt_fail "damage: no case $dn before"; return; }
	zdev=$2 main=$3 capped=${4:-}
	echo "== damage $dn"
	# blocks written into an empty zone: a section without valid blocks
	# whose zone is open (or, were it a log's, a log behind its pointer)
	set -- $(pick_zone 1)
	[ -n "${1:-}" ] && kt_run "$dn: write into an empty zone" ktool zone-write "$zdev" $(($1 / 8)) 3 &&
		repaired "$dn" empty-zone-written 710
	# a block at the write pointer of an open zone: a log behind its zone
	set -- $(pick_zone -f 2 3 4)
	[ -n "${1:-}" ] && kt_run "$dn: write at an open zone's pointer" ktool zone-write "$zdev" $(($2 / 8)) 1 &&
		repaired "$dn" log-behind-wp 7101
	# a full zone reset: its valid blocks lie after the write pointer
	set -- $(pick_zone 14)
	[ -n "${1:-}" ] && kt_run "$dn: reset a full zone" ktool zone-reset "$zdev" "$1" &&
		repaired "$dn" full-zone-reset 7102
	# a valid bit after the zone capacity, in the SIT entry of the last
	# main segment (the kernel's check_block_count() refuses it)
	if [ -n "$capped" ]; then
		seg=$(/opt/ours/dump.f2fs "$main" 2>/dev/null |
			awk '$1 == "segment_count_main" { gsub(/[]:[]/, " "); print $NF - 1 }')
		kt_run "$dn: a SIT bit after the capacity" /opt/ours/inject.f2fs --sit 0 --mb vblocks \
			--segno "$seg" --val 1 "$main" &&
			kt_run "$dn: a SIT bit after the capacity" /opt/ours/inject.f2fs --sit 0 \
				--mb valid_map --segno "$seg" --idx 0 --val 0x80 "$main" &&
			repaired "$dn" sit-beyond-capacity 7104
	fi
}

for spec in "$@"; do
	IFS=: read -r cname ctool cdev creg ckib <<EOF
$spec
EOF
	if [ "$cname" = damage ]; then
		damage_case "$ctool"
	elif [ "$cname" = crash ]; then
		crash_case "$ctool"
	else
		nullb_drop
		run_case "$cname" "$ctool" "$cdev" "$creg" "$ckib"
	fi
done
dmesg | grep -iE 'f2fs|zone|nullb|nvme' > "$KTEST_OUT/kernel.log"
exit $KT_RC
