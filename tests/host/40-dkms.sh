#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dkms.conf works: "dkms add", then "dkms build" for every installed Debian
# kernel (6.1 and 6.12), gives an inode_patterns.ko with each kernel's
# vermagic. Build only:
# nothing is installed or loaded on the host. DKMS runs on private source,
# DKMS and install trees, and signs with a throw-away key of its own, so
# the host's /usr/src and /var/lib/dkms are never touched.
set -eu
cd "$(dirname "$0")/../.."

kernels=$(scripts/find-kernel.sh --all)
[ -n "$kernels" ] || { echo "dkms: no kernel with headers found"; exit 1; }
command -v dkms >/dev/null || { echo "dkms: not installed (scripts/install-deps.sh)"; exit 1; }
name=$(sed -n 's/^PACKAGE_NAME="\(.*\)"$/\1/p' dkms.conf)
version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' dkms.conf)
[ -n "$name" ] && [ -n "$version" ] || { echo "dkms: no name or version in dkms.conf"; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$tmp/src/$name-$version
mkdir -p "$src/src" "$src/include" "$tmp/dkms" "$tmp/install"
# What a source package would ship: no objects, no git, no build/.
cp dkms.conf Kbuild Makefile LICENSE "$src/"
cp src/*.c "$src/src/"
cp include/*.h "$src/include/"
mkdir -p "$src/scripts" && cp scripts/find-kernel.sh "$src/scripts/"

trees=(--sourcetree "$tmp/src" --dkmstree "$tmp/dkms" --installtree "$tmp/install")
export mok_signing_key=$tmp/mok.key mok_certificate=$tmp/mok.pub
log=build/logs/dkms.log
mkdir -p build/logs
dkms add -m "$name" -v "$version" "${trees[@]}" >"$log" 2>&1 ||
	{ cat "$log"; echo "dkms: add failed"; exit 1; }
for kver in $kernels; do
	if ! dkms build -m "$name" -v "$version" -k "$kver" "${trees[@]}" >>"$log" 2>&1; then
		cat "$log"
		find "$tmp/dkms" -name make.log -exec cat {} + 2>/dev/null || true
		echo "dkms: build failed for $kver"
		exit 1
	fi
	ko=$(find "$tmp/dkms/$name/$version/$kver" -name 'inode_patterns.ko*' | head -n 1)
	[ -n "$ko" ] || { cat "$log"; echo "dkms: build gave no inode_patterns.ko for $kver"; exit 1; }
	vermagic=$(modinfo -F vermagic "$ko" | cut -d' ' -f1)
	[ "$vermagic" = "$kver" ] || { echo "dkms: $ko is for '$vermagic', not $kver"; exit 1; }
	echo "dkms: $name $version built for $kver (${ko#"$tmp"/})"
done
status=$(dkms status -m "$name" -v "$version" "${trees[@]}" 2>/dev/null)
for kver in $kernels; do
	case $status in
	*"$kver"*": built"*|*"$kver"*", built"*) ;;
	*) echo "dkms: status is '$status', not built for $kver"; exit 1 ;;
	esac
done
echo "dkms: status: $(echo "$status" | tr '\n' ';')"
