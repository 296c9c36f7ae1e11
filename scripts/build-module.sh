#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the module (and, for a kernel with KUnit, its KUnit test module)
# against a kernel, into build/<name>/, with sparse (C=2) and W=1: any
# warning, from gcc, sparse or modpost, fails the build. The build runs
# with the kernel's own toolchain (scripts/find-kernel.sh --exec): the
# host's, or its sysroot's.
#
#   scripts/build-module.sh NAME KERNEL
#     KERNEL   a Debian kernel's release (7.3.4+deb13-amd64): its headers;
#              or the path of a kernel tree built here
#              (scripts/debug-kernel.sh), whose toolchain is the one
#              named in the file "toolchain" beside it, if any
#   IPAT_SPARSE=0   without sparse (scripts/demo.sh, which does not
#                   install it); the test suite always checks with it
#
# Exit status: 0 built and clean; 1 not built; 3 built, with warnings
# (the module is there to test, but the build is not clean).
#
# Kbuild writes objects next to the sources of an M= build, so the sources
# are copied into build/<name>/ first: the top-level build (make) and this
# one never share an object. Prints nothing but problems and the result.
set -eu
cd "$(dirname "$0")/.."

[ $# -eq 2 ] || { echo "usage: build-module.sh NAME KERNEL" >&2; exit 2; }
name=$1
case $2 in
/* | ./* | ../*)
	kdir=$2
	toolchain=$(cat "$kdir/../toolchain" 2>/dev/null || true)
	;;
*)
	kdir=$(scripts/find-kernel.sh --kdir "$2") || exit 1
	toolchain=$2
	;;
esac
out=build/$name
[ -f "$kdir/Makefile" ] || [ -n "$toolchain" ] ||
	{ echo "build-module: no kernel tree at $kdir" >&2; exit 1; }

# Timestamps kept, so an unchanged source is not rebuilt; --delete, so a
# source removed here does not linger in the copy (objects are excluded
# from the transfer, and so from deletion).
for dir in src include tests/kunit; do
	mkdir -p "$out/$dir"
	rsync -rt --delete --include='*.c' --include='*.h' --exclude='*' \
		"$dir/" "$out/$dir/"
done
cp -p Kbuild "$out/Kbuild"

# stderr carries every finding; stdout only Kbuild's progress lines.
# "Skipping BTF generation" is Debian's headers lacking vmlinux, not ours.
sparse=C=2
[ "${IPAT_SPARSE:-1}" = 0 ] && sparse=C=0
# -ffile-prefix-map: the debug information names the sources relative to
# the repository (build/NAME/src/...), so a clone anywhere builds the same
# bytes, and the guest booted on them runs the same instructions
# (qemu/mkinitramfs.sh; scripts/gdb.sh tells gdb where the sources are).
# For the same reason the module's BTF is made by pahole without -j
# (scripts/pahole-serial.sh says why).
run=()
[ -z "$toolchain" ] || run=(scripts/find-kernel.sh --exec "$toolchain")
if ! "${run[@]}" make -C "$kdir" M="$PWD/$out" "$sparse" W=1 KCFLAGS="-ffile-prefix-map=$PWD/=" \
	PAHOLE="$PWD/scripts/pahole-serial.sh" modules \
	>"$out/build.log" 2>"$out/warnings.log"; then
	cat "$out/warnings.log" >&2
	echo "build-module: build against $kdir failed; log: $out/build.log" >&2
	exit 1
fi
if grep -v '^Skipping BTF generation for ' "$out/warnings.log" >&2; then
	echo "build-module: warnings (gcc W=1, sparse C=2 or modpost) above" >&2
	exit 3
fi
echo "build-module: $out: $(cd "$out" && ls ./*.ko | tr '\n' ' ')clean (W=1, $sparse)"
