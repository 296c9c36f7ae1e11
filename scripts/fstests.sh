#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make fstests: the filesystem community's regression suite, fstests
# (xfstests), on tmpfs and on each of the module's three types, in QEMU
# guests booting Debian's kernels; the report, per kernel series, in
# results/fstests/<series>/ (docs/testing.md, "fstests").
#
#   scripts/fstests.sh [-k KERNELS] [--report]
#     -k KERNELS  releases or series, comma- or blank-separated (default:
#                 the newest kernel, scripts/find-kernel.sh)
#     --report    only make each report again from its raw.txt: the
#                 kernels' of -k, else every results/fstests/<series>/
#   FSTESTS=DIR         fstests from this git checkout (its HEAD commit);
#                       default: a clone of FSTESTS_GIT in the cache
#   FSTESTS_GIT         default git://git.kernel.org/pub/scm/fs/xfs/xfstests-dev.git
#   FSTESTS_TESTS       tests (generic/001) and groups of generic/ (quick,
#                       acl), blank-separated; default: quick
#   FSTESTS_TIMEOUT     seconds a test may take on one type (default 1800)
#   FSTESTS_BATCH       tests a ./check runs (default 20): each ./check
#                       costs seconds to start, and a guest that dies
#                       runs the rest of its batch again
#   FSTESTS_MEM         guest MiB (default 2048)
#
# Two guests at a time, one per host core: tmpfs and unionfs_demo in one,
# embedfs_demo and voidfs_demo in the other, each batch of tests on both
# of its types in turn. Each result is kept in raw.txt as soon as its guest ends;
# a run that is interrupted, or whose guest dies, starts again where it
# stopped: a test already in raw.txt (for the same fstests commit, kernel
# and module sources) is not run again. A guest that dies in a test
# records that test failed and is booted again for the rest.
#
# The guests' console logs: build/logs/fstests/<kernel>-<run>-<guest>-
# <boot>.log (collected/, once their records are in raw.txt).
#
# Exit status: 1 if the kernel reported a bug (scripts/check-log.sh) or a
# guest could not run; the tests' own failures are the report's.
set -eu
cd "$(dirname "$0")/.."
# A shell without job control starts its background commands with SIGINT
# ignored, which bash can then neither trap nor reset, while qemu still
# ends on it: the guests would end and the run take them for deaths. So
# the run starts again with SIGINT as it should be, for it and its guests.
if [ -z "${IPAT_FSTESTS_SIGINT:-}" ]; then
	IPAT_FSTESTS_SIGINT=1 exec env --default-signal=INT "$0" "$@"
fi

die() { echo "fstests: $*" >&2; exit 1; }
only='' report_only=0
while [ $# -gt 0 ]; do
	case $1 in
	-k) only=$2; shift 2 ;;
	--report) report_only=1; shift ;;
	*) die "usage: scripts/fstests.sh [-k KERNELS] [--report]" ;;
	esac
done
batch=${FSTESTS_BATCH:-20}
case $batch in '' | *[!0-9]* | 0) die "FSTESTS_BATCH=$batch: a number of tests, 1 or more" ;; esac
# The types of each of the two guests.
guest_types=("tmpfs unionfs_demo" "embedfs_demo voidfs_demo")
cache=${IPAT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/inode-patterns}

kernels=()
for k in ${only//,/ }; do kernels+=("$(scripts/find-kernel.sh --match "$k")") || exit 1; done

# The reports alone: of the kernels named, else of every series there is.
if [ "$report_only" = 1 ]; then
	if [ ${#kernels[@]} -gt 0 ]; then
		dirs=$(for kver in "${kernels[@]}"; do
			echo "results/fstests/$(scripts/find-kernel.sh --series "$kver")"; done)
	else
		dirs=$(ls -d results/fstests/*/ 2>/dev/null | sed 's,/$,,')
	fi
	[ -n "$dirs" ] || die "no results/fstests/<series>/ to make a report of"
	for out in $dirs; do
		[ -f "$out/raw.txt" ] || die "no $out/raw.txt to make a report from"
		fstests/report.sh "$out/raw.txt" >"$out/report.md"
		echo "fstests: $out/report.md"
	done
	exit 0
fi
[ ${#kernels[@]} -gt 0 ] || kernels=("$(scripts/find-kernel.sh)")
[ -n "${kernels[0]}" ] || die "no kernel with both headers and image (scripts/install-deps.sh)"

[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot, and the sysroots' kernels)"
# The source: the user's checkout, or a clone of upstream kept up to date.
if [ -n "${FSTESTS:-}" ]; then
	src=$FSTESTS
else
	src=$cache/fstests/src
	upstream=${FSTESTS_GIT:-git://git.kernel.org/pub/scm/fs/xfs/xfstests-dev.git}
	if [ ! -d "$src/.git" ]; then
		git clone -q "$upstream" "$src" || die "cannot clone $upstream: name a checkout with FSTESTS=DIR"
	else
		git -C "$src" pull -q --ff-only || echo "fstests: cannot update $src from its origin; testing it as it is" >&2
	fi
fi
commit=$(git -C "$src" rev-parse HEAD) || die "FSTESTS=$src is not a git checkout"
start=$(date +%s)
root=$(fstests/root.sh "$src")
echo "fstests: root $root ($(du -sh "$root" | cut -f1)), fstests $commit, ready after $(($(date +%s) - start))s"

# The tests: names as they are, groups of generic/ from its group.list
# (made by fstests' build), in order, each once.
tests=$(for t in ${FSTESTS_TESTS:-quick}; do
	case $t in
	*/*) [ -f "$root/opt/fstests/tests/$t" ] || die "no test $t in fstests $commit"; echo "$t" ;;
	*) awk -v g="$t" '!/^#/ { for (i = 2; i <= NF; i++) if ($i == g) { print "generic/" $1; next } }' \
		"$root/opt/fstests/tests/generic/group.list" ;;
	esac
done | awk '!seen[$0]++')
[ -n "$tests" ] || die "FSTESTS_TESTS='${FSTESTS_TESTS:-quick}' names no test"

# The module's sources, for the record: a raw.txt of other sources is not
# resumed.
modsrc=$(git log -1 --format=%h -- src include Kbuild)
[ -z "$(git status --porcelain -- src include Kbuild)" ] || modsrc=$modsrc-dirty

# A console log whose records are in raw.txt: kept, out of the way of
# the next run's collection.
collected() {
	mkdir -p build/logs/fstests/collected
	mv "$1" build/logs/fstests/collected/
	rm -f "${1%.log}.rc"
}

# Interrupted: the guests end, and their logs stay uncollected, so the
# next run takes what they finished and runs the tests they were in again
# (fstests/collect.sh ... 0), instead of recording those as failed.
pids=()
interrupted() {
	local p
	trap - INT TERM HUP
	for p in "${pids[@]}"; do kill -TERM "${p%%:*}" 2>/dev/null || true; done
	wait
	echo "fstests: interrupted; the next run goes on from where this one stopped" >&2
	exit 130
}
trap interrupted INT TERM HUP

# Console logs are named after the run, so that a resumed run's do not
# replace those of the run before it.
run=$(date +%Y%m%d-%H%M%S)
status=0
for kver in "${kernels[@]}"; do
	series=$(scripts/find-kernel.sh --series "$kver")
	out=results/fstests/$series
	dir=build/fstests/$kver
	mkdir -p "$out" "$dir" build/logs/fstests
	header=$(printf 'fstests %s\nkernel %s\nmodule %s\n' "$commit" "$kver" "$modsrc")
	if [ "$(head -n 3 "$out/raw.txt" 2>/dev/null)" != "$header" ]; then
		[ ! -f "$out/raw.txt" ] || echo "fstests: $out/raw.txt is of another fstests, kernel or module: starting afresh"
		echo "$header" >"$out/raw.txt"
		rm -f build/logs/fstests/"$kver"-* build/logs/fstests/collected/"$kver"-*
	fi

	scripts/build-module.sh "fstests-$kver" "$kver" >/dev/null || [ $? -eq 3 ] ||
		{ echo "fstests: the module does not build for $kver" >&2; status=1; continue; }
	t0=$(date +%s)
	fstests/image.sh "$dir" "$kver" "$root" "build/fstests-$kver/inode_patterns.ko"
	echo "$kver" >"$dir/initrd.kver"
	echo "fstests: $kver: image ready after $(($(date +%s) - t0))s ($(du -sh --apparent-size "$dir/root.img" | cut -f1), $(du -sh "$dir/root.img" | cut -f1) on disk)"

	# Logs of boots interrupted by the host last time: what they finished.
	for log in build/logs/fstests/"$kver"-*.log; do
		[ -e "$log" ] || continue
		fstests/collect.sh "$log" "$([ -f "${log%.log}.rc" ] && echo 1 || echo 0)" >>"$out/raw.txt"
		collected "$log"
	done

	boots=0
	while :; do
		# What each guest has left to do: its (type, test) pairs
		# without a result.
		done_pairs=$(awk '$1 == "result" { print $2, $3 }' "$out/raw.txt")
		pids=() n=0 left=0
		for g in 0 1; do
			job=$dir/job-$g
			# Batches: up to $batch tests on one type, then
			# the same on the other, so that both types'
			# results grow together.
			echo "$tests" | xargs -n "$batch" echo | while read -r chunk; do
				for fs in ${guest_types[$g]}; do for t in $chunk; do echo "$fs $t"; done; done
			done | grep -vxF -f <(echo "$done_pairs") >"$job" || true
			[ -s "$job" ] || continue
			left=$((left + $(wc -l <"$job")))
			# A whole 512-byte sector for the raw disk.
			truncate -s "%512" "$job"
			n=$((n + 1))
			boots=$((boots + 1))
			log=build/logs/fstests/$kver-$run-$g-$boots
			QEMU_INITRD=$dir/initrd.cpio.gz QEMU_MEM=${FSTESTS_MEM:-2048} QEMU_SMP=1 \
				QEMU_TIMEOUT=$(($(wc -l <"$job") * ${FSTESTS_TIMEOUT:-1800} + 600)) \
				IPAT_LOG=${log#build/logs/} QEMU_EXTRA="-drive file=$dir/root.img,if=virtio,format=raw,snapshot=on -drive file=$job,if=virtio,format=raw,readonly=on" \
				fstests/watch.sh "$log.log" "${FSTESTS_TIMEOUT:-1800}" \
				qemu/run.sh test "ipat.timeout=${FSTESTS_TIMEOUT:-1800} ipat.batch=$batch" >/dev/null &
			pids+=("$!:$log")
		done
		[ "$left" -gt 0 ] || break
		[ "$boots" -le $((2 * $(echo "$tests" | wc -w) * 4 + 2)) ] ||
			{ echo "fstests: $kver: guests keep dying; giving up" >&2; status=1; break; }
		echo "fstests: $kver: $left runs left (of $(($(echo "$tests" | wc -w) * 4))), $n guests"
		before=$(grep -c '^result ' "$out/raw.txt" || true)
		for p in "${pids[@]}"; do
			rc=0
			wait "${p%%:*}" || rc=$?
			# qemu/run.sh's exit on a signal that reached it and
			# not this shell: an interruption, not a guest that
			# died.
			[ "$rc" != 130 ] || interrupted
			echo "$rc" >"${p#*:}.rc"
			fstests/collect.sh "${p#*:}.log" 1 >>"$out/raw.txt"
			collected "${p#*:}.log"
		done
		after=$(grep -c '^result ' "$out/raw.txt" || true)
		if [ "$after" = "$before" ]; then
			echo "fstests: $kver: no guest finished a test; console logs: build/logs/fstests/" >&2
			status=1
			break
		fi
	done
	fstests/report.sh "$out/raw.txt" >"$out/report.md"
	if grep -q '^kernel-report ' "$out/raw.txt"; then
		echo "fstests: $kver: the kernel reported bugs (the top of $out/report.md)" >&2
		status=1
	fi
	echo "fstests: $kver: $(sed -n 's/^Summary: //p' "$out/report.md")"
	echo "fstests: report in $out/report.md"
done
exit "$status"
