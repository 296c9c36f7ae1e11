#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the kernel's checkpatch.pl --strict on the module's sources: no
# errors, warnings or checks allowed. checkpatch.pl and the data files it
# reads come out of the source tarball of the newest kernel series there
# is (scripts/find-kernel.sh: 7.3's, in its sysroot; else the host's
# 6.12 or 6.1), extracted by member name (nothing else is unpacked) into
# a cache outside the repository, keyed by the package version.
#
#   scripts/checkpatch.sh            src/*.c include/*.h tests/kunit/*.c
#   scripts/checkpatch.sh FILE...    just those
#
# Environment: IPAT_CACHE (default ~/.cache/inode-patterns).
set -eu
cd "$(dirname "$0")/.."

cache=${IPAT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/inode-patterns}
pkg='' root=/
for kver in $(scripts/find-kernel.sh --all | tac); do
	root=$(scripts/find-kernel.sh --root "$kver")
	pkg=linux-source-$(scripts/find-kernel.sh --series "$kver")
	[ -r "${root%/}/usr/src/$pkg.tar.xz" ] && break
done
tarball=${root%/}/usr/src/$pkg.tar.xz
srcver=$(dpkg-query --admindir="${root%/}/var/lib/dpkg" -W -f='${Version}' "$pkg" 2>/dev/null || true)
if [ -z "$srcver" ] || [ ! -r "$tarball" ]; then
	echo "checkpatch: $pkg is not installed; run scripts/install-deps.sh" >&2
	exit 1
fi

# checkpatch.pl finds its data files next to itself, and its --verbose
# documentation at ../Documentation: keep the tarball's layout.
dir=$cache/checkpatch/$srcver
script=$dir/scripts/checkpatch.pl
if [ ! -f "$dir/extracted" ]; then
	echo "checkpatch: extracting checkpatch.pl from $tarball" >&2
	rm -rf "$dir"
	mkdir -p "$dir"
	tar -xJf "$tarball" -C "$dir" --strip-components=1 \
		"$pkg/scripts/checkpatch.pl" \
		"$pkg/scripts/spelling.txt" \
		"$pkg/scripts/const_structs.checkpatch" \
		"$pkg/Documentation/dev-tools/checkpatch.rst"
	touch "$dir/extracted"
fi

if [ $# -eq 0 ]; then
	shopt -s nullglob
	set -- src/*.c src/*.h include/*.h tests/kunit/*.c tests/kunit/*.h
fi

# --strict writes a CamelCase cache (.checkpatch-camelcase.*) into its
# working directory: run it in a scratch directory, never in the
# repository. --root there, with an empty include/, keeps it from
# searching /include. --show-types names each report's type, so a reader
# can look it up in checkpatch.rst.
scratch=$dir/run
mkdir -p "$scratch/include"
repo=$PWD
status=0
for file in "$@"; do
	case $file in /*) path=$file ;; *) path=$repo/$file ;; esac
	# The compat header's one job is testing the kernel version, and
	# mapping a call to an older one that lacks an argument; checkpatch
	# rightly flags both anywhere else.
	ignore=
	case $file in */ipat_compat.h|ipat_compat.h)
		ignore=--ignore=LINUX_VERSION_CODE,CONSTANT_COMPARISON,MACRO_ARG_UNUSED ;;
	esac
	# shellcheck disable=SC2086 # $ignore is empty or one word
	if ! out=$(cd "$scratch" && perl "$script" --strict --no-tree $ignore \
		--root="$scratch" --show-types --color=never --terse \
		-f "$path" 2>&1); then
		status=1
	fi
	out=${out//"$repo/"/}
	# Anything it prints is a finding, even when it exits 0.
	if [ -n "$out" ]; then
		echo "$out"
		status=1
	fi
done
if [ "$status" -eq 0 ]; then
	echo "checkpatch: $# files clean (--strict)"
else
	echo "checkpatch: FAIL" >&2
fi
exit "$status"
