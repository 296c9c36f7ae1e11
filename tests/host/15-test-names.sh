#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The tests are named and timed as their runner expects: in tests/guest/,
# tests/host/ and the harness's self-tests (tests/harness/selftest/guest/
# and host/), every test is NN-what-it-checks.sh with a number no other
# test of its kind has (the host tests of both directories are one list);
# a guest directory's settings file (format: tests/guest/settings) has one
# "timeout=N" and only "timeout.TEST=N" lines besides, each TEST an
# existing test named once; and every path to a test the tree mentions
# exists. Runs on the host, without a guest.
#   tests/host/15-test-names.sh [ROOT]   check ROOT instead (default: here)
set -eu
cd "${1:-$(dirname "$0")/../..}"

bad=0
fail() {
	echo "test-names: $*"
	bad=1
}

# Each kind of test: its directories, their settings file if they are
# guest tests.
for dirs in tests/guest tests/harness/selftest/guest "tests/host tests/harness/selftest/host"; do
	declare -A number=() named=()
	dir=${dirs%% *}
	for file in $(for d in $dirs; do echo "$d"/*.sh; done); do
		test=$(basename "$file" .sh)
		if [[ ! $test =~ ^([0-9][0-9])-[a-z0-9]+(-[a-z0-9]+)*$ ]]; then
			fail "$file: not named NN-what-it-checks.sh"
			continue
		fi
		nn=${BASH_REMATCH[1]}
		[ -z "${number[$nn]:-}" ] ||
			fail "$file: number $nn is also ${number[$nn]}'s"
		number[$nn]=$test
	done

	settings=$dir/settings
	if [ "$dir" = tests/host ]; then
		:	# host tests run with no time limit of their own
	elif [ ! -f "$settings" ]; then
		fail "$settings is missing"
	else
		defaults=0 line=0
		while IFS= read -r text; do
			line=$((line + 1))
			case $text in '#'*|'') continue ;; esac
			where="$settings:$line: '$text'"
			if [[ $text =~ ^timeout=([1-9][0-9]*)$ ]]; then
				defaults=$((defaults + 1))
			elif [[ $text =~ ^timeout\.([^=]+)=([1-9][0-9]*)$ ]]; then
				test=${BASH_REMATCH[1]}
				[ -f "$dir/$test.sh" ] || fail "$where: there is no test $dir/$test.sh"
				[ -z "${named[$test]:-}" ] || fail "$where: $test has a limit already"
				named[$test]=1
			else
				fail "$where: neither timeout=N nor timeout.TEST=N (N > 0)"
			fi
		done <"$settings"
		[ "$defaults" -eq 1 ] || fail "$settings: $defaults timeout=N lines, not one"
	fi
	unset number named
done

# Paths to tests in comments and docs (not in results/, which records
# past runs under the names of their day).
while IFS=: read -r file path; do
	[ -f "$path" ] || fail "$file names $path, which does not exist"
done < <(grep -rEo --exclude-dir=.git --exclude-dir=build --exclude-dir=results \
	'tests/(harness/selftest/)?(guest|host)/[0-9][0-9]-[a-z0-9-]*[a-z0-9]\.sh' . |
	sed 's,^\./,,' | sort -u)

[ "$bad" -ne 0 ] || echo "test-names: every test numbered once, timed by its settings file, and named where it exists"
exit "$bad"
