# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by scripts/demo.sh and bench/cache.sh, which boot one guest per
# Debian kernel side by side: the module and the image for each, and
# whether a guest's run ended cleanly.

# guest_images WHO BUILD LOG DEFAULT_TOTAL KVER...: for every KVER at once,
# the module and an image into build/BUILD-<kver>/ (scripts/guest-image.sh,
# without sparse, which these commands do not install), the image with
# ipat-bench and seed-crng, which qemu/init runs first. Sets booted (the kernels
# whose image was made) and guests (NAME:LOG:TOTAL for bench/progress.sh,
# the log build/logs/LOG-<kver>.log, TOTAL from its last run or
# DEFAULT_TOTAL); status=1 if a module did not build. Fails when no image
# was made: there is no guest to wait for.
# shellcheck disable=SC2034 # booted, guests and status are the caller's
guest_images() {
	local who=$1 build=$2 logname=$3 default_total=$4 kver log total i=0
	local pids=()
	shift 4
	echo "$who: building the module and the guest image for $*"
	for kver; do
		(IPAT_SPARSE=0 scripts/guest-image.sh "$build-$kver" "$kver" \
			seed-crng >/dev/null || [ $? -eq 3 ]) &
		pids+=($!)
	done
	booted=() guests=()
	for kver; do
		i=$((i + 1))
		if ! wait "${pids[$((i - 1))]}"; then
			echo "$who: no module or image for $kver" >&2
			status=1
			continue
		fi
		log=build/logs/$logname-$kver.log
		total=$(bench/progress.sh --total "$log")
		booted+=("$kver")
		guests+=("$(scripts/find-kernel.sh --series "$kver"):$log:${total:-$default_total}")
	done
	[ ${#booted[@]} -gt 0 ]
}

# guest_finished WHO LOG: true if the kernel reported no bug in LOG and
# the bench's end record says no run failed; else says why.
guest_finished() {
	local end
	if ! scripts/check-log.sh "$2" >/dev/null; then
		scripts/check-log.sh "$2" || true
		echo "$1: the kernel reported a bug; its console log is $2" >&2
		return 1
	fi
	end=$(tr -d '\r' <"$2" | grep -o 'IPAT-BENCH end .*' | tail -n 1 || true)
	case $end in
	*failed=0) return 0 ;;
	esac
	echo "$1: the guest run did not finish cleanly (${end:-no end record}); its console log is $2" >&2
	return 1
}
