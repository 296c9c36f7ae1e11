#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest image of one kernel: the module built against the kernel's
# tree into build/NAME/ (scripts/build-module.sh), the guest programs
# (scripts/build-progs.sh), and build/NAME/initramfs.cpio.gz packed with
# both (qemu/mkinitramfs.sh). The demo's and the cache mode's guests
# (bench/guests.sh) and scripts/gdb.sh --debug boot it; the test suite
# runs the same steps as stages of its own, each a result of its own
# (tests/harness/build.sh, image.sh).
#
#   scripts/guest-image.sh NAME KERNEL [PROG...]
#     NAME   the directory under build/, e.g. demo-6.12.118+deb12-amd64
#     KERNEL a Debian kernel's release (scripts/find-kernel.sh knows where
#            it is), or the path of a kernel tree built here
#            (scripts/debug-kernel.sh), whose modules.builtin files then
#            go into the image
#     PROG   only these programs of tests/prog/ (default: all of them)
#   IPAT_SPARSE=0   the module without sparse (scripts/build-module.sh)
#
# Exit status: 0; 3 if the module built with warnings (the image is made
# all the same); 1 if there is no image. Runs for several kernels at once
# may share build/prog/: its build is taken one at a time.
set -eu
cd "$(dirname "$0")/.."

[ $# -ge 2 ] || { echo "usage: scripts/guest-image.sh NAME KERNEL [PROG...]" >&2; exit 2; }
name=$1 tree=$2
shift 2
out=build/$name

rc=0
scripts/build-module.sh "$name" "$tree" || rc=$?
case $rc in 0 | 3) ;; *) exit 1 ;; esac
mkdir -p build
flock build/.progs.lock scripts/build-progs.sh "$@"
case $tree in
/* | ./* | ../*) kdir=$tree ;;
*) kdir= ;;
esac
IPAT_PROGS="$*" IPAT_KO=$out/inode_patterns.ko IPAT_KDIR=$kdir \
	IPAT_INITRAMFS=$out/initramfs.cpio.gz qemu/mkinitramfs.sh || exit 1
exit "$rc"
