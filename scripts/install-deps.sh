#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages this project needs, and only those missing.
# Every entry point (.ci/run, tests/run-qemu.sh) calls this, so a fresh
# machine needs nothing installed by hand.
#
#   scripts/install-deps.sh [extra-package...]
#   IPAT_EXTRA_DEPS="stress-ng gnuplot" scripts/install-deps.sh
set -eu
cd "$(dirname "$0")/.."

# libc6-dev: static libc for the guest test programs; sparse: make C=1.
base="linux-image-amd64 linux-headers-amd64 qemu-system-x86 busybox-static
kmod cpio gcc make libc6-dev sparse"
# stress-ng: copied into the guest for tests/guest/75-stress-ng.sh.
base="$base stress-ng"
# The kernel-quality tier: checkpatch.pl and the debug kernel come from
# linux-source-6.1, built with flex, bison, bc and libelf-dev (objtool);
# rsync copies sources for scripts/build-module.sh; dkms for
# tests/host/40-dkms.sh, and openssl for its throw-away signing key.
base="$base linux-source-6.1 flex bison bc libelf-dev rsync dkms openssl"

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
	# shellcheck disable=SC2086 # $missing is a list of package names
	$sudo env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y --no-install-recommends $missing ||
		{ echo "install-deps: apt-get install failed for:$missing" >&2; exit 1; }
else
	echo "install-deps: all packages present"
fi

kver=$(scripts/find-kernel.sh)
if [ -z "$kver" ]; then
	echo "install-deps: no kernel with both /boot/vmlinuz-<ver> and" \
	     "/usr/src/linux-headers-<ver>; are linux-image-amd64 and" \
	     "linux-headers-amd64 at the same version?" >&2
	exit 1
fi
echo "install-deps: guest kernel $kver"
