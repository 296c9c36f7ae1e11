# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Stage of tests/run-qemu.sh, which sources it: the module build, with
# gcc W=1 and sparse (scripts/build-module.sh): any warning is a failed
# result, but a module that built is still tested.

# module_build AT NAME KERNEL [RELEASE]: build the module against KERNEL
# (a Debian kernel's release, or a kernel tree built here: see
# scripts/build-module.sh) into build/NAME/; its result is AT, and names
# RELEASE, the kernel's, for a kernel built here. Status 1 if there is no
# module.
module_build() {
	local at=$1 name=$2 tree=$3 release=${4:-} rc=0
	scripts/build-module.sh "$name" "$tree" || rc=$?
	case $rc in
	0) result PASS "$at" "W=1, sparse C=2: clean${release:+ against $release}" ;;
	3) result FAIL "$at" "warnings from gcc W=1, sparse or modpost (above)" ;;
	*) result FAIL "$at" "the module did not build${release:+ against $tree} (above)"; return 1 ;;
	esac
}
