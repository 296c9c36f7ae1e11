# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2154 # run-qemu.sh sets $seed
#
# Stage of tests/run-qemu.sh, which sources it: the results. Each is
# printed as it is found and kept; finish prints them all in KTAP
# (ktap.awk), writes build/logs/results.ktap with the named checks nested
# under their tests, prints "N passed, N failed, N skipped" and exits.

passed=0 failed=0 skipped=0 ncases=0 results=()

# result PASS|FAIL|SKIP|NOTE PATH [DETAIL]: see ktap.awk
result() {
	results+=("$1"$'\t'"$2"$'\t'"${3:-}")
	case $1 in
	PASS) passed=$((passed + 1)) ;;
	FAIL) failed=$((failed + 1)) ;;
	SKIP) skipped=$((skipped + 1)) ;;
	esac
	echo "$1 $2${3:+: $3}"
}

# case_result PASS|FAIL|SKIP PATH [REASON]: one named check of a guest
# test, kept for the KTAP report only: not printed, not counted (the test
# it belongs to is).
case_result() {
	results+=("$1"$'\t'"$2"$'\t'"${3:-}"$'\t'case)
	ncases=$((ncases + 1))
}

# The KTAP report and the summary line; exits 1 if a result failed.
finish() {
	mkdir -p build/logs
	printf '%s\n' "${results[@]}" | awk -f tests/harness/ktap.awk >build/logs/results.ktap
	echo
	echo "== results in KTAP (seed $seed; rerun: tests/run-qemu.sh -s $seed) =="
	echo "== the tests below; with their $ncases named checks: build/logs/results.ktap =="
	printf '%s\n' "${results[@]}" | awk -F'\t' '$4 != "case"' |
		awk -f tests/harness/ktap.awk
	echo "$passed passed, $failed failed, $skipped skipped"
	exit $((failed > 0))
}
