#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The module loads with insmod and with modprobe (so the image's depmod
# data is right), registers its three filesystems while loaded, and
# unloads cleanly both ways, with one rcu_barrier() (counted where the
# kernel has a function tracer).
set -eu
. /tests/lib/guest.sh

expect_registered() {
	for fs in $IPAT_FSTYPES; do
		ipat_fs_registered "$fs" || ipat_fail "$fs not in /proc/filesystems after $1"
	done
}

expect_unregistered() {
	ipat_module_loaded && ipat_fail "inode_patterns still loaded after $1"
	for fs in $IPAT_FSTYPES; do
		ipat_fs_registered "$fs" && ipat_fail "$fs still in /proc/filesystems after $1"
	done
	return 0
}

[ -f "$IPAT_MODULE" ] || ipat_fail "$IPAT_MODULE is not in the image"
expect_unregistered "boot"

ipat_run insmod "$IPAT_MODULE"
expect_registered insmod
ipat_run rmmod inode_patterns
expect_unregistered rmmod

ipat_run modprobe inode_patterns
expect_registered modprobe
ipat_run modprobe -r inode_patterns
expect_unregistered "modprobe -r"

# Unloading waits for the ->free_inode calls still pending (module code,
# after an RCU grace period) once, with one rcu_barrier() for the three
# types: counted with ftrace's function tracer, where the kernel has one.
# Only the module's calls count (7.3's kmem_cache_destroy() makes its
# own): read after the unload, their caller is no symbol any more, only
# an address.
tracing=/sys/kernel/tracing
ipat_run insmod "$IPAT_MODULE"
for fs in $IPAT_FSTYPES; do
	mkdir -p "/mnt/$fs"
	ipat_run mount -t "$fs" none "/mnt/$fs"
	: >"/mnt/$fs/f"
	ipat_run umount "/mnt/$fs"
done
{ [ -e $tracing/trace ] || mount -t tracefs nodev $tracing 2>/dev/null; } &&
	grep -qw function $tracing/available_tracers 2>/dev/null &&
	echo rcu_barrier >$tracing/set_ftrace_filter 2>/dev/null &&
	traced=1 || traced=0
if [ "$traced" = 1 ]; then
	echo 0 >$tracing/tracing_on
	: >$tracing/trace
	echo function >$tracing/current_tracer
	echo 1 >$tracing/tracing_on
fi
ipat_run rmmod inode_patterns
expect_unregistered "rmmod after mounts"
if [ "$traced" = 1 ]; then
	echo 0 >$tracing/tracing_on
	grep -E '^ *rmmod-[0-9]+ .*: rcu_barrier <-' $tracing/trace | sed 's/^ */  /'
	calls=$(grep -cE '^ *rmmod-[0-9]+ .*: rcu_barrier <-(0x[0-9a-f]+|.*\[inode_patterns\])$' \
		$tracing/trace || :)
	echo nop >$tracing/current_tracer
	: >$tracing/set_ftrace_filter
	echo "the module called rcu_barrier() $calls times"
	[ "$calls" = 1 ] || ipat_fail "the module called rcu_barrier() $calls times, not once"
else
	echo "rcu_barrier() not counted: no function tracer on this kernel"
fi
