#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the guest test programs (tests/prog/, by tests/prog/Makefile) into
# build/prog/, only what changed: the build step before
# qemu/mkinitramfs.sh, which packs them and refuses to go on if one is
# missing or older than its sources.
#
#   scripts/build-progs.sh [NAME...]   only these programs (names without .c)
set -eu
cd "$(dirname "$0")/.."

# MAKEFLAGS is emptied: the options of a make that runs this script are
# not its own.
MAKEFLAGS='' exec make -s -C tests/prog -j "$(nproc)" PROGS="$*"
