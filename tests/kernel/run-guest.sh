#!/bin/sh
# run-guest.sh: boot Debian's kernel under QEMU with images attached as virtio
# disks, run one scenario script inside, and judge the run.
#
#   sh run-guest.sh [options] SCENARIO [NAME=IMAGE ...]
#     -n NAME     name of the run (default: the scenario's base name)
#     -a ARGS     arguments given to the scenario (split on blanks)
#     -d DIR      where to leave console.log, dmesg and /out (default ./NAME.run)
#     -t SECONDS  wall-clock limit (default 300)
#     -m MEM      guest memory (default 384M)
#     -r          the scenario ends with a power cut (kt_power_cut), not an exit
#     -A REGEX    kernel lines matching REGEX are not complaints
#     -z NAME=IMAGE:ZONE_SIZE:ZONE_CAPACITY
#                 attach IMAGE as a zoned namespace of a QEMU NVMe controller
#                 (ZNS; sizes in QEMU's syntax, e.g. 16M; repeatable: the
#                 namespaces are nvme0n1, nvme0n2, ... in order)
#
# Inside the guest, image NAME is /dev/img/NAME (vdc, vdd, ... in order).
#
# Exit status, a bit mask (0 = pass):
#   1  the scenario failed (non-zero status, or an unexpected/missing power cut)
#   2  the kernel complained: oops, BUG, WARNING, call trace, an F2FS error or
#      warning line, an I/O error
#   4  no verdict: QEMU failed, the guest did not boot, died, or timed out
# A run that fails before the scenario starts (a boot failure) is retried
# once when the images are untouched; the runner says so ("BOOT FAILURE on
# attempt 1 ... RETRYING ONCE") and keeps the first console in DIR/attempt1.
#
# Environment: top_srcdir, top_builddir (default: derived from this script
# and the current directory), KTEST_ACCEL (default tcg), KTEST_KVER (kernel
# version; default: the newest /boot/vmlinuz-* whose modules include f2fs),
# KTEST_BUSYBOX (default /bin/busybox, must be static), CC (static helper).

set -u

KSRC=$(cd "$(dirname "$0")" && pwd)
: "${top_srcdir:=$(cd "$KSRC/../.." && pwd)}"
: "${top_builddir:=$(pwd)}"
KCACHE=$top_builddir/tests/kernel/cache

name='' args='' dir='' tmo=300 mem=384M expect_reset=0 allow='' zns=''
while getopts n:a:d:t:m:rA:z: opt; do
	case $opt in
	n) name=$OPTARG ;;
	a) args=$OPTARG ;;
	d) dir=$OPTARG ;;
	t) tmo=$OPTARG ;;
	m) mem=$OPTARG ;;
	r) expect_reset=1 ;;
	A) allow=$OPTARG ;;
	z) zns="$zns $OPTARG" ;;
	*) echo "usage: run-guest.sh [-n name] [-a args] [-d dir] [-t s] [-m mem] [-r] [-A re] [-z NAME=IMG:ZS:ZC] SCENARIO [NAME=IMAGE...]" >&2
	   exit 4 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "run-guest.sh: no scenario given" >&2; exit 4; }
scenario=$1
shift
[ -n "$name" ] || name=$(basename "$scenario" .sh)
[ -n "$dir" ] || dir=./$name.run

say() { echo "run-guest[$name]: $*"; }
die() { say "NO VERDICT: $*"; exit 4; }

[ -r "$scenario" ] || die "scenario $scenario not found"

# ---------- kernel ----------

pick_kernel() {
	if [ -n "${KTEST_KVER:-}" ]; then
		echo "$KTEST_KVER"
		return
	fi
	for v in $(ls /boot/vmlinuz-* 2>/dev/null | sed 's|/boot/vmlinuz-||' | sort -V -r); do
		if [ -n "$(find "/lib/modules/$v/kernel/fs/f2fs" -name 'f2fs.ko*' 2>/dev/null)" ]; then
			echo "$v"
			return
		fi
	done
}

kver=$(pick_kernel)
[ -n "$kver" ] || die "no /boot/vmlinuz-* with an f2fs module (run tests/kernel/setup.sh)"
kimage=/boot/vmlinuz-$kver
moddir=/lib/modules/$kver
[ -r "$kimage" ] && [ -r "$moddir/modules.dep" ] || die "kernel $kver is incomplete"
command -v qemu-system-x86_64 > /dev/null || die "qemu-system-x86_64 missing (run tests/kernel/setup.sh)"
mkdir -p "$KCACHE" || die "cannot create $KCACHE"
# A kernel package update may keep the version string: key the cache on the
# image's checksum too.
kid=$(cksum < "$kimage" | cut -d' ' -f1)
busybox=${KTEST_BUSYBOX:-/bin/busybox}

# The bzImage holds the kernel as a compressed ELF.  Booting that ELF through
# its PVH entry point skips the real-mode setup and the self-decompression,
# which under TCG saves several seconds per boot.  Find each compression magic
# in the image and keep the first payload that decompresses to an ELF.
extract_vmlinux() {
	for fmt in 'fd377a585a00:xz -dcq --single-stream' \
		   '28b52ffd:zstd -dcq' \
		   '1f8b0800:gzip -dcq' \
		   '02214c18:lz4 -dcq' \
		   '894c5a:lzop -dcq' \
		   '425a68:bzip2 -dcq' \
		   '5d000000:xz -dcq --format=lzma'; do
		magic=${fmt%%:*}
		tool=${fmt#*:}
		command -v "${tool%% *}" > /dev/null || continue
		pat=$(echo "$magic" | sed 's/../\\x&/g')
		for off in $(LC_ALL=C grep -obUaP "$pat" "$1" 2>/dev/null | cut -d: -f1); do
			tail -c +$((off + 1)) "$1" | $tool > "$2" 2>/dev/null
			if [ "$(head -c 4 "$2" | od -An -tx1 | tr -d ' \n')" = 7f454c46 ]; then
				return 0
			fi
		done
	done
	rm -f "$2"
	return 1
}

vmlinux=$KCACHE/vmlinux-$kver-$kid
if [ ! -s "$vmlinux" ]; then
	if extract_vmlinux "$kimage" "$vmlinux.tmp.$$"; then
		mv -f "$vmlinux.tmp.$$" "$vmlinux"
		for old in "$KCACHE"/vmlinux-*; do
			case $old in "$vmlinux"|*.tmp.*) ;; *) rm -f "$old" ;; esac
		done
	else
		say "cannot unpack $kimage, booting the bzImage itself (slower)"
		vmlinux=$kimage
	fi
fi

# ---------- initramfs ----------

# Print the module files needed for the NAMEs, dependencies first, each once.
order_modules() {
	awk -v want="$*" '
	function key(p) { sub(/.*\//, "", p); sub(/\.ko.*/, "", p); gsub(/-/, "_", p); return p }
	function visit(p,   n, i, d) {
		if (p in done) return
		done[p] = 1
		n = split(deps[p], d, " ")
		for (i = n; i >= 1; i--) visit(d[i])
		printf "%s ", p
	}
	{ p = $1; sub(/:$/, "", p); path[key(p)] = p; $1 = ""; deps[p] = $0 }
	END {
		n = split(want, w, " ")
		for (i = 1; i <= n; i++) { k = w[i]; gsub(/-/, "_", k); if (k in path) visit(path[k]) }
		print ""
	}' "$moddir/modules.dep"
}

# virtio for the disks, crc32 (f2fs asks the crypto API for it), the
# compressors f2fs links against, quota formats, the ciphers and hash of
# fscrypt v2 policies (AES-256-XTS over ECB, AES-256-CTS, HKDF-SHA512; the guest has
# no modprobe to load them on demand), null_blk (zoned devices are made
# through configfs) and nvme (QEMU's zoned namespaces) for the zoned tests.
MODULES="virtio_ring virtio virtio_pci_legacy_dev virtio_pci_modern_dev virtio_pci virtio_blk
crc32_generic crc32c_generic quota_tree quota_v2 lz4_compress lz4hc_compress zstd_compress
ecb xts cts sha512_generic f2fs configfs null_blk nvme"

ktool_src=$KSRC/ktool.c
key=$( (echo "$MODULES"; cat "$KSRC/guest-init.sh" "$KSRC/guest-lib.sh" "$ktool_src" "$busybox") 2>/dev/null |
	cksum | cut -d' ' -f1)-$kver-$kid
initrd=$KCACHE/initramfs-$key.cpio

# Does the ELF file $1 ask for a program interpreter (is it dynamic)?
has_interp() {
	u() { od -An -j "$1" -N "$2" -t "u$2" "$3" | tr -d ' '; }
	phoff=$(u 32 8 "$1")
	phsz=$(u 54 2 "$1")
	phnum=$(u 56 2 "$1")
	[ -n "$phoff" ] && [ -n "$phnum" ] || return 0
	i=0
	while [ "$i" -lt "$phnum" ]; do
		[ "$(u $((phoff + i * phsz)) 4 "$1")" = 3 ] && return 0
		i=$((i + 1))
	done
	return 1
}

build_initramfs() {
	root=$KCACHE/root.$$
	rm -rf "$root"
	mkdir -p "$root/bin" "$root/lib" "$root/modules" || return 1
	if has_interp "$busybox"; then
		say "$busybox is not static; install busybox-static"
		return 1
	fi
	cp "$busybox" "$root/bin/busybox" || return 1
	cp "$KSRC/guest-init.sh" "$root/init" && chmod 755 "$root/init" || return 1
	cp "$KSRC/guest-lib.sh" "$root/lib/ktest.sh" || return 1
	if ! ${CC:-cc} -std=gnu11 -O2 -Wall -Wextra -static -o "$root/bin/ktool" "$ktool_src" \
		> "$root.cc.log" 2>&1; then
		say "cannot build the static guest helper (is libc6-dev there?):"
		head -n 20 "$root.cc.log"
		rm -f "$root.cc.log"
		return 1
	fi
	rm -f "$root.cc.log"
	: > "$root/modules/order"
	for f in $(order_modules $MODULES); do
		base=$(basename "$f")
		case $base in
		*.ko) cp "$moddir/$f" "$root/modules/$base" ;;
		*.ko.xz) xz -dc "$moddir/$f" > "$root/modules/${base%.xz}"; base=${base%.xz} ;;
		*.ko.zst) zstd -dcq "$moddir/$f" > "$root/modules/${base%.zst}"; base=${base%.zst} ;;
		*.ko.gz) gzip -dc "$moddir/$f" > "$root/modules/${base%.gz}"; base=${base%.gz} ;;
		esac || return 1
		echo "$base" >> "$root/modules/order"
	done
	grep -q '^f2fs\.ko$' "$root/modules/order" || { say "f2fs module not found"; return 1; }
	(cd "$root" && find . | cpio -o -H newc --quiet) > "$initrd.tmp.$$" || return 1
	mv -f "$initrd.tmp.$$" "$initrd"
	rm -rf "$root"
	for old in "$KCACHE"/initramfs-*; do
		case $old in "$initrd"|*.tmp.*) ;; *) rm -f "$old" ;; esac
	done
}

if [ ! -s "$initrd" ]; then
	build_initramfs || { rm -rf "$KCACHE/root.$$" "$initrd.tmp.$$"; die "cannot build the initramfs"; }
fi

# ---------- disks ----------

rm -rf "$dir"
mkdir -p "$dir/ctl" || die "cannot create $dir"
cp "$scenario" "$dir/ctl/run.sh"
printf '%s\n' "$args" > "$dir/ctl/args"
: > "$dir/ctl/disks"
: > "$dir/drives"
: > "$dir/zns-drives"
letters=cdefghijklmnopqrstuvwxyz
i=0
for spec in "$@"; do
	dname=${spec%%=*}
	dimg=${spec#*=}
	[ -f "$dimg" ] || die "image $dimg not found"
	i=$((i + 1))
	[ $i -le 24 ] || die "too many images"
	letter=$(echo "$letters" | cut -c$i)
	echo "$dname /dev/vd$letter" >> "$dir/ctl/disks"
	echo "$dimg" >> "$dir/drives"
	say "vd$letter = $dname ($dimg)"
done
nsid=0
for spec in $zns; do
	dname=${spec%%=*}
	rest=${spec#*=}
	zcap=${rest##*:}
	rest=${rest%:*}
	zsize=${rest##*:}
	dimg=${rest%:*}
	[ -f "$dimg" ] && [ -n "$zsize" ] && [ -n "$zcap" ] || die "bad zoned namespace $spec"
	nsid=$((nsid + 1))
	echo "$dname /dev/nvme0n$nsid" >> "$dir/ctl/disks"
	printf '%s:%s:%s\n' "$zsize" "$zcap" "$dimg" >> "$dir/zns-drives"
	say "nvme0n$nsid = $dname ($dimg, zoned: zone size $zsize, capacity $zcap)"
done
(cd "$dir/ctl" && tar cf ../ctl.tar run.sh args disks) || die "cannot pack the control disk"
truncate -s 1M "$dir/ctl.tar"

# TCG unless told otherwise: a /dev/kvm that exists is not proof that KVM
# works (nested setups fail with "KVM internal error").
accel=${KTEST_ACCEL:-tcg}

# ---------- run ----------

# QEMU's -drive takes a comma as a separator; a literal one is doubled.
qarg() { printf '%s' "$1" | sed 's/,/,,/g'; }

set -- -drive "file=$(qarg "$dir/ctl.tar"),if=none,id=ctl,format=raw,readonly=on" \
	-device virtio-blk-pci,drive=ctl \
	-drive "file=$(qarg "$dir/out.img"),if=none,id=out,format=raw,cache=unsafe" \
	-device virtio-blk-pci,drive=out
i=0
while IFS= read -r dimg; do
	i=$((i + 1))
	set -- "$@" -drive "file=$(qarg "$dimg"),if=none,id=img$i,format=raw,cache=unsafe,discard=unmap" \
		-device "virtio-blk-pci,drive=img$i"
done < "$dir/drives"
if [ -s "$dir/zns-drives" ]; then
	set -- "$@" -device nvme,id=nvme0,serial=ktestzns
	i=0
	while IFS=: read -r zsize zcap dimg; do
		i=$((i + 1))
		set -- "$@" -drive "file=$(qarg "$dimg"),if=none,id=zns$i,format=raw,cache=unsafe" \
			-device "nvme-ns,drive=zns$i,bus=nvme0,nsid=$i,zoned=true,zoned.zone_size=$zsize,zoned.zone_capacity=$zcap"
	done < "$dir/zns-drives"
fi

# Under TCG on a loaded host the guest's clock can leap; the soft-lockup and
# RCU-stall detectors would then print call traces that say nothing about
# F2FS, so they are off.  For the same reason no_timer_check: the kernel's
# check that the IO-APIC timer ticks can fail on a starved vCPU and panic
# the boot ("IO-APIC + timer doesn't work!").
cmdline="console=ttyS0 console_msg_format=syslog loglevel=4 panic=-1 oops=panic"
cmdline="$cmdline mitigations=off 8250.nr_uarts=1 nowatchdog rcupdate.rcu_cpu_stall_suppress=1"
cmdline="$cmdline no_timer_check"

# Size and modification time (ns) of every image: the proof that an attempt
# that failed at boot wrote nothing.
image_state() {
	while IFS= read -r dimg; do
		stat -L -c '%s %y' "$dimg"
	done < "$dir/drives"
	while IFS=: read -r zsize zcap dimg; do
		stat -L -c '%s %y' "$dimg"
	done < "$dir/zns-drives"
}

# A boot failure (the guest never reached the scenario: QEMU failed, the
# kernel panicked or hung while booting, init never started the scenario)
# is retried once, so that one flake of the emulated hardware is not taken
# for a verdict.  Only the start of the scenario (KTEST-SCENARIO, printed by
# init just before it) lets the images be written to; the retry also
# requires every image's size and modification time to be unchanged, so a
# power-cut run (-r) is never repeated on an image a partial run modified.
# A failure once the scenario has started (a scenario failure, a kernel
# complaint, a crash or a hang) is never retried.
# KTEST_SABOTAGE_BOOT=N (for harness-negative.sh only): the first N
# attempts boot with an init that does not exist, so the kernel panics.
state0=$(image_state)
attempt=1
retried=0
while :; do
	rm -rf "$dir/out"
	mkdir -p "$dir/out" || die "cannot create $dir/out"
	rm -f "$dir/out.img"
	truncate -s 64M "$dir/out.img"
	append=$cmdline
	if [ "$attempt" -le "${KTEST_SABOTAGE_BOOT:-0}" ]; then
		say "test hook: attempt $attempt boots with a missing init (KTEST_SABOTAGE_BOOT)"
		append="$append rdinit=/ktest-no-such-init"
	fi
	console=$dir/console.log
	start=$(date +%s)
	timeout -s KILL "$tmo" qemu-system-x86_64 \
		-nodefaults -no-user-config -display none -no-reboot \
		-machine "pc,accel=$accel" -cpu max -smp 1 -m "$mem" \
		-kernel "$vmlinux" -initrd "$initrd" \
		-append "$append" \
		-serial "file:$console" \
		"$@" > "$dir/qemu.log" 2>&1
	qrc=$?
	elapsed=$(($(date +%s) - start))
	tr -d '\r' < "$console" > "$console.txt" 2>/dev/null
	console=$console.txt
	if [ $attempt -eq 1 ] && ! grep -q '^KTEST-SCENARIO' "$console"; then
		if [ "$(image_state)" = "$state0" ]; then
			mkdir -p "$dir/attempt1"
			mv -f "$dir/console.log" "$console" "$dir/qemu.log" "$dir/attempt1/"
			say "BOOT FAILURE on attempt 1 (QEMU exit $qrc after ${elapsed}s; the scenario never started, the images are untouched): RETRYING ONCE; first attempt's console in $dir/attempt1"
			grep -E '^<[0-3]>\[|Kernel panic|^KTEST-' "$dir/attempt1/console.log.txt" | tail -n 8 | sed 's/^/  | /'
			attempt=2
			retried=1
			continue
		fi
		say "the scenario never started, but an image has changed: no retry"
	fi
	break
done
[ $retried -eq 0 ] || say "this verdict is from attempt 2 (attempt 1 failed at boot)"

# Print the scenario's own output (lines that are not kernel messages).
grep -v -e '^<[0-9]*>\[' -e '^KTEST-' "$console" 2>/dev/null | sed 's/^/  guest: /' | head -n 80

verdict=0
if [ $qrc -eq 137 ]; then
	say "TIMEOUT after ${tmo}s"
	verdict=4
elif [ $qrc -ne 0 ]; then
	say "QEMU failed (exit $qrc):"
	tail -n 5 "$dir/qemu.log"
	verdict=4
elif ! grep -q '^KTEST-BOOTED' "$console"; then
	say "the guest did not boot (no init marker on the console)"
	verdict=4
fi
grep '^KTEST-ERROR' "$console" | sed 's/^/  /'

(cd "$dir/out" && tar xf ../out.img 2>/dev/null)
status=
[ -f "$dir/out/rc" ] && status=$(cat "$dir/out/rc")
if [ -z "$status" ]; then
	status=$(sed -n 's/^KTEST-RESULT: //p' "$console" | tail -n 1)
fi
if [ $verdict -eq 0 ]; then
	if [ -z "$status" ]; then
		say "the guest stopped without a result"
		verdict=4
	elif [ "$status" = power-cut ]; then
		[ $expect_reset -eq 1 ] || { say "unexpected power cut"; verdict=1; }
	elif [ $expect_reset -eq 1 ]; then
		say "scenario ended with status $status instead of a power cut"
		verdict=1
	elif [ "$status" != 0 ]; then
		say "scenario exit status $status"
		verdict=1
	fi
fi

# Kernel complaints.  Crash reports count wherever they are; F2FS lines count
# when logged at warning level or above, or when their text reports a problem.
crash='Kernel panic|BUG:|WARNING:|Oops|Call Trace|general protection fault|kernel BUG at|Unable to handle kernel|blocked for more than'
f2fs_bad='[Ee]rror|[Ii]nconsisten|[Cc]orrupt|[Mm]ismatch|[Ii]nvalid|[Ff]ail|[Ww]rong|fsck|[Cc]an.t|[Cc]annot|[Bb]ad '
grep -E '^<[0-9]+>\[' "$console" | grep -E \
	-e "$crash" \
	-e '^<[0-4]>\[[^]]*\] F2FS-fs' \
	-e "F2FS-fs.*($f2fs_bad)" \
	-e 'I/O error|Quota error|EXT4-fs error' > "$dir/complaints" || true
if [ -n "$allow" ]; then
	grep -Ev -e "$allow" "$dir/complaints" > "$dir/complaints.kept" || true
	mv -f "$dir/complaints.kept" "$dir/complaints"
fi
if [ -s "$dir/complaints" ]; then
	say "KERNEL COMPLAINED ($(wc -l < "$dir/complaints") lines):"
	head -n 20 "$dir/complaints" | sed 's/^/  /'
	verdict=$((verdict | 2))
fi

if [ $verdict -eq 0 ]; then
	say "pass (${elapsed}s)"
else
	say "FAIL, code $verdict (${elapsed}s); console: $console"
	if [ $((verdict & 4)) -ne 0 ]; then
		echo "  last console lines:"
		tail -n 15 "$console" | sed 's/^/  | /'
	fi
fi
exit $verdict
