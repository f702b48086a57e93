#!/bin/sh
# tests/fsck/kernel-repair.sh: the kernel (tests/kernel harness) mounts
# images our fsck.f2fs repaired, in one boot after one power-cut boot.
#
# 1. A power-cut image (tests/kernel/guest/power-cut-write.sh: fsync'd files
#    only in the roll-forward chain) gets a corruption that leaves the
#    checkpoint alone (rewriting it would change its CRC, which the chain's
#    footers carry): the root's i_links; `fsck.f2fs -y` must repair it while
#    re-homing the chain; our check and f2fs-tools' must then be clean, and
#    the kernel must replay every fsync'd file.  The same repair is also cut
#    after each of its writes (chain copies included): our check must see the
#    state before or the repaired one, and f2fs-tools keep its verdict or
#    find it clean.
# 2. The repaired image of every corruption case that repair.sh repairs
#    (or only REPAIRED_CASES=id,id when set) is mounted, in boots of at
#    most KERNEL_DISKS images, KERNEL_BOOTS of them at a time (default:
#    one per CPU): mount, list and read every file, write and
#    delete more, unmount, no F2FS error; the regular files the kernel reads
#    (paths and contents) must be exactly those our dump.f2fs extracts.
#    The images whose repair moved blocks out of mixed sections are also
#    garbage-collected by the kernel.
#    Under make check, repair.sh (run before this test: tests/fsck/local.mk)
#    leaves its repaired images in REPAIRED_SHARE with a key naming by
#    content the tools and scripts that made them; when the key still
#    holds and REPAIRED_CASES is not set, those images are mounted and
#    every case is not repaired a second time.
#    KERNEL_VERIFIED=FILE (for runs by hand that share one, say a build
#    with other options over the same cases): images the kernel already
#    mounted and read with every check passed are listed there by content hash with the manifest the kernel
#    printed; an image with the same bytes is not booted again, and the
#    files dump.f2fs extracts from it are compared with that manifest.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/fsck/common.sh"
require "$INJECT" "$DUMP" "$FSCK_ORACLE" "$SLOAD" "$SLOAD_ORACLE" "$MKFS_ORACLE"
KT_SRC=$top_srcdir/tests/kernel
. "$KT_SRC/kcommon.sh"
KSRC=$KT_SRC

REPAIRED_CASES=${REPAIRED_CASES:-}
KERNEL_DISKS=${KERNEL_DISKS:-20}   # + ctl, out (and pc): within the PCI slots QEMU has
# cases whose repair reconnects inodes into /lost+found: the kernel must list
# them there and read them
LPF_CASES=" dent-ino lpf-dir node-inodechild nat-lostunnamed ino-links-gone2 dent-noblock0 root-allgone dent-chainlost dent-block0dup "
# cases whose repair moved blocks out of sections of mixed classes: the
# kernel also garbage-collects them (disks named g*), which it would stop
# checkpointing on were a section still of two classes
GC_CASES=" sec-sload-mix sec-datamove sec-logmove sec-emptyfirst "

kt_begin fsck-repair "our repair: roll-forward chain kept, repaired images mount"
img=$KWORK/pc.img
kt_mkfs "$img" 1G -l k-repair || kt_end
kt_guest cut -r "$KT_SRC/guest/power-cut-write.sh" pc="$img" || kt_abort "power-cut run failed"
"$INJECT" --node --nid 3 --mb i_links --val 9 "$img" >/dev/null 2>&1 || kt_abort inject
"$FSCK" "$img" > "$KWORK/before.txt" 2>&1
grep -q '^F2FS-8004 ' "$KWORK/before.txt" || kt_bad "no roll-forward chain before the repair"
cp --sparse=always "$img" "$KWORK/pre.img"
pre=$("$FSCK" "$img" 2>/dev/null | grep '^F2FS-' | grep -v ' info: ' | cut -d' ' -f1 | sort -u)
"$FSCK" -y "$img" > "$KWORK/repair.txt" 2>&1
rc=$?
[ $rc = 1 ] || kt_bad "repair exit $rc: $(tail -3 "$KWORK/repair.txt")"
grep -q 'roll-forward chain re-homed' "$KWORK/repair.txt" || kt_bad "the chain was not re-homed"
"$FSCK" "$img" > "$KWORK/after.txt" 2>&1 || kt_bad "not clean after the repair: $(grep '^F2FS' "$KWORK/after.txt" | head -3)"
grep -q '^F2FS-8004 ' "$KWORK/after.txt" || kt_bad "no roll-forward chain after the repair"
kt_fsck "$img" repaired-unclean
[ "$KT_REF_CLEAN" = 1 ] || kt_bad "f2fs-tools finds the repaired unclean image corrupt"

# the same repair cut after every write: before or repaired, for both tools
total=$("$FSCK" -y --dry-run "$KWORK/pre.img" 2>&1 | sed -n 's/.*(\([0-9]*\) writes).*/\1/p' | tail -1)
"$REF_FSCK" --dry-run "$KWORK/pre.img" </dev/null >/dev/null 2>&1 && pre_ref=0 || pre_ref=1
n=1
while [ -n "$total" ] && [ $n -le "$total" ]; do
	cp --sparse=always "$KWORK/pre.img" "$KWORK/cut.img"
	"$FSCK" -y --write-limit $n "$KWORK/cut.img" >/dev/null 2>&1
	now=$("$FSCK" "$KWORK/cut.img" 2>/dev/null | grep '^F2FS-' | grep -v ' info: ' | cut -d' ' -f1 | sort -u)
	[ -z "$now" ] || [ "$now" = "$pre" ] || kt_bad "cut after write $n/$total: $now"
	"$REF_FSCK" --dry-run "$KWORK/cut.img" </dev/null >/dev/null 2>&1 && ref=0 || ref=1
	# f2fs-tools: as before the repair, or clean once ours is
	if [ -n "$now" ]; then
		[ $ref = $pre_ref ] || [ $ref = 0 ] || kt_bad "cut after write $n/$total: f2fs-tools changed its verdict"
	else
		[ $ref = 0 ] || kt_bad "cut after write $n/$total: ours repaired, f2fs-tools finds it corrupt"
	fi
	n=$((n + 1))
done
[ -n "$total" ] && kt_say "repair with the chain cut after each of its $total writes: before or repaired" ||
	kt_bad "no write count"
rm -f "$KWORK/pre.img" "$KWORK/cut.img"

# the repaired case images, made by repair.sh (in this run of make check
# when it left them, with every case passed, from the same tools)
share=${REPAIRED_SHARE:-}
if [ -z "$REPAIRED_CASES" ] && [ -n "$share" ] && [ -f "$share/key" ] &&
	[ "$(cat "$share/key")" = "$(repaired_key)" ]; then
	rm -f "$share/key"
	mv "$share" "$KWORK/cases" || kt_abort "cannot take the repaired images from $share"
	kt_say "$(ls "$KWORK/cases" | grep -c '\.img$') images repair.sh repaired in this run (same tools, table and scripts): mounted without repairing every case again"
else
	mkdir -p "$KWORK/cases"
	CASES=$REPAIRED_CASES REPAIRED_DIR=$KWORK/cases bash "$top_srcdir/tests/fsck/repair.sh" > "$KWORK/cases.log" 2>&1 ||
		kt_bad "repair.sh failed: $(grep FAIL "$KWORK/cases.log" | head -3)"
fi
KERNEL_VERIFIED=${KERNEL_VERIFIED:-}
[ -z "$KERNEL_VERIFIED" ] || touch "$KERNEL_VERIFIED" || hard_error "cannot write $KERNEL_VERIFIED"
# image_hash FILE: the content hash of an image before any boot writes to
# it (img_sum: its data extents only), as one word
image_hash() { img_sum "$1"; }
# verified_manifest HASH: the kernel's manifest line of an image with those
# bytes that passed in an earlier boot of this run (empty when none did)
verified_manifest() {
	[ -n "$KERNEL_VERIFIED" ] || return 0
	awk -v h="$1" '$1 == h { $1 = ""; sub(/^ /, ""); print; exit }' "$KERNEL_VERIFIED"
}
i=0
skipped=0
: > "$KWORK/known.txt"
for f in "$KWORK"/cases/*.img; do
	[ -e "$f" ] || continue
	i=$((i + 1))
	name=$(basename "$f" .img)
	case "$GC_CASES" in *" $name "*) c=g ;; *) c=c ;; esac
	h=-
	[ -z "$KERNEL_VERIFIED" ] || h=$(image_hash "$f")
	known=$(verified_manifest "$h")
	if [ -n "$known" ]; then
		echo "$c$i: manifest $known" >> "$KWORK/known.txt"
		echo "$c$i $name $f $h" >> "$KWORK/skipped.txt"
		skipped=$((skipped + 1))
	else
		echo "$c$i $name $f $h" >> "$KWORK/disks.txt"
	fi
done
[ $i -gt 0 ] || kt_bad "no repaired case image"
touch "$KWORK/disks.txt" "$KWORK/skipped.txt"
[ $skipped = 0 ] || kt_say "$skipped repaired case images already mounted and read by the kernel in this run (same bytes): not booted again"
: > "$KWORK/bad.txt"

# Cases whose image keeps an older checkpoint pack that is torn, fails
# its CRC or is blank: the check finds it clean and the repair writes
# nothing, and the kernel warns "invalid crc value" (a blank pack: "invalid
# crc_offset") at each mount until its next checkpoint overwrites that
# pack.  They boot on their own, with that warning allowed.
TORN_CASES=" cp-crc-old cp-torn-old cp-old-blank "

# The boots run KERNEL_BOOTS at a time (default: one per CPU), each guest
# on one CPU; each boot's output is kept apart and printed, and its
# verdict judged, in the order the boots started, once they are all over.
KERNEL_BOOTS=${KERNEL_BOOTS:-$(nproc 2>/dev/null || echo 1)}
booting=
nbooting=0

# mount_batch RUN DISKS...: one boot, started in the background; the
# power-cut image rides the first.
# MB_ALLOW: kernel lines that are no complaint in this boot (run-guest.sh -A).
mount_batch() {
	mb_run=$1
	shift
	echo "$*" > "$KWORK/$mb_run.disks"
	# shellcheck disable=SC2068
	( kt_guest "$mb_run" -A "${MB_ALLOW:-^\$}" "$top_srcdir/tests/fsck/guest/repaired.sh" $@
	  echo "$KT_GUEST_RC" > "$KWORK/$mb_run.rc" ) > "$KWORK/$mb_run.out" 2>&1 < /dev/null &
	booting="$booting $mb_run"
	nbooting=$((nbooting + 1))
	[ "$nbooting" -lt "$KERNEL_BOOTS" ] || end_boots
}

# end_boots: wait for the boots started, then judge each in turn.
end_boots() {
	wait
	for eb_run in $booting; do
		# shellcheck disable=SC2046
		judge_batch "$eb_run" $(cat "$KWORK/$eb_run.disks")
	done
	booting=
	nbooting=0
}

# judge_batch RUN DISKS...: the output and verdict of boot RUN.
judge_batch() {
	mb_run=$1
	shift
	cat "$KWORK/$mb_run.out"
	mb_rc=$(cat "$KWORK/$mb_run.rc" 2>/dev/null)
	if [ "$mb_rc" != 0 ]; then
		kt_bad "guest run $mb_run failed (verdict ${mb_rc:-none}; disks: $*)"
		for d in "$@"; do echo "${d%%=*}" >> "$KWORK/bad.txt"; done
		return
	fi
	if [ "$mb_run" = mount1 ]; then
		n=$(grep -c 'F2FS-fs.*recover_inode' "$KWORK/$mb_run/console.log.txt")
		[ "$n" -gt 0 ] && kt_say "the kernel rolled $n inode(s) forward after our repair" ||
			kt_bad "no roll-forward recovery after the repair"
	fi
}
batch=1
disks="pc=$img"
count=0
torn=
while read -r c name f h; do
	case "$TORN_CASES" in *" $name "*) torn="$torn $c=$f"; continue ;; esac
	disks="$disks $c=$f"
	count=$((count + 1))
	if [ $count -ge "$KERNEL_DISKS" ]; then
		mount_batch mount$batch $disks
		batch=$((batch + 1))
		disks=
		count=0
	fi
done < "$KWORK/disks.txt"
[ -z "$disks" ] || mount_batch mount$batch $disks
if [ -n "$torn" ]; then
	batch=$((batch + 1))
	# shellcheck disable=SC2086
	MB_ALLOW='F2FS-fs.*invalid crc( value|_offset)' mount_batch mount$batch $torn
fi
end_boots
kt_say "$((i - skipped)) repaired case images mounted, read, written and unmounted in $batch boot(s)"
cat "$KWORK"/mount*/console.log.txt "$KWORK/known.txt" > "$KWORK/all-consoles.txt" 2>/dev/null
cat "$KWORK/skipped.txt" >> "$KWORK/disks.txt"
# The files the kernel reads are the files our dump.f2fs extracts, byte for
# byte: the repair kept what it says it kept, and nothing the kernel misreads.
# ours_manifest NAME IMG: the files dump.f2fs extracts from IMG, as
# "md5  ./path" lines in byte order of the paths (the guest's busybox
# md5sum escapes no name: -z keeps GNU's from escaping them either) in
# $KWORK/NAME.manifest, and the md5 of those lines in $KWORK/NAME.ours
# ("failed" when dump.f2fs -r fails)
ours_manifest() {
	om_x=$KWORK/x-$1
	rm -rf "$om_x"
	if "$DUMP" -r -L -o "$om_x" "$2" > /dev/null 2>&1; then
		(cd "$om_x" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r md5sum -z | tr '\0' '\n') |
			tee "$KWORK/$1.manifest" | md5sum | cut -c1-32 > "$KWORK/$1.ours"
	else
		echo failed > "$KWORK/$1.ours"
	fi
	rm -rf "$om_x"
}
# one extraction per CPU at a time; judged in order once all are done
njobs=$(nproc 2>/dev/null || echo 1)
n=0
while read -r c name f h; do
	ours_manifest "$name" "$f" < /dev/null &
	n=$((n + 1))
	[ $((n % njobs)) -ne 0 ] || wait
done < "$KWORK/disks.txt"
wait
nsame=0
while read -r c name f h; do
	ours=$(cat "$KWORK/$name.ours" 2>/dev/null)
	[ "${ours:-failed}" != failed ] || { kt_bad "$name: dump.f2fs -r failed"; continue; }
	kern=$(grep -E "(^|[^a-z0-9])$c: manifest " "$KWORK/all-consoles.txt" | head -n 1 | sed 's/.*manifest //')
	if [ "${kern%% *}" = "$ours" ]; then
		nsame=$((nsame + 1))
	else
		kt_bad "$name: the kernel reads other files than dump.f2fs extracts (kernel: ${kern:-none}, ours: $ours $(wc -l < "$KWORK/$name.manifest"))"
		echo "$c" >> "$KWORK/bad.txt"
	fi
done < "$KWORK/disks.txt"
kt_say "$nsame repaired case images: the kernel reads exactly the files dump.f2fs extracts"
while read -r c name f h; do
	case "$GC_CASES" in *" $name "*) ;; *) continue ;; esac
	grep -q "^$c " "$KWORK/skipped.txt" && continue
	calls=$(grep -E "(^|[^a-z0-9])$c: garbage collection: " "$KWORK/all-consoles.txt" | head -n 1 |
		sed 's/.*garbage collection: \([0-9]*\) calls.*/\1/')
	[ "${calls:-0}" -gt 0 ] 2>/dev/null && kt_say "$name: the kernel garbage-collected it ($calls collections)" ||
		{ kt_bad "$name: no garbage collection ran (${calls:-none})"; echo "$c" >> "$KWORK/bad.txt"; }
done < "$KWORK/disks.txt"
while read -r c name f h; do
	case "$LPF_CASES" in *" $name "*) ;; *) continue ;; esac
	grep -q "^$c " "$KWORK/skipped.txt" && continue
	grep -qE "(^|[^a-z0-9])$c: lost\+found: [1-9][0-9]* reconnected" "$KWORK/all-consoles.txt" &&
		kt_say "$name: the kernel lists and reads the inodes reconnected into /lost+found" ||
		{ kt_bad "$name: the kernel does not list the reconnected inodes in /lost+found"; echo "$c" >> "$KWORK/bad.txt"; }
done < "$KWORK/disks.txt"
# record the images that passed every check, for a later build of this run
if [ -n "$KERNEL_VERIFIED" ]; then
	while read -r c name f h; do
		grep -qx "$c" "$KWORK/bad.txt" && continue
		grep -q "^$c " "$KWORK/skipped.txt" && continue
		kern=$(grep -E "(^|[^a-z0-9])$c: manifest " "$KWORK/all-consoles.txt" | head -n 1 | sed 's/.*manifest //')
		[ -n "$kern" ] && echo "$h $kern" >> "$KERNEL_VERIFIED"
	done < "$KWORK/disks.txt"
fi
kt_end
