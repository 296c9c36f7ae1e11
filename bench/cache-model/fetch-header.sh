#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Print the path of qemu-plugin.h for the installed QEMU, fetching it first
# if it is not cached. Debian's qemu-user and qemu-system-x86 ship no
# plugin header; it is in the qemu source package of the same version.
# apt is given a deb-src list for this one command only (its own lists and
# cache in a temporary directory); the machine's sources are not changed.
# Only include/qemu/qemu-plugin.h is kept, in
#   ${IPAT_CACHE:-~/.cache/inode-patterns}/qemu-plugin/<version>/
# keyed by the source version, never in the repository.
#
#   bench/cache-model/fetch-header.sh        print the header's path
#
# Exit status: 0 the header's path printed; 1 no QEMU installed or an
# unexpected failure; 2 the source package could not be downloaded (no
# network to the Debian archive): callers may skip on 2.
set -eu

pkg=
for p in qemu-user qemu-system-x86; do
	if [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" = installed ]; then
		pkg=$p
		break
	fi
done
[ -n "$pkg" ] || { echo "fetch-header: neither qemu-user nor qemu-system-x86 is installed" >&2; exit 1; }
# The source version: the binary's may carry a binNMU suffix (+b3).
version=$(dpkg-query -W -f='${source:Version}' "$pkg")
src=$(dpkg-query -W -f='${source:Package}' "$pkg")
cache=${IPAT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/inode-patterns}/qemu-plugin/${version//:/_}
header=$cache/qemu-plugin.h
if [ -s "$header" ]; then
	echo "$header"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/lists/partial" "$tmp/cache/archives/partial" "$tmp/dl"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
opt=""
[ -r "$keyring" ] && opt="[signed-by=$keyring] "
# The installed version is in the host's release (bookworm, trixie), its
# updates or the security archive: all three, and apt picks the one that
# has it.
release=$(. /etc/os-release && echo "$VERSION_CODENAME")
cat >"$tmp/src.list" <<LIST
deb-src ${opt}http://deb.debian.org/debian $release main
deb-src ${opt}http://deb.debian.org/debian $release-updates main
deb-src ${opt}http://deb.debian.org/debian-security $release-security main
LIST
apt_opts=(-o "Dir::Etc::SourceList=$tmp/src.list" -o "Dir::Etc::SourceParts=-"
	-o "Dir::State::Lists=$tmp/lists" -o "Dir::Cache=$tmp/cache"
	-o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache=")
echo "fetch-header: fetching the $src $version source package for qemu-plugin.h" >&2
if ! apt-get -q "${apt_opts[@]}" update >"$tmp/update.log" 2>&1 ||
	grep -q '^\(Err\|W: Failed\)' "$tmp/update.log"; then
	cat "$tmp/update.log" >&2
	echo "fetch-header: apt-get update of the deb-src lists failed (no network to deb.debian.org?)" >&2
	exit 2
fi
if ! (cd "$tmp/dl" && apt-get -q "${apt_opts[@]}" source --download-only "$src=$version") \
	>"$tmp/source.log" 2>&1; then
	cat "$tmp/source.log" >&2
	if grep -q 'Unable to find a source package\|Can not find version' "$tmp/source.log"; then
		echo "fetch-header: the archive no longer has $src $version" >&2
		exit 1
	fi
	echo "fetch-header: apt-get source $src=$version failed" >&2
	exit 2
fi
orig=$(ls "$tmp"/dl/"${src}"_*.orig.tar.* 2>/dev/null | head -n 1)
[ -n "$orig" ] || { echo "fetch-header: no orig tarball in the download" >&2; exit 1; }
tar -xf "$orig" -C "$tmp" --wildcards '*/include/qemu/qemu-plugin.h'
found=$(find "$tmp" -path '*/include/qemu/qemu-plugin.h' | head -n 1)
[ -n "$found" ] || { echo "fetch-header: $orig has no include/qemu/qemu-plugin.h" >&2; exit 1; }
# Debian's patches (debian/patches in the .debian.tar.xz) may touch it.
deb=$(ls "$tmp"/dl/"${src}"_*.debian.tar.* 2>/dev/null | head -n 1)
if [ -n "$deb" ] && tar -tf "$deb" | grep -q '^debian/patches/'; then
	tar -xf "$deb" -C "$tmp" debian/patches
	if grep -rl 'include/qemu/qemu-plugin.h' "$tmp/debian/patches" >/dev/null 2>&1; then
		echo "fetch-header: a Debian patch touches qemu-plugin.h; not applied" >&2
	fi
fi
mkdir -p "$cache"
cp "$found" "$header.tmp"
mv "$header.tmp" "$header"
echo "$header"
