#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build build/initramfs.cpio.gz, the guest's whole root filesystem:
# busybox, kmod, the module (with depmod data, so modprobe and the
# kernel's fs-<type> autoload work), the guest tests and their static
# programs, the label test's SELinux policy, and qemu/init as /init. The module's vermagic decides the
# kernel version; it is saved in build/initramfs.kver for qemu/run.sh.
#
# The image is rebuilt from scratch every time (about a second). The test
# programs are built before, into build/prog/ (and the bench's ipat-bench
# into build/bench-prog/), by scripts/build-progs.sh: this script only
# packs them, with the bench's guest driver, and stops if one is missing
# or older than its sources.
#
# For a kernel that is built here, not installed (the debug kernel,
# tests/run-qemu.sh --debug-only):
#   IPAT_KO          the module to put in (default: inode_patterns.ko)
#   IPAT_KO_EXTRA    more modules for extra/, space-separated
#   IPAT_KDIR        the kernel's tree, for its modules.builtin files
#   IPAT_INITRAMFS   the image (default build/initramfs.cpio.gz); its kernel
#                    version goes beside it in <image minus .cpio.gz>.kver
#   IPAT_PROGS       only these programs of build/prog/ (names without .c;
#                    scripts/demo.sh: seed-crng, which qemu/init runs), and
#                    none of the host's; default: all of them, and the
#                    host programs the tests run; ipat-bench always goes in
# And for any kernel:
#   IPAT_GUEST_MODULES  the kernel's own modules the guest tests load, with
#                    what they depend on (default: overlay, for
#                    tests/guest/46-overlayfs.sh). One built into the kernel
#                    needs nothing; one the kernel lacks is left out with a
#                    note for a kernel built here (IPAT_KDIR: its tests
#                    skip, saying why), and fails the build for an
#                    installed one.
set -eu
cd "$(dirname "$0")/.."

ko=${IPAT_KO:-inode_patterns.ko}
kdir=${IPAT_KDIR:-}
[ -f "$ko" ] || { echo "mkinitramfs: $ko is not built; run make" >&2; exit 1; }
kver=$(modinfo -F vermagic "$ko" | cut -d' ' -f1)
# An installed kernel's modules are under its root (scripts/find-kernel.sh):
# / for the host's kernels, a sysroot for the others.
kroot=/
if [ -z "$kdir" ]; then
	kroot=$(scripts/find-kernel.sh --root "$kver" 2>/dev/null) ||
		{ echo "mkinitramfs: $ko is for $kver, which is not installed" >&2; exit 1; }
fi
kmods=${kroot%/}/lib/modules/$kver
# The test programs, built (make -q: nothing to remake).
if ! MAKEFLAGS='' make -q -C tests/prog PROGS="${IPAT_PROGS:-}" >/dev/null 2>&1 ||
	! MAKEFLAGS='' make -q -C bench/prog >/dev/null 2>&1; then
	echo "mkinitramfs: the test programs${IPAT_PROGS:+ $IPAT_PROGS} in build/prog/, or ipat-bench in build/bench-prog/, are missing or older than their sources; run scripts/build-progs.sh${IPAT_PROGS:+ $IPAT_PROGS} (make progs)" >&2
	exit 1
fi
if ldd /bin/busybox >/dev/null 2>&1; then
	echo "mkinitramfs: /bin/busybox is not static; install busybox-static" >&2
	exit 1
fi

out=${IPAT_INITRAMFS:-build/initramfs.cpio.gz}
root=${out%.cpio.gz}
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,tmp,mnt,root}
mkdir -p "$root"/tests/{bin,guest,selftest,lib}

# busybox and its applets, as symlinks.
cp /bin/busybox "$root/bin/busybox"
for applet in $(/bin/busybox --list-full); do
	[ "$applet" = bin/busybox ] && continue
	mkdir -p "$root/${applet%/*}"
	ln -s /bin/busybox "$root/$applet"
done

# kmod's tools replace busybox's applets of the same name.
cp /bin/kmod "$root/bin/kmod"
for tool in modprobe depmod lsmod rmmod insmod modinfo; do
	find "$root" -name "$tool" -type l -delete
	ln -s /bin/kmod "$root/sbin/$tool"
done
# kmod is dynamic: copy its libraries and the loader to the same paths.
for lib in $(ldd /bin/kmod | awk '$2 == "=>" && $3 ~ /^\// { print $3 }
				   $1 ~ /^\// { print $1 }'); do
	mkdir -p "$root/${lib%/*}"
	cp -L "$lib" "$root/$lib"
done
ln -s /proc/mounts "$root/etc/mtab"

# Dynamic host programs that guest tests run, with their libraries:
# stress-ng for tests/guest/75-stress-ng.sh, which fails without it. Not in
# an image of chosen programs (the demo's, the cache mode's): under icount
# an image of another size leaves other pages free and moves the counts,
# so what such an image holds may not depend on what the host installed.
guest_progs="/usr/bin/stress-ng"
[ -z "${IPAT_PROGS:-}" ] || guest_progs=
for prog in $guest_progs; do
	if [ ! -x "$prog" ]; then
		echo "mkinitramfs: $prog is not installed: not in the image (scripts/install-deps.sh installs it)" >&2
		continue
	fi
	cp "$prog" "$root/usr/bin/"
	for lib in $(ldd "$prog" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }
					$1 ~ /^\// { print $1 }'); do
		mkdir -p "$root/${lib%/*}"
		cp -L "$lib" "$root/$lib"
	done
done

# The SELinux policy of the label test (tests/guest/56-labels.sh), which
# loads it in a boot with security=selinux (tests/harness/selinux.sh):
# compiled here, as it is small. Left out, as the host's programs are, of
# an image of chosen programs; without checkpolicy the test fails in that
# boot, saying so. Policy version 33, which every kernel here reads: 6.1
# and 6.12 read no newer, and Debian 13's checkpolicy writes 34 unless told.
if [ -z "${IPAT_PROGS:-}" ]; then
	if command -v checkpolicy >/dev/null; then
		mkdir -p "$root/tests/selinux"
		checkpolicy -c 33 -U allow -o "$root/tests/selinux/policy" \
			tests/selinux/policy.conf >/dev/null
	else
		echo "mkinitramfs: checkpolicy is not installed: no SELinux policy in the image (scripts/install-deps.sh installs it)" >&2
	fi
fi

# The module, the distribution modules it and the guest tests need
# (IPAT_GUEST_MODULES), and depmod's index.
moddir=$root/lib/modules/$kver
mkdir -p "$moddir/extra"
cp "$ko" "$moddir/extra/"
for extra in ${IPAT_KO_EXTRA:-}; do cp "$extra" "$moddir/extra/"; done
cp "${kdir:-$kmods}"/modules.builtin* "$moddir/" 2>/dev/null || true
todo=$(modinfo -F depends "$ko" | tr , ' ')
for mod in ${IPAT_GUEST_MODULES-overlay}; do
	if grep -qE "(^|/)$mod\.ko(\.[a-z]+)?\$" "$moddir/modules.builtin" 2>/dev/null; then
		continue
	fi
	if ! modinfo -b "$kroot" -k "$kver" -n "$mod" >/dev/null 2>&1; then
		if [ -z "$kdir" ]; then
			echo "mkinitramfs: no module $mod for $kver (IPAT_GUEST_MODULES)" >&2
			exit 1
		fi
		echo "mkinitramfs: note: kernel $kver has no $mod, built in or as a module: its tests will skip" >&2
		continue
	fi
	todo="$todo $mod"
done
while [ -n "${todo// /}" ]; do
	read -r dep todo <<<"$todo"
	path=$(modinfo -b "$kroot" -k "$kver" -n "$dep")
	dest=$moddir/${path#"$kmods"/}
	# Stored decompressed: 6.12's overlay.ko.xz, handed to the kernel
	# as it is by the guest's kmod, logs "Invalid ELF header magic".
	dest=${dest%.xz}
	dest=${dest%.zst}
	[ -e "$dest" ] && continue
	mkdir -p "${dest%/*}"
	case $path in
	*.xz) xz -dc "$path" >"$dest" ;;
	*.zst) zstd -qdc "$path" >"$dest" ;;
	*) cp "$path" "$dest" ;;
	esac
	todo="$todo $(modinfo -F depends "$path" | tr , ' ')"
done
(cd "$moddir" && find . -name '*.ko' | sed 's,^\./,,') >"$moddir/modules.order"
depmod -b "$root" "$kver"

# The test programs (make install copies them; nothing is left to build)
# and the guest tests: the harness's self-tests go to /tests/selftest/,
# which qemu/init runs for ipat.selftest=1. Their settings files are the
# time limits qemu/init reads.
MAKEFLAGS='' make -s -C tests/prog install \
	DEST="$(realpath "$root/tests/bin")" PROGS="${IPAT_PROGS:-}" >/dev/null
cp tests/guest/*.sh tests/guest/settings "$root/tests/guest/"
cp tests/harness/selftest/guest/*.sh tests/harness/selftest/guest/settings "$root/tests/selftest/"
cp tests/lib/*.sh "$root/tests/lib/"
MAKEFLAGS='' make -s -C bench/prog install DEST="$(realpath "$root/tests/bin")" >/dev/null
# The bench's guest driver, and its awk for ipat.bench_trace.
mkdir -p "$root/bench"
cp bench/guest.sh bench/ftrace-profile.awk "$root/bench/"
install -m 755 qemu/init "$root/init"

# The kernel opens /dev/console for init before /init runs, so the node
# must be in the archive. mknod would need root: write its cpio entry by
# hand as a second archive (newc format; the kernel reads both).
console_cpio() {
	local name
	for name in dev/console TRAILER!!!; do
		if [ "$name" = dev/console ]; then
			# ino mode uid gid nlink mtime size maj min rmaj rmin namesize check
			printf '070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X' \
				1 $((8#20600)) 0 0 1 0 0 0 0 5 1 $((${#name} + 1)) 0
		else
			printf '070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X' \
				0 0 0 0 1 0 0 0 0 0 0 $((${#name} + 1)) 0
		fi
		printf '%s\0' "$name"
		# The 110-byte header plus the name is padded to 4 bytes.
		head -c $(((4 - (110 + ${#name} + 1) % 4) % 4)) /dev/zero
	done
}

# The same files make the same bytes, whenever and wherever they were
# built: no dates, no inode numbers. Under icount a guest booted twice on
# one image runs the same instructions; on images that differ in a byte
# its figures may move (docs/benchmark.md, repeatability).
find "$root" -exec touch -h -d @0 {} +
{
	(cd "$root" && find . -mindepth 1 | LC_ALL=C sort |
		cpio -o -H newc -R 0:0 --reproducible --quiet)
	console_cpio
} | gzip -n -6 >"$out.tmp"
mv "$out.tmp" "$out"
echo "$kver" >"${out%.cpio.gz}.kver"
echo "mkinitramfs: $out for $kver ($(du -k "$out" | cut -f1) KiB)"
