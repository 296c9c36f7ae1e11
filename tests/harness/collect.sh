# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2154 # run-qemu.sh sets $testdir
#
# Stage of tests/run-qemu.sh, which sources it: the results of one guest
# boot, read from its console log: each test's IPAT-RESULT line, its named
# checks (cases.awk), IPAT-DONE, and the kernel log's reports
# (scripts/check-log.sh).

# The guest tests expected, in the guest's order, so that a test the guest
# never reported (it crashed or hung) still counts as failed.
expected_tests() {
	local list=$1 file test glob globs
	for file in "$testdir"/*.sh; do
		test=$(basename "$file" .sh)
		if [ -z "$list" ]; then echo "$test"; continue; fi
		IFS=, read -ra globs <<<"$list"
		for glob in "${globs[@]}"; do
			# shellcheck disable=SC2053 # $glob is a pattern on purpose
			if [[ $test == $glob ]]; then echo "$test"; break; fi
		done
	done
}

# suite_cases PATH TEST STATUS CASE...: the checks of TEST, from
# cases.awk's lines, as subtests of PATH; the last one is the test's own
# exit, so that a test which failed without a failed check still shows
# where.
suite_cases() {
	local path=$1 test=$2 st=$3 line t cst desc why
	shift 3
	for line in "$@"; do
		IFS=$'\t' read -r t cst desc why <<<"$line"
		[ "$t" = "$test" ] || continue
		case_result "$cst" "$path/$desc" "$why"
	done
	case $st in
	PASS) case_result PASS "$path/$test exits with success" ;;
	*) case_result FAIL "$path/$test exits with success" ;;
	esac
}

# Record the guest results of kernel $1's tier $2, whose tests were the
# list $3, under "$1/$2/", from the console log its boot_suite left.
suite_results() {
	local kver=$1 suite=$2 list=$3 name log console rc test last line st
	local -a expected=()
	local -A status=() reason=()
	local prefix
	prefix=$(suite_prefix "$kver" "$suite")
	name=$(suite_name "$kver" "$suite")
	log=build/logs/$name.log
	rc=$(cat "build/logs/$name.rc" 2>/dev/null || echo "?")
	mapfile -t expected < <(expected_tests "$list")
	[ ! -e "$log.first" ] ||
		result NOTE "$prefix" "RETRIED: the first boot never reached userspace ($log.first)"
	console=$(tr -d '\r' <"$log" 2>/dev/null || true)

	while read -r _ test st rest; do
		status[$test]=$st
		reason[$test]=$rest
	done < <(grep -E '^IPAT-RESULT [^ ]+ (PASS|FAIL|SKIP)' <<<"$console" || true)

	# The named checks each test printed.
	local -A ncase=() badcase=()
	local -a cases=()
	mapfile -t cases < <(awk -f tests/harness/cases.awk <<<"$console")
	for line in "${cases[@]}"; do
		IFS=$'\t' read -r test st _ <<<"$line"
		ncase[$test]=$((${ncase[$test]:-0} + 1))
		[ "$st" != FAIL ] || badcase[$test]=1
	done

	[ ${#expected[@]} -gt 0 ] || result FAIL "$prefix/guest" "no test matched '${list:-*}'"
	for test in "${expected[@]}"; do
		st=${status[$test]:-}
		# A test that exits 0 with a failed check has failed.
		[ "$st" != PASS ] || [ -z "${badcase[$test]:-}" ] || st=FAILCASE
		if [ -n "${ncase[$test]:-}" ] && [ "$st" != SKIP ]; then
			suite_cases "$prefix/guest/$test" "$test" "${status[$test]:-}" "${cases[@]}"
		fi
		case $st in
		PASS) result PASS "$prefix/guest/$test" ;;
		SKIP) result SKIP "$prefix/guest/$test" "${reason[$test]}" ;;
		FAIL) result FAIL "$prefix/guest/$test" "failed; its output is in $log" ;;
		FAILCASE) result FAIL "$prefix/guest/$test" "a check failed, yet it exited 0; its output is in $log" ;;
		*) result FAIL "$prefix/guest/$test" "no result (the guest stopped during or before it)" ;;
		esac
	done

	if grep -qx IPAT-DONE <<<"$console"; then
		result PASS "$prefix/done" "the guest reached IPAT-DONE"
	else
		last=$(grep -oE 'IPAT-START [^ ]+' <<<"$console" | tail -n 1 | cut -d' ' -f2)
		result FAIL "$prefix/done" "no IPAT-DONE (qemu exit $rc; last test started: ${last:-none})"
	fi
	if scripts/check-log.sh "$log"; then
		result PASS "$prefix/kernel-log" "no reports"
	else
		result FAIL "$prefix/kernel-log" "reports found (above, and in $log)"
	fi
	[ "$suite" != debug ] || debug_tier_checks "$prefix" "$console" "$list"
}
