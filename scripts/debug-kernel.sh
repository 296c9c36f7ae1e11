#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (or reuse) the debug kernel of a kernel series the project tests
# (6.1, 6.12, 7.3, 7.2): Debian's linux-source-<series>, the same Debian
# patch level as that series' guest image, configured as "make tinyconfig"
# plus qemu/debug.config (KASAN, KFENCE, kmemleak, lockdep, fault injection,
# KUnit). The tree lives outside the repository, in a cache directory keyed
# by the series, its source package version, the fragment's hash and the
# compiler, so a second run reuses it and any change to them rebuilds it.
# The trees of the series live side by side. A series whose kernel lives in
# a sysroot (scripts/sysroot.sh) is built there, with its own compiler
# (scripts/find-kernel.sh --exec); the file "toolchain" beside the tree
# names that kernel, for the module builds against the tree.
#
#   scripts/debug-kernel.sh [--gdb] [SERIES]
#                                          build if needed; print the
#                                          tree's path
#   scripts/debug-kernel.sh [--gdb] --path [SERIES]
#                                          print the tree's path, build
#                                          nothing; exit 1 if not built
#   scripts/debug-kernel.sh [--gdb] --config-only [SERIES]
#                                          extract and configure only,
#                                          check the fragment survived,
#                                          print the tree's path
#
# SERIES is 6.1 (the default), 6.12, 7.3 or 7.2. --gdb: the same kernel with
# qemu/debug-gdb.config on top (the kernel's DWARF and its gdb scripts,
# for scripts/gdb.sh --debug), a tree of its own beside the other: the
# test suite never builds or uses it.
#
# The tree is a prepared kernel for "make KDIR=<tree>" module builds; its
# image is <tree>/arch/x86/boot/bzImage and its release is in
# <tree>/include/config/kernel.release (e.g. 6.12.118-ipat-debug).
#
# Environment:
#   IPAT_CACHE   cache directory (default ~/.cache/inode-patterns)
#   IPAT_JOBS    make -j (default: nproc)
#   IPAT_NICE    the build's niceness (default 10)
set -eu
# The whole script is one block, read before anything runs: bash reads a
# script as it goes, and this one runs for many minutes, during which a
# checkout may rewrite it (it once ended with a syntax error, the kernel
# built but never marked so).
{
cd "$(dirname "$0")/.."

usage() {
	echo "usage: debug-kernel.sh [--gdb] [--path | --config-only] [6.1 | 6.12 | 7.2 | 7.3]" >&2
	exit 2
}
mode=build variant=
while :; do
	case ${1:-} in
	--gdb) variant=gdb; shift ;;
	--path) mode=path; shift ;;
	--config-only) mode=config; shift ;;
	-*) usage ;;
	*) break ;;
	esac
done
series=${1:-6.1}
[ $# -le 1 ] || usage
case $series in 6.1 | 6.12 | 7.2 | 7.3) ;; *) usage ;; esac

# Bump when the recipe below changes in a way the key would not notice.
recipe=3
pkg=linux-source-$series
fragments=(qemu/debug.config)
[ -z "$variant" ] || fragments+=(qemu/debug-gdb.config)
cache=${IPAT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/inode-patterns}
jobs=${IPAT_JOBS:-$(nproc)}

log() { echo "debug-kernel: $*" >&2; }
die() { log "$*"; exit 1; }

# The series' Debian kernel, whose root holds the source and the compiler:
# the host's, or a sysroot's, whose packages its own dpkg database lists.
toolchain='' root=/
if kver=$(scripts/find-kernel.sh --match "$series" 2>/dev/null); then
	root=$(scripts/find-kernel.sh --root "$kver")
	[ "$root" = / ] || toolchain=$kver
fi
run=()
[ -z "$toolchain" ] || run=(scripts/find-kernel.sh --exec "$toolchain")
dpkg_query() { dpkg-query --admindir="${root%/}/var/lib/dpkg" "$@"; }
tarball=${root%/}/usr/src/$pkg.tar.xz
srcver=$(dpkg_query -W -f='${Version}' "$pkg" 2>/dev/null || true)
[ -n "$srcver" ] && [ -r "$tarball" ] ||
	die "$pkg is not installed; run scripts/install-deps.sh $pkg"
# Warn, not fail: the debug kernel is still worth having if the stock image
# moved on, but its Debian patches then differ from the image's. The
# series' images are the installed linux-image-* packages whose version is
# <series>.*: 6.1.192-3 is 6.1's, 6.12.118-1~deb12u1 6.12's.
imgvers=$(dpkg_query -W -f='${db:Status-Abbrev} ${Version}\n' \
	'linux-image-*' 2>/dev/null |
	awk -v s="$series." '$1 == "ii" && index($2, s) == 1 { print $2 }' |
	sort -u | tr '\n' ' ')
# No image yet (tests/run-qemu.sh starts this build while it installs
# them) is nothing to compare.
case " $imgvers" in
" " | *" $srcver "*) ;;
*) log "WARNING: $pkg $srcver differs from the installed" \
	"linux-image $series packages: ${imgvers:-none}" ;;
esac

ccver=$("${run[@]}" gcc --version | head -n 1)
hash=$(printf '%s\n' "recipe $recipe" "$ccver" | cat - "${fragments[@]}" |
	sha256sum | cut -c1-12)
gccver=$("${run[@]}" gcc -dumpfullversion)
# The series (and variant) first: stale trees are found by it (see below).
key="$series-${variant:+$variant-}$srcver-gcc$gccver-$hash"
dir=$cache/kernel/$key
tree=$dir/linux

if [ "$mode" = path ]; then
	[ -f "$dir/built" ] || exit 1
	echo "$tree"
	exit 0
fi

# A finished tree is never changed again: reuse it without waiting for the
# lock, which a build of the other series may hold for many minutes.
if [ "$mode" = build ] && [ -f "$dir/built" ] && [ -f "$tree/arch/x86/boot/bzImage" ]; then
	log "reusing $tree ($(cat "$tree/include/config/kernel.release"))"
	echo "$tree"
	exit 0
fi

mkdir -p "$cache/kernel"
# One builder at a time, whatever the series (a kernel build takes all the
# cores); a second caller waits and then reuses the result.
exec 9>"$cache/kernel/lock"
flock 9

if [ -f "$dir/built" ] && [ -f "$tree/arch/x86/boot/bzImage" ]; then
	log "reusing $tree ($(cat "$tree/include/config/kernel.release"))"
	echo "$tree"
	exit 0
fi

# Stale trees of older keys of this series and variant only take space (a
# few GiB each); the other series' and variant's trees stay. Keys are
# "<series>-[gdb-]<version>-..."; those from before the series argument
# were "<version>-...", and a 6.1 version is "6.1.<n>-...", so "6.1-*" and
# "6.1.*" never match 6.12's.
for old in "$cache/kernel/$series-${variant:+$variant-}"*/ "$cache/kernel/$series".*/; do
	[ "${old%/}" = "$dir" ] && continue
	[ -d "$old" ] || continue
	case ${old%/} in "$cache/kernel/$series-gdb-"*) [ -n "$variant" ] || continue ;; esac
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

log "configuring: tinyconfig + ${fragments[*]}"
cat "${fragments[@]}" >"$dir/debug.config"
# The merged file is then the base of an allnoconfig, not of olddefconfig:
# an option the fragment makes visible (with TTY on: VT, input, PS/2 mice
# and the like) is off unless the fragment asks for it, rather than on by
# its default. Their chatter (every override of a tinyconfig choice) goes
# to config.log.
{
	"${run[@]}" make -C "$tree" -s tinyconfig &&
	"${run[@]}" "$tree/scripts/kconfig/merge_config.sh" -m -O "$tree" \
		"$tree/.config" "$dir/debug.config" &&
	mv "$tree/.config" "$dir/merged.config" &&
	"${run[@]}" make -C "$tree" -s KCONFIG_ALLCONFIG="$dir/merged.config" allnoconfig
} >"$dir/config.log" 2>&1 ||
	{ cat "$dir/config.log" >&2; die "configuring failed"; }

# Every option the fragment asks for must have survived.
# An option one series does not have (6.1 has no SLUB_TINY) is skipped,
# with a line: both series share one fragment.
find "$tree" -name 'Kconfig*' -exec awk '$1 == "config" || $1 == "menuconfig" {
	print "CONFIG_" $2 }' {} + | sort -u >"$dir/options"
missing=0
while IFS= read -r line; do
	opt=${line#\# }
	opt=${opt%%[= ]*}
	case $opt in CONFIG_*)
		grep -qxF "$opt" "$dir/options" ||
			{ log "no $opt in $series: skipped"; continue; } ;;
	esac
	case $line in
	CONFIG_*=*)
		grep -qxF "$line" "$tree/.config" || {
			log "not in .config: $line (found: $(grep "^${line%%=*}=" \
				"$tree/.config" || echo unset))"
			missing=1
		}
		;;
	"# CONFIG_"*" is not set")
		if grep -q "^$opt=" "$tree/.config"; then
			log "should be unset: $(grep "^$opt=" "$tree/.config")"
			missing=1
		fi
		;;
	esac
done <"$dir/debug.config"
[ "$missing" = 0 ] || die "${fragments[*]} do not apply to tinyconfig; see above"
if [ "$mode" = config ]; then
	log "configured $series in $(($(date +%s) - start))s: $tree/.config"
	echo "$tree"
	exit 0
fi

# The gdb variant's scripts (vmlinux-gdb.py and the constants it reads)
# are a target of their own.
targets="bzImage modules_prepare modules${variant:+ scripts_gdb}"
log "building $targets with -j$jobs (several minutes)"
# shellcheck disable=SC2086 # $targets is a list
nice -n "${IPAT_NICE:-10}" "${run[@]}" make -C "$tree" -s -j"$jobs" $targets >"$dir/build.log" 2>&1 ||
	{ tail -n 40 "$dir/build.log" >&2; die "build failed; log: $dir/build.log"; }
echo "$toolchain" >"$dir/toolchain"
echo "$key" >"$dir/built"
log "built $(cat "$tree/include/config/kernel.release") in" \
	"$(($(date +%s) - start))s: $tree"
echo "$tree"
exit
}
