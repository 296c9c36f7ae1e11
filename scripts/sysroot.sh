#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Make (or reuse) the Debian sysroot that holds a kernel series the host's
# Debian release does not ship, without touching the host's apt sources:
# on Debian 12, 7.3 (trixie-backports) and 7.2 (sid), whose headers ask
# for gcc-14 or gcc-16 and their kbuild programs for a newer glibc than
# Debian 12's; on Debian 13, those and 6.1 (bookworm). The sysroot is a
# minimal Debian system of the suite that ships the series, in
# <cache>/sysroot/<suite>/, with that kernel's image, headers, modules and
# source, the compiler its headers name, what the debug kernel is built
# with, and a sparse that reads its headers. scripts/find-kernel.sh
# lists its kernels once it is marked ready; the builds run chrooted in it
# (find-kernel.sh --exec). scripts/install-deps.sh calls this.
#
#   scripts/sysroot.sh SERIES     7.3 (trixie-backports), 7.2 (sid) or
#                                 6.1 (bookworm, for a Debian 13 host)
#
# Environment: IPAT_CACHE (default ~/.cache/inode-patterns); IPAT_MIRROR,
# the Debian mirror (default: the one the host's apt installs base-files
# from); IPAT_SECURITY_MIRROR, bookworm-security's (default: the host's
# apt's security archive).
set -eu
{
cd "$(dirname "$0")/.."

log() { echo "sysroot: $*" >&2; }
die() { log "$*"; exit 1; }

[ $# -eq 1 ] || die "usage: scripts/sysroot.sh SERIES"
series=$1
# The suite debootstrap makes, the one the kernel comes from, and where
# sparse comes from: the suite's package, or sid's source (below).
# bookworm's 6.1 kernels are in its security archive (6.1.0-57-amd64),
# its point release holds an older one.
case $series in
6.1) base=bookworm suite=bookworm sparse=package ;;
7.3) base=trixie suite=trixie-backports sparse=sid ;;
7.2) base=sid suite=sid sparse=sid ;;
*) die "no sysroot for kernel series '$series' (known: 6.1 7.2 7.3)" ;;
esac
cache=${IPAT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/inode-patterns}
root=$cache/sysroot/$suite
[ "$(id -u)" = 0 ] || die "making $root needs root (debootstrap, chroot)"

# gcc: the debug kernel's compiler, the one the headers ask for being a
# dependency of theirs; then scripts/install-deps.sh's kbuild list; dkms
# and openssl: tests/host/40-dkms.sh builds with the suite's own DKMS. The
# kernel's own packages are added below.
tools="gcc make libc6-dev flex bison bc libelf-dev dwarves kmod xz-utils dkms openssl"
[ "$sparse" = sid ] || tools="$tools sparse"

# Ready, holding a kernel of the series and every tool: nothing to do.
# shellcheck disable=SC2086 # $tools is a list of packages
ready() {
	[ -f "$root/.ipat-ready" ] &&
		compgen -G "$root/boot/vmlinuz-$series.*" >/dev/null &&
		dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${db:Status-Abbrev}\n' \
			$tools 2>/dev/null | grep -c '^ii' | grep -qx "$(echo $tools | wc -w)"
}
if ready; then
	log "reusing $root"
	exit 0
fi
mkdir -p "$cache/sysroot"
exec 9>"$cache/sysroot/lock"
flock 9
ready && { log "reusing $root"; exit 0; }

start=$(date +%s)
mirror=${IPAT_MIRROR:-$(apt-cache policy base-files |
	awk '$2 ~ /^(https?|file):/ { print $2; exit }')}
[ -n "$mirror" ] || die "no Debian mirror in the host's apt lists (apt-cache policy base-files): run apt-get update, or set IPAT_MIRROR"
command -v debootstrap >/dev/null || die "debootstrap is not installed"
security=
if [ "$base" = bookworm ]; then
	security=${IPAT_SECURITY_MIRROR:-$(apt-cache policy |
		awk '$2 ~ /^(https?|file):/ && $3 ~ /-security\// { print $2; exit }')}
	[ -n "$security" ] || die "no Debian security archive in the host's apt lists (apt-cache policy): set IPAT_SECURITY_MIRROR"
fi
if [ ! -f "$root/.ipat-debootstrapped" ]; then
	log "debootstrap $base into $root from $mirror (a minute or two)"
	rm -rf "$root"
	debootstrap --variant=minbase "$base" "$root" "$mirror" \
		>"$cache/sysroot/$suite.log" 2>&1 ||
		{ tail -n 20 "$cache/sysroot/$suite.log" >&2; die "debootstrap failed"; }
	touch "$root/.ipat-debootstrapped"
fi

# The sysroot's own apt, never the host's. deb-src: sparse's source, below.
# Check-Valid-Until: the mirror these machines reach serves Release files
# frozen past their Valid-Until date, which apt otherwise refuses.
{
	[ "$suite" = "$base" ] || echo "deb $mirror $suite main"
	[ -z "$security" ] || echo "deb $security $base-security main"
	echo "deb-src $mirror sid main"
} >"$root/etc/apt/sources.list.d/ipat.list"
echo 'Acquire::Check-Valid-Until "false";' >"$root/etc/apt/apt.conf.d/99ipat-valid-until"
in_root() { chroot "$root" env DEBIAN_FRONTEND=noninteractive INITRD=No "$@"; }
in_root apt-get update >"$cache/sysroot/$suite.log" 2>&1 ||
	{ tail -n 20 "$cache/sysroot/$suite.log" >&2; die "apt-get update failed"; }

# The newest release of the series the suite has (7.3.4+deb13-amd64,
# 6.1.0-57-amd64), or the one already here: a sysroot holds one kernel of
# a series, which -k SERIES then names.
release=$(cd "$root/boot" 2>/dev/null && ls -d "vmlinuz-$series."* 2>/dev/null |
	sed 's/^vmlinuz-//' | sort -V | tail -n 1) || true
[ -n "$release" ] || release=$(in_root apt-cache pkgnames "linux-image-$series." |
	grep -E "^linux-image-${series//./\\.}\.[0-9]+(\+[a-z0-9]+|-[0-9]+)-amd64\$" |
	sed 's/^linux-image-//' | sort -V | tail -n 1)
[ -n "$release" ] || die "$suite has no linux-image-$series.*-amd64"
pkgs="linux-image-$release linux-headers-$release linux-source-$series $tools"
log "installing $release and its toolchain from $suite"
# -t: the suite's packages over the base's (backports are pinned below
# it); bookworm's newest are in bookworm-security, which -t would not
# prefer, and need no -t.
target=
[ "$suite" = "$base" ] || target="-t $suite"
# shellcheck disable=SC2086 # a list of packages
in_root apt-get install -y --no-install-recommends $target $pkgs \
	>>"$cache/sysroot/$suite.log" 2>&1 ||
	{ tail -n 20 "$cache/sysroot/$suite.log" >&2; die "apt-get install failed"; }

# Debian's 7.x headers package lacks scripts/checker-valid.sh, which their
# Makefile runs, turning C=2 off with a warning without it: it comes from
# the same version's source package, with the sysroot's tar and xz (the
# host may have no xz). 6.1's Makefile has no such check.
common=/usr/src/linux-headers-${release%-amd64}-common
if grep -q 'scripts/checker-valid\.sh' "$root$common/Makefile"; then
	in_root tar -xJf "/usr/src/linux-source-$series.tar.xz" -C "$common/scripts" \
		--strip-components=2 "linux-source-$series/scripts/checker-valid.sh" ||
		die "no scripts/checker-valid.sh in linux-source-$series"
fi

# Sparse 0.6.4 (bookworm's and trixie's) does not read 7.x headers; sid's
# 0.6.5~rc1 does. Its source, built with the sysroot's compiler, into
# /usr/local/bin, ahead of any sparse a package installs.
if [ "$sparse" = sid ] && [ ! -x "$root/usr/local/bin/sparse" ]; then
	log "building sid's sparse"
	rm -rf "$root/tmp/sparse" && mkdir -p "$root/tmp/sparse"
	in_root sh -c 'cd /tmp/sparse && apt-get source --download-only sparse/sid &&
		tar -xzf sparse_*.orig.tar.gz && cd sparse-*/ &&
		make -j"$(nproc)" sparse && install -m 755 sparse /usr/local/bin/sparse' \
		>>"$cache/sysroot/$suite.log" 2>&1 ||
		{ tail -n 20 "$cache/sysroot/$suite.log" >&2; die "building sparse failed"; }
	rm -rf "$root/tmp/sparse"
fi
in_root apt-get clean
touch "$root/.ipat-ready"
log "ready: $root ($release, in $(($(date +%s) - start))s)"
exit 0
}
