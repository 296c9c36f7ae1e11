#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# pahole without -j, for the module builds of scripts/build-module.sh
# (make PAHOLE=...). With -j, pahole before 1.27 (Debian 12 has 1.24)
# may write a module's BTF in an order that depends on its threads'
# timing, so two builds of one source can differ
# (tests/host/35-reproducible-image.sh). Kbuild drops -j itself only
# from 6.12 on, and only when KBUILD_BUILD_TIMESTAMP is set; 6.1's
# scripts/pahole-flags.sh always adds it.
for arg; do
	shift
	[ "$arg" = -j ] && continue
	set -- "$@" "$arg"
done
exec pahole "$@"
