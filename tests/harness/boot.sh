# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2154 # suite.sh sets suite_*, run-qemu.sh $seed
#
# Stage of tests/run-qemu.sh, which sources it: boot the guest, and boot
# it once more if it never reached userspace.

# True if the guest in console log $1 reached userspace: /init's first line.
reached_init() {
	grep -q '^ipat: mode=' <(tr -d '\r' <"$1")
}

# Boot the guest the last suite_prepare set up; its console goes to
# build/logs/$1.log and to stdout, qemu's exit status to build/logs/$1.rc.
boot_suite() {
	local name=$1 log=build/logs/$1.log rc=0
	echo "== booting $suite_kernel: seed $seed, log $log =="
	rm -f "$log" "$log.first" "build/logs/$name.rc"	# never read an old run's
	boot() {
		# The dmesg dump repeats the boot messages: keep it in the log only.
		IPAT_LOG=$name QEMU_KERNEL=$suite_kernel QEMU_INITRD=$suite_initrd \
		QEMU_TIMEOUT=$suite_timeout qemu/run.sh test "${suite_params[@]}" |
			sed -u "/^IPAT-DMESG-BEGIN/,/^IPAT-DMESG-END/c\\(full dmesg: $log)"
		rc=${PIPESTATUS[0]}
	}
	boot
	# Under TCG with -smp 2 a kernel has failed before userspace, before
	# the module was ever loaded: a debug kernel hung in its boot
	# self-tests, and 6.12 once oopsed on an int3 while patching its own
	# code at boot (sched_clock_cpu). Such a boot is retried once, said
	# in the results (collect.sh); a failure once /init runs never is.
	if ! reached_init "$log"; then
		echo "!!! RETRY: the guest never reached userspace (qemu exit $rc);" \
		     "booting once more; the failed boot's log is $log.first !!!"
		mv "$log" "$log.first"
		boot
	fi
	echo "$rc" >"build/logs/$name.rc"
}
