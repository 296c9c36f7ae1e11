#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The demo's module and guest image are the same bytes whichever
# directory the sources sit in: two copies of them, at two paths, build
# both (bench/guests.sh, as scripts/demo.sh does) identically. Under
# icount a guest booted twice on one image runs the same instructions, so
# two clones print the same demo table (docs/benchmark.md, repeatability).
# Nor may the image hold what the host happens to have installed
# (stress-ng, which the tests install and the demo does not): a machine
# with the tests' packages would print another table. Runs on the host,
# without a guest.
set -eu
cd "$(dirname "$0")/../.."
kver=$(scripts/find-kernel.sh)
[ -n "$kver" ] || { echo "FAIL: no kernel with headers and image"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The sources as git has them (what a clone gets), at two paths.
for copy in one two/deeper; do
	mkdir -p "$tmp/$copy"
	git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$tmp/$copy"
	(cd "$tmp/$copy" && . bench/guests.sh && guest_images repro demo demo 1 "$kver" >/dev/null) ||
		{ echo "FAIL: the demo's module or image did not build in $tmp/$copy"; exit 1; }
done

bad=0
for file in inode_patterns.ko initramfs.cpio.gz; do
	if cmp -s "$tmp/one/build/demo-$kver/$file" "$tmp/two/deeper/build/demo-$kver/$file"; then
		echo "ok: $file: the same bytes from both copies"
	else
		echo "FAIL: $file differs between the two copies:"
		cmp "$tmp/one/build/demo-$kver/$file" "$tmp/two/deeper/build/demo-$kver/$file" || true
		bad=1
	fi
done
root=$tmp/one/build/demo-$kver/initramfs
if [ -e "$root/usr/bin/stress-ng" ]; then
	echo "FAIL: the demo's image holds the host's stress-ng"
	bad=1
else
	echo "ok: no host program in the demo's image"
fi
exit "$bad"
