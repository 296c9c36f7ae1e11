#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dkms.conf works: "dkms add", then "dkms build" for every installed Debian
# kernel (6.1, 6.12, 7.3), gives an inode_patterns.ko with each kernel's
# vermagic. Build only: nothing is installed or loaded on the host. A
# kernel in a sysroot is built by that suite's own DKMS, chrooted in it
# (scripts/find-kernel.sh --exec), as on a machine of that Debian. DKMS
# runs on private source, DKMS and install trees, one set per kernel, and
# signs with a throw-away key of its own, so neither the host's nor a
# sysroot's /usr/src and /var/lib/dkms are touched.
set -eu
cd "$(dirname "$0")/../.."

kernels=$(scripts/find-kernel.sh --all)
[ -n "$kernels" ] || { echo "dkms: no kernel with headers found"; exit 1; }
name=$(sed -n 's/^PACKAGE_NAME="\(.*\)"$/\1/p' dkms.conf)
version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' dkms.conf)
[ -n "$name" ] && [ -n "$version" ] || { echo "dkms: no name or version in dkms.conf"; exit 1; }

# Under build/, which a sysroot's chroot sees at the same path.
mkdir -p build/logs
tmp=$(mktemp -d "$PWD/build/dkms.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
log=build/logs/dkms.log
: >"$log"

# dkms_build KVER: add, build and check the status for kernel KVER, with
# the DKMS of its root, in trees of its own.
dkms_build() {
	local kver=$1 dir=$tmp/$1 src ko vermagic status
	local run=(scripts/find-kernel.sh --exec "$kver")
	src=$dir/src/$name-$version
	mkdir -p "$src/src" "$src/include" "$dir/dkms" "$dir/install"
	# What a source package would ship: no objects, no git, no build/.
	cp dkms.conf Kbuild Makefile LICENSE "$src/"
	cp src/*.c "$src/src/"
	cp include/*.h "$src/include/"
	mkdir -p "$src/scripts" && cp scripts/find-kernel.sh "$src/scripts/"
	local trees=(--sourcetree "$dir/src" --dkmstree "$dir/dkms" --installtree "$dir/install")
	"${run[@]}" sh -c 'command -v dkms' >/dev/null ||
		{ echo "dkms: not installed where $kver is (scripts/install-deps.sh)"; return 1; }
	if ! "${run[@]}" env mok_signing_key="$dir/mok.key" mok_certificate="$dir/mok.pub" \
		sh -c 'n=$1 v=$2 k=$3; shift 3
			dkms add -m "$n" -v "$v" "$@" &&
			dkms build -m "$n" -v "$v" -k "$k" \
				--kernelsourcedir "/usr/src/linux-headers-$k" "$@"' \
		sh "$name" "$version" "$kver" "${trees[@]}" >>"$log" 2>&1; then
		cat "$log"
		find "$dir/dkms" -name make.log -exec cat {} + 2>/dev/null || true
		echo "dkms: build failed for $kver"
		return 1
	fi
	ko=$(find "$dir/dkms/$name/$version/$kver" -name 'inode_patterns.ko*' | head -n 1)
	[ -n "$ko" ] || { cat "$log"; echo "dkms: build gave no inode_patterns.ko for $kver"; return 1; }
	vermagic=$(modinfo -F vermagic "$ko" | cut -d' ' -f1)
	[ "$vermagic" = "$kver" ] || { echo "dkms: $ko is for '$vermagic', not $kver"; return 1; }
	status=$("${run[@]}" dkms status -m "$name" -v "$version" "${trees[@]}" 2>/dev/null)
	case $status in
	*"$kver"*": built"*|*"$kver"*", built"*) ;;
	*) echo "dkms: status is '$status', not built for $kver"; return 1 ;;
	esac
	echo "dkms: $name $version built for $kver by $("${run[@]}" dkms --version) (${ko#"$tmp"/}); status: $status"
}

for kver in $kernels; do
	dkms_build "$kver"
done
