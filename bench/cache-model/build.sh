#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the ipat-cache plugin against the installed QEMU's qemu-plugin.h
# (fetched once from Debian's qemu source package, fetch-header.sh) into
# build/cache-model/ipat-cache.so, and print its path on the last line.
# Installs qemu-user (user-mode qemu-x86_64) and gcc if they are missing,
# and glib's headers where qemu-plugin.h includes them (QEMU 9.0 on).
#
#   bench/cache-model/build.sh
#
# Exit status: 0 built; 1 failed; 2 the header could not be fetched (no
# network to the Debian archive).
set -eu
cd "$(dirname "$0")/../.."

missing=
for pkg in qemu-user gcc; do
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null)" = installed ] ||
		missing="$missing $pkg"
done
# shellcheck disable=SC2086 # a list of package names
[ -z "$missing" ] || scripts/install-deps.sh $missing >&2

rc=0
header=$(bench/cache-model/fetch-header.sh) || rc=$?
[ "$rc" = 0 ] || exit "$rc"

# From QEMU 9.0 on (Debian 13's 10.0), the header includes <glib.h>.
glib=
if grep -q '^#include <glib.h>' "$header"; then
	for pkg in libglib2.0-dev pkg-config; do
		[ "$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null)" = installed ] ||
			scripts/install-deps.sh "$pkg" >&2
	done
	glib=$(pkg-config --cflags glib-2.0)
fi

out=build/cache-model
mkdir -p "$out"
# shellcheck disable=SC2086 # glib's flags, one word each
gcc -O2 -g -shared -fPIC -fvisibility=hidden -std=gnu11 -Wall -Wextra -Werror \
	-Wno-unused-parameter -I"$(dirname "$header")" $glib \
	-o "$out/ipat-cache.so.tmp" bench/cache-model/ipat-cache.c -lpthread
mv "$out/ipat-cache.so.tmp" "$out/ipat-cache.so"
echo "$out/ipat-cache.so"
