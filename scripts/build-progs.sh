#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the guest test programs (tests/prog/, by tests/prog/Makefile) into
# build/prog/, and the bench's ipat-bench (bench/prog/Makefile) into
# build/bench-prog/, only what changed: the build step before
# qemu/mkinitramfs.sh, which packs them and refuses to go on if one is
# missing or older than its sources.
#
#   scripts/build-progs.sh [NAME...]   only these test programs (names
#                                      without .c), and ipat-bench
set -eu
cd "$(dirname "$0")/.."

# MAKEFLAGS is emptied: the options of a make that runs this script are
# not its own.
export MAKEFLAGS=''
make -s -C tests/prog -j "$(nproc)" PROGS="$*"
make -s -C bench/prog -j "$(nproc)"
