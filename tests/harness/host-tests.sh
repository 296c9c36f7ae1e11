# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Stage of tests/run-qemu.sh, which sources it: the host tests, those of
# the repository (tests/host/) and the harness's own
# (tests/harness/selftest/host/), one numbered list, each a result
# host/NAME. Each one's output is also in build/logs/host-NAME.txt.

# host_tests KERNEL: the tests that boot a guest use KERNEL's image.
host_tests() {
	local file test rc
	mkdir -p build/logs
	export QEMU_INITRD=build/$1/initramfs.cpio.gz
	for file in $(printf '%s\n' tests/host/*.sh tests/harness/selftest/host/*.sh |
			awk -F/ '{ print $NF "\t" $0 }' | sort | cut -f2); do
		test=$(basename "$file" .sh)
		echo "== host test $test =="
		("$file" 2>&1 | tee "build/logs/host-$test.txt"; exit "${PIPESTATUS[0]}") &
		host_test_running=$test
		progress_wait host_test_progress $!
		rc=0
		wait $! || rc=$?
		# Exit 4 (kselftest's KSFT_SKIP): the test skipped, saying why
		# on its last line. A failing test's last line is its
		# diagnostic in the KTAP report, which is all a CI log's tail
		# may show.
		case $rc in
		0) result PASS "host/$test" ;;
		4) result SKIP "host/$test" "$(tail -n 1 "build/logs/host-$test.txt")" ;;
		*) result FAIL "host/$test" "$(tail -n 1 "build/logs/host-$test.txt")" ;;
		esac
	done
	unset QEMU_INITRD
}

host_test_progress() {
	echo "host test $host_test_running: running"
}
