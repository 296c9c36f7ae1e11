#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The README's two commands on a fresh Debian 12 (bookworm) or Debian 13
# (trixie) machine: in a minbase root of that release, chrooted (in a mount
# namespace of its own, with /proc, /sys and /dev), a clone of this
# repository's HEAD runs scripts/demo.sh, then tests/run-qemu.sh, as root,
# as README.md says, each timed. Passes if both succeed and the demo
# printed its table. Commits only: uncommitted changes are not in the
# clone. A minbase root has less than a fresh machine of that release
# (no compiler, no make): the commands install that too, so their times
# are an upper bound of a fresh machine's.
#
#   IPAT_FRESH=trixie:demo tests/host/90-fresh-machine.sh   the demo
#                     only (5 to 10 minutes on 2 cores: it installs its
#                     packages and makes its own sysroot)
#   IPAT_FRESH=bookworm:all tests/host/90-fresh-machine.sh  the demo,
#                     then the suite (a whole run from a fresh machine:
#                     its own sysroots and debug kernel, from scratch)
#
# Opt-in: unset, it skips (exit 4), for the suite inside does not fit
# beside the suite around it in CI's 45 minutes.
#
# The root is made once, <cache>/fresh-<release>/root/ (IPAT_CACHE,
# default ~/.cache/inode-patterns): debootstrap --variant=minbase from the
# host's Debian mirror (IPAT_MIRROR, as scripts/sysroot.sh), apt's sources
# as a machine of that release has them, and git to clone with: the one
# package added to what a fresh machine has. Each run copies it to
# <cache>/fresh-<release>/run/, so each starts from a fresh machine; the
# copy is kept until the next run, for its logs
# (root/inode-patterns/build/logs/).
set -eu -o pipefail
cd "$(dirname "$0")/../.."
case ${IPAT_FRESH:-} in
bookworm:demo | bookworm:all | trixie:demo | trixie:all) ;;
*)
	echo "skipped: opt-in, IPAT_FRESH=RELEASE:demo (the demo) or RELEASE:all (the demo and the suite) in a fresh root of RELEASE, bookworm or trixie"
	exit 4 ;;
esac
release=${IPAT_FRESH%%:*} what=${IPAT_FRESH#*:}
[ "$(id -u)" = 0 ] || { echo "FAIL: needs root (debootstrap, chroot)"; exit 1; }
cache=${IPAT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/inode-patterns}
dir=$cache/fresh-$release root=$cache/fresh-$release/root run=$cache/fresh-$release/run
mkdir -p "$dir"
exec 9>"$dir/lock"
flock 9

step() {	# step WHAT CMD...: CMD, timed; its output in $dir/WHAT.log
	local what=$1 start=$SECONDS
	shift
	if ! "$@" >"$dir/$what.log" 2>&1; then
		tail -n 20 "$dir/$what.log"
		echo "FAIL: $what ($dir/$what.log)"
		exit 1
	fi
	echo "ok: $what, $((SECONDS - start)) s"
}

# chrooted ROOT CMD: CMD (sh -c) in ROOT as a fresh login would run it, the
# mounts gone when it ends. ROOT is bound on itself: a machine's / is a
# mount, which scripts/find-kernel.sh --exec's unshare makes private.
chrooted() {
	unshare --mount --propagation private sh -c '
		mount --bind "$1" "$1" && mount -t proc proc "$1/proc" &&
		mount --rbind /sys "$1/sys" && mount --rbind /dev "$1/dev" || exit 1
		exec chroot "$1" env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			sh -c "$2"' sh "$1" "$2"
}

if [ ! -f "$root/.ipat-ready" ]; then
	mirror=${IPAT_MIRROR:-$(apt-cache policy base-files |
		awk '$2 ~ /^(https?|file):/ { print $2; exit }')}
	[ -n "$mirror" ] || { echo "FAIL: no Debian mirror (apt-cache policy base-files): set IPAT_MIRROR"; exit 1; }
	security=$(apt-cache policy | awk '$2 ~ /^(https?|file):/ && $3 ~ /-security\// { print $2; exit }')
	rm -rf "$root"
	step debootstrap debootstrap --variant=minbase "$release" "$root" "$mirror"
	# A machine's sources: its release, that release's updates and its
	# security archive (where the host's is), each if the mirror serves it.
	served() {	# served URL SUITE: its line, if URL serves SUITE
		if /usr/lib/apt/apt-helper download-file "$1/dists/$2/InRelease" \
			"$dir/InRelease" >/dev/null 2>&1; then
			echo "deb $1 $2 main"
		fi
	}
	{
		echo "deb $mirror $release main"
		served "$mirror" "$release-updates"
		[ -z "$security" ] || served "$security" "$release-security"
	} >"$root/etc/apt/sources.list"
	rm -f "$dir/InRelease"
	# The mirror these machines reach serves frozen snapshots, whose
	# Release files (the updates' and security archive's) outlive their
	# Valid-Until date, which apt otherwise refuses; a machine on a live
	# mirror has no need of this.
	echo 'Acquire::Check-Valid-Until "false";' >"$root/etc/apt/apt.conf.d/99valid-until"
	cp /etc/resolv.conf "$root/etc/resolv.conf"
	step git chrooted "$root" 'apt-get update && DEBIAN_FRONTEND=noninteractive
		apt-get install -y --no-install-recommends git && apt-get clean'
	touch "$root/.ipat-ready"
fi
echo "$release: $(grep PRETTY_NAME "$root/etc/os-release"); sources: $(grep -c '^deb ' "$root/etc/apt/sources.list") suites"

rm -rf "$run"
step copy cp -a "$root" "$run"
git bundle create -q "$run/root/ipat.bundle" HEAD
step clone chrooted "$run" 'git -c advice.detachedHead=false clone -q /root/ipat.bundle /root/inode-patterns'
rm "$run/root/ipat.bundle"

# The table: its heading, column names, and a row of figures for each
# filesystem.
start=$SECONDS rc=0
chrooted "$run" 'cd /root/inode-patterns && scripts/demo.sh' 2>&1 | tee "$dir/demo.log" || rc=$?
echo "$release: scripts/demo.sh: exit $rc, $((SECONDS - start)) s"
bad=0
[ "$rc" = 0 ] || { echo "FAIL: scripts/demo.sh exited $rc in the $release root"; bad=1; }
if ! grep -q '^== Linux .*: [0-9,]* files in one directory ==$' "$dir/demo.log" ||
	! grep -q '^filesystem  *pattern ' "$dir/demo.log"; then
	echo "FAIL: no table in the demo's output ($dir/demo.log)"
	bad=1
fi
for fs in unionfs_demo embedfs_demo voidfs_demo ramfs tmpfs; do
	grep -Eq "^$fs .*[0-9]\.[0-9]{2}  *[0-9.]+ \|" "$dir/demo.log" ||
		{ echo "FAIL: no row of figures for $fs in the demo's table"; bad=1; }
done
[ "$bad" = 0 ] || exit 1
echo "ok: scripts/demo.sh printed its table in $release"
[ "$what" = all ] || exit 0

start=$SECONDS rc=0
chrooted "$run" 'cd /root/inode-patterns && tests/run-qemu.sh' 2>&1 | tee "$dir/suite.log" || rc=$?
echo "$release: tests/run-qemu.sh: exit $rc, $((SECONDS - start)) s"
[ "$rc" = 0 ] || { echo "FAIL: tests/run-qemu.sh exited $rc in the $release root ($dir/suite.log)"; exit 1; }
echo "ok: the README's two commands in $release"
