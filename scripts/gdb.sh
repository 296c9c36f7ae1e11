#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the guest (qemu/run.sh shell) with QEMU's gdb stub, load the module,
# mount the three filesystems, and start gdb attached to the guest with the
# module's symbols at the addresses where it was loaded. docs/debugging.md
# shows a session.
#
#   scripts/gdb.sh              gdb interactively (make gdb, qemu/run.sh gdb)
#   scripts/gdb.sh --tour       the guided tour in batch mode (make gdb-tour)
#   scripts/gdb.sh --batch FILE run gdb's commands from FILE, in batch mode
#   scripts/gdb.sh --debug SERIES [...]
#                               on the debug kernel of SERIES (6.1, 6.12, 7.3,
#                               7.2)
#                               built with its own debug information and gdb
#                               scripts (scripts/debug-kernel.sh --gdb; the
#                               first time, a kernel build of many minutes),
#                               the module and an image built against it in
#                               build/debug-gdb-<series>/ (make gdb DEBUG=...)
#   scripts/gdb.sh [...] -- kernel-param...   passed on to the guest
#
# How the addresses are found and pinned: the guest boots with nokaslr
# (QEMU_GDB in qemu/run.sh adds it), so the kernel sits where it does every
# boot; the module's sections are wherever this load put them, which the
# guest prints from /sys/module/inode_patterns/sections/ to the console,
# and gdb gets them in one add-symbol-file. The guest's /proc/kallsyms
# gives the few kernel addresses the gdb commands use (Debian ships no
# System.map and no vmlinux with symbols).
#
# The console goes to build/logs/<name>.log, never to gdb's terminal: read
# it with tail -f in a second terminal. Its input is a FIFO that gdb's
# "guest" and "ipat-run" commands write to (scripts/gdb/ipat.py).
#
# Environment (and qemu/run.sh's: QEMU_KERNEL, QEMU_INITRD, ...):
#   QEMU_SMP          guest CPUs (default 1 here: one thread for gdb)
#   IPAT_KTREE        a kernel tree built here (--debug sets it): gdb loads
#                     its vmlinux, and its gdb scripts (vmlinux-gdb.py)
#                     when the tree has them; boots its bzImage unless
#                     QEMU_KERNEL says otherwise. Give the image built
#                     against it in QEMU_INITRD.
#   IPAT_KO           the module gdb reads (default: the one in the image)
#   IPAT_GDB_TIMEOUT  seconds from the boot before gdb and the guest are
#                     stopped (default 3600; the tour and --batch 600)
#   IPAT_LOG          the name of the console log and of the work directory
#                     build/gdb/<name>/ (default gdb, gdb-tour, gdb-batch)
set -eu
cd "$(dirname "$0")/.."

usage() {
	echo "usage: scripts/gdb.sh [--debug SERIES] [--tour | --batch FILE] [-- kernel-param...]" >&2
	exit 2
}
mode=interactive batch_file='' debug=''
while [ $# -gt 0 ]; do
	case $1 in
	--tour) mode=tour; shift ;;
	--batch) [ $# -ge 2 ] || usage
		mode=batch batch_file=$2; shift 2 ;;
	--debug) [ $# -ge 2 ] || usage
		debug=$2; shift 2 ;;
	--) shift; break ;;
	-*) usage ;;
	*) break ;;
	esac
done

# --debug: what the debug kernel's build needs (its source, flex, bison,
# ...), the kernel, the module against it and an image of their own.
if [ -n "$debug" ]; then
	case $debug in 6.1 | 6.12 | 7.3 | 7.2) ;; *) echo "gdb.sh: --debug takes 6.1, 6.12, 7.3 or 7.2" >&2; exit 2 ;; esac
	IPAT_SERIES=$debug scripts/install-deps.sh
	echo "gdb.sh: the $debug debug kernel with debug information (scripts/debug-kernel.sh --gdb $debug)"
	IPAT_KTREE=$(scripts/debug-kernel.sh --gdb "$debug")
	# 3: built, with warnings: the test suite reports those; gdb can go on.
	scripts/guest-image.sh "debug-gdb-$debug" "$IPAT_KTREE" >/dev/null || [ $? -eq 3 ]
	export IPAT_KTREE QEMU_INITRD=build/debug-gdb-$debug/initramfs.cpio.gz
fi

ktree=${IPAT_KTREE:-}
if [ -n "$ktree" ]; then
	[ -f "$ktree/vmlinux" ] || { echo "gdb.sh: no vmlinux in $ktree" >&2; exit 1; }
	export QEMU_KERNEL=${QEMU_KERNEL:-$ktree/arch/x86/boot/bzImage}
fi
. qemu/boot-image.sh
boot_image gdb.sh
# The module gdb reads must be the very file the guest loads: the copy
# mkinitramfs.sh left beside the image.
ko=${IPAT_KO:-${initrd%.cpio.gz}/lib/modules/$kver/extra/inode_patterns.ko}
[ -f "$ko" ] || { echo "gdb.sh: $ko is missing; run make initramfs" >&2; exit 1; }
command -v gdb >/dev/null || { echo "gdb.sh: gdb is not installed (apt-get install gdb)" >&2; exit 1; }

case $mode in
interactive) name=${IPAT_LOG:-gdb} limit=${IPAT_GDB_TIMEOUT:-3600} ;;
tour) name=${IPAT_LOG:-gdb-tour} limit=${IPAT_GDB_TIMEOUT:-600} ;;
batch) name=${IPAT_LOG:-gdb-batch} limit=${IPAT_GDB_TIMEOUT:-600} ;;
esac
work=build/gdb/$name
log=build/logs/$name.log
rm -rf "$work"
mkdir -p "$work" build/logs
: >"$log"

# The kernel's own types, for the slab cache an object lives in: the
# offsets of struct slab's slab_cache and struct kmem_cache's name, read
# by pahole from the BTF of Debian's image (or the debug tree's vmlinux).
types=build/gdb/types-$kver.txt
if [ ! -s "$types" ] || [ "$kernel" -nt "$types" ] ||
	[ scripts/gdb/kernel-types.sh -nt "$types" ]; then
	scripts/gdb/kernel-types.sh "${ktree:+$ktree/vmlinux}" "$kernel" >"$types.tmp" ||
		{ echo "gdb.sh: no kernel type information; slab caches will not be named" >&2; }
	mv "$types.tmp" "$types"
fi

qpid=
cleanup() {
	if [ -n "$qpid" ]; then
		# run.sh passes TERM on to qemu and waits for it.
		kill -TERM "$qpid" 2>/dev/null || true
		wait "$qpid" 2>/dev/null || true
	fi
	exec 3>&- 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# The guest's console input: a FIFO held open here, so that each write by
# gdb's commands does not end the guest's input.
# The limit counts from here: gdb gets what the boot left of it, and the
# guest 10 s more, so that a guest gone first never leaves gdb waiting.
mkfifo "$work/console.in"
start=$(date +%s)
QEMU_SMP=${QEMU_SMP:-1} QEMU_GDB="unix:$work/gdb.sock,server=on,wait=off" IPAT_LOG=$name \
	QEMU_TIMEOUT=$((limit + 10)) qemu/run.sh shell "$@" \
	<"$work/console.in" >/dev/null 2>"$work/run.err" &
qpid=$!
exec 3>"$work/console.in"

# Lines the guest printed, without the serial line's carriage returns.
console() { tr -d '\r' <"$log"; }

wait_for() {
	local what=$1 secs=$2
	for _ in $(seq "$secs"); do
		console | grep -q "$what" && return 0
		kill -0 "$qpid" 2>/dev/null || break
		sleep 1
	done
	echo "gdb.sh: the guest did not print '$what' in ${secs}s; console: $log" >&2
	cat "$work/run.err" >&2
	exit 1
}

# Input sent before the guest's shell reads its serial port is lost.
echo "gdb.sh: booting $kernel ($kver) with the gdb stub; console: $log"
wait_for ' -f  *leaves the guest' 300
sleep 1
# Each marker is printed split ("IPAT"-...) so that the echo of the typed
# command never matches a line that starts with it.
cat >&3 <<'EOF'
insmod $IPAT_MODULE && for t in unionfs embedfs voidfs; do mkdir -p /mnt/$t && mount -t ${t}_demo none /mnt/$t; done
cd /sys/module/inode_patterns/sections && for s in $(ls -A); do echo "IPAT"-SECTION $s $(cat $s); done; cd /
grep -w -e __x64_sys_sync -e page_offset_base -e vmemmap_base /proc/kallsyms | sed 's/^/IPAT-KSYM /'
echo "IPAT"-GDB-READY $(grep -c _demo /proc/mounts)
EOF
wait_for '^IPAT-GDB-READY' 120
console | grep -q '^IPAT-GDB-READY 3$' ||
	{ echo "gdb.sh: the guest did not load and mount; console: $log" >&2; exit 1; }

# gdb's copy of the module. gdb places the sections of a relocatable file
# at the addresses add-symbol-file gives, and relocates its DWARF to match,
# only if every section's address in the file is 0 (symfile.c,
# default_symfile_offsets); the modules built against Debian's 6.12
# headers have .data at 0x1e0, and gdb then puts every static variable
# at the wrong address. The kernel ignores these addresses (a symbol's
# value in a relocatable file is its offset in its section), so the copy
# has them set to 0. Sections the kernel does not load (.modinfo,
# __versions) lose their "alloc" flag in the copy: gdb would place them at
# address 0, and name a NULL pointer after one of their symbols.
loaded=$(console | awk '$1 == "IPAT-SECTION" { print $2 }')
objargs=()
while read -r sec addr flags; do
	[ "$addr" = 0000000000000000 ] || objargs+=(--change-section-address "$sec=0")
	case $flags in *A*) ;; *) continue ;; esac
	grep -qxF -- "$sec" <<<"$loaded" ||
		objargs+=(--set-section-flags "$sec=contents,readonly")
done < <(readelf -SW "$ko" | sed -n 's/^ *\[ *[0-9]*\] //p' |
	awk '$1 != "NULL" && $2 != "NULL" { print $1, $3, ($7 ~ /^[A-Z]+$/ ? $7 : "-") }')
objcopy "${objargs[@]}" "$ko" "$work/inode_patterns.ko"

# What gdb's commands need, one "key value..." a line (scripts/gdb/ipat.py).
{
	echo "ko $work/inode_patterns.ko"
	echo "kver $kver"
	echo "log $log"
	echo "fifo $work/console.in"
	echo "socket $work/gdb.sock"
	console | awk '$1 == "IPAT-SECTION" { print "section", $2, $3 }
		$1 == "IPAT-KSYM" { print "ksym", $4, "0x" $2 }'
	cat "$types"
} >"$work/session.txt"

{
	echo "set pagination off"
	echo "set confirm off"
	echo "set width 0"
	# The module's debug information names its sources relative to the
	# repository (scripts/build-module.sh).
	echo "directory $PWD"
	if [ -n "$ktree" ]; then
		# Before "file": gdb loads vmlinux-gdb.py, when the tree has it,
		# as the script of vmlinux, if its directory is a safe path.
		echo "add-auto-load-safe-path $ktree"
		echo "file $ktree/vmlinux"
	fi
	echo "source scripts/gdb/ipat.py"
	echo "ipat-attach $work/session.txt"
	case $mode in
	tour) echo "source scripts/gdb/tour.py"; echo "ipat-tour" ;;
	batch) echo "source $batch_file" ;;
	esac
} >"$work/session.gdb"

gdbargs=(-q -nx -x "$work/session.gdb")
[ "$mode" = interactive ] || gdbargs=(-batch "${gdbargs[@]}")
if [ "$mode" = interactive ]; then
	cat <<-EOF
	gdb.sh: module loaded, unionfs_demo, embedfs_demo and voidfs_demo mounted
	  on /mnt/unionfs, /mnt/embedfs, /mnt/voidfs. In gdb:
	    ipat-run CMD     run CMD in the guest's shell, stop when it is done
	    guest CMD        type CMD into the guest's shell; "continue" runs it
	    ipat-reload      unload and reload the module, symbols and breakpoints kept
	    ipat-console     the console's last lines
	  The console is in $log (tail -f it in another terminal).
	  Quitting gdb ends the guest; both stop ${limit}s after the boot.
	EOF
fi
left=$((limit - ($(date +%s) - start)))
[ "$left" -gt 0 ] || { echo "gdb.sh: IPAT_GDB_TIMEOUT=${limit}s passed before gdb started" >&2; exit 124; }
rc=0
timeout --foreground -k 10 "$left" gdb "${gdbargs[@]}" || rc=$?
if [ "$rc" -eq 124 ]; then
	echo "gdb.sh: gdb stopped after IPAT_GDB_TIMEOUT=${limit}s" >&2
fi
exit "$rc"
