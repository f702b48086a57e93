#!/bin/sh
# Install what the kernel interop tests (tests/kernel) need on Debian:
# QEMU, Debian's own kernel (it has F2FS as a module; the host kernel may
# not), a static busybox for the guest, f2fs-tools as the reference fsck,
# cpio and xz to build the initramfs and unpack the kernel, and a compiler
# with a static libc for the guest helper.  Does nothing when all is there.
# Runs as root (or through sudo when available).  Exit 0 when ready.

set -u
pkgs="qemu-system-x86 linux-image-amd64 busybox-static f2fs-tools cpio xz-utils gcc libc6-dev"

installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

missing=
for p in $pkgs; do
	installed "$p" || missing="$missing $p"
done

if [ -n "$missing" ]; then
	echo "tests/kernel/setup.sh: installing$missing"
	sudo=
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	export DEBIAN_FRONTEND=noninteractive
	rc=0
	$sudo apt-get update -q > /tmp/ktest-apt.log 2>&1 || rc=$?
	if [ $rc -eq 0 ]; then
		# shellcheck disable=SC2086
		$sudo apt-get install -y -q --no-install-recommends $missing >> /tmp/ktest-apt.log 2>&1 ||
			rc=$?
	fi
	if [ $rc -ne 0 ]; then
		echo "tests/kernel/setup.sh: apt-get failed (exit $rc); last lines of /tmp/ktest-apt.log:"
		tail -n 15 /tmp/ktest-apt.log
		exit 1
	fi
fi

# The tests need a kernel image together with its F2FS module.
for k in /boot/vmlinuz-*; do
	v=${k#/boot/vmlinuz-}
	if [ -r "$k" ] && [ -n "$(find "/lib/modules/$v/kernel/fs/f2fs" -name 'f2fs.ko*' 2>/dev/null)" ]; then
		echo "tests/kernel/setup.sh: ready (kernel $v, $(qemu-system-x86_64 --version | head -n 1))"
		exit 0
	fi
done
echo "tests/kernel/setup.sh: no /boot/vmlinuz-* with an F2FS module after installing"
exit 1
