#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The fstests guest's root filesystem: Debian 12 (debootstrap
# --variant=minbase) with what fstests' README asks for to build and run,
# made once into <cache>/fstests/root/ and reused. Then fstests itself,
# built chrooted in it at /opt/fstests from the checkout SRC, rebuilt only
# when SRC is at another commit (/opt/fstests/.ipat-commit).
#
#   fstests/root.sh SRC      SRC: a git checkout of fstests
#
# Prints the root's path on stdout. Environment: IPAT_CACHE (default
# ~/.cache/inode-patterns); IPAT_MIRROR, the Debian mirror (default: the
# one the host's apt installs base-files from, as scripts/sysroot.sh).
set -eu
cd "$(dirname "$0")/.."

log() { echo "fstests-root: $*" >&2; }
die() { log "$*"; exit 1; }

[ $# -eq 1 ] || die "usage: fstests/root.sh FSTESTS-CHECKOUT"
src=$(cd "$1" && pwd)
commit=$(git -C "$src" rev-parse HEAD) || die "$src is not a git checkout"
[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot)"
cache=${IPAT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/inode-patterns}
root=$cache/fstests/root
mkdir -p "$cache/fstests"
exec 9>"$cache/fstests/root.lock"
flock 9

# fstests' README ("Ubuntu or Debian") for building and running, less
# linux-headers, git and the other filesystems' tools; kmod, iproute2
# (lo), procps, util-linux and e2fsprogs, which the guest's init uses.
pkgs="acl attr automake bc dbench dump e2fsprogs fio gawk gcc indent
libacl1-dev libaio-dev libcap-dev libgdbm-dev libtool libtool-bin
liburing-dev libuuid1 lvm2 make psmisc python3 quota sed uuid-dev
uuid-runtime xfsprogs xfslibs-dev sqlite3 libgdbm-compat-dev pkg-config
kmod iproute2 procps util-linux perl libcap2-bin file xz-utils"
in_root() { chroot "$root" env DEBIAN_FRONTEND=noninteractive "$@"; }

if [ ! -f "$root/.ipat-ready" ]; then
	start=$(date +%s)
	mirror=${IPAT_MIRROR:-$(apt-cache policy base-files |
		awk '$2 ~ /^(https?|file):/ { print $2; exit }')}
	[ -n "$mirror" ] || die "no Debian mirror in the host's apt lists: run apt-get update, or set IPAT_MIRROR"
	log "debootstrap bookworm into $root from $mirror"
	rm -rf "$root"
	debootstrap --variant=minbase bookworm "$root" "$mirror" \
		>"$cache/fstests/root.log" 2>&1 ||
		{ tail -n 20 "$cache/fstests/root.log" >&2; die "debootstrap failed"; }
	# The mirror serves Release files past their Valid-Until date
	# (scripts/sysroot.sh). No service may start inside the chroot.
	echo 'Acquire::Check-Valid-Until "false";' >"$root/etc/apt/apt.conf.d/99ipat-valid-until"
	printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
	chmod 755 "$root/usr/sbin/policy-rc.d"
	log "installing fstests' dependencies"
	# shellcheck disable=SC2086 # a list of packages
	{ in_root apt-get update && in_root apt-get install -y --no-install-recommends $pkgs; } \
		>>"$cache/fstests/root.log" 2>&1 ||
		{ tail -n 20 "$cache/fstests/root.log" >&2; die "apt-get failed"; }
	in_root apt-get clean
	# The users fstests' README asks for (fsgqa, fsgqa2, 123456-fsgqa).
	in_root sh -c 'useradd -m fsgqa && useradd -m fsgqa2 &&
		groupadd fsgqa2-grp 2>/dev/null; useradd -m 123456-fsgqa' ||
		die "useradd failed"
	echo fstests >"$root/etc/hostname"
	touch "$root/.ipat-ready"
	log "root made in $(($(date +%s) - start))s"
fi

if [ "$(cat "$root/opt/fstests/.ipat-commit" 2>/dev/null)" != "$commit" ]; then
	start=$(date +%s)
	log "building fstests $commit in $root/opt/fstests"
	rm -rf "$root/opt/fstests"
	mkdir -p "$root/opt/fstests"
	git -C "$src" archive "$commit" | tar -x -C "$root/opt/fstests"
	in_root sh -c 'cd /opt/fstests && make -j"$(nproc)"' \
		>"$cache/fstests/build.log" 2>&1 ||
		{ tail -n 30 "$cache/fstests/build.log" >&2; die "building fstests failed (log: $cache/fstests/build.log)"; }
	echo "$commit" >"$root/opt/fstests/.ipat-commit"
	log "fstests built in $(($(date +%s) - start))s"
fi
echo "$root"
