# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2154 # run-qemu.sh sets $only
#
# Stage of tests/run-qemu.sh, which sources it: install what is missing
# (scripts/install-deps.sh), for the kernel series -k names only, so that
# a machine with one series tests it.

# install_deps [--kernel-build]: a FAIL result and status 1 if the
# install failed. --kernel-build: only what the debug kernels are built
# with, so that their build can start while the rest is installed.
install_deps() {
	local k
	if [ -n "$only" ]; then
		IPAT_SERIES=$(for k in ${only//,/ }; do
				scripts/find-kernel.sh --series "$k" || true
				echo "$k"
			done | grep -xE '6\.(1|12)|7\.[23]' | sort -u | tr '\n' ' ')
	fi
	export IPAT_SERIES=${IPAT_SERIES:-6.1 6.12 7.3}
	scripts/install-deps.sh "$@" && return 0
	result FAIL install "scripts/install-deps.sh $* failed (see above)"
	return 1
}
