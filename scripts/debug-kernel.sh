#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (or reuse) the debug kernel: Debian's linux-source-6.1, the same
# Debian patch level as the guest image, configured as "make tinyconfig"
# plus qemu/debug.config (KASAN, KFENCE, kmemleak, lockdep, fault injection,
# KUnit). The tree lives outside the repository, in a cache directory keyed
# by the source package version, the fragment's hash and the compiler, so a
# second run reuses it and any change to the three rebuilds it.
#
#   scripts/debug-kernel.sh          build if needed; print the tree's path
#   scripts/debug-kernel.sh --path   print the tree's path, build nothing;
#                                    exit 1 if it is not built
#
# The tree is a prepared kernel for "make KDIR=<tree>" module builds; its
# image is <tree>/arch/x86/boot/bzImage and its release is in
# <tree>/include/config/kernel.release.
#
# Environment:
#   IPAT_CACHE   cache directory (default ~/.cache/inode-patterns)
#   IPAT_JOBS    make -j (default: nproc)
set -eu
cd "$(dirname "$0")/.."

# Bump when the recipe below changes in a way the key would not notice.
recipe=1
pkg=linux-source-6.1
tarball=/usr/src/$pkg.tar.xz
fragment=qemu/debug.config
cache=${IPAT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/inode-patterns}
jobs=${IPAT_JOBS:-$(nproc)}

log() { echo "debug-kernel: $*" >&2; }
die() { log "$*"; exit 1; }

srcver=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || true)
[ -n "$srcver" ] && [ -r "$tarball" ] ||
	die "$pkg is not installed; run scripts/install-deps.sh"
# Warn, not fail: the debug kernel is still worth having if the stock image
# moved on, but its Debian patches then differ from the image's.
imgver=$(dpkg-query -W -f='${Version}' linux-image-amd64 2>/dev/null || true)
[ "$srcver" = "$imgver" ] ||
	log "WARNING: $pkg $srcver differs from linux-image-amd64 $imgver"

ccver=$(gcc --version | head -n 1)
hash=$(printf '%s\n' "recipe $recipe" "$ccver" | cat - "$fragment" |
	sha256sum | cut -c1-12)
gccver=$(gcc -dumpfullversion)
key="$srcver-gcc$gccver-$hash"
dir=$cache/kernel/$key
tree=$dir/linux

if [ "${1:-}" = --path ]; then
	[ -f "$dir/built" ] || exit 1
	echo "$tree"
	exit 0
fi

mkdir -p "$cache/kernel"
# One builder at a time; a second caller waits and then reuses the result.
exec 9>"$cache/kernel/lock"
flock 9

if [ -f "$dir/built" ] && [ -f "$tree/arch/x86/boot/bzImage" ]; then
	log "reusing $tree ($(cat "$tree/include/config/kernel.release"))"
	echo "$tree"
	exit 0
fi

# Stale trees of older keys only take space (a few GiB each).
for old in "$cache"/kernel/*/; do
	[ "${old%/}" = "$dir" ] && continue
	[ -d "$old" ] || continue
	log "removing stale ${old%/}"
	rm -rf "$old"
done

start=$(date +%s)
if [ ! -f "$dir/extracted" ]; then
	log "extracting $tarball"
	rm -rf "$dir"
	mkdir -p "$dir"
	tar -xJf "$tarball" -C "$dir"
	mv "$dir/$pkg" "$tree"
	touch "$dir/extracted"
fi

log "configuring: tinyconfig + $fragment"
cp "$fragment" "$dir/debug.config"
# Their chatter (every override of a tinyconfig choice) goes to config.log.
{
	make -C "$tree" -s tinyconfig &&
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$tree" \
		"$tree/.config" "$dir/debug.config" &&
	make -C "$tree" -s olddefconfig
} >"$dir/config.log" 2>&1 ||
	{ cat "$dir/config.log" >&2; die "configuring failed"; }

# Every option the fragment asks for must have survived olddefconfig.
missing=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		grep -qxF "$line" "$tree/.config" || {
			log "not in .config: $line (found: $(grep "^${line%%=*}=" \
				"$tree/.config" || echo unset))"
			missing=1
		}
		;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }
		opt=${opt%% *}
		if grep -q "^$opt=" "$tree/.config"; then
			log "should be unset: $(grep "^$opt=" "$tree/.config")"
			missing=1
		fi
		;;
	esac
done <"$dir/debug.config"
[ "$missing" = 0 ] || die "$fragment does not apply to tinyconfig; see above"

log "building bzImage modules_prepare modules with -j$jobs (several minutes)"
nice make -C "$tree" -s -j"$jobs" bzImage modules_prepare modules \
	>"$dir/build.log" 2>&1 ||
	{ tail -n 40 "$dir/build.log" >&2; die "build failed; log: $dir/build.log"; }
echo "$key" >"$dir/built"
log "built $(cat "$tree/include/config/kernel.release") in" \
	"$(($(date +%s) - start))s: $tree"
echo "$tree"
