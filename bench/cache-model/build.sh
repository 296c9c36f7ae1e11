#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the ipat-cache plugin against the installed QEMU's qemu-plugin.h
# (fetched once from Debian's qemu source package, fetch-header.sh) into
# build/cache-model/ipat-cache.so, and print its path on the last line.
# Installs qemu-user (user-mode qemu-x86_64) and gcc if they are missing.
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

out=build/cache-model
mkdir -p "$out"
gcc -O2 -g -shared -fPIC -fvisibility=hidden -std=gnu11 -Wall -Wextra -Werror \
	-Wno-unused-parameter -I"$(dirname "$header")" \
	-o "$out/ipat-cache.so.tmp" bench/cache-model/ipat-cache.c -lpthread
mv "$out/ipat-cache.so.tmp" "$out/ipat-cache.so"
echo "$out/ipat-cache.so"
