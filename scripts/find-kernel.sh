#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The one place that knows where each kernel the module can be built for
# and booted on lives: its image, headers, modules and toolchain. Every
# stage asks it (the builds, the guest images, the boots, bench, layout,
# gdb, DKMS). The running kernel is never considered on its own: the module
# is built for, and loaded into, a QEMU guest booting that image.
#
# A kernel is one with both headers (<root>/usr/src/linux-headers-<ver>)
# and a bootable image (<root>/boot/vmlinuz-<ver>), where <root> is
#   /   the host: its Debian release's own kernels (Debian 12's or 13's),
#       built with the host's gcc;
#   a sysroot, <cache>/sysroot/<suite>/: a Debian system of the suite that
#       ships the kernel (scripts/sysroot.sh), whose headers ask for that
#       suite's compiler and glibc, so its modules are built chrooted in it.
#       Only a sysroot marked ready (.ipat-ready) counts.
#
#   scripts/find-kernel.sh              the newest kernel
#   scripts/find-kernel.sh --all        every one, oldest first
#   scripts/find-kernel.sh --match SPEC the one kernel SPEC names: a release
#                                       (7.3.4+deb13-amd64) or a series
#                                       (7.3); fails, saying why, when none
#                                       or more than one matches
#   scripts/find-kernel.sh --series VER VER's series: 6.12.118+deb12-amd64 -> 6.12
#   scripts/find-kernel.sh --root VER   its root: / or the sysroot
#   scripts/find-kernel.sh --image VER  its image, as the host sees it
#   scripts/find-kernel.sh --headers VER   its headers, as the host sees
#                                       them
#   scripts/find-kernel.sh --kdir VER   its headers as KDIR of a build run
#                                       by --exec (inside its root)
#   scripts/find-kernel.sh --modules VER   its modules' directory
#   scripts/find-kernel.sh --exec VER CMD [ARG...]
#                                       run CMD with the kernel's toolchain,
#                                       in the current directory: on the host,
#                                       or chrooted in its sysroot, where the
#                                       repository and the cache are at the
#                                       same paths as here (needs root)
#
# Environment: IPAT_CACHE (default ~/.cache/inode-patterns).
set -eu
cache=${IPAT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/inode-patterns}

die() { echo "find-kernel: $*" >&2; exit 1; }

# Every kernel, "<root> <release>", oldest first; the host's root is "/".
kernels() {
	for img in /boot/vmlinuz-* "$cache"/sysroot/*/boot/vmlinuz-*; do
		[ -e "$img" ] || continue
		root=${img%/boot/vmlinuz-*}
		[ -n "$root" ] || root=/
		[ "$root" = / ] || [ -f "$root/.ipat-ready" ] || continue
		ver=${img##*/vmlinuz-}
		[ -d "${root%/}/usr/src/linux-headers-$ver" ] && echo "$root $ver"
	done | sort -V -k 2
}

series_of() {
	echo "$1" | sed -n 's/^\([0-9]*\.[0-9]*\)[.-].*/\1/p'
}

# The root of release $1, or a failure naming it.
root_of() {
	r=$(kernels | awk -v v="$1" '$2 == v { print $1; exit }')
	[ -n "$r" ] || die "no kernel $1 (scripts/find-kernel.sh --all lists them)"
	echo "$r"
}

case ${1:-} in
"")
	kernels | tail -n 1 | cut -d' ' -f2
	;;
--all)
	kernels | cut -d' ' -f2
	;;
--series)
	[ $# -eq 2 ] || die "usage: --series VER"
	series_of "$2"
	;;
--match)
	[ $# -eq 2 ] || die "usage: --match RELEASE|SERIES"
	found=$(kernels | cut -d' ' -f2 | while read -r ver; do
		if [ "$ver" = "$2" ] || [ "$(series_of "$ver")" = "$2" ]; then
			echo "$ver"
		fi
	done)
	[ -n "$found" ] || die "no kernel matches '$2'"
	[ "$(echo "$found" | wc -l)" = 1 ] ||
		die "'$2' matches more than one kernel: $(echo "$found" | tr '\n' ' ')- name one by its release"
	echo "$found"
	;;
--root)
	[ $# -eq 2 ] || die "usage: --root VER"
	root_of "$2"
	;;
--kdir)
	[ $# -eq 2 ] || die "usage: --kdir VER"
	root_of "$2" >/dev/null
	echo "/usr/src/linux-headers-$2"
	;;
--image | --headers | --modules)
	[ $# -eq 2 ] || die "usage: $1 VER"
	r=$(root_of "$2")
	r=${r%/}
	case $1 in
	--image) echo "$r/boot/vmlinuz-$2" ;;
	--headers) echo "$r/usr/src/linux-headers-$2" ;;
	--modules) echo "$r/lib/modules/$2" ;;
	esac
	;;
--exec)
	[ $# -ge 3 ] || die "usage: --exec VER CMD [ARG...]"
	r=$(root_of "$2")
	shift 2
	[ "$r" != / ] || exec "$@"
	# A mount namespace of its own: the bind mounts and /proc (objtool
	# reads it) go when the command ends, whatever happens to it. The
	# repository and the cache appear at their own paths, so the paths
	# the caller passes mean the same inside. Debian's headers are used
	# at their own path inside (--kdir): through the cache's, Kbuild
	# finds neither its objects nor the kernel's symbols.
	repo=$(cd "$(dirname "$0")/.." && pwd)
	[ "$(id -u)" = 0 ] || die "building for $r's kernels needs root (unshare, chroot)"
	exec unshare --mount --propagation private sh -c '
		r=$1 repo=$2 cache=$3 dir=$4
		shift 4
		for d in "$repo" "$cache"; do
			mkdir -p "$r$d" && mount --bind "$d" "$r$d" || exit 1
		done
		mount -t proc proc "$r/proc" || exit 1
		exec chroot "$r" sh -c '\''cd "$0" && exec "$@"'\'' "$dir" "$@"
	' sh "$r" "$repo" "$cache" "$PWD" "$@"
	;;
*)
	die "usage: find-kernel.sh [--all | --match SPEC | --series VER | --root VER | --image VER | --headers VER | --kdir VER | --modules VER | --exec VER CMD...]"
	;;
esac
