#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/run-qemu.sh's KTAP (tests/harness/ktap.awk) is KTAP to the kernel's own
# reader: a fixture of results, nested kernel / tier / group, with a pass,
# a failure, a skip and notes, goes through ktap.awk and then through
# kunit.py parse (tools/testing/kunit of the newest Debian linux-source
# installed, extracted into the cache), which must count what went in; and
# the named checks of guest tests (tests/harness/cases.awk), nested likewise.
set -eu
cd "$(dirname "$0")/../../../.."

pkg=linux-source-6.12
[ -r "/usr/src/$pkg.tar.xz" ] || pkg=linux-source-6.1
tarball=/usr/src/$pkg.tar.xz
[ -r "$tarball" ] || { echo "ktap: no linux-source-6.x is installed (scripts/install-deps.sh)"; exit 1; }
cache=${IPAT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/inode-patterns}
srcver=$(dpkg-query -W -f='${Version}' "$pkg")
dir=$cache/kunit-tool/$srcver
if [ ! -f "$dir/extracted" ]; then
	rm -rf "$dir"
	mkdir -p "$dir"
	tar -xJf "$tarball" -C "$dir" --strip-components=1 --wildcards \
		"$pkg/tools/testing/kunit/*"
	touch "$dir/extracted"
fi

tab=$'\t'
ktap=$(awk -f tests/harness/ktap.awk <<EOT
PASS${tab}static/checkpatch${tab}
PASS${tab}6.1.0-1-amd64/build${tab}clean
PASS${tab}6.1.0-1-amd64/stock/guest/00-module-load${tab}
SKIP${tab}6.1.0-1-amd64/stock/guest/30-idmap${tab}no idmapped tmpfs before 6.3
FAIL${tab}6.1.0-1-amd64/stock/guest/40-differential${tab}no result
PASS${tab}6.1.0-1-amd64/stock/kernel-log${tab}
NOTE${tab}6.1.0-1-amd64/debug${tab}kunit: suites=4 passed=30
PASS${tab}6.1.0-1-amd64/debug/guest/00-module-load${tab}
PASS${tab}host/40-dkms${tab}
EOT
)
out=$(cd "$dir/tools/testing/kunit" && python3 kunit.py parse <<<"$ktap" 2>&1) || true
want="Ran 8 tests: passed: 6, failed: 1, skipped: 1"
if ! grep -qF "$want" <<<"$out"; then
	echo "ktap: kunit.py parse did not say '$want'; the KTAP and its reading follow"
	echo "$ktap"
	echo "$out"
	exit 1
fi
# The failure is reported where it happened, and its parents fail too.
for line in "not ok 3 40-differential" "    not ok 1 guest" "not ok 2 6.1.0-1-amd64" \
	"ok 3 host"; do
	grep -qF -- "$line" <<<"$ktap" || { echo "ktap: no line '$line'"; echo "$ktap"; exit 1; }
done

# The named checks of a guest test (tests/harness/cases.awk): numbered or not,
# KUnit's cases under their suite, a skip, a repeated name, a "/" in one;
# nothing outside a test's START/RESULT lines.
cases=$(awk -f tests/harness/cases.awk <<'EOT'
ok 0 outside any test
IPAT-START 45-interop
ok 1 tmpfs: statfs: f_fsid is not 0
not ok 2 embedfs_demo: a/b was renamed
ok 3 voidfs_demo: initsec: create calls it once # SKIP no function tracer
ok   tmpfs: mount: unknown option
ok   tmpfs: mount: unknown option
IPAT-RESULT 45-interop FAIL
IPAT-START 85-kunit
KTAP version 1
# Subtest: inode_patterns_xattr
1..2
    ok 1 xt_set_get
    ok 2 xt_missing
ok 1 inode_patterns_xattr
IPAT-RESULT 85-kunit PASS
EOT
)
want_cases="45-interop${tab}PASS${tab}tmpfs: statfs: f_fsid is not 0${tab}
45-interop${tab}FAIL${tab}embedfs_demo: a∕b was renamed${tab}
45-interop${tab}SKIP${tab}voidfs_demo: initsec: create calls it once${tab}no function tracer
45-interop${tab}PASS${tab}tmpfs: mount: unknown option${tab}
45-interop${tab}PASS${tab}tmpfs: mount: unknown option (2)${tab}
85-kunit${tab}PASS${tab}inode_patterns_xattr: xt_set_get${tab}
85-kunit${tab}PASS${tab}inode_patterns_xattr: xt_missing${tab}"
if [ "$cases" != "$want_cases" ]; then
	echo "ktap: tests/harness/cases.awk read the checks wrong; got, then wanted:"
	echo "$cases"
	echo "$want_cases"
	exit 1
fi
# Checks nested under their test, counted by kunit.py as tests.
ktap=$(awk -F"$tab" -v OFS="$tab" '{ print $2, "k/guest/" $1 "/" $3, $4, "case" }' <<<"$cases" |
	awk -f tests/harness/ktap.awk)
out=$(cd "$dir/tools/testing/kunit" && python3 kunit.py parse <<<"$ktap" 2>&1) || true
want2="Ran 7 tests: passed: 5, failed: 1, skipped: 1"
if ! grep -qF "$want2" <<<"$out"; then
	echo "ktap: kunit.py parse of the checks did not say '$want2'; the KTAP and its reading follow"
	echo "$ktap"
	echo "$out"
	exit 1
fi
echo "ktap: kunit.py reads the harness's KTAP: $want; the checks of a test: $want2"
