#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages this project needs, and only those missing.
# Every entry point (.ci/run, tests/run-qemu.sh, scripts/demo.sh) calls
# this, so a fresh machine needs nothing installed by hand.
#
#   scripts/install-deps.sh [extra-package...]    everything the tests need
#   scripts/install-deps.sh --demo [extra-package...]
#                 only what scripts/demo.sh needs: each series' kernel
#                 image and headers, QEMU, and what builds the module and
#                 the guest image (no kernel sources, no test tools)
#   scripts/install-deps.sh --kernel-build
#                 only what scripts/debug-kernel.sh needs: each series'
#                 kernel source and the compiler; tests/run-qemu.sh
#                 installs these first, to start building the debug
#                 kernels while it installs the rest
#   IPAT_EXTRA_DEPS="stress-ng gnuplot" scripts/install-deps.sh
#   IPAT_SERIES="6.1" scripts/install-deps.sh   one kernel series only
#                 (default: "6.1 6.12 7.3": Debian 12's, Debian 13's, and
#                 trixie-backports' newest; 7.2, sid's, on request)
#
# On a Debian 12 or 13 host. The series the host's release ships are
# installed on the host. Any other, whose headers ask for another compiler
# and glibc than the host has, is installed with its toolchain in a
# sysroot of the suite that ships it (scripts/sysroot.sh, in every mode),
# made with the host's debootstrap: the host's apt sources are left as
# they are.
set -eu
cd "$(dirname "$0")/.."

mode=all
case ${1:-} in
--demo) mode=demo; shift ;;
--kernel-build) mode=kernel-build; shift ;;
esac

# The kernels, by the host's Debian release: for each series, the image
# and headers packages (the module's build) of the host's own, whose
# source, linux-source-<series>, builds the debug kernel (checkpatch.pl
# comes from the newest); or "sysroot". Debian 12: 6.1 is bookworm's own,
# 6.12 comes from bookworm-security. Debian 13: 6.12 is trixie's own, 6.1
# is in a bookworm sysroot. 7.3 (trixie-backports, which a Debian 13
# host's sources may lack) and 7.2 (sid) are in sysroots on both.
release=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
case $release in
bookworm) table='
	6.1	linux-image-amd64 linux-headers-amd64
	6.12	linux-image-6.12-amd64 linux-headers-6.12-amd64
	7.2	sysroot
	7.3	sysroot' ;;
trixie) table='
	6.1	sysroot
	6.12	linux-image-amd64 linux-headers-amd64
	7.2	sysroot
	7.3	sysroot' ;;
*) echo "install-deps: the host is '${release:-unknown}' (/etc/os-release); supported: Debian 12 (bookworm) and 13 (trixie), amd64" >&2
   exit 1 ;;
esac
series=${IPAT_SERIES:-6.1 6.12 7.3}
kernels='' sysroots=''
for s in $series; do
	image=$(echo "$table" | awk -v s="$s" '$1 == s { $1 = ""; print substr($0, 2) }')
	case $image in
	'') echo "install-deps: unknown kernel series '$s'" \
		"(known:$(echo "$table" | awk 'NF { printf " %s", $1 }'))" >&2; exit 1 ;;
	sysroot) sysroots="$sysroots $s"; continue ;;
	esac
	case $mode in
	demo) kernels="$kernels $image" ;;
	kernel-build) kernels="$kernels linux-source-$s" ;;
	all) kernels="$kernels $image linux-source-$s" ;;
	esac
done

# libc6-dev: static libc for the guest programs, and the C library the
# kernel's host programs are built with; rsync copies sources for
# scripts/build-module.sh; xz-utils: qemu/mkinitramfs.sh decompresses the
# kernel's modules (6.12's and 7.3's overlay.ko.xz), and a minimal system
# has no xz. The demo needs these and no more.
base="$kernels qemu-system-x86 busybox-static kmod cpio gcc make libc6-dev rsync xz-utils"
# The debug kernels are built with flex, bison, bc and libelf-dev
# (objtool), from the tarball (xz-utils); Kconfig records pahole's version
# (dwarves), which must not change under a build that has started.
kbuild="flex bison bc libelf-dev xz-utils dwarves"
[ -z "$sysroots" ] || base="$base debootstrap"
if [ "$mode" = kernel-build ]; then
	base="$kernels gcc make libc6-dev $kbuild${sysroots:+ debootstrap}"
elif [ "$mode" = all ]; then
	# sparse: make C=2 and scripts/build-module.sh.
	base="$base sparse"
	# stress-ng: copied into the guest for tests/guest/75-stress-ng.sh.
	base="$base stress-ng"
	# The kernel-quality tier: the debug kernels; dkms for
	# tests/host/40-dkms.sh, and openssl for its throw-away signing key.
	base="$base $kbuild dkms openssl"
	# python3: the kernel's kunit.py reads our KTAP in
	# tests/harness/selftest/host/60-ktap.sh; coccinelle: the survey's
	# semantic patches (make survey, tests/host/70-survey.sh).
	base="$base python3 coccinelle"
	# qemu-user runs the cache model on known programs
	# (tests/host/85-cache-model.sh); dwarves' pahole (in $kbuild) prints
	# the layouts (make layout, tests/host/86-layout.sh); gdb, make gdb and
	# its tour (tests/host/80-gdb-tour.sh), and zstd, which unpacks 7.x's
	# vmlinuz for the kernel's types (scripts/gdb/kernel-types.sh).
	base="$base qemu-user gdb zstd"
	# checkpolicy compiles tests/selinux/policy.conf into the guest image,
	# for the label test's SELinux boot (tests/harness/selinux.sh).
	base="$base checkpolicy"
fi

missing=
for pkg in $base ${IPAT_EXTRA_DEPS:-} "$@"; do
	status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
	[ "$status" = installed ] || missing="$missing $pkg"
done

if [ -n "$missing" ]; then
	sudo=
	if [ "$(id -u)" -ne 0 ]; then
		command -v sudo >/dev/null ||
			{ echo "install-deps: need root or sudo to install:$missing" >&2; exit 1; }
		sudo=sudo
	fi
	echo "install-deps: installing:$missing"
	$sudo apt-get update ||
		{ echo "install-deps: apt-get update failed" >&2; exit 1; }
	# Debian's kernel packages make an initramfs for the host to boot them
	# with, each twice (the package, then initramfs-tools' trigger): most
	# of a fresh install's time. The guests boot images of their own.
	# Where no boot loader is installed (a container, or a virtual machine
	# booted from outside, as CI's are), nothing boots from /boot, and the
	# hooks are told to skip it (INITRD=No). With a boot loader the new
	# kernel may become the host's default entry, and needs it.
	initrd=
	dpkg-query -W -f='${db:Status-Abbrev}\n' 'grub-*' systemd-boot lilo 2>/dev/null |
		grep -q '^ii' || initrd=INITRD=No
	# shellcheck disable=SC2086 # $missing is a list of package names
	$sudo env DEBIAN_FRONTEND=noninteractive $initrd \
		apt-get install -y --no-install-recommends $missing ||
		{ echo "install-deps: apt-get install failed for:$missing" >&2; exit 1; }
else
	echo "install-deps: all packages present"
fi

for s in $sysroots; do
	scripts/sysroot.sh "$s" || exit 1
done

# A series asked for but not installable is an error, never a silent skip.
[ "$mode" != kernel-build ] || exit 0
status=0
for s in $series; do
	found=
	for kver in $(scripts/find-kernel.sh --all); do
		[ "$(scripts/find-kernel.sh --series "$kver")" = "$s" ] && found="$found $kver"
	done
	if [ -z "$found" ]; then
		echo "install-deps: no $s kernel with both an image and headers" \
		     "(scripts/find-kernel.sh --all); are its image and headers" \
		     "packages at the same version?" >&2
		status=1
	else
		echo "install-deps: guest kernel(s) of $s:$found"
	fi
done
exit "$status"
