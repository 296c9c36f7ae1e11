#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the Debian kernel the module was built for with build/initramfs.cpio.gz
# (make initramfs) in QEMU. The serial console goes to the terminal and to
# build/logs/<name>.log.
#
#   qemu/run.sh MODE [kernel-param...]     MODE: test, shell or bench
#   qemu/run.sh test ipat.tests='00-*' ipat.seed=42
#   qemu/run.sh gdb [--tour] [...]         scripts/gdb.sh: a shell guest
#                                          under gdb (docs/debugging.md)
#
# Environment:
#   QEMU_ACCEL    tcg (default) or kvm
#   QEMU_MEM      guest memory in MiB (default 1024)
#   QEMU_SMP      guest CPUs (default 2)
#   QEMU_TIMEOUT  seconds before qemu is killed (default 600; shell 3600)
#   IPAT_LOG      log name under build/logs/ (default: MODE)
#   QEMU_KERNEL   kernel image (default: /boot/vmlinuz-<the image's kver>)
#   QEMU_INITRD   initramfs (default: build/initramfs.cpio.gz)
#   QEMU_ICOUNT   1: count instructions (the bench's instruction mode):
#                 -icount shift=0,sleep=off makes the guest clock advance
#                 exactly 1 ns per guest instruction, so every time the
#                 guest measures is an instruction count, whatever the
#                 host does. icount needs TCG and one vCPU (it does not
#                 work with multi-threaded TCG): -smp 1. The boot is pinned
#                 besides: -rtc base=2026-01-01T00:00:00,clock=vm (the
#                 guest's date is the same at every boot and advances
#                 with the VM's clock: from the host's date, two boots of
#                 one image a few seconds apart counted differently), nokaslr
#                 (the same addresses every boot), random.trust_cpu=off.
#                 On the same image (qemu/mkinitramfs.sh makes the same
#                 bytes from the same sources) the guest then runs the
#                 same instructions at every boot.
#   QEMU_GDB      a chardev for QEMU's gdb stub, e.g.
#                 unix:build/gdb/gdb.sock,server=on,wait=off or
#                 tcp:127.0.0.1:1234 (scripts/gdb.sh sets it); adds nokaslr,
#                 so that the kernel's addresses are those of every boot.
#   QEMU_EXTRA    more qemu arguments, split at blanks: e.g. the cache
#                 model, -plugin build/cache-model/ipat-cache.so,out=FILE
#                 (bench/cache-model/README.md)
#
# Exit status: qemu's, or 124 when QEMU_TIMEOUT killed it. A guest panic
# ends qemu at once (panic=-1 with -no-reboot) and exits 0: read the log.
set -eu
cd "$(dirname "$0")/.."

mode=${1:-}
case $mode in
test|shell|bench) shift ;;
gdb) shift; exec scripts/gdb.sh "$@" ;;
*) echo "usage: qemu/run.sh test|shell|bench|gdb [kernel-param...]" >&2; exit 2 ;;
esac

. qemu/boot-image.sh
boot_image run.sh
[ -r "$kernel" ] || { echo "run.sh: cannot read $kernel (run as root?)" >&2; exit 1; }

if [ "$mode" = shell ]; then timeout=${QEMU_TIMEOUT:-3600}; else timeout=${QEMU_TIMEOUT:-600}; fi
log=build/logs/${IPAT_LOG:-$mode}.log
mkdir -p build/logs
: >"$log"

# Warnings and oopses panic at once, so a broken run stops where it broke;
# slub_debug and slab_nomerge make slab corruption and leaks visible.
# The bench measures slab object sizes and speed, which slub_debug changes
# (red zones, tracking): it keeps slab_nomerge only, so caches stay apart.
slub_debug=slub_debug=FZPU
[ "$mode" = bench ] && slub_debug=
params="console=ttyS0 $slub_debug slab_nomerge panic_on_warn=1 oops=panic"
params="$params panic=-1 edd=off ipat.mode=$mode"
# The dmesg dump at the end of a test run must hold the whole boot: an
# expected report's window (scripts/check-log.sh) must not lose its begin
# line to a wrapped log buffer, as the debug kernel's 128 KiB did.
params="$params log_buf_len=16M"

# Instruction mode: see QEMU_ICOUNT above.
icount=() smp=${QEMU_SMP:-2}
if [ "${QEMU_ICOUNT:-0}" = 1 ]; then
	if [ "${QEMU_ACCEL:-tcg}" != tcg ]; then
		echo "run.sh: QEMU_ICOUNT=1 needs TCG, not QEMU_ACCEL=$QEMU_ACCEL" >&2
		exit 2
	fi
	icount=(-icount "shift=0,sleep=off" -rtc "base=2026-01-01T00:00:00,clock=vm")
	smp=1
	params="$params nokaslr random.trust_cpu=off"
fi
# The gdb stub: see QEMU_GDB above.
gdbstub=()
if [ -n "${QEMU_GDB:-}" ]; then
	gdbstub=(-gdb "$QEMU_GDB")
	params="$params nokaslr"
fi
params="$params $*"

extra=()
[ -z "${QEMU_EXTRA:-}" ] || read -r -a extra <<<"$QEMU_EXTRA"

# qboot (from qemu-system-data) boots -kernel directly; SeaBIOS would
# take longer and reset the terminal through the serial console.
bios=()
[ -f /usr/share/qemu/qboot.rom ] && bios=(-bios /usr/share/qemu/qboot.rom)

# Only the shell reads the terminal; other modes must not wait on stdin.
stdin=/dev/null
[ "$mode" = shell ] && stdin=/dev/stdin

# --foreground: stay in the terminal's process group, so that the shell
# mode can read it. Background + wait: a signal to us still stops qemu.
timeout --foreground -k 10 "$timeout" \
	qemu-system-x86_64 -accel "${QEMU_ACCEL:-tcg}" "${icount[@]}" \
	-smp "$smp" -m "${QEMU_MEM:-1024}" "${gdbstub[@]}" \
	-nographic -no-reboot -nodefaults "${bios[@]}" \
	-chardev "stdio,id=console,mux=on,signal=off,logfile=$log" \
	-serial chardev:console -mon chardev=console \
	-kernel "$kernel" -initrd "$initrd" -append "$params" "${extra[@]}" <"$stdin" &
pid=$!
trap 'kill -TERM "$pid" 2>/dev/null; wait "$pid"; exit 130' INT TERM HUP
rc=0
wait "$pid" || rc=$?
trap - INT TERM HUP
if [ "$mode" = shell ] && [ -t 0 ]; then stty sane; fi
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	echo "run.sh: qemu killed after QEMU_TIMEOUT=${timeout}s; log: $log" >&2
	exit 124
fi
exit "$rc"
