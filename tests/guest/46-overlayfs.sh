#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# overlayfs with its upper and work directories on each of ours, a tmpfs
# upper the control (tests/prog/overlay.c): the mount, with no overlayfs
# kernel log line the tmpfs upper does not get; a created file; a deleted
# lower file's whiteout; a renamed lower directory (redirect_dir=on); the
# copy-up of a file labelled security.ipat. overlay.ko comes with the
# guest image (qemu/mkinitramfs.sh, IPAT_GUEST_MODULES); on a kernel
# without overlayfs the test is skipped, with the reason.
set -eu
. /tests/lib/guest.sh

if ! ipat_fs_registered overlay; then
	modprobe overlay || echo "modprobe overlay failed: the program says why it skips"
fi
ipat_against_tmpfs overlay
